"""Optimal betting by true count: the Kelly ramp from the round's EV and variance by count.

The dealt shoes (:mod:`solver.exact.dealt_shoes`) are binned by whole true count (as the
simulated counter's buckets, -10 to +10, the ends open).  In each bin ``b`` the round's
mean EV ``m[b]`` and variance ``v[b]`` per main unit (the mean of the states' variances
plus the variance of their EVs) give the growth-optimal bet, Kelly's ``f * B * m / v``
units for a bankroll ``B`` and a fraction ``f`` of Kelly, rounded to whole units and held
within the spread; where ``m <= 0`` the smallest bet.  The counter's result per round is
then the mixture over the bins: mean ``sum p u m``, second moment ``sum p u**2 (v + m**2)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from solver.model.counts import Tags
from solver.model.errors import CountError
from solver.results.betting import BetResult, CountBin
from solver.results.dealt_shoes import COLUMNS, DealtShoes

#: The lowest and highest true-count bins.
LOWEST, HIGHEST = -10, 10


def kelly_units(
    mean: float, variance: float, bankroll: float, fraction: float, spread: tuple[int, int]
) -> int:
    """Whole units of the growth-optimal bet, held within the spread.

    >>> kelly_units(0.01, 1.3, 1000, 1.0, (1, 12)), kelly_units(-0.01, 1.3, 1000, 1.0, (1, 12))
    (8, 1)
    """
    low, high = spread
    if mean <= 0 or variance <= 0:
        return low
    return int(min(max(round(fraction * bankroll * mean / variance), low), high))


def mixture(bins: Sequence[CountBin]) -> tuple[float, float]:
    """Mean and SD per round of betting ``units`` in each bin."""
    win = sum(b.share * b.units * b.mean for b in bins)
    second = sum(b.share * b.units**2 * (b.variance + b.mean**2) for b in bins)
    return win, math.sqrt(max(second - win**2, 0.0))


def check_betting(
    spread: tuple[int, int], bankroll: float, fraction: float, target_ruin: float
) -> None:
    """Refuse a Kelly bankroll, fraction or target risk of ruin that means nothing."""
    if not 0 < bankroll <= 1e12:
        raise CountError(f"Kelly bankroll {bankroll!r} must be a positive number of units")
    if not 0 < fraction <= 1:
        raise CountError(f"Kelly fraction {fraction!r} must lie above 0 and at most 1")
    if not 0 < target_ruin < 1:
        raise CountError(f"target risk of ruin {target_ruin!r} must lie strictly between 0 and 1")


def optimal_bets(
    shoes: DealtShoes,
    system: str,
    tags: Tags,
    spread: tuple[int, int],
    bankroll: float,
    fraction: float = 1.0,
    rounds_per_hour: int = 100,
    target_ruin: float = 0.05,
) -> BetResult:
    """The Kelly ramp of ``tags`` within ``spread`` and its figures (module docstring)."""
    check_betting(spread, bankroll, fraction, target_ruin)
    ratio = float(shoes.rules.bonus_ratio)
    rows = np.array(shoes.rows)
    at = {name: i for i, name in enumerate(COLUMNS)}
    ev = rows[:, at["main_ev"]] + ratio * rows[:, at["bonus_ev"]]
    variance = rows[:, at["round_variance"]]
    counts = np.clip(np.floor(shoes.true_counts(tags)), LOWEST, HIGHEST).astype(int)
    bins = []
    units_of = np.zeros(len(ev))
    for low in range(LOWEST, HIGHEST + 1):
        inside = counts == low
        if not inside.any():
            continue
        m = float(ev[inside].mean())
        v = float(variance[inside].mean() + ev[inside].var())
        units = kelly_units(m, v, bankroll, fraction, spread)
        units_of[inside] = units
        bins.append(CountBin(low, float(inside.mean()), m, v, units))
    win, sd = mixture(bins)
    se = float((units_of * ev).std(ddof=1) / math.sqrt(len(ev))) if len(ev) > 1 else 0.0
    return BetResult(
        shoes.rules,
        system,
        dict(tags),
        shoes.samples,
        shoes.penetration,
        spread,
        bankroll,
        fraction,
        rounds_per_hour,
        target_ruin,
        tuple(bins),
        win,
        sd,
        se,
    )
