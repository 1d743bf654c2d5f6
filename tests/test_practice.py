"""The practice table without a browser: the deal, the drills, the grades and the showdown,
each against an independent twin (``cbj advise``, ``cbj chart --costs``, a chart valued
whole, the rule text settled by hand, exact cell frequencies).

One exact solve of the default game (and its chart's costs) serves the module.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import solver
from solver.exact.chart_costs import cell_figures, chart_value
from solver.exact.game import solve_game
from solver.model.cards import Card, Shoe
from solver.model.cells import ROWS, Action, cell_of
from solver.model.chart_file import ChartGrid
from solver.model.errors import CbjError, PracticeError
from solver.model.hands import (
    best_total,
    cards_in_21,
    dealer_has_natural,
    dealer_stops,
    hand_of,
    hard_total,
    is_player_blackjack,
    natural_beats_21,
)
from solver.model.outcomes import bonus_outcome, bonus_pay, main_payoffs
from solver.model.rules import Rules
from solver.results.charts import ChartCosts
from solver.results.practice import Drill, Grade, PracticeSetup, PracticeState, Settlement
from solver.results.practice_state import PracticeTurn, read_state, state_json
from solver.studies.practice import deal, hit, seen_cards, start_state
from tests.conftest import GAMES
from tests.own_chart import own_chart

MEMORY = GAMES  # the session's store (tests/conftest.py): its games, charts and costs
SEED = 2024


@pytest.fixture(scope="module")
def costs() -> ChartCosts:
    """The printed chart's costs and cell frequencies under the default rules."""
    return solver.chart_costs(cache=MEMORY)


def _chart_play(turn: PracticeTurn, costs: ChartCosts, n: int) -> str:
    """The chart's play for the hand in play, the other way on every third decision."""
    hand = turn.state.hand
    assert hand is not None
    action = costs.chart.action(cell_of(hand_of(hand.values)), hand.bonus.points)
    play = "hit" if action is Action.HIT else "stand"
    return {"hit": "stand", "stand": "hit"}[play] if n % 3 == 2 else play


Step = tuple[PracticeState, str, PracticeTurn]


def session(costs: ChartCosts, decisions: int, **options: Any) -> Iterator[Step]:
    """A session's plays as (state before, play, turn), through the page's JSON each time."""
    turn = solver.practice_start(cache=MEMORY, **options)
    made = 0
    while made < decisions:
        before = turn.state
        play = "deal" if before.hand is None else _chart_play(turn, costs, made)
        made += play != "deal"
        turn = solver.practice_play(json.loads(json.dumps(turn.to_json()["state"])), play,
                                    cache=MEMORY)  # fmt: skip
        yield before, play, turn


@pytest.fixture(scope="module")
def played(costs: ChartCosts) -> list[Step]:
    """Forty decisions of the default game, every third against the chart."""
    return list(session(costs, 40, seed=SEED))


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(map(str, cards))


def test_a_session_replays_card_for_card_from_its_seed(
    costs: ChartCosts, played: list[Step]
) -> None:
    again = list(session(costs, 40, seed=SEED))
    assert [t.to_json() for _, _, t in again] == [t.to_json() for _, _, t in played]
    other = list(session(costs, 10, seed=SEED + 1))
    firsts = [(_cards(s.hand.cards), str(s.hand.bonus)) for s, _, _ in other if s.hand]
    mine = [(_cards(s.hand.cards), str(s.hand.bonus)) for s, _, _ in played if s.hand]
    assert firsts != mine[: len(firsts)]


def test_each_grade_is_cbj_advise_and_cbj_chart_costs_for_that_hand(
    costs: ChartCosts, played: list[Step]
) -> None:
    grades = [(before, turn.grade) for before, _, turn in played if turn.grade is not None]
    assert len(grades) == 40 and any(g.mistake for _, g in grades)
    for before, grade in grades:
        assert before.hand is not None
        seen = seen_cards(before)
        advice = solver.advise(bonus=before.hand.bonus, hand=before.hand.cards, seen=seen,
                               exact=True)  # fmt: skip
        assert (grade.stand, grade.hit) == (advice.stand, advice.hit)
        chosen = advice.hit if grade.play.value == "hit" else advice.stand
        assert grade.hand_cost == max(advice.stand, advice.hit) - chosen
        assert grade.perfect.value == advice.decision and grade.seen == len(seen)
        cell = cell_of(hand_of(before.hand.values))
        key = (cell, before.hand.bonus.points)
        assert grade.chart is costs.chart.action(*key)
        assert grade.per_100_rounds == costs.cells[key].per_100_rounds
        assert grade.frequency == costs.frequencies[key]
        assert grade.mistake == (grade.play.action is not grade.chart)


def test_the_score_adds_up(played: list[Step]) -> None:
    grades: list[Grade] = [t.grade for _, _, t in played if t.grade is not None]
    settled: list[Settlement] = [t.settled for _, _, t in played if t.settled is not None]
    score = played[-1][2].state.score
    assert score.decisions == len(grades)
    assert score.mistakes == sum(g.mistake for g in grades)
    assert score.unlike_perfect == sum(g.play is not g.perfect for g in grades)
    assert score.given_up == pytest.approx(float(sum(g.hand_cost for g in grades)))
    missed = {(g.cell, g.bonus.points): g for g in grades if g.mistake}
    assert score.cost_per_100_rounds == sum(g.per_100_rounds for g in missed.values())
    times = Counter((g.cell, g.bonus.points) for g in grades if g.mistake)
    review = score.review()
    assert {(m.flip.cell, m.flip.bonus): m.times for m in review} == dict(times)
    costs = [m.flip.cost for m in review]
    assert costs == sorted(costs, reverse=True)
    assert score.rounds == len(settled)
    assert score.net == sum((s.round_net for s in settled), Fraction(0))


def _settled_by_hand(rules: Rules, settled: Settlement) -> tuple[str, str, Fraction]:
    """The round settled from the rule text with the model's hand totals: the main outcome,
    the Bonus outcome and the round's net (the dealer's cards as dealt)."""
    player, bonus, dealer = settled.player, settled.bonus, settled.dealer
    b = bonus.points
    tier = bonus_outcome(player[0], bonus, rules.paytable)
    pays = main_payoffs(rules)
    own = hand_of(c.points for c in player)
    if len(player) == 1 and is_player_blackjack(player[0].points, b):  # clause 5
        main = "blackjack"
        assert dealer == ()
    elif hard_total(own) > 21:  # clause 6: the dealer does not draw
        main = "loss"
        assert dealer == ()
    else:  # clause 7: the dealer draws to its total, or busts; then clauses 8 and 9
        drawn = hand_of(c.points for c in dealer)
        for k in range(1, len(dealer)):
            assert not dealer_stops(hand_of(c.points for c in dealer[:k]), b, rules)
        assert dealer_stops(drawn, b, rules)
        mine = best_total(own, b)
        if hard_total(drawn) > 21:
            main = "win"
        elif dealer_has_natural(drawn, b, rules):
            made = cards_in_21(own, b)
            beaten = mine < 21 or (made is not None and natural_beats_21(made, rules))
            main = "loss" if beaten else "push"
        else:
            theirs = best_total(drawn, b)
            main = "win" if mine > theirs else "push" if mine == theirs else "loss"
    net = pays[main] + rules.bonus_ratio * bonus_pay(rules.paytable, tier)
    return main, str(tier), net


def test_each_round_is_settled_as_the_rule_text_says(played: list[Step]) -> None:
    rounds = [t.settled for _, _, t in played if t.settled is not None]
    assert len(rounds) >= 15
    for settled in rounds:
        main, tier, net = _settled_by_hand(Rules(), settled)
        assert (settled.main.value, settled.bonus_outcome, settled.round_net) == (main, tier, net)


def test_the_cards_on_the_table_and_those_left_make_one_shoe(played: list[Step]) -> None:
    for before, _, turn in played:
        state = turn.state
        table = () if state.hand is None else (state.hand.bonus, *state.hand.cards)
        Shoe.full(6).remove((*seen_cards(state), *table, *_left(state.shoe)))
        assert read_state(state_json(state)) == state
        assert before.shoes <= state.shoes


def _left(shoe: Shoe) -> list[Card]:
    return [Card.parse(f"{'A23456789TJQK'[c // 4]}{'shdc'[c % 4]}") for c, n in
            enumerate(shoe.counts) for _ in range(n)]  # fmt: skip


def _dealt_positions(costs: ChartCosts, drill: Drill, rounds: int, seed: int) -> list[Any]:
    """The cell and Bonus card of each round's first decision, dealt by ``drill``."""
    state = start_state(PracticeSetup(Rules(), seed, drill=drill))
    found = []
    for _ in range(rounds):
        state, _ = deal(state, costs)
        if state.hand is not None:
            found.append((cell_of(hand_of(state.hand.values)), state.hand.bonus.points))
            state = replace(state, hand=None)
    return found


def _decisions_by_the_chart(costs: ChartCosts, rounds: int, seed: int) -> list[Any]:
    """Every decision of ``rounds`` plain deals played by the chart: its cell and Bonus card."""
    state = start_state(PracticeSetup(Rules(), seed))
    found = []
    for _ in range(rounds):
        state, _ = deal(state, costs)
        while state.hand is not None:
            key = (cell_of(hand_of(state.hand.values)), state.hand.bonus.points)
            found.append(key)
            if costs.chart.action(*key) is not Action.HIT:
                state = replace(state, hand=None)
                break
            state, _ = hit(state)
    return found


@pytest.mark.parametrize("drill", [Drill.HARD, Drill.SOFT])
def test_the_hard_and_soft_drills_deal_only_their_totals(costs: ChartCosts, drill: Drill) -> None:
    dealt = _dealt_positions(costs, drill, 120, SEED)
    soft = drill is Drill.SOFT
    assert len(dealt) == 120
    assert all(cell[0] == soft and (12 if soft else 4) <= cell[1] <= 20 for cell, _ in dealt)
    assert len(set(dealt)) > 60  # spread over the drill's cells, not stuck on a few


def test_cell_figures_agree_with_chart_costs_and_a_chart_valued_whole(costs: ChartCosts) -> None:
    game = solve_game(Rules(), exact=True, cache=MEMORY)
    chart = costs.chart
    for key in [((False, 16), 10), ((True, 18), 9), ((False, 12), 4), ((False, 5), 1)]:
        flip, frequency = cell_figures(game, chart, *key)
        assert flip.cost == costs.cells[key].cost and frequency == costs.frequencies[key]
        other = Action.STAND if chart.action(*key) is Action.HIT else Action.HIT
        flipped = ChartGrid("flipped", {**chart.actions, key: other})
        assert flip.cost == chart_value(game, chart) - chart_value(game, flipped)


def test_cell_frequencies_sum_to_the_decisions_a_round_holds(costs: ChartCosts) -> None:
    """Twin: the exact decisions per round against those counted over simulated rounds."""
    decisions = _decisions_by_the_chart(costs, 300, SEED + 7)
    rounds = 300
    expected = float(sum(costs.frequencies.values()))
    assert abs(len(decisions) / rounds - expected) < 0.15, (len(decisions) / rounds, expected)


def test_a_chart_file_is_the_reference_its_session_grades_against(
    costs: ChartCosts, tmp_path: Path
) -> None:
    path, grid = own_chart(costs.chart, tmp_path)
    game = solve_game(Rules(), exact=True, cache=MEMORY)
    grades = [t.grade for _, _, t in session(costs, 30, seed=SEED, chart=str(path), drill="hard")
              if t.grade is not None]  # fmt: skip
    assert len(grades) == 30
    assert any(g.chart is not costs.chart.action(g.cell, g.bonus.points) for g in grades)
    for g in grades:
        key = (g.cell, g.bonus.points)
        assert g.chart is grid.action(*key) and g.chart_name == "your chart mine.csv"
        flip, frequency = cell_figures(game, grid, *key)
        assert (g.cell_cost, g.frequency) == (flip.cost, frequency)
        assert g.mistake == (g.play.action is not grid.action(*key))


def test_the_shoe_is_reshuffled_once_its_penetration_is_dealt(costs: ChartCosts) -> None:
    turn = solver.practice_start(seed=3, decks=1, penetration="50%", cache=MEMORY)
    cut = turn.state.setup.cut()
    assert cut == 26
    shoes: list[int] = []
    state = turn.state
    for _ in range(60):
        before = state.dealt
        play = "deal" if state.hand is None else "stand"
        state = solver.practice_play(state, play, cache=MEMORY).state
        if play == "deal" and state.shoes > (shoes[-1] if shoes else 1):
            assert before >= cut  # reshuffled only when the cut was reached
        shoes.append(state.shoes)
        assert state.dealt <= cut + 23
    assert shoes[-1] >= 3


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=0), "not a practice state of this version"),
        (lambda d: d.update(shoe="9" * 52), "shoe is not 52 digits"),
        (lambda d: d.update(seed=-1), "seed is out of range"),
        (lambda d: d.update(drill="lucky"), "drill is unknown"),
        (lambda d: d.update(penetration="3/2"), "penetration is out of range"),
        (lambda d: d["hand"].update(cards=["Kh", "Qh", "5h"]), "is over"),
        (lambda d: d["hand"].update(bonus="Xx"), "card that is not one"),
        (lambda d: d.update(shoe="6" * 52), "cards still in its shoe"),
        (lambda d: d["hand"].update(dealt=9), "dealt more cards than it holds"),
        (lambda d: d["score"].update(net="1" * 500), "net is not a fraction"),
        (lambda d: d["score"].update(decisions=-3), "decisions -3 is out of range"),
        (lambda d: d["score"]["missed"].append(["hard 99", 1, "H", 1, "1/2"]), "cells to review"),
        (lambda d: d.update(rules={"decks": "many"}), "rules are malformed"),
        (lambda d: d.update(chart={"name": "x", "csv": "nonsense"}), "chart x"),
    ],
)
def test_a_state_that_does_not_hold_together_is_refused(
    played: list[Step], change: Any, message: str
) -> None:
    state = next(t.state for _, _, t in played if t.state.hand is not None)
    document = json.loads(json.dumps(state_json(state)))
    change(document)
    with pytest.raises(CbjError, match=message):
        read_state(document)


def test_plays_out_of_turn_are_refused(played: list[Step]) -> None:
    between = next(t.state for _, _, t in played if t.state.hand is None)
    playing = next(t.state for _, _, t in played if t.state.hand is not None)
    with pytest.raises(PracticeError, match="no round is in play"):
        solver.practice_play(between, "hit", cache=MEMORY)
    with pytest.raises(PracticeError, match="a round is in play"):
        solver.practice_play(playing, "deal", cache=MEMORY)
    with pytest.raises(PracticeError, match="play 'double' is unknown"):
        solver.practice_play(playing, "double", cache=MEMORY)
    for bad, message in (
        ({"drill": "all"}, "drill 'all' is unknown"),
        ({"penetration": "0.01"}, "penetration 0.01 is out of range"),
        ({"penetration": 10**5000}, "penetration \\(a 5,001-digit number\\) is out of range"),
        ({"penetration": "most"}, "penetration 'most' is not a number, e.g. 75%"),
        ({"seed": -4}, "seed -4 is out of range: use 0 to 2\\*\\*128 - 1"),
    ):
        with pytest.raises(PracticeError, match=message):
            solver.practice_start(cache=MEMORY, **bad)


def test_a_turn_serialises_as_its_parts(played: list[Step]) -> None:
    document = played[5][2].to_json()
    assert set(document) == {"rules", "seed", "drill", "chart", "grade", "settled", "hand",
                             "score", "state"}  # fmt: skip
    assert document["seed"] == SEED and document["chart"] == "the printed chart"
    assert document["score"]["cost_per_100_rounds"]["exact"].count("/") <= 1
    assert ROWS  # the chart's rows name every cell a grade can name


def test_practice_without_a_cache_solves_its_game_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 50: every play through the API solved the game again without a cache (0.75 s a
    play at one deck); the session's game and its chart's costs are now kept in memory."""
    from solver.api import call
    from solver.store.memory import LatestCache

    kept = LatestCache(size=8)
    computed: list[str] = []
    fetch = kept.fetch

    def counted(kind: Any, key: Any, compute: Any) -> Any:
        def solved() -> Any:
            computed.append(kind.name)
            return compute()

        return fetch(kind, key, solved)

    monkeypatch.setattr(kept, "fetch", counted)
    monkeypatch.setattr(call, "kept", lambda: kept)
    turn = solver.practice_start(seed=3, decks=1)
    solved = sorted(computed)
    assert {"game", "chart-costs"} <= set(solved)
    for _ in range(6):
        turn = solver.practice_play(turn.state, "stand" if turn.state.hand else "deal")
    assert sorted(computed) == solved  # nothing solved again
    assert len(kept.kept) <= kept.size
