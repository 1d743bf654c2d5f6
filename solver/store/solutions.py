"""The store's codec of a player's solution against one Bonus card (for :mod:`.codecs`).

Exact values are stored as integer numerators over one denominator per hand size, a
float solution's columns as the Base64 text of their doubles, bit for bit; columns that
an identity recovers are left out, and the hand space is rebuilt from its smallest hands.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from solver.model.rules import Rules
from solver.store.digest import sha256
from solver.store.payload import Json

if TYPE_CHECKING:
    import numpy as np

    from solver.exact.player import Number, PlayerSolution

#: The solver's classes of a solution's values and of its outcome rows.
Values = TypeVar("Values")
Rows = TypeVar("Rows")


def _keys_digest(keys: np.ndarray[Any, Any]) -> str:
    return sha256(keys.astype("<i8").tobytes())


def _roots(solution: PlayerSolution) -> list[list[int]]:
    """The minimal hands of the solution's hand space: those no hand one card smaller has.

    Keys are sorted, so a parent's key is found by binary search.
    """
    import numpy as np

    from solver.exact.player_hands import RADIX

    keys, hands = solution.space.keys, solution.space.hands
    has_parent = np.zeros(len(keys), dtype=bool)
    for v in range(10):
        parent = keys - RADIX[v]
        at = np.minimum(np.searchsorted(keys, parent), len(keys) - 1)
        has_parent |= (hands[:, v] > 0) & (keys[at] == parent)
    roots: list[list[int]] = hands[~has_parent].tolist()
    return roots


def _chosen_and_other(
    stand: Sequence[Any], hit: Sequence[Any], hitting: Sequence[bool]
) -> tuple[list[Any], list[Any]]:
    """Each hand's value under the chosen action, and under the other one."""
    rows = list(zip(stand, hit, hitting, strict=True))
    return [h if up else s for s, h, up in rows], [s if up else h for s, h, up in rows]


def _optional_columns(
    win: list[int], push: list[int], lose: list[int], chosen: list[int], totals: list[int]
) -> dict[str, Json]:
    """The numerator columns an identity does not recover for every hand: push (when
    win + push + lose is not the hand's denominator) and the chosen action's value (when
    it is not win - lose)."""
    doc: dict[str, Json] = {}
    if not all(w + p + lo == t for w, p, lo, t in zip(win, push, lose, totals, strict=True)):
        doc["push"] = push
    if not all(c == w - lo for c, w, lo in zip(chosen, win, lose, strict=True)):
        doc["chosen"] = chosen
    return doc


def _held_columns(
    solution: PlayerSolution, columns: list[list[int]], by_size: dict[int, int]
) -> dict[str, Json]:
    """The exact columns of a solution held as numerators (see :func:`_held_numerators`)."""
    stand_n, hit_n, win_n, push_n, lose_n = columns
    chosen_n, other_n = _chosen_and_other(stand_n, hit_n, solution.hitting)
    totals = [by_size[m] for m in solution.space.sizes.tolist()]
    doc: dict[str, Json] = {
        "exact": True,
        "denominators": {str(m): d for m, d in by_size.items()},
        "win": win_n,
        "lose": lose_n,
        "other": other_n,
    }
    return doc | _optional_columns(win_n, push_n, lose_n, chosen_n, totals)


def _fraction_columns(
    solution: PlayerSolution, outcomes: list[list[Any]], chosen: list[Any], other: list[Any]
) -> dict[str, Json]:
    """The exact columns of a solution held as fractions, as numerators over one
    denominator per hand size."""
    win, push, lose = outcomes
    sizes = solution.space.sizes.tolist()
    denominators: dict[int, int] = {}
    for i, size in enumerate(sizes):
        row = (solution.stand[i], solution.hit[i], win[i], push[i], lose[i])
        dens = (Fraction(v).denominator for v in row)
        denominators[size] = math.lcm(denominators.get(size, 1), *dens)

    def column(values: list[Number]) -> list[int]:
        return [int(Fraction(v) * denominators[m]) for v, m in zip(values, sizes, strict=True)]

    doc: dict[str, Json] = {
        "exact": True,
        "denominators": {str(m): d for m, d in denominators.items()},
        "win": column(win),
        "lose": column(lose),
        "other": column(other),
    }
    totals = [denominators[m] for m in sizes]
    extra = _optional_columns(doc["win"], column(push), doc["lose"], column(chosen), totals)
    return doc | extra


def _flags_text(flags: Sequence[bool]) -> str:
    """``"1"`` for each true flag, ``"0"`` for each false one.

    >>> _flags_text((True, False, False))
    '100'
    """
    import numpy as np

    return (np.array(flags, dtype=np.uint8) + ord("0")).tobytes().decode("ascii")


def encode_solution(solution: PlayerSolution) -> dict[str, Json]:
    """One Bonus card's solution; the hand space is rebuilt from its minimal hands.

    Exact values share one denominator per hand size and are stored as integer
    numerators over it; a column that an identity recovers (push = 1 - win - lose, the
    chosen action's value = win - lose) is left out when the identity holds for every hand.
    """
    space = solution.space
    doc: dict[str, Json] = {
        "bonus": space.bonus,
        "shoe": list(space.shoe),
        "roots": _roots(solution),
        "hands": len(space.keys),
        "keys": _keys_digest(space.keys),
        "hitting": _flags_text(solution.hitting),
    }
    held = _held_numerators(solution)
    if held is not None:
        return doc | _held_columns(solution, *held)
    if not _held_as_floats(solution):
        outcomes = [[o[i] for o in solution.outcomes] for i in range(3)]
        values = [*solution.stand, *solution.hit, *outcomes[0], *outcomes[1], *outcomes[2]]
        if all(isinstance(v, Fraction) for v in values):
            chosen, other = _chosen_and_other(solution.stand, solution.hit, solution.hitting)
            return doc | _fraction_columns(solution, outcomes, chosen, other)
    floats = _float_columns(solution)
    return doc | {"exact": False} | {name: encode_floats(c) for name, c in floats.items()}


def encode_floats(values: Sequence[Number] | np.ndarray[Any, Any]) -> str:
    """Floats as the Base64 text of their IEEE 754 doubles (little-endian): exact, and many
    times faster to write and read than their decimal forms."""
    import base64

    import numpy as np

    return base64.b64encode(np.asarray(values, dtype="<f8").tobytes()).decode("ascii")


def decode_floats(text: Json) -> list[float]:
    """Inverse of :func:`encode_floats`; ``ValueError`` on anything else, or a non-finite value."""
    import base64
    import binascii

    import numpy as np

    if not isinstance(text, str):
        raise ValueError("a float column is not text")
    try:
        data = base64.b64decode(text, validate=True)
    except binascii.Error as error:
        raise ValueError(f"a float column is not Base64: {error}") from None
    if len(data) % 8:
        raise ValueError("a float column's length is not a whole number of doubles")
    values = np.frombuffer(data, dtype="<f8")
    if not np.isfinite(values).all():
        raise ValueError("a float column holds a value that is not finite")
    return list(values.tolist())


def _held_as(
    solution: PlayerSolution, values: type[Values], outcomes: type[Rows]
) -> tuple[Values, Values, Rows] | None:
    """The solution's (stand, hit, outcomes) when it holds them as the solver's ``values``
    and ``outcomes`` classes (:mod:`solver.exact.values`), not as tuples; else None."""
    stand, hit, rows = solution.stand, solution.hit, solution.outcomes
    if isinstance(stand, values) and isinstance(hit, values) and isinstance(rows, outcomes):
        return stand, hit, rows
    return None


def _held_as_floats(solution: PlayerSolution) -> bool:
    """Whether the solution holds its values as the float solver's arrays."""
    from solver.exact.values import FloatOutcomes, FloatValues

    return _held_as(solution, FloatValues, FloatOutcomes) is not None


def _float_columns(solution: PlayerSolution) -> dict[str, np.ndarray[Any, Any]]:
    """A float solution's columns (win, push, lose, chosen, other) as float64 arrays, read
    whole (from the solver's arrays where it holds them), not value by value."""
    import numpy as np

    rows = np.asarray(solution.outcomes, dtype=np.float64).reshape(-1, 3)
    stand = np.asarray(solution.stand, dtype=np.float64)
    hit = np.asarray(solution.hit, dtype=np.float64)
    hitting = np.array(solution.hitting, dtype=bool)
    return {
        "win": rows[:, 0],
        "push": rows[:, 1],
        "lose": rows[:, 2],
        "chosen": np.where(hitting, hit, stand),
        "other": np.where(hitting, stand, hit),
    }


def _held_numerators(
    solution: PlayerSolution,
) -> tuple[list[list[int]], dict[int, int]] | None:
    """An exact solve's values as integer numerators over one denominator per hand size,
    read as the solver holds them (no fraction made); None when they are not held so."""
    from solver.exact.values import ExactOutcomes, ExactValues

    held = _held_as(solution, ExactValues, ExactOutcomes)
    if held is None:
        return None
    stand, hit, outcomes = held
    parts = [stand.raw(), hit.raw(), outcomes.raw()]
    dens = parts[0][1]
    if any(p[1] != dens for p in parts):
        return None
    by_size: dict[int, int] = {}
    for m, d in zip(solution.space.sizes.tolist(), dens, strict=True):
        if by_size.setdefault(m, d) != d:
            return None
    columns = [parts[0][0][0], parts[1][0][0], *parts[2][0]]
    return columns, by_size


_SOLUTION_COLUMNS = ("win", "push", "lose", "chosen", "other")


def _exact_columns(doc: dict[str, Json], dens: list[int]) -> dict[str, list[Any]]:
    """The five numerator columns of an exact solution, those left out recovered."""
    columns = {name: list(doc[name]) for name in _SOLUTION_COLUMNS if name in doc}
    win, lose = columns["win"], columns["lose"]
    if "push" not in columns:
        columns["push"] = [d - w - lo for w, lo, d in zip(win, lose, dens, strict=True)]
    if "chosen" not in columns:
        columns["chosen"] = [w - lo for w, lo in zip(win, lose, strict=True)]
    return columns


def decode_solution(rules: Rules, doc: dict[str, Json]) -> PlayerSolution:
    """Inverse of :func:`encode_solution`; exact values stay integer numerators over their
    denominators until read, as the solver holds them."""
    from solver.exact.player import PlayerSolution
    from solver.exact.player_hands import hand_space
    from solver.exact.values import ExactOutcomes, ExactValues

    space = hand_space(doc["bonus"], tuple(doc["shoe"]), [tuple(r) for r in doc["roots"]])
    if len(space.keys) != doc["hands"] or _keys_digest(space.keys) != doc["keys"]:
        raise ValueError("the stored hands do not match the rebuilt hand space")
    hitting = tuple(c == "1" for c in doc["hitting"])
    dens = [int(doc["denominators"][str(m)]) for m in space.sizes.tolist()] if doc["exact"] else []
    columns: dict[str, list[Any]]
    if doc["exact"]:
        columns = _exact_columns(doc, dens)
    else:
        columns = {name: decode_floats(doc[name]) for name in _SOLUTION_COLUMNS}
    if any(len(col) != len(hitting) for col in columns.values()):
        raise ValueError("a stored column has the wrong length")
    rows = list(zip(columns["chosen"], columns["other"], hitting, strict=True))
    stand = [o if h else c for c, o, h in rows]
    hit = [c if h else o for c, o, h in rows]
    if doc["exact"]:
        outcomes = [columns["win"], columns["push"], columns["lose"]]
        return PlayerSolution(
            rules,
            space,
            ExactValues(stand, dens),
            ExactValues(hit, dens),
            hitting,
            ExactOutcomes(outcomes, dens),
        )
    triples = tuple(zip(columns["win"], columns["push"], columns["lose"], strict=True))
    return PlayerSolution(rules, space, tuple(stand), tuple(hit), hitting, triples)
