"""The one protocol both stores implement: games, best charts and effects of removal.

Each consumer names the smallest part it uses, beside its own code:
:class:`~solver.exact.game.GameStore` (games), :class:`~solver.exact.chart.ChartStore`
(charts), :class:`~solver.exact.protection.EffectsStore` (effects of removal),
:class:`~solver.studies.report.SimulationStore` (the report's cross-checks) and
:class:`~solver.studies.report.StudyStore` (the report's other studies: any kind, by name).
:class:`Store` is all of them: what :class:`~solver.store.disk.DiskCache` and
:class:`~solver.store.memory.MemoryCache` are, and what the API's commands take.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from solver.model.cards import Card
    from solver.model.rules import Rules
    from solver.results.charts import Chart
    from solver.results.game import GameResult
    from solver.results.protection import EffectsOfRemoval
    from solver.results.simulation import SimulationResult

T = TypeVar("T")


class Store(Protocol):
    """Somewhere solved games, best charts, effects of removal and simulations are kept."""

    def game(
        self,
        rules: Rules,
        removed: tuple[Card, ...],
        exact: bool,
        compute: Callable[[], GameResult[Any]],
    ) -> GameResult[Any]:
        """The stored game for these inputs, or ``compute()`` (then stored)."""
        ...

    def chart(self, rules: Rules, compute: Callable[[], Chart]) -> Chart:
        """The stored best chart under ``rules`` (a full shoe), or ``compute()`` (then stored)."""
        ...

    def effects_of_removal(
        self,
        rules: Rules,
        removed: tuple[Card, ...],
        exact: bool,
        compute: Callable[[], EffectsOfRemoval[Any]],
    ) -> EffectsOfRemoval[Any]:
        """The stored effects of removal for these inputs, or ``compute()`` (then stored)."""
        ...

    def simulation(
        self, rules: Rules, settings: Mapping[str, Any], compute: Callable[[], SimulationResult]
    ) -> SimulationResult:
        """The stored simulation under ``rules`` and ``settings``, or ``compute()`` (then
        stored)."""
        ...

    def study(
        self, kind: str, rules: Rules, settings: Mapping[str, Any], compute: Callable[[], T]
    ) -> T:
        """The stored study of this ``kind`` (a name: ``"table-of-players"``, ...) under
        ``rules`` and ``settings``, or ``compute()`` (then stored): a frozen dataclass of
        :func:`solver.store.studies.study_types`, or a tuple of them."""
        ...
