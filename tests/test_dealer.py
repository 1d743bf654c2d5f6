"""Dealer distributions (clause 7 and 9) against walking every dealer card sequence."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.exact.dealer import (
    dealer_distribution,
    dealer_probabilities,
    exact_dealer,
    tree_exact_dealer,
    tree_probabilities,
)
from solver.exact.dealer_hands import dealer_ends, dealer_tree, outcome_labels
from solver.exact.modular import moduli, rebuild, rebuild_one
from solver.model.cards import Shoe, parse_cards
from solver.model.errors import ShoeError
from solver.model.rules import DealerBonus, DealerNatural, Rules

from . import reference

SMALL_SHOES = [
    (2, 1, 1, 3, 2, 0, 1, 1, 0, 3),
    (1, 1, 1, 1, 1, 1, 1, 1, 1, 4),
    (0, 0, 3, 0, 2, 2, 0, 0, 4, 6),
    (3, 2, 0, 0, 0, 1, 2, 2, 2, 5),
]
RULE_VARIANTS = [
    Rules(),
    Rules(dealer_stands_on=17),
    Rules(dealer_stands_on=12),
    Rules(dealer_stands_on=21),
    Rules(dealer_natural=DealerNatural.OWN_CARDS),
    Rules(dealer_natural=DealerNatural.NONE),
    Rules(dealer_natural=DealerNatural.BONUS_CARD),
    Rules(dealer_bonus=DealerBonus.MUST_USE),
    Rules(dealer_bonus=DealerBonus.MUST_USE, dealer_stands_on=17),
    Rules(dealer_bonus=DealerBonus.MUST_USE, dealer_natural=DealerNatural.OWN_CARDS),
]


def as_labels(rules: Rules, walked: dict[str, Fraction]) -> dict[str, Fraction]:
    return {label: walked.get(label, Fraction(0)) for label in outcome_labels(rules)}


@pytest.mark.parametrize("rules", RULE_VARIANTS, ids=lambda r: r.summary()[:60])
@pytest.mark.parametrize("shoe", SMALL_SHOES)
def test_exact_distribution_equals_every_card_sequence(rules: Rules, shoe: tuple[int, ...]) -> None:
    for bonus in range(1, 11):
        assert dealer_distribution(rules, bonus, shoe) == as_labels(
            rules, reference.dealer(shoe, bonus, rules)
        )


def test_full_six_deck_shoe_matches_the_walk_for_a_ten_bonus() -> None:
    shoe = (24,) * 9 + (95,)
    expected = as_labels(Rules(), reference.dealer(shoe, 10, Rules()))
    assert dealer_distribution(Rules(), 10, shoe) == expected


def test_batch_equals_one_shoe_at_a_time() -> None:
    rules = Rules()
    batch = exact_dealer(rules, 6, SMALL_SHOES)
    floats = dealer_probabilities(rules, 6, SMALL_SHOES)
    for i, shoe in enumerate(SMALL_SHOES):
        assert batch.fractions(i) == dealer_distribution(rules, 6, shoe)
        assert floats[i] == pytest.approx(dealer_probabilities(rules, 6, [shoe])[0], abs=1e-15)


def test_a_shoe_that_can_run_out_mid_hand_is_rejected() -> None:
    with pytest.raises(ShoeError, match="run out"):
        dealer_distribution(Rules(), 2, (2, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    with pytest.raises(ShoeError, match="run out"):
        dealer_probabilities(Rules(), 2, [(2, 0, 0, 0, 0, 0, 0, 0, 0, 0)])


def test_clause_7_dealer_with_ten_bonus_stops_on_an_eight() -> None:
    # With a Bonus ten, a first card of 8 or 9 stands at 18 or 19 at once.
    only_eights = (0, 0, 0, 0, 0, 0, 0, 5, 0, 0)
    assert dealer_distribution(Rules(), 10, only_eights)["18"] == 1


shoes = st.tuples(*[st.integers(0, 4)] * 9, st.integers(4, 16))


@settings(max_examples=60, deadline=None)
@given(shoes, st.integers(1, 10), st.integers(12, 21))
def test_distribution_properties(shoe: tuple[int, ...], bonus: int, threshold: int) -> None:
    rules = Rules(dealer_stands_on=threshold)
    try:
        exact = dealer_distribution(rules, bonus, shoe)
    except ShoeError:
        return
    assert sum(exact.values()) == 1
    assert all(p >= 0 for p in exact.values())
    assert set(exact) == {"bust", "natural", *(str(t) for t in range(threshold, 22))}
    floats = dealer_probabilities(rules, bonus, [shoe])[0]
    assert np.allclose(floats, [float(p) for p in exact.values()], rtol=0, atol=1e-12)


@settings(max_examples=20, deadline=None)
@given(st.permutations(["As", "Kd", "7c", "7h", "2s", "Qh", "5d", "9c"]))
def test_result_does_not_depend_on_the_order_cards_were_removed(order: list[str]) -> None:
    first = Shoe.full(1).remove(parse_cards(order)).value_counts()
    again = Shoe.full(1).remove(parse_cards(sorted(order))).value_counts()
    assert dealer_distribution(Rules(), 4, first) == dealer_distribution(Rules(), 4, again)


# The fast path (folding card values over the dealer's final hands) against its twin,
# the level-by-level walk of the dealer's tree, on the shoes a real solve prices.
def player_shoes(decks: int, bonus: int, step: int) -> np.ndarray:
    from solver.exact.player_hands import hand_space

    base = tuple(n - (v == bonus) for v, n in enumerate(Shoe.full(decks).value_counts(), 1))
    roots = [tuple(int(i == p - 1) for i in range(10)) for p in range(1, 11) if base[p - 1]]
    return hand_space(bonus, base, roots).draws[::step]


@pytest.mark.parametrize("rules", [*RULE_VARIANTS, Rules(decks=1), Rules(decks=8)], ids=str)
@pytest.mark.parametrize("bonus", [1, 6, 10])
def test_folding_by_value_equals_walking_the_tree(rules: Rules, bonus: int) -> None:
    shoes = player_shoes(rules.decks, bonus, step=5)
    assert exact_dealer(rules, bonus, shoes) == tree_exact_dealer(rules, bonus, shoes)
    fast = dealer_probabilities(rules, bonus, shoes)
    assert np.allclose(fast, tree_probabilities(rules, bonus, shoes), rtol=0, atol=1e-14)


def test_both_paths_know_the_same_deepest_hand() -> None:
    for rules in RULE_VARIANTS:
        for bonus in range(1, 11):
            assert dealer_ends(rules, bonus).depth == dealer_tree(rules, bonus).depth


@settings(max_examples=40, deadline=None)
@given(st.tuples(*[st.integers(0, 6)] * 9, st.integers(2, 20)), st.integers(1, 10))
def test_fast_path_equals_the_walk_on_any_large_enough_shoe(
    shoe: tuple[int, ...], bonus: int
) -> None:
    rules = Rules()
    if sum(shoe) < dealer_ends(rules, bonus).depth:
        return  # such shoes take the walk itself
    assert exact_dealer(rules, bonus, [shoe]) == tree_exact_dealer(rules, bonus, [shoe])


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 2**200), min_size=1, max_size=5), st.integers(1, 8))
def test_rebuilding_one_integer_agrees_with_rebuilding_them_all(
    numbers: list[int], count: int
) -> None:
    primes = moduli(count)
    kept = [n % math.prod(primes) for n in numbers]
    residues = np.array([[n % p for n in kept] for p in primes], dtype=np.int64)
    assert rebuild(residues, primes).tolist() == kept
    assert [rebuild_one(residues[:, i].tolist(), primes) for i in range(len(kept))] == kept


def test_an_empty_batch_of_shoes_gives_no_rows_on_every_path() -> None:
    rules = Rules()
    none = np.zeros((0, 10), dtype=np.int64)
    columns = len(outcome_labels(rules))
    assert dealer_probabilities(rules, 5, none).shape == (0, columns)
    assert tree_probabilities(rules, 5, none).shape == (0, columns)
    assert exact_dealer(rules, 5, none).counts == ()


def test_games_with_the_same_dealer_rules_share_the_dealers_hands() -> None:
    six = dealer_ends(Rules(), 5)
    assert (
        dealer_ends(Rules(decks=1, blackjack_pays=Fraction(6, 5), bonus_ratio=Fraction(1)), 5)
        is six
    )
    assert dealer_ends(Rules(dealer_stands_on=17), 5) is not six
    assert dealer_ends(Rules(dealer_natural=DealerNatural.NONE), 5) is not six
    assert dealer_ends(Rules(dealer_bonus=DealerBonus.MUST_USE), 5) is not six


# --- A dealer who must use the Bonus card (dealer_bonus must_use) -----------------------

MUST_USE_VARIANTS = [
    Rules(),
    Rules(dealer_bonus=DealerBonus.MUST_USE, dealer_stands_on=17),
    Rules(dealer_bonus=DealerBonus.MUST_USE, dealer_natural=DealerNatural.OWN_CARDS),
    Rules(dealer_bonus=DealerBonus.MUST_USE, dealer_stands_on=12),
]


@pytest.mark.parametrize("rules", MUST_USE_VARIANTS, ids=lambda r: r.differences(Rules()))
def test_the_simulators_dealer_reads_every_hand_as_the_walk_does(rules: Rules) -> None:
    from solver.sim.deal import Table, shoe_codes
    from solver.sim.hands import hand_space
    from solver.sim.strategies import StandOn

    space = hand_space()
    table = Table.make(rules, StandOn(17), shoe_codes(Shoe.full(1)), 1, None)
    stands_on, reading, must_use = reference.dealer_play(rules)
    for index, hand in enumerate(space.hands[1:], 1):  # the dealer always draws a first card
        if hand[0] > 4:
            continue  # the walk tries every ace as 1 or 11: 2**aces totals
        cards = tuple(v for v in range(1, 11) for _ in range(hand[v - 1]))
        for bonus in range(1, 11):
            stops = reference.dealer_stops(cards, bonus, stands_on, must_use)
            assert bool(table.draws[bonus, index]) is not stops, (cards, bonus)
            if stops:
                final = reference.dealer_final(cards, bonus, reading, must_use)
                total = int(table.dealer_total[bonus, index])
                assert (total == 0) == (final == "bust"), (cards, bonus)
                assert bool(table.natural[bonus, index]) == (final == "natural"), (cards, bonus)
                if final not in ("bust", "natural"):
                    assert total == int(final), (cards, bonus)


def test_a_dealer_who_must_use_the_bonus_card_busts_on_it() -> None:
    from solver.sim.deal import deal_stacked
    from solver.sim.strategies import StandOn

    # The player's ten stands on 16 with the Bonus six; the dealer draws 9, 7 and then 5.
    # Counting the six, 9 7 is 22: bust.  Free to leave it out, the dealer has 16, draws
    # the 5 and stands on 21.
    cards = parse_cards("Ts 6h 9c 7d 5s")
    must_use = Rules(dealer_bonus=DealerBonus.MUST_USE)
    assert [seat.main.value for seat in deal_stacked(cards, must_use, StandOn(12))] == ["win"]
    assert [seat.main.value for seat in deal_stacked(cards, Rules(), StandOn(12))] == ["loss"]
    shoe = (4, 4, 4, 4, 4, 3, 4, 4, 4, 16)
    assert dealer_distribution(must_use, 6, shoe) == as_labels(
        must_use, reference.dealer(shoe, 6, must_use)
    )


def test_a_dealer_who_must_use_the_bonus_card_has_no_natural_of_two_own_cards() -> None:
    rules = Rules(dealer_bonus=DealerBonus.MUST_USE, dealer_natural=DealerNatural.OWN_CARDS)
    shoe = (4, 3, 4, 4, 4, 4, 4, 4, 4, 16)  # a Bonus two: an ace and a ten are 13, not 21
    assert dealer_distribution(rules, 2, shoe)["natural"] == 0
    own_cards = Rules(dealer_natural=DealerNatural.OWN_CARDS)
    assert dealer_distribution(own_cards, 2, shoe)["natural"] > 0
