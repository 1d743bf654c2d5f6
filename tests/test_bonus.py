"""The Bonus wager (clause 4) against brute-force enumeration of ordered card pairs."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.exact.bonus import analyse_bonus, combinations_by_values
from solver.model.cards import RANKS, SUITS, Card, Shoe, parse_cards
from solver.model.errors import ShoeError
from solver.model.outcomes import BonusOutcome, bonus_outcome
from solver.model.rules import Paytable, Rules

from .conftest import physical_cards


def brute_force_counts(shoe: Shoe) -> Counter[BonusOutcome]:
    """Deal every ordered pair of distinct physical cards and classify it."""
    return Counter(bonus_outcome(p, c) for p, c in permutations(physical_cards(shoe), 2))


def test_clause_4_tiers() -> None:
    def outcome(a: str, b: str) -> str:
        return bonus_outcome(Card.parse(a), Card.parse(b)).value

    assert outcome("7s", "7s") == "suited_match"
    assert outcome("7s", "7h") == "rank_match"
    assert outcome("As", "2h") == "adjacent"
    assert outcome("Kd", "Ac") == "adjacent"  # 4.c.i: the ace touches the king
    assert outcome("10d", "Jc") == "adjacent"
    assert outcome("Jd", "Kc") == "lose"  # 4.c.ii: ranks, not blackjack values
    assert outcome("Jd", "Qc") == "adjacent"
    assert outcome("3d", "5c") == "lose"


@pytest.mark.parametrize("decks", [1, 2, 6])
def test_exact_probabilities_match_brute_force(decks: int) -> None:
    shoe = Shoe.full(decks)
    analysis = analyse_bonus(Rules(decks=decks))
    brute = brute_force_counts(shoe)
    n = shoe.total * (shoe.total - 1)
    for line in analysis.lines:
        assert line.combinations == brute[line.outcome]
        assert line.probability == Fraction(brute[line.outcome], n)


def test_six_deck_default_expected_value_by_hand() -> None:
    # Derived by hand: of the 311 cards left after the player's card, 5 are the same
    # card, 18 the same rank in another suit, 48 an adjacent rank and 240 lose.
    assert analyse_bonus().expected_value == Fraction(5 * 15 + 18 * 4 + 48 * 1 - 240, 311)


def test_removed_cards_match_brute_force() -> None:
    removed = parse_cards("As Ah 2s Kd Kd 7c")
    shoe = Shoe.full(2).remove(removed)
    brute = brute_force_counts(shoe)
    analysis = analyse_bonus(Rules(decks=2), removed)
    assert {ln.outcome: ln.combinations for ln in analysis.lines} == dict(brute)


def test_suitless_removed_cards_are_refused_for_the_bonus() -> None:
    with pytest.raises(ShoeError, match="suits"):
        analyse_bonus(Rules(), parse_cards("K"))


def test_moments_follow_from_the_return_table() -> None:
    analysis = analyse_bonus()
    mean = analysis.expected_value
    second = sum((ln.pays**2 * ln.probability for ln in analysis.lines), Fraction(0))
    assert analysis.variance == second - mean**2
    assert analysis.hit_frequency == 1 - analysis.lines[-1].probability
    assert analysis.house_edge == -mean


def test_value_pair_table_adds_up_to_the_outcome_counts() -> None:
    shoe = Shoe.full(6)
    table = combinations_by_values(shoe)
    assert sum(sum(cell.values()) for cell in table.values()) == 312 * 311
    # A player ten-value card and a Bonus ace: 96 * 24 pairs, adjacent only for K-A.
    assert table[(10, 1)][BonusOutcome.ADJACENT] == 24 * 24


pay = st.fractions(min_value=0, max_value=100, max_denominator=4)
card_text = st.sampled_from([f"{r}{s}" for r in RANKS for s in SUITS])


@settings(max_examples=40, deadline=None)
@given(st.lists(card_text, max_size=12), pay, pay, pay, st.integers(1, 8))
def test_probabilities_sum_to_one_and_ev_is_linear_in_pays(
    removed: list[str], s: Fraction, r: Fraction, a: Fraction, decks: int
) -> None:
    cards = parse_cards(removed)
    try:
        Shoe.full(decks).remove(cards)
    except ShoeError:
        return
    rules = Rules(decks=decks, paytable=Paytable(suited_match=s, rank_match=r, adjacent=a))
    analysis = analyse_bonus(rules, cards)
    assert sum(ln.probability for ln in analysis.lines) == 1
    assert all(ln.combinations >= 0 for ln in analysis.lines)
    import sympy  # here, not at collection: about a second of every worker's start-up

    expression = analysis.symbolic_expected_value()
    value = expression.subs(
        {"S": sympy.Rational(s), "R": sympy.Rational(r), "A": sympy.Rational(a)}
    )
    assert Fraction(str(value)) == analysis.expected_value
