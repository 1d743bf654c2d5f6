"""The Bonus ratio a volatility is asked for: parsed and checked against the rules.

The volatility itself is a pure function of a round's mean and variance, kept with the
result types (:mod:`solver.results.volatility`); how the round depends on the Bonus ratio
is :mod:`solver.exact.ratios`'s.
"""

from __future__ import annotations

from fractions import Fraction

from solver.model.errors import RulesError
from solver.model.rules import MAX_BONUS_RATIO, MIN_BONUS_RATIO, parse_ratio


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
