"""Checks and spellings of the numbers users give: whole numbers, exact ratios, and the
simulator's rounds and seed.

One helper for each kind of number, so that every rule, option and setting says the same
thing about a bad value: what it was, and what would be valid. ``True`` is an ``int`` to
Python but never a number of anything here, so every whole number is checked by
:func:`is_whole`; each check raises the caller's kind of
:class:`~solver.model.errors.CbjError`.

>>> whole_number(6, "decks", 1, 8), parse_ratio("3:2")
(6, Fraction(3, 2))
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import TypeGuard

from solver.model.errors import CbjError, RulesError, SimulationError

#: A number is written in at most this many characters (so that no pay can overflow a
#: float or stall a conversion).
MAX_NUMBER_TEXT = 40
#: The most rounds one simulation may deal.  Memory does not grow with ``rounds`` (chunk
#: seeds are derived one at a time), but time does: at a few million rounds a second per
#: core this is hours of work, and the counts stay far inside 64-bit integers.
MAX_ROUNDS = 10**11


def is_whole(value: object) -> TypeGuard[int]:
    """``value`` is an ``int`` and not a ``bool`` (``True`` is an int to Python, not to us).

    >>> is_whole(3), is_whole(True), is_whole(3.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number(
    value: object,
    what: str,
    low: int | None = None,
    high: int | None = None,
    error: type[CbjError] = RulesError,
) -> int:
    """``value`` itself if it is a whole number from ``low`` to ``high``; ``error`` if not.

    >>> whole_number(9, "decks", 1, 8)
    Traceback (most recent call last):
    ...
    solver.model.errors.RulesError: decks 9 is out of range: use 1 to 8
    """
    limits = _limits(low, high)
    if not is_whole(value):
        joined = f" from {limits}" if low is not None and high is not None else f" of {limits}"
        raise error(f"{what} {value!r} must be a whole number{joined if limits else ''}")
    assert isinstance(value, int)
    if (low is not None and value < low) or (high is not None and value > high):
        raise error(f"{what} {value} is out of range: use {limits}")
    return value


def _limits(low: int | None, high: int | None) -> str:
    """``1 to 8``, ``1 or more``, ``at most 8`` or nothing."""
    if low is not None and high is not None:
        return f"{low} to {high}"
    if low is not None:
        return f"{low} or more"
    return "" if high is None else f"at most {high}"


def whole_text(value: object, what: str) -> int:
    """A whole number given as an int or as its text in ASCII digits (``"6"``);
    ``RulesError`` if neither.

    >>> whole_text(" 2", "decks")
    2
    """
    if is_whole(value):
        assert isinstance(value, int)
        return value
    text = str(value).strip()
    if not re.fullmatch(r"[+-]?\d{1,6}", text, flags=re.ASCII):
        raise RulesError(f"{what} {value!r} is not a whole number")
    return int(text)


def parse_ratio(text: str | int | Fraction, what: str = "ratio") -> Fraction:
    """Parse ``3:2``, ``3/2``, ``1.5`` or ``2`` into an exact non-negative fraction.

    >>> parse_ratio("6:5"), parse_ratio("0.5"), parse_ratio("1/2")
    (Fraction(6, 5), Fraction(1, 2), Fraction(1, 2))
    """
    if isinstance(text, int | Fraction):
        value = Fraction(text)
    else:
        cleaned = text.strip()
        if len(cleaned) > MAX_NUMBER_TEXT:
            raise RulesError(
                f"{what} {cleaned[:12]}... is {len(cleaned)} characters long: "
                f"write it in at most {MAX_NUMBER_TEXT}"
            )
        match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*[:/]\s*(\d+(?:\.\d+)?)", cleaned, flags=re.ASCII)
        try:
            if match:
                value = Fraction(match.group(1)) / Fraction(match.group(2))
            elif re.fullmatch(r"-?\d+(?:\.\d+)?", cleaned, flags=re.ASCII):
                value = Fraction(cleaned)
            else:
                raise ValueError(cleaned)
        except (ValueError, ZeroDivisionError):
            raise RulesError(
                f"{what} {text!r} is not a number, a fraction p/q or a ratio p:q"
            ) from None
    if value < 0:
        raise RulesError(f"{what} {text!r} is negative; it must be 0 or more")
    return value


def format_ratio(value: Fraction) -> str:
    """Write a pay as ``p:q`` (``3:2``, ``15:1``).

    >>> format_ratio(Fraction(3, 2))
    '3:2'
    """
    return f"{value.numerator}:{value.denominator}"


def short_number(value: Fraction) -> str:
    """A number for an error message, cut short if it is long."""
    text = str(value)
    return text if len(text) <= 24 else f"{text[:20]}..."


def plain_number(value: Fraction) -> str:
    """A pay written as an integer, a short decimal or a fraction.

    >>> plain_number(Fraction(15)), plain_number(Fraction(9, 2)), plain_number(Fraction(1, 3))
    ('15', '4.5', '1/3')
    """
    if value.denominator == 1:
        return str(value.numerator)
    as_float = float(value)
    if Fraction(repr(as_float)) == value:
        return repr(as_float)
    return f"{value.numerator}/{value.denominator}"


def whole_in(value: object, low: int, high: int | None = None) -> TypeGuard[int]:
    """Whether ``value`` is a whole number from ``low`` to ``high`` (no top when None).

    >>> whole_in(0, 1), whole_in(7, 1, 7), whole_in(8, 1, 7), whole_in(10**30, 1)
    (False, True, False, True)
    """
    return is_whole(value) and low <= value and (high is None or value <= high)


def check_rounds(
    rounds: object, what: str = "rounds", error: type[CbjError] = SimulationError
) -> int:
    """A number of rounds to deal: 1 to :data:`MAX_ROUNDS`.

    >>> check_rounds(1_000)
    1000
    >>> check_rounds(0, "table rounds")
    Traceback (most recent call last):
    ...
    solver.model.errors.SimulationError: table rounds 0 is invalid: give 1 to 100,000,000,000
    """
    if not whole_in(rounds, 1, MAX_ROUNDS):
        raise error(f"{what} {rounds!r} is invalid: give 1 to {MAX_ROUNDS:,}")
    return rounds


def check_seed(seed: object, error: type[CbjError] = SimulationError) -> int | None:
    """A seed for the simulator: None (a fresh one) or a whole number of 0 or more.

    >>> check_seed(None), check_seed(7)
    (None, 7)
    """
    if seed is not None and not whole_in(seed, 0):
        raise error(f"seed {seed!r} must be a whole number of 0 or more")
    return seed
