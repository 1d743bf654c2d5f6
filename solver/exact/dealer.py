"""Exact distribution of the dealer's final result, for one shoe or thousands at once.

The dealer's hands (:mod:`solver.exact.dealer_hands`) are built once per (rules, Bonus card)
and priced here against any number of shoes together: every transition multiplies by the
number of cards of the drawn value still in the shoe.

Two arithmetics share that propagation:

* ``float``: probabilities, dividing by the cards left at every level;
* exact: integer counts of ordered card sequences, kept modulo several primes below
  2**31 so that numpy can vectorise them, then rebuilt by the Chinese remainder theorem
  (:mod:`solver.exact.modular`).  Counts for a shoe of ``N`` cards never exceed
  ``N * (N - 1) * ... `` over the tree's depth, so enough primes make the reconstruction
  exact (see ``docs/dealer.md``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import NamedTuple, NoReturn, TypeVar

import numpy as np
import numpy.typing as npt

from solver.exact import kernel
from solver.exact.dealer_hands import (
    DealerEnds,
    DealerTree,
    FloatArray,
    IntArray,
    dealer_ends,
    dealer_rules,
    dealer_tree,
    final_hands,
    outcome_labels,
    result_lengths,
)
from solver.exact.modular import (
    padded_falling,
    padded_falling_cached,
    primes_above,
    rebuild,
)
from solver.model.cards import ValueCounts
from solver.model.errors import ShoeError
from solver.model.rules import Rules

NumberArray = TypeVar("NumberArray", IntArray, FloatArray)
#: A fold as the kernels take it: order, drawn, starts, widths and the next stage's size.
FoldArrays = tuple[IntArray, IntArray, IntArray, IntArray, int]


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


class ShoeSummary(NamedTuple):
    """Each shoe's number of cards; the fewest and the most of each value any shoe holds."""

    sizes: IntArray
    least: IntArray
    most: IntArray


def _summary(counts: IntArray) -> ShoeSummary:
    """:class:`ShoeSummary` of shoes as rows of counts (zeros by value when there are none)."""
    if not len(counts):
        return ShoeSummary(np.zeros(0, dtype=np.int64), *np.zeros((2, 10), dtype=np.int64))
    sizes = np.empty(len(counts), dtype=np.int64)
    least, most = np.empty(10, dtype=np.int64), np.empty(10, dtype=np.int64)
    kernel.shoe_summary(np.ascontiguousarray(counts, dtype=np.int64), sizes, least, most)
    return ShoeSummary(sizes, least, most)


def _shoe_groups(counts: IntArray, summary: ShoeSummary | None = None) -> ShoeGroups:
    """Group shoes for :func:`_fold`: see :class:`ShoeGroups` (``summary``: the counts').

    The groups depend on the counts only through their order within each value, so shoes
    that differ from another batch by a card of each value (the same player hands
    against another Bonus card, say) reuse its grouping.
    """
    if summary is None:
        summary = _summary(counts)
    least = summary.least
    if len(counts) and int((summary.most - least).max()) >= MOST_SPREAD:
        raise ShoeError(
            f"shoes that differ by {MOST_SPREAD:,} or more cards of a value cannot be "
            "priced together: give them in separate calls"
        )
    # A key of 16-bit counts: a quarter of the bytes to copy and hash.
    shifted = np.subtract(counts, least, dtype=np.int16, casting="unsafe")
    found = _groups_of(shifted.tobytes(), len(counts))
    return ShoeGroups(
        found.parents,
        [h + least[9 - f] for f, h in enumerate(found.held)],
        found.bounds,
        found.final,
    )


#: Shoes priced together differ by fewer cards than this of each value (a shoe of eight
#: decks holds 128 tens): the shoe groups' counting sort keys them in 16 bits.
MOST_SPREAD = 1 << 15


@lru_cache(maxsize=16)
def _groups_of(key: bytes, shoes: int) -> ShoeGroups:
    """:func:`_shoe_groups` for counts as the bytes of an int16 array (shoes x 10)."""
    if not shoes:
        empty = np.zeros(0, dtype=np.int64)
        return ShoeGroups([empty] * 10, [empty] * 10, [[0]] * 10, empty)
    counts = np.frombuffer(key, dtype=np.int16).reshape(shoes, 10).astype(np.int64)
    parents, held = np.empty((10, shoes), dtype=np.int64), np.empty((10, shoes), dtype=np.int64)
    bounds, final = np.empty((10, shoes + 1), dtype=np.int64), np.empty(shoes, dtype=np.int64)
    sizes = np.empty((10, 2), dtype=np.int64)
    kernel.shoe_groups(counts, parents, held, bounds, final, sizes)
    found = sizes.tolist()
    groups = ShoeGroups(
        [parents[f, :groups].copy() for f, (groups, _) in enumerate(found)],
        [held[f, :distinct].copy() for f, (_, distinct) in enumerate(found)],
        [bounds[f, : distinct + 1].tolist() for f, (_, distinct) in enumerate(found)],
        final,
    )
    for shared in (*groups.parents, *groups.held, final):
        shared.flags.writeable = False  # kept for later calls
    return groups


@cache
def _falling_floats(rows: int, top: int) -> FloatArray:
    """``table[d, n]`` = n (n - 1) ... (n - d + 1), the ways to deal ``d`` of ``n`` cards in
    order, each the float nearest the exact integer (read-only: shared by every call).

    >>> _falling_floats(3, 4).tolist()
    [[1.0, 1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 2.0, 6.0, 12.0]]
    """
    table = np.array([[math.perm(n, d) for n in range(top + 1)] for d in range(rows)], float)
    table.flags.writeable = False
    return table


Step = tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, int]


def _steps(folds: tuple[FoldArrays, ...], groups: ShoeGroups) -> tuple[Step, ...]:
    """The fold's steps as the kernels take them: each card value's fold (see
    :func:`_fold_arrays`) and the shoe groups' parents, held counts and bounds for it."""
    return tuple(
        (order, drawn, starts, widths, parent, held, np.array(bounds, dtype=np.int64), size)
        for (order, drawn, starts, widths, size), parent, held, bounds in zip(
            folds, groups.parents, groups.held, groups.bounds, strict=True
        )
    )


def _fold_arrays(ends: DealerEnds) -> tuple[FoldArrays, ...]:
    """Each value's fold as the kernels take it: order, drawn, starts, widths, size."""
    return tuple(
        (f.order, f.drawn, np.array(f.starts, dtype=np.int64), np.array(f.widths), f.size)
        for f in ends.folds
    )


def _fold(
    ends: DealerEnds,
    groups: ShoeGroups,
    table: NumberArray,
    prime: int | None,
    out: NumberArray | None = None,
) -> NumberArray:
    """Sums of ``ways * prod fall(n_v, D_v)`` by shoe group and by (result, length).

    ``table[d, n]`` is ``fall(n, d)`` (modulo ``prime`` if given, then so is every sum).
    Rows are the final shoe groups, columns follow ``ends.results``; the sums go into
    ``out`` when it is given.  Every sum adds its terms in the order of the values' counts.
    """
    ways = (ends.ways if prime is None else ends.ways % prime).astype(table.dtype)
    if out is None:
        rows = groups.bounds[-1][-1] if groups.bounds else 1
        out = np.empty((rows, len(ends.final)), dtype=table.dtype)
    steps = _steps(_fold_arrays(ends), groups)
    kernel.fold(out, ways, steps, np.ascontiguousarray(table), ends.final, prime or 0)
    return out


def _falling_for(ends: DealerEnds, most: int) -> FloatArray:
    """The float ``fall(n, d)`` table :func:`_fold` reads for ``ends`` (see
    :func:`falling_floats`)."""
    return falling_floats(ends.depth, most)


def falling_floats(depth: int, most: int) -> FloatArray:
    """The float ``fall(n, d)`` table the fold reads for a dealer drawing at most ``depth``
    cards against shoes holding at most ``most`` cards of any value: no hand draws more
    than ``depth`` cards of a value (rows past the most any hand draws are never read).
    The table is made for counts up to ``most | 127`` (every shoe of up to eight decks),
    once per depth: a study of depleted shoes meets a new ``most`` at almost every state."""
    return _falling_floats(depth + 1, most | 127)


def _as_shoe_array(shoes: Sequence[ValueCounts] | IntArray, signs: bool = True) -> IntArray:
    """``shoes`` as an int64 array of rows of 10 counts, checked (their signs too, unless
    ``signs`` is false: the caller checks them itself)."""
    array = np.asarray(shoes, dtype=np.int64)
    if array.ndim != 2 or array.shape[1] != 10:
        raise ShoeError("shoes must be given as rows of 10 counts, one per value A..10")
    if signs and (array < 0).any():
        _negative()
    return array


def _negative() -> NoReturn:
    raise ShoeError("a shoe cannot hold a negative number of cards")


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
    counts = _as_shoe_array(shoes, signs=False)
    summary = _summary(counts)
    if (summary.least < 0).any():
        _negative()
    if not len(counts):
        return np.zeros((0, len(outcome_labels(rules))))
    depth = final_hands(rules)[bonus - 1][2]
    if len(counts) and int(summary.sizes.min()) < depth:
        return tree_probabilities(rules, bonus, counts)
    ends = dealer_ends(rules, bonus)
    groups = _shoe_groups(counts, summary)
    table = _falling_for(ends, int(summary.most.max()))
    # falling[L] = N (N - 1) ... (N - L + 1): the ordered ways to deal L cards, for each
    # distinct shoe size N.
    sizes, column = _distinct_sizes(summary.sizes)
    falling = np.cumprod(sizes[None, :] - np.arange(ends.depth)[:, None], axis=0, dtype=np.float64)
    falling = np.vstack([np.ones((1, len(sizes))), falling])
    inputs = float_inputs(rules, bonus)
    out = np.empty((len(counts), len(outcome_labels(rules))))
    steps = _steps(inputs.folds, groups)
    tail = (inputs.lengths, inputs.wide, falling, column, inputs.starts, inputs.results)
    kernel.dealer_float(
        inputs.ways, steps, table, inputs.take, out, groups.final, *tail, inputs.width
    )
    return out


class FloatInputs(NamedTuple):
    """What the kernels' float dealer reads of one Bonus card's :class:`DealerEnds` besides
    the shoes, as they take it: the final hands' ways as floats, each value's fold (order,
    drawn, starts, widths, size), the last stage's columns, each (result, length) pair's
    length and place among every pair the dealer can end on (``width`` of them), and where
    each result's pairs start and which result they are."""

    ways: FloatArray
    folds: tuple[FoldArrays, ...]
    take: IntArray
    lengths: IntArray
    wide: IntArray
    starts: IntArray
    results: IntArray
    width: int
    depth: int


def float_inputs(rules: Rules, bonus: int) -> FloatInputs:
    """:class:`FloatInputs` for ``rules`` and the Bonus card ``bonus`` (kept per dealer rules)."""
    return _float_inputs(dealer_rules(rules), bonus)


@lru_cache(maxsize=256)
def _float_inputs(rules: Rules, bonus: int) -> FloatInputs:
    ends = dealer_ends(rules, bonus)
    pairs = result_lengths(rules, bonus)
    # Each shoe is priced at its (result, length) pair's place among every pair the dealer
    # can end on (those no shoe reaches add zeros).
    codes = ends.results * 32 + ends.lengths
    wide = np.searchsorted(pairs, codes) if len(pairs) > len(codes) else np.arange(len(codes))
    results = pairs // 32
    first = np.ones(len(results), dtype=bool)
    first[1:] = results[1:] != results[:-1]
    found = FloatInputs(
        ends.ways.astype(np.float64),
        _fold_arrays(ends),
        ends.final,
        ends.lengths,
        wide,
        np.flatnonzero(first),
        results[first],
        len(pairs),
        ends.depth,
    )
    for array in (found.ways, found.wide, found.starts, found.results):
        array.flags.writeable = False
    return found


def _distinct_sizes(sizes: IntArray) -> tuple[IntArray, IntArray]:
    """``np.unique(sizes, return_inverse=True)`` by counting: shoe sizes span a few values.

    >>> [a.tolist() for a in _distinct_sizes(np.array([7, 5, 7, 9]))]
    [[5, 7, 9], [1, 0, 1, 2]]
    """
    if len(sizes) == 0:
        return sizes.copy(), np.zeros(0, dtype=np.int64)
    distinct, column = np.empty(len(sizes), dtype=np.int64), np.empty(len(sizes), dtype=np.int64)
    count = kernel.distinct_sizes(np.ascontiguousarray(sizes, dtype=np.int64), distinct, column)
    return distinct[:count], column


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
    folds = float_inputs(rules, bonus).folds  # the fold arrays, kept per rules
    outcomes = len(outcome_labels(rules))
    return _residues(ends, folds, counts, np.array(primes, dtype=np.int64), outcomes)


def _residues(
    ends: DealerEnds,
    folds: tuple[FoldArrays, ...],
    counts: IntArray,
    primes: IntArray,
    outcomes: int,
) -> IntArray:
    """:func:`dealer_residues`: the modular folds, then the tail.

    Each prime's fold writes its sums (shoe group, pair) straight into one array that the
    tail reads as it is (the steps made once for every prime); the falling factorials
    modulo each prime come from :func:`_falling_modulo`, without Python's big integers.
    """
    groups = _shoe_groups(counts)
    steps = _steps(folds, groups)
    rows = max((int(f.drawn.max(initial=0)) for f in ends.folds), default=0) + 1
    tables = _falling_modulo(rows, int(counts.max(initial=0)), tuple(primes.tolist()))
    width = groups.bounds[-1][-1] if groups.bounds else 1
    sums = np.empty((len(primes), width, len(ends.final)), dtype=np.int64)
    for k, q in enumerate(primes.tolist()):
        kernel.fold(sums[k], ends.ways % q, steps, tables[k], ends.final, q)
    distinct, column = _distinct_sizes(counts.sum(axis=1))
    out = np.empty((len(primes), outcomes, len(counts)), dtype=np.int64)
    kernel.dealer_residues(
        out,
        sums,
        groups.final,
        ends.lengths,
        ends.results,
        distinct,
        column,
        primes,
        ends.depth,
    )
    return out


@lru_cache(maxsize=32)
def _falling_modulo(rows: int, top: int, primes: tuple[int, ...]) -> IntArray:
    """:func:`_falling_floats`' integers modulo each prime (first axis), row by row in int64.

    ``fall(n, d) = fall(n, d - 1) (n - d + 1)``: each row is the last times a factor below
    2**16, reduced, so every entry is the same residue as the big integer's.

    >>> _falling_modulo(3, 4, (5,)).tolist()
    [[[1, 1, 1, 1, 1], [0, 1, 2, 3, 4], [0, 0, 2, 1, 2]]]
    """
    q = np.array(primes, dtype=np.int64)[:, None]
    n = np.arange(top + 1, dtype=np.int64)
    table = np.ones((len(primes), rows, top + 1), dtype=np.int64)
    for d in range(1, rows):
        table[:, d] = table[:, d - 1] * (np.maximum(n - d + 1, 0) % q) % q
    table.flags.writeable = False  # kept for later calls
    return table


def exact_dealer(rules: Rules, bonus: int, shoes: Sequence[ValueCounts] | IntArray) -> ExactDealer:
    """Exact distributions of the dealer's result, one per shoe, as integer counts."""
    counts = _as_shoe_array(shoes)
    sizes = counts.sum(axis=1)
    if not fast_path_fits(rules, bonus, sizes):
        return tree_exact_dealer(rules, bonus, counts)
    depth = dealer_ends(rules, bonus).depth
    denominators = [padded_falling_cached(int(n), depth) for n in sizes]
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
