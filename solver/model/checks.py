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

import math
import re
from fractions import Fraction
from typing import Any, TypeGuard

from solver.model.errors import CbjError, RulesError, SimulationError

#: A number is written in at most this many characters (so that no pay can overflow a
#: float or stall a conversion).
MAX_NUMBER_TEXT = 40
#: A number given as a number (an exact pay solved for, say) has at most 1,000 digits in
#: its numerator and denominator: well inside Python's 4,300-digit limit on writing one.
MAX_NUMBER_BITS = 3_321
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


def ascii_digits(text: str, most: int = 6) -> bool:
    """``text`` is 1 to ``most`` of the digits 0-9 (``int()`` takes other scripts' digits too).

    >>> ascii_digits("15"), ascii_digits("\u0661\u0665"), ascii_digits("1" * 7)
    (True, False, False)
    """
    return 0 < len(text) <= most and text.isascii() and text.isdigit()


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
        raise error(f"{what} {shown(value)} must be a whole number{joined if limits else ''}")
    assert isinstance(value, int)
    if (low is not None and value < low) or (high is not None and value > high):
        raise error(f"{what} {shown(value)} is out of range: use {limits}")
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
    if not isinstance(value, str):
        raise TypeError(f"{what} must be an int or its text, not {type(value).__name__}")
    text = value.strip()
    if not re.fullmatch(r"[+-]?\d{1,6}", text, flags=re.ASCII):
        raise RulesError(f"{what} {shown(value)} is not a whole number")
    return int(text)


#: A ratio as the API takes it: a number, its text (``3:2``, ``3/2``, ``1.5``) or the pair
#: ``(p, q)`` the text ``p:q`` writes, as a tuple or a list.
RatioLike = Fraction | int | float | str | tuple[int, int] | list[int]


def parse_ratio(text: RatioLike, what: str = "ratio") -> Fraction:
    """Parse ``3:2``, ``3/2``, ``1.5``, ``2`` or the pair ``(3, 2)`` into an exact
    non-negative fraction.

    A number is taken as it is (a float as the decimal it prints as, so ``1.1`` is 11/10);
    NaN and infinities are refused, and so are ``True``, ``False`` and other types.  A pair
    (a tuple or a list) is two whole numbers ``p, q``, read as ``p:q``.

    >>> parse_ratio("6:5"), parse_ratio("0.5"), parse_ratio("1/2"), parse_ratio(1.1)
    (Fraction(6, 5), Fraction(1, 2), Fraction(1, 2), Fraction(11, 10))
    >>> parse_ratio((6, 5)) == parse_ratio([6, 5]) == parse_ratio("6:5")
    True
    """
    if isinstance(text, tuple | list):
        return _parse_pair(text, what)
    if isinstance(text, bool) or not isinstance(text, int | float | Fraction | str):
        raise TypeError(
            f"{what} must be a number (int, float, Fraction), its text or a pair (p, q), "
            f"not {type(text).__name__}"
        )
    if isinstance(text, float):
        value = finite_fraction(text, what, RulesError)
    elif isinstance(text, int | Fraction):
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
                f"{what} {shown(text)} is not a number, a fraction p/q or a ratio p:q"
            ) from None
    if value < 0:
        raise RulesError(f"{what} {shown(text)} is negative; it must be 0 or more")
    if fraction_bits(value) > MAX_NUMBER_BITS:
        raise RulesError(
            f"{what} {short_number(value)} is too long: write it in at most 1,000 digits"
        )
    return value


def _parse_pair(pair: tuple[Any, ...] | list[Any], what: str) -> Fraction:
    """A ratio given as its pair ``(p, q)`` of whole numbers, ``q`` above 0.

    >>> _parse_pair([10**5000], "bonus ratio")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.model.errors.RulesError: bonus ratio ((a 5,001-digit number)) is not a pair of ...
    """
    items = ", ".join(shown(n) for n in pair[:3]) + (", ..." if len(pair) > 3 else "")
    said = f"({items})"  # each item said as a message may say it: no 5,000-digit repr
    if len(pair) != 2 or not all(is_whole(n) for n in pair):
        raise RulesError(
            f"{what} {said} is not a pair of whole numbers (p, q), e.g. (3, 2) for 3:2"
        )
    top, bottom = pair
    if bottom <= 0:
        raise RulesError(f"{what} {said} divides by {shown(bottom)}: q must be 1 or more")
    return parse_ratio(Fraction(top, bottom), what)


def fraction_bits(value: Fraction) -> int:
    """The bits of a fraction's longer part (past about 14,000, ``str()`` refuses it).

    >>> fraction_bits(Fraction(1, 3)), fraction_bits(Fraction(255, 2))
    (2, 8)
    """
    return max(value.numerator.bit_length(), value.denominator.bit_length())


def format_ratio(value: Fraction) -> str:
    """Write a pay as ``p:q`` (``3:2``, ``15:1``).

    >>> format_ratio(Fraction(3, 2))
    '3:2'
    """
    return f"{value.numerator}:{value.denominator}"


def shown(value: object, most: int = 40) -> str:
    """A value as an error message repeats it: its ``repr``, cut short past ``most``
    characters (a huge int is said by its size: its text would be past Python's 4,300-digit
    limit).

    >>> shown(12), shown(10**5000), shown(Fraction(10**5000, 3)), shown("x" * 50)
    ('12', '(a 5,001-digit number)', '(a 5,001-digit number)', "'xxxxxxxxxxxxxxxxxxxx...")
    """
    if isinstance(value, Fraction):
        return short_number(value)
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 160:
        size = int(value.bit_length() * math.log10(2)) + 1  # its digits, give or take one
        return f"(a {size:,}-digit number)"
    if isinstance(value, str | bytes | bytearray) and len(value) > most:
        value = value[: most + 1]  # its head is all that is shown: no copy of a huge text
    try:
        text = repr(value)
    except Exception:  # a list holding a huge int, say: its text is past Python's limit
        return f"(a {type(value).__name__})"
    return text if len(text) <= most else f"{text[: most // 2 + 1]}..."


def short_number(value: Fraction) -> str:
    """A number for an error message, cut short if it is long.

    >>> short_number(Fraction(1, 3)), short_number(Fraction(10**5000, 3))
    ('1/3', '(a 5,001-digit number)')
    """
    if fraction_bits(value) > 160:
        return shown(value.numerator if abs(value) >= 1 else value.denominator)
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


_SHARE = re.compile(r"([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:/(\d+(?:\.\d*)?))?(%?)", re.ASCII)


def share_of(text: str) -> Fraction | None:
    """A share written as a decimal, a fraction or a percentage, exactly; None for text
    that is none of them, or that divides by zero.

    >>> share_of("2.5%"), share_of("1/40"), share_of("-0.1"), share_of("1/2%")
    (Fraction(1, 40), Fraction(1, 40), Fraction(-1, 10), None)
    """
    match = _SHARE.fullmatch(text.strip().replace(" ", ""))
    if match is None or (match.group(3) is not None and match.group(4)):
        return None
    sign, numerator, denominator, in_percent = match.groups()
    value = Fraction(numerator)
    if denominator is not None:
        if Fraction(denominator) == 0:
            return None
        value /= Fraction(denominator)
    value = value / 100 if in_percent else value
    return -value if sign == "-" else value


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
        raise error(f"{what} {shown(rounds)} is invalid: give 1 to {MAX_ROUNDS:,}")
    return rounds


#: The largest seed: 128 bits, the entropy numpy's SeedSequence draws from.
MAX_SEED = 2**128 - 1


def check_seed(seed: object, error: type[CbjError] = SimulationError) -> int | None:
    """A seed for the simulator: None (a fresh one) or a whole number of 0 to 2**128 - 1.

    >>> check_seed(None), check_seed(7)
    (None, 7)
    """
    if seed is not None and not whole_in(seed, 0, MAX_SEED):
        raise error(f"seed {shown(seed)} must be a whole number from 0 to 2**128 - 1")
    return seed


def finite_fraction(value: float, what: str, error: type[CbjError] = CbjError) -> Fraction:
    """A float as the exact decimal it prints as; ``error`` for NaN and infinities.

    >>> finite_fraction(0.75, "penetration")
    Fraction(3, 4)
    >>> finite_fraction(float("nan"), "penetration")
    Traceback (most recent call last):
    ...
    solver.model.errors.CbjError: penetration nan is not a finite number
    """
    if not math.isfinite(value):
        raise error(f"{what} {float.__repr__(value)} is not a finite number")
    return Fraction(float.__repr__(value))  # numpy's float64 repr is "np.float64(...)"
