"""Player strategies the simulator can play: stand on a total, or a decision table."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from solver.model.cards import ValueCounts
from solver.model.errors import StrategyError
from solver.sim.hands import (
    Flags,
    best_total,
    hand_space,
)


@runtime_checkable
class Strategy(Protocol):
    """A player policy: hit or stand, given the Bonus card's value and the own cards.

    ``hand`` is a composition of the player's own cards by value (``hand[v - 1]`` cards of
    value ``v``, ace = 1); the Bonus card is never part of it.  The simulator asks once per
    possible hand and compiles the answers into a lookup array before dealing.
    """

    @property
    def name(self) -> str:
        """Short name used in output, e.g. ``stand-on:17``."""
        ...

    def hits(self, bonus: int, hand: ValueCounts) -> bool:
        """True to take another card, False to stand."""
        ...


@dataclass(frozen=True, slots=True)
class StandOn:
    """Stand once the best total (own cards, with or without the Bonus card) reaches ``threshold``.

    >>> StandOn(17).hits(bonus=7, hand=(0, 0, 0, 0, 0, 0, 0, 0, 0, 1))
    False
    """

    threshold: int

    def __post_init__(self) -> None:
        if not 0 <= self.threshold <= 22:
            raise StrategyError(
                f"stand-on:{self.threshold} is out of range: use a total from 0 to 22"
            )

    @property
    def name(self) -> str:
        """``stand-on:K``."""
        return f"stand-on:{self.threshold}"

    def hits(self, bonus: int, hand: ValueCounts) -> bool:
        """Hit while the best total is below the threshold."""
        return best_total(hand, bonus) < self.threshold


@dataclass(frozen=True, slots=True)
class NeverBust:
    """Hit only while no card can bust the hand: own cards' hard total 11 or less (not on 21).

    >>> NeverBust().hits(bonus=2, hand=(0, 0, 0, 0, 0, 1, 0, 0, 0, 0))
    True
    """

    @property
    def name(self) -> str:
        """``never-bust``."""
        return "never-bust"

    def hits(self, bonus: int, hand: ValueCounts) -> bool:
        """Hit while a ten cannot bust the own cards, unless they already make 21."""
        hard = sum(value * n for value, n in enumerate(hand, start=1))
        return hard + 10 <= 21 and best_total(hand, bonus) != 21


@dataclass(frozen=True, slots=True)
class MimicDealer:
    """Draw as the dealer does (clause 7): stop once the best total reaches the dealer's threshold.

    >>> MimicDealer(18).hits(bonus=10, hand=(0, 0, 0, 0, 0, 0, 1, 0, 0, 0))
    True
    """

    dealer_stands_on: int

    @property
    def name(self) -> str:
        """``mimic-dealer``."""
        return "mimic-dealer"

    def hits(self, bonus: int, hand: ValueCounts) -> bool:
        """The dealer's own stopping test, applied to the player's cards."""
        return not best_total(hand, bonus) >= self.dealer_stands_on


@dataclass(frozen=True, slots=True)
class AlwaysStand:
    """Stand on the first card, whatever it is."""

    @property
    def name(self) -> str:
        """``always-stand``."""
        return "always-stand"

    def hits(self, bonus: int, hand: ValueCounts) -> bool:
        """Never hit."""
        del bonus, hand
        return False


#: A decision table: (Bonus card value 1..10, own hand composition) -> hit?
DecisionTable = Mapping[tuple[int, ValueCounts], bool]


@dataclass(frozen=True, slots=True)
class TableStrategy:
    """A table-driven policy, e.g. the exact solver's composition-dependent optimum.

    Hands the table does not list are played by ``default``: a fixed answer (``False``:
    stand) or another strategy.
    """

    decisions: DecisionTable
    default: bool | Strategy = False
    label: str = "table"

    @property
    def name(self) -> str:
        """The table's label."""
        return self.label

    def hits(self, bonus: int, hand: ValueCounts) -> bool:
        """Look the hand up; fall back to the default."""
        found = self.decisions.get((bonus, tuple(hand)))
        if found is not None:
            return bool(found)
        if isinstance(self.default, bool):
            return self.default
        return self.default.hits(bonus, hand)

    @classmethod
    def of(cls, strategy: Strategy, label: str | None = None) -> TableStrategy:
        """Tabulate another strategy over every hand that has not busted."""
        hands = hand_space().hands
        decisions = {(b, h): strategy.hits(b, h) for b in range(1, 11) for h in hands if sum(h)}
        return cls(decisions, label=label or f"table({strategy.name})")


#: Strategy names played from a decision table the caller supplies.
TABLE_STRATEGIES = ("optimal", "chart")


def parse_strategy(
    text: str,
    decisions: Callable[[str], DecisionTable] | None = None,
    dealer_stands_on: int | None = None,
) -> Strategy:
    """Build a strategy by name: ``stand-on:K``, ``never-bust``, ``mimic-dealer``, ....

    The others are ``always-stand``, ``optimal`` and ``chart``.
    ``optimal`` and ``chart`` are decision tables from the exact solver, which the caller
    passes in as ``decisions(name)``: the simulator plays them, it never asks the solver.
    ``mimic-dealer`` needs the rules' ``dealer_stands_on``.

    >>> parse_strategy("stand-on:17").name
    'stand-on:17'
    >>> parse_strategy("mimic-dealer", dealer_stands_on=18).hits(10, (0,) * 6 + (1, 0, 0, 0))
    True
    """
    cleaned = text.strip().lower()
    match = re.fullmatch(r"stand-on:(\d+)", cleaned)
    if match:
        return StandOn(int(match.group(1)))
    if cleaned == "never-bust":
        return NeverBust()
    if cleaned == "always-stand":
        return AlwaysStand()
    if cleaned == "mimic-dealer":
        if dealer_stands_on is None:
            raise StrategyError("strategy 'mimic-dealer' needs the dealer's stopping total")
        return MimicDealer(dealer_stands_on)
    if cleaned in TABLE_STRATEGIES:
        if decisions is None:
            raise StrategyError(f"strategy {cleaned!r} needs the exact solver's decision table")
        return TableStrategy(decisions(cleaned), label=cleaned)
    raise StrategyError(
        f"unknown strategy {text!r}: use optimal, chart, stand-on:K (e.g. 17), never-bust, "
        "mimic-dealer or always-stand"
    )


def compile_strategy(strategy: Strategy, shoe: ValueCounts) -> Flags:
    """The strategy as a lookup array ``hit[bonus value, hand index]``.

    Only hands the shoe can deal are asked about; the rest stay False (stand).
    """
    space = hand_space()
    hit = np.zeros((11, space.bust + 1), dtype=np.bool_)
    for i, hand in enumerate(space.hands):
        if sum(hand) and all(n <= left for n, left in zip(hand, shoe, strict=True)):
            for b in range(1, 11):
                if hand[b - 1] < shoe[b - 1]:
                    hit[b, i] = bool(strategy.hits(b, hand))
    return hit
