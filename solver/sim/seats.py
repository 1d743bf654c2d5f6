"""The casino's result per table-round, from a simulation with several seats.

Seats share the Bonus card and the dealer's hand, so their results are correlated; the
simulator keeps, for every wager, the sum over rounds of the squared table total, from
which the table-round's SD and the standard error of its mean follow directly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from solver.sim.hands import Wager
from solver.sim.stats import Z95, SimulationResult


@dataclass(frozen=True, slots=True)
class TableEstimate:
    """The casino's mean result per table-round of one wager, with its SD and 95% interval."""

    seats: int
    wager: Wager
    hold: float
    """Mean casino win per table-round (the negative of the seats' total net)."""
    standard_error: float
    standard_deviation: float
    """SD of the casino's result per table-round."""

    @property
    def ci95(self) -> tuple[float, float]:
        """95% confidence interval of the hold (normal approximation)."""
        half = Z95 * self.standard_error
        return (self.hold - half, self.hold + half)

    def to_json(self) -> dict[str, Any]:
        """The estimate as JSON."""
        return {
            "seats": self.seats,
            "wager": self.wager.value,
            "hold": self.hold,
            "standard_error": self.standard_error,
            "ci95": list(self.ci95),
            "sd": self.standard_deviation,
        }


def table_estimate(result: SimulationResult, wager: Wager | str) -> TableEstimate:
    """The casino's hold per table-round of ``wager`` in a simulation, with its SD.

    Amounts are in units of the main wager: the Bonus wager's figures are scaled by
    ``bonus_ratio`` (the simulator's Bonus estimates are per unit of Bonus wager).
    """
    wager = Wager(wager)
    k, n = result.seats, result.rounds
    per_seat = result.overall[wager]
    total_mean = k * per_seat.mean
    index = list(Wager).index(wager)
    second = result.squares[index] / n
    variance = max(second - total_mean**2, 0.0)
    error = math.sqrt(variance / (n - 1)) if n > 1 else math.nan
    # Bonus figures are per unit of Bonus wager; each seat wagers bonus_ratio of them.
    scale = float(result.rules.bonus_ratio) if wager is Wager.BONUS else 1.0
    return TableEstimate(k, wager, -total_mean * scale, error * scale, math.sqrt(variance) * scale)
