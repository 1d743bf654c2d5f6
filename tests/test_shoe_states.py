"""Shoe states: each sampled state is `cbj solve --removed`, and every summary is recomputed.

The study is small (one deck, two depths, a few shoes) and built once; its summaries are
checked against plain recomputations from the states' own figures (``statistics``,
``numpy.polyfit``), its states against full solves, and its runs on two processes and on
a Dask cluster against the run on one.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Iterable, Iterator
from itertools import pairwise
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.api.functions import solve
from solver.exact import shoe_states
from solver.exact.game import solve_game
from solver.exact.protection import RoundEffects, round_effects
from solver.exact.shoe_states import (
    PERCENTILES,
    StateFigures,
    StudyPlan,
    cards_dealt,
    chunks,
    deal_state,
    parse_depths,
    solve_state,
    study_shoe_states,
)
from solver.model.cards import Card, Rank, Suit
from solver.model.counts import SYSTEMS, rank_label
from solver.model.errors import BackendError, ShoeError
from solver.model.parallel import parallel_map
from solver.model.rules import Rules
from solver.present.tables import dumps
from solver.results.game import GameResult
from solver.results.protection import ShoeStates
from solver.store.disk import default_cache

from .conftest import run_cli

RULES = Rules(decks=1)
DEPTHS = (0.25, 0.5)
SAMPLES = 4
SEED = 11
HI_LO = SYSTEMS["hi-lo"]
#: The command with the module's rules, depths and seed (the number of shoes given apart).
ARGV = ["shoe-states", "--decks", "1", "--depths", "0.25,0.5", "--seed", "11"]


@pytest.fixture(scope="module")
def effects() -> RoundEffects:
    """The round EORs, solved through the session's disk cache, which the CLI reads too."""
    return round_effects(RULES, cache=default_cache())


#: The games of the states solved in this process, by rules and cards (see :func:`kept_solve`).
STATE_GAMES: dict[tuple[Rules, tuple[Card, ...]], GameResult[Any]] = {}


def kept_solve(rules: Rules, removed: Iterable[Card], exact: bool = False) -> GameResult[Any]:
    """``solve_game`` for :func:`solve_state`, each state's game solved once and kept.

    The module's study and the tests that take its states one at a time deal the same
    cards; a float solve depends on the rules and the cards alone, so they share one solve
    per state. The runs on two processes and on Dask solve their states themselves.
    """
    key = (rules, tuple(removed))
    if key not in STATE_GAMES:
        STATE_GAMES[key] = solve_game(rules, key[1], exact=exact)
    return STATE_GAMES[key]


@pytest.fixture
def kept_states(monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`solve_state` solves through :func:`kept_solve` during the test."""
    monkeypatch.setattr(shoe_states, "solve_game", kept_solve)


@pytest.fixture(scope="module")
def study(effects: RoundEffects) -> ShoeStates:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shoe_states, "solve_game", kept_solve)
        return study_shoe_states(effects, DEPTHS, SAMPLES, SEED, "hi-lo", HI_LO)


@pytest.fixture(scope="module")
def plan(effects: RoundEffects) -> StudyPlan:
    return StudyPlan(RULES, SEED, HI_LO, effects.round, effects.effects)


@pytest.fixture(scope="module")
def figures(plan: StudyPlan, study: ShoeStates) -> list[list[StateFigures]]:
    """Each depth's state figures, taken again one state at a time (each state's game is
    the one the study solved, kept by :func:`kept_solve`)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shoe_states, "solve_game", kept_solve)
        return [
            [solve_state(plan, i, s, cards_dealt(RULES, d)) for s in range(SAMPLES)]
            for i, d in enumerate(DEPTHS)
        ]


def hi_lo_by_hand(cards: list[Card]) -> int:
    """Hi-Lo's running count: 2-6 count +1, aces and ten-value cards -1."""
    return sum((2 <= c.points <= 6) - (c.points in (1, 10)) for c in cards)


@pytest.mark.parametrize(("depth_index", "sample"), [(0, 0), (1, 3)])
@pytest.mark.usefixtures("kept_states")
def test_a_sampled_state_is_cbj_solve_with_its_cards_removed(
    plan: StudyPlan, effects: RoundEffects, depth_index: int, sample: int
) -> None:
    dealt = cards_dealt(RULES, DEPTHS[depth_index])
    removed = deal_state(1, SEED, depth_index, sample, dealt)
    assert len(set(removed)) == dealt  # one deck: every card at most once
    count, main, round_ev, linear = solve_state(plan, depth_index, sample, dealt)
    game = solve(removed=" ".join(map(str, removed)), decks=1)
    assert main == game.expected_value and round_ev == game.round_expected_value
    assert count == hi_lo_by_hand(removed) / ((52 - dealt) / 52)
    estimate = effects.round + sum(effects.effects[rank_label(c.rank)] for c in removed)
    assert linear == pytest.approx(estimate, abs=1e-15)


@pytest.fixture(scope="module")
def full_round() -> float:
    """The full one-deck shoe's round EV, solved once through the library (no cache)."""
    return solve(decks=1).round_expected_value


@pytest.mark.parametrize("rank", [Rank.ACE, Rank.FIVE, Rank.KING])
def test_round_eor_is_the_round_ev_change_of_two_solves(
    effects: RoundEffects, full_round: float, rank: Rank
) -> None:
    # In a full shoe the four suits are alike, so the suit-averaged EOR is any one suit's.
    before = full_round
    after = solve(removed=[Card(rank, Suit.HEARTS)], decks=1).round_expected_value
    assert effects.effects[rank_label(rank)] == pytest.approx(after - before, abs=1e-12)
    assert effects.round == pytest.approx(before, abs=1e-12)


def test_every_summary_equals_a_plain_recomputation(
    study: ShoeStates, figures: list[list[StateFigures]]
) -> None:
    for summary, states in zip(study.depths, figures, strict=True):
        counts, _, rounds, linear = (list(column) for column in zip(*states, strict=True))
        cuts = statistics.quantiles(rounds, n=100, method="inclusive")
        assert summary.round.mean == pytest.approx(statistics.fmean(rounds), abs=1e-15)
        assert summary.round.standard_deviation == pytest.approx(statistics.stdev(rounds))
        assert summary.round.percentiles == pytest.approx({p: cuts[p - 1] for p in PERCENTILES})
        assert summary.round.positive_share == sum(r > 0 for r in rounds) / SAMPLES
        slope, intercept = np.polyfit(counts, rounds, 1)
        assert summary.fit.slope == pytest.approx(slope)
        assert summary.fit.intercept == pytest.approx(intercept)
        assert summary.fit.r_squared == pytest.approx(np.corrcoef(counts, rounds)[0, 1] ** 2)
        errors = [r - e for r, e in zip(rounds, linear, strict=True)]
        spread = sum((r - statistics.fmean(rounds)) ** 2 for r in rounds)
        check = summary.eor_prediction
        assert check.mean_absolute_error == pytest.approx(statistics.fmean(map(abs, errors)))
        assert check.max_error == max(map(abs, errors))
        assert check.r_squared == pytest.approx(1 - sum(e * e for e in errors) / spread)


def test_one_card_dealt_is_predicted_exactly_by_its_eor(effects: RoundEffects) -> None:
    one_card = 1 / 52
    result = study_shoe_states(effects, (one_card,), 3, SEED, "hi-lo", HI_LO)
    assert result.depths[0].cards_dealt == 1
    assert result.depths[0].eor_prediction.max_error < 1e-12


#: Shoes per depth of the studies run on other workers (two processes, a Dask cluster):
#: the fewest a study takes.
FEW_SAMPLES = 2


@pytest.fixture(scope="module")
def few_shoes(effects: RoundEffects, study: ShoeStates) -> ShoeStates:
    """The module's study cut to its first :data:`FEW_SAMPLES` shoes per depth, run here
    as the twin of the runs elsewhere, which solve every shoe themselves.

    Each shoe is dealt from the seed, the depth and its own number, so these are the
    first shoes of ``study``, whose games :func:`kept_solve` already holds.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shoe_states, "solve_game", kept_solve)
        return study_shoe_states(effects, DEPTHS, FEW_SAMPLES, SEED, "hi-lo", HI_LO)


def test_the_result_does_not_depend_on_the_number_of_jobs(
    effects: RoundEffects, few_shoes: ShoeStates
) -> None:
    on_two = study_shoe_states(effects, DEPTHS, FEW_SAMPLES, SEED, "hi-lo", HI_LO, jobs=2)
    assert on_two == few_shoes
    # As many shoes from another seed: other shoes, so another spread.
    other_seed = study_shoe_states(effects, DEPTHS[:1], FEW_SAMPLES, SEED + 1, "hi-lo", HI_LO)
    assert other_seed.depths[0].round != few_shoes.depths[0].round


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    """A small Dask cluster in this process: one worker of two threads (and a dashboard on
    any free port, so that two test workers never compete for the default one)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def test_a_dask_cluster_prints_the_local_json_byte_for_byte(
    dask_scheduler: str, few_shoes: ShoeStates, capsys: pytest.CaptureFixture[str]
) -> None:
    # The cluster solves every shoe itself, in its worker's two threads.
    samples = ["--samples", str(FEW_SAMPLES)]
    argv = [*ARGV, *samples, "--backend", "dask", "--scheduler", dask_scheduler]
    status, out, err = run_cli([*argv, "--format", "json"], capsys)
    assert status == 0, err
    assert out == dumps(few_shoes.to_json()) + "\n"
    assert json.loads(out)["seed"] == SEED and json.loads(out)["samples"] == FEW_SAMPLES


def test_parallel_map_on_dask_keeps_order_and_reports_progress(
    dask_scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", dask_scheduler)  # read when none is given
    seen: list[tuple[int, int]] = []
    got = parallel_map(abs, [-3, 1, -2], 1, "dask", lambda *p: seen.append(p))
    assert list(got) == [3, 1, 2] and seen == [(1, 3), (2, 3), (3, 3)]


def test_missing_dask_names_the_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    with pytest.raises(BackendError, match=r"pip install 'dask\[distributed\]'"):
        list(parallel_map(abs, [1], backend="dask", scheduler="tcp://127.0.0.1:8786"))


@pytest.mark.parametrize(("samples", "size"), [(2, 1), (250, 2), (10**6, 250)])
def test_chunks_cover_every_sample_once(samples: int, size: int) -> None:
    tasks = chunks([13, 26], samples)
    for depth in (0, 1):
        runs = [(first, stop) for i, _, first, stop in tasks if i == depth]
        assert runs[0][0] == 0 and runs[-1][1] == samples
        assert all(a[1] == b[0] for a, b in pairwise(runs))
        assert max(stop - first for first, stop in runs) == size


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--depths", "0"], "depth '0'"),
        (["--depths", "1"], "depth '1'"),
        (["--depths", "half"], "depth 'half'"),
        (["--depths", "0.5,0.5"], "twice"),
        (["--depths", "0.25,0.6"], "leave at least 26"),
        (["--samples", "1"], "samples 1"),
        (["--seed", "-4"], "seed -4"),
        (["--system", "zen"], "zen"),
        (["--tags", "A=1"], "leave out"),
        (["--jobs", "0"], "jobs 0"),
        (["--backend", "dask"], "DASK_SCHEDULER_ADDRESS"),
        (["--backend", "dask", "--scheduler", "3:0"], "not HOST:PORT"),
        (["--backend", "dask", "--scheduler", "ucx://10.0.0.5:8786"], "not HOST:PORT"),
    ],
)
def test_bad_study_options_are_one_line_with_status_2(
    extra: list[str],
    named: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)
    argv = ["shoe-states", "--decks", "1", "--depths", "0.5", "--samples", "3", *extra]
    status, out, err = run_cli(argv, capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and named in err and "Traceback" not in err


@given(st.text(max_size=30))
def test_any_depth_text_is_parsed_or_refused_with_a_shoe_error(text: str) -> None:
    try:
        depths = parse_depths(text)
    except ShoeError:
        return
    assert all(0 < d < 1 for d in depths) and len(set(depths)) == len(depths)
