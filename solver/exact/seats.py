"""A table of players: the Bonus wager's exact hold per table-round for 1 to 7 seats.

Every seat's Bonus wager is settled against the same Bonus card, and the seats' cards
come from one shoe, so two seats' results are correlated.  Over ``k`` seats the table's
Bonus net has mean ``k E[B]`` and variance ``k Var(B) + k (k - 1) Cov(B_1, B_2)``, both
exact; the covariance of two seats comes from the joint law of (Bonus card, first seat's
card, second seat's card) dealt from one shoe.

On a full shoe the covariance is small and negative: every rank has the same number of
matching cards and exactly two adjacent ranks (the ace touches the 2 and the king), so a
seat's expected result does not depend on which Bonus card is turned, and one seat's
match is a card the other seat can no longer get.

With ``N`` cards, ``n_b`` of type ``b`` and pay ``p(x, b)`` of seat card ``x`` against
Bonus card ``b``, summing the second seat first gives::

    E[B_1 B_2] = sum_b n_b / (N (N-1) (N-2)) * (T_b^2 - sum_x m_x p(x, b)^2)

where ``m_x = n_x - [x = b]`` are the cards left for the seats and
``T_b = sum_x m_x p(x, b)``.  The tests check it against every ordered triple of cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from solver.model.cards import RANKS, SUITS, Card, Shoe
from solver.model.checks import shown, whole_in
from solver.model.errors import ShoeError, SimulationError
from solver.model.outcomes import bonus_outcome, bonus_pay
from solver.model.rules import Rules
from solver.results.seats import TableBonus

MAX_SEATS = 7
SEAT_COUNTS: tuple[int, ...] = tuple(range(1, MAX_SEATS + 1))
CARD_TYPES: tuple[Card, ...] = tuple(Card(rank, suit) for rank in RANKS for suit in SUITS)


def check_seats(seats: int) -> int:
    """A number of seats, 1 to :data:`MAX_SEATS`."""
    if not whole_in(seats, 1, MAX_SEATS):
        raise SimulationError(f"seats {shown(seats)} is out of range: use 1 to {MAX_SEATS}")
    return seats


def parse_seat_counts(text: str) -> tuple[int, ...]:
    """Numbers of seats from text: ``1-7``, ``3``, ``1,2,5`` or ``2-4,7``; each 1 to 7.

    >>> parse_seat_counts("1-3, 7")
    (1, 2, 3, 7)
    """
    counts: list[int] = []
    for item in text.split(","):
        low, dash, high = item.strip().partition("-")
        ends = (low, high) if dash else (low, low)
        if not all(
            e.strip().isascii() and e.strip().isdigit() and len(e.strip()) <= 2 for e in ends
        ):
            raise SimulationError(
                f"seats {shown(text)}: give numbers of seats from 1 to {MAX_SEATS}, "
                "e.g. 1-7, 3 or 1,2,5"
            )
        first, last = (check_seats(int(e)) for e in ends)
        if first > last:
            raise SimulationError(f"seats {item.strip()!r}: the range runs backwards")
        counts.extend(range(first, last + 1))
    return tuple(dict.fromkeys(counts))


@dataclass(frozen=True, slots=True)
class SeatPairMoments:
    """Exact moments of the Bonus net (per unit) of one seat, and of two seats together."""

    mean: Fraction
    variance: Fraction
    covariance: Fraction
    """Covariance of two seats' Bonus nets, through the shared Bonus card and the shoe."""


def bonus_seat_moments(rules: Rules, removed: Iterable[Card] = ()) -> SeatPairMoments:
    """Exact mean, variance and two-seat covariance of the Bonus wager's net per unit."""
    shoe = Shoe.full(rules.decks).remove(tuple(removed))
    if not shoe.suits_known:
        raise ShoeError("the Bonus wager needs the suits of every removed card")
    counts = shoe.counts  # rank-major, as CARD_TYPES
    n = shoe.total
    if n < 3:
        raise ShoeError(f"a shoe of {n} card(s) cannot deal two seats and the Bonus card")
    pay = [
        [
            bonus_pay(rules.paytable, bonus_outcome(seat, bonus, rules.paytable))
            for bonus in CARD_TYPES
        ]
        for seat in CARD_TYPES
    ]
    first = second = cross = Fraction(0)
    for b, n_b in enumerate(counts):
        if n_b == 0:
            continue
        left = [c - (x == b) for x, c in enumerate(counts)]
        total = sum((m * pay[x][b] for x, m in enumerate(left)), Fraction(0))
        squares = sum((m * pay[x][b] ** 2 for x, m in enumerate(left)), Fraction(0))
        first += n_b * total
        second += n_b * squares
        cross += n_b * (total**2 - squares)
    mean = first / (n * (n - 1))
    variance = second / (n * (n - 1)) - mean**2
    joint = cross / (n * (n - 1) * (n - 2))
    return SeatPairMoments(mean, variance, joint - mean**2)


def table_bonus(
    rules: Rules, seats: Iterable[int] = SEAT_COUNTS, removed: Iterable[Card] = ()
) -> tuple[TableBonus, ...]:
    """Exact Bonus hold and variance per table-round for each number of seats.

    Each seat wagers ``rules.bonus_ratio`` on the Bonus; the figures are the casino's
    (the negative of the players' total).
    """
    moments = bonus_seat_moments(rules, removed)
    r = rules.bonus_ratio
    rows = []
    for k in map(check_seats, seats):
        variance = r**2 * (k * moments.variance + k * (k - 1) * moments.covariance)
        rows.append(TableBonus(k, -k * r * moments.mean, variance))
    return tuple(rows)
