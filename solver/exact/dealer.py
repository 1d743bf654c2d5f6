"""Exact distribution of the dealer's final result, for one shoe or thousands at once.

The dealer's drawing rule depends only on its own cards and the Bonus card, never on the
shoe, so the tree of every dealer hand it can pass through is built once per
(rules, Bonus card) and then priced against any number of shoes together.  States are the
dealer's own cards as a composition, level by level (level ``L`` = ``L`` cards drawn);
every transition multiplies by the number of cards of the drawn value still in the shoe.

Two arithmetics share that propagation:

* ``float``: probabilities, dividing by the cards left at every level;
* exact: integer counts of ordered card sequences, kept modulo several primes below
  2**31 so that numpy can vectorise them, then rebuilt by the Chinese remainder theorem.
  Counts for a shoe of ``N`` cards never exceed ``N * (N - 1) * ... `` over the tree's
  depth, so enough primes make the reconstruction exact (see ``docs/dealer.md``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache, wraps
from typing import Any, Concatenate, NamedTuple, ParamSpec, TypeVar

import numpy as np
import numpy.typing as npt

from solver.exact import kernel
from solver.model.cards import Card, ValueCounts, value_label
from solver.model.errors import ShoeError
from solver.model.hands import add_card, best_total_of, dealer_natural_at, dealer_stops_at
from solver.model.numbers import exact_json
from solver.model.rule_table import DEALER_RULE_NAMES
from solver.model.rules import Rules

BUST = "bust"
NATURAL = "natural"

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
NumberArray = TypeVar("NumberArray", IntArray, FloatArray)
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
    if not dealer_stops_at(hard, has_ace, cards, bonus, rules):
        return None
    # Positions in outcome_labels(rules): bust, the totals from the threshold up, natural.
    if hard > 21:
        return 0
    if dealer_natural_at(hard, has_ace, cards, bonus, rules):
        return 23 - rules.dealer_stands_on
    return 1 + best_total_of(hard, has_ace, bonus) - rules.dealer_stands_on


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


def _merge(
    codes: IntArray, counts: IntArray, *alike: IntArray
) -> tuple[IntArray, IntArray, list[IntArray]]:
    """Distinct ``codes`` in order, the sum of ``counts`` for each, and ``alike`` taken once.

    ``alike`` are arrays equal wherever the codes are (a hand's total, say).
    """
    order = np.argsort(codes, kind="stable")
    codes = codes[order]
    first = np.ones(len(codes), dtype=bool)
    first[1:] = codes[1:] != codes[:-1]
    starts = np.flatnonzero(first)
    sums = np.add.reduceat(counts[order], starts) if len(starts) else counts[:0]
    return codes[starts], sums, [a[order[starts]] for a in alike]


@_per_dealer_rules()
def dealer_ends(rules: Rules, bonus: int) -> DealerEnds:
    """List (once per rules and Bonus card) the dealer's final non-busting hands."""
    codes, ways, depth = _final_hands(rules)[bonus - 1]
    return _ends_of(codes, ways, depth)


@_per_dealer_rules()
def _final_hands(rules: Rules) -> tuple[tuple[IntArray, IntArray, int], ...]:
    """For each Bonus card value: the final hands' codes (sorted), their drawing orders, and
    the most cards any of them holds (the tree's depth).

    A hand is coded as the integer with base-32 digits (result, length, D_1, ..., D_10),
    so that sorting codes sorts hands by those keys; no count reaches 32.  The hands of one
    length are arrays, for the ten Bonus cards at once: each draws every value at once,
    and equal codes merge (while drawing, the Bonus card is a digit above ``D_1``).
    """
    top = 32**10
    place = np.array([32 ** (10 - v) for v in range(1, 11)], dtype=np.int64)
    values = np.arange(1, 11, dtype=np.int64)
    bonus = np.arange(10, dtype=np.int64)  # the Bonus card's value less one
    code = bonus * top
    orders = np.ones(10, dtype=np.int64)  # drawing orders reaching the hand
    hard = np.zeros(10, dtype=np.int64)
    ace = np.zeros(10, dtype=np.int64)
    ends: list[IntArray] = []
    end_orders: list[IntArray] = []
    end_bonus: list[IntArray] = []
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
    depth = 0
    while len(code):
        depth += 1
        child = (code[:, None] + place[None, :]).reshape(-1)
        child_hard = (hard[:, None] + values[None, :]).reshape(-1)
        child_ace = (ace[:, None] | (values == 1)[None, :]).reshape(-1)
        child_orders = np.repeat(orders, 10)
        child_bonus = np.repeat(bonus, 10)
        final = outcomes[child_bonus, min(depth, 3), child_hard, child_ace]
        ended = final > 0  # bust is 1 minus the rest: not carried
        ends.append(child[ended] % top + (final[ended] * 32 + depth) * top)
        end_orders.append(child_orders[ended])
        end_bonus.append(child_bonus[ended])
        going = final < 0
        code, orders, (hard, ace, bonus) = _merge(
            child[going],
            child_orders[going],
            child_hard[going],
            child_ace[going],
            child_bonus[going],
        )
    every, every_orders, of = (
        np.concatenate(ends),
        np.concatenate(end_orders),
        np.concatenate(end_bonus),
    )
    found: list[tuple[IntArray, IntArray, int]] = []
    for b in range(10):
        codes, ways, _ = _merge(every[of == b], every_orders[of == b])
        # An ace never busts a hand that draws, so the deepest level has final hands.
        found.append((codes, ways, int((codes // top % 32).max(initial=0))))
    return tuple(found)


def _ends_of(codes: IntArray, ways: IntArray, depth: int) -> DealerEnds:
    """:class:`DealerEnds` of the final hands with these (sorted) codes and drawing orders."""
    keys = (codes[:, None] >> (5 * np.arange(11, -1, -1))[None, :]) & 31
    # Codes are sorted, so hands sharing the first w keys are neighbours: a hand starts a
    # new prefix of width w when its first key differing from the hand before is among them.
    differs = np.ones((len(keys), 13), dtype=bool)
    differs[1:, :12] = keys[1:] != keys[:-1]
    first_change = differs.argmax(axis=1)
    prefix = [np.cumsum(first_change < w) - 1 for w in range(13)]  # prefix[w]: its number
    folds: list[Fold] = []
    place_in = np.arange(len(keys))  # where each hand of this stage is among the columns
    for width in range(12, 2, -1):  # fold values 10, 9, ..., 1 (key columns 11 down to 2)
        starts = np.flatnonzero(first_change < width)  # one hand of each row of this stage
        drawn = keys[starts, width - 1]
        target = prefix[width - 1][starts]
        merged = np.bincount(target)
        # The next stage's hands, those merging most hands first.
        place_out = np.empty(len(merged), dtype=np.int64)
        place_out[np.argsort(-merged, kind="stable")] = np.arange(len(merged))
        # Hands of one target are neighbours, fewest cards of the value first.
        rank = np.arange(len(target)) - np.searchsorted(target, target)
        order = np.lexsort((place_out[target], rank))
        widths = np.bincount(rank)
        folds.append(
            Fold(
                order=place_in[order],
                drawn=drawn[order],
                starts=tuple((np.cumsum(widths) - widths).tolist()),
                widths=tuple(widths.tolist()),
                size=len(merged),
            )
        )
        place_in = place_out
    last = first_change < 2
    return DealerEnds(
        ways=ways,
        folds=tuple(folds),
        results=np.ascontiguousarray(keys[last, 0]),
        lengths=np.ascontiguousarray(keys[last, 1]),
        final=place_in,
        depth=depth,
    )


def _drawn(codes: IntArray) -> IntArray:
    """``[i, v - 1]``: the cards of value ``v`` in the final hand coded ``codes[i]``."""
    return (codes[:, None] >> (5 * np.arange(9, -1, -1))[None, :]) & 31


@_per_dealer_rules()
def _most_drawn(rules: Rules, bonus: int) -> IntArray:
    """The most cards of each value any final hand holds."""
    most: IntArray = _drawn(_final_hands(rules)[bonus - 1][0]).max(axis=0, initial=0)
    return most


def _ends_for(rules: Rules, bonus: int, counts: IntArray) -> DealerEnds:
    """:func:`dealer_ends` less the hands that need more cards of a value than any shoe holds.

    Such a hand's chance has a factor ``fall(n, d) = 0``: it adds exact zeros to every sum,
    so leaving it out changes no bit of any result (a deck holds four aces, but a dealer's
    hand may draw eleven).
    """
    most = _most_drawn(rules, bonus)
    held = counts.max(axis=0) if len(counts) else np.zeros(10, dtype=np.int64)
    if (held >= most).all():
        return dealer_ends(rules, bonus)
    return _ends_within(rules, bonus, tuple(np.minimum(held, most).tolist()))


#: A fold leaves hands out only when it drops more than this share of them: fewer do not
#: pay for building another fold structure (a depleted shoe short of a few aces, say).
PRUNE_SHARE = 0.1


@_per_dealer_rules(maxsize=64)
def _ends_within(rules: Rules, bonus: int, room: tuple[int, ...]) -> DealerEnds:
    """:func:`dealer_ends` keeping the hands with at most ``room[v - 1]`` cards of each value."""
    codes, ways, depth = _final_hands(rules)[bonus - 1]
    keep = (_drawn(codes) <= np.array(room)[None, :]).all(axis=1)
    if keep.sum() >= (1 - PRUNE_SHARE) * len(codes):
        return dealer_ends(rules, bonus)
    return _ends_of(codes[keep], ways[keep], depth)


@_per_dealer_rules()
def _result_lengths(rules: Rules, bonus: int) -> IntArray:
    """``32 * result + length`` of every (result, length) some final hand has, in order."""
    # The codes are sorted, so equal pairs are neighbours.  (np.unique without its
    # return_* options imports numpy.ma on first use, about 15 ms.)
    pairs = _final_hands(rules)[bonus - 1][0] // 32**10
    first = np.ones(len(pairs), dtype=bool)
    first[1:] = pairs[1:] != pairs[:-1]
    return pairs[first]


class ShoeGroups(NamedTuple):
    """Shoes grouped by their counts of tens, then tens and nines, and so on (one per fold).

    After fold ``f`` the groups are ordered by their count of the value folded, then by
    parent: group ``g`` comes from group ``parents[f][g]`` of the fold before, and groups
    ``bounds[f][i]`` to ``bounds[f][i + 1]`` hold ``held[f][i]`` cards of the value.
    ``final[s]`` is shoe ``s``'s group after the last fold.
    """

    parents: list[IntArray]
    held: list[IntArray]
    bounds: list[list[int]]
    final: IntArray


def _shoe_groups(counts: IntArray) -> ShoeGroups:
    """Group shoes for :func:`_fold`: see :class:`ShoeGroups`.

    The groups depend on the counts only through their order within each value, so shoes
    that differ from another batch by a card of each value (the same player hands
    against another Bonus card, say) reuse its grouping.
    """
    least = counts.min(axis=0) if len(counts) else np.zeros(10, dtype=np.int64)
    shifted = counts - least
    found = _groups_of(shifted.tobytes(), len(counts))
    return ShoeGroups(
        found.parents,
        [h + least[9 - f] for f, h in enumerate(found.held)],
        found.bounds,
        found.final,
    )


@lru_cache(maxsize=16)
def _groups_of(key: bytes, shoes: int) -> ShoeGroups:
    """:func:`_shoe_groups` for counts given as the bytes of an int64 array (shoes x 10)."""
    counts = np.frombuffer(key, dtype=np.int64).reshape(shoes, 10)
    group = np.zeros(len(counts), dtype=np.int64)
    size = 1
    parents: list[IntArray] = []
    held: list[IntArray] = []
    bounds: list[list[int]] = []
    for value in range(9, -1, -1):
        unique, group = np.unique(counts[:, value] * size + group, return_inverse=True)
        group = group.reshape(-1)
        n = unique // size
        first = np.flatnonzero(np.concatenate((n[:1] == n[:1], n[1:] != n[:-1])))  # none if empty
        parents.append(unique % size)
        held.append(n[first])
        bounds.append([*first.tolist(), len(unique)])
        size = len(unique)
    for shared in (*parents, *held, group):
        shared.flags.writeable = False  # kept for later calls
    return ShoeGroups(parents, held, bounds, group)


@cache
def _falling_table(rows: int, top: int) -> tuple[tuple[int, ...], ...]:
    """``table[d][n]`` = n (n - 1) ... (n - d + 1): ways to deal ``d`` of ``n`` cards in order."""
    table = [(1,) * (top + 1)]
    for d in range(1, rows):
        table.append(tuple(table[d - 1][n] * max(n - d + 1, 0) for n in range(top + 1)))
    return tuple(table)


@cache
def _falling_floats(rows: int, top: int) -> FloatArray:
    """:func:`_falling_table` as floats (read-only: shared by every call)."""
    table = np.array(_falling_table(rows, top), dtype=np.float64)
    table.flags.writeable = False
    return table


#: Modular folds of more products than this are done a block of shoe groups at a time;
#: float folds always are (one array took twice as long for one deck's float folds, while
#: the modular folds, reduced whole after each fold, were 5-10% faster in one array).
BLOCK_PRODUCTS = 1 << 18


def _add_ranks(following: NumberArray, spread: NumberArray, ranks: list[tuple[int, int]]) -> None:
    """Add the hands of each later rank (columns of ``spread``) onto their targets."""
    for first, width in ranks:
        following[:, :width] += spread[:, first : first + width]


def _fold(
    ends: DealerEnds, groups: ShoeGroups, table: NumberArray, prime: int | None
) -> NumberArray:
    """Sums of ``ways * prod fall(n_v, D_v)`` by shoe group and by (result, length).

    ``table[d, n]`` is ``fall(n, d)`` (modulo ``prime`` if given, then so is every sum).
    Rows are the final shoe groups, columns follow ``ends.results``.  Every sum adds its
    terms in the order of the values' counts, whatever the layout.
    """
    compiled = kernel.native()
    if compiled is not None:
        return kernel.fold(compiled, ends, groups, table, prime)
    sums = (ends.ways if prime is None else ends.ways % prime).astype(table.dtype)[None, :]
    for fold, parent, held, bounds in zip(
        ends.folds, groups.parents, groups.held, groups.bounds, strict=True
    ):
        # np.take walks rows (sums[:, order] would copy strided columns one by one).
        ordered = np.take(sums, fold.order, axis=1)
        # factors[i, j] = fall(held[i], drawn[j]): one row per block of groups.
        factors = table[:, held].T[:, fold.drawn]
        ranks = list(zip(fold.starts[1:], fold.widths[1:], strict=True))
        if prime is not None and bounds[-1] * len(fold.order) <= BLOCK_PRODUCTS:
            spread = np.take(ordered, parent, axis=0)
            for i, (start, stop) in enumerate(itertools.pairwise(bounds)):
                spread[start:stop] *= factors[i]
            following = spread[:, : fold.size]  # rank 0: every target's first hand
            _add_ranks(following, spread, ranks)
        else:
            # One block of groups at a time, each taken, multiplied and added while it is
            # in cache: one array for all of them costs more in page faults and misses.
            # A target's hands hold 0, 1, 2... cards of the value in rank order, so rank k
            # holds at least k: a block of shoes holding h cards of it multiplies and adds
            # only ranks 0 to h, the others' products being exact zeros (no bit changes).
            following = np.empty((bounds[-1], fold.size), dtype=table.dtype)
            for i, (start, stop) in enumerate(itertools.pairwise(bounds)):
                kept = min(int(held[i]), len(ranks))
                width = fold.starts[kept + 1] if kept < len(ranks) else len(fold.order)
                spread = np.take(ordered, parent[start:stop], axis=0)[:, :width]
                spread *= factors[i, :width]
                part = following[start:stop]
                part[...] = spread[:, : fold.size]
                _add_ranks(part, spread, ranks[:kept])
        # Modulo a prime below 2**29, at most 32 products (below 2**58 each) were added.
        sums = following if prime is None else following % prime
    return np.take(sums, ends.final, axis=1)


def _fold_float(ends: DealerEnds, counts: IntArray) -> FloatArray:
    """Float sums of ``ways * prod fall(n_v, D_v)`` by shoe and by (result, length)."""
    groups = _shoe_groups(counts)
    rows = max((int(f.drawn.max(initial=0)) for f in ends.folds), default=0) + 1
    table = _falling_floats(rows, int(counts.max(initial=0)))
    return np.take(_fold(ends, groups, table, None), groups.final, axis=0)


def _fold_modulo(ends: DealerEnds, counts: IntArray, primes: IntArray) -> tuple[IntArray, IntArray]:
    """:func:`_fold_float` in integers modulo each prime (first axis).

    One prime at a time: numpy reduces by a scalar much faster than by an array.
    """
    groups = _shoe_groups(counts)
    rows = max((int(f.drawn.max(initial=0)) for f in ends.folds), default=0) + 1
    exact = _falling_table(rows, int(counts.max(initial=0)))
    out = []
    for q in primes.tolist():
        table = np.array([[f % q for f in row] for row in exact], dtype=np.int64)
        out.append(_fold(ends, groups, table, q).T)
    return np.stack(out), groups.final


def _as_shoe_array(shoes: Sequence[ValueCounts] | IntArray) -> IntArray:
    array = np.asarray(shoes, dtype=np.int64)
    if array.ndim != 2 or array.shape[1] != 10:
        raise ShoeError("shoes must be given as rows of 10 counts, one per value A..10")
    if (array < 0).any():
        raise ShoeError("a shoe cannot hold a negative number of cards")
    return array


def _check_not_exhausted(mass: npt.NDArray[np.generic], left: IntArray, level: int) -> None:
    empty = left <= 0
    if empty.any() and mass[empty].any():
        raise ShoeError(
            f"the shoe can run out of cards after the dealer's {level}th card before the "
            "dealer's hand is finished; give a larger shoe"
        )


def dealer_probabilities(
    rules: Rules, bonus: int, shoes: Sequence[ValueCounts] | IntArray
) -> FloatArray:
    """Float distributions of the dealer's result, one row per shoe.

    ``shoes`` are the cards left (by value) when the dealer starts drawing, the Bonus card
    and the player's cards already taken out.  Columns follow :func:`outcome_labels`.
    """
    counts = _as_shoe_array(shoes)
    depth = _final_hands(rules)[bonus - 1][2]
    if len(counts) and int(counts.sum(axis=1).min()) < depth:
        return tree_probabilities(rules, bonus, counts)
    ends = _ends_for(rules, bonus, counts)
    sums = _fold_float(ends, counts)
    # falling[L] = N (N - 1) ... (N - L + 1): the ordered ways to deal L cards, for each
    # distinct shoe size N.
    sizes, column = np.unique(counts.sum(axis=1), return_inverse=True)
    falling = np.cumprod(sizes[None, :] - np.arange(ends.depth)[:, None], axis=0, dtype=np.float64)
    falling = np.vstack([np.ones((1, len(sizes))), falling])
    chances = sums.T / np.take(falling[ends.lengths], column.reshape(-1), axis=1)
    # Rows of zeros for the (result, length) pairs no shoe can reach: numpy need not add a
    # result's rows one after another, and the same rows round the same way.
    pairs = _result_lengths(rules, bonus)
    if len(pairs) > len(ends.results):
        wide = np.zeros((len(pairs), len(counts)))
        wide[np.searchsorted(pairs, ends.results * 32 + ends.lengths)] = chances
        chances = wide
    out = np.zeros((len(outcome_labels(rules)), len(counts)))
    _add_by_result(out, pairs // 32, chances)
    out[0] = 1.0 - out[1:].sum(axis=0)
    return np.ascontiguousarray(out.T)


def _add_by_result(out: NumberArray, results: IntArray, rows: NumberArray) -> None:
    """Add each row of ``rows`` into ``out`` at its (sorted) result index."""
    if len(results) == 0:
        return
    first = np.ones(len(results), dtype=bool)
    first[1:] = results[1:] != results[:-1]
    out[results[first]] += np.add.reduceat(rows, np.flatnonzero(first), axis=0)


def tree_probabilities(
    rules: Rules, bonus: int, shoes: Sequence[ValueCounts] | IntArray
) -> FloatArray:
    """:func:`dealer_probabilities` by walking the dealer's tree level by level.

    Slower, but it handles shoes smaller than the dealer's longest hand; the tests also
    hold it against the fast path.
    """
    tree = dealer_tree(rules, bonus)
    counts = _as_shoe_array(shoes)
    sizes = counts.sum(axis=1)
    by_value = np.ascontiguousarray(counts.T, dtype=np.float64)  # shoes along the fast axis
    out = np.zeros((len(tree.labels), len(counts)))
    mass = np.ones((1, len(counts)))
    for cards, level in enumerate(tree.levels):
        left = sizes - cards
        _check_not_exhausted(mass.T, left, cards)
        weights = by_value[level.values] - level.drawn[:, None]
        flow = np.add.reduceat(mass[level.parents] * weights, level.starts, axis=0)
        flow *= 1.0 / np.where(left > 0, left, 1)
        out[level.results] += flow[level.n_next :]
        mass = flow[: level.n_next]
    out[0] = 1.0 - out[1:].sum(axis=0)
    return np.ascontiguousarray(out.T)


def _is_probable_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n below 3.2e9 (bases 2, 3, 5, 7)."""
    if n < 2 or n % 2 == 0:
        return n == 2
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@cache
def moduli(count: int) -> tuple[int, ...]:
    """The ``count`` largest primes below 2**29.

    Products of two residues stay below 2**58, so up to 32 of them add up within int64
    before they must be reduced.
    """
    primes: list[int] = []
    candidate = 2**29 - 1
    while len(primes) < count:
        if _is_probable_prime(candidate):
            primes.append(candidate)
        candidate -= 2
    return tuple(primes)


def padded_falling(n: int, k: int) -> int:
    """``n * (n - 1) * ... `` over ``k`` factors, each factor below 1 taken as 1.

    For ``k <= n`` this is the falling factorial: the number of ordered ways to deal ``k``
    cards from ``n``.  Padding keeps it positive for shoes smaller than a tree's depth,
    whose deeper levels carry no probability.
    """
    result = 1
    for i in range(k):
        result *= max(n - i, 1)
    return result


@dataclass(frozen=True, slots=True)
class ExactDealer:
    """Exact dealer distributions: ``counts[i][j] / denominators[i]`` (shoe ``i``, result ``j``)."""

    labels: tuple[str, ...]
    counts: tuple[tuple[int, ...], ...]
    denominators: tuple[int, ...]

    def fractions(self, row: int) -> dict[str, Fraction]:
        """The distribution of shoe ``row`` as exact fractions keyed by result."""
        d = self.denominators[row]
        return {
            label: Fraction(n, d) for label, n in zip(self.labels, self.counts[row], strict=True)
        }


def _counts_modulo(tree: DealerTree, counts: IntArray, prime: int) -> IntArray:
    """Ordered-sequence counts of each result modulo ``prime``, over ``padded_falling(N, depth)``.

    Rows are results, columns shoes (the transpose of the float path's output).
    """
    sizes = counts.sum(axis=1)
    by_value = np.ascontiguousarray(counts.T)
    # tail[L] = padded_falling(N - L, depth - L): lifts counts of L-card hands to the
    # common denominator padded_falling(N, depth).
    tail = np.ones((tree.depth + 1, len(counts)), dtype=np.int64)
    for cards in range(tree.depth - 1, -1, -1):
        factor = np.where(sizes > cards, sizes - cards, 1)
        tail[cards] = tail[cards + 1] * (factor % prime) % prime
    out = np.zeros((len(tree.labels), len(counts)), dtype=np.int64)
    mass = np.ones((1, len(counts)), dtype=np.int64)
    for cards, level in enumerate(tree.levels):
        _check_not_exhausted(mass.T, sizes - cards, cards)
        weights = (by_value[level.values] - level.drawn[:, None]) % prime
        flow = np.add.reduceat(mass[level.parents] * weights % prime, level.starts, axis=0)
        flow %= prime
        lifted = flow[level.n_next :] * tail[cards + 1] % prime
        out[level.results] = (out[level.results] + lifted) % prime
        mass = flow[: level.n_next]
    return out


def primes_above(bound: int) -> list[int]:
    """The fewest of :func:`moduli` whose product exceeds ``2 * bound``."""
    primes: list[int] = []
    product = 1
    for prime in moduli(64):
        if product > 2 * bound:
            break
        primes.append(prime)
        product *= prime
    return primes


def _garner_digits(residues: IntArray, primes: Sequence[int]) -> list[IntArray]:
    """Mixed-radix digits ``a_i < p_i`` of the integers with these residues."""
    digits: list[IntArray] = []
    for i, prime in enumerate(primes):
        digit = residues[i] % prime
        for j in range(i):
            inverse = pow(primes[j], -1, prime)
            digit = (digit - digits[j]) % prime * inverse % prime
        digits.append(digit)
    return digits


def rebuild(residues: IntArray, primes: Sequence[int]) -> npt.NDArray[np.object_]:
    """Integers (as Python ints) from their residues, one prime each along the first axis.

    Garner's mixed radix: the result is the one integer in ``[0, prod(primes))``.

    ``x = a_0 + p_0 (a_1 + p_1 (a_2 + ...))`` with digits ``a_i < p_i``; the digits are
    found in int64 arithmetic and only the final Horner sum uses Python integers.
    """
    digits = _garner_digits(residues, primes)
    # Pairs of digits still fit in int64: halve the steps done in Python integers.
    radices: list[int] = []
    pairs: list[IntArray] = []
    for i in range(0, len(primes), 2):
        if i + 1 < len(primes):
            pairs.append(digits[i] + primes[i] * digits[i + 1])
            radices.append(primes[i] * primes[i + 1])
        else:
            pairs.append(digits[i])
            radices.append(primes[i])
    value = pairs[-1].astype(object)
    for i in range(len(pairs) - 2, -1, -1):
        value = value * radices[i] + pairs[i]
    return value


@cache
def _garner_inverses(primes: tuple[int, ...]) -> tuple[int, ...]:
    """``(p_0 ... p_{k-1})^-1 mod p_k`` for each ``k``: the steps of :func:`rebuild_one`."""
    inverses: list[int] = []
    product = 1
    for prime in primes:
        inverses.append(pow(product % prime, -1, prime))
        product *= prime
    return tuple(inverses)


def rebuild_one(residues: Sequence[int], primes: tuple[int, ...]) -> int:
    """:func:`rebuild` for one integer, in Python integers (cheaper for a few values).

    Adds one prime at a time: ``x`` keeps its residues so far and takes the next one.
    """
    value, product = 0, 1
    for residue, prime, inverse in zip(residues, primes, _garner_inverses(primes), strict=True):
        value += product * ((residue - value) * inverse % prime)
        product *= prime
    return value


@cache
def _padded_falling_cached(n: int, k: int) -> int:
    return padded_falling(n, k)


def extend(residues: IntArray, primes: Sequence[int], more: Sequence[int]) -> IntArray:
    """The integers of :func:`rebuild` modulo other primes, without building them.

    Each integer is ``a_0 + p_0 (a_1 + p_1 (a_2 + ...))`` in Garner's digits, which are
    then summed modulo each new prime in int64.
    """
    digits = _garner_digits(residues, primes)
    out = np.empty((len(more), *residues.shape[1:]), dtype=np.int64)
    for k, prime in enumerate(more):
        value = digits[-1] % prime
        for i in range(len(primes) - 2, -1, -1):
            value = (value * (primes[i] % prime) + digits[i]) % prime
        out[k] = value
    return out


def fast_path_fits(rules: Rules, bonus: int, sizes: IntArray) -> bool:
    """Whether every shoe holds at least the dealer's longest hand (the fast path's premise).

    Then no dealer hand can run the shoe dry, and every falling factorial is a plain one.
    """
    return len(sizes) == 0 or int(sizes.min()) >= dealer_ends(rules, bonus).depth


def dealer_residues(
    rules: Rules, bonus: int, shoes: Sequence[ValueCounts] | IntArray, primes: Sequence[int]
) -> IntArray:
    """Counts of :func:`exact_dealer` modulo each of ``primes`` (below 2**29), bust included.

    Shape (prime, result, shoe).  Only for shoes where :func:`fast_path_fits`.
    """
    counts = _as_shoe_array(shoes)
    ends = dealer_ends(rules, bonus)
    sizes = counts.sum(axis=1)
    if not fast_path_fits(rules, bonus, sizes):
        raise ShoeError("a shoe is smaller than the dealer's longest hand: use exact_dealer")
    ends = _ends_for(rules, bonus, counts)
    sums, group = _fold_modulo(ends, counts, np.array(primes, dtype=np.int64))
    # tail[L] = falling(N - L, depth - L) lifts counts of L-card hands to falling(N, depth).
    distinct = sorted(set(sizes.tolist()))
    tails = np.array(
        [
            [
                [_padded_falling_cached(n - cards, ends.depth - cards) % q for n in distinct]
                for cards in range(ends.depth + 1)
            ]
            for q in primes
        ],
        dtype=np.int64,
    ).reshape(len(primes), ends.depth + 1, len(distinct))
    column = np.searchsorted(np.array(distinct, dtype=np.int64), sizes)
    out = np.zeros((len(primes), len(outcome_labels(rules)), len(counts)), dtype=np.int64)
    for k, q in enumerate(primes):  # a scalar modulus: numpy reduces by it much faster
        lifted = sums[k][:, group] * tails[k][ends.lengths][:, column] % q
        _add_by_result(out[k], ends.results, lifted)
        out[k] %= q
        # Every hand ends, so bust is the denominator less the rest.
        out[k, 0] = (tails[k, 0, column] - out[k, 1:].sum(axis=0)) % q
    return out


def exact_dealer(rules: Rules, bonus: int, shoes: Sequence[ValueCounts] | IntArray) -> ExactDealer:
    """Exact distributions of the dealer's result, one per shoe, as integer counts."""
    counts = _as_shoe_array(shoes)
    sizes = counts.sum(axis=1)
    if not fast_path_fits(rules, bonus, sizes):
        return tree_exact_dealer(rules, bonus, counts)
    depth = dealer_ends(rules, bonus).depth
    denominators = [_padded_falling_cached(int(n), depth) for n in sizes]
    primes = primes_above(max(denominators, default=1))
    rows = rebuild(dealer_residues(rules, bonus, counts, primes), primes).T.tolist()
    return ExactDealer(outcome_labels(rules), tuple(map(tuple, rows)), tuple(denominators))


def tree_exact_dealer(
    rules: Rules, bonus: int, shoes: Sequence[ValueCounts] | IntArray
) -> ExactDealer:
    """:func:`exact_dealer` by walking the dealer's tree (any shoe size; the tests' twin)."""
    tree = dealer_tree(rules, bonus)
    counts = _as_shoe_array(shoes)
    sizes = [int(n) for n in counts.sum(axis=1)]
    denominators = [padded_falling(n, tree.depth) for n in sizes]
    primes = primes_above(max(denominators, default=1))
    residues = [_counts_modulo(tree, counts, p) for p in primes]
    # Chinese remainder: x = sum r_i * M_i * (M_i^-1 mod p_i)  (mod M).
    product = math.prod(primes)
    basis = [(product // p) * pow(product // p, -1, p) % product for p in primes]
    rows: list[tuple[int, ...]] = []
    for i in range(len(sizes)):
        values = [
            sum(int(r[j, i]) * b for r, b in zip(residues, basis, strict=True)) % product
            for j in range(len(tree.labels))
        ]
        values[0] = denominators[i] - sum(values[1:])
        rows.append(tuple(values))
    return ExactDealer(tree.labels, tuple(rows), tuple(denominators))


def dealer_distribution(rules: Rules, bonus: int, shoe: ValueCounts) -> dict[str, Fraction]:
    """Exact distribution of the dealer's final result from one shoe (cards left by value).

    >>> from solver.model.cards import Shoe
    >>> shoe = Shoe.full(6).value_counts()
    >>> sum(dealer_distribution(Rules(), 10, (*shoe[:9], shoe[9] - 1)).values())
    Fraction(1, 1)
    """
    return exact_dealer(rules, bonus, [shoe]).fractions(0)


@dataclass(frozen=True, slots=True)
class DealerResult:
    """The exact distribution of the dealer's final result for each Bonus card value."""

    rules: Rules
    removed: tuple[Card, ...]
    rows: tuple[tuple[int, dict[str, Fraction]], ...]
    """``(Bonus card value, {result: probability})`` in Bonus card order."""

    def to_json(self) -> dict[str, Any]:
        """The distributions as ``cbj dealer --format json`` prints them."""
        return {
            "rules": self.rules.to_json(),
            "tables": [
                {
                    "bonus": value_label(bonus),
                    "removed": [str(c) for c in self.removed],
                    "outcomes": {label: exact_json(p) for label, p in distribution.items()},
                }
                for bonus, distribution in self.rows
            ],
        }
