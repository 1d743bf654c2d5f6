"""Cards, shoes and one round dealt on many lanes at once, settled from the rule text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from solver.model.cards import SUITS, Card, Shoe
from solver.model.errors import ShoeError
from solver.model.outcomes import MAIN_OUTCOMES, as_outcome
from solver.model.paytable import BONUS_TIERS, Tier
from solver.model.rules import DealerBonus, DealerNatural, NaturalBeats, Rules
from solver.results.simulation import SeatRound, payoffs
from solver.sim.hands import BLACKJACK, LOSE, PUSH, WIN, Codes, Flags, hand_space, totals_with_bonus
from solver.sim.strategies import Strategy, compile_strategy

#: Card code = 4 * rank order + suit index (as in ``Shoe.counts``); value and rank by code.
VALUE_OF = np.array([min(r + 1, 10) for r in range(13) for _ in range(4)], dtype=np.intp)
RANK_OF = np.array([r for r in range(13) for _ in range(4)], dtype=np.intp)


def card_code(card: Card) -> int:
    """The simulator's code of a card with a suit (``4 * rank order + suit index``)."""
    if card.suit is None:
        raise ShoeError(f"card {card} needs a suit: the Bonus wager depends on suits")
    return 4 * card.rank.order + SUITS.index(card.suit)


def shoe_codes(shoe: Shoe) -> npt.NDArray[np.uint8]:
    """Every physical card of a shoe as codes, in rank-and-suit order."""
    if not shoe.suits_known:
        raise ShoeError("the simulator deals physical cards: give every removed card its suit")
    return np.repeat(np.arange(52, dtype=np.uint8), shoe.counts)


class Shoes:
    """One shoe per lane, shuffled lazily: each draw picks a random card still undealt.

    ``rows`` holds every lane's cards back to back; positions below ``next`` are dealt.
    A stacked shoe (no random generator) deals its cards in the order given.  Given
    ``tags`` (a tag per card code), ``running`` keeps each lane's running count of the
    cards dealt since its shuffle.  ``room`` is a number of draws that cannot empty any
    lane's shoe (each draw deals at most one card per lane), so they skip that test.
    """

    def __init__(
        self,
        cards: npt.NDArray[np.uint8],
        lanes: int,
        rng: np.random.Generator | None,
        cut: int | None,
        tags: Codes | None = None,
        buffer: int | None = None,
    ) -> None:
        self.size = len(cards)
        self.rows = np.tile(cards, lanes)
        self.next = np.zeros(lanes, dtype=np.intp)
        self.start = np.zeros(lanes, dtype=np.intp)
        self.rng = rng
        self.cut = cut
        self.tags = tags
        self.running = np.zeros(lanes, dtype=np.intp)
        self.room = 0
        self.buffer = buffer
        self.tray = np.zeros(lanes, dtype=np.intp)
        self.begun = np.zeros(lanes, dtype=np.bool_)

    def begin_round(self, n: int) -> None:
        """Start a round on lanes ``0..n-1``, reshuffling where the shoe is done (idempotent).

        A continuous shuffler (``buffer`` given) instead tops its tray up to ``buffer``
        cards drawn from the cards inside it, then takes the last round's cards back: the
        count restarts from those cards (``start`` then counts them, not a position).
        """
        if self.buffer is not None:
            for lane in range(n):
                self._shuffle_back(lane, self.buffer)
            return
        head = self.next[:n]
        if self.cut is None:
            head[:] = 0
        else:
            head[head >= self.cut] = 0
        self.running[:n][head == 0] = 0
        self.start[:n] = head

    def _shuffle_back(self, lane: int, buffer: int) -> None:
        """A continuous shuffler between rounds on ``lane`` (as the compiled twin's)."""
        k = int(self.next[lane])
        if k == 0 and self.begun[lane]:  # begun already: nothing dealt since
            return
        self.begun[lane] = True
        end = min(k + buffer, self.size)
        row = self.rows[lane * self.size : (lane + 1) * self.size]
        first = max(int(self.tray[lane]), k)
        for at in range(first, end):  # the tray's new cards, drawn from the machine
            there = at if self.rng is None else at + int(self.rng.random() * (self.size - at))
            row[at], row[there] = row[there], row[at]
        if self.tags is not None:
            self.running[lane] = int(self.tags[row[:k]].sum())
        row[:] = np.concatenate((row[k:], row[:k]))  # the round's cards go back in
        self.tray[lane] = end - k
        self.next[lane] = 0
        self.start[lane] = k

    def deal_ahead(self, depths: Codes) -> None:
        """Deal ``depths[lane]`` cards from each lane's shoe before its first round."""
        for k in range(int(depths.max(initial=0))):
            self.draw(np.flatnonzero(depths > k))

    def draw(self, lanes: Codes) -> Codes:
        """Deal the next card of each lane listed (a continuous shuffler's tray first)."""
        at = self.next[lanes]
        if self.room < 1:
            if at.size and at.max() >= self.size:
                self._reshuffle_discards(lanes[at >= self.size])
                at = self.next[lanes]
            self.room = self.size - int(self.next.max(initial=0))
        self.room -= 1
        here = lanes * self.size + at
        if self.rng is None:
            there = here
        elif self.buffer is None:
            there = here + (self.rng.random(lanes.size) * (self.size - at)).astype(np.intp)
        else:
            there = here.copy()
            loose = np.flatnonzero(at >= self.tray[lanes])  # past the tray: a random card
            picks = self.rng.random(loose.size) * (self.size - at[loose])
            there[loose] += picks.astype(np.intp)
        card = self.rows[there]
        self.rows[there] = self.rows[here]
        self.rows[here] = card
        self.next[lanes] = at + 1
        drawn: Codes = card.astype(np.intp)
        if self.tags is not None:
            self.running[lanes] += self.tags[drawn]
        return drawn

    def _reshuffle_discards(self, lanes: Codes) -> None:
        """Shoe empty mid-round: the discards become the new shoe, the table keeps its cards."""
        if self.rng is None:
            raise ShoeError("the stacked cards ran out before the round was over")
        if self.buffer is not None:
            raise ShoeError(
                f"one round used all {self.size} cards of the shoe: use fewer seats or more decks"
            )
        for lane in lanes.tolist():
            start = int(self.start[lane])
            if start == 0:
                raise ShoeError(
                    f"one round used all {self.size} cards of the shoe: use fewer seats or "
                    "more decks"
                )
            row = self.rows[lane * self.size : (lane + 1) * self.size]
            row[:] = np.concatenate((row[start:], row[:start]))
            self.next[lane] = self.size - start
            self.start[lane] = 0
            if self.tags is not None:  # the count restarts from the cards on the table
                self.running[lane] = int(self.tags[row[: self.size - start]].sum())


# ---------------------------------------------------------------------------------------
# One round on many lanes
# ---------------------------------------------------------------------------------------


_CODES = np.repeat(np.arange(52, dtype=np.intp)[:, None], 52, axis=1)


@cache
def bonus_tier_table(tiers: tuple[Tier, ...]) -> Codes:
    """``table[seat card, Bonus card]``: the first of ``tiers`` the two card codes reach.

    Clause 4 read directly: the ranks' distance on the circle the ace closes (an ace is
    within one of both the two and the king), the suits compared, a named rank looked
    for on either card; ``len(tiers)`` codes the wager lost.
    """
    own, bonus = _CODES, _CODES.T
    own_rank, bonus_rank = RANK_OF[own], RANK_OF[bonus]
    apart = np.minimum((own_rank - bonus_rank) % 13, (bonus_rank - own_rank) % 13)
    same_suit = own % 4 == bonus % 4
    outcome = np.full(own.shape, len(tiers), dtype=np.intp)
    for k in reversed(range(len(tiers))):  # the first tier listed is written last, and wins
        tier = tiers[k]
        holds = apart == tier.distance
        if tier.rank is not None:
            holds &= (own_rank == tier.rank) | (bonus_rank == tier.rank)
        if tier.suited is not None:
            holds &= same_suit == tier.suited
        outcome[holds] = k
    outcome.flags.writeable = False
    return outcome


#: ``BONUS_TIER[seat card, Bonus card]``: clause 4's Bonus outcome of every pair of card codes.
BONUS_TIER = bonus_tier_table(BONUS_TIERS)
_FIRST, _BONUS = VALUE_OF[:, None], VALUE_OF[None, :]
#: ``BLACKJACK_PAIR[seat card, Bonus card]``: an ace and a ten-value card (clause 5).
BLACKJACK_PAIR = (_FIRST + _BONUS == 11) & ((_FIRST == 1) | (_BONUS == 1))


@dataclass(frozen=True, slots=True, eq=False)
class Table:
    """Everything a chunk needs to play: rules, strategy array and the starting shoe."""

    rules: Rules
    hit: Flags
    """``hit[bonus value, hand]``: the strategy as a lookup array (False once bust)."""
    draws: Flags
    """``draws[bonus value, hand]``: the dealer draws on (not bust, best total not reached)."""
    natural: Flags
    """``natural[bonus value, hand]``: a dealer hand that is a natural under the rules."""
    dealer_total: Codes
    """``dealer_total[bonus value, hand]``: the dealer's total as the rules count it, 0 if bust."""
    cards: npt.NDArray[np.uint8]
    seats: int
    cut: int | None
    buffer: int | None = None
    """A continuous shuffler's tray (cards), when one deals: then ``cut`` is None."""

    @classmethod
    def make(
        cls,
        rules: Rules,
        strategy: Strategy,
        cards: npt.NDArray[np.uint8],
        seats: int,
        cut: int | None,
        buffer: int | None = None,
    ) -> Table:
        """Compile the strategy, the dealer's stopping rule (clause 7) and its naturals."""
        space = hand_space()
        total = dealer_totals(rules)
        stops = (total >= rules.dealer_stands_on) | (total == 0)
        # Clause 9: a natural is 21 from exactly two cards.  Which pairs count is the
        # dealer_natural reading: two own cards, one own card with the Bonus card, both, neither.
        # A dealer who must use the Bonus card holds it in every hand: two own cards are three.
        must_use = rules.dealer_bonus is DealerBonus.MUST_USE
        two_own = (space.cards == 2) & (space.best[0] == 21) & (not must_use)
        own_and_bonus = (space.cards == 1) & (total == 21)
        natural = np.zeros(stops.shape, dtype=np.bool_)
        if rules.dealer_natural in (DealerNatural.WITH_BONUS, DealerNatural.OWN_CARDS):
            natural |= two_own[None, :]
        if rules.dealer_natural in (DealerNatural.WITH_BONUS, DealerNatural.BONUS_CARD):
            natural |= own_and_bonus
        shoe = tuple(int(n) for n in np.bincount(VALUE_OF[cards], minlength=11)[1:])
        hit = compile_strategy(strategy, shoe)
        return cls(rules, hit, ~stops, natural, total, cards, seats, cut, buffer)


def dealer_totals(rules: Rules) -> Codes:
    """``total[b, hand]``: the dealer's total of own-card hand ``hand``, Bonus card ``b`` (0: bust).

    By default (clause 7) the dealer takes its best total with or without the Bonus card and
    busts only on its own cards.  A dealer who must use the Bonus card (``dealer_bonus
    must_use``) counts it as a standard dealer counts its up card: own cards plus the Bonus
    card, one ace as 11 where that fits, bust over 21.  Row 0 (no Bonus card) is never dealt.
    """
    if rules.dealer_bonus is not DealerBonus.MUST_USE:
        return hand_space().best
    return totals_with_bonus()


#: The natural's strengths (clause 9) as the round's code for each (and the kernels').
BEATS = {NaturalBeats.NOTHING: 0, NaturalBeats.MULTI_CARD_21: 1, NaturalBeats.NON_BLACKJACK: 2}


class RoundTables(NamedTuple):
    """What a round reads of the rules and the strategy, as lookup tables (and the kernels
    take them, flat): card values, Bonus tiers and blackjack pairs by card codes, the hand
    steps, the player's and the dealer's totals, the strategy, the dealer's stopping rule
    and naturals by (Bonus value, hand), the natural's strength (:data:`BEATS`), seats."""

    value_of: Codes
    tier: Codes
    pair: Flags
    step: Codes
    best: Codes
    dealer_best: Codes
    cards_in_21: Codes
    hit: Flags
    draws: Flags
    natural: Flags
    beats: int
    seats: int


def round_tables(table: Table) -> RoundTables:
    """The tables a round under ``table`` reads."""
    space = hand_space()
    return RoundTables(
        VALUE_OF,
        bonus_tier_table(table.rules.paytable.tiers),  # the paytable's tiers (clause 4)
        BLACKJACK_PAIR,
        space.step,
        space.best,
        table.dealer_total,  # the dealer's totals as the rules count them, 0 if bust
        space.cards_in_21,
        table.hit,
        table.draws,
        table.natural,
        BEATS[table.rules.natural_beats],
        table.seats,
    )


#: Cards per deck, for a true count (decks not yet dealt).
CARDS_PER_DECK = 52


def true_counts_of(running: Codes, seen: Codes, left: Codes, drift: int) -> npt.NDArray[np.float64]:
    """Running count, less its expected drift, per deck not yet dealt.

    ``drift`` is the sum of the count's tags over one deck (0 for a balanced count), and
    ``seen`` cards of an average deck add ``drift * seen / 52``, so an unbalanced count
    is read against it.  Integer arithmetic up to one division (correctly rounded, in
    numpy as in the compiled kernel), so a whole true count lands exactly on its step.

    >>> true_counts_of(np.array([-2]), np.array([13]), np.array([39]), 4).tolist()  # as KO
    [-4.0]
    """
    drift_free = CARDS_PER_DECK * running - drift * seen
    counts: npt.NDArray[np.float64] = drift_free / left
    return counts


class IndexPlays(NamedTuple):
    """Seat 1's index plays as data: where the counter's play leaves the strategy.

    ``rule[b, hand]`` is the number of the rule that covers ``hand`` against a Bonus card
    of value ``b`` (-1 where none does); rule ``k`` fires when the true count at the start
    of the round (:func:`true_counts_of` the lane's shoe, with ``drift``) is at least
    ``at[k]`` (``at_least[k]``) or at most it, and then seat 1 hits if ``hit[k]``.
    """

    rule: Codes
    at: npt.NDArray[np.float64]
    at_least: Flags
    hit: Flags
    drift: int

    def hits(
        self,
        default: Flags,
        true_count: npt.NDArray[np.float64],
        lanes: Codes,
        b: Codes,
        hands: Codes,
    ) -> Flags:
        """Seat 1's hit or stand on ``lanes`` (``default``: the strategy's) with these plays."""
        chosen = default.copy()
        k = self.rule[b, hands]
        covered = np.flatnonzero(k >= 0)
        rule, count = k[covered], true_count[lanes[covered]]
        fires = np.where(self.at_least[rule], count >= self.at[rule], count <= self.at[rule])
        on = covered[fires]
        chosen[on] = self.hit[k[on]]
        return chosen


def play_round(
    shoes: Shoes, n: int, table: Table, first: IndexPlays | None = None
) -> tuple[Codes, Codes]:
    """Deal and settle one round on lanes ``0..n-1``: main and Bonus outcome codes per seat.

    It begins the round (:meth:`Shoes.begin_round`); a caller that looks at the shoe
    before the deal, as a counter does, begins it first: beginning twice changes nothing.
    Seat 1 makes the index plays ``first`` where they fire, the table's strategy elsewhere.
    """
    return deal_round(shoes, n, round_tables(table), first)


def deal_round(
    shoes: Shoes, n: int, t: RoundTables, first: IndexPlays | None = None
) -> tuple[Codes, Codes]:
    """:func:`play_round` from the round's tables (the hand space's last hand is bust)."""
    bust = len(t.cards_in_21) - 1
    everyone = np.arange(n, dtype=np.intp)
    shoes.begin_round(n)
    seen = shoes.start[:n]  # seat 1's true count as the round begins, for its index plays
    true_count = (
        np.zeros(0)
        if first is None
        else true_counts_of(shoes.running[:n], seen, shoes.size - seen, first.drift)
    )
    own = np.empty((t.seats, n), dtype=np.intp)  # clause 3
    for seat in range(t.seats):
        own[seat] = shoes.draw(everyone)
    bonus = shoes.draw(everyone)
    bonus_outcome = t.tier[own, bonus[None, :]]  # clause 4
    b = t.value_of[bonus]

    blackjack = t.pair[own, bonus[None, :]]  # clause 5
    hands = t.step[0, t.value_of[own]]
    for seat in range(t.seats):  # clause 6, each seat in turn
        hand = hands[seat]
        drawing = np.flatnonzero(~blackjack[seat])
        while drawing.size:  # a bust hand never hits: it leaves here
            hits = t.hit[b[drawing], hand[drawing]]
            if seat == 0 and first is not None:
                hits = first.hits(hits, true_count, drawing, b[drawing], hand[drawing])
            drawing = drawing[hits]
            if not drawing.size:
                break
            hand[drawing] = t.step[hand[drawing], t.value_of[shoes.draw(drawing)]]
    standing = ~blackjack & (hands != bust)

    dealer = np.zeros(n, dtype=np.intp)  # clause 7: the dealer plays if anyone still stands
    drawing = np.flatnonzero(standing.any(axis=0))
    while drawing.size:
        dealer[drawing] = t.step[dealer[drawing], t.value_of[shoes.draw(drawing)]]
        drawing = drawing[t.draws[b[drawing], dealer[drawing]]]

    dealer_total = t.dealer_best[b, dealer]
    dealer_bust = dealer_total == 0
    natural = t.natural[b, dealer]  # clause 9, as read in Table.make

    player_total = t.best[b[None, :], hands]  # clause 8
    main = np.full(hands.shape, LOSE, dtype=np.intp)
    main[standing & (player_total == dealer_total[None, :])] = PUSH
    # A natural's total is 21: hands below 21 already lose.  The reading of its strength
    # says which player 21s lose to it rather than push.
    if t.beats == BEATS[NaturalBeats.MULTI_CARD_21]:
        beaten = (player_total == 21) & natural[None, :]
        beaten &= t.cards_in_21[hands] >= 3
        main[standing & beaten] = LOSE
    elif t.beats == BEATS[NaturalBeats.NON_BLACKJACK]:
        main[standing & natural[None, :]] = LOSE
    main[standing & ((player_total > dealer_total[None, :]) | dealer_bust[None, :])] = WIN
    main[blackjack] = BLACKJACK
    return main, bonus_outcome


def deal_stacked(
    cards: Sequence[Card], rules: Rules, strategy: Strategy, seats: int = 1
) -> tuple[SeatRound, ...]:
    """Play one round from cards in a known order, to check settlement by hand.

    The order is: one card per seat, the Bonus card, then each seat's draws in turn,
    then the dealer's.  Raises :class:`ShoeError` if the cards run out.

    >>> cards = [Card.parse("As"), Card.parse("Kh")]
    >>> from solver.sim.strategies import StandOn
    >>> [seat.main.value for seat in deal_stacked(cards, Rules(), StandOn(17))]
    ['blackjack']
    """
    codes = np.array([card_code(c) for c in cards], dtype=np.uint8)
    if len(codes) < seats + 1:
        raise ShoeError(f"{len(codes)} stacked cards cannot deal {seats} seat(s) and the Bonus")
    table = Table.make(rules, strategy, codes, seats, None)
    main, bonus = play_round(Shoes(codes, 1, None, None), 1, table)
    return settle(main, bonus, rules)


def settle(main: Codes, bonus: Codes, rules: Rules) -> tuple[SeatRound, ...]:
    """Each seat's outcomes and nets on lane 0 of a round played by :func:`play_round`."""
    main_pay, bonus_pay = payoffs(rules)
    return tuple(
        SeatRound(
            MAIN_OUTCOMES[int(main[s, 0])],
            as_outcome(rules.paytable.outcomes[int(bonus[s, 0])]),
            main_pay[int(main[s, 0])],
            bonus_pay[int(bonus[s, 0])],
            main_pay[int(main[s, 0])] + rules.bonus_ratio * bonus_pay[int(bonus[s, 0])],
        )
        for s in range(main.shape[0])
    )
