"""A round's volatility over sessions, from the session's exact distribution, and the Bonus
ratio it is asked for, parsed and checked against the rules.

The ranges and the chance of being ahead come from the n-fold convolution of the round's
exact return table (:func:`solver.exact.session.session_figures`: fractions for short
sessions, FFT with an error bound beyond), so every output gives the one exact answer;
the result types are :mod:`solver.results.volatility`'s, and how the round depends on the
Bonus ratio is :mod:`solver.exact.ratios`'s.  Measured: the four session lengths of the
default game take about 0.08 s together (docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from solver.model.errors import RulesError, SessionError
from solver.model.rules import MAX_BONUS_RATIO, MIN_BONUS_RATIO, parse_ratio
from solver.results.game import GameResult
from solver.results.kinds import Key, Store
from solver.results.volatility import (
    RANGE90,
    RANGE95,
    SESSION_LENGTHS,
    VOLATILITY,
    PendingVolatility,
    SessionRange,
    Volatility,
    normal_session,
)

#: A round's net results with their probabilities.
Lines = Sequence[tuple[Fraction, Fraction | float]]


def session_range(lines: Lines, rounds: int) -> SessionRange:
    """The session of ``rounds`` rounds of the round ``lines``: its exact distribution's
    ranges and chance of being ahead, or the normal approximation's where the pays make the
    distribution too wide to hold.

    >>> coin = [(Fraction(-1), Fraction(1, 2)), (Fraction(1), Fraction(1, 2))]
    >>> s = session_range(coin, 4)
    >>> s.range90, s.probability_ahead, s.method
    ((-4.0, 4.0), 0.3125, 'exact')
    """
    # numpy (the FFT) only once a session is convolved: a cache hit reads the volatility kept.
    from solver.exact.lattice import MAX_POINTS, lattice_step
    from solver.exact.session import session_figures

    nets = [net for net, _ in lines]
    width = (max(nets) - min(nets)) / lattice_step(nets) * rounds
    try:
        if width >= MAX_POINTS:  # refused before its round table is laid out point by point
            raise SessionError(f"{width} lattice points")
        figures = session_figures(lines, rounds)
    except SessionError:  # too many possible results to convolve (huge pays)
        mean = sum((net * p for net, p in lines), Fraction(0))
        second = sum((net**2 * p for net, p in lines), Fraction(0))
        return normal_session(rounds, mean, second - mean**2)
    d = figures.distribution

    def between(levels: tuple[Fraction, Fraction]) -> tuple[float, float]:
        return float(d.quantile(levels[0])), float(d.quantile(levels[1]))

    return SessionRange(
        rounds,
        figures.mean,
        figures.standard_deviation,
        between(RANGE90),
        between(RANGE95),
        float(d.probability_ahead),
        d.method,
        d.error_bound,
    )


def round_volatility(
    ratio: Fraction, lines: Lines, lengths: Iterable[int] = SESSION_LENGTHS
) -> Volatility:
    """The volatility of the round ``lines`` (at Bonus ratio ``ratio``) over ``lengths``."""
    mean: Any = sum((net * p for net, p in lines), 0 * lines[0][1])
    second: Any = sum((net**2 * p for net, p in lines), 0 * lines[0][1])
    sessions = tuple(session_range(lines, n) for n in lengths)
    return Volatility(ratio, mean, second - mean**2, sessions)


def game_volatility(
    game: GameResult[Any], lengths: Iterable[int] = SESSION_LENGTHS
) -> Volatility | None:
    """``game``'s round over sessions at its own Bonus ratio, exact or float as ``game`` is;
    None when the game has no round (cards were removed without their suits).
    """
    if game.bonus is None or not game.round_lines:
        return None
    lines = [(line.net, line.probability) for line in game.round_lines]
    return round_volatility(game.rules.bonus_ratio, lines, lengths)


def with_volatility(game: GameResult[Any], cache: Store | None = None) -> GameResult[Any]:
    """``game`` carrying its volatility (``cbj solve``'s and the workbench's figures), kept in
    ``cache`` by the game's rules, removed cards and arithmetic.

    The sessions are convolved (or read from ``cache``) when the volatility is first read,
    not here: a caller that never reads it pays nothing for it.  Until then the game holds
    ``cache``.
    """
    if game.bonus is None or not game.round_lines:
        return game
    ratio, lines = game.rules.bonus_ratio, game.round_lines
    key = Key(game.rules, game.removed, game.exact)

    def compute() -> Volatility:
        return round_volatility(ratio, [(line.net, line.probability) for line in lines])

    def found() -> Volatility:
        return compute() if cache is None else cache.fetch(VOLATILITY, key, compute)

    return replace(game, volatility_source=PendingVolatility(found))


def check_ratio(ratio: Fraction | int | str) -> Fraction:
    """A Bonus ratio, parsed and checked against clause 2 (at least 1/2) and the rule's
    range (at most 100).

    >>> check_ratio("3/4")
    Fraction(3, 4)
    """
    value = parse_ratio(ratio, "bonus ratio")
    if value < MIN_BONUS_RATIO:
        raise RulesError(
            f"bonus ratio {ratio} is below 1/2: the rules require a Bonus wager of at least "
            "half the main wager"
        )
    if value > MAX_BONUS_RATIO:
        raise RulesError(
            f"bonus ratio {ratio} is above {MAX_BONUS_RATIO}, the largest Bonus wager the rules "
            "table allows"
        )
    return value


def parse_ratios(text: str) -> tuple[Fraction, ...]:
    """Parse a comma list of Bonus ratios (``1/2,1,2`` or ``0.5, 3:2``), each at least 1/2.

    >>> parse_ratios("1/2, 1,2")
    (Fraction(1, 2), Fraction(1, 1), Fraction(2, 1))
    """
    items = [item.strip() for item in text.split(",")]
    if not all(items):
        raise RulesError(
            f"bonus ratios {text!r} has an empty item: give ratios separated by commas, "
            "e.g. 1/2,1,2"
        )
    return tuple(dict.fromkeys(check_ratio(item) for item in items))
