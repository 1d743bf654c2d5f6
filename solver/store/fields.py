"""The store's codec of any result, field by field: frozen dataclasses as plain JSON values.

A result without a compact codec of its own (:data:`~solver.store.codecs.CODECS`: the
report's table of players, its game-protection study, its rule variants, a kind defined
anywhere else) is a tree of frozen dataclasses over numbers, text, tuples and mappings.
It is stored field by field, each value tagged with its type, and read back only into the
classes its kind's type names (:func:`classes_of`: the dataclasses and enumerations
reachable from it through its fields' types): plain data, so loading an entry never
executes code it names, and a new kind of result needs no list kept here.

>>> from fractions import Fraction
>>> doc = encode_fields((Fraction(1, 3), 2.5, {"a": None}))
>>> decode_fields(tuple, doc)
(Fraction(1, 3), 2.5, {'a': None})
"""

from __future__ import annotations

import math
from dataclasses import fields, is_dataclass
from enum import Enum, EnumMeta
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar, get_args, get_origin, get_type_hints

from solver.model.rules import Rules
from solver.store.payload import Json


@cache
def classes_of(shape: Any) -> dict[str, type]:
    """Every dataclass and enumeration a value of type ``shape`` may hold, by qualified name:
    ``shape`` itself and, in turn, the types of its fields (and their arguments).

    >>> from solver.results.seats import TableOfPlayers
    >>> sorted(name.rsplit(".", 1)[1] for name in classes_of(TableOfPlayers))[-4:]
    ['TableBonus', 'TableEstimate', 'TableOfPlayers', 'Wager']
    """
    found: dict[str, type] = {}

    def visit(hint: Any) -> None:
        if isinstance(hint, TypeVar):
            return
        for argument in get_args(hint):
            visit(argument)
        origin = get_origin(hint)
        kind = origin if isinstance(origin, type) else hint
        if not isinstance(kind, type) or _name(kind) in found:
            return
        if isinstance(kind, EnumMeta):
            found[_name(kind)] = kind
        elif is_dataclass(kind) and kind is not Rules:
            found[_name(kind)] = kind
            for field_type in get_type_hints(kind).values():
                visit(field_type)

    visit(shape)
    return found


def _name(kind: type) -> str:
    return f"{kind.__module__}.{kind.__qualname__}"


def encode_fields(value: Any) -> Json:
    """``value`` as plain JSON, every value but text, whole numbers and lists tagged."""
    if value is None or (isinstance(value, str) and not isinstance(value, Enum)):
        return value
    if isinstance(value, Enum):
        return {"enum": _name(type(value)), "value": value.value}
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else {"float": repr(float(value))}
    if isinstance(value, Fraction):
        return {"q": [value.numerator, value.denominator]}
    if isinstance(value, Rules):
        return {"rules": value.canonical()}
    if isinstance(value, tuple):
        return {"tuple": [encode_fields(v) for v in value]}
    if isinstance(value, list):
        return [encode_fields(v) for v in value]
    if isinstance(value, dict):
        return {"dict": [[encode_fields(k), encode_fields(v)] for k, v in value.items()]}
    if is_dataclass(value) and not isinstance(value, type):
        return {
            "data": _name(type(value)),
            "fields": {f.name: encode_fields(getattr(value, f.name)) for f in fields(value)},
        }
    raise ValueError(f"a {type(value).__name__} cannot be stored field by field")


def decode_fields(shape: Any, doc: Json) -> Any:
    """Inverse of :func:`encode_fields` for a value of type ``shape``; raises on any malformed
    document, or one that names a class ``shape`` does not hold."""
    return _decoded(classes_of(shape), doc)


def _decoded(classes: dict[str, type], doc: Json) -> Any:
    if doc is None or isinstance(doc, str):
        return doc
    if isinstance(doc, bool):
        raise ValueError("an untagged true or false in a stored value")
    if isinstance(doc, int | float):
        return doc
    if isinstance(doc, list):
        return [_decoded(classes, v) for v in doc]
    if not isinstance(doc, dict) or len(doc) not in (1, 2):
        raise ValueError(f"not a stored value: {str(doc)[:40]}")
    return _tagged(classes, doc)


def _tagged(classes: dict[str, type], doc: dict[str, Json]) -> Any:
    """A stored value written as its tag and body (``{"q": [1, 3]}``)."""
    tag = next(iter(sorted(doc)))
    body = doc[tag]
    if tag == "bool" and isinstance(body, bool):
        return body
    if tag == "float":
        return float(body)
    if tag == "q":
        return Fraction(int(body[0]), int(body[1]))
    if tag == "rules":
        return Rules.from_canonical(body)
    if tag == "tuple":
        return tuple(_decoded(classes, v) for v in body)
    if tag == "dict":
        return {_decoded(classes, k): _decoded(classes, v) for k, v in body}
    if tag == "enum":
        return _class(classes, doc["enum"])(doc["value"])
    if tag == "data":
        kind = _class(classes, body)
        values = {str(k): _decoded(classes, v) for k, v in doc["fields"].items()}
        return kind(**values)
    raise ValueError(f"unknown tag {tag!r} in a stored value")


def _class(classes: dict[str, type], name: Json) -> type:
    """The class ``name`` names, if the kind's type holds it."""
    found = classes.get(str(name))
    if found is None:
        raise ValueError(f"{str(name)[:60]} is not a class this kind of result holds")
    return found
