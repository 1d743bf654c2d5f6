"""The dealer's hands: its tree of drawing states and its final hands, built once per rules.

The dealer's drawing rule depends only on its own cards and the Bonus card, never on the
shoe, so the tree of every dealer hand it can pass through (:func:`dealer_tree`) and the list
of its final hands ready to price by card value (:func:`dealer_ends`) are built once per
(rules, Bonus card) and then priced against any number of shoes together
(:mod:`solver.exact.dealer`).  States are the dealer's own cards as a composition, level by
level (level ``L`` = ``L`` cards drawn).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache, wraps
from itertools import accumulate
from typing import Concatenate, NamedTuple, ParamSpec, TypeVar

import numpy as np
import numpy.typing as npt

from solver.exact import kernel
from solver.model.cards import ValueCounts
from solver.model.hands import (
    add_card,
    best_total_of,
    dealer_natural_at,
    dealer_stops_at,
    with_bonus_best,
)
from solver.model.rule_table import DEALER_RULE_NAMES
from solver.model.rules import DealerBonus, DealerNatural, Rules

BUST = "bust"
NATURAL = "natural"

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
P = ParamSpec("P")
R = TypeVar("R")


@lru_cache(maxsize=256)
def dealer_rules(rules: Rules) -> Rules:
    """``rules`` with every rule the dealer's play does not read at its default.

    The rule table flags the rules the dealer's play reads (its threshold and naturals,
    clauses 7 and 9), so games that differ in decks, payouts or the player's clauses
    share one set of the dealer's structures.
    """
    return Rules(**{name: getattr(rules, name) for name in DEALER_RULE_NAMES})


def _per_dealer_rules(
    maxsize: int | None = None,
) -> Callable[[Callable[Concatenate[Rules, P], R]], Callable[Concatenate[Rules, P], R]]:
    """Cache a function of the rules once per :func:`dealer_rules` (``maxsize`` calls kept)."""

    def decorate(
        function: Callable[Concatenate[Rules, P], R],
    ) -> Callable[Concatenate[Rules, P], R]:
        cached = lru_cache(maxsize=maxsize)(function)

        @wraps(function)
        def call(rules: Rules, /, *args: P.args, **kwargs: P.kwargs) -> R:
            return cached(dealer_rules(rules), *args, **kwargs)  # type: ignore[arg-type]

        return call

    return decorate


def outcome_labels(rules: Rules) -> tuple[str, ...]:
    """Dealer results in order: ``bust``, each total from the threshold to 21, ``natural``."""
    return (BUST, *(str(t) for t in range(rules.dealer_stands_on, 22)), NATURAL)


class Level(NamedTuple):
    """Transitions out of the dealer states holding the same number of cards.

    Columns (one per non-busting draw) are sorted by target so that ``np.add.reduceat``
    at ``starts`` sums each target's incoming mass: first the ``n_next`` states of the
    next level, then one group per final result named in ``results``.
    """

    parents: IntArray
    values: IntArray
    drawn: IntArray
    starts: IntArray
    n_next: int
    results: IntArray


class DealerTree(NamedTuple):
    """Every dealer hand the drawing rule can pass through, for one Bonus card."""

    bonus: int
    labels: tuple[str, ...]
    levels: tuple[Level, ...]

    @property
    def depth(self) -> int:
        """Most cards the dealer can ever draw."""
        return len(self.levels)


def _final(rules: Rules, bonus: int, hard: int, has_ace: bool, cards: int) -> int | None:
    """Index of the final result of a dealer hand with this summary, or None while it draws."""
    if rules.dealer_bonus is DealerBonus.MUST_USE:
        return _final_using_bonus(rules, bonus, hard, has_ace, cards)
    if not dealer_stops_at(hard, has_ace, cards, bonus, rules):
        return None
    # Positions in outcome_labels(rules): bust, the totals from the threshold up, natural.
    if hard > 21:
        return 0
    if dealer_natural_at(hard, has_ace, cards, bonus, rules):
        return 23 - rules.dealer_stands_on
    return 1 + best_total_of(hard, has_ace, bonus) - rules.dealer_stands_on


#: Readings of clause 9 under which one own card plus the Bonus card making 21 are a natural.
_BONUS_PAIR_NATURAL = (DealerNatural.WITH_BONUS, DealerNatural.BONUS_CARD)


def _final_using_bonus(
    rules: Rules, bonus: int, hard: int, has_ace: bool, cards: int
) -> int | None:
    """:func:`_final` for a dealer who must count the Bonus card (``dealer_bonus must_use``).

    The Bonus card is the dealer's up card: every total is own cards plus it (an ace as 11
    where that fits), over 21 is bust, and a natural is the first own card making 21 with it
    (two own cards and the Bonus card are three cards, so no other hand is a natural).
    """
    if cards == 0:
        return None  # the dealer always draws at least one card (clause 7)
    total = with_bonus_best(hard, has_ace, bonus)
    if total > 21:
        return 0
    if total < rules.dealer_stands_on:
        return None
    if cards == 1 and total == 21 and rules.dealer_natural in _BONUS_PAIR_NATURAL:
        return 23 - rules.dealer_stands_on
    return 1 + total - rules.dealer_stands_on


@_per_dealer_rules()
def dealer_tree(rules: Rules, bonus: int) -> DealerTree:
    """Build (once per rules and Bonus card) the dealer's tree of hands."""
    labels = outcome_labels(rules)

    @cache
    def result(hard: int, has_ace: bool, cards: int) -> int | None:
        return _final(rules, bonus, hard, has_ace, cards)

    bust = labels.index(BUST)
    # A state is the dealer's own cards with their hard total and whether an ace is among them.
    states: list[tuple[ValueCounts, int, bool]] = [((0,) * 10, 0, False)]
    levels: list[Level] = []
    while states:
        next_index: dict[ValueCounts, int] = {}
        next_states: list[tuple[ValueCounts, int, bool]] = []
        columns: list[tuple[int, int, int, int]] = []  # (target key, parent, value, drawn)
        cards = sum(states[0][0]) + 1
        for parent, (state, hard, has_ace) in enumerate(states):
            for value in range(1, 11):
                final = result(hard + value, has_ace or value == 1, cards)
                drawn = state[value - 1]
                if final is None:
                    child = add_card(state, value)
                    target = next_index.get(child)
                    if target is None:
                        target = next_index[child] = len(next_states)
                        next_states.append((child, hard + value, has_ace or value == 1))
                    columns.append((target, parent, value - 1, drawn))
                elif final != bust:  # bust is 1 minus the rest: no need to carry it
                    columns.append((-1 - final, parent, value - 1, drawn))
        n_next = len(next_states)
        # Next-level states first (keys 0..n_next-1), then final results by label order.
        columns.sort(key=lambda c: c[0] if c[0] >= 0 else n_next - 1 - c[0])
        keys = [c[0] for c in columns]
        starts = [i for i, k in enumerate(keys) if i == 0 or k != keys[i - 1]]
        results = sorted({-1 - k for k in keys if k < 0})
        levels.append(
            Level(
                parents=np.array([c[1] for c in columns], dtype=np.int64),
                values=np.array([c[2] for c in columns], dtype=np.int64),
                drawn=np.array([c[3] for c in columns], dtype=np.int64),
                starts=np.array(starts, dtype=np.int64),
                n_next=n_next,
                results=np.array(results, dtype=np.int64),
            )
        )
        states = next_states
    return DealerTree(bonus, labels, tuple(levels))


class Fold(NamedTuple):
    """Folding one card value into the running sums of :class:`DealerEnds`.

    The sums hold one column per hand.  The fold first takes them in the order ``order``:
    by rank (a hand's place among those that merge into the same hand of the next stage,
    fewest cards of the value first), then by that target.  ``drawn[j]`` is how many cards
    of the value the ``j``-th of them holds.  The hands of rank ``k`` are the columns
    ``starts[k]`` to ``starts[k] + widths[k]``, and their targets are the first
    ``widths[k]`` of the next stage's ``size`` hands (numbered with those that merge most
    hands first), so a rank is one slice added onto one slice.
    """

    order: IntArray
    drawn: IntArray
    starts: tuple[int, ...]
    widths: tuple[int, ...]
    size: int


class DealerEnds(NamedTuple):
    """Every final non-busting dealer hand for one Bonus card, ready to price by card value.

    The chance of ending on the composition ``D`` from a shoe holding ``n_v`` cards of each
    value ``v`` and ``N`` in all is ``ways(D) * prod_v fall(n_v, D_v) / fall(N, |D|)``, where
    ``ways(D)`` counts the drawing orders the rule allows.  The product is taken one card
    value at a time, tens first (``folds``): hands that agree on the values not yet folded,
    and on their result and length, merge.  Shoes that agree on the values folded so far
    merge too, so each fold is priced for few distinct shoes (see ``docs/dealer.md``).
    After the last fold, column ``final[i]`` holds the hands of result ``results[i]`` and
    length ``lengths[i]`` (sorted by both).
    """

    ways: IntArray
    folds: tuple[Fold, ...]
    results: IntArray
    lengths: IntArray
    final: IntArray
    depth: int


@_per_dealer_rules()
def dealer_ends(rules: Rules, bonus: int) -> DealerEnds:
    """List (once per rules and Bonus card) the dealer's final non-busting hands."""
    codes, ways, depth = final_hands(rules)[bonus - 1]
    return _ends_of(codes, ways, depth)


@_per_dealer_rules()
def final_hands(rules: Rules) -> tuple[tuple[IntArray, IntArray, int], ...]:
    """:func:`draw_final_hands`, once per rules the dealer's play reads."""
    return draw_final_hands(rules)


def draw_final_hands(rules: Rules) -> tuple[tuple[IntArray, IntArray, int], ...]:
    """For each Bonus card value: the final hands' codes (sorted), their drawing orders, and
    the most cards any of them holds (the tree's depth).

    A hand is coded as the integer with base-32 digits (result, length, D_1, ..., D_10),
    so that sorting codes sorts hands by those keys; no count reaches 32.  The hands of one
    length are arrays, for the ten Bonus cards at once: each draws every value at once,
    and equal codes merge (while drawing, the Bonus card is a digit above ``D_1``).
    """
    # outcomes[bonus - 1, min(cards, 3), hard, ace]: the result index, -1 while the dealer
    # draws (bust is 0).  Only a hand of one or two cards can be a natural, so longer hands
    # share one table.
    outcomes = np.full((10, 4, 32, 2), -1, dtype=np.int64)
    outcomes[:, :, 22:] = 0  # a hard total over 21 is bust
    for b in range(1, 11):
        for cards in range(1, 4):
            for h in range(cards, min(10 * cards, 21) + 1):  # the hard totals of that many cards
                for a in (False, True):
                    final = _final(rules, b, h, a, cards)
                    outcomes[b - 1, cards, h, int(a)] = -1 if final is None else final
    room = FINAL_HANDS_ROOM
    while True:  # (more room where the rules' dealer ends on more hands)
        codes, ways = np.empty(room, dtype=np.int64), np.empty(room, dtype=np.int64)
        starts, depths = np.empty(11, dtype=np.int64), np.empty(10, dtype=np.int64)
        if kernel.final_hands(outcomes, codes, ways, starts, depths) >= 0:
            break
        room *= 4
    edges = starts.tolist()
    return tuple(
        (codes[edges[b] : edges[b + 1]].copy(), ways[edges[b] : edges[b + 1]].copy(), depth)
        for b, depth in enumerate(depths.tolist())
    )


#: The final hands (for the ten Bonus cards together) :func:`final_hands` makes room for
#: at first: the most any rules' dealer has is about 14,000.
FINAL_HANDS_ROOM = 1 << 15


def _ends_of(codes: IntArray, ways: IntArray, depth: int) -> DealerEnds:
    """:class:`DealerEnds` of the final hands with these (sorted) codes and drawing orders."""
    n = len(codes)
    order, drawn, widths = (np.empty((10, n), dtype=np.int64) for _ in range(3))
    stages = np.empty((10, 3), dtype=np.int64)
    final, results, lengths = (np.empty(n, dtype=np.int64) for _ in range(3))
    finals = kernel.dealer_ends(
        np.ascontiguousarray(codes, dtype=np.int64),
        order,
        drawn,
        widths,
        stages,
        final,
        results,
        lengths,
    )
    counted = widths.tolist()
    folds = tuple(
        Fold(
            order=order[f, :columns],  # rows of the kernel's arrays, each contiguous
            drawn=drawn[f, :columns],
            starts=tuple(accumulate(counted[f][: ranks - 1], initial=0)) if ranks else (),
            widths=tuple(counted[f][:ranks]),
            size=size,
        )
        for f, (columns, ranks, size) in enumerate(stages.tolist())
    )
    return DealerEnds(
        ways=ways,
        folds=folds,
        results=results[:finals],
        lengths=lengths[:finals],
        final=final[:finals],
        depth=depth,
    )


@_per_dealer_rules()
def result_lengths(rules: Rules, bonus: int) -> IntArray:
    """``32 * result + length`` of every (result, length) some final hand has, in order."""
    # The codes are sorted, so equal pairs are neighbours.  (np.unique without its
    # return_* options imports numpy.ma on first use, about 15 ms.)
    pairs = final_hands(rules)[bonus - 1][0] // 32**10
    first = np.ones(len(pairs), dtype=bool)
    first[1:] = pairs[1:] != pairs[:-1]
    return pairs[first]
