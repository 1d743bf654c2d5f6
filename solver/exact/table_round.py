"""A table-round as the casino books it: ``K`` seats sharing the dealer and the Bonus card,
each seat played by a strategy drawn from a mix with shares (``cbj hold --seats K --mix``).

Seats at one table are settled against one Bonus card and one dealer's hand, so their
results move together and a table's result varies more than ``K`` independent rounds.
The table-round's distribution here keeps both shared cards exactly and treats the seats'
own cards as drawn independently given them:

* the Bonus card ``b`` (a physical card, rank and suit) is dealt from the full shoe;
* the dealer's final result ``j`` (bust, a total, a natural) follows ``q(j | b)``, the law of
  the dealer's result against a standing seat, mixed over the strategies' shares;
* given ``b`` and ``j`` each seat is independent: its own card ``x`` from the shoe less
  ``b`` (the Bonus wager's tier is read off ``x`` and ``b``), its main wager played on by
  its strategy, and its main outcome read off its total against ``j``.  A seat's joint law
  of (main outcome, dealer's result) comes from one exact walk of its strategy over every
  hand, the dealer's result priced for each standing hand from the cards left after it
  (:func:`seat_law`); dividing it by ``q(j | b)`` gives its law given ``j``.

For one seat the construction gives back the round's exact distribution under the strategy
(the tests check it, point by point, against :func:`solver.exact.strategies.realistic_play`);
its mean is ``K`` times one seat's exactly, for any ``K``.  What it leaves out is the removal
of one seat's cards from another's shoe, an effect of order one card in the shoe's size on
each seat's law (``docs/protection.md`` sets the 5-seat SD beside ``cbj seats``' simulation).
The walk is in floats (agreeing with the exact walk to 1e-12), so the table-round is a float
:class:`~solver.results.session.RoundTable` on the round's lattice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from solver.exact.dealer import dealer_probabilities
from solver.exact.lattice import lattice_step
from solver.exact.player_hands import hand_space, showdown_classes
from solver.exact.seats import CARD_TYPES, check_seats
from solver.model.cards import VALUES, Shoe, ValueCounts
from solver.model.hands import hand_of, is_player_blackjack
from solver.model.outcomes import bonus_outcome, bonus_pay, main_payoffs
from solver.model.rules import Rules
from solver.results.session import RoundTable

Floats = npt.NDArray[np.float64]
#: A policy: hit (True) or stand for a Bonus card value and the own cards.
Policy = Callable[[int, ValueCounts], bool]
#: The main outcomes a standing hand ends in, in the walk's order.
STANDING = ("win", "push", "loss")


@dataclass(frozen=True, slots=True)
class SeatLaw:
    """One strategy's seat against each Bonus card value ``c``, from a full shoe.

    ``stand[c][p - 1, j, k]`` is the probability, once a first card of value ``p`` and the
    Bonus card are dealt (no blackjack), that the hand stands, the dealer ends in result
    ``j`` (columns of :func:`~solver.exact.dealer_hands.outcome_labels`) and the main wager
    ends ``STANDING[k]``; ``bust[c][p - 1]`` that the hand busts.
    """

    stand: dict[int, Floats]
    bust: dict[int, Floats]


def seat_law(rules: Rules, policy: Policy) -> SeatLaw:
    """The joint law of each starting hand's main outcome and the dealer's result, played
    by ``policy`` from a full shoe (one walk over every hand per Bonus card value)."""
    counts = Shoe.full(rules.decks).value_counts()
    stand: dict[int, Floats] = {}
    bust: dict[int, Floats] = {}
    for c in VALUES:
        base = tuple(n - (v == c) for v, n in enumerate(counts, start=1))
        stand[c], bust[c] = _walk(rules, c, base, policy)
    return SeatLaw(stand, bust)


def _walk(rules: Rules, c: int, base: ValueCounts, policy: Policy) -> tuple[Floats, Floats]:
    """:class:`SeatLaw`'s two arrays for Bonus card value ``c`` (``base``: the shoe less it)."""
    roots = [hand_of([p]) for p in VALUES if base[p - 1] > 0]
    space = hand_space(c, base, roots)
    n = len(space.hands)
    dealer = dealer_probabilities(rules, c, space.draws)
    classes = showdown_classes(rules, space)
    ends = dealer.shape[1]
    can_draw = space.draws.sum(axis=1) > 0
    hits = np.fromiter((policy(c, tuple(h)) for h in space.hands.tolist()), bool, n) & can_draw
    joint = np.zeros((n + 1, ends, 3))  # the last row: a busted hand
    busts = np.zeros(n + 1)
    busts[n] = 1.0
    standing = np.flatnonzero(~hits)
    joint[standing[:, None], np.arange(ends)[None, :], classes[standing]] = dealer[standing]
    left = sum(space.shoe)
    for size in range(int(space.sizes.max()), 0, -1):
        rows = np.flatnonzero((space.sizes == size) & hits)
        if not len(rows):
            continue
        share = space.draws[rows] / (left - size)
        children = space.children[rows]
        joint[rows] = np.einsum("rv,rvjk->rjk", share, joint[children])
        busts[rows] = (share * busts[children]).sum(axis=1)
    stand = np.zeros((len(VALUES), ends, 3))
    bust = np.zeros(len(VALUES))
    for p in VALUES:
        if base[p - 1] > 0 and not is_player_blackjack(p, c):
            i = space.index(hand_of([p]))
            stand[p - 1], bust[p - 1] = joint[i], busts[i]
    return stand, bust


def _seat_nets(rules: Rules) -> tuple[Fraction, list[Fraction]]:
    """The lattice step of a seat's nets and every net a seat can end on."""
    pays = main_payoffs(rules)
    tiers = [bonus_pay(rules.paytable, o) for o in rules.paytable.outcomes]
    nets = sorted({pays[k] + rules.bonus_ratio * t for k in pays for t in tiers})
    return lattice_step(nets), nets


def table_round(
    rules: Rules, players: Sequence[tuple[Fraction, SeatLaw]], seats: int
) -> RoundTable:
    """The casino's view of one table-round's net (the players' total) as a float table:
    ``seats`` seats, each played by a strategy drawn from ``players`` (share, law), sharing
    the dealer's result and the Bonus card (see the module's docstring).

    One seat of one strategy gives back the exact round of that strategy.
    """
    check_seats(seats)
    step, nets = _seat_nets(rules)
    lowest = int(nets[0] / step)
    width = int(nets[-1] / step) - lowest + 1
    pays = main_payoffs(rules)
    shoe = Shoe.full(rules.decks)
    counts = shoe.counts  # rank-major, as CARD_TYPES
    total = shoe.total
    shares = [float(share) for share, _ in players]
    table = np.zeros(seats * (width - 1) + 1)
    place = {net: int(net / step) - lowest for net in nets}
    for b, n_b in enumerate(counts):
        if not n_b:
            continue
        bonus = CARD_TYPES[b]
        c = bonus.points
        # Each own card's weight, grouped by (value, the Bonus wager's net).
        by_value: dict[tuple[int, Fraction], float] = {}
        for x, n_x in enumerate(counts):
            m = n_x - (x == b)
            if m:
                card = CARD_TYPES[x]
                net = rules.bonus_ratio * bonus_pay(
                    rules.paytable, bonus_outcome(card, bonus, rules.paytable)
                )
                key = (card.points, net)
                by_value[key] = by_value.get(key, 0.0) + m / (total - 1)
        value_weight = np.zeros(len(VALUES))
        for (v, _), w in by_value.items():
            value_weight[v - 1] += w
        stand = np.zeros_like(players[0][1].stand[c])
        bust = np.zeros(len(VALUES))
        for share, (_, law) in zip(shares, players, strict=True):
            stand += share * law.stand[c]
            bust += share * law.bust[c]
        dealer = np.einsum("p,pjk->j", value_weight, stand)  # P(stand, dealer ends j)
        standing = float(dealer.sum())
        results = [(j, float(dealer[j]) / standing) for j in range(len(dealer)) if dealer[j] > 0]
        if not results:  # no seat ever stands: the dealer's result is never asked
            results = [(0, 1.0)]
        for j, q in results:
            seat = np.zeros(width)
            for (v, bonus_net), w in by_value.items():
                if is_player_blackjack(v, c):
                    seat[place[pays["blackjack"] + bonus_net]] += w
                    continue
                for k, name in enumerate(STANDING):
                    mass = stand[v - 1, j, k] / q if standing > 0 else 0.0
                    seat[place[pays[name] + bonus_net]] += w * mass
                seat[place[pays["loss"] + bonus_net]] += w * bust[v - 1]
            table += (n_b / total) * q * _power(seat, seats)
    return RoundTable(step, lowest * seats, tuple(table.tolist()), 1, False)


def _power(seat: Floats, seats: int) -> Floats:
    """``seat`` convolved with itself ``seats`` times (one seat: itself)."""
    out = seat
    for _ in range(seats - 1):
        out = np.convolve(out, seat)
    return out
