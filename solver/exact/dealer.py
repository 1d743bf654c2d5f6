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

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from types import ModuleType
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
    """:class:`ShoeSummary` of shoes as rows of counts (zeros by value when there are none).

    numpy's sums and extremes along an axis of 10 take 50 microseconds each for a six-deck
    solve's 3,082 shoes; the compiled kernel takes all three in one pass.
    """
    if not len(counts):
        return ShoeSummary(np.zeros(0, dtype=np.int64), *np.zeros((2, 10), dtype=np.int64))
    compiled = kernel.native()
    if compiled is not None:
        return ShoeSummary(*kernel.shoe_summary(compiled, counts))
    return ShoeSummary(counts.sum(axis=1), counts.min(axis=0), counts.max(axis=0))


def _shoe_groups(counts: IntArray, summary: ShoeSummary | None = None) -> ShoeGroups:
    """Group shoes for :func:`_fold`: see :class:`ShoeGroups` (``summary``: the counts').

    The groups depend on the counts only through their order within each value, so shoes
    that differ from another batch by a card of each value (the same player hands
    against another Bonus card, say) reuse its grouping.
    """
    if summary is None:
        summary = _summary(counts)
    least = summary.least
    # A key of 16-bit counts where they fit: a quarter of the bytes to copy and hash.  (In
    # 16 bits the difference wraps as the counts do, so it is exact where it fits.)
    narrow = not len(counts) or int((summary.most - least).max()) < 1 << 15
    kind = np.int16 if narrow else np.int64
    shifted = np.subtract(counts, least, dtype=kind, casting="unsafe")
    found = _groups_of(shifted.tobytes(), len(counts))
    return ShoeGroups(
        found.parents,
        [h + least[9 - f] for f, h in enumerate(found.held)],
        found.bounds,
        found.final,
    )


@lru_cache(maxsize=16)
def _groups_of(key: bytes, shoes: int) -> ShoeGroups:
    """:func:`_shoe_groups` for counts as the bytes of an int16 or int64 array (shoes x 10).

    On the compiled kernel (int16 counts) one counting sort a value replaces np.unique.
    """
    wide = shoes > 0 and len(key) == 8 * 10 * shoes
    narrow = np.frombuffer(key, dtype=np.int64 if wide else np.int16).reshape(shoes, 10)
    counts: IntArray = narrow.astype(np.int64)
    compiled = kernel.native()
    if compiled is not None and not wide and shoes > 0:
        parents_c, held_c, bounds_c, final = kernel.shoe_groups(compiled, counts)
        for shared in (*parents_c, *held_c, final):
            shared.flags.writeable = False  # kept for later calls
        return ShoeGroups(parents_c, held_c, bounds_c, final)
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


def _falling_for(ends: DealerEnds, most: int) -> FloatArray:
    """The float ``fall(n, d)`` table :func:`_fold` reads for ``ends`` against shoes holding
    at most ``most`` cards of any value: no hand draws more than ``ends.depth`` cards of a
    value (rows past the most any hand draws are never read)."""
    return _falling_floats(ends.depth + 1, most)


def _fold_float(ends: DealerEnds, counts: IntArray) -> FloatArray:
    """Float sums of ``ways * prod fall(n_v, D_v)`` by shoe and by (result, length)."""
    groups = _shoe_groups(counts)
    table = _falling_for(ends, int(counts.max(initial=0)))
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
    pairs = result_lengths(rules, bonus)
    compiled = kernel.native()
    if compiled is not None:
        # The fold and the rest in one call: each shoe priced from its row while in cache.
        shape = (len(counts), len(outcome_labels(rules)))
        tail = (groups.final, falling, column)
        return kernel.dealer_float(compiled, (ends, groups, table), shape, tail, pairs)
    folded = _fold(ends, groups, table, None)
    sums = np.take(folded, groups.final, axis=0)
    chances = sums.T / np.take(falling[ends.lengths], column, axis=1)
    # Rows of zeros for the (result, length) pairs no shoe can reach: numpy need not add a
    # result's rows one after another, and the same rows round the same way.
    if len(pairs) > len(ends.results):
        wide = np.zeros((len(pairs), len(counts)))
        wide[np.searchsorted(pairs, ends.results * 32 + ends.lengths)] = chances
        chances = wide
    out = np.zeros((len(outcome_labels(rules)), len(counts)))
    _add_by_result(out, pairs // 32, chances)
    out[0] = 1.0 - out[1:].sum(axis=0)
    return np.ascontiguousarray(out.T)


def _distinct_sizes(sizes: IntArray) -> tuple[IntArray, IntArray]:
    """``np.unique(sizes, return_inverse=True)`` by counting: shoe sizes span a few values.

    >>> [a.tolist() for a in _distinct_sizes(np.array([7, 5, 7, 9]))]
    [[5, 7, 9], [1, 0, 1, 2]]
    """
    if len(sizes) == 0:
        return sizes.copy(), np.zeros(0, dtype=np.int64)
    compiled = kernel.native()
    if compiled is not None:
        return kernel.distinct_sizes(compiled, sizes)
    least = int(sizes.min())
    present = np.bincount(sizes - least) > 0
    rank = np.cumsum(present) - 1
    return np.flatnonzero(present) + least, rank[sizes - least]


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
    compiled = kernel.native()
    if compiled is not None:
        shape = (len(primes), len(outcome_labels(rules)), len(counts))
        return _residues_compiled(compiled, shape, ends, counts, np.array(primes, dtype=np.int64))
    sums, group = _fold_modulo(ends, counts, np.array(primes, dtype=np.int64))
    # tail[L] = falling(N - L, depth - L) lifts counts of L-card hands to falling(N, depth).
    distinct = sorted(set(sizes.tolist()))
    tails = np.array(
        [
            [
                [padded_falling_cached(n - cards, ends.depth - cards) % q for n in distinct]
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


def _residues_compiled(
    compiled: ModuleType,
    shape: tuple[int, int, int],
    ends: DealerEnds,
    counts: IntArray,
    primes: IntArray,
) -> IntArray:
    """:func:`dealer_residues` on the compiled kernel: the folds, then the tail, in C.

    Each prime's fold writes its sums (shoe group, pair) straight into one array that the
    tail reads as it is; the falling factorials modulo each prime come from
    :func:`_falling_modulo`, without Python's big integers.
    """
    groups = _shoe_groups(counts)
    rows = max((int(f.drawn.max(initial=0)) for f in ends.folds), default=0) + 1
    tables = _falling_modulo(rows, int(counts.max(initial=0)), tuple(primes.tolist()))
    width = groups.bounds[-1][-1] if groups.bounds else 1
    sums = np.empty((len(primes), width, len(ends.final)), dtype=np.int64)
    for k, q in enumerate(primes.tolist()):
        kernel.fold(compiled, ends, groups, tables[k], q, sums[k])
    sizes = _distinct_sizes(counts.sum(axis=1))
    return kernel.dealer_residues(compiled, shape, sums, groups.final, ends, sizes, primes)


@lru_cache(maxsize=32)
def _falling_modulo(rows: int, top: int, primes: tuple[int, ...]) -> IntArray:
    """:func:`_falling_table` modulo each prime (first axis), row by row in int64.

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
