"""``cbj count``: the complete search for the best count against plain enumeration of every tag
vector, betting correlations against a brute-force correlation over the cards, the EV
slope against least squares, and tags and systems read or refused in one line."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.api.functions import count
from solver.exact.count_search import GROUPS, search_count, search_vectors
from solver.exact.protection import best_count, betting_correlation, ev_per_true_count, judge_counts
from solver.model.counts import LABELS, SYSTEMS, parse_tags, system_tags
from solver.model.errors import CountError
from solver.results.protection import EffectsOfRemoval
from solver.store.memory import MemoryCache
from tests.test_eor import REMOVED, RULES, TINY_ARGS, tiny_exact

from .conftest import run_cli

__all__ = ["tiny_exact"]  # the fixture (tests/test_eor.py)

GOLDEN = Path(__file__).parent / "golden"


def brute_force(effects: dict[str, Fraction], level: int) -> float:
    """The highest betting correlation over every vector of ten group tags, all at once:
    each vector spread over the 13 ranks and correlated with the EORs directly."""
    vectors = np.array(list(product(range(-level, level + 1), repeat=len(GROUPS))), dtype=float)
    tags = np.repeat(vectors, [len(g) for g in GROUPS], axis=1)  # one column per rank
    tags -= tags.mean(axis=1, keepdims=True)
    e = np.array([float(effects[r]) for r in LABELS])
    e -= e.mean()
    norms = np.sqrt((tags**2).sum(axis=1) * (e @ e))
    with np.errstate(divide="ignore", invalid="ignore"):
        correlations = np.where(norms > 0, (tags @ e) / norms, -2.0)
    return float(correlations.max())


def random_effects(seed: int, tens_alike: bool) -> dict[str, Fraction]:
    """EORs drawn at random (the four tens alike, as the main game makes them, or not)."""
    draw = random.Random(seed)
    effects = {r: Fraction(draw.randint(-2000, 2000), 10**6) for r in LABELS}
    if tens_alike:
        effects.update(dict.fromkeys("JQK", effects["T"]))
    return effects


@pytest.mark.parametrize(("seed", "tens_alike"), [(1, True), (2, False)])
def test_level_one_search_finds_the_optimum_of_every_vector(seed: int, tens_alike: bool) -> None:
    effects = random_effects(seed, tens_alike)
    found = search_count(effects, 1, "main")
    assert math.isclose(found.correlation, brute_force(effects, 1), abs_tol=1e-12)
    assert math.isclose(betting_correlation(found.tags, effects), found.correlation)
    assert found.vectors == 3**10


def test_level_two_search_on_six_groups_matches_enumeration() -> None:
    """A reduced alphabet: six groups of unequal weight, every 5**6 vector enumerated."""
    rng = np.random.default_rng(3)
    weights = np.array([1, 2, 1, 3, 1, 2])
    raw = rng.normal(size=weights.sum())
    raw -= raw.mean()
    sums = np.add.reduceat(raw, np.r_[0, np.cumsum(weights)[:-1]])
    spread = float(raw @ raw)
    ranks = int(weights.sum())
    best = -2.0
    for vector in product(range(-2, 3), repeat=6):
        t = np.array(vector)
        variance = (weights * t * t).sum() - (weights * t).sum() ** 2 / ranks
        if variance > 1e-9:
            best = max(best, float(t @ sums) / math.sqrt(variance * spread))
    tags, correlation, _ = search_vectors(sums, weights, spread, 2, ranks)
    assert math.isclose(correlation, best, abs_tol=1e-12)
    t = tags.astype(float)
    variance = (weights * t * t).sum() - (weights * t).sum() ** 2 / ranks
    assert math.isclose(float(t @ sums) / math.sqrt(variance * spread), best, abs_tol=1e-12)


def test_ties_go_to_the_most_balanced_count() -> None:
    """An ace count: every shift of it correlates alike; the balanced one is kept."""
    effects = {r: Fraction(-12 if r == "A" else 1) for r in LABELS}
    found = search_count(effects, 1, "main")
    assert found.correlation == pytest.approx(1.0)
    assert found.tags == {r: -1 if r == "A" else 0 for r in LABELS}


def test_levels_outside_the_search_and_flat_eors_are_refused() -> None:
    with pytest.raises(CountError, match="level 6"):
        search_count(random_effects(1, True), 6, "main")
    with pytest.raises(CountError, match="same EOR"):
        search_count(dict.fromkeys(LABELS, Fraction(1)), 1, "main")


def test_the_default_games_best_level_two_count_reaches_the_independent_search() -> None:
    """Issue 39: an independent search found 0.9798 on the main wager (to 4 places); the
    golden file holds ``cbj count``'s output for the default game, checked fresh by
    test_golden."""
    systems = json.loads((GOLDEN / "count.json").read_text())["systems"]
    best = {s["name"]: s for s in systems}["best-level-2"]
    assert round(best["betting_correlation"]["main"]["float"], 4) >= 0.9798


# --- Counts of the 14-card shoe (tests/test_eor.py) --------------------------------------


def brute_correlation(tags: dict[str, int], effects: dict[str, Any]) -> float:
    """Pearson's correlation written out over the 52 cards, one entry per card."""
    xs = [float(tags[r]) for r in LABELS for _ in range(4)]
    ys = [float(effects[r]) for r in LABELS for _ in range(4)]
    mx, my = sum(xs) / 52, sum(ys) / 52
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    vx = sum((x - mx) ** 2 for x in xs)
    vy = sum((y - my) ** 2 for y in ys)
    return cov / math.sqrt(vx * vy)


def test_betting_correlation_equals_a_brute_force_correlation(
    tiny_exact: EffectsOfRemoval[Any],
) -> None:
    counts = judge_counts(tiny_exact)
    assert [s.name for s in counts.systems][:4] == list(SYSTEMS)
    for system in counts.systems:
        for wager in ("main", "round"):
            expected = brute_correlation(system.tags, tiny_exact.effects[wager])
            assert math.isclose(system.betting_correlation[wager], expected, abs_tol=1e-12)


def test_a_count_that_is_its_own_eor_correlates_perfectly() -> None:
    effects = {r: Fraction(i * i - 40) for i, r in enumerate(LABELS)}
    tags = {r: int(v) for r, v in effects.items()}
    assert math.isclose(betting_correlation(tags, effects), 1.0)
    # The slope is the regression of EOR on tag: here one EOR unit per tag, times decks.
    assert ev_per_true_count(tags, effects, 104) == 2


def test_ev_slope_is_the_least_squares_fit_over_the_cards() -> None:
    effects = {r: Fraction(3 * i % 7, 1000) for i, r in enumerate(LABELS)}
    tags = {r: (i % 3) - 1 for i, r in enumerate(LABELS)}
    xs = [Fraction(tags[r]) for r in LABELS for _ in range(4)]
    ys = [effects[r] for r in LABELS for _ in range(4)]
    mx, my = sum(xs) / 52, sum(ys) / 52
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )
    assert ev_per_true_count(tags, effects, 312) == 6 * slope


@pytest.mark.parametrize("level", [1, 2, 3])
def test_best_count_stays_within_its_level_and_beats_published_ones(
    tiny_exact: EffectsOfRemoval[Any], level: int
) -> None:
    effects = tiny_exact.effects["round"]
    tags = best_count(effects, level)
    assert max(abs(t) for t in tags.values()) <= level
    best = betting_correlation(tags, effects)
    for published in SYSTEMS.values():
        if max(abs(t) for t in published.values()) <= level:
            assert best >= betting_correlation(published, effects) - 1e-12


def test_tags_are_parsed_with_t_covering_the_faces() -> None:
    tags = parse_tags("A=-1, 2=1,3=1,4=+1,5=1,6=1,7=0,8=0,9=0,10=-1")
    assert tags == SYSTEMS["hi-lo"]


@pytest.mark.parametrize(
    "text",
    [
        "A=-1",
        "A=-1,A=1,2=1,3=1,4=1,5=1,6=1,7=0,8=0,9=0,T=-1",
        "X=1,2=1,3=1,4=1,5=1,6=1,7=0,8=0,9=0,T=-1",
        "A=one,2=1,3=1,4=1,5=1,6=1,7=0,8=0,9=0,T=-1",
        "A=0,2=0,3=0,4=0,5=0,6=0,7=0,8=0,9=0,T=0",
        "A=1,2=1,3=1,4=1,5=1,6=1,7=0,8=0,9=0,T=-1,J=-1",
        "",
    ],
)
def test_bad_tag_vectors_are_refused(text: str) -> None:
    with pytest.raises(CountError):
        parse_tags(text)


def test_count_command_prints_the_api_result(
    games: MemoryCache, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["count", *TINY_ARGS, "--system", "KO", "--format", "json"], capsys)
    assert status == 0, err
    result = count(system="KO", removed=REMOVED, rules=RULES, cache=games)
    assert result.to_json() == json.loads(out)
    (system,) = json.loads(out)["systems"]
    assert system["tags"] == SYSTEMS["ko"]
    assert system.keys() == {"name", "tags", "betting_correlation", "ev_per_true_count"}


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["count", "--system", "wong-halves"], "wong-halves"),
        (["count", "--tags", "A=-1,2=1"], "3, 4"),
        (["count", "--tags", "A=x"], "A=x"),
        (
            ["count", "--tags", "A=-1,2=1,3=1,4=1,5=1,6=1,7=0,8=0,9=0,T=-1", "--system", "ko"],
            "not both",
        ),
    ],
)
def test_bad_counts_are_one_line_on_stderr_with_status_2(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(argv, capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and named in err and "Traceback" not in err


@given(st.text(max_size=60))
def test_any_tag_text_is_parsed_or_refused_with_a_count_error(text: str) -> None:
    try:
        tags = parse_tags(text)
    except CountError:
        return
    assert list(tags) == list(LABELS) and len(set(tags.values())) > 1


@given(st.text(max_size=30))
def test_any_system_name_is_known_or_refused_with_a_count_error(text: str) -> None:
    try:
        tags = system_tags(text)
    except CountError:
        return
    assert tags in SYSTEMS.values()
