"""Numbers for people and for JSON: one formatter and one encoder for every output.

An exact number is written ``{"exact": "p/q", "float": x}`` (an integer as ``"n"``); a
number with no exact rational form (a square root, a sample mean) as ``{"float": x}``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

#: Integers up to this many bits are written by ``str`` (under Python's 4,300-digit limit).
_STR_BITS = 10_000


def int_text(n: int) -> str:
    """The decimal digits of ``n``, however many (``str`` refuses more than 4,300 of them).

    >>> int_text(-12345), len(int_text(7**9000)) == len(str(7**9000 // 10**4000)) + 4000
    ('-12345', True)
    """
    if n < 0:
        return "-" + int_text(-n)
    if n.bit_length() <= _STR_BITS:
        return str(n)
    half = int(n.bit_length() * 0.30103) // 2  # half its digits, give or take one
    high, low = divmod(n, 10**half)
    return int_text(high) + int_text(low).zfill(half)


def exact_json(value: Fraction | int) -> dict[str, Any]:
    """An exact number as JSON: its fraction as text and its nearest float.

    >>> exact_json(Fraction(-45, 311))["exact"], exact_json(3)
    ('-45/311', {'exact': '3', 'float': 3.0})
    """
    value = Fraction(value)
    text = int_text(value.numerator)
    if value.denominator != 1:
        text += "/" + int_text(value.denominator)
    return {"exact": text, "float": float(value)}


def float_json(value: float) -> dict[str, Any]:
    """A number known only as a float as JSON (``None`` where it is not finite).

    >>> float_json(0.5), float_json(math.inf)
    ({'float': 0.5}, {'float': None})
    """
    return {"float": value if math.isfinite(value) else None}


def number_json(value: Fraction | int | float) -> dict[str, Any]:
    """A result as JSON: exact when it is a fraction or an integer, float-only otherwise.

    >>> number_json(0.25), number_json(Fraction(1, 4))["exact"]
    ({'float': 0.25}, '1/4')
    """
    return float_json(value) if isinstance(value, float) else exact_json(value)


def number(value: Fraction | float, digits: int = 6) -> str:
    """A number for a human table: fixed decimals."""
    return f"{float(value):.{digits}f}"


def signed(value: Fraction | float, digits: int = 6) -> str:
    """A number with its sign, for the terminal's tables and their CSV and Markdown.

    Six places and an ASCII sign, as :func:`number` writes the unsigned figures beside it:
    these outputs are read by scripts and held byte for byte by the golden files. The
    report's prose and tables use :func:`solver.present.style.signed` instead (four places,
    a true minus sign), built on this one.

    >>> signed(Fraction(-1, 8)), signed(0.5, 2)
    ('-0.125000', '+0.50')
    """
    return f"{float(value):+.{digits}f}"


def percent(value: Fraction | float) -> str:
    """A proportion as a percentage with four decimals."""
    return f"{float(value) * 100:.4f}%"


def over_common_cycle(probabilities: list[Fraction]) -> tuple[int, list[int]]:
    """Exact probabilities as whole counts out of one cycle: their least common denominator.

    A lab's "combinations out of the full cycle": every count is an integer and the counts
    of outcomes that cover every case sum to the cycle.

    >>> over_common_cycle([Fraction(1, 4), Fraction(1, 6), Fraction(7, 12)])
    (12, [3, 2, 7])
    """
    cycle = math.lcm(*(p.denominator for p in probabilities)) if probabilities else 1
    return cycle, [int(p * cycle) for p in probabilities]
