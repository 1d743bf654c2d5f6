"""Hand arithmetic, one test per clause of the rule text it pins down."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.model.hands import (
    best_total,
    cards_in_21,
    dealer_has_natural,
    dealer_stops,
    hand_of,
    hard_total,
    is_bust,
    is_player_blackjack,
    natural_beats_21,
)
from solver.model.rules import DealerNatural, NaturalBeats, Rules

RULES = Rules()


def test_clause_5_ace_and_ten_value_with_bonus_is_blackjack() -> None:
    assert is_player_blackjack(1, 10) and is_player_blackjack(10, 1)
    assert not is_player_blackjack(1, 1) and not is_player_blackjack(10, 10)
    assert not is_player_blackjack(9, 2)


def test_clause_6_bust_uses_hard_total_of_own_cards_only() -> None:
    assert hard_total(hand_of([1, 1, 10])) == 12
    assert not is_bust(hand_of([10, 10, 1]))
    assert is_bust(hand_of([10, 10, 2]))


def test_clause_8_best_total_may_add_the_bonus_card_or_not() -> None:
    assert best_total(hand_of([10, 5]), bonus=6) == 21
    assert best_total(hand_of([10, 5]), bonus=7) == 15  # 22 with the Bonus card: not usable
    assert best_total(hand_of([1, 6]), bonus=10) == 17  # soft 17; A+6+10 = 17 too
    assert best_total(hand_of([1, 6]), bonus=4) == 21  # 11 + 6 + 4
    assert best_total(hand_of([9]), bonus=1) == 20  # the Bonus ace counts 11
    assert best_total(hand_of([1, 1]), bonus=9) == 21  # 11 + 1 + 9


def test_clause_7_dealer_stops_at_18_with_or_without_bonus() -> None:
    assert not dealer_stops(hand_of([]), bonus=10, rules=RULES)  # draws at least one card
    assert dealer_stops(hand_of([8]), bonus=10, rules=RULES)  # 8 + 10 = 18
    assert not dealer_stops(hand_of([7]), bonus=10, rules=RULES)  # 17
    assert dealer_stops(hand_of([1, 7]), bonus=10, rules=RULES)  # soft 18 alone
    assert not dealer_stops(hand_of([10, 5]), bonus=10, rules=RULES)  # 15; 25 unusable
    assert dealer_stops(hand_of([10, 10, 5]), bonus=2, rules=RULES)  # bust
    assert dealer_stops(hand_of([7]), bonus=10, rules=Rules(dealer_stands_on=17))


def test_clause_9_dealer_natural_readings() -> None:
    own = Rules(dealer_natural=DealerNatural.OWN_CARDS)
    none = Rules(dealer_natural=DealerNatural.NONE)
    one_card_with_bonus = hand_of([10])  # with a Bonus ace
    two_own = hand_of([1, 10])
    assert dealer_has_natural(one_card_with_bonus, bonus=1, rules=RULES)
    assert not dealer_has_natural(one_card_with_bonus, bonus=1, rules=own)
    assert dealer_has_natural(two_own, bonus=5, rules=RULES)
    assert dealer_has_natural(two_own, bonus=5, rules=own)
    assert not dealer_has_natural(two_own, bonus=5, rules=none)
    assert not dealer_has_natural(hand_of([5, 6]), bonus=10, rules=RULES)  # three cards
    vegas = Rules(dealer_natural=DealerNatural.BONUS_CARD)
    assert dealer_has_natural(one_card_with_bonus, bonus=1, rules=vegas)
    assert not dealer_has_natural(two_own, bonus=5, rules=vegas)  # an ordinary 21
    assert not dealer_has_natural(one_card_with_bonus, bonus=1, rules=none)


@pytest.mark.parametrize(
    ("beats", "two_cards", "three_cards"),
    [
        (NaturalBeats.MULTI_CARD_21, False, True),
        (NaturalBeats.NON_BLACKJACK, True, True),
        (NaturalBeats.NOTHING, False, False),
    ],
)
def test_clause_9_natural_strength_readings(
    beats: NaturalBeats, two_cards: bool, three_cards: bool
) -> None:
    rules = Rules(natural_beats=beats)
    assert natural_beats_21(2, rules) is two_cards
    assert natural_beats_21(3, rules) is three_cards
    assert natural_beats_21(7, rules) is three_cards


def test_clause_9_player_21_card_count_prefers_fewer_cards() -> None:
    assert cards_in_21(hand_of([1, 10]), bonus=10) == 2  # 21 without the Bonus card
    assert cards_in_21(hand_of([5, 6]), bonus=10) == 3  # 21 only with it
    assert cards_in_21(hand_of([7, 7, 7]), bonus=3) == 3
    assert cards_in_21(hand_of([7, 7]), bonus=3) is None


hands = st.lists(st.integers(1, 10), min_size=1, max_size=8).map(hand_of)


@given(hands, st.integers(1, 10))
def test_best_total_is_at_least_own_and_at_most_21(hand: tuple[int, ...], bonus: int) -> None:
    if is_bust(hand):
        return
    total = best_total(hand, bonus)
    assert hard_total(hand) <= total <= 21
    brute = {
        own + extra
        for own in {hard_total(hand), hard_total(hand) + 10 * (hand[0] > 0)}
        for extra in {0, bonus}
    } | ({hard_total(hand) + 11} if bonus == 1 else set())
    assert total == max(t for t in brute if t <= 21)
