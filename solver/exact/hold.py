"""The casino's hold check (``cbj hold``): an observed result, or a series of daily results,
against the exact distribution of a table's result.

Over ``N`` table-rounds (independent, each dealt as :mod:`solver.exact.table_round` lays out
a table of ``K`` seats sharing the dealer and the Bonus card) the players' net ``X`` has a
distribution found three ways, as ``method`` says:

* ``exact``: fractions, the round convolved ``N`` times (one seat of one strategy, up to
  :data:`EXACT_ROUNDS` rounds by ``auto``);
* ``fft``: floats by FFT with a bound on the sum of every probability's error
  (:func:`solver.exact.lattice.float_power`), up to :data:`FFT_ROUNDS` rounds;
* ``saddlepoint``: the Lugannani-Rice tail (:mod:`solver.exact.saddlepoint`), from
  :data:`SADDLEPOINT_ROUNDS` rounds on; its relative error was at most
  :data:`SADDLEPOINT_ERROR` against the FFT wherever the two were compared (the tests hold
  it to that), for tails down to 1e-9.

``auto`` takes exact fractions up to 20 rounds where their lattice is not too fine (at most
:data:`EXACT_POINTS` points), the FFT up to :data:`AUTO_FFT_ROUNDS` rounds otherwise, the
saddlepoint beyond (and where the FFT's lattice would not fit).  An
observed casino win ``w`` (the players' net ``-w``) is judged by the two-sided tail
``P(|X - E X| >= |-w - E X|)``; the bands are the central 90/95/99% of the casino's win.
A daily series (:func:`hold_series`) checks each period so, adjusts the tails for testing
them all (Holm's step-down), and checks the whole run as one result.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from solver.exact.lattice import float_power
from solver.exact.saddlepoint import Saddlepoint
from solver.exact.session import distribution
from solver.model.checks import share_of, shown, whole_in
from solver.model.daily import DailyRow
from solver.model.errors import SessionError
from solver.model.rules import Rules
from solver.results.hold import (
    BAND_LEVELS,
    SADDLEPOINT_ERROR,
    HoldBand,
    HoldCheck,
    HoldSeries,
    Period,
    Seating,
)

__all__ = ["SADDLEPOINT_ERROR", "hold_check", "hold_series", "session_law"]
from solver.results.session import Distribution, RoundTable

#: The methods the check can use (``auto`` picks one).
METHODS = ("auto", "exact", "fft", "saddlepoint")
#: ``auto`` is exact up to this many rounds (as ``cbj session``) ...
EXACT_ROUNDS = 20
#: ... and where the exact distribution's lattice holds at most this many points (a round
#: whose results lie on a fine lattice, odd pays or an odd Bonus ratio, has many).
EXACT_POINTS = 100_000
#: ``auto`` takes the FFT up to this many rounds (its error bound then at most about 1e-6).
AUTO_FFT_ROUNDS = 10**6
#: The FFT is refused beyond this many rounds (its bound grows with the rounds: 5e-5 here).
FFT_ROUNDS = 10**8
#: The saddlepoint is used from this many rounds on (shorter sessions are lumpier).
SADDLEPOINT_ROUNDS = 10**4
#: The most table-rounds a check reads.
MAX_ROUNDS = 10**9
#: The largest casino result the check reads, in main units either way.
MOST_UNITS = 10**15


def check_rounds(rounds: object) -> int:
    """A number of table-rounds: a whole number from 1 to :data:`MAX_ROUNDS`.

    >>> check_rounds(10**8)
    100000000
    """
    if not whole_in(rounds, 1, MAX_ROUNDS):
        raise SessionError(
            f"rounds {shown(rounds)} must be a whole number from 1 to {MAX_ROUNDS:,}"
        )
    return rounds


def check_method(method: object) -> str:
    """One of :data:`METHODS`."""
    if method not in METHODS:
        raise SessionError(f"method {shown(method)} is unknown: use {', '.join(METHODS)}")
    return str(method)


def parse_amount(text: str | Fraction | int, what: str) -> Fraction:
    """An amount in main units (``250``, ``-12.5``, ``25/2``), at most 10^15 in size.

    >>> parse_amount("-12.5", "result")
    Fraction(-25, 2)
    """
    try:
        if isinstance(text, (int, Fraction)) and not isinstance(text, bool):
            found = Fraction(text)
        else:
            cleaned = str(text).strip()
            if len(cleaned) > 40 or not cleaned.isascii():
                raise ValueError
            found = Fraction(cleaned)
        if abs(found) > MOST_UNITS:
            raise ValueError
    except (ValueError, ZeroDivisionError):
        raise SessionError(
            f"{what} {shown(text)} is not a number of main units from -{MOST_UNITS:,} to "
            f"{MOST_UNITS:,}, e.g. 250 or -12.5"
        ) from None
    return found


def parse_share(text: str | Fraction | int | float, what: str) -> Fraction:
    """A share as a decimal, a fraction or a percentage.

    >>> parse_share("2.5%", "hold"), parse_share("-0.1", "hold")
    (Fraction(1, 40), Fraction(-1, 10))
    """
    if isinstance(text, Fraction | int) and not isinstance(text, bool):
        return Fraction(text)
    value = share_of(str(text)) if len(str(text)) <= 40 else None
    if value is None:
        raise SessionError(
            f"{what} {shown(text)} is not a share: write a decimal (0.12), a fraction (3/25) "
            "or a percentage (12%)"
        )
    return value


def parse_ratio(text: str | Fraction | float, what: str = "drop-to-handle ratio") -> Fraction:
    """A drop-to-handle ratio (drop over the total wagered), above 0 and at most 1.

    >>> parse_ratio("20%")
    Fraction(1, 5)
    """
    value = parse_share(str(text) if not isinstance(text, Fraction) else text, what)
    if not 0 < value <= 1:
        raise SessionError(
            f"{what} {shown(text)} must lie above 0 and at most 1: the drop is a share of "
            "the handle, e.g. 0.2"
        )
    return value


def observed_win(
    seating: Seating,
    rules: Rules,
    rounds: int,
    *,
    result: str | Fraction | int | None = None,
    hold: str | Fraction | float | None = None,
    win_over_handle: str | Fraction | float | None = None,
    drop: Fraction | None = None,
) -> Fraction:
    """The casino's win in main units, from exactly one of ``result`` (main units),
    ``hold`` (a share of the ``drop``) or ``win_over_handle`` (a share of the handle).

    >>> observed_win(Seating(1, ((Fraction(1), "optimal"),)), Rules(), 100, win_over_handle="2%")
    Fraction(3, 1)
    """
    given = [v is not None for v in (result, hold, win_over_handle)]
    if sum(given) != 1:
        raise SessionError(
            "give exactly one of the casino's win (--result), its hold over the drop (--hold) "
            "or its win over the handle (--win-over-handle)"
        )
    if result is not None:
        return parse_amount(result, "result")
    if win_over_handle is not None:
        handle = rounds * seating.seats * (1 + rules.bonus_ratio)
        return parse_share(win_over_handle, "win over handle") * handle
    if drop is None:
        raise SessionError(
            "a hold is the win over the drop: give the drop (--drop) or a drop-to-handle "
            "ratio (--drop-to-handle)"
        )
    assert hold is not None  # exactly one of the three was given
    return parse_share(hold, "hold") * drop


@dataclass(frozen=True, slots=True)
class Law:
    """The players' net over ``rounds`` table-rounds, as one of the methods found it."""

    rounds: int
    table: RoundTable
    method: str
    error_bound: float | None
    distribution: Distribution | None = None
    saddlepoint: Saddlepoint | None = None

    def tails(self, net: Fraction) -> tuple[float, float]:
        """P(X <= net) and P(X >= net)."""
        step = self.table.step
        low, high = math.floor(net / step), math.ceil(net / step)  # lattice indices
        if self.saddlepoint is not None:
            sp = self.saddlepoint
            below = sp.cdf(float(low))
            above = 1.0 - sp.cdf(float(high - 1))
            return min(max(below, 0.0), 1.0), min(max(above, 0.0), 1.0)
        d = self.distribution
        assert d is not None
        cut_low = min(max(low - d.lowest + 1, 0), len(d.weights))  # entries at or below net
        cut_high = min(max(high - d.lowest, 0), len(d.weights))  # the first at or above it
        if d.exact:
            weights = d.weights
            below_mass = Fraction(int(sum(weights[:cut_low])), d.denominator)
            above_mass = Fraction(int(sum(weights[cut_high:])), d.denominator)
            return float(below_mass), float(above_mass)
        floats = np.asarray(d.weights, dtype=np.float64)
        below, above = float(floats[:cut_low].sum()), float(floats[cut_high:].sum())
        return min(max(below, 0.0), 1.0), min(max(above, 0.0), 1.0)

    def quantile(self, level: Fraction) -> Fraction:
        """The smallest net ``x`` with P(X <= x) >= ``level``."""
        if self.distribution is not None:
            return self.distribution.quantile(level)
        sp = self.saddlepoint
        assert sp is not None
        lo = self.table.lowest * self.rounds
        hi = self.table.highest * self.rounds
        while hi - lo > 1:  # the CDF at lattice index k: P(X <= k)
            mid = (lo + hi) // 2
            if sp.cdf(float(mid)) >= level:
                hi = mid
            else:
                lo = mid
        return self.table.step * hi


def session_law(table: RoundTable, rounds: int, method: str = "auto") -> Law:
    """The players' net over ``rounds`` table-rounds of ``table`` by ``method``, ``auto``
    choosing as the module's docstring says."""
    method = check_method(method)
    chosen = method
    if method == "auto":
        points = (len(table.weights) - 1) * rounds + 1
        chosen = (
            "exact"
            if table.exact and rounds <= EXACT_ROUNDS and points <= EXACT_POINTS
            else "fft"
            if rounds <= AUTO_FFT_ROUNDS
            else "saddlepoint"
        )
    if chosen == "exact":
        try:
            found = distribution(table, rounds, "exact")
            return Law(rounds, table, "exact", 0.0, distribution=found)
        except SessionError:
            if method == "exact":
                raise
            chosen = "fft"  # the exact lattice is too fine: the FFT's floats instead
    if chosen == "fft":
        if rounds > FFT_ROUNDS:
            raise SessionError(
                f"the FFT goes up to {FFT_ROUNDS:,} rounds, not {rounds:,}: use the saddlepoint"
            )
        try:
            floats, at, error = float_power(table, rounds)
            found = Distribution(rounds, table.step, at, floats, 1, "fft", error)
            return Law(rounds, table, "fft", error, distribution=found)
        except SessionError:
            if method == "fft" or rounds < SADDLEPOINT_ROUNDS:
                raise
    if rounds < SADDLEPOINT_ROUNDS:
        raise SessionError(
            f"the saddlepoint is used from {SADDLEPOINT_ROUNDS:,} rounds on, not {rounds:,}: "
            "use the exact or FFT method"
        )
    indices = np.arange(table.lowest, table.highest + 1, dtype=np.float64)
    probabilities = np.array([float(table.probability(i)) for i in range(len(table.weights))])
    sp = Saddlepoint.of(indices, probabilities, rounds, 1.0)
    return Law(rounds, table, "saddlepoint", None, saddlepoint=sp)


def _standard_deviation(table: RoundTable, rounds: int) -> float:
    return math.sqrt(max(float(table.variance), 0.0) * rounds)


def hold_check(
    rules: Rules,
    table: RoundTable,
    rounds: int,
    win: Fraction,
    seating: Seating | None = None,
    method: str = "auto",
    drop: Fraction | None = None,
    mean: Fraction | None = None,
    law: Law | None = None,
) -> HoldCheck:
    """Judge a casino win ``win`` over ``rounds`` table-rounds of ``table``.

    ``mean`` is the players' exact expected net per table-round (read off ``table`` when
    not given); ``law``, when given, is :func:`session_law` of the same rounds.
    """
    rounds = check_rounds(rounds)
    seating = seating or Seating(1, ((Fraction(1), "optimal"),))
    low, high = -table.highest * table.step * rounds, -table.lowest * table.step * rounds
    if not low <= win <= high:
        raise SessionError(
            f"a casino result of {float(win):g} main units cannot come of {rounds:,} "
            f"table-rounds: it lies from {float(low):g} to {float(high):g}"
        )
    if drop is not None and drop <= 0:
        raise SessionError(f"drop {shown(drop)} must be above 0")
    law = law or session_law(table, rounds, method)
    per_round = Fraction(table.mean) if mean is None else mean
    expected = per_round * rounds
    sd = _standard_deviation(table, rounds)
    bands = tuple(_band(law, level) for level in BAND_LEVELS)
    below, above = law.tails(-win)
    z = abs(float(-win - expected)) / sd if sd > 0 else math.inf
    return HoldCheck(
        rules,
        seating,
        rounds,
        win,
        -expected,
        sd,
        min(1.0, 2 * min(below, above)),
        law.error_bound,
        law.method,
        math.erfc(z / math.sqrt(2)),
        bands,
        drop,
    )


def _band(law: Law, level: Fraction) -> HoldBand:
    """The central ``level`` of the casino's win."""
    tail = (1 - level) / 2
    low_net, high_net = law.quantile(tail), law.quantile(1 - tail)
    return HoldBand(level, -high_net, -low_net)


def holm(p_values: Sequence[float]) -> tuple[float, ...]:
    """Holm's step-down adjustment of ``p_values`` for testing them all (each adjusted
    tail: the smallest family-wise level at which it would be rejected).

    >>> holm([0.01, 0.04, 0.03])
    (0.03, 0.06, 0.06)
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = round(running, 15)
    return tuple(adjusted)


def hold_series(
    rules: Rules,
    table: RoundTable,
    rows: Sequence[DailyRow],
    seating: Seating,
    *,
    unit: Fraction = Fraction(1),
    drop_to_handle: Fraction | None = None,
    rounds_per_hour: int = 60,
    method: str = "auto",
    mean: Fraction | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> HoldSeries:
    """Every period of a daily file against the exact distribution of its rounds, Holm's
    adjustment over them, and the whole run as one check.

    Amounts in the file are divided by ``unit`` (money per main unit); a period without a
    drop takes ``drop_to_handle`` times its handle.
    """
    if unit <= 0:
        raise SessionError(f"unit {shown(unit)} must be above 0: money per main unit")
    if not 1 <= rounds_per_hour <= 10_000:
        raise SessionError(f"rounds per hour {shown(rounds_per_hour)} must be from 1 to 10,000")
    per_round = Fraction(table.mean) if mean is None else mean
    laws: dict[int, Law] = {}
    checks = []
    for k, row in enumerate(rows):
        rounds = _period_rounds(row, rounds_per_hour)
        handle = rounds * seating.seats * (1 + rules.bonus_ratio)
        drop = row.drop / unit if row.drop is not None else _drop(drop_to_handle, handle, row)
        if rounds not in laws:
            laws[rounds] = session_law(table, rounds, method)
        try:
            checks.append(
                hold_check(
                    rules,
                    table,
                    rounds,
                    row.win / unit,
                    seating,
                    method,
                    drop,
                    per_round,
                    laws[rounds],
                )
            )
        except SessionError as error:
            raise SessionError(f"daily file, {row.date}: {error}") from None
        if progress is not None:
            progress(k + 1, len(rows))
    adjusted = holm([c.p_value for c in checks])
    periods = tuple(
        Period(
            row.date,
            c.rounds,
            c.observed_win,
            c.drop or Fraction(1),
            c.expected_win,
            c.p_value,
            a,
            c.bands,
        )
        for row, c, a in zip(rows, checks, adjusted, strict=True)
    )
    rounds = sum(c.rounds for c in checks)
    total = hold_check(
        rules,
        table,
        check_rounds(rounds),
        sum((c.observed_win for c in checks), Fraction(0)),
        seating,
        method,
        sum((c.drop or Fraction(0) for c in checks), Fraction(0)),
        per_round,
    )
    methods = {c.method for c in checks}
    bounds = [c.error_bound for c in checks]
    bound = None if any(b is None for b in bounds) else max(b for b in bounds if b is not None)
    return HoldSeries(rules, seating, unit, periods, total, ", ".join(sorted(methods)), bound)


def _period_rounds(row: DailyRow, rounds_per_hour: int) -> int:
    """A period's table-rounds: as given, or its table-hours at ``rounds_per_hour``."""
    if row.rounds is not None:
        return int(row.rounds)
    assert row.hours is not None
    rounds = round(row.hours * rounds_per_hour)
    if rounds < 1:
        raise SessionError(
            f"daily file, {row.date}: {float(row.hours):g} hours at {rounds_per_hour} rounds "
            "an hour is not one round"
        )
    return int(rounds)


def _drop(ratio: Fraction | None, handle: Fraction, row: DailyRow) -> Fraction:
    """A period's drop from the drop-to-handle ratio, when the file has none."""
    if ratio is None:
        raise SessionError(
            f"daily file, {row.date}: no drop; give a drop column or a drop-to-handle ratio"
        )
    return ratio * handle
