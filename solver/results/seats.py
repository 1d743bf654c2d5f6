"""A table of players: the casino's hold per table-round for 1 to 7 seats (``cbj seats``).

The Bonus wager's hold is exact (:mod:`solver.exact.seats`), the main wager's and the
round's simulated (:class:`~solver.results.simulation.TableEstimate`); every figure is in
units of the main wager per table-round, from the casino's side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.model.numbers import exact_json, float_json
from solver.model.rules import Rules
from solver.results.frames import Tabular
from solver.results.kinds import Kind
from solver.results.simulation import TableEstimate


@dataclass(frozen=True, slots=True)
class TableBonus:
    """The casino's Bonus hold per table-round with ``seats`` players, exactly."""

    seats: int
    hold: Fraction
    """Expected casino win per table-round, in units of the main wager."""
    variance: Fraction

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of the casino's Bonus result per table-round."""
        return math.sqrt(self.variance)

    def to_json(self) -> dict[str, Any]:
        """The row as JSON (the SD as a float: it is a square root)."""
        return {
            "seats": self.seats,
            "bonus_hold": exact_json(self.hold),
            "bonus_variance": exact_json(self.variance),
            "bonus_sd": float_json(self.standard_deviation),
        }


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


@dataclass(frozen=True, slots=True, repr=False)
class TableOfPlayers(Tabular):
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


#: The report's table of players, kept by its rules and settings.
TABLE_OF_PLAYERS: Kind[TableOfPlayers] = Kind("table-of-players", TableOfPlayers)
