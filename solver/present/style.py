"""One number style for everything a person reads: charts, reports and their captions.

Edges as percentages to four decimals, small gains to two significant figures, true minus
signs (U+2212), thin spaces (U+2009) between thousands, and odds as "1 in N".

>>> edge_percent(Fraction(-1, 400)) == MINUS + "0.2500%"
True
>>> one_in(Fraction(1, 12345)) == "1 in 12" + THIN_SPACE + "300"
True
>>> significant_percent(Fraction(1, 30000))
'0.0033%'
"""

from __future__ import annotations

import math
from fractions import Fraction

from solver.model.numbers import signed as plain_signed

MINUS = "\u2212"
THIN_SPACE = "\u2009"


def minus(text: str) -> str:
    """``text`` with its hyphen-minus signs replaced by true minus signs."""
    return text.replace("-", MINUS)


def thousands(value: int) -> str:
    """An integer with thin spaces between groups of three digits."""
    return minus(f"{value:,}".replace(",", THIN_SPACE))


def signed(value: Fraction | float, places: int = 4) -> str:
    """:func:`solver.model.numbers.signed` in this style: four places, a true minus sign.

    The terminal's six places with an ASCII sign are for scripts; a person reading the
    report wants fewer digits and the true minus sign every other number here has.

    >>> signed(Fraction(-1, 8)) == MINUS + "0.1250"
    True
    """
    return minus(plain_signed(value, places))


def amount(value: Fraction | float, places: int = 1) -> str:
    """A signed amount with thin spaces between thousands and a true minus sign.

    >>> amount(1234.5) == "+1" + THIN_SPACE + "234.5" and amount(-7) == MINUS + "7.0"
    True
    """
    return minus(f"{float(value):+,.{places}f}".replace(",", THIN_SPACE))


def edge_percent(value: Fraction | float, places: int = 4) -> str:
    """A house edge or EV as a percentage to four decimals: ``0.2500%``."""
    return minus(f"{float(value) * 100:.{places}f}%")


def significant_percent(value: Fraction | float, digits: int = 2) -> str:
    """A small quantity as a percentage to ``digits`` significant figures: ``0.0033%``."""
    x = float(value) * 100
    if x == 0:
        return "0%"
    places = max(digits - 1 - math.floor(math.log10(abs(x))), 0)
    return minus(f"{x:.{places}f}%")


def one_in(probability: Fraction | float) -> str:
    """A probability as odds of "1 in N" (N to three significant figures, at least a unit)."""
    if probability <= 0:
        return "never"
    n = 1 / float(probability)
    if n < 10:
        return f"1 in {n:.2f}"
    if n < 100:
        return f"1 in {n:.1f}"
    rounded = round(n, 2 - math.floor(math.log10(n)))
    return f"1 in {thousands(round(rounded))}"
