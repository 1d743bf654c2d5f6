"""Codecs of the store: each kind of result as plain JSON values, and the one registry of them.

Games, best charts, effects of removal and simulations have compact codecs of their own
(:data:`CODECS`); any other kind of result is stored field by field
(:mod:`solver.store.fields`), so a new kind needs nothing here.  Plain data only, so that
decoding an entry can never execute code; exact numbers keep their full precision as
integers (JSON integers have no size limit), a float game's columns are the Base64 text of
their doubles, bit for bit.  Only what outputs need is encoded, compactly: exact values as
integer numerators over one denominator per hand size, columns that an identity recovers
left out, hand spaces rebuilt from their smallest hands (a player's solution against one
Bonus card: :mod:`solver.store.solutions`).
Every decoder raises on a malformed document (the store then recomputes the entry)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import fields, is_dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar, cast

from solver.model.cards import Card, parse_cards
from solver.model.cells import Action
from solver.model.checks import is_whole
from solver.model.outcomes import as_outcome
from solver.model.rules import Rules
from solver.results.bonus import BonusAnalysis, BonusLine
from solver.results.charts import CHART, Chart, ExceptionHand
from solver.results.game import GAME, GameResult, RoundLine, Start
from solver.results.kinds import Kind
from solver.results.protection import EFFECTS, EffectsOfRemoval, WholeDeck
from solver.results.simulation import SIMULATION, ExactFigure, SimulationResult, Wager
from solver.store.fields import decode_fields, encode_fields
from solver.store.payload import Json, Section
from solver.store.solutions import decode_solution, encode_solution

if TYPE_CHECKING:  # the player's solver (and numpy) load only to encode or decode solutions
    from solver.exact.player import Number, PlayerSolution

T = TypeVar("T")

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


# --- Games --------------------------------------------------------------------------------------


def encode_game(game: GameResult[Any]) -> dict[str, Json]:
    """A solved game as plain JSON values (see :func:`decode_game`)."""
    solutions = cast("Mapping[int, PlayerSolution]", game.solutions)  # the solver's own
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
        "solutions": [encode_solution(solutions[c]) for c in solutions],
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


def with_removed(value: T, removed: tuple[Card, ...]) -> T:
    """A stored result with the caller's removed cards, in the caller's order (a key sorts
    them; the result carries them as given): the result's own, and those of each of its
    fields that carries some (a game's Bonus analysis)."""
    if not (is_dataclass(value) and not isinstance(value, type)):
        return value
    if not any(f.name == "removed" for f in fields(value)):
        return value
    inner = {
        f.name: replace(part, removed=removed)
        for f in fields(value)
        if f.name != "removed"
        and is_dataclass(part := getattr(value, f.name))
        and not isinstance(part, type)
        and any(g.name == "removed" for g in fields(part))
    }
    return replace(value, removed=removed, **inner)


#: An encoder of a result into plain JSON values, and its decoder.
Codec = tuple[Callable[[Any], dict[str, Json]], Callable[[dict[str, Json]], Any]]


def _fields_codec(kind: Kind[Any]) -> Codec:
    """The field-by-field codec (:mod:`solver.store.fields`) of a kind of result."""
    return (
        lambda value: {"fields": encode_fields(value)},
        lambda doc: decode_fields(kind.shape, doc["fields"]),
    )


#: The compact codec of each kind of result that has one, by the kind's name: the one
#: registry of codecs.  Any other kind is stored field by field (:func:`codec_of`).
CODECS: dict[str, Codec] = {
    GAME.name: (encode_game, decode_game),
    CHART.name: (encode_chart, decode_chart),
    EFFECTS.name: (encode_effects, decode_effects),
    SIMULATION.name: (encode_simulation, decode_simulation),
}


def codec_of(kind: Kind[Any]) -> Codec:
    """How results of ``kind`` are stored: its compact codec, else field by field."""
    return CODECS.get(kind.name) or _fields_codec(kind)
