"""Numbers and cards as plain JSON values, and what a codec is: shared by the store's codecs
(:mod:`solver.store.codecs`, :mod:`solver.store.study_codecs`).

>>> number(Fraction(1, 3)), unnumber([1, 3]), cards_text([])
([1, 3], Fraction(1, 3), [])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from solver.model.cards import Card
from solver.store.payload import Json

#: An encoder of a result into plain JSON values, and its decoder.
Codec = tuple[Callable[[Any], dict[str, Json]], Callable[[dict[str, Json]], Any]]

# Numbers: exact ones as [numerator, denominator], floats as themselves.


def pair(value: Fraction) -> list[int]:
    return [value.numerator, value.denominator]


def number(value: Fraction | float) -> Json:
    """A Fraction as ``[n, d]``, a float as itself (JSON keeps floats exactly)."""
    if isinstance(value, Fraction):
        return pair(value)
    return float(value)


def unnumber(doc: Json) -> Any:
    if isinstance(doc, list):
        return Fraction(doc[0], doc[1])
    return float(doc)


def cards_text(cards: Iterable[Card]) -> list[str]:
    """The cards as their text (``"As"``, ``"10h"``), in order."""
    return [str(c) for c in cards]
