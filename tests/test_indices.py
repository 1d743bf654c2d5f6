"""``cbj indices``: index plays against plain twins (each decision's gain against brute-force
chart walks on a tiny shoe, each index against plain least squares, the simulator against
the dealt shoes' predicted gain), the playing count's search against every vector, and the
command's own result against the study it reports."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

import solver
from solver.exact.count_search import (
    GROUPS,
    group_true_counts,
    playing_scores,
    search_playing,
)
from solver.exact.dealt_shoes import (
    ChartWalks,
    deal_cards,
    decision_gains,
    every_decision,
    state_row,
)
from solver.exact.game import solve_game
from solver.exact.indices import _played_gains, fit_roots, index_plays
from solver.model.cards import Shoe
from solver.model.cells import Action
from solver.model.counts import LABELS, system_tags
from solver.model.rules import Rules
from solver.present.advantage import indices_tables
from solver.present.report.protection import _indices_grid
from solver.results.charts import Chart
from solver.results.dealt_shoes import COLUMNS, GAINS, DealtShoes, Decision
from solver.results.game import GameResult
from solver.results.indices import IndexPlay, IndicesResult
from solver.results.simulation import Counter
from tests.advantage import CUT, NEAR_EVEN, STUDY, counter_mean, near_even_chart, near_even_shoes

from .test_eor import REMOVED, RULES, chart_ev_walked, tiny_chart

__all__ = ["tiny_chart"]  # the fixture, shared with test_eor


def flipped(chart: Chart, decision: tuple[tuple[bool, int], int]) -> Chart:
    """The chart with one decision played the other way."""
    other = Action.STAND if chart.actions[decision] is Action.HIT else Action.HIT
    return replace(chart, actions={**chart.actions, decision: other})


@pytest.mark.slow
def test_each_decisions_gain_is_the_brute_force_difference_of_two_charts(
    tiny_chart: tuple[GameResult[Fraction], Chart],
) -> None:
    chart = tiny_chart[1]
    values = Shoe.full(1).remove(REMOVED).value_counts()
    game = solve_game(RULES, REMOVED, exact=False)
    decisions = [d for d in chart.actions if d[0][1] < 21 and d[1] in (1, 5, 10)]
    gains = decision_gains(chart, game, decisions)
    before = chart_ev_walked(chart, values)
    for decision, gain in zip(decisions, gains, strict=True):
        after = chart_ev_walked(flipped(chart, decision), values)
        assert math.isclose(gain, float(after - before), abs_tol=1e-12), decision


# --- a near-even game's dealt shoes (tests/advantage.py) -------------------------------------


@pytest.fixture
def near_even() -> tuple[DealtShoes, Decision]:
    """The near-even game's dealt shoes and the chart's costliest flip (once per process)."""
    return near_even_shoes()


def test_walks_sharing_their_plans_give_the_rows_of_walks_made_afresh() -> None:
    """One :class:`ChartWalks` over many states (as a task of the study shares it) gives
    every state's row bit for bit as a fresh walk does, hand spaces met again included."""
    played = near_even_chart()
    every = every_decision(played)
    walks = ChartWalks(played)
    for sample in (*range(8), 0):
        removed = deal_cards(1, 5, sample, CUT)
        assert state_row(NEAR_EVEN, played, every, removed, walks) == state_row(
            NEAR_EVEN, played, every, removed
        )
    assert len(walks._plans) < 10 * 9  # some hand spaces met again


def test_indices_are_where_a_plain_least_squares_line_crosses_zero(
    near_even: tuple[DealtShoes, Decision],
) -> None:
    one_deck = near_even[0]
    tags = system_tags("hi-lo")
    found = index_plays(one_deck, "hi-lo", tags)
    by_decision = {p.decision: p for p in found.plays}
    for k, decision in enumerate(one_deck.decisions):
        xs, ys = [], []
        for row in one_deck.rows:
            seen = {r: row[1 + i] for i, r in enumerate(LABELS)}
            running = sum(tags[r] * n for r, n in seen.items())
            xs.append(running / (row[0] / 52))  # Hi-Lo is balanced: no drift to take off
            ys.append(row[len(row) - len(one_deck.decisions) + k])
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
            (x - mx) ** 2 for x in xs
        )
        play = by_decision[decision]
        assert play.index is not None
        assert math.isclose(play.index, -(my - slope * mx) / slope, rel_tol=1e-9)
        assert play.at_least == (slope > 0)
        deviate = [x >= play.index if slope > 0 else x <= play.index for x in xs]
        value = 100 * sum(y for y, d in zip(ys, deviate, strict=True) if d) / len(ys)
        assert math.isclose(play.value, value, rel_tol=1e-9, abs_tol=1e-15)
        assert play.perfect >= play.value - 1e-15


def test_fit_roots_handles_a_flat_line() -> None:
    roots, signs = fit_roots(np.array([0.0, 1.0, 2.0]), np.array([[1.0], [1.0], [1.0]]))
    assert np.isnan(roots[0]) and signs[0] == 0


@pytest.mark.slow
def test_the_simulated_gain_of_index_plays_lies_in_the_dealt_shoes_predicted_interval(
    near_even: tuple[DealtShoes, Decision],
) -> None:
    """Two twins apart: the dealt shoes' exact gains by true count predict what a counter
    gains by playing indices; the independent simulator deals rounds and plays them.  The
    count's own indices gain little at this size; an index that flips the chart's costliest
    call at the median true count costs a lot, and must cost what the shoes predict."""
    shoes, costliest = near_even
    tags = system_tags("hi-lo")
    found = index_plays(shoes, "hi-lo", tags)
    true_counts = np.array(shoes.true_counts(tags))
    costly = next(p for p in found.plays if p.decision == costliest)
    forced = replace(costly, index=float(np.median(true_counts)), at_least=True, value=1.0)
    plain = Counter("hi-lo", tags, (1, 1))
    base, base_se = counter_mean(plain, 1_000_000, 31)
    for plays, rules in (
        (found.plays, found.rules_played()),
        ((forced,), (forced.rule(),)),
    ):
        together = _played_gains(shoes, true_counts, plays)
        predicted = float(together.mean())
        predicted_se = float(together.std(ddof=1) / math.sqrt(len(together)))
        mean, se = counter_mean(replace(plain, indices=rules), 1_000_000, 32)
        assert abs(mean - base - predicted) < 3 * math.hypot(se, base_se, predicted_se)
    assert predicted < -5 * math.hypot(se, base_se)  # the forced index costs plainly


def test_the_playing_search_finds_the_best_of_every_level_one_vector(
    near_even: tuple[DealtShoes, Decision],
) -> None:
    """Every one of the 3**10 vectors scored by the plain formula (each vector's true
    counts correlated with each gain), and the winner's score again from the shoes' own
    true counts and numpy's correlation."""
    shoes, _ = near_even
    rows = np.array(shoes.rows)
    gains = rows[:, GAINS:]
    weights = np.maximum(gains, 0).mean(axis=0)
    vectors = np.array(list(product(range(-1, 2), repeat=len(GROUPS))), dtype=float)
    scores = playing_scores(vectors, group_true_counts(shoes), gains, weights)
    round_ev = rows[:, COLUMNS.index("chart_ev")] + 0.5 * rows[:, COLUMNS.index("bonus_ev")]
    found = search_playing(shoes, 1, round_ev)
    assert math.isclose(found.score, float(scores.max()), rel_tol=1e-9)
    true_counts = np.array(shoes.true_counts(found.tags))
    again = sum(w * abs(np.corrcoef(true_counts, gains[:, k])[0, 1]) for k, w in enumerate(weights))
    assert math.isclose(found.score, again / weights.sum(), rel_tol=1e-9)
    assert np.cov(true_counts, round_ev)[0, 1] > 0  # the sign a counter bets by


def test_a_decision_with_no_index_in_reach_prints_a_dash_without_a_side() -> None:
    def play(index: float | None, at_least: bool, value: float = 0.0) -> IndexPlay:
        return IndexPlay(((False, 16), 10), True, index, at_least, None, None, None, value, 0.1)

    plays = (play(2.5, True, 0.01), play(None, False), play(-25.0, False), play(-1.0, False))
    result = IndicesResult(Rules(), "hi-lo", system_tags("hi-lo"), 10, 1, 0.75, plays, 0.0, 0.0)
    _, ranked = indices_tables(result)
    assert [row[2] for row in ranked.rows] == ["≥ +2.5", "-", "≤ <\u221220", "≤ \u22121.0"]
    grid = _indices_grid(replace(result, plays=plays[:3]))
    assert [row[2] for row in grid.rows] == ["\u2265 +2.5"]  # only an index that gains


def test_only_indices_that_gain_are_printed_and_each_keeps_its_sign() -> None:
    """The chart prints an index only where it gains over the dealt shoes; one that rounds
    to zero keeps its sign (hard 10 v 9 at -0.049 is H\u2265\u22120.0, never +0.0)."""
    gains = IndexPlay(((False, 10), 9), False, -0.049, True, -0.3, 0.2, -0.1, 0.02, 0.03)
    never = IndexPlay(((True, 15), 1), False, -7.0, True, -9.0, -5.0, -6.0, 0.0, 0.0)
    loses = IndexPlay(((False, 12), 4), False, 3.0, True, 2.0, 4.0, 3.1, -0.001, 0.0)
    result = IndicesResult(
        Rules(), "hi-lo", system_tags("hi-lo"), 10, 1, 0.75, (gains, never, loses), 0.0, 0.0
    )
    chart, ranked = indices_tables(result)
    cells = [c for row in chart.rows for c in row[1:] if c]
    assert cells == ["H\u2265\u22120.0"]
    assert ranked.rows[0][2] == "\u2265 \u22120.0"
    grid = _indices_grid(result)
    assert [row[2] for row in grid.rows] == ["\u2265 \u22120.0"]


def test_a_two_deck_study_says_how_deep_its_shoes_were_dealt() -> None:
    """A 2-deck shoe keeps its last cards back before a cut card at 0.83: the printed
    notes and the report's caption name the depth the dealt states reach (the deepest of
    400 deals, measured), not the cut card alone."""
    deepest = max(len(deal_cards(2, 3, sample, 0.83)) for sample in range(400)) / 104
    assert deepest < 0.83
    result = IndicesResult(Rules(decks=2), "hi-lo", system_tags("hi-lo"), 400, 3, 0.83, (), 0, 0)
    notes = " ".join(indices_tables(result)[0].notes)
    assert f"dealt up to {deepest:g} of the shoe, short of the cut card at 0.83" in notes
    assert f"solved shoes dealt up to {deepest:g} of the shoe" in _indices_grid(result).caption
    six = replace(result, rules=Rules(decks=6))
    assert "dealt up to 0.83 of the shoe, seed" in " ".join(indices_tables(six)[0].notes)


# --- the command -----------------------------------------------------------------------------


def test_the_commands_plays_are_ranked_by_value_each_at_most_perfect_play_s() -> None:
    """``solver.indices`` on a small study: the plays come best first, none is worth more
    than deviating exactly when it pays, each names the printed chart's own play (from
    ``solver.chart``), and the efficiency is their values over the perfect values."""
    found = solver.indices(rules=NEAR_EVEN, **STUDY)  # type: ignore[arg-type]
    assert (found.system, found.samples, found.seed) == ("hi-lo", 24, 5)
    assert found.tags == system_tags("hi-lo") and found.rules == NEAR_EVEN
    values = [p.value for p in found.plays]
    assert values == sorted(values, reverse=True) and values[0] > 0
    printed = near_even_chart()
    for play in found.plays:
        assert play.value <= play.perfect + 1e-15, play
        assert play.chart_hits == (printed.actions[play.decision] is Action.HIT), play
    efficiency = sum(values) / sum(p.perfect for p in found.plays)
    assert found.efficiency is not None and math.isclose(found.efficiency, efficiency)
    assert 0 < efficiency <= 1
