"""Player strategies the simulator can play: stand on a total, or a decision table."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from solver.model.cards import ValueCounts
from solver.model.chart_file import CHART_PREFIX
from solver.model.checks import shown
from solver.model.errors import StrategyError
from solver.sim.hands import (
    Flags,
    HandSpace,
    best_total,
    hand_space,
    totals_with_bonus,
)


@runtime_checkable
class Strategy(Protocol):
    """A player policy: hit or stand, given the Bonus card's value and the own cards.

    ``hand`` is a composition of the player's own cards by value (``hand[v - 1]`` cards of
    value ``v``, ace = 1); the Bonus card is never part of it.  The simulator asks once per
    possible hand and compiles the answers into a lookup array before dealing (the
    built-in strategies answer for every hand at once, with ``hit_array``).
    """

    @property
    def name(self) -> str:
        """Short name used in output, e.g. ``stand-on:17``."""
        ...

    def hits(self, bonus: int, hand: ValueCounts) -> bool:
        """True to take another card, False to stand."""
        ...


@runtime_checkable
class _Tabulated(Protocol):
    """A strategy that answers for every hand at once (``hit_array``), besides ``hits``."""

    def hit_array(self, space: HandSpace, asked: Flags) -> Flags:
        """``hit[b, i]``: ``hits(b, space.hands[i])`` wherever ``asked[b, i]``."""
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

    def hit_array(self, space: HandSpace, asked: Flags) -> Flags:
        """:meth:`hits` for every hand at once."""
        del asked
        return space.best[:, :-1] < self.threshold


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

    def hit_array(self, space: HandSpace, asked: Flags) -> Flags:
        """:meth:`hits` for every hand at once."""
        del asked
        hit: Flags = (space.hard + 10 <= 21)[None, :] & (space.best[:, :-1] != 21)
        return hit


@dataclass(frozen=True, slots=True)
class MimicDealer:
    """Draw as the dealer does (clause 7): stop once the dealer's total reaches its threshold.

    The dealer's total is its best with or without the Bonus card, or, for a dealer who
    must use the Bonus card (``must_use``), own cards plus the Bonus card always.

    >>> ten_five = (0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
    >>> MimicDealer(18).hits(10, ten_five), MimicDealer(18, must_use=True).hits(10, ten_five)
    (True, False)
    """

    dealer_stands_on: int
    must_use: bool = False

    @property
    def name(self) -> str:
        """``mimic-dealer``."""
        return "mimic-dealer"

    def hits(self, bonus: int, hand: ValueCounts) -> bool:
        """The dealer's own stopping test, applied to the player's cards."""
        if not self.must_use:
            return best_total(hand, bonus) < self.dealer_stands_on
        space = hand_space()
        total = int(totals_with_bonus()[bonus, space.index.get(tuple(hand), space.bust)])
        return 0 < total < self.dealer_stands_on

    def hit_array(self, space: HandSpace, asked: Flags) -> Flags:
        """:meth:`hits` for every hand at once."""
        del asked
        total = totals_with_bonus() if self.must_use else space.best
        hit: Flags = (total[:, :-1] < self.dealer_stands_on) & (
            (total[:, :-1] > 0) | (not self.must_use)
        )
        return hit


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

    def hit_array(self, space: HandSpace, asked: Flags) -> Flags:
        """:meth:`hits` for every hand at once."""
        del space
        return np.zeros_like(asked)


#: A decision table: (Bonus card value 1..10, own hand composition) -> hit?
DecisionTable = Mapping[tuple[int, ValueCounts], bool]


@dataclass(frozen=True, slots=True)
class TableStrategy:
    """A table-driven policy, e.g. the exact solver's composition-dependent optimum.

    Hands the table does not list are played by ``default``: a fixed answer (``False``:
    stand) or another strategy.  The table is copied when the strategy is made, and laid
    out as arrays the first time the simulator compiles it (:meth:`hit_array`), once for
    every simulation that plays the same strategy.
    """

    decisions: DecisionTable
    default: bool | Strategy = False
    label: str = "table"
    _laid_out: list[tuple[tuple[ValueCounts, ...], Flags, Flags]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "decisions", dict(self.decisions))

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

    def hit_array(self, space: HandSpace, asked: Flags) -> Flags:
        """:meth:`hits` wherever asked: the table's answers, the default's elsewhere."""
        if not self._laid_out or self._laid_out[0][0] != space.hands:
            self._laid_out[:] = [(space.hands, *self._lay_out(space))]
        _, table_hit, listed = self._laid_out[0]
        hit = table_hit & asked
        unlisted = asked & ~listed
        if isinstance(self.default, bool):
            hit[unlisted] = self.default
        else:
            hit[unlisted] = _hit_array(self.default, space, unlisted)[unlisted]
        return hit

    def _lay_out(self, space: HandSpace) -> tuple[Flags, Flags]:
        """``hit[b, i]`` and ``listed[b, i]``: the table's answer for Bonus value ``b`` and
        hand ``i`` of ``space`` (``hit_array``'s shape), and whether it has one."""
        hit = np.zeros((11, space.bust), dtype=np.bool_)
        listed = np.zeros_like(hit)
        for (b, hand), found in self.decisions.items():
            i = space.index.get(hand)
            if found is not None and i is not None and b in range(11):
                hit[b, i], listed[b, i] = bool(found), True
        return hit, listed

    @classmethod
    def of(cls, strategy: Strategy, label: str | None = None) -> TableStrategy:
        """Tabulate another strategy over every hand that has not busted."""
        space = hand_space()
        asked = np.ones((11, space.bust), dtype=np.bool_)
        asked[0] = asked[:, 0] = False  # no Bonus value 0; hand 0 is the empty hand
        hit = _hit_array(strategy, space, asked).tolist()
        decisions = {
            (b, h): hit[b][i] for b in range(1, 11) for i, h in enumerate(space.hands) if i
        }
        return cls(decisions, label=label or f"table({strategy.name})")


#: Strategy names played from a decision table the caller supplies.
TABLE_STRATEGIES = ("optimal", "chart")


def parse_strategy(
    text: str,
    decisions: Callable[[str], DecisionTable] | None = None,
    dealer_stands_on: int | None = None,
    dealer_must_use: bool = False,
) -> Strategy:
    """Build a strategy by name: ``stand-on:K``, ``never-bust``, ``mimic-dealer``, ....

    The others are ``always-stand``, ``optimal`` and ``chart``.
    ``optimal``, ``chart`` and ``chart:FILE`` (a chart read from a file) are decision tables
    from the exact solver, which the caller passes in as ``decisions(name)``: the simulator
    plays them, it never asks the solver.
    ``mimic-dealer`` needs the rules' ``dealer_stands_on`` (and whether the dealer must use
    the Bonus card).

    >>> parse_strategy("stand-on:17").name
    'stand-on:17'
    >>> parse_strategy("mimic-dealer", dealer_stands_on=18).hits(10, (0,) * 6 + (1, 0, 0, 0))
    True
    """
    cleaned = text.strip().lower()
    match = re.fullmatch(r"stand-on:(\S*)", cleaned)
    if match:
        threshold = match.group(1)
        if not (threshold.isascii() and threshold.isdigit() and len(threshold) <= 2):
            raise StrategyError(
                f"stand-on:{threshold[:12]} is out of range: use a total from 0 to 22"
            )
        return StandOn(int(threshold))
    if cleaned == "never-bust":
        return NeverBust()
    if cleaned == "always-stand":
        return AlwaysStand()
    if cleaned == "mimic-dealer":
        if dealer_stands_on is None:
            raise StrategyError("strategy 'mimic-dealer' needs the dealer's stopping total")
        return MimicDealer(dealer_stands_on, dealer_must_use)
    if cleaned in TABLE_STRATEGIES or cleaned.startswith(CHART_PREFIX):
        # A chart file's name keeps its case.
        label = cleaned if cleaned in TABLE_STRATEGIES else text.strip()
        if decisions is None:
            raise StrategyError(f"strategy {label!r} needs the exact solver's decision table")
        return TableStrategy(decisions(label), label=label)
    raise StrategyError(
        f"unknown strategy {shown(text)}: use optimal, chart, chart:FILE, stand-on:K (e.g. 17), "
        "never-bust, mimic-dealer or always-stand"
    )


def _hit_array(strategy: Strategy, space: HandSpace, asked: Flags) -> Flags:
    """``hit[b, i]``: the strategy's answer for Bonus value ``b`` and hand ``i`` where asked."""
    if isinstance(strategy, _Tabulated):
        return strategy.hit_array(space, asked)
    hit = np.zeros_like(asked)
    for i, b in np.argwhere(asked.T).tolist():
        hit[b, i] = bool(strategy.hits(b, space.hands[i]))
    return hit


def compile_strategy(strategy: Strategy, shoe: ValueCounts) -> Flags:
    """The strategy as a lookup array ``hit[bonus value, hand index]``.

    Only hands the shoe can deal are asked about; the rest stay False (stand).
    """
    space = hand_space()
    left = np.array(shoe, dtype=np.intp)
    dealable = (space.counts <= left).all(axis=1) & (space.cards[:-1] > 0)
    asked = np.zeros((11, space.bust), dtype=np.bool_)
    asked[1:] = dealable[None, :] & (space.counts < left).T  # the Bonus card's value is left
    hit = np.zeros((11, space.bust + 1), dtype=np.bool_)
    hit[:, :-1] = _hit_array(strategy, space, asked) & asked
    return hit
