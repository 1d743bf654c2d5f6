"""Codecs of the store: each kind of result as plain JSON values, and the one registry of them.

Games, best charts, effects of removal and simulations have compact codecs of their own
(:data:`CODECS`; the studies' two in :mod:`solver.store.study_codecs`, whose result types a
game's command never loads); any other kind of result is stored field by field
(:mod:`solver.store.fields`), so a new kind needs nothing here.  Plain data only, so that
decoding an entry can never execute code; exact numbers keep their full precision as
integers (JSON integers have no size limit), a float game's columns are the Base64 text of
their doubles, bit for bit.  Only what outputs need is encoded, compactly: exact values as
integer numerators over one denominator per hand size, columns that an identity recovers
left out, hand spaces rebuilt from their smallest hands (a player's solution against one
Bonus card: :mod:`solver.store.solutions`).
Every decoder raises on a malformed document (the store then recomputes the entry)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import fields, is_dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar, cast

from solver.model.cards import Card, parse_cards
from solver.model.cells import Action
from solver.model.outcomes import as_outcome
from solver.model.rules import Rules
from solver.results.bonus import BonusAnalysis, BonusLine
from solver.results.charts import CHART, Chart, ExceptionHand
from solver.results.game import GAME, GameResult, RoundLine, Start
from solver.results.kinds import Kind
from solver.store.fields import decode_fields, encode_fields
from solver.store.payload import Json, Section
from solver.store.plain import Codec, cards_text, number, pair, unnumber
from solver.store.solutions import decode_solution, encode_solution

if TYPE_CHECKING:  # the player's solver (and numpy) load only to encode or decode solutions
    from solver.exact.player import PlayerSolution

T = TypeVar("T")

# --- Games --------------------------------------------------------------------------------------


def encode_game(game: GameResult[Any]) -> dict[str, Json]:
    """A solved game as plain JSON values (see :func:`decode_game`)."""
    solutions = cast("Mapping[int, PlayerSolution]", game.solutions)  # the solver's own
    bonus = None
    if game.bonus is not None:
        bonus = {
            "removed": cards_text(game.bonus.removed),
            "lines": [
                [str(ln.outcome), pair(ln.pays), ln.combinations, pair(ln.probability)]
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
                number(s.probability),
                s.hits,
                {k: number(v) for k, v in s.outcomes.items()},
            ]
            for s in game.starts
        ],
        "solutions": [encode_solution(solutions[c]) for c in solutions],
        "bonus": bonus,
        "round_lines": [[pair(line.net), number(line.probability)] for line in game.round_lines],
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
        Start(p, c, unnumber(prob), bool(hits), {k: unnumber(v) for k, v in outcomes.items()})
        for p, c, prob, hits, outcomes in doc["starts"]
    )
    round_lines = tuple(RoundLine(Fraction(*net), unnumber(p)) for net, p in doc["round_lines"])
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
        "expected_value": pair(chart.expected_value),
        "optimal_expected_value": pair(chart.optimal_expected_value),
        "exceptions": [
            [e.bonus, list(e.hand), e.chart_action.value, pair(e.frequency), pair(e.gain)]
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


def _fields_codec(kind: Kind[Any]) -> Codec:
    """The field-by-field codec (:mod:`solver.store.fields`) of a kind of result."""
    return (
        lambda value: {"fields": encode_fields(value)},
        lambda doc: decode_fields(kind.shape, doc["fields"]),
    )


#: The compact codec of each kind of result that has one, by the kind's name: the one
#: registry of codecs, with :data:`STUDY_KINDS`'.  Any other kind is stored field by field
#: (:func:`codec_of`).
CODECS: dict[str, Codec] = {
    GAME.name: (encode_game, decode_game),
    CHART.name: (encode_chart, decode_chart),
}
#: The kinds whose codecs are :mod:`solver.store.study_codecs`' (``STUDY_CODECS``).
STUDY_KINDS = frozenset({"eor", "simulation"})


def codec_of(kind: Kind[Any]) -> Codec:
    """How results of ``kind`` are stored: its compact codec, else field by field."""
    if kind.name in STUDY_KINDS:
        # Loaded only when a study is stored or read: its result types (the protection
        # study's, the simulator's) were a tenth of a cold `cbj solve`'s instructions.
        from solver.store.study_codecs import STUDY_CODECS

        return STUDY_CODECS[kind.name]
    return CODECS.get(kind.name) or _fields_codec(kind)
