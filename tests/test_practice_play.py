"""``solver.practice_play`` through its own function: a hit takes one card out of the shoe
and a stand plays the round out with the dealer's cards taken from it too (no card made or
lost), the printed chart's own play (from ``solver.chart``) is never a mistake and the other
play always is, each grade gives up exactly what the worse of its two values loses, and a
state plays the same whether given whole or as its JSON."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

import pytest

import solver
from solver.model.cards import RANKS, SUITS, Card
from solver.model.cells import Action, cell_of
from solver.model.errors import CbjError
from solver.model.hands import hand_of
from solver.results.charts import Chart
from solver.results.practice import PracticeState
from solver.results.practice_state import PracticeTurn
from tests.conftest import GAMES

SEED = 4242


@pytest.fixture(scope="module")
def printed() -> Chart:
    return solver.chart(cache=GAMES)


def shoe_cards(state: PracticeState) -> Counter[str]:
    """The cards left in the shoe, by name (its counts are rank-major, suits within)."""
    return Counter(
        {str(Card(RANKS[k // 4], SUITS[k % 4])): n for k, n in enumerate(state.shoe.counts) if n}
    )


def turns(printed: Chart, decisions: int) -> Iterator[tuple[PracticeState, str, PracticeTurn]]:
    """A session: each (state before, play, turn), the chart's play on even decisions and
    the other play on odd ones."""
    turn = solver.practice_start(seed=SEED, cache=GAMES)
    made = 0
    while made < decisions:
        before, hand = turn.state, turn.state.hand
        if hand is None:
            play = "deal"
        else:
            action = printed.action(cell_of(hand_of(hand.values)), hand.bonus.points)
            play = "hit" if (action is Action.HIT) == (made % 2 == 0) else "stand"
            made += 1
        turn = solver.practice_play(before, play, cache=GAMES)
        yield before, play, turn


def test_cards_move_from_the_shoe_to_the_table_and_none_is_made_or_lost(
    printed: Chart,
) -> None:
    for before, play, turn in turns(printed, 24):
        if play == "deal" and turn.state.shoes > before.shoes:
            continue  # a reshuffle: a fresh shoe
        after = turn.state
        taken = shoe_cards(before) - shoe_cards(after)
        assert not shoe_cards(after) - shoe_cards(before)  # nothing comes back
        if play == "hit" and turn.settled is None:
            assert before.hand is not None and after.hand is not None
            assert after.hand.cards[:-1] == before.hand.cards
            assert taken == Counter([str(after.hand.cards[-1])])
        elif turn.settled is not None and play != "deal":
            assert after.hand is None and after.rounds == before.rounds
            settled = turn.settled
            drawn = settled.player[len(before.hand.cards) :] if before.hand else ()
            assert taken == Counter(str(c) for c in (*drawn, *settled.dealer))
            ratio = before.rules.bonus_ratio  # the Bonus wager's stake
            assert settled.round_net == settled.main_net + ratio * settled.bonus_net
        else:
            assert play == "deal" and after.rounds == before.rounds + 1


def test_the_chart_s_play_is_never_a_mistake_and_each_grade_gives_up_its_difference(
    printed: Chart,
) -> None:
    mistakes = 0
    for before, play, turn in turns(printed, 24):
        if play == "deal":
            continue
        grade = turn.grade
        assert grade is not None and before.hand is not None
        assert (grade.bonus, grade.hand) == (before.hand.bonus, before.hand.cards)
        chart_play = printed.action(cell_of(hand_of(before.hand.values)), grade.bonus.points)
        assert grade.chart is chart_play
        assert grade.mistake == ((play == "hit") != (chart_play is Action.HIT))
        chosen = grade.hit if play == "hit" else grade.stand
        assert grade.hand_cost == max(grade.hit, grade.stand) - chosen >= 0
        mistakes += grade.mistake
        assert turn.state.score.mistakes == mistakes
    assert 0 < mistakes < 24


def test_a_state_plays_the_same_whole_or_as_its_json(printed: Chart) -> None:
    for before, play, turn in turns(printed, 6):
        sent = json.loads(json.dumps(PracticeTurn(before).to_json()["state"]))
        assert solver.practice_play(sent, play, cache=GAMES) == turn


@pytest.mark.parametrize("play", ["double", "", "HIT!"])
def test_a_play_that_is_not_one_is_refused(play: str) -> None:
    turn = solver.practice_start(seed=SEED, cache=GAMES)
    with pytest.raises(CbjError):
        solver.practice_play(turn.state, play, cache=GAMES)
