"""One number style for everything a person reads: charts, reports and their captions.

Edges as percentages to four decimals, small gains to two significant figures, true minus
signs (U+2212), narrow no-break spaces (U+202F) between thousands, and odds as "1 in N".
The narrow no-break space never lets a line break inside a number ("100 / 000"), and a
number copied out of a page or a PDF stays one number.

>>> edge_percent(Fraction(-1, 400)) == MINUS + "0.2500%"
True
>>> one_in(Fraction(1, 12345)) == "1 in 12" + GROUP_SPACE + "300"
True
>>> significant_percent(Fraction(1, 30000))
'0.0033%'
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from solver.model.numbers import signed as plain_signed

MINUS = "\u2212"
#: Between groups of three digits: NARROW NO-BREAK SPACE.
GROUP_SPACE = "\u202f"


def minus(text: str) -> str:
    """``text`` with its hyphen-minus signs replaced by true minus signs."""
    return text.replace("-", MINUS)


def minus_numbers(text: str) -> str:
    """``text`` with the hyphen-minus before each number made a true minus sign, and the
    hyphens of words left alone.

    >>> minus_numbers("level-2: -0.45 [-0.7, +0.1]") == f"level-2: {MINUS}0.45 [{MINUS}0.7, +0.1]"
    True
    """
    return re.sub(r"(?<!\w)-(?=\d)", MINUS, text)


def thousands(value: int) -> str:
    """An integer with narrow no-break spaces between groups of three digits."""
    return minus(f"{value:,}".replace(",", GROUP_SPACE))


def long_count(value: int) -> str:
    """A whole number too long for one line (dozens of digits): thin spaces between groups
    of three, where a narrow screen may break it.

    >>> long_count(1234567) == "1\u2009234\u2009567"
    True
    """
    return f"{value:,}".replace(",", "\u2009")


def signed(value: Fraction | float, places: int = 4) -> str:
    """:func:`solver.model.numbers.signed` in this style: four places, a true minus sign.

    The terminal's six places with an ASCII sign are for scripts; a person reading the
    report wants fewer digits and the true minus sign every other number here has.

    >>> signed(Fraction(-1, 8)) == MINUS + "0.1250"
    True
    """
    return minus(plain_signed(value, places))


def amount(value: Fraction | float, places: int = 1) -> str:
    """A signed amount with narrow no-break spaces between thousands and a true minus sign.

    >>> amount(1234.5) == "+1" + GROUP_SPACE + "234.5" and amount(-7) == MINUS + "7.0"
    True
    """
    return minus(f"{float(value):+,.{places}f}".replace(",", GROUP_SPACE))


def edge_percent(value: Fraction | float, places: int = 4) -> str:
    """A house edge or EV as a percentage to four decimals: ``0.2500%``."""
    return minus(f"{float(value) * 100:.{places}f}%")


def signed_percent(value: Fraction | float, places: int = 4) -> str:
    """An EV as a signed percentage to four places, a true minus sign: ``+5.3833%``."""
    return minus(f"{float(value) * 100:+.{places}f}%")


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


def stacked_table_css(table: str) -> str:
    """CSS, for inside a phone's media query, that stacks the rows of ``table`` (a selector).

    Each row becomes a card of "header: value" lines, the header taken from the cell's
    ``data-label``; the first cell heads the card. The header row stays for assistive
    technology, visually hidden. So a table of any width shows every column on a phone.
    """
    t = table
    return f"""
  {t}, {t} tbody, {t} tr, {t} td {{ display: block; width: 100%; }}
  {t} {{ position: relative; overflow: hidden; min-width: 0; }}
  {t} thead {{ display: block; position: absolute; width: 1px; height: 1px; overflow: hidden;
              clip-path: inset(50%); white-space: nowrap; }}
  {t} tr {{ border-top: 2px solid #c8d3e0; padding: .15rem 0; }}
  {t} td, {t} td.num {{ border: none; padding: .1rem .3rem; text-align: right;
                       white-space: normal; }}
  {t} td::before {{ content: attr(data-label); float: left; margin-right: .8rem;
                   font-weight: bold; text-align: left; }}
  {t} td:first-child {{ text-align: left; font-weight: bold; }}
  {t} td:first-child::before {{ content: none; }}
  {t} td:empty {{ display: none; }}
"""
