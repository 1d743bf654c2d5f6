"""Hand arithmetic: the single source of every total, bust and natural in the game.

A hand is the multiset of a side's *own* cards as :data:`~solver.model.cards.ValueCounts`
(``hand[v - 1]`` cards of value ``v``).  The community Bonus card is never part of the
hand; each function takes its value ``bonus`` separately, because both sides may add
it to their total or not (rule clauses 3, 7 and 8).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from operator import mul

from solver.model.cards import VALUES, ValueCounts
from solver.model.errors import HandError
from solver.model.rules import DealerNatural, NaturalBeats, Rules


def hand_of(values: Iterable[int]) -> ValueCounts:
    """The hand holding cards of these blackjack values.

    >>> hand_of([1, 10])
    (1, 0, 0, 0, 0, 0, 0, 0, 0, 1)
    """
    counts = [0] * 10
    for v in values:
        if not 1 <= v <= 10:
            raise HandError(f"card value {v} is not between 1 (ace) and 10")
        counts[v - 1] += 1
    return tuple(counts)


def add_card(hand: ValueCounts, value: int) -> ValueCounts:
    """The hand with one more card of ``value``."""
    return (*hand[: value - 1], hand[value - 1] + 1, *hand[value:])


def card_count(hand: ValueCounts) -> int:
    """Number of own cards in the hand."""
    return sum(hand)


def hard_total(hand: ValueCounts) -> int:
    """Total with every ace counted as 1 (clause 6: the bust test)."""
    return sum(map(mul, VALUES, hand))  # twice as fast as a generator: it runs per hand


def is_bust(hand: ValueCounts) -> bool:
    """A side busts when the hard total of its own cards exceeds 21 (clauses 6 and 7)."""
    return hard_total(hand) > 21


def own_best(hard: int, has_ace: bool) -> int:
    """Best total of own cards alone: one ace counts 11 when that stays within 21."""
    return hard + 10 if has_ace and hard + 10 <= 21 else hard


def with_bonus_best(hard: int, has_ace: bool, bonus: int) -> int:
    """Best total of own cards plus the Bonus card (may exceed 21: then it is unusable)."""
    total = hard + bonus
    return total + 10 if (has_ace or bonus == 1) and total + 10 <= 21 else total


def best_total_of(hard: int, has_ace: bool, bonus: int) -> int:
    """Best total at most 21, with or without the Bonus card; ``hard`` must be at most 21."""
    alone = own_best(hard, has_ace)
    joined = with_bonus_best(hard, has_ace, bonus)
    return joined if alone < joined <= 21 else alone


@cache  # 3,083 hands of hard total 21 or less, ten Bonus cards: every policy played asks
def best_total(hand: ValueCounts, bonus: int) -> int:
    """Best total at most 21 of a hand that has not busted, choosing whether to add ``bonus``.

    >>> best_total(hand_of([9, 5]), bonus=7), best_total(hand_of([1]), bonus=6)
    (21, 17)
    """
    hard = hard_total(hand)
    if hard > 21:
        raise HandError(f"hand with hard total {hard} has busted and has no total")
    return int(best_total_of(hard, hand[0] > 0, bonus))  # kept: a Python int, whatever asked


def cards_in_21(hand: ValueCounts, bonus: int) -> int | None:
    """How many cards make the hand's 21, counting the Bonus card if it is used.

    Where 21 can be made both with and without the Bonus card, the way with fewer
    cards counts (clause 9).  ``None`` when the best total is not 21.

    >>> cards_in_21(hand_of([1, 10]), bonus=10), cards_in_21(hand_of([5, 6]), bonus=10)
    (2, 3)
    """
    hard = hard_total(hand)
    if hard > 21:
        return None
    if own_best(hard, hand[0] > 0) == 21:
        return card_count(hand)
    if with_bonus_best(hard, hand[0] > 0, bonus) == 21:
        return card_count(hand) + 1
    return None


def is_player_blackjack(card: int, bonus: int) -> bool:
    """Own first card plus the Bonus card make 21: an ace and a ten-value card (clause 5)."""
    return {card, bonus} == {1, 10}


def dealer_stops_at(hard: int, has_ace: bool, cards: int, bonus: int, rules: Rules) -> bool:
    """:func:`dealer_stops` for a hand given by its hard total, ace and number of cards."""
    if cards == 0:
        return False
    return hard > 21 or best_total_of(hard, has_ace, bonus) >= rules.dealer_stands_on


def dealer_stops(hand: ValueCounts, bonus: int, rules: Rules) -> bool:
    """The dealer stops drawing: it has busted, or its best total reaches the threshold.

    The dealer always draws at least one card (clause 7).
    """
    return dealer_stops_at(hard_total(hand), hand[0] > 0, card_count(hand), bonus, rules)


#: Readings of clause 9 under which two own cards making 21 are a natural.
_OWN_PAIR_NATURAL = (DealerNatural.WITH_BONUS, DealerNatural.OWN_CARDS)
#: Readings under which one own card plus the Bonus card making 21 are a natural.
_BONUS_PAIR_NATURAL = (DealerNatural.WITH_BONUS, DealerNatural.BONUS_CARD)


def dealer_natural_at(hard: int, has_ace: bool, cards: int, bonus: int, rules: Rules) -> bool:
    """:func:`dealer_has_natural` for a hand given by its hard total, ace and number of cards."""
    if hard > 21:
        return False
    if cards == 2 and rules.dealer_natural in _OWN_PAIR_NATURAL:
        return own_best(hard, has_ace) == 21
    if cards == 1 and rules.dealer_natural in _BONUS_PAIR_NATURAL:
        return with_bonus_best(hard, has_ace, bonus) == 21
    return False


def dealer_has_natural(hand: ValueCounts, bonus: int, rules: Rules) -> bool:
    """The dealer's final hand is a natural under ``rules.dealer_natural`` (clause 9).

    A natural is a 21 of exactly two cards: two own cards (readings ``with_bonus`` and
    ``own_cards``), or one own card and the Bonus card (``with_bonus`` and ``bonus_card``).

    >>> from solver.model.rules import DealerNatural
    >>> vegas = Rules(dealer_natural=DealerNatural.BONUS_CARD)
    >>> dealer_has_natural(hand_of([1, 10]), 5, vegas), dealer_has_natural(hand_of([1]), 10, vegas)
    (False, True)
    """
    return dealer_natural_at(hard_total(hand), hand[0] > 0, card_count(hand), bonus, rules)


def natural_beats_21(cards: int, rules: Rules) -> bool:
    """Whether a dealer natural beats a standing player 21 made of ``cards`` cards (clause 9).

    ``cards`` counts the Bonus card when the player's 21 needs it (see
    :func:`cards_in_21`).  A player total below 21 always loses to a natural.

    >>> from solver.model.rules import NaturalBeats
    >>> [natural_beats_21(n, Rules()) for n in (2, 3)]
    [False, True]
    >>> natural_beats_21(2, Rules(natural_beats=NaturalBeats.NON_BLACKJACK))
    True
    """
    if rules.natural_beats is NaturalBeats.NON_BLACKJACK:
        return True
    return rules.natural_beats is NaturalBeats.MULTI_CARD_21 and cards >= 3


def describe_hand(hand: ValueCounts) -> str:
    """Cards of a hand written out, e.g. ``A 5 10``."""
    return " ".join(("A" if v == 1 else str(v)) for v in range(1, 11) for _ in range(hand[v - 1]))
