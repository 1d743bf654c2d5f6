"""``solver.solve`` (``cbj solve``) through its own function: on a tiny shoe its main wager
is the brute-force twin's (tests/reference.py), its Bonus is every ordered pair of the
physical cards left, its round is the sum of the two wagers, and the fast solve agrees with
the exact one."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import permutations
from typing import Any

import pytest

import solver
from solver.model.cards import Shoe
from solver.model.outcomes import bonus_outcome, bonus_pay
from solver.model.rules import DealerNatural, Rules
from solver.results.commands import SolveResult
from tests.conftest import GAMES, physical_cards
from tests.test_game import TINY_REMOVED, tiny_shoe

from . import reference

#: Rules the tiny shoe is solved under: the default reading, and two that change the play.
TINY_RULES = [
    Rules(decks=1, bonus_ratio=Fraction(3, 4)),
    Rules(decks=1, dealer_stands_on=17, dealer_natural=DealerNatural.OWN_CARDS),
]


def solved(rules: Rules, exact: bool = True) -> SolveResult[Any]:
    return solver.solve(rules=rules, removed=TINY_REMOVED, exact=exact, cache=GAMES)


def bonus_ev_dealt(rules: Rules) -> Fraction:
    """The Bonus wager's EV over every ordered pair (player's card, Bonus card) left."""
    cards = physical_cards(Shoe.full(1).remove(TINY_REMOVED))
    pays = [bonus_pay(rules.paytable, bonus_outcome(a, b)) for a, b in permutations(cards, 2)]
    return Fraction(sum(pays), len(pays))


@pytest.mark.parametrize("rules", TINY_RULES, ids=["default", "s17-own-cards"])
def test_the_main_wager_is_the_brute_force_twin_s_and_the_bonus_every_pair_dealt(
    rules: Rules,
) -> None:
    game = solved(rules)
    assert game.rules == rules and game.exact
    assert game.expected_value == reference.main_ev(tiny_shoe(), rules)
    assert game.bonus is not None
    assert game.bonus.expected_value == bonus_ev_dealt(rules)


@pytest.mark.parametrize("rules", TINY_RULES, ids=["default", "s17-own-cards"])
def test_the_round_is_the_sum_of_its_two_wagers(rules: Rules) -> None:
    game = solved(rules)
    assert game.bonus is not None
    ratio = rules.bonus_ratio
    assert game.round_expected_value == game.expected_value + ratio * game.bonus.expected_value
    assert game.round_house_edge == -game.round_expected_value / (1 + ratio)
    assert sum(line.probability for line in game.round_lines) == 1
    assert sum(game.outcomes.values()) == 1


def test_the_fast_solve_agrees_with_the_exact_one() -> None:
    exact, fast = solved(TINY_RULES[0]), solved(TINY_RULES[0], exact=False)
    assert isinstance(fast.expected_value, float) and not fast.exact
    assert math.isclose(fast.expected_value, exact.expected_value, abs_tol=1e-12)
    assert math.isclose(fast.round_house_edge, exact.round_house_edge, abs_tol=1e-12)
    assert [s.decision for s in fast.starts] == [s.decision for s in exact.starts]


def test_removing_cards_changes_the_game_as_the_shoe_left_says() -> None:
    """The same cards removed by text give the same game; one card fewer removed is another
    shoe, whose main wager is the twin's for that shoe."""
    text = " ".join(map(str, TINY_REMOVED))
    rules = TINY_RULES[0]
    assert solver.solve(rules=rules, removed=text, exact=True, cache=GAMES) == solved(rules)
    fewer = TINY_REMOVED[1:]
    game = solver.solve(rules=rules, removed=fewer, exact=True, cache=GAMES)
    assert game.expected_value == reference.main_ev(
        Shoe.full(1).remove(fewer).value_counts(), rules
    )
    assert game.expected_value != solved(rules).expected_value
