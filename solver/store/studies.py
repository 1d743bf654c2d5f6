"""The codec of stored studies: frozen dataclasses of a closed list, as plain JSON values.

A study (the report's table of players, its game-protection study, its rule variants) is a
tree of the project's frozen dataclasses over numbers, text, tuples and mappings.  It is
stored field by field, each value tagged with its type, and decoded only into the classes
of :func:`study_types` (a closed list; an unknown name is a malformed entry, recomputed):
plain data, so loading an entry never executes code it names.

>>> from fractions import Fraction
>>> doc = encode_study((Fraction(1, 3), 2.5, {"a": None}))
>>> decode_study(doc)
(Fraction(1, 3), 2.5, {'a': None})
"""

from __future__ import annotations

import math
from dataclasses import fields, is_dataclass
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import Any

from solver.model.rules import Rules
from solver.store.payload import Json


@cache
def study_types() -> dict[str, type]:
    """Every class a stored study may hold, by its qualified name.

    Imported on first use: a cache hit on a game never loads the studies or numpy.  A new
    kind of study adds its classes here (and nowhere else in the store).
    """
    from solver.exact.paytable import Variant
    from solver.exact.protection import CountSystem, EffectsOfRemoval, WholeDeck
    from solver.exact.seats import TableBonus
    from solver.exact.shoe_states import DepthStates, Distribution, LinearFit, PredictionCheck
    from solver.results.attack import AttackResult, BonusPlayer, BoundRow, Estimate
    from solver.results.betting import BetResult, CountBin
    from solver.results.dealt_shoes import DealtShoes
    from solver.results.indices import IndexPlay, IndicesResult
    from solver.sim.counter import Counter
    from solver.sim.hands import Wager
    from solver.sim.seats import TableEstimate
    from solver.sim.stats import CounterStatistics
    from solver.studies.protection import CounterPlan, ProtectionStudy
    from solver.studies.seats import SeatsRow, TableOfPlayers

    kinds: tuple[type, ...] = (
        Variant,
        DealtShoes,
        AttackResult,
        BonusPlayer,
        BoundRow,
        Estimate,
        BetResult,
        CountBin,
        IndexPlay,
        IndicesResult,
        CountSystem,
        EffectsOfRemoval,
        WholeDeck,
        TableBonus,
        DepthStates,
        Distribution,
        LinearFit,
        PredictionCheck,
        Counter,
        Wager,
        TableEstimate,
        CounterStatistics,
        CounterPlan,
        ProtectionStudy,
        SeatsRow,
        TableOfPlayers,
    )
    return {f"{k.__module__}.{k.__qualname__}": k for k in kinds}


def _name(kind: type) -> str:
    name = f"{kind.__module__}.{kind.__qualname__}"
    if name not in study_types():
        raise ValueError(f"{name} is not a stored study's type")
    return name


def encode_study(value: Any) -> Json:
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
        return {"tuple": [encode_study(v) for v in value]}
    if isinstance(value, list):
        return [encode_study(v) for v in value]
    if isinstance(value, dict):
        return {"dict": [[encode_study(k), encode_study(v)] for k, v in value.items()]}
    if is_dataclass(value) and not isinstance(value, type):
        return {
            "data": _name(type(value)),
            "fields": {f.name: encode_study(getattr(value, f.name)) for f in fields(value)},
        }
    raise ValueError(f"a {type(value).__name__} cannot be stored in a study")


def decode_study(doc: Json) -> Any:
    """Inverse of :func:`encode_study`; raises on any malformed document."""
    if doc is None or isinstance(doc, str):
        return doc
    if isinstance(doc, bool):
        raise ValueError("an untagged true or false in a study")
    if isinstance(doc, int | float):
        return doc
    if isinstance(doc, list):
        return [decode_study(v) for v in doc]
    if not isinstance(doc, dict) or len(doc) not in (1, 2):
        raise ValueError(f"not a study's value: {str(doc)[:40]}")
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
        return tuple(decode_study(v) for v in body)
    if tag == "dict":
        return {decode_study(k): decode_study(v) for k, v in body}
    if tag == "enum":
        return study_types()[str(doc["enum"])](doc["value"])
    if tag == "data":
        kind = study_types()[str(body)]
        values = {str(k): decode_study(v) for k, v in doc["fields"].items()}
        return kind(**values)
    raise ValueError(f"unknown tag {tag!r} in a study")
