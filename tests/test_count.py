"""The complete search for the best count against plain enumeration of every tag vector."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from itertools import product
from pathlib import Path

import numpy as np
import pytest

from solver.exact.count_search import GROUPS, search_count, search_vectors
from solver.exact.protection import betting_correlation
from solver.model.counts import LABELS
from solver.model.errors import CountError

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
