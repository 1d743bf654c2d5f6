"""A seeded deal of the simulator, as the report's studies run it: one shape for all of them.

The report's cross-checks (:mod:`solver.studies.report`) and its counters
(:mod:`solver.studies.protection`) each deal a fixed number of rounds of one strategy from
one seed, to a cut card or from a fresh shoe: :class:`SeededDeal` is that deal, with the
settings a store keys it by (everything its counts depend on but the rules).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from solver.model.rules import Rules
from solver.model.shuffles import Shuffle
from solver.results.simulation import Counter, ExactFigure, SimulationResult
from solver.sim import Strategy, simulate
from solver.sim.run import CHUNK_ROUNDS


@dataclass(frozen=True, slots=True)
class SeededDeal:
    """``rounds`` rounds of ``strategy`` from ``seed``, dealt to a cut card at
    ``penetration`` (``None``: a fresh shoe every round) or by a continuous shuffler with a
    tray of ``buffer`` cards, one seat."""

    strategy: Strategy
    rounds: int
    seed: int
    penetration: float | None
    buffer: int | None = None

    @property
    def settings(self) -> dict[str, Any]:
        """What the counts depend on besides the rules, never the workers (the seeded chunks
        are the same for any ``jobs``): the key a store keeps the deal by."""
        return {
            "strategy": self.strategy.name,
            "rounds": self.rounds,
            "seed": self.seed,
            "penetration": self.penetration,
            "seats": 1,
            "chunk_rounds": CHUNK_ROUNDS,
            **({} if self.buffer is None else {"buffer": self.buffer}),
        }

    def deal(
        self,
        rules: Rules,
        jobs: int = 1,
        *,
        exact: Mapping[str, ExactFigure] | None = None,
        counter: Counter | None = None,
    ) -> SimulationResult:
        """Deal it under ``rules`` with ``jobs`` workers, checked against ``exact`` figures
        or with a ``counter`` seated."""
        return simulate(
            rules,
            self.strategy,
            self.rounds,
            seed=self.seed,
            penetration=self.penetration,
            jobs=jobs,
            exact=exact,
            counter=counter,
            shuffle=None if self.buffer is None else Shuffle.csm(self.buffer),
        )
