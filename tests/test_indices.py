"""Index plays, optimal betting and the perfect-information bound against plain twins:
brute-force chart walks and solves on a tiny shoe, plain least squares, and Kelly's
formula on a table with a known answer."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from solver.exact.attack import attack
from solver.exact.betting import kelly_units, mixture, optimal_bets
from solver.exact.count_search import (
    GROUPS,
    group_true_counts,
    playing_scores,
    search_playing,
)
from solver.exact.dealt_shoes import (
    ChartWalks,
    chart_walk,
    chosen_decisions,
    deal_cards,
    deal_shoes,
    decision_gains,
    every_decision,
    state_row,
)
from solver.exact.game import solve_game
from solver.exact.indices import _played_gains, fit_roots, index_plays
from solver.model.cards import Shoe
from solver.model.cells import Action
from solver.model.counts import LABELS, system_tags
from solver.model.rules import Paytable, Rules
from solver.present.advantage import indices_tables
from solver.present.report.protection import _indices_grid
from solver.results.attack import AttackKind
from solver.results.betting import CountBin
from solver.results.charts import Chart
from solver.results.dealt_shoes import COLUMNS, GAINS, DealtShoes, Decision
from solver.results.game import GameResult
from solver.results.indices import IndexPlay, IndicesResult
from solver.results.simulation import Counter
from solver.sim import simulate
from solver.store.memory import MemoryCache
from solver.studies.simulation import played_strategy

from . import reference
from .conftest import physical_cards
from .test_protection import REMOVED, RULES, bonus_ev_dealt, chart_ev_walked, tiny_chart

__all__ = ["tiny_chart"]  # the fixture, shared with test_protection


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


@pytest.mark.slow
def test_the_bound_on_a_tiny_shoe_is_the_exhaustive_average_over_every_first_card(
    tiny_chart: tuple[GameResult[Fraction], Chart],
) -> None:
    """Every card of the 14-card shoe dealt first: each shoe left solved by brute force,
    the Bonus at the better end (3/4 or 2), the bet 8 on a positive round and 1 else."""
    chart = tiny_chart[1]
    cards = physical_cards(Shoe.full(1).remove(REMOVED))
    twin, rows = Fraction(0), []
    for card in cards:
        rest = [c for c in cards if c is not card]
        shoe = Shoe.full(1).remove((*REMOVED, card))
        main, bonus = reference.main_ev(shoe.value_counts(), RULES), bonus_ev_dealt(rest)
        best = main + (2 if bonus > 0 else RULES.bonus_ratio) * bonus
        twin += (8 if best > 0 else 1) * best / len(cards)
        rows.append(state_row(RULES, chart, (), (*REMOVED, card)))
    shoes = DealtShoes(RULES, len(rows), 1, 0.99, (), (), rows[0], (), tuple(rows))
    found = attack(shoes, (1, 8), Fraction(2), (0.99,))
    bound = next(
        r
        for r in found.attack(AttackKind.PLAY_ALL).rows
        if r.bound and not r.cap and not r.shuffle.is_csm
    )
    assert math.isclose(bound.dealt.mean, 100 * float(twin), abs_tol=1e-9)


@pytest.mark.parametrize(("decks", "reached"), [(1, 0.5), (2, 0.75), (6, 0.83)])
def test_depth_rows_stop_where_the_deal_stops(decks: int, reached: float) -> None:
    """A shoe keeps its last 26 cards back: at 1 and 2 decks the rows stop short of the cut
    card at 0.83 (no row copies a shallower one), at 6 decks they reach it."""
    rules = Rules(decks=decks)
    total = 52 * decks
    limit = round(reached * total)
    zero = [0.0] * len(LABELS)
    rows = tuple(
        (float(total - k), *zero, -0.01, 1.0, -0.01, -0.1, 1.0, 1.0) for k in range(1, limit + 1)
    )
    shoes = DealtShoes(rules, len(rows), 1, 0.83, (), (), rows[0], (), rows)
    found = attack(shoes, (1, 8), Fraction(2), (0.5, 0.67, 0.75, 0.83))
    depths = {r.depth for a in found.attacks for r in a.rows if r.depth is not None}
    assert max(depths) == reached == found.reached == found.verdict.depth
    assert all(d <= reached for d in depths)
    bound = [r for r in found.attack(AttackKind.PLAY_ALL).rows if r.bound and not r.cap and r.depth]
    assert len({r.samples for r in bound}) == len(bound)  # each row adds shoes


# --- the simulated counter against the dealt shoes' predictions ---------------------------

#: A one-deck game near even (the suited match cannot happen in one deck: 25:6:2 brings the
#: round to -0.5%), so that counting pays in some shoes and the Kelly ramp moves.
NEAR_EVEN = Rules(decks=1, paytable=Paytable.parse("25:6:2"))
#: The share of the shoe dealt before the cut card, in the study and the simulation.
CUT = 0.75


def test_walks_sharing_their_plans_give_the_rows_of_walks_made_afresh(games: MemoryCache) -> None:
    """One :class:`ChartWalks` over many states (as a task of the study shares it) gives
    every state's row bit for bit as a fresh walk does, hand spaces met again included."""
    from solver.api.functions import chart

    played = chart(rules=NEAR_EVEN, cache=games)
    every = every_decision(played)
    walks = ChartWalks(played)
    for sample in (*range(8), 0):
        removed = deal_cards(1, 5, sample, CUT)
        assert state_row(NEAR_EVEN, played, every, removed, walks) == state_row(
            NEAR_EVEN, played, every, removed
        )
    assert len(walks._plans) < 10 * 9  # some hand spaces met again


@pytest.fixture(scope="module")
def near_even(games: MemoryCache) -> tuple[DealtShoes, Decision]:
    """Dealt shoes of :data:`NEAR_EVEN` following the five decisions worth most and the
    costliest flip of the chart in the full shoe (which the index test plays at will)."""
    from solver.api.functions import chart

    played = chart(rules=NEAR_EVEN, cache=games)
    every = every_decision(played)
    _, gains = chart_walk(played, solve_game(NEAR_EVEN, exact=False), every)
    costliest = every[int(np.argmin(gains))]
    positions, _, _ = chosen_decisions(NEAR_EVEN, played, 5, CUT)
    chosen = (*(every[k] for k in positions), costliest)
    return deal_shoes(NEAR_EVEN, played, 80, 21, CUT, chosen), costliest


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


def test_the_ramp_is_kellys_bet_on_a_table_with_a_known_answer() -> None:
    """Kelly's bet ``B m / v`` maximises ``u m - u**2 v / (2 B)``, growth to second order:
    the whole number nearest it within the spread is the best whole bet (the growth is a
    parabola, so the nearest whole number to its peak is the best)."""
    table = [(-0.02, 1.2), (0.0, 1.3), (0.004, 1.25), (0.011, 1.3), (0.05, 1.4)]
    bankroll, spread = 1000.0, (1, 12)
    units = [kelly_units(m, v, bankroll, 1.0, spread) for m, v in table]
    assert units == [1, 1, 3, 8, 12]
    for (m, v), u in zip(table, units, strict=True):
        growth = {k: k * m - k * k * v / (2 * bankroll) for k in range(1, 13)}
        assert growth[u] == max(growth.values())
    assert kelly_units(0.011, 1.3, 1000.0, 0.5, spread) == 4
    bins = [
        CountBin(i, 0.2, m, v, u) for i, ((m, v), u) in enumerate(zip(table, units, strict=True))
    ]
    win, sd = mixture(bins)
    assert math.isclose(win, sum(0.2 * u * m for (m, _), u in zip(table, units, strict=True)))
    second = sum(0.2 * u * u * (v + m * m) for (m, v), u in zip(table, units, strict=True))
    assert math.isclose(sd, math.sqrt(second - win * win))


def counter_mean(
    counter: Counter, rounds: int, games: MemoryCache, seed: int
) -> tuple[float, float]:
    """The counter's win per round playing the chart, and its standard error."""
    result = simulate(
        NEAR_EVEN,
        played_strategy("chart", NEAR_EVEN, lambda: solve_game(NEAR_EVEN, exact=True, cache=games)),
        rounds,
        seed=seed,
        penetration=CUT,
        counter=counter,
    )
    assert result.counter is not None
    return result.counter.mean, result.counter.standard_error


@pytest.mark.slow
def test_the_simulated_gain_of_index_plays_lies_in_the_dealt_shoes_predicted_interval(
    near_even: tuple[DealtShoes, Decision], games: MemoryCache
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
    base, base_se = counter_mean(plain, 1_000_000, games, 31)
    for plays, rules in (
        (found.plays, found.rules_played()),
        ((forced,), (forced.rule(),)),
    ):
        together = _played_gains(shoes, true_counts, plays)
        predicted = float(together.mean())
        predicted_se = float(together.std(ddof=1) / math.sqrt(len(together)))
        mean, se = counter_mean(replace(plain, indices=rules), 1_000_000, games, 32)
        assert abs(mean - base - predicted) < 3 * math.hypot(se, base_se, predicted_se)
    assert predicted < -5 * math.hypot(se, base_se)  # the forced index costs plainly


@pytest.mark.slow
def test_the_simulated_counter_with_the_kelly_ramp_wins_the_predicted_amount(
    near_even: tuple[DealtShoes, Decision], games: MemoryCache
) -> None:
    shoes, _ = near_even
    tags = system_tags("hi-lo")
    ramp = optimal_bets(shoes, "hi-lo", tags, (1, 8), 1000.0)
    assert len(ramp.ramp) >= 2  # the ramp moves: the test is not a flat bet's
    counter = Counter("hi-lo", tags, ramp.spread, ramp.ramp)
    mean, se = counter_mean(counter, 1_000_000, games, 33)
    assert abs(mean - ramp.win) < 3 * math.hypot(se, ramp.win_se)


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
