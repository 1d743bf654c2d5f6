"""Own-card hands numbered for the simulator, its totals, outcome codes and payoffs.

Every total here is written from the rule text, not shared with the exact solver."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from solver.model.cards import ValueCounts
from solver.model.outcomes import (
    BONUS_OUTCOMES,
    MAIN_OUTCOMES,
    bonus_pay,
    main_payoffs,
)
from solver.model.rules import Rules

Codes = npt.NDArray[np.intp]
Flags = npt.NDArray[np.bool_]

BLACKJACK, WIN, PUSH, LOSE = range(4)  # the order of MAIN_OUTCOMES
SUITED_MATCH, RANK_MATCH, ADJACENT, BONUS_LOSE = range(4)  # the order of BONUS_OUTCOMES


class Wager(StrEnum):
    """The figures a simulation estimates per seat and round."""

    MAIN = "main"
    BONUS = "bonus"
    ROUND = "round"
    """Main net plus ``bonus_ratio`` times Bonus net."""


# ---------------------------------------------------------------------------------------
# Totals, written here from the rule text (not shared with the exact solver)
# ---------------------------------------------------------------------------------------


def _hard(hand: ValueCounts) -> int:
    """Total of own cards with every ace as 1."""
    return sum(value * n for value, n in enumerate(hand, start=1))


def _soft(total: int, has_ace: bool) -> int:
    """Count one ace as 11 when that keeps the total within 21."""
    return total + 10 if has_ace and total + 10 <= 21 else total


def best_total(hand: ValueCounts, bonus: int) -> int:
    """Best total of 21 or less from own cards, adding the Bonus card or not (0 if bust).

    ``bonus`` 0 means the own cards alone.
    """
    hard = _hard(hand)
    if hard > 21:
        return 0
    alone = _soft(hard, hand[0] > 0)
    if bonus == 0:
        return alone
    joined = _soft(hard + bonus, hand[0] > 0 or bonus == 1)
    return joined if alone < joined <= 21 else alone


@dataclass(frozen=True, slots=True, eq=False)
class HandSpace:
    """Every own-card composition that has not busted, numbered, with lookup tables.

    Index 0 is the empty hand and the last index, ``bust``, stands for every busted hand.
    ``step[s, v]`` is hand ``s`` after a card of value ``v``; ``best[b, s]`` its best total
    with Bonus card value ``b`` (``b = 0``: own cards alone), 0 for the bust state;
    ``cards_in_21[s]`` how many cards its 21 takes if it has one (clause 9: own cards if
    they make 21 alone, else one more for the Bonus card).
    """

    hands: tuple[ValueCounts, ...]
    index: Mapping[ValueCounts, int]
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
    step = np.full((bust + 1, 11), bust, dtype=np.intp)
    for i, hand in enumerate(hands):
        for value in range(1, 11):
            grown = (*hand[: value - 1], hand[value - 1] + 1, *hand[value:])
            step[i, value] = index.get(grown, bust)
    cards = np.array([sum(h) for h in hands] + [0], dtype=np.intp)
    best = np.zeros((11, bust + 1), dtype=np.intp)
    for b in range(11):
        for i, hand in enumerate(hands):
            best[b, i] = best_total(hand, b)
    cards_in_21 = cards + (best[0] != 21)
    return HandSpace(tuple(hands), index, step, cards, best, cards_in_21)


def payoffs(rules: Rules) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """Net result per unit of each main outcome and each Bonus outcome, in code order."""
    main = main_payoffs(rules)
    return (
        tuple(main[o] for o in MAIN_OUTCOMES),
        tuple(bonus_pay(rules.paytable, o) for o in BONUS_OUTCOMES),
    )
