"""``solver.practice_start`` through its own function: the first round comes from a full,
fairly shuffled shoe (the first two cards' values over many seeds against the shoe's
own shares), a drill deals only the cells it is made of (by ``solver.chart_costs``'
figures for each cell), and bad settings are refused before any deal."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

import solver
from solver.model.cards import Card
from solver.model.cells import cell_of
from solver.model.errors import CbjError
from solver.model.hands import hand_of
from solver.results.charts import ChartCosts
from solver.results.practice_state import PracticeTurn
from tests.conftest import GAMES

#: The seeds whose first rounds are compared with the shoe: 2 cards each.
SEEDS = range(1000, 1200)


@pytest.fixture(scope="module")
def costs() -> ChartCosts:
    """The printed chart's costs and cell frequencies under the default rules."""
    return solver.chart_costs(cache=GAMES)


def first_cards(turn: PracticeTurn) -> tuple[Card, Card]:
    """The Bonus card and the player's first card of the round dealt (settled at once when
    they make a blackjack)."""
    if turn.state.hand is not None:
        return turn.state.hand.bonus, turn.state.hand.cards[0]
    assert turn.settled is not None
    return turn.settled.bonus, turn.settled.player[0]


def test_the_first_round_is_dealt_from_a_fairly_shuffled_full_shoe() -> None:
    """Over 200 seeds the 400 first cards' values fit the full shoe's shares (1/13 each, a
    ten 4/13): Pearson's statistic with 9 degrees of freedom below its 0.1% point, 27.88,
    and every value dealt."""
    seen: Counter[int] = Counter()
    for seed in SEEDS:
        turn = solver.practice_start(seed=seed, cache=GAMES)
        assert (turn.state.rounds, turn.state.shoes, turn.state.setup.seed) == (1, 1, seed)
        assert turn.state.dealt >= 2 and turn.grade is None
        seen.update(card.points for card in first_cards(turn))
    dealt = sum(seen.values())
    share = {v: Fraction(4 if v == 10 else 1, 13) for v in range(1, 11)}
    statistic = sum((seen[v] - dealt * p) ** 2 / (dealt * p) for v, p in share.items())
    assert set(seen) == set(share) and float(statistic) < 27.88, seen


def test_the_same_seed_deals_the_same_round_and_no_seed_a_fresh_one() -> None:
    again = [solver.practice_start(seed=77, cache=GAMES) for _ in range(2)]
    assert again[0] == again[1]
    fresh = solver.practice_start(cache=GAMES)
    assert 0 <= fresh.state.setup.seed < 10**9


def test_the_costliest_mistakes_drill_deals_only_costly_cells_play_reaches(
    costs: ChartCosts,
) -> None:
    for seed in range(20):
        hand = solver.practice_start(seed=seed, drill="costly", cache=GAMES).state.hand
        assert hand is not None
        key = (cell_of(hand_of(hand.values)), hand.bonus.points)
        assert costs.cells[key].cost > 0 and costs.frequencies[key] > 0, key


def test_the_close_calls_drill_deals_only_cells_whose_two_plays_differ_little(
    costs: ChartCosts,
) -> None:
    """A close call: the two plays differ by at most a tenth of a unit each time the cell
    comes up (its cost over its frequency)."""
    for seed in range(20):
        hand = solver.practice_start(seed=seed, drill="close", cache=GAMES).state.hand
        assert hand is not None
        key = (cell_of(hand_of(hand.values)), hand.bonus.points)
        assert costs.frequencies[key] > 0
        assert costs.cells[key].cost / costs.frequencies[key] <= Fraction(1, 10), key


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"drill": "tens"}, "tens"),
        ({"penetration": "1.5"}, "penetration"),
        ({"penetration": 0}, "penetration"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_settings_are_refused(options: dict[str, object], said: str) -> None:
    with pytest.raises(CbjError, match=said):
        solver.practice_start(cache=GAMES, **options)  # type: ignore[arg-type]
