"""Codecs of the store: solved games, best charts and effects of removal as plain JSON values.

Plain data only, so that decoding an entry can never execute code; exact numbers keep
their full precision as integers (JSON integers have no size limit), a float game's
columns are the Base64 text of their doubles, bit for bit.  Only what outputs need is
encoded, compactly: exact values as integer numerators over one denominator per hand size,
columns that an identity recovers left out, hand spaces rebuilt from their smallest hands.
Every decoder raises on a malformed document (the store then recomputes the entry).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import fields, is_dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.exact.bonus import BonusAnalysis, BonusLine
from solver.exact.game import GameResult, RoundLine, Start
from solver.model.cards import Card, parse_cards
from solver.model.cells import Action
from solver.model.checks import is_whole
from solver.model.outcomes import as_outcome
from solver.model.rules import Rules
from solver.store.digest import sha256
from solver.store.payload import Json, Section

if TYPE_CHECKING:
    import numpy as np

    from solver.exact.chart import Chart
    from solver.exact.player import Number, PlayerSolution
    from solver.exact.protection import EffectsOfRemoval
    from solver.sim import (
        SimulationResult,  # numpy and the solver load only to encode or decode what needs them
    )

# Numbers: exact ones as [numerator, denominator], floats as themselves.


def _q(value: Fraction) -> list[int]:
    return [value.numerator, value.denominator]


def _number(value: Number) -> Json:
    """A Fraction as ``[n, d]``, a float as itself (JSON keeps floats exactly)."""
    if isinstance(value, Fraction):
        return _q(value)
    return float(value)


def _unnumber(doc: Json) -> Any:
    if isinstance(doc, list):
        return Fraction(doc[0], doc[1])
    return float(doc)


def cards_text(cards: Iterable[Card]) -> list[str]:
    """The cards as their text (``"As"``, ``"10h"``), in order."""
    return [str(c) for c in cards]


# --- A player's solution against one Bonus card -----------------------------------------------


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
    floats = _held_floats(solution)
    if floats is not None:
        return doc | {"exact": False} | {name: encode_floats(c) for name, c in floats.items()}
    outcomes = [[o[i] for o in solution.outcomes] for i in range(3)]
    chosen, other = _chosen_and_other(solution.stand, solution.hit, solution.hitting)
    values = [*solution.stand, *solution.hit, *outcomes[0], *outcomes[1], *outcomes[2]]
    if all(isinstance(v, Fraction) for v in values):
        return doc | _fraction_columns(solution, outcomes, chosen, other)
    columns = dict(zip(("win", "push", "lose"), outcomes, strict=True))
    columns |= {"chosen": chosen, "other": other}
    return doc | {"exact": False} | {name: encode_floats(c) for name, c in columns.items()}


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


def _held_floats(solution: PlayerSolution) -> dict[str, np.ndarray[Any, Any]] | None:
    """A float solve's columns (win, push, lose, chosen, other) taken from the arrays it
    holds, as :func:`encode_solution` would read them value by value; None when its values
    are not held as float arrays."""
    import numpy as np

    from solver.exact.values import FloatOutcomes, FloatValues

    stand, hit, outcomes = solution.stand, solution.hit, solution.outcomes
    if not (
        isinstance(stand, FloatValues)
        and isinstance(hit, FloatValues)
        and isinstance(outcomes, FloatOutcomes)
    ):
        return None
    rows, hitting = np.asarray(outcomes), np.array(solution.hitting, dtype=bool)
    stand_values, hit_values = np.asarray(stand), np.asarray(hit)
    return {
        "win": rows[:, 0],
        "push": rows[:, 1],
        "lose": rows[:, 2],
        "chosen": np.where(hitting, hit_values, stand_values),
        "other": np.where(hitting, stand_values, hit_values),
    }


def _held_numerators(
    solution: PlayerSolution,
) -> tuple[list[list[int]], dict[int, int]] | None:
    """An exact solve's values as integer numerators over one denominator per hand size,
    read as the solver holds them (no fraction made); None when they are not held so."""
    from solver.exact.values import ExactOutcomes, ExactValues

    stand, hit, outcomes = solution.stand, solution.hit, solution.outcomes
    if not (
        isinstance(stand, ExactValues)
        and isinstance(hit, ExactValues)
        and isinstance(outcomes, ExactOutcomes)
    ):
        return None
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


# --- Games --------------------------------------------------------------------------------------


def encode_game(game: GameResult[Any]) -> dict[str, Json]:
    """A solved game as plain JSON values (see :func:`decode_game`)."""
    bonus = None
    if game.bonus is not None:
        bonus = {
            "removed": cards_text(game.bonus.removed),
            "lines": [
                [str(ln.outcome), _q(ln.pays), ln.combinations, _q(ln.probability)]
                for ln in game.bonus.lines
            ],
        }
    return {
        "rules": game.rules.canonical(),
        "removed": cards_text(game.removed),
        "exact": game.exact,
        "starts": [
            [
                s.player,
                s.bonus,
                _number(s.probability),
                s.hits,
                {k: _number(v) for k, v in s.outcomes.items()},
            ]
            for s in game.starts
        ],
        "solutions": [encode_solution(game.solutions[c]) for c in game.solutions],
        "bonus": bonus,
        "round_lines": [[_q(line.net), _number(line.probability)] for line in game.round_lines],
    }


def decode_game(doc: dict[str, Json]) -> GameResult[Any]:
    """Inverse of :func:`encode_game`; raises on any malformed document.

    The solutions (most of the document) are decoded when first used: a repeated ``cbj
    solve`` prints figures of the starting pairs and the round only.
    """
    rules = Rules.from_canonical(doc["rules"])
    bonus = None
    if doc["bonus"] is not None:
        lines = tuple(
            BonusLine(as_outcome(o), Fraction(*pays), int(n), Fraction(*p))
            for o, pays, n, p in doc["bonus"]["lines"]
        )
        bonus = BonusAnalysis(rules, parse_cards(doc["bonus"]["removed"]), lines)
    starts = tuple(
        Start(p, c, _unnumber(prob), bool(hits), {k: _unnumber(v) for k, v in outcomes.items()})
        for p, c, prob, hits, outcomes in doc["starts"]
    )
    round_lines = tuple(RoundLine(Fraction(*net), _unnumber(p)) for net, p in doc["round_lines"])
    return GameResult(
        rules,
        parse_cards(doc["removed"]),
        bool(doc["exact"]),
        starts,
        StoredSolutions(rules, doc["solutions"]),
        bonus,
        round_lines,
    )


class StoredSolutions(Mapping[int, "PlayerSolution"]):
    """A stored game's solutions by Bonus card value, decoded on first use.

    ``source`` is the encoded list (or a :class:`~solver.store.payload.Section` holding
    it).  ``recover``, when set, receives a decoding error and returns solutions computed
    afresh instead.
    """

    def __init__(self, rules: Rules, source: Json | Section) -> None:
        self.rules = rules
        self.source = source
        self.recover: Callable[[Exception], Mapping[int, PlayerSolution]] | None = None
        self._decoded: Mapping[int, PlayerSolution] | None = None

    def _solutions(self) -> Mapping[int, PlayerSolution]:
        if self._decoded is None:
            try:
                docs = self.source.load() if isinstance(self.source, Section) else self.source
                self._decoded = {s["bonus"]: decode_solution(self.rules, s) for s in docs}
            except Exception as error:  # a bad entry is recomputed when a caller can
                if self.recover is None:
                    raise ValueError(f"the cached solutions do not decode: {error}") from None
                self._decoded = self.recover(error)
            self.source = None
        return self._decoded

    def __getitem__(self, bonus: int) -> PlayerSolution:
        return self._solutions()[bonus]

    def __iter__(self) -> Iterator[int]:
        return iter(self._solutions())

    def __len__(self) -> int:
        return len(self._solutions())

    def __reduce__(self) -> tuple[type[dict[int, PlayerSolution]], tuple[Any, ...]]:
        """Pickled (for worker processes) as the plain dictionary, decoded."""
        return dict, (dict(self._solutions()),)


# --- Charts -------------------------------------------------------------------------------------


def encode_chart(chart: Chart) -> dict[str, Json]:
    """A best chart as plain JSON values (see :func:`decode_chart`)."""
    return {
        "rules": chart.rules.canonical(),
        "actions": [
            [soft, total, bonus, action.value]
            for ((soft, total), bonus), action in chart.actions.items()
        ],
        "expected_value": _q(chart.expected_value),
        "optimal_expected_value": _q(chart.optimal_expected_value),
        "exceptions": [
            [e.bonus, list(e.hand), e.chart_action.value, _q(e.frequency), _q(e.gain)]
            for e in chart.exceptions
        ],
    }


def decode_chart(doc: dict[str, Json]) -> Chart:
    """Inverse of :func:`encode_chart`."""
    from solver.exact.chart import Chart, ExceptionHand  # the chart code, when read

    return Chart(
        Rules.from_canonical(doc["rules"]),
        {((bool(s), int(t)), int(b)): Action(a) for s, t, b, a in doc["actions"]},
        Fraction(*doc["expected_value"]),
        Fraction(*doc["optimal_expected_value"]),
        tuple(
            ExceptionHand(int(b), tuple(hand), Action(a), Fraction(*f), Fraction(*g))
            for b, hand, a, f, g in doc["exceptions"]
        ),
    )


# --- Effects of removal -------------------------------------------------------------------------


def _figure(value: Fraction | int | float) -> Json:
    """An EOR figure: a float as itself, an exact one (a fraction or an integer) as [n, d]."""
    return float(value) if isinstance(value, float) else _q(Fraction(value))


def _unfigure(doc: Json) -> Fraction | float:
    """Inverse of :func:`_figure`."""
    if isinstance(doc, list):
        return Fraction(int(doc[0]), int(doc[1]))
    if not (is_whole(doc) or isinstance(doc, float)):
        raise ValueError(f"an effect of removal is not a number: {doc!r}")
    return float(doc)


def _figures(values: Mapping[str, Any]) -> list[list[Json]]:
    """Named figures as ``[name, figure]`` pairs, in their order (a JSON object's keys are
    sorted when stored, and the order is the output's)."""
    return [[name, _figure(v)] for name, v in values.items()]


def _unfigures(doc: Json) -> dict[str, Any]:
    """Inverse of :func:`_figures`."""
    return {str(name): _unfigure(v) for name, v in doc}


def encode_effects(effects: EffectsOfRemoval[Any]) -> dict[str, Json]:
    """Effects of removal as plain JSON values (see :func:`decode_effects`)."""
    whole = effects.whole_deck
    return {
        "rules": effects.rules.canonical(),
        "removed": cards_text(effects.removed),
        "exact": effects.exact,
        "base": _figures(effects.base),
        "effects": [[wager, _figures(by_rank)] for wager, by_rank in effects.effects.items()],
        "whole_deck": {
            "linear": _figures(whole.linear),
            "exact": None if whole.exact is None else _figures(whole.exact),
        },
    }


def decode_effects(doc: dict[str, Json]) -> EffectsOfRemoval[Any]:
    """Inverse of :func:`encode_effects`; raises on any malformed document."""
    # The EOR code (and numpy) load only when effects of removal are read.
    from solver.exact.protection import EffectsOfRemoval, WholeDeck

    whole = doc["whole_deck"]
    exact = None if whole["exact"] is None else _unfigures(whole["exact"])
    return EffectsOfRemoval(
        Rules.from_canonical(doc["rules"]),
        parse_cards(doc["removed"]),
        bool(doc["exact"]),
        _unfigures(doc["base"]),
        {str(wager): _unfigures(by_rank) for wager, by_rank in doc["effects"]},
        WholeDeck(_unfigures(whole["linear"]), exact),
    )


def encode_simulation(result: SimulationResult) -> dict[str, Json]:
    """A simulation's counts, settings and exact figures as plain JSON (no counter: a run
    with one is not stored)."""
    if result.counter is not None:
        raise ValueError("a simulation with a counter is not stored")
    return {
        "rules": result.rules.canonical(),
        "rounds": result.rounds,
        "seats": result.seats,
        "strategy": result.strategy,
        "penetration": result.penetration,
        "seed": str(result.seed),
        "removed": cards_text(result.removed),
        "joint": [[list(row) for row in seat] for seat in result.joint],
        "squares": list(result.squares),
        "exact": [
            [
                str(wager),
                _number(figure.mean),
                None
                if figure.probabilities is None
                else [[k, _q(p)] for k, p in figure.probabilities.items()],
            ]
            for wager, figure in result.exact.items()
        ],
    }


def decode_simulation(doc: dict[str, Json]) -> SimulationResult:
    """The inverse of :func:`encode_simulation`."""
    # Imported here: the simulator loads numpy, which a cache hit on a game never needs.
    from solver.sim import ExactFigure, SimulationResult
    from solver.sim.hands import Wager

    exact = {
        Wager(wager): ExactFigure(
            _unnumber(mean),
            None if probabilities is None else {k: Fraction(*q) for k, q in probabilities},
        )
        for wager, mean, probabilities in doc["exact"]
    }
    squares = [float(x) for x in doc["squares"]]
    return SimulationResult(
        rules=Rules.from_canonical(doc["rules"]),
        rounds=int(doc["rounds"]),
        seats=int(doc["seats"]),
        strategy=str(doc["strategy"]),
        penetration=None if doc["penetration"] is None else float(doc["penetration"]),
        seed=int(doc["seed"]),
        removed=parse_cards(doc["removed"]),
        joint=tuple(tuple(tuple(int(c) for c in row) for row in seat) for seat in doc["joint"]),
        squares=(squares[0], squares[1], squares[2]),
        exact=exact,
    )


def with_removed(value: Any, removed: tuple[Card, ...]) -> Any:
    """A stored result with the caller's removed cards, in the caller's order (a store's key
    sorts them; the result carries them as given)."""
    if isinstance(value, GameResult):
        bonus = value.bonus
        if bonus is not None:
            bonus = replace(bonus, removed=removed)
        return replace(value, removed=removed, bonus=bonus)
    if is_dataclass(value) and any(f.name == "removed" for f in fields(value)):
        return replace(value, removed=removed)  # type: ignore[type-var]
    return value


def _encode_study(value: Any) -> dict[str, Json]:
    """A study (see :mod:`solver.store.studies`) as the store's document."""
    from solver.store.studies import encode_study

    return {"study": encode_study(value)}


def _decode_study(doc: dict[str, Json]) -> Any:
    """Inverse of :func:`_encode_study`."""
    from solver.store.studies import decode_study

    return decode_study(doc["study"])


#: Each kind of entry's encoder and decoder.
CODECS: dict[str, tuple[Callable[[Any], dict[str, Json]], Callable[[dict[str, Json]], Any]]] = {
    "game": (encode_game, decode_game),
    "chart": (encode_chart, decode_chart),
    "eor": (encode_effects, decode_effects),
    "simulation": (encode_simulation, decode_simulation),
    "study": (_encode_study, _decode_study),
}
