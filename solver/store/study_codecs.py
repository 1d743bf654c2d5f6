"""The compact codecs of the studies' kinds of result: effects of removal and simulations.

Kept apart from :mod:`solver.store.codecs` (whose registry finds them by the kinds' names,
:data:`~solver.store.codecs.STUDY_KINDS`), so that a game's command loads none of the
studies' result types.  Plain data only, as every codec of the store.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from solver.model.cards import parse_cards
from solver.model.checks import is_whole
from solver.model.rules import Rules
from solver.results.protection import EFFECTS, EffectsOfRemoval, WholeDeck
from solver.results.simulation import SIMULATION, ExactFigure, SimulationResult, Wager
from solver.store.payload import Json
from solver.store.plain import Codec, cards_text, number, pair, unnumber


def _figure(value: Fraction | int | float) -> Json:
    """An EOR figure: a float as itself, an exact one (a fraction or an integer) as [n, d]."""
    return float(value) if isinstance(value, float) else pair(Fraction(value))


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
                number(figure.mean),
                None
                if figure.probabilities is None
                else [[k, pair(p)] for k, p in figure.probabilities.items()],
            ]
            for wager, figure in result.exact.items()
        ],
    }


def decode_simulation(doc: dict[str, Json]) -> SimulationResult:
    """The inverse of :func:`encode_simulation`."""
    exact = {
        Wager(wager): ExactFigure(
            unnumber(mean),
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


#: The studies' codecs, by the kinds' names (:data:`~solver.store.codecs.STUDY_KINDS`).
STUDY_CODECS: dict[str, Codec] = {
    EFFECTS.name: (encode_effects, decode_effects),
    SIMULATION.name: (encode_simulation, decode_simulation),
}
