"""What a parameter is: one entry of the parameter catalogue (:mod:`solver.model.catalogue`).

A :class:`Param` holds everything every surface says about one parameter of a command: its
name (the API's keyword, the CLI's option with dashes, the workbench's field), its kind,
range and default, the one reader that takes its value or its text, its help, its label
and its messages.  The API reads each argument with :meth:`Param.read`; the CLI hands it
the text typed; the workbench hands it the field's text: so one text means one thing
everywhere, and a bad one is refused with one message.

Numbers are written as people write them (:func:`read_number`): ``12,000``, ``12_000``,
``1e4``, ``2.5``, ``3/4`` and ``75%`` are numbers wherever a number is taken; a whole
number is one whose value is whole.

>>> ROUNDS = Param("rounds", Kind.WHOLE, "Rounds to deal.", low=1, high=10**6, example="10,000")
>>> ROUNDS.read("12,000"), ROUNDS.read("1e4"), ROUNDS.read(7)
(12000, 10000, 7)
>>> ROUNDS.read("3/4")
Traceback (most recent call last):
...
solver.model.errors.CbjError: rounds '3/4' is not a whole number, e.g. 10,000
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from fractions import Fraction
from os import PathLike
from typing import Any, NamedTuple

from solver.model.cards import Card, parse_cards
from solver.model.checks import MAX_NUMBER_TEXT, fraction_bits, is_whole, shown
from solver.model.errors import CbjError

#: A callback told how far a long piece of work has got: ``progress(done, total)``.
ProgressCallback = Callable[[int, int], None]


class Kind(StrEnum):
    """What a parameter's value is, which decides how it is read and shown."""

    WHOLE = "whole"
    """A whole number (``INTEGER`` on the CLI)."""
    NUMBER = "number"
    """A number, exact (a ``Fraction``) or a float (``FLOAT`` on the CLI)."""
    TEXT = "text"
    """Text, read by the entry's own parser (cards, a name, a list)."""
    CHOICE = "choice"
    """One of a closed list of words, written with hyphens (underscores accepted)."""
    FLAG = "flag"
    """Yes or no."""
    PATH = "path"
    """A file or folder name."""
    VALUE = "value"
    """A value only a program passes (a store, a callback, a session's state)."""


#: A number as people write it: digits (in groups of three with commas, or with
#: underscores), decimals, an exponent; then ``/`` and another such number, or ``%``.
_PART = r"(?:\d{1,3}(?:,\d{3})+|\d+(?:_\d+)*)(?:\.\d+)?|\.\d+"
_NUMBER = re.compile(
    rf"(?P<sign>[+-]?)(?P<top>{_PART})(?:[eE](?P<exp>[+-]?\d{{1,3}}))?"
    rf"(?:\s*/\s*(?P<bottom>{_PART}))?\s*(?P<percent>%?)",
    re.ASCII,
)


def read_number(
    text: str, what: str, error: type[CbjError] = CbjError, said: str = "a number"
) -> Fraction:
    """A number written as people write it, exactly; ``error`` if it is no number.

    >>> read_number("12,000", "rounds"), read_number("75%", "penetration")
    (Fraction(12000, 1), Fraction(3, 4))
    >>> read_number("1e4", "rounds"), read_number("-3/4", "x"), read_number("2.5e-1", "x")
    (Fraction(10000, 1), Fraction(-3, 4), Fraction(1, 4))
    """
    cleaned = text.strip()
    if len(cleaned) > MAX_NUMBER_TEXT:
        raise error(
            f"{what} {cleaned[:12]}... is {len(cleaned)} characters long: "
            f"write it in at most {MAX_NUMBER_TEXT}"
        )
    found = _NUMBER.fullmatch(cleaned)
    if found is None or (found["bottom"] is not None and found["percent"]):
        raise error(f"{what} {shown(text)} is not {said}")
    value = Fraction(found["top"].replace(",", "").replace("_", ""))
    if found["exp"] is not None:
        value *= Fraction(10) ** int(found["exp"])
    if found["bottom"] is not None:
        bottom = Fraction(found["bottom"].replace(",", "").replace("_", ""))
        if bottom == 0:
            raise error(f"{what} {shown(text)} divides by zero")
        value /= bottom
    if found["percent"]:
        value /= 100
    return -value if found["sign"] == "-" else value


def _limits(param: Param) -> str:
    """What to give instead, in words: the entry's own, else ``use 1 to 100,000``."""
    if param.limits:
        return param.limits
    low, high = param.low, param.high
    if low is not None and high is not None:
        return f"use {_plain(low)} to {_plain(high)}"
    return f"use {_plain(low)} or more" if low is not None else f"use at most {_plain(high)}"


def _plain(value: Any) -> str:
    """``100,000``, ``0.75``, ``1/3``: a limit as a range says it."""
    if isinstance(value, int) or (isinstance(value, Fraction) and value.denominator == 1):
        return f"{int(value):,}"
    if isinstance(value, Fraction) and Fraction(repr(float(value))) == value:
        return repr(float(value))
    return str(value)


def _check_range(param: Param, value: Fraction | int, given: object) -> None:
    """``param``'s error unless ``value`` (read from ``given``) lies in its range."""
    low, high = param.low, param.high
    open_low, open_high = param.open
    too_low = low is not None and (value <= low if open_low else value < low)
    too_high = high is not None and (value >= high if open_high else value > high)
    if too_low or too_high:
        said = given.strip() if isinstance(given, str) and len(given) <= 40 else shown(given)
        raise param.error(f"{param.what} {said} is out of range: {_limits(param)}")


def _whole(param: Param, value: object) -> int:
    if isinstance(value, str):
        said = f"a whole number, e.g. {param.example}" if param.example else "a whole number"
        number = read_number(value, param.what, param.error, said)
        if number.denominator != 1:
            raise param.error(f"{param.what} {shown(value)} is not {said}")
        found = int(number)
    elif is_whole(value):
        found = value
    else:
        raise TypeError(f"{param.name} must be an int or its text, not {type(value).__name__}")
    _check_range(param, found, value)
    return found


def _number(param: Param, value: object) -> Fraction | float:
    if isinstance(value, str):
        said = f"a number, e.g. {param.example}" if param.example else "a number"
        found = read_number(value, param.what, param.error, said)
    elif isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise TypeError(
            f"{param.name} must be a number (int, float or Fraction) or its text, "
            f"not {type(value).__name__}"
        )
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise param.error(f"{param.what} {float.__repr__(value)} is not a finite number")
        found = Fraction(float.__repr__(value))  # numpy's float64 repr is "np.float64(...)"
    else:
        found = Fraction(value)
    _check_range(param, found, value)
    if fraction_bits(found) > 200:  # a limit's digits at most: no 5,000-digit fraction on
        raise param.error(f"{param.what} {shown(value)} is too long: write it more shortly")
    return float(found) if param.as_float else found


def _text(param: Param, value: object) -> Any:
    if isinstance(value, str):
        if param.parse is None:
            return value
        return param.parse(value)
    if param.value is not None:
        return param.value(value)
    raise TypeError(f"{param.name} must be {param.takes or 'str'}, not {type(value).__name__}")


def _choice(param: Param, value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{param.name} must be str, not {type(value).__name__}")
    word = value.strip().lower().replace("_", "-")
    if word not in param.choices:
        *most, last = param.choices
        listed = f"{', '.join(most)} or {last}" if most else last
        raise param.error(f"{param.what} {shown(value)} is unknown: use {listed}")
    return word


#: How the workbench's box and an API's text say yes and no.
YES, NO = ("1", "on", "yes", "true"), ("", "0", "off", "no", "false")


def _flag(param: Param, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in YES + NO:
        return value.strip().lower() in YES
    if isinstance(value, str):
        raise param.error(f"{param.what} {shown(value)} is not yes or no")
    raise TypeError(f"{param.name} must be bool, not {type(value).__name__}")


def _path(param: Param, value: object) -> Any:
    if isinstance(value, str | PathLike):
        return value
    raise TypeError(f"{param.name} must be str or Path, not {type(value).__name__}")


def _value(param: Param, value: object) -> Any:
    assert param.value is not None, f"{param.name} has no check"
    return param.value(value)


_READERS: dict[Kind, Callable[[Param, Any], Any]] = {
    Kind.WHOLE: _whole,
    Kind.NUMBER: _number,
    Kind.TEXT: _text,
    Kind.CHOICE: _choice,
    Kind.FLAG: _flag,
    Kind.PATH: _path,
    Kind.VALUE: _value,
}
#: What an API keyword of each kind takes (its annotation), unless the entry says.
TAKES: dict[Kind, str] = {
    Kind.WHOLE: "int | str",
    Kind.NUMBER: "Fraction | float | str",
    Kind.TEXT: "str",
    Kind.CHOICE: "str",
    Kind.FLAG: "bool",
    Kind.PATH: "str | Path",
    Kind.VALUE: "object",
}


class Param(NamedTuple):
    """One parameter of one or more commands: everything every surface says about it.

    A named tuple, as the rule table's rows are: the catalogue is read at every start of
    ``cbj``.
    """

    name: str
    """The API's keyword; with dashes, the CLI's option; the workbench's field."""
    kind: Kind
    help: str
    """The CLI's help text, whole (as ``--help`` prints it)."""
    default: Any = None
    """The API's default (None: not given)."""
    label: str = ""
    """The workbench field's label."""
    low: Any = None
    high: Any = None
    open: tuple[bool, bool] = (False, False)
    """Whether ``low`` and ``high`` are themselves outside the range."""
    limits: str = ""
    """What to give instead of a value out of range, where its ends do not say it (``give
    a share above 0 and at most 1``)."""
    example: str = ""
    """A valid value, as messages and the workbench's placeholder show it."""
    parse: Callable[[str], Any] | None = None
    """A text kind's reader: text to a checked value (a :class:`CbjError` if bad)."""
    value: Callable[[Any], Any] | None = None
    """A value given as no text, checked (a ``TypeError`` naming the parameter if wrong)."""
    takes: str = ""
    """The API's annotation, where the kind's (:data:`TAKES`) does not fit."""
    choices: tuple[str, ...] = ()
    error: type[CbjError] = CbjError
    """The kind of :class:`CbjError` a bad value raises."""
    as_float: bool = False
    """A number passed on as a float (it is read exactly)."""
    words: str = ""
    """The parameter's name in messages, where it is not the name with spaces."""
    flag: str = ""
    """The CLI's option where it is not ``--name`` (``-o/--output``, ``--no-cache``)."""
    metavar: str = ""
    required: bool = False
    shown_default: str = ""
    """The default as ``--help`` shows it (``[default: ...]``), where it shows one."""
    hint: str = ""
    """The workbench's help beside the field, where it is not :attr:`help`."""
    multiple: bool = False
    """The CLI's option may be given more than once."""
    check: Callable[[Any], Any] | None = None
    """A last check of the value read, where its range says not all (``jobs``: -1 or 1 up)."""
    files: str = ""
    """The API's reader (``module:function``) of the files the value names, where it is not
    the one its name has (:data:`solver.api.call.FILES`): a strategy mix's chart files."""

    @property
    def what(self) -> str:
        """The parameter's name in messages (``max pay``)."""
        return self.words or self.name.replace("_", " ")

    @property
    def annotation(self) -> str:
        """The API keyword's annotation (None added where the default is None)."""
        takes = self.takes or TAKES[self.kind]
        optional = self.default is None and not self.required and not takes.endswith("None")
        return f"{takes} | None" if optional else takes

    def read(self, value: Any) -> Any:
        """``value`` (or its text) read and checked: a :class:`CbjError` for a bad value, a
        ``TypeError`` naming the parameter for a wrong type; None stays None (not given)."""
        if value is None and self.default is None and not self.required:
            return None
        found = _READERS[self.kind](self, value)
        return found if self.check is None else self.check(found)

    def but(self, **changes: Any) -> Param:
        """The same parameter, said otherwise for one command (its help, its default)."""
        return self._replace(**changes)


# --- Checks of values given as values, not text (an entry's ``value``) ---------------------


def of_kinds(name: str, words: str, *kinds: type) -> Callable[[Any], Any]:
    """A check that a value is one of ``kinds`` (a ``TypeError`` naming ``name`` if not)."""

    def check(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise TypeError(f"{name} must be {words}, not {type(value).__name__}")
        return value

    return check


def sequence_of(name: str, words: str, *items: type) -> Callable[[Any], tuple[Any, ...]]:
    """A sequence of values of ``items`` (a ``TypeError`` naming ``name`` otherwise)."""

    def check(value: Any) -> tuple[Any, ...]:
        if isinstance(value, bytes | bytearray | Mapping) or not isinstance(value, Sequence):
            kind = type(value).__name__
            raise TypeError(f"{name} must be str or a sequence of {words}, not {kind}")
        found = tuple(value)
        for one in found:
            if isinstance(one, bool) or not isinstance(one, items):
                kind = type(one).__name__
                raise TypeError(f"{name} must be str or a sequence of {words}, not one of {kind}")
        return found

    return check


def cards_of(name: str) -> Callable[[Any], tuple[Card, ...]]:
    """Cards given as values: a list or tuple of cards or their texts (the one parser's)."""

    def read(value: Any) -> tuple[Card, ...]:
        if value is None or (
            isinstance(value, list | tuple) and not all(isinstance(i, str | Card) for i in value)
        ):
            kind = type(value).__name__
            raise TypeError(f"{name} must be str or a sequence of Card or str, not {kind}")
        return parse_cards(value, name)

    return read


def mapping_of(name: str, words: str, read: Callable[[str], Any]) -> Callable[[Any], Any]:
    """Tags or pays given as a mapping of names to whole numbers (tags) or pays."""

    def check(value: Any) -> Any:
        if not isinstance(value, Mapping):
            kind = type(value).__name__
            raise TypeError(f"{name} must be str or a mapping of {words}, not {kind}")
        for key, item in value.items():
            if not isinstance(key, str) or not (is_whole(item) or isinstance(item, Fraction | str)):
                kind = type(item).__name__
                raise TypeError(f"{name} must be str or a mapping of {words}, not one of {kind}")
        said = (v if not is_whole(v) or abs(v) < 10**9 else shown(v) for v in value.values())
        return read(",".join(f"{k}={v}" for k, v in zip(value, said, strict=True)))

    return check


def having(name: str, words: str, *methods: str, either: bool = False) -> Callable[[Any], Any]:
    """A check that a value has ``methods`` (a store's ``fetch``) or is called (no methods);
    with ``either``, True or False too (``progress=True``: a bar)."""

    def check(value: Any) -> Any:
        if either and isinstance(value, bool):
            return value
        if not all(callable(getattr(value, m, None)) for m in methods) or not (
            methods or callable(value)
        ):
            raise TypeError(f"{name} must be {words}, not {type(value).__name__}")
        return value

    return check


def carried(name: str, kind: str, attribute: str) -> Callable[[Any], Any]:
    """A check of a value carried between calls: its JSON (read by the session), or the
    value itself (a practice session's ``state``, a player's ``history``)."""

    def check(value: Any) -> Any:
        if not (isinstance(value, Mapping) or hasattr(value, attribute)):
            raise TypeError(
                f"{name} must be a {kind} or its JSON (a mapping), not {type(value).__name__}"
            )
        return value

    return check


def as_given(value: Any) -> Any:
    """Any value, as given (a mapping's items read by their own parser)."""
    return value
