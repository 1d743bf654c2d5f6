"""The store's codecs and payload: exact round trips of games, charts and effects of removal,
the sectioned format, the hash, and no module of the store able to unpickle."""

from __future__ import annotations

import ast
import hashlib
import math
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import solver.store
from solver.exact.chart import best_chart
from solver.exact.game import solutions_of, solve_game
from solver.exact.protection import effects_of_removal
from solver.model.cards import Card
from solver.model.counts import LABELS
from solver.model.errors import ShoeError
from solver.model.rules import DealerNatural, Rules
from solver.results.charts import Chart
from solver.results.game import GameResult
from solver.results.protection import WAGERS, EffectsOfRemoval, WholeDeck
from solver.store import digest
from solver.store.codecs import (
    STUDY_KINDS,
    codec_of,
    decode_chart,
    decode_game,
    encode_chart,
    encode_game,
)
from solver.store.memory import MemoryCache
from solver.store.payload import head_of, pack, unpack
from solver.store.solutions import decode_floats, encode_floats, encode_solution
from solver.store.study_codecs import STUDY_CODECS, decode_effects, encode_effects

from .stores import ONE_DECK, TINY, TINY_REMOVED, same_game


@st.composite
def small_games(draw: st.DrawFn) -> tuple[Rules, tuple[Card, ...], bool]:
    """One-deck rules and a shoe of 8 to 14 cards, exact or float."""
    keep = draw(st.sets(st.sampled_from(range(52)), min_size=8, max_size=14))
    removed = tuple(c for i, c in enumerate(ONE_DECK) if i not in keep)
    rules = Rules(
        decks=1,
        dealer_stands_on=draw(st.integers(15, 19)),
        dealer_natural=draw(st.sampled_from(list(DealerNatural))),
        blackjack_pays=draw(st.sampled_from([Fraction(3, 2), Fraction(6, 5)])),
    )
    return rules, removed, draw(st.booleans())


def solve_or_reject(rules: Rules, removed: tuple[Card, ...], exact: bool) -> GameResult[Any]:
    """The solved game, or the example rejected when the shoe can run dry mid-round."""
    try:
        return solve_game(rules, removed, exact=exact)
    except ShoeError:
        reject()


def surviving_encoding(max_examples: int) -> Callable[..., None]:
    """A test that solves ``max_examples`` small games, each encoded and decoded exactly, and
    the chart of every exact one (about half the examples), searched on the game just
    solved rather than on a second solve of another shoe."""

    @settings(
        max_examples=max_examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    @given(small_games())
    def test(case: tuple[Rules, tuple[Card, ...], bool]) -> None:
        rules, removed, exact = case
        game = solve_or_reject(rules, removed, exact)
        same_game(decode_game(unpack(pack(encode_game(game)))), game)
        if exact:
            chart = best_chart(rules, game)
            assert decode_chart(unpack(pack(encode_chart(chart)))) == chart

    made: Callable[..., None] = test  # hypothesis's decorators type it Any
    return made


#: 12 games in the default run (1.8 s of CPU for 25); the soak run solves 150.
test_a_game_and_its_chart_survive_encoding_exactly = pytest.mark.slow(surviving_encoding(12))
test_a_game_and_its_chart_survive_encoding_at_length = pytest.mark.soak(surviving_encoding(150))


# --- Effects of removal ---------------------------------------------------------------------


def round_trip(effects: EffectsOfRemoval[Any]) -> EffectsOfRemoval[Any]:
    return decode_effects(unpack(pack(encode_effects(effects))))


def same_effects(a: EffectsOfRemoval[Any], b: EffectsOfRemoval[Any]) -> None:
    """Equal field for field, type for type, and in the same order (the output's)."""
    assert a == b
    for left, right in [
        (a.base, b.base),
        *zip(a.effects.values(), b.effects.values(), strict=True),
    ]:
        assert list(left) == list(right)
        assert [type(v) for v in left.values()] == [type(v) for v in right.values()]
    assert list(a.effects) == list(b.effects)
    assert a.to_json() == b.to_json()


@pytest.fixture(scope="module")
def tiny_chart(games: MemoryCache) -> Chart:
    return best_chart(TINY, solve_game(TINY, TINY_REMOVED, exact=True, cache=games))


@pytest.mark.parametrize("exact", [True, False], ids=["exact", "float"])
def test_effects_of_removal_survive_encoding_exactly(
    exact: bool, games: MemoryCache, tiny_chart: Chart
) -> None:
    effects = effects_of_removal(TINY, TINY_REMOVED, exact=exact, cache=games, chart=tiny_chart)
    same_effects(round_trip(effects), effects)


figures = st.one_of(
    st.builds(Fraction, st.integers(-(10**40), 10**40), st.integers(1, 10**40)),
    st.floats(allow_nan=False, allow_infinity=False),
)


@st.composite
def any_effects(draw: st.DrawFn) -> EffectsOfRemoval[Any]:
    """Effects of removal with arbitrary figures, a whole-deck change or none."""

    def by(names: tuple[str, ...] | list[str]) -> dict[str, Any]:
        return {name: draw(figures) for name in names}

    removed = tuple(draw(st.lists(st.sampled_from(ONE_DECK), max_size=5, unique=True)))
    exact = draw(st.booleans())
    whole = WholeDeck(by(WAGERS), by(WAGERS) if draw(st.booleans()) else None)
    effects = {w: by(list(LABELS)) for w in WAGERS}
    return EffectsOfRemoval(
        Rules(decks=draw(st.integers(1, 8))), removed, exact, by(WAGERS), effects, whole
    )


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(any_effects())
def test_any_effects_of_removal_survive_encoding(effects: EffectsOfRemoval[Any]) -> None:
    back = round_trip(effects)
    assert back.removed == effects.removed and back.whole_deck == effects.whole_deck
    same_effects(back, effects)


@pytest.mark.parametrize(
    "change",
    [
        lambda doc: doc["base"].append(["main", "1/2"]),
        lambda doc: doc["base"].append(["main", True]),
        lambda doc: doc.pop("whole_deck"),
    ],
    ids=["text", "bool", "missing"],
)
def test_effects_that_are_not_numbers_do_not_decode(change: Any) -> None:
    effects = EffectsOfRemoval(
        Rules(), (), False, dict.fromkeys(WAGERS, 0.5), {}, WholeDeck({}, None)
    )
    doc = encode_effects(effects)
    change(doc)
    with pytest.raises((ValueError, KeyError)):
        decode_effects(doc)


# --- The payload --------------------------------------------------------------------------------


@pytest.mark.parametrize("payload", [b"", b"\0\0\0\x09abc", b"\0\0\0\x03abc"])
def test_a_payload_with_bad_sections_is_not_a_document(payload: bytes) -> None:
    with pytest.raises(ValueError, match="not a cache document"):
        unpack(payload)


def test_a_head_unpacked_alone_reads_its_parts_when_first_used() -> None:
    doc = {"rules": [1, 2], "solutions": [{"bonus": 3}]}
    payload = pack(doc)
    reads: list[bytes] = []

    def whole() -> bytes:
        reads.append(payload)
        return payload

    unpacked = unpack(head_of(payload), whole)
    assert unpacked["rules"] == [1, 2] and reads == []
    assert unpacked["solutions"].load() == doc["solutions"] and len(reads) == 1
    cut = unpack(head_of(payload), lambda: head_of(payload))  # the parts went missing
    with pytest.raises(ValueError, match="sections do not match"):
        cut["solutions"].load()


def test_small_and_large_inputs_hash_as_hashlib_does() -> None:
    limit = digest.SMALL_HASH_BYTES
    for size in (0, 1, 100, limit, limit + 1, 3 * limit):
        data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
        assert digest.sha256(data) == hashlib.sha256(data).hexdigest()


def test_a_document_without_deferred_parts_packs_as_one_section() -> None:
    doc = {"rules": [1, 2], "text": "x"}
    assert unpack(pack(doc)) == doc


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=40))
def test_float_columns_keep_every_bit(values: list[float]) -> None:
    back = decode_floats(encode_floats(values))
    assert [v.hex() for v in back] == [v.hex() for v in values]  # -0.0 too


@pytest.mark.parametrize(
    "text",
    [None, [0.5], "not base64!", "AAAA", encode_floats([math.nan]), encode_floats([-math.inf])],
    ids=["null", "list", "not-base64", "short", "nan", "infinity"],
)
def test_a_float_column_that_is_not_finite_doubles_does_not_decode(text: object) -> None:
    with pytest.raises(ValueError, match="float column"):
        decode_floats(text)


STORE = Path(solver.store.__file__).parent


@pytest.mark.parametrize("path", sorted(STORE.glob("*.py")), ids=lambda p: p.name)
def test_the_store_cannot_unpickle(path: Path) -> None:
    tree = ast.parse(path.read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    } | {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not imported & {"pickle", "joblib", "marshal", "shelve", "dill", "cloudpickle"}


def test_the_store_has_its_parts() -> None:
    """The codecs, payload, disk and memory stores each in a module of their own (the
    unpickling check above reads every one of them)."""
    names = {p.stem for p in STORE.glob("*.py")}
    assert {"codecs", "fields", "payload", "disk", "memory", "fingerprint"} <= names


@pytest.mark.parametrize("decks", [1, 6])
def test_a_float_solution_encodes_from_its_arrays_as_from_its_values(decks: int) -> None:
    """The arrays' fast path writes the document that reading value by value writes."""
    from dataclasses import replace

    game = solve_game(Rules(decks=decks), exact=False)
    for solution in solutions_of(game).values():
        from_arrays = encode_solution(solution)  # before any read makes the values whole
        by_value = replace(
            solution,
            stand=tuple(solution.stand),
            hit=tuple(solution.hit),
            outcomes=tuple(solution.outcomes),
        )
        assert from_arrays == encode_solution(by_value)


def test_the_studies_codecs_are_found_by_their_kinds_and_loaded_only_for_them() -> None:
    from solver.results.protection import EFFECTS
    from solver.results.simulation import SIMULATION

    assert set(STUDY_CODECS) == STUDY_KINDS == {EFFECTS.name, SIMULATION.name}
    assert codec_of(EFFECTS) == STUDY_CODECS[EFFECTS.name]
    code = (
        "import sys\n"
        "import solver.store.disk\n"
        "print(sorted(m for m in sys.modules if m.startswith('solver.results.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(ast.literal_eval(done.stdout))
    assert not loaded & {"solver.results.protection", "solver.results.simulation"}
