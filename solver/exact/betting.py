"""Optimal betting by true count: the Kelly ramp from the round's EV and variance by count.

The dealt shoes (:mod:`solver.exact.dealt_shoes`) are binned by whole true count (as the
simulated counter's buckets, -10 to +10, the ends open).  The round's EV per main unit,
for a counter who plays the full shoe's chart (and, if asked, its index plays), is
fitted by a least-squares line on the true count over every state: in each bin ``b`` the
line at the bin's mean true count, ``m[b]``, and the round's variance ``v[b]`` (the mean
of the states' variances under composition-dependent play, which differs from the
chart's in the fourth place, plus the variance of their EVs) give the growth-optimal
bet, Kelly's ``f * B * m / v`` units for a bankroll ``B`` and a fraction ``f`` of Kelly,
rounded to whole units and held within the spread; where ``m <= 0`` the smallest bet.
The line, not each bin's own mean, sets the bets: a bin of a few shoes whose mean is
high by chance would otherwise get the top bet and a win that no counter sees.  The
counter's result per round is then the mixture over the bins of their own means:
mean ``sum p u m'``, second moment ``sum p u**2 (v + m'**2)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from solver.exact.indices import index_gains
from solver.model.checks import shown
from solver.model.counts import Tags
from solver.model.errors import CountError
from solver.results.betting import BetResult, CountBin
from solver.results.dealt_shoes import COLUMNS, DealtShoes
from solver.results.indices import IndicesResult

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


def _line(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> tuple[float, float]:
    """Slope and intercept of the least-squares line of ``y`` on ``x`` (flat if ``x`` is).

    >>> _line(np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, 5.0]))
    (2.0, 1.0)
    """
    spread = float(((x - x.mean()) ** 2).sum())
    slope = float(((x - x.mean()) * (y - y.mean())).sum()) / spread if spread > 0 else 0.0
    return slope, float(y.mean()) - slope * float(x.mean())


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
        raise CountError(f"Kelly bankroll {shown(bankroll)} must be a positive number of units")
    if not 0 < fraction <= 1:
        raise CountError(f"Kelly fraction {shown(fraction)} must lie above 0 and at most 1")
    if not 0 < target_ruin < 1:
        raise CountError(
            f"target risk of ruin {shown(target_ruin)} must lie strictly between 0 and 1"
        )


def optimal_bets(
    shoes: DealtShoes,
    system: str,
    tags: Tags,
    spread: tuple[int, int],
    bankroll: float,
    fraction: float = 1.0,
    rounds_per_hour: int = 100,
    target_ruin: float = 0.05,
    indices: IndicesResult | None = None,
) -> BetResult:
    """The Kelly ramp of ``tags`` within ``spread`` and its figures (module docstring), for
    a counter who plays the full shoe's chart, with ``indices``' played index plays if given."""
    check_betting(spread, bankroll, fraction, target_ruin)
    ratio = float(shoes.rules.bonus_ratio)
    rows = np.array(shoes.rows)
    at = {name: i for i, name in enumerate(COLUMNS)}
    ev = rows[:, at["chart_ev"]] + ratio * rows[:, at["bonus_ev"]]
    if indices is not None:
        ev = ev + index_gains(shoes, tags, indices)
    variance = rows[:, at["round_variance"]]
    true_counts = np.array(shoes.true_counts(tags))
    counts = np.clip(np.floor(true_counts), LOWEST, HIGHEST).astype(int)
    slope, intercept = _line(true_counts, ev)
    bins = []
    units_of = np.zeros(len(ev))
    for low in range(LOWEST, HIGHEST + 1):
        inside = counts == low
        if not inside.any():
            continue
        fitted = intercept + slope * float(true_counts[inside].mean())
        v = float(variance[inside].mean() + ev[inside].var())
        units = kelly_units(fitted, v, bankroll, fraction, spread)
        units_of[inside] = units
        bins.append(CountBin(low, float(inside.mean()), float(ev[inside].mean()), v, units, fitted))
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
        "chart" if indices is None else "chart and index plays",
    )
