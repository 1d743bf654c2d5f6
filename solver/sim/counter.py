"""The simulated card counter: what it counts, how it bets, and its bets played out.

The counter sits at seat 1.  It keeps the running count of every card dealt since the
shuffle (every seat's cards, the Bonus card, the dealer's cards; the simulator burns
none), takes off the count's expected drift (zero for a balanced count) and divides by
the decks not yet dealt to get the true count.  It bets the main wager by true count
through a ramp clamped to its spread, the Bonus wager at the rules' ratio of it, and
below the wong-out true count it sits the round out and watches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver.model.cards import RANKS, SUITS, Card
from solver.model.counts import parse_ramp, parse_spread, parse_true_count, rank_label
from solver.model.rules import Rules
from solver.results.simulation import TRUE_COUNT_BUCKETS, Counter, SeatRound
from solver.sim.deal import (
    RANK_OF,
    IndexPlays,
    Shoes,
    Table,
    card_code,
    play_round,
    settle,
    true_counts_of,
)
from solver.sim.hands import Codes, hand_space
from solver.sim.strategies import Strategy


def true_count_bucket(true_count: npt.NDArray[np.float64]) -> Codes:
    """Index into :data:`TRUE_COUNT_BUCKETS` of each true count (rounded down).

    >>> true_count_bucket(np.array([-30.0, -0.5, 0.0, 1.99, 12.0])).tolist()
    [0, 9, 10, 11, 20]
    """
    low, high = TRUE_COUNT_BUCKETS[0], TRUE_COUNT_BUCKETS[-1]
    bucket: Codes = np.clip(np.floor(true_count), low, high).astype(np.intp) - low
    return bucket


# --- The counter's count and bets, on the simulator's arrays ------------------------------------


def tag_of_code(counter: Counter) -> Codes:
    """The tag of each simulator card code 0..51."""
    by_rank = np.array([counter.tags[rank_label(r)] for r in RANKS], dtype=np.intp)
    tags: Codes = by_rank[RANK_OF]
    return tags


def true_counts(
    counter: Counter, running: Codes, seen: Codes, left: Codes
) -> npt.NDArray[np.float64]:
    """Running count, less its expected drift, per deck not yet dealt.

    The drift is what ``seen`` cards of an average deck would add, so an unbalanced
    count (KO, an ace count) is read against it, as ``cbj count`` reads it; for a
    balanced count it is 0 (:func:`solver.sim.deal.true_counts_of`, the arithmetic the
    kernels read seat 1's index plays by).
    """
    return true_counts_of(running, seen, left, counter.deck_sum)


def bet_units(counter: Counter, true_count: npt.NDArray[np.float64]) -> Codes:
    """The main bet in units at each true count; 0 where the counter sits out."""
    low, high = counter.spread
    thresholds = np.array([t for t, _ in counter.steps], dtype=np.float64)
    ramp_units = np.array([low] + [u for _, u in counter.steps], dtype=np.intp)
    reached = np.searchsorted(thresholds, true_count, side="right")  # 0: below every step
    bet: Codes = np.clip(ramp_units[reached], low, high)
    if counter.wong_out is not None:
        bet[true_count < counter.wong_out] = 0
    return bet


def index_plays(counter: Counter) -> IndexPlays | None:
    """The counter's index plays laid out over the simulator's hands, or None if it plays
    none: each rule covers the hands of its chart cell (soft if they hold an ace that can
    count 11, and their best total of own cards) against its Bonus card."""
    if not counter.indices:
        return None
    space = hand_space()
    soft = (space.counts[:, 0] > 0) & (space.hard + 10 <= 21)
    total = np.where(soft, space.hard + 10, space.hard)
    play = np.full((11, space.bust + 1), -1, dtype=np.intp)  # by Bonus value 1..10, hand
    for k, rule in enumerate(counter.indices):
        members = np.flatnonzero((soft == rule.soft) & (total == rule.total))
        play[rule.bonus, members] = k
    rules = counter.indices
    return IndexPlays(
        play,
        np.array([r.index for r in rules], dtype=np.float64),
        np.array([r.at_least for r in rules], dtype=np.bool_),
        np.array([r.hit for r in rules], dtype=np.bool_),
        counter.deck_sum,
    )


def size_up(counter: Counter, shoes: Shoes, n: int) -> tuple[npt.NDArray[np.float64], Codes]:
    """True count and bet on lanes ``0..n-1`` whose round has begun, before its deal."""
    seen = shoes.start[:n]
    true_count = true_counts(counter, shoes.running[:n], seen, shoes.size - seen)
    return true_count, bet_units(counter, true_count)


#: A counter's bets: spread, ramp (None: the default) and wong-out true count.
Bets = tuple[tuple[int, int], tuple[tuple[float, int], ...] | None, float | None]


def parse_bets(
    spread: str | tuple[int, int] = "1-8",
    ramp: str | Sequence[tuple[float, int]] | None = None,
    wong_out: str | float | None = None,
) -> Bets:
    """A counter's betting options from text (or values), each checked with a clear error.

    >>> parse_bets("2-6", "1:3", "-1")
    ((2, 6), ((1.0, 3),), -1.0)
    """
    spread_units = parse_spread(spread) if isinstance(spread, str) else spread
    steps = parse_ramp(ramp) if isinstance(ramp, str) else None if ramp is None else tuple(ramp)
    out = None if wong_out is None else parse_true_count(wong_out, "wong-out true count")
    return spread_units, steps, out


@dataclass(frozen=True, slots=True)
class CountedRound:
    """One round from a stacked shoe as the counter saw it before the deal, and its deal."""

    running: int
    true_count: float
    units: int
    cards: tuple[Card, ...]
    """The cards this round dealt, in order."""
    seats: tuple[SeatRound, ...]


def _card_of(code: int) -> Card:
    """The card of a simulator code (the inverse of :func:`card_code`)."""
    return Card(RANKS[code // 4], SUITS[code % 4])


def count_stacked(
    cards: Sequence[Card],
    rules: Rules,
    strategy: Strategy,
    counter: Counter,
    rounds: int,
    penetration: float = 1.0,
    seats: int = 1,
) -> tuple[CountedRound, ...]:
    """Play ``rounds`` rounds from cards in a known order, as the simulator counts them.

    The cut card sits after ``penetration`` of the cards; at it the "shuffle" puts the
    stacked order back.  Raises :class:`ShoeError` if the cards run out mid-round.
    """
    codes = np.array([card_code(c) for c in cards], dtype=np.uint8)
    cut = max(1, round(penetration * len(codes)))
    table = Table.make(rules, strategy, codes, seats, cut)
    shoes = Shoes(codes, 1, None, cut, tag_of_code(counter))
    first = index_plays(counter)
    played: list[CountedRound] = []
    for _ in range(rounds):
        shoes.begin_round(1)
        running, start = int(shoes.running[0]), int(shoes.start[0])
        true_count, units = size_up(counter, shoes, 1)
        main, bonus = play_round(shoes, 1, table, first)
        dealt = tuple(_card_of(int(c)) for c in shoes.rows[start : shoes.next[0]])
        played.append(
            CountedRound(
                running, float(true_count[0]), int(units[0]), dealt, settle(main, bonus, rules)
            )
        )
    return tuple(played)
