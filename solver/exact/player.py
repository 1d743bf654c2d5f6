"""The player's optimal hit/stand play for every hand, by backward induction.

For one Bonus card and one shoe (the cards left once the Bonus card and any seen cards
are out), every hand the player can hold is listed once as a composition.  The dealer's
distribution is priced for all of them in one batch (:mod:`solver.exact.dealer`); then, from
the largest hands down, each hand's value is the better of standing and hitting, where
hitting averages the values of the hands one card larger.

Two arithmetics: floats (numpy, vectorised over hands of the same size), and exact
integers.  In the exact pass every value at a hand of ``m`` cards is an integer over the
common denominator ``D(m) = padded_falling(N - m, T - m)`` (``N`` cards in the shoe,
``T`` = the largest hand plus the dealer's deepest hand), so that ``D(m) = (N - m) D(m+1)``:
a hit is a plain integer sum and a decision a plain integer comparison.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from solver.exact.dealer import (
    BUST,
    NATURAL,
    dealer_probabilities,
    dealer_tree,
    exact_dealer,
    padded_falling,
)
from solver.model.cards import ValueCounts
from solver.model.errors import HandError
from solver.model.hands import best_total_of, describe_hand, natural_beats_21, own_best
from solver.model.rules import Rules

WIN, PUSH, LOSE = 0, 1, 2
#: Float values of standing and hitting closer than this are re-decided exactly.
TIE_TOLERANCE = 1e-9


RADIX = np.array([22**i for i in range(10)], dtype=np.int64)  # a hand's key: counts in base 22


@cache
def all_hands() -> npt.NDArray[np.int64]:
    """Every composition of own cards whose hard total is at most 21, sorted by key."""
    found: list[tuple[int, ...]] = []

    def extend(value: int, room: int, counts: list[int]) -> None:
        if value == 0:
            found.append(tuple(counts))
            return
        for k in range(room // value + 1):
            counts[value - 1] = k
            extend(value - 1, room - k * value, counts)
        counts[value - 1] = 0

    extend(10, 21, [0] * 10)
    hands = np.array(found, dtype=np.int64)
    return hands[np.argsort(hands @ RADIX)]


@dataclass(frozen=True, slots=True)
class HandSpace:
    """Every non-busted hand reachable by hitting from some root hands, one shoe, one Bonus card.

    ``children[i, v - 1]`` is the index of hand ``i`` plus a card of value ``v``, or
    ``len(hands)`` when that card busts the hand or none is left; ``draws[i, v - 1]`` is
    how many cards of value ``v`` the shoe still holds once hand ``i`` is out.
    """

    bonus: int
    shoe: ValueCounts
    hands: npt.NDArray[np.int64]
    keys: npt.NDArray[np.int64]
    children: npt.NDArray[np.int64]
    draws: npt.NDArray[np.int64]
    sizes: npt.NDArray[np.int64]

    def index(self, hand: ValueCounts) -> int:
        """Position of ``hand`` in the space; :class:`HandError` if it is not there."""
        key = int(np.array(hand, dtype=np.int64) @ RADIX)
        i = int(np.searchsorted(self.keys, key))
        if i == len(self.keys) or self.keys[i] != key:
            raise HandError(f"hand {describe_hand(hand)} cannot be reached from this shoe")
        return i


def hand_space(bonus: int, shoe: ValueCounts, roots: Iterable[ValueCounts]) -> HandSpace:
    """List every hand reachable from ``roots`` by drawing from ``shoe`` without busting.

    A hand is reachable when it contains a root, fits in the shoe and has not busted:
    drawing its extra cards one by one never passes through a busted hand.
    """
    root_array = np.array(list(roots), dtype=np.int64).reshape(-1, 10)
    limit = np.array(shoe, dtype=np.int64)
    for root in root_array:
        if (root > limit).any():
            raise HandError(f"hand {describe_hand(tuple(root))} needs cards the shoe does not hold")
        if int(root @ np.arange(1, 11)) > 21:
            raise HandError(f"hand {describe_hand(tuple(root))} has busted: nothing to decide")
    universe = all_hands()
    fits = (universe <= limit).all(axis=1)
    contains = np.zeros(len(universe), dtype=bool)
    for root in root_array:
        contains |= (universe >= root).all(axis=1)
    hands = universe[fits & contains]
    keys = hands @ RADIX
    n = len(hands)
    child_keys = keys[:, None] + RADIX[None, :]
    found = np.searchsorted(keys, child_keys)
    clipped = np.minimum(found, max(n - 1, 0))
    present = (found < n) & (keys[clipped] == child_keys) if n else found < 0
    children = np.where(present, found, n)
    draws = limit[None, :] - hands
    return HandSpace(bonus, shoe, hands, keys, children, draws, hands.sum(axis=1))


def showdown_classes(rules: Rules, space: HandSpace) -> npt.NDArray[np.int64]:
    """For each hand standing and each dealer result: ``WIN``, ``PUSH`` or ``LOSE`` (clauses 7-9).

    Totals come from :mod:`solver.model.hands`, tabulated over (hard total, holds an ace).
    """
    bonus = space.bonus
    best = np.array([[best_total_of(h, a, bonus) for a in (False, True)] for h in range(22)])
    own_21 = np.array([[own_best(h, a) == 21 for a in (False, True)] for h in range(22)])
    hard = space.hands @ np.arange(1, 11)
    ace = (space.hands[:, 0] > 0).astype(np.int64)
    total = best[hard, ace]
    cards_21 = np.where(own_21[hard, ace], space.sizes, space.sizes + 1)
    beats = np.array([natural_beats_21(k, rules) for k in range(int(cards_21.max(initial=0)) + 1)])
    beaten = (total == 21) & beats[cards_21]
    labels = dealer_tree(rules, bonus).labels
    classes = np.empty((len(space.hands), len(labels)), dtype=np.int64)
    for j, label in enumerate(labels):
        if label == BUST:
            classes[:, j] = WIN
        elif label == NATURAL:
            classes[:, j] = np.where((total < 21) | beaten, LOSE, PUSH)
        else:
            dealer = int(label)
            classes[:, j] = np.where(total > dealer, WIN, np.where(total == dealer, PUSH, LOSE))
    return classes


Number = Fraction | float


@dataclass(frozen=True, slots=True)
class PlayerSolution:
    """Optimal play for every hand of a :class:`HandSpace`, with its values.

    ``stand`` and ``hit`` are expected values of the main wager; ``hitting`` says whether
    optimal play draws (ties stand); ``outcomes`` are the probabilities of (win, push,
    lose) when the hand is played on optimally.  Values are exact fractions when solved
    exactly, floats otherwise.
    """

    rules: Rules
    space: HandSpace
    stand: tuple[Number, ...]
    hit: tuple[Number, ...]
    hitting: tuple[bool, ...]
    outcomes: tuple[tuple[Number, Number, Number], ...]

    def hits(self, hand: ValueCounts) -> bool:
        """Whether optimal play draws a card to ``hand`` (ties stand)."""
        return self.hitting[self.space.index(hand)]

    def near_tie(self, tolerance: float = TIE_TOLERANCE) -> bool:
        """Whether standing and hitting are within ``tolerance`` for some hand."""
        return any(
            abs(float(h) - float(s)) < tolerance for h, s in zip(self.hit, self.stand, strict=True)
        )

    def to_float(self) -> PlayerSolution:
        """The same solution with every value as a float (decisions kept as solved)."""
        return PlayerSolution(
            self.rules,
            self.space,
            tuple(float(v) for v in self.stand),
            tuple(float(v) for v in self.hit),
            self.hitting,
            tuple((float(w), float(p), float(lose)) for w, p, lose in self.outcomes),
        )

    def value(self, hand: ValueCounts) -> Number:
        """Expected value of the main wager from ``hand`` with optimal play."""
        i = self.space.index(hand)
        return max(self.stand[i], self.hit[i])


def solve_float(rules: Rules, space: HandSpace) -> PlayerSolution:
    """Optimal play with float arithmetic, vectorised over hands of equal size."""
    n = len(space.hands)
    dealer = dealer_probabilities(rules, space.bonus, space.draws)
    classes = showdown_classes(rules, space)
    stand_vec = np.stack([(dealer * (classes == k)).sum(axis=1) for k in (WIN, PUSH, LOSE)], 1)
    stand = stand_vec[:, WIN] - stand_vec[:, LOSE]
    hit = np.zeros(n)
    hitting = np.zeros(n, dtype=bool)
    played = np.zeros((n + 1, 3))
    played[n] = (0.0, 0.0, 1.0)  # the busted hand
    value = np.zeros(n + 1)
    value[n] = -1.0
    left = sum(space.shoe) - space.sizes
    for size in range(int(space.sizes.max()), 0, -1):
        rows = np.flatnonzero(space.sizes == size)
        weights = space.draws[rows] / np.maximum(left[rows], 1)[:, None]
        kids = space.children[rows]
        hit[rows] = (weights * value[kids]).sum(axis=1)
        hit_vec = np.einsum("rv,rvk->rk", weights, played[kids])
        hitting[rows] = hit[rows] > stand[rows]
        value[rows] = np.where(hitting[rows], hit[rows], stand[rows])
        played[rows] = np.where(hitting[rows, None], hit_vec, stand_vec[rows])
    return PlayerSolution(
        rules,
        space,
        tuple(stand.tolist()),
        tuple(hit.tolist()),
        tuple(hitting.tolist()),
        tuple(tuple(row) for row in played[:n].tolist()),
    )


def solve_exact(rules: Rules, space: HandSpace) -> PlayerSolution:
    """Optimal play in exact integer arithmetic (see the module docstring)."""
    n = len(space.hands)
    total = sum(space.shoe)
    dealer = exact_dealer(rules, space.bonus, space.draws)
    depth = dealer_tree(rules, space.bonus).depth
    classes = showdown_classes(rules, space).tolist()
    top = int(space.sizes.max()) + depth
    denominator = [padded_falling(total - m, top - m) for m in range(top + 1)]
    # Numerators over denominator[size] of (win, push, lose) standing and played on.
    stand_vec: list[tuple[int, int, int]] = []
    for i in range(n):
        m = int(space.sizes[i])
        lift = padded_falling(total - m - depth, top - m - depth)
        sums = [0, 0, 0]
        for count, k in zip(dealer.counts[i], classes[i], strict=True):
            sums[k] += count
        stand_vec.append((sums[0] * lift, sums[1] * lift, sums[2] * lift))
    played: list[tuple[int, int, int]] = [(0, 0, 0)] * n
    hitting = [False] * n
    hit_vec: list[tuple[int, int, int]] = [(0, 0, 0)] * n
    draws = space.draws.tolist()
    children = space.children.tolist()
    sizes = space.sizes.tolist()
    for i in sorted(range(n), key=lambda i: -sizes[i]):
        w = p = lose = 0
        for count, child in zip(draws[i], children[i], strict=True):
            if count == 0:
                continue
            if child == n:
                lose += count * denominator[sizes[i] + 1]
            else:
                cw, cp, cl = played[child]
                w, p, lose = w + count * cw, p + count * cp, lose + count * cl
        hit_vec[i] = (w, p, lose)
        chosen = stand_vec[i]
        if w - lose > chosen[0] - chosen[2]:
            chosen = hit_vec[i]
            hitting[i] = True
        played[i] = chosen
    stand: list[Number] = []
    hit: list[Number] = []
    outcomes: list[tuple[Number, Number, Number]] = []
    for i in range(n):
        d = denominator[int(space.sizes[i])]
        sw, _, sl = stand_vec[i]
        stand.append(Fraction(sw - sl, d))
        hw, _, hl = hit_vec[i]
        hit.append(Fraction(hw - hl, d))
        pw, pp, pl = played[i]
        outcomes.append((Fraction(pw, d), Fraction(pp, d), Fraction(pl, d)))
    return PlayerSolution(rules, space, tuple(stand), tuple(hit), tuple(hitting), tuple(outcomes))


def solve_player(
    rules: Rules, bonus: int, shoe: ValueCounts, roots: Iterable[ValueCounts], exact: bool = False
) -> PlayerSolution:
    """Optimal play for every hand reachable from ``roots`` (cards by value, Bonus card out)."""
    space = hand_space(bonus, shoe, roots)
    return solve_exact(rules, space) if exact else solve_float(rules, space)
