"""The player's hands: every hand reachable in one shoe, its children, and its showdowns.

For one Bonus card and one shoe, every hand the player can hold is listed once as a
composition (:func:`hand_space`), with the hand one card larger for each value drawn and,
against each dealer result, whether standing wins, pushes or loses
(:func:`showdown_classes`).  The passes over them are :mod:`solver.exact.player`'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from solver.exact import kernel
from solver.exact.dealer_hands import BUST, NATURAL, outcome_labels
from solver.model.cards import ValueCounts
from solver.model.errors import HandError
from solver.model.hands import best_total_of, describe_hand, natural_beats_21, own_best
from solver.model.rules import Rules

WIN, PUSH, LOSE = 0, 1, 2

#: A hand's key: its counts in base 22.  Every hand of :func:`all_hands` has a hard total of
#: at most 21, so no count reaches 22; key arithmetic must keep to such hands, or it carries.
RADIX = np.array([22**i for i in range(10)], dtype=np.int64)


@cache
def all_hands() -> npt.NDArray[np.int64]:
    """Every composition of own cards whose hard total is at most 21, sorted by key."""
    # Tens first: each partial hand takes every count of the next value that fits.
    hands = np.zeros((1, 10), dtype=np.int64)
    room = np.array([21], dtype=np.int64)
    for value in range(10, 0, -1):
        choices = room // value + 1
        parent = np.repeat(np.arange(len(hands)), choices)
        count = np.arange(len(parent)) - np.repeat(np.cumsum(choices) - choices, choices)
        hands = hands[parent]
        hands[:, value - 1] = count
        room = room[parent] - count * value
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
        return self.indices([hand])[0]

    def indices(self, hands: Sequence[ValueCounts]) -> list[int]:
        """Positions of ``hands`` in the space, found together; :class:`HandError` for the
        first that is not there."""
        keys = np.array(hands, dtype=np.int64).reshape(-1, 10) @ RADIX
        found = np.searchsorted(self.keys, keys)
        there = found < len(self.keys)
        there[there] = self.keys[found[there]] == keys[there]
        if not there.all():
            hand = tuple(hands[int(there.argmin())])
            raise HandError(f"hand {describe_hand(hand)} cannot be reached from this shoe")
        places: list[int] = found.tolist()
        return places


def hand_space(bonus: int, shoe: ValueCounts, roots: Iterable[ValueCounts]) -> HandSpace:
    """List every hand reachable from ``roots`` by drawing from ``shoe`` without busting.

    A hand is reachable when it contains a root, fits in the shoe and has not busted:
    drawing its extra cards one by one never passes through a busted hand.
    """
    limit, root_array = checked_roots(shoe, roots)
    outputs = space_outputs()
    n = kernel.hand_space(*universe(), limit, root_array, *outputs)
    hands, keys, children, draws, sizes, _ = outputs
    return HandSpace(bonus, shoe, hands[:n], keys[:n], children[:n], draws[:n], sizes[:n])


def checked_roots(
    shoe: ValueCounts, roots: Iterable[ValueCounts]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The shoe and the root hands as the kernels take them (rows of ten counts), checked:
    :class:`HandError` for a root the shoe cannot deal or one that has busted."""
    root_array = np.array(list(roots), dtype=np.int64).reshape(-1, 10)
    limit = np.array(shoe, dtype=np.int64)
    short = (root_array > limit).any(axis=1)
    bad = short | (root_array @ np.arange(1, 11) > 21)
    if bad.any():
        first = int(bad.argmax())
        named = describe_hand(tuple(root_array[first]))
        if bool(short.flat[first]):
            raise HandError(f"hand {named} needs cards the shoe does not hold")
        raise HandError(f"hand {named} has busted: nothing to decide")
    return limit, root_array


Ints = npt.NDArray[np.int64]


def universe() -> tuple[Ints, Ints, Ints, Ints]:
    """Every hand (:func:`all_hands`), its children there, keys and sizes: the kernels'
    universe of hands."""
    keys, sizes = _universe_keys_and_sizes()
    return all_hands(), _children_in_universe(), keys, sizes


@cache
def universe_most() -> Ints:
    """The most cards of each value any hand of :func:`all_hands` holds (read-only)."""
    most: Ints = all_hands().max(axis=0)
    most.flags.writeable = False
    return most


def space_outputs() -> tuple[Ints, Ints, Ints, Ints, Ints, Ints]:
    """Arrays for a hand space found among :func:`universe`: hands, keys, children, draws,
    sizes (the universe's rows) and each universe hand's place (one more)."""
    u = len(all_hands())
    hands, children, draws = (np.empty((u, 10), dtype=np.int64) for _ in range(3))
    keys, sizes = np.empty(u, dtype=np.int64), np.empty(u, dtype=np.int64)
    return hands, keys, children, draws, sizes, np.empty(u + 1, dtype=np.int64)


@cache
def _universe_keys_and_sizes() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The key and the number of cards of every hand of :func:`all_hands`."""
    universe = all_hands()
    return universe @ RADIX, universe.sum(axis=1)


@cache
def _children_in_universe() -> npt.NDArray[np.int64]:
    """``[i, v - 1]``: where hand ``i`` of :func:`all_hands` plus a ``v`` is; the count if bust."""
    universe = all_hands()
    keys = _universe_keys_and_sizes()[0]
    # Only a child whose hard total stays at most 21 is a hand: its digits stay below 22.
    # (Adding a key's digit past 21 would carry: 21 aces plus an ace would read as a two.)
    hard = universe @ np.arange(1, 11)
    fits = hard[:, None] + np.arange(1, 11)[None, :] <= 21
    found = np.searchsorted(keys, keys[:, None] + RADIX[None, :])
    return np.where(fits, found, len(keys))


@cache
def _total_tables(bonus: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """By (hard total, holds an ace): the best total, and whether own cards alone make 21."""
    best = np.array([[best_total_of(h, a, bonus) for a in (False, True)] for h in range(22)])
    own_21 = np.array([[own_best(h, a) == 21 for a in (False, True)] for h in range(22)])
    return best, own_21


#: Codes of the dealer's results in :func:`showdown_tables`' labels (else the total).
LABEL_BUST, LABEL_NATURAL = -1, -2

#: The most cards a hand of :func:`all_hands` holds (21 aces).
MOST_CARDS = 21


ShowdownTables = tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]


@lru_cache(maxsize=64)
def showdown_tables(rules: Rules, bonus: int) -> ShowdownTables:
    """:func:`showdown_classes`' rule as tables, for the kernels' float solve (read-only).

    By (hard total, holds an ace): the best total and whether own cards alone make 21;
    by cards in the 21: whether a dealer natural beats it; by dealer result: its code
    (:data:`LABEL_BUST`, :data:`LABEL_NATURAL`, else the dealer's total).
    """
    best, own_21 = _total_tables(bonus)
    beats = [natural_beats_21(k, rules) for k in range(MOST_CARDS + 2)]
    codes = {BUST: LABEL_BUST, NATURAL: LABEL_NATURAL}
    labels = [codes[label] if label in codes else int(label) for label in outcome_labels(rules)]
    found = tuple(np.array(table, dtype=np.int64) for table in (best, own_21, beats, labels))
    for table in found:
        table.flags.writeable = False
    return found  # type: ignore[return-value]


def showdown_classes(rules: Rules, space: HandSpace) -> npt.NDArray[np.int64]:
    """For each hand standing and each dealer result: ``WIN``, ``PUSH`` or ``LOSE`` (clauses 7-9).

    Totals come from :mod:`solver.model.hands`, tabulated over (hard total, holds an ace).
    """
    best, own_21 = _total_tables(space.bonus)
    hard = space.hands @ np.arange(1, 11)
    ace = (space.hands[:, 0] > 0).astype(np.int64)
    total = best[hard, ace]
    cards_21 = np.where(own_21[hard, ace], space.sizes, space.sizes + 1)
    beats = np.array([natural_beats_21(k, rules) for k in range(int(cards_21.max(initial=0)) + 1)])
    beaten = (total == 21) & beats[cards_21]
    labels = outcome_labels(rules)
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
