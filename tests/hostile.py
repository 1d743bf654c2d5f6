"""Hostile values for any parameter: one list of classes, and a hypothesis strategy over it.

Each :class:`Hostile` names a class of value a parameter may be handed by mistake or on
purpose (issue 50): integers past Python's limit on an int's text (4,300 digits), numpy
scalars and arrays, bytes, NaN and infinities of every numeric type, booleans where numbers
belong, and strings of hundreds of thousands of characters.  A value is made when asked for
(:meth:`Hostile.make`), so that no test, and no hypothesis report of a failing example,
ever has to print a 5,000-digit number; its repr is its name.

The API's fuzz (``tests/test_api_fuzz.py``) hands every one of them to every parameter of
every public function and constructor; a fuzz made from the command table takes the same
:data:`HOSTILE` list or :data:`hostile_values`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st

#: The longest message any refusal may have (characters).
MAX_MESSAGE = 300


@dataclass(frozen=True)
class Hostile:
    """One hostile value: its class, its name (its repr) and how it is made."""

    kind: str
    name: str
    made: Callable[[], Any]

    def make(self) -> Any:
        """The value itself (made afresh: arrays and bytearrays are mutable)."""
        return self.made()

    def __repr__(self) -> str:
        return self.name


def _values(kind: str, **made: Callable[[], Any]) -> list[Hostile]:
    return [Hostile(kind, name, make) for name, make in made.items()]


#: Every hostile value, by class.
HOSTILE: tuple[Hostile, ...] = (
    *_values(
        "int past the text limit",
        huge_int=lambda: 10**5000,
        huge_negative_int=lambda: -(10**5000),
        huge_fraction=lambda: Fraction(10**5000, 3),
        tiny_fraction=lambda: Fraction(1, 10**5000),
    ),
    *_values(
        "int past every range",
        int_2_64=lambda: 2**64,
        int_minus_2_63=lambda: -(2**63) - 1,
    ),
    *_values(
        "numpy scalar",
        numpy_int=lambda: np.int64(2),
        numpy_negative_int=lambda: np.int64(-1),
        numpy_uint8=lambda: np.uint8(200),
        numpy_float=lambda: np.float64(1.5),
        numpy_nan=lambda: np.float32("nan"),
        numpy_inf=lambda: np.float64("inf"),
        numpy_bool=lambda: np.bool_(True),
        numpy_str=lambda: np.str_("1"),
    ),
    *_values(
        "numpy array",
        array_of_ints=lambda: np.array([1, 2]),
        array_0d=lambda: np.array(3),
        array_of_text=lambda: np.array(["casino-edition"]),
        array_empty=lambda: np.array([]),
        array_2d=lambda: np.zeros((2, 2)),
    ),
    *_values(
        "bytes",
        bytes_digit=lambda: b"6",
        bytes_word=lambda: b"casino-edition",
        bytearray_digit=lambda: bytearray(b"2"),
        memoryview_digit=lambda: memoryview(b"1"),
    ),
    *_values(
        "NaN or infinity",
        nan=lambda: math.nan,
        inf=lambda: math.inf,
        negative_inf=lambda: -math.inf,
        decimal_nan=lambda: Decimal("NaN"),
        decimal_snan=lambda: Decimal("sNaN"),
        decimal_inf=lambda: Decimal("Infinity"),
        text_nan=lambda: "nan",
        text_inf=lambda: "-inf",
        tiny_float=lambda: 1e-300,
        huge_float=lambda: 1e308,
    ),
    *_values("boolean", true=lambda: True, false=lambda: False),
    *_values(
        "huge string",
        digits_past_the_limit=lambda: "9" * 5000,
        ratio_past_the_limit=lambda: "1/" + "7" * 5000,
        long_word=lambda: "x" * 300_000,
        long_spaces=lambda: " " * 100_000 + "1",
        long_list_text=lambda: ",".join(["1"] * 50_000),
    ),
)
#: The classes of :data:`HOSTILE`, each named once.
KINDS = tuple(dict.fromkeys(h.kind for h in HOSTILE))
#: Any one hostile value (its :class:`Hostile`: call ``make()`` for the value).
hostile_values: st.SearchStrategy[Hostile] = st.sampled_from(HOSTILE)
