"""Shuffles as data: the continuous shuffler's tray on a stacked shoe, its twins dealing the
same rounds, its round EV against the exact full shoe, no significant counting gain under
it, and the counter with no mid-shoe entry counting whole shoes only."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from solver.exact import kernel
from solver.exact.game import solve_game
from solver.model.cards import Shoe
from solver.model.errors import SimulationError
from solver.model.rules import Rules
from solver.model.shuffles import Shuffle
from solver.results.game import GameResult
from solver.results.simulation import Counter
from solver.sim import Strategy, simulate
from solver.sim.deal import Shoes, shoe_codes
from solver.sim.run import _CounterTally, _ShoeByShoe
from solver.sim.strategies import StandOn
from solver.store.memory import MemoryCache
from solver.studies.simulation import exact_figures, played_strategy

RULES = Rules()
#: The ace count of docs/protection.md, a count of one rank the tray's bias would show in.
ACES = {"A": -1, **{r: 0 for r in ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")}}


def test_a_shuffler_tops_its_tray_up_then_takes_the_round_back() -> None:
    """A stacked shoe (no random draws): after a round of 5 cards with a tray of 3, the tray
    holds the 3 cards that followed the round, the machine the rest and the round's cards
    last; the count restarts from the round's cards."""
    codes = np.arange(20, dtype=np.uint8)
    tags = np.ones(52, dtype=np.intp)
    shoes = Shoes(codes, 1, None, None, tags, buffer=3)
    shoes.begin_round(1)
    assert shoes.tray[0] == 3 and shoes.next[0] == 0
    for _ in range(5):
        shoes.draw(np.array([0]))
    shoes.begin_round(1)
    row = shoes.rows[:20].tolist()
    assert row[:3] == [5, 6, 7] and row[-5:] == [0, 1, 2, 3, 4]
    assert sorted(row) == list(range(20))  # no card lost or doubled
    assert (shoes.running[0], shoes.start[0], shoes.tray[0]) == (5, 5, 3)
    shoes.begin_round(1)  # a second beginning changes nothing
    assert shoes.rows[:20].tolist() == row and shoes.start[0] == 5


def test_the_shufflers_twins_deal_the_same_rounds(games: MemoryCache) -> None:
    """The compiled kernel and the numpy twin, a counter seated, two seats."""
    game = solve_game(RULES, exact=True, cache=games)
    strategy = played_strategy("chart", RULES, lambda: game, games)
    counter = Counter("aces", ACES, (1, 8), ((0.05, 8),))
    found = []
    for twin in ("compiled", "numpy"):
        kernel.use(twin)
        try:
            result = simulate(
                RULES, strategy, 1_000, seed=4, seats=2, shuffle=Shuffle.csm(12), counter=counter
            )
        finally:
            kernel.use("compiled")
        found.append((result.joint, result.squares, result.counter))
    assert found[0] == found[1]


@pytest.fixture(scope="module")
def optimal(games: MemoryCache) -> tuple[GameResult[Fraction], Strategy]:
    game = solve_game(RULES, exact=True, cache=games)
    return game, played_strategy("optimal", RULES, lambda: game, games)


def test_under_a_shuffler_the_round_ev_is_the_full_shoes_and_counting_gains_nothing(
    optimal: tuple[GameResult[Fraction], Strategy],
) -> None:
    """10^6 rounds from a shuffler with a tray of 20 (about 1.4 s of CPU): the round EV
    within 3 standard errors of the exact full shoe's, and an ace counter who bets 8 units
    whenever the last round showed no ace wins, per unit bet, the full shoe's EV within 3
    standard errors (the tray's cards, drawn while the last round was out, carry no gain
    it can measure)."""
    game, strategy = optimal
    counter = Counter("aces", ACES, (1, 8), ((0.05, 8),))
    result = simulate(
        RULES,
        strategy,
        10**6,
        seed=45,
        shuffle=Shuffle.csm(20),
        counter=counter,
        exact=exact_figures(RULES, strategy, lambda: game),
    )
    z = result.overall.round.z
    assert z is not None and abs(z) < 3
    stats = result.counter
    assert stats is not None and 1.5 < stats.average_bet < 7.5  # its bets do move
    exact = float(game.round_expected_value)
    per_unit = stats.mean / stats.average_bet
    assert abs(per_unit - exact) < 3 * stats.standard_error / stats.average_bet


def test_a_shuffler_is_refused_where_it_means_nothing() -> None:
    cards = shoe_codes(Shoe.full(1))
    with pytest.raises(SimulationError, match="more than half the shoe"):
        simulate(Rules(decks=1), _stand(), 10, shuffle=Shuffle.csm(40))
    no_mid = Counter("aces", ACES, mid_shoe_entry=False, wong_out=-1.0)
    with pytest.raises(SimulationError, match="no mid-shoe entry needs a shoe dealt"):
        simulate(RULES, _stand(), 10, shuffle=Shuffle.csm(20), counter=no_mid)
    assert len(cards) == 52
    for text in ("csm:999", "cut:1.5", "shuffle"):
        with pytest.raises(SimulationError):
            Shuffle.parse(text)


def _stand() -> Strategy:
    return StandOn(17)


def test_no_mid_shoe_entry_counts_whole_shoes_from_their_shuffle() -> None:
    """One lane, by hand: the rounds before its first shuffle and after its last are not
    counted; within a shoe the counter plays from the shuffle and, once its bet falls to
    nothing (below the wong-out point), sits out the rest of the shoe."""
    counter = Counter("aces", ACES, (1, 8), ((1.0, 8),), wong_out=-1.0, mid_shoe_entry=False)
    tally = _CounterTally.zeros(counter)
    whole = _ShoeByShoe(1, counter)
    # (cards dealt since the shuffle, the ramp's bet, seat 1's round at one unit)
    rounds = [
        (40, 8, 1.0),  # joined part-way: not counted
        (0, 1, -1.0),
        (6, 8, 2.0),
        (12, 0, 1.0),  # below the wong-out point: leaves
        (18, 8, 1.0),  # gone for the rest of the shoe
        (0, 1, 0.5),  # a new shoe: the last one is counted
        (5, 8, -1.0),  # cut off by the end: not counted
    ]
    for start, units, net in rounds:
        whole.bets(np.array([units]), np.array([start]), np.array([net], dtype=np.float64), tally)
    assert tally.by_bet.tolist() == [2, 1, 0, 0, 0, 0, 0, 0, 1]
    assert tally.net.tolist() == [-1.0 + 16.0, 1.0 + 256.0]


def test_the_round_ev_under_a_shuffler_equals_the_full_shoes_on_two_decks(
    games: MemoryCache,
) -> None:
    """A smaller shoe shows a tray's bias sooner: 2 decks, a tray of 30, 2 x 10^5 rounds."""
    rules = Rules(decks=2)
    game = solve_game(rules, exact=True, cache=games)
    strategy = played_strategy("optimal", rules, lambda: game, games)
    result = simulate(
        rules,
        strategy,
        200_000,
        seed=3,
        shuffle=Shuffle.csm(30),
        exact=exact_figures(rules, strategy, lambda: game),
    )
    z = result.overall.round.z
    assert z is not None and abs(z) < 3
    assert math.isclose(float(result.overall.round.exact or 0), float(game.round_expected_value))
    assert result.to_json()["shoe"] == {"continuous_shuffler": 30}
    assert isinstance(Fraction(game.round_expected_value), Fraction)
