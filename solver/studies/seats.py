"""A table of players: the casino's result per table-round for 1 to 7 seats (``cbj seats``).

Seats share the Bonus card, the dealer's hand and the shoe, so their results are
correlated and a table's spread is not a single seat's times the seats.  The Bonus
wager's hold and SD are exact (:mod:`solver.exact.seats`); the main wager's and the
round's come from the simulator (:mod:`solver.sim.seats`) with 95% intervals, since no
exact path here follows several players' hands against one dealer.  The simulator's
Bonus figure is kept beside the exact one, with its z-score, as a check of both.

Every figure is in units of the main wager per table-round, from the casino's side
(positive is the casino's win).  Each table-round is dealt from a freshly shuffled shoe,
as the exact Bonus figures assume.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from solver.exact.seats import SEAT_COUNTS, TableBonus, check_seats, table_bonus
from solver.model.checks import check_rounds, check_seed
from solver.model.errors import SimulationError
from solver.model.numbers import exact_json, float_json
from solver.model.rules import Rules
from solver.sim import Strategy, simulate
from solver.sim.seats import TableEstimate, table_estimate

#: Table-rounds simulated for each number of seats when the caller does not say.
DEFAULT_ROUNDS = 200_000


@dataclass(frozen=True, slots=True)
class SeatsRow:
    """One number of seats: the exact Bonus hold and the simulated hold of each wager."""

    exact_bonus: TableBonus
    main: TableEstimate
    bonus: TableEstimate
    round: TableEstimate
    seed: int
    """Seed of this row's simulation."""

    @property
    def seats(self) -> int:
        """Players at the table."""
        return self.exact_bonus.seats

    @property
    def bonus_z(self) -> float:
        """(simulated - exact) Bonus hold in standard errors; |z| < 3 is expected."""
        if self.bonus.standard_error == 0:
            return math.nan
        return (self.bonus.hold - float(self.exact_bonus.hold)) / self.bonus.standard_error

    def to_json(self) -> dict[str, Any]:
        """The row as JSON: the exact Bonus figures (and the simulator's), then main and round."""

        def simulated(estimate: TableEstimate) -> dict[str, Any]:
            return {k: v for k, v in estimate.to_json().items() if k not in ("seats", "wager")}

        exact = self.exact_bonus
        return {
            "seats": self.seats,
            "seed": self.seed,
            "bonus": {
                "hold": exact_json(exact.hold),
                "variance": exact_json(exact.variance),
                "sd": float_json(exact.standard_deviation),
                "simulated": simulated(self.bonus),
                "z": None if math.isnan(self.bonus_z) else self.bonus_z,  # JSON has no NaN
            },
            "main": simulated(self.main),
            "round": simulated(self.round),
        }


@dataclass(frozen=True, slots=True)
class TableOfPlayers:
    """The casino's hold per table-round and its SD for each number of seats."""

    rules: Rules
    strategy: str
    """The policy every seat follows."""
    rounds: int
    """Table-rounds simulated for each number of seats."""
    seed: int
    """Row k is simulated with seed ``seed + k``."""
    rows: tuple[SeatsRow, ...]

    def to_json(self) -> dict[str, Any]:
        """The document ``cbj seats --format json`` prints."""
        return {
            "rules": self.rules.to_json(),
            "strategy": self.strategy,
            "rounds": self.rounds,
            "seed": self.seed,
            "fresh_shoe": True,
            "units": "main-wager units per table-round, the casino's side (positive: it wins)",
            "rows": [row.to_json() for row in self.rows],
        }


def check_run(rounds: int, seed: int | None) -> None:
    """Refuse a number of table-rounds or a seed the simulator would refuse, before any work.

    Two rounds at least: a standard error (and the JSON, which has no NaN) needs two.
    """
    check_rounds(rounds)
    if rounds < 2:
        raise SimulationError(f"rounds {rounds} is too few: a standard error needs 2 or more")
    check_seed(seed)


def table_of_players(
    rules: Rules,
    strategy: Strategy,
    seat_counts: Iterable[int] = SEAT_COUNTS,
    rounds: int = DEFAULT_ROUNDS,
    *,
    seed: int | None = None,
    jobs: int = 1,
) -> TableOfPlayers:
    """Exact Bonus figures and ``rounds`` simulated table-rounds for each number of seats.

    Every seat plays ``strategy`` and bets ``rules.bonus_ratio`` on the Bonus.  Without a
    ``seed`` one is drawn (and reported); row k uses ``seed + k``.
    """
    check_run(rounds, seed)
    counts = tuple(dict.fromkeys(map(check_seats, seat_counts)))
    base = secrets.randbits(63) if seed is None else seed
    rows = []
    for exact in table_bonus(rules, counts):
        row_seed = base + exact.seats
        result = simulate(
            rules, strategy, rounds, seed=row_seed, seats=exact.seats, penetration=None, jobs=jobs
        )
        main, bonus, whole = (table_estimate(result, w) for w in ("main", "bonus", "round"))
        rows.append(SeatsRow(exact, main, bonus, whole, row_seed))
    return TableOfPlayers(rules, strategy.name, rounds, base, tuple(rows))
