"""The casino's result per table-round, from a simulation with several seats.

Seats share the Bonus card and the dealer's hand, so their results are correlated; the
simulator keeps, for every wager, the sum over rounds of the squared table total, from
which the table-round's SD and the standard error of its mean follow directly.
"""

from __future__ import annotations

import math

from solver.results.simulation import SimulationResult, TableEstimate, Wager


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
