"""Own-card hands numbered for the simulator, its totals, outcome codes and payoffs.

Every total here is written from the rule text, not shared with the exact solver."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from solver.model.cards import ValueCounts

Codes = npt.NDArray[np.intp]
Flags = npt.NDArray[np.bool_]

BLACKJACK, WIN, PUSH, LOSE = range(4)  # the order of MAIN_OUTCOMES


# ---------------------------------------------------------------------------------------
# Totals, written here from the rule text (not shared with the exact solver)
# ---------------------------------------------------------------------------------------


def _soft(total: Codes, has_ace: Flags) -> Codes:
    """Count one ace as 11 where that keeps the total within 21."""
    return np.where(has_ace & (total + 10 <= 21), total + 10, total)


def best_totals(hard: Codes, has_ace: Flags) -> Codes:
    """``best[b, i]``: best total of 21 or less of hand ``i``, adding the Bonus card or not.

    ``hard`` and ``has_ace`` are the hands' own cards (every ace as 1; any ace).  Row
    ``b = 0`` is the own cards alone, rows 1 to 10 have a Bonus card of value ``b``; a hand
    whose own cards bust is 0.
    """
    bonus = np.arange(11)[:, None]
    alone = _soft(hard, has_ace)[None, :]
    joined = _soft(hard + bonus, has_ace | (bonus == 1))
    best = np.where((bonus > 0) & (alone < joined) & (joined <= 21), joined, alone)
    best[:, hard > 21] = 0
    return best.astype(np.intp)


def best_total(hand: ValueCounts, bonus: int) -> int:
    """Best total of 21 or less from own cards, adding the Bonus card or not (0 if bust).

    ``bonus`` 0 means the own cards alone.
    """
    space = hand_space()
    return int(space.best[bonus, space.index.get(tuple(hand), space.bust)])


@dataclass(frozen=True, slots=True, eq=False)
class HandSpace:
    """Every own-card composition that has not busted, numbered, with lookup tables.

    Index 0 is the empty hand and the last index, ``bust``, stands for every busted hand.
    ``counts[s]`` is hand ``s`` as an array, ``hard[s]`` its total with every ace as 1;
    ``step[s, v]`` is hand ``s`` after a card of value ``v``; ``best[b, s]`` its best total
    with Bonus card value ``b`` (``b = 0``: own cards alone), 0 for the bust state;
    ``cards_in_21[s]`` how many cards its 21 takes if it has one (clause 9: own cards if
    they make 21 alone, else one more for the Bonus card).  The arrays are read-only.
    """

    hands: tuple[ValueCounts, ...]
    index: Mapping[ValueCounts, int]
    counts: Codes
    hard: Codes
    step: Codes
    cards: Codes
    best: Codes
    cards_in_21: Codes

    @property
    def bust(self) -> int:
        """Index of the bust state."""
        return len(self.hands)


@cache
def hand_space() -> HandSpace:
    """Number every composition of values 1..10 with hard total at most 21."""
    hands: list[ValueCounts] = []

    def walk(value: int, prefix: tuple[int, ...], total: int) -> None:
        if value > 10:
            hands.append(prefix)
            return
        n = 0
        while total + n * value <= 21:
            walk(value + 1, (*prefix, n), total + n * value)
            n += 1

    walk(1, (), 0)
    hands.sort(key=lambda h: (sum(h), h[::-1]))
    index = {h: i for i, h in enumerate(hands)}
    bust = len(hands)
    counts = np.array(hands, dtype=np.intp).reshape(bust, 10)
    hard = counts @ np.arange(1, 11)
    # Each hand as one number (counts stay below 23 even grown, so base 23 digits), to find the hand
    # a card grows it into by a sorted search; a grown hand not found has busted.
    digits = 23 ** np.arange(10, dtype=np.int64)
    keys = counts @ digits
    order = np.argsort(keys)
    grown = keys[:, None] + digits[None, :]
    at = np.minimum(np.searchsorted(keys[order], grown), bust - 1)
    found = keys[order][at] == grown
    step = np.full((bust + 1, 11), bust, dtype=np.intp)
    step[:bust, 1:] = np.where(found, order[at], bust)
    cards = np.append(counts.sum(axis=1), 0)
    best = np.zeros((11, bust + 1), dtype=np.intp)
    best[:, :bust] = best_totals(hard, counts[:, 0] > 0)
    cards_in_21 = cards + (best[0] != 21)
    arrays = (counts, hard, step, cards, best, cards_in_21)
    for array in arrays:
        array.flags.writeable = False
    return HandSpace(tuple(hands), index, *arrays)


@cache
def totals_with_bonus() -> Codes:
    """``total[b, hand]``: own cards plus a Bonus card of value ``b`` always counted, as a
    standard dealer counts its up card (one ace as 11 where that fits); 0 over 21 or bust.

    Row 0 (no Bonus card) is never used.  Read-only.
    """
    space = hand_space()
    bonus = np.arange(11)[:, None]
    hard = np.append(space.hard, 99)[None, :] + bonus  # the bust state stays bust
    soft = np.append(space.counts[:, 0] > 0, False)[None, :] | (bonus == 1)
    counted = np.where(soft & (hard + 10 <= 21), hard + 10, hard)
    total: Codes = np.where(counted <= 21, counted, 0).astype(np.intp)
    total.flags.writeable = False
    return total
