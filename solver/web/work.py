"""The API's store for the workbench: solved games kept by their paytable-free rules.

:class:`WorkbenchStore` is the store handed to the API: it keeps each solved game by its rules
*less the paytable and the Bonus ratio*, and answers any other paytable or ratio by
re-pricing that game (:meth:`~solver.exact.paytable.EdgeModel.priced`: the main wager's play
does not depend on them), in milliseconds.  What it keeps is held by the server's one
:class:`~solver.web.memory.Memory` when it is given one (its cap: ``cbj serve --memory-mb``).
The jobs that fill it are :mod:`solver.web.jobs`'.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from solver.exact.paytable import EdgeModel
from solver.model.rules import MIN_BONUS_RATIO, Paytable, Rules
from solver.web.memory import Memory

if TYPE_CHECKING:
    from solver.exact.chart import Chart
    from solver.exact.game import GameResult
    from solver.exact.protection import EffectsOfRemoval
    from solver.model.cards import Card
    from solver.sim import SimulationResult
    from solver.store.protocol import Store

T = TypeVar("T")
V = TypeVar("V")


def neutral(rules: Rules) -> Rules:
    """The rules with the default paytable and the least Bonus ratio: what a solve depends on.

    >>> neutral(Rules(paytable=Paytable.parse("20:5:1"))) == Rules()
    True
    """
    return replace(rules, paytable=Paytable(), bonus_ratio=MIN_BONUS_RATIO)


class _Kept(Generic[V]):
    """A small thread-safe memory of the latest values, oldest dropped first (or the
    server's :class:`Memory`, under ``name``, when given one)."""

    def __init__(self, size: int, memory: Memory | None = None, name: str = "") -> None:
        self.size = size
        self.memory = memory
        self.name = name
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        if self.memory is not None:
            found: V | None = self.memory.get((self.name, key))
            return found
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> None:
        if self.memory is not None:
            self.memory.put((self.name, key), value)
            return
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.size:
                self._values.popitem(last=False)


class WorkbenchStore:
    """The API's store for the workbench: games by their paytable-free rules, re-priced.

    A :class:`~solver.store.protocol.Store` over ``inner`` (the disk cache, or None): a
    game asked for under a paytable or ratio not solved before is the game solved under
    another, re-priced; charts and effects of removal are kept as they are.
    """

    def __init__(
        self, inner: Store | None = None, size: int = 64, memory: Memory | None = None
    ) -> None:
        self.inner = inner
        self._games: _Kept[GameResult[Any]] = _Kept(size, memory, "games")
        self._charts: _Kept[Chart] = _Kept(size, memory, "charts")

    @staticmethod
    def _key(rules: Rules, removed: tuple[Card, ...], exact: bool) -> Hashable:
        return (neutral(rules), tuple(sorted(str(c) for c in removed)), exact)

    def has_game(self, rules: Rules, exact: bool) -> bool:
        """A game under these rules (any paytable and ratio) is at hand: no solve needed."""
        return self._games.get(self._key(rules, (), exact)) is not None

    def game(
        self,
        rules: Rules,
        removed: tuple[Card, ...],
        exact: bool,
        compute: Callable[[], GameResult[Any]],
    ) -> GameResult[Any]:
        """The game under ``rules``: re-priced from one kept, else solved (and kept)."""
        key = self._key(rules, removed, exact)
        base = self._games.get(key)
        if base is None:
            base = (
                compute() if self.inner is None else self.inner.game(rules, removed, exact, compute)
            )
            self._games.put(key, base)
        if base.rules == rules and base.removed == removed:
            return base
        priced = EdgeModel(base).priced(rules.paytable, rules.bonus_ratio)
        return replace(priced, removed=removed)

    def chart(self, rules: Rules, compute: Callable[[], Chart]) -> Chart:
        """The best chart under ``rules``, kept in memory (and by ``inner``)."""
        chart = self._charts.get(rules)
        if chart is None:
            chart = compute() if self.inner is None else self.inner.chart(rules, compute)
            self._charts.put(rules, chart)
        return chart

    def _passed(self, method: str, compute: Callable[[], T], *inputs: Any) -> T:
        """What ``inner``'s ``method`` answers for ``inputs`` (it calls ``compute`` when it
        has nothing stored), or ``compute()`` when there is no ``inner``: every kind of
        entry but games and charts is passed on as it is."""
        if self.inner is None:
            return compute()
        found: T = getattr(self.inner, method)(*inputs, compute)
        return found

    def effects_of_removal(
        self,
        rules: Rules,
        removed: tuple[Card, ...],
        exact: bool,
        compute: Callable[[], EffectsOfRemoval[Any]],
    ) -> EffectsOfRemoval[Any]:
        """Effects of removal, from ``inner`` if there is one."""
        return self._passed("effects_of_removal", compute, rules, removed, exact)

    def simulation(
        self, rules: Rules, settings: Mapping[str, Any], compute: Callable[[], SimulationResult]
    ) -> SimulationResult:
        """A report's cross-check, from ``inner`` if there is one."""
        return self._passed("simulation", compute, rules, settings)

    def study(
        self, kind: str, rules: Rules, settings: Mapping[str, Any], compute: Callable[[], T]
    ) -> T:
        """A report's study of any kind (table of players, protection, ...), from ``inner``
        if there is one."""
        return self._passed("study", compute, kind, rules, settings)
