"""What the report checks as it is built: worked examples, invariants and a brute-force twin.

:func:`worked_examples` deals fixed cards through the independent simulator's own
settling code (:func:`solver.sim.deal.play_round`), so each example in the report is
settled by the engine, not by the report's wording.  :func:`brute_force_main_ev` is a
plain recursion over every card order of a small shoe, written from the rule text with the
model's hand totals only: the report prints its agreement with the exact solver.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from solver.model.cards import RANKS, SUITS, VALUES, Card, Shoe, ValueCounts, parse_cards
from solver.model.hands import (
    best_total,
    cards_in_21,
    dealer_has_natural,
    hand_of,
    hard_total,
    is_player_blackjack,
    natural_beats_21,
)
from solver.model.outcomes import MainOutcome, bonus_outcome, bonus_pay, main_payoffs
from solver.model.rules import DealerBonus, DealerNatural, Rules
from solver.results.report import ExampleDeal, WorkedExample
from solver.sim.deal import Shoes, Table, card_code, play_round, settle


@dataclass(frozen=True, slots=True)
class Draws:
    """A stacked-deal player: takes exactly ``cards`` more cards, then stands (a bust stops it).

    >>> Draws(1).hits(5, (0, 0, 0, 0, 1, 0, 0, 0, 0, 0))
    True
    """

    cards: int

    @property
    def name(self) -> str:
        """``draws:N``."""
        return f"draws:{self.cards}"

    def hits(self, bonus: int, hand: ValueCounts) -> bool:
        """Hit while the hand holds fewer than ``1 + cards`` own cards."""
        del bonus
        return sum(hand) < 1 + self.cards


#: The report's worked examples. Suits differ so that even a one-deck shoe holds the cards;
#: under the default rules every player plays as the printed chart says (a test checks it;
#: under other rules the report names each play the chart would make otherwise).
EXAMPLES: tuple[ExampleDeal, ...] = (
    ExampleDeal("player 8 with a Bonus ace stands on 19", (6, 7, 8), "8h As 5c 2d 9c Kd", 0),
    ExampleDeal(
        "a dealer two-card 21 against a player 21 of three cards",
        (6, 7, 9),
        "5h 2s 6d Tc Ah Kd",
        2,
    ),
    ExampleDeal("a player bust before the dealer draws", (6,), "Th 7s 6d 9c 7h 8d", 2),
    ExampleDeal(
        "the player's card and the Bonus card make 21 (blackjack)", (4, 5), "As Kh 9c 9d", 0
    ),
    ExampleDeal("the dealer busts: every player still in wins", (7,), "9h 3s 8d Tc 4d 8c 2h", 1),
    ExampleDeal(
        "the dealer stops on one card with the Bonus card: equal totals push",
        (7, 8),
        "8h Ts Kc 8c 5d",
        1,
    ),
    ExampleDeal(
        "a player 21 of two own cards against a dealer natural of two own cards",
        (9,),
        "Ah 3s Kd Ac Qd 5h",
        1,
    ),
    ExampleDeal("the Bonus card is left out where it would pass 21", (6, 8), "9h 5s Kd Kc 3d", 1),
)


#: Cards after every example's own, for a dealer that stands higher than the example meant.
SPARE_CARDS = "2c 3c 4c 2h 3h 4h 6c 5s"


def settle_example(deal: ExampleDeal, rules: Rules) -> WorkedExample:
    """Deal ``deal``'s cards in order through the simulator and settle the round.

    The cards the dealer did not need are left out of the result.

    >>> ex = settle_example(EXAMPLES[3], Rules())
    >>> ex.result.main.value, ex.result.bonus.value, ex.dealer
    ('blackjack', 'adjacent', ())
    """
    cards = parse_cards(f"{deal.cards} {SPARE_CARDS}")
    codes = np.array([card_code(c) for c in cards], dtype=np.uint8)
    table = Table.make(rules, Draws(deal.player_draws), codes, 1, None)
    shoes = Shoes(codes, 1, None, None)
    main, bonus = play_round(shoes, 1, table)
    dealt = int(shoes.next[0])
    result = settle(main, bonus, rules)[0]
    blackjack = result.main is MainOutcome.BLACKJACK
    player_cards = 1 if blackjack else _player_cards(cards, deal.player_draws)
    own = (cards[0], *cards[2 : 1 + player_cards])
    dealer = tuple(cards[1 + player_cards : dealt])
    hand, bonus_value = hand_of(c.points for c in dealer), cards[1].points
    total = dealer_total(rules, bonus_value, hand)
    natural = bool(dealer) and total is not None and dealer_natural(rules, bonus_value, hand)
    return WorkedExample(deal, own, cards[1], dealer, result, total, natural)


def _player_cards(cards: tuple[Card, ...], draws: int) -> int:
    """How many own cards the player ends with: ``1 + draws``, fewer if a bust stops them."""
    hard = 0
    for n, card in enumerate((cards[0], *cards[2 : 2 + draws]), start=1):
        hard += card.points
        if hard > 21:
            return n
    return 1 + draws


def worked_examples(rules: Rules) -> tuple[WorkedExample, ...]:
    """Every example of :data:`EXAMPLES`, settled under ``rules``."""
    return tuple(settle_example(deal, rules) for deal in EXAMPLES)


# --- Invariants ---------------------------------------------------------------------------


def bonus_return_by_suit(rules: Rules) -> dict[str, Fraction]:
    """The Bonus wager's exact return given the suit of the player's card, from the full shoe.

    Counted over every ordered pair of physical cards (player's card, Bonus card).
    """
    counts = Shoe.full(rules.decks).counts
    cards = [Card.parse(f"{rank}{suit}") for rank in RANKS for suit in SUITS]
    by_suit: dict[str, Fraction] = {}
    for suit in SUITS:
        paid, pairs = Fraction(0), 0
        for i, player in enumerate(cards):
            if player.suit != suit:
                continue
            for j, bonus in enumerate(cards):
                ways = counts[i] * (counts[j] - (i == j))
                if ways:
                    outcome = bonus_outcome(player, bonus, rules.paytable)
                    paid += ways * bonus_pay(rules.paytable, outcome)
                    pairs += ways
        by_suit[str(suit)] = paid / pairs
    return by_suit


# --- The brute-force twin -----------------------------------------------------------------

#: The small shoe the brute-force twin and the exact solver both solve: one deck less every
#: card but these (no aces beyond two, so no hand runs the shoe dry).
SMALL_SHOE = "As Ah 7s 7h 8s 8h 8d 9s 9h 9d Ts Jh Qd Kc Tc Jd"


def small_shoe_removed(decks: int) -> tuple[Card, ...]:
    """The cards to remove from a full shoe of ``decks`` decks to leave :data:`SMALL_SHOE`."""
    kept = parse_cards(SMALL_SHOE)
    counts = Shoe.full(decks).counts
    removed: list[Card] = []
    for code, card in enumerate(Card.parse(f"{rank}{suit}") for rank in RANKS for suit in SUITS):
        removed.extend([card] * (counts[code] - kept.count(card)))
    return tuple(removed)


def brute_force_main_ev(rules: Rules, shoe: ValueCounts) -> Fraction:
    """The main wager's EV under optimal play, by plain recursion over every card dealt.

    Written from the rule text: the player's card and the Bonus card (clause 3), a blackjack
    paid at once (5), the player hitting or standing, whichever is worth more, and busting
    on own cards over 21 (6), the dealer drawing to its threshold with or without the Bonus
    card (7), the showdown (8) and the dealer natural (9).
    """
    pays = main_payoffs(rules)

    def stand(bonus: int, hand: ValueCounts, left: ValueCounts) -> Fraction:
        ends = _dealer_ends(rules, bonus, hand_of([]), left)
        return sum((p * pays[_showdown(rules, bonus, hand, end)] for end, p in ends), Fraction(0))

    @cache
    def play(bonus: int, hand: ValueCounts, left: ValueCounts) -> Fraction:
        if hard_total(hand) > 21:
            return pays["loss"]
        standing = stand(bonus, hand, left)
        if not sum(left):
            return standing
        hit = sum(
            (p * play(bonus, _plus(hand, v), rest) for p, v, rest in _draws(left)), Fraction(0)
        )
        return max(standing, hit)

    value = Fraction(0)
    for p, card, after in _draws(shoe):
        for q, bonus, rest in _draws(after):
            if is_player_blackjack(card, bonus):
                value += p * q * pays["blackjack"]
            else:
                value += p * q * play(bonus, hand_of([card]), rest)
    return value


def _draws(left: ValueCounts) -> list[tuple[Fraction, int, ValueCounts]]:
    """Each value the next card can have: its probability, the value, the shoe after it."""
    total = sum(left)
    return [(Fraction(n, total), v, _less(left, v)) for v, n in zip(VALUES, left, strict=True) if n]


def dealer_total(rules: Rules, bonus: int, hand: ValueCounts) -> int | None:
    """The dealer's total of its own cards ``hand`` and the Bonus card, ``None`` if bust.

    Clause 7 as read by ``dealer_bonus``: the dealer chooses to count the Bonus card or not
    and busts on its own cards only, or (``must_use``) counts it always, as a standard
    dealer counts its up card, and busts when own cards and the Bonus card pass 21.

    >>> dealer_total(Rules(), 8, hand_of([10, 4])), dealer_total(Rules(), 1, hand_of([5, 2]))
    (14, 18)
    """
    if rules.dealer_bonus is DealerBonus.MUST_USE:
        hard = hard_total(hand) + bonus
        soft = (hand[0] > 0 or bonus == 1) and hard + 10 <= 21
        counted = hard + 10 if soft else hard
        return counted if counted <= 21 else None
    return None if hard_total(hand) > 21 else best_total(hand, bonus)


def dealer_natural(rules: Rules, bonus: int, hand: ValueCounts) -> bool:
    """The dealer's final hand is a natural (clause 9): 21 of two cards, the pairs that count
    being the ``dealer_natural`` reading; a dealer that must use the Bonus card holds it in
    every hand, so two own cards are three."""
    if rules.dealer_bonus is DealerBonus.MUST_USE:
        own_with_bonus = rules.dealer_natural in (
            DealerNatural.WITH_BONUS,
            DealerNatural.BONUS_CARD,
        )
        return own_with_bonus and sum(hand) == 1 and dealer_total(rules, bonus, hand) == 21
    return dealer_has_natural(hand, bonus, rules)


@cache
def _dealer_ends(
    rules: Rules, bonus: int, hand: ValueCounts, left: ValueCounts
) -> tuple[tuple[str, Fraction], ...]:
    """The dealer's final results from ``hand`` (``bust``, ``natural`` or a total) and odds."""
    total = dealer_total(rules, bonus, hand)
    if sum(hand) and (total is None or total >= rules.dealer_stands_on):
        if total is None:
            return (("bust", Fraction(1)),)
        natural = dealer_natural(rules, bonus, hand)
        return (("natural" if natural else str(total), Fraction(1)),)
    found: dict[str, Fraction] = {}
    for p, v, rest in _draws(left):
        for end, q in _dealer_ends(rules, bonus, _plus(hand, v), rest):
            found[end] = found.get(end, Fraction(0)) + p * q
    return tuple(found.items())


def _showdown(rules: Rules, bonus: int, hand: ValueCounts, end: str) -> str:
    """A standing hand's main outcome against the dealer's final result (clauses 7 to 9)."""
    total = best_total(hand, bonus)
    if end == "bust":
        return "win"
    if end == "natural":
        made = cards_in_21(hand, bonus)
        beaten = total < 21 or (made is not None and natural_beats_21(made, rules))
        return "loss" if beaten else "push"
    dealer = int(end)
    return "win" if total > dealer else "push" if total == dealer else "loss"


def _plus(hand: ValueCounts, value: int) -> ValueCounts:
    return tuple(n + (i == value - 1) for i, n in enumerate(hand))


def _less(shoe: ValueCounts, value: int) -> ValueCounts:
    return tuple(n - (i == value - 1) for i, n in enumerate(shoe))
