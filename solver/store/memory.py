"""The memory store: solved games, charts and effects of removal kept for the life of an object."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from solver.store.codecs import with_removed

if TYPE_CHECKING:
    from solver.model.cards import Card
    from solver.model.rules import Rules
    from solver.results.charts import Chart
    from solver.results.game import GameResult
    from solver.results.protection import EffectsOfRemoval
    from solver.results.simulation import SimulationResult

T = TypeVar("T")


class MemoryCache:
    """Solved games and charts kept in memory for the life of the object (a notebook, a test
    session), and the effects of removal found from them (``eor`` then ``count`` find them
    once): a :class:`~solver.store.protocol.Store`."""

    def __init__(self) -> None:
        self.games: dict[tuple[Rules, tuple[str, ...], bool], GameResult[Any]] = {}
        self.charts: dict[Rules, Chart] = {}
        self.effects: dict[tuple[Rules, tuple[str, ...], bool], EffectsOfRemoval[Any]] = {}
        self.simulations: dict[tuple[Rules, str], SimulationResult] = {}
        self.studies: dict[tuple[str, Rules, str], Any] = {}

    def study(
        self, kind: str, rules: Rules, settings: Mapping[str, Any], compute: Callable[[], T]
    ) -> T:
        """The study of this kind made before under ``rules`` and ``settings``, or
        ``compute()`` (then kept)."""
        key = (kind, rules, json.dumps(dict(settings), sort_keys=True))
        if key not in self.studies:
            self.studies[key] = compute()
        found: T = self.studies[key]
        return found

    def simulation(
        self, rules: Rules, settings: Mapping[str, Any], compute: Callable[[], SimulationResult]
    ) -> SimulationResult:
        """The simulation run before under ``rules`` and ``settings``, or ``compute()``."""
        key = (rules, json.dumps(dict(settings), sort_keys=True))
        if key not in self.simulations:
            self.simulations[key] = compute()
        return self.simulations[key]

    def effects_of_removal(
        self,
        rules: Rules,
        removed: tuple[Card, ...],
        exact: bool,
        compute: Callable[[], EffectsOfRemoval[Any]],
    ) -> EffectsOfRemoval[Any]:
        """The effects of removal found before for these inputs, or ``compute()`` (then kept).

        Keyed by the removed cards in the caller's order, which the result carries.
        """
        key = (rules, tuple(str(c) for c in removed), exact)
        if key not in self.effects:
            self.effects[key] = compute()
        return self.effects[key]

    def chart(self, rules: Rules, compute: Callable[[], Chart]) -> Chart:
        """The best chart found before under ``rules``, or ``compute()`` (then kept)."""
        if rules not in self.charts:
            self.charts[rules] = compute()
        return self.charts[rules]

    def game(
        self,
        rules: Rules,
        removed: tuple[Card, ...],
        exact: bool,
        compute: Callable[[], GameResult[Any]],
    ) -> GameResult[Any]:
        """The game solved before for these inputs, or ``compute()`` (then kept)."""
        key = (rules, tuple(sorted(str(c) for c in removed)), exact)
        if key not in self.games:
            self.games[key] = compute()
        return with_removed(self.games[key], removed)  # type: ignore[no-any-return]
