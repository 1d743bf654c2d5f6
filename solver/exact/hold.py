"""The casino's hold check (``cbj hold``): an observed result against the exact distribution.

Over ``N`` independent rounds the players' net result ``X`` has the exact distribution of
:func:`solver.exact.session.distribution` (exact fractions for short sessions, the FFT
with its error bound for long ones).  An observed casino win ``w`` (the players' net
``-w``) is judged by the two-sided tail

    p = P(|X - E X| >= |-w - E X|),

the probability of a result at least that far from the expectation either side; the
hold bands are the central 90/95/99% of ``-X`` over the total wagered, each end a
quantile of the distribution.  The normal approximation's ``p`` is given beside it as a
reference only.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from solver.exact.session import check_rounds, distribution
from solver.model.checks import shown
from solver.model.errors import SessionError
from solver.model.paytable import parse_edge
from solver.model.rules import Rules
from solver.results.hold import BAND_LEVELS, HoldBand, HoldCheck
from solver.results.session import Distribution, RoundTable

#: ``method="auto"`` is exact up to this many rounds, FFT above (as ``cbj session``).
EXACT_ROUNDS = 20
#: The largest casino result the check reads, in main units either way.
MOST_UNITS = 10**12


def observed_win(
    rules: Rules, rounds: int, result: str | Fraction | int | None, hold: str | None
) -> Fraction:
    """The casino's net win in main units, from ``result`` or from ``hold`` (a share of the
    total wagered: ``2.5%``, ``0.025`` or ``1/40``).

    >>> observed_win(Rules(), 100, None, "2%")
    Fraction(3, 1)
    """
    if (result is None) == (hold is None):
        raise SessionError("give either the casino's result (--result) or its hold (--hold)")
    if hold is not None:
        return parse_edge(str(hold), "hold") * rounds * (1 + rules.bonus_ratio)
    try:
        if isinstance(result, (int, Fraction)) and not isinstance(result, bool):
            found = Fraction(result)
        else:
            text = str(result).strip()
            if len(text) > 40:
                raise ValueError
            found = Fraction(text)
        if abs(found) > MOST_UNITS:
            raise ValueError
    except (ValueError, ZeroDivisionError):
        raise SessionError(
            f"result {shown(result)} is not a number of main units from "
            f"-{MOST_UNITS:,} to {MOST_UNITS:,}, e.g. 250 or -12.5"
        ) from None
    return found


def _tail(found: Distribution, mean: Fraction, observed: Fraction) -> float:
    """P(|X - mean| >= |observed - mean|) from the distribution, exactly where it is exact."""
    reach = abs(observed - mean)
    nets = [found.net(i) for i in range(len(found.weights))]
    far = [abs(net - mean) >= reach for net in nets]
    if found.exact:
        weights = [int(w) for w, f in zip(found.weights, far, strict=True) if f]
        return float(Fraction(sum(weights), found.denominator))
    mass = np.asarray(found.weights, dtype=np.float64)[np.array(far, dtype=bool)].sum()
    return float(min(max(mass, 0.0), 1.0))


def hold_check(
    rules: Rules,
    table: RoundTable,
    rounds: int,
    win: Fraction,
    strategy: str = "optimal",
    method: str = "auto",
) -> HoldCheck:
    """Judge a casino win ``win`` over ``rounds`` rounds of the round ``table``."""
    rounds = check_rounds(rounds)
    chosen = method if method != "auto" else "exact" if rounds <= EXACT_ROUNDS else "fft"
    if chosen not in ("exact", "fft"):
        raise SessionError(f"method {method!r} is unknown: use auto, exact or fft")
    low, high = -table.highest * table.step * rounds, -table.lowest * table.step * rounds
    if not low <= win <= high:
        raise SessionError(
            f"a casino result of {float(win):g} main units cannot come of {rounds:,} rounds: "
            f"it lies from {float(low):g} to {float(high):g}"
        )
    found = distribution(table, rounds, "exact" if chosen == "exact" else "fft")
    mean = Fraction(table.mean) * rounds
    variance = float(table.variance) * rounds
    wagered = rounds * (1 + rules.bonus_ratio)
    bands = []
    for level in BAND_LEVELS:
        tail = (1 - level) / 2
        low_net, high_net = found.quantile(tail), found.quantile(1 - tail)
        bands.append(
            HoldBand(
                level, float(-high_net / wagered), float(-low_net / wagered), -high_net, -low_net
            )
        )
    z = abs(float(-win - mean)) / math.sqrt(variance) if variance > 0 else math.inf
    return HoldCheck(
        rules,
        strategy,
        rounds,
        win,
        -mean,
        math.sqrt(variance),
        _tail(found, mean, -win),
        found.error_bound,
        found.method,
        math.erfc(z / math.sqrt(2)),
        tuple(bands),
    )
