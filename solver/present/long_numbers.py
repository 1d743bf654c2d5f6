"""Exact numbers of dozens of digits in HTML: wrapped between groups of three digits.

A page that prints an exact fraction (a paytable's solved pay, a figure's exact value) must
not widen the page however long the number is: each group of three digits may end a line
(``<wbr>``), and so may the fraction bar, while the number still copies out whole.
"""

from __future__ import annotations

from fractions import Fraction

from solver.model.numbers import int_text


def _grouped(digits: str) -> str:
    """Digits in groups of three from the right, a line break allowed between groups."""
    head = len(digits) % 3 or 3
    groups = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
    return "<wbr>".join(groups)


def exact_html(value: Fraction | int) -> str:
    """An exact number that may run to dozens of digits, as HTML that wraps between groups
    of three digits (and after the fraction bar), never widening the page.

    >>> exact_html(Fraction(1234567, 89))
    '<span class="long-number">1<wbr>234<wbr>567/<wbr>89</span>'
    """
    value = Fraction(value)
    sign = "\u2212" if value < 0 else ""
    text = sign + _grouped(int_text(abs(value.numerator)))
    if value.denominator != 1:
        text += "/<wbr>" + _grouped(int_text(value.denominator))
    return f'<span class="long-number">{text}</span>'
