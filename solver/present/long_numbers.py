"""Exact numbers of dozens of digits in HTML: wrapped between groups of three digits.

A page that prints an exact fraction (a paytable's solved pay, a figure's exact value) must
not widen the page however long the number is: each group of three digits may end a line
(``<wbr>``), and so may the fraction bar, while the number still copies out whole.
"""

from __future__ import annotations

from fractions import Fraction

from solver.model.numbers import int_text
from solver.present.templates import Markup, macro


def _grouped(digits: str) -> list[str]:
    """Digits in groups of three from the right.

    >>> _grouped("1234567")
    ['1', '234', '567']
    """
    head = len(digits) % 3 or 3
    return [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]


def exact_html(value: Fraction | int) -> Markup:
    """An exact number that may run to dozens of digits, as HTML that wraps between groups
    of three digits (and after the fraction bar), never widening the page.

    >>> print(exact_html(Fraction(-1234567, 89)))
    <span class="long-number">\u22121<wbr>234<wbr>567/<wbr>89</span>
    """
    value = Fraction(value)
    denominator = _grouped(int_text(value.denominator)) if value.denominator != 1 else []
    return macro(
        "report/long_number.html",
        "long_number",
        "\u2212" if value < 0 else "",
        _grouped(int_text(abs(value.numerator))),
        denominator,
    )
