"""The numpy twin's dealer kernels (see :mod:`solver.exact._numpy`): the dealer's set-up
(``final_hands``, ``dealer_ends``), the fold and the float dealer (``fold``,
``dealer_float``) and the shoes (``shoe_summary``, ``shoe_groups``, ``distinct_sizes``), as
``_ends.c``, ``_fold.c`` and ``_shoes.c`` compute them."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
#: A fold's step as both twins take it: order, drawn, starts, widths, parent, held, bounds
#: (int64 arrays) and the next stage's size (see ``dealer._steps``).
Step = tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, int]

#: Modular folds of more products than this are done a block of shoe groups at a time;
#: float folds always are (one array took twice as long for one deck's float folds, while
#: the modular folds, reduced whole after each fold, were 5-10% faster in one array).
BLOCK_PRODUCTS = 1 << 18


def _add_ranks(following: Any, spread: Any, ranks: list[tuple[int, int]]) -> None:
    """Add the hands of each later rank (columns of ``spread``) onto their targets."""
    for first, width in ranks:
        following[:, :width] += spread[:, first : first + width]


def _fold_step(sums: Any, step: Step, table: Any, prime: int) -> Any:
    """One card value's step of :func:`fold`: the next stage's sums by shoe group."""
    order, drawn, starts_array, widths_array, parent, held, bounds_array, size = step
    starts, widths, bounds = starts_array.tolist(), widths_array.tolist(), bounds_array.tolist()
    # np.take walks rows (sums[:, order] would copy strided columns one by one).
    ordered = np.take(sums, order, axis=1)
    # factors[i, j] = fall(held[i], drawn[j]): one row per block of groups.
    factors = table[:, held].T[:, drawn]
    ranks = list(zip(starts[1:], widths[1:], strict=True))
    if prime and bounds[-1] * len(order) <= BLOCK_PRODUCTS:
        spread = np.take(ordered, parent, axis=0)
        for i, (start, stop) in enumerate(itertools.pairwise(bounds)):
            spread[start:stop] *= factors[i]
        following = spread[:, :size]  # rank 0: every target's first hand
        _add_ranks(following, spread, ranks)
    else:
        # One block of groups at a time, each taken, multiplied and added while it is in
        # cache: one array for all of them costs more in page faults and misses.  A
        # target's hands hold 0, 1, 2... cards of the value in rank order, so rank k holds
        # at least k: a block of shoes holding h cards of it multiplies and adds only
        # ranks 0 to h, the others' products being exact zeros (no bit changes).
        following = np.empty((bounds[-1], size), dtype=table.dtype)
        for i, (start, stop) in enumerate(itertools.pairwise(bounds)):
            kept = min(int(held[i]), len(ranks))
            width = starts[kept + 1] if kept < len(ranks) else len(order)
            spread = np.take(ordered, parent[start:stop], axis=0)[:, :width]
            spread *= factors[i, :width]
            part = following[start:stop]
            part[...] = spread[:, :size]
            _add_ranks(part, spread, ranks[:kept])
    # Modulo a prime below 2**29, at most 32 products (below 2**58 each) were added.
    return following % prime if prime else following


def fold(out: Any, ways: Any, steps: Sequence[Step], table: Any, final: Any, prime: int, /) -> None:
    """The dealer's fold: ``out[g, i]`` = the last stage's column ``final[i]`` of group ``g``.

    Starting from one group holding ``ways``, each step (tens first) multiplies every hand
    by ``table[drawn, held]`` and adds the hands that merge; ``prime`` 0 for floats, else
    every sum modulo it (``ways`` and ``table`` residues below it).
    """
    sums = ways[None, :]
    for step in steps:
        sums = _fold_step(sums, step, table, prime)
    out[...] = np.take(sums, final, axis=1)


def dealer_float(
    ways: Any,
    steps: Sequence[Step],
    table: Any,
    take: Any,
    out: Any,
    final: Any,
    lengths: Any,
    wide: Any,
    falling: Any,
    column: Any,
    starts: Any,
    results: Any,
    width: int,
    /,
) -> None:
    """The dealer's float distributions (shoes, outcomes) into ``out``: the fold, then each
    shoe's sums by (result, length) pair over ``falling[lengths[j], column[s]]``, placed at
    ``wide[j]`` of ``width`` pairs, the pairs of each result (``starts``) added into
    ``out[s, results[r]]``, and bust as one less the rest."""
    groups = len(steps[-1][4]) if steps else 1
    folded = np.empty((groups, len(take)))
    fold(folded, ways, steps, table, take, 0)
    sums = np.take(folded, final, axis=0)
    chances = sums.T / np.take(falling[lengths], column, axis=1)
    # Rows of zeros for the (result, length) pairs no shoe can reach: numpy need not add a
    # result's rows one after another, and the same rows round the same way.
    if width > len(lengths):
        spread = np.zeros((width, len(final)))
        spread[wide] = chances
        chances = spread
    by_result = np.zeros((out.shape[1], len(final)))
    if len(starts):
        by_result[results] += np.add.reduceat(chances, starts, axis=0)
    by_result[0] = 1.0 - by_result[1:].sum(axis=0)
    out[...] = by_result.T


def shoe_summary(counts: Any, sizes: Any, least: Any, most: Any, /) -> None:
    """Each shoe's number of cards, and the fewest and the most of each value (shoes > 0)."""
    if not len(counts):
        raise ValueError("counts must be (shoes, 10), shoes > 0, sizes theirs")
    sizes[...] = counts.sum(axis=1)
    least[...] = counts.min(axis=0)
    most[...] = counts.max(axis=0)


def shoe_groups(
    counts: Any, parents: Any, held: Any, bounds: Any, final: Any, sizes: Any, /
) -> None:
    """The shoes grouped value by value, tens first (``dealer._groups_of``): level ``f``'s
    groups' parents, held counts and bounds, its (groups, distinct counts) in ``sizes[f]``,
    and each shoe's last group in ``final``."""
    if not len(counts) or (counts < 0).any() or (counts >= 1 << 15).any():
        raise ValueError("counts must be at least 0 and below 2**15, at least one shoe")
    group = np.zeros(len(counts), dtype=np.int64)
    size = 1
    for f, value in enumerate(range(9, -1, -1)):
        unique, group = np.unique(counts[:, value] * size + group, return_inverse=True)
        group = group.reshape(-1)
        n = unique // size
        first = np.flatnonzero(np.concatenate((n[:1] == n[:1], n[1:] != n[:-1])))
        parents[f, : len(unique)] = unique % size
        held[f, : len(first)] = n[first]
        bounds[f, : len(first) + 1] = [*first.tolist(), len(unique)]
        sizes[f] = (len(unique), len(first))
        size = len(unique)
    final[...] = group


def distinct_sizes(sizes: Any, distinct: Any, column: Any, /) -> int:
    """The distinct sizes into ``distinct[:count]``, each size's place into ``column``;
    returns ``count`` (``np.unique(sizes, return_inverse=True)`` by counting)."""
    if not len(sizes) or int(sizes.min()) < 0:
        raise ValueError("sizes must be non-negative, at least one")
    least = int(sizes.min())
    present = np.bincount(sizes - least) > 0
    rank = np.cumsum(present) - 1
    found = np.flatnonzero(present) + least
    distinct[: len(found)] = found
    column[...] = rank[sizes - least]
    return len(found)


def dealer_ends(
    codes: Any,
    order: Any,
    drawn: Any,
    widths: Any,
    stages: Any,
    final: Any,
    results: Any,
    lengths: Any,
    /,
) -> int:
    """The dealer's final hands (codes in base 32: result, length, D_1 ... D_10; sorted)
    folded a card value at a time, tens first (``dealer_hands.DealerEnds``): fold ``f``'s
    columns' order and drawn counts in row ``f`` of ``order`` and ``drawn``, its ranks'
    widths in row ``f`` of ``widths``, (columns, ranks, size) in ``stages[f]``; the last
    stage's hands' places, results and lengths.  Returns how many the last stage holds."""
    keys = (codes[:, None] >> (5 * np.arange(11, -1, -1))[None, :]) & 31
    # Codes are sorted, so hands sharing the first w keys are neighbours: a hand starts a
    # new prefix of width w when its first key differing from the hand before is among them.
    differs = np.ones((len(keys), 13), dtype=bool)
    differs[1:, :12] = keys[1:] != keys[:-1]
    first_change = differs.argmax(axis=1)
    prefix = [np.cumsum(first_change < w) - 1 for w in range(13)]  # prefix[w]: its number
    place_in = np.arange(len(keys))  # where each hand of this stage is among the columns
    for f, width in enumerate(range(12, 2, -1)):  # values 10, 9, ..., 1 (key columns 11-2)
        rows = np.flatnonzero(first_change < width)  # one hand of each row of this stage
        target = prefix[width - 1][rows]
        merged = np.bincount(target)
        # The next stage's hands, those merging most hands first.
        place_out = np.empty(len(merged), dtype=np.int64)
        place_out[np.argsort(-merged, kind="stable")] = np.arange(len(merged))
        # Hands of one target are neighbours, fewest cards of the value first.
        rank = np.arange(len(target)) - np.searchsorted(target, target)
        ordered = np.lexsort((place_out[target], rank))
        counted = np.bincount(rank)
        order[f, : len(rows)] = place_in[ordered]
        drawn[f, : len(rows)] = keys[rows, width - 1][ordered]
        widths[f, : len(counted)] = counted
        stages[f] = (len(rows), len(counted), len(merged))
        place_in = place_out
    last = np.flatnonzero(first_change < 2)
    final[: len(last)] = place_in
    results[: len(last)] = keys[last, 0]
    lengths[: len(last)] = keys[last, 1]
    return len(last)


#: 32**10: the place of the Bonus card's digit while drawing, and of the length's digit
#: (then the result's, 32 times higher) once the hand ends.
TOP = 32**10


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


def final_hands(outcomes: Any, codes: Any, ways: Any, starts: Any, depths: Any, /) -> int:
    """Every final dealer hand for the ten Bonus cards (``outcomes[bonus - 1, min(cards,
    3), hard, ace]``: the result, -1 while drawing, 0 bust), drawn a card at a time with
    equal hands merged: Bonus card ``b``'s codes (result, length, D_1 ... D_10 in base 32,
    sorted) and drawing orders at ``starts[b]`` up to ``starts[b + 1]``, its most cards in
    ``depths[b]``.  Returns how many in all, or -1 where ``codes`` cannot hold them."""
    place = np.array([32 ** (10 - v) for v in range(1, 11)], dtype=np.int64)
    values = np.arange(1, 11, dtype=np.int64)
    bonus = np.arange(10, dtype=np.int64)  # the Bonus card's value less one
    code, orders = bonus * TOP, np.ones(10, dtype=np.int64)  # drawing orders reaching it
    hard, ace = np.zeros(10, dtype=np.int64), np.zeros(10, dtype=np.int64)
    ends: list[tuple[IntArray, IntArray, IntArray]] = []
    depth = 0
    while len(code):
        depth += 1
        child = (code[:, None] + place[None, :]).reshape(-1)
        child_hard = (hard[:, None] + values[None, :]).reshape(-1)
        child_ace = (ace[:, None] | (values == 1)[None, :]).reshape(-1)
        child_orders, child_bonus = np.repeat(orders, 10), np.repeat(bonus, 10)
        final = outcomes[child_bonus, min(depth, 3), child_hard, child_ace]
        ended = final > 0  # bust is 1 minus the rest: not carried
        key = child[ended] % TOP + (final[ended] * 32 + depth) * TOP
        ends.append((key, child_orders[ended], child_bonus[ended]))
        going = final < 0
        code, orders, (hard, ace, bonus) = _merge(
            child[going],
            child_orders[going],
            child_hard[going],
            child_ace[going],
            child_bonus[going],
        )
    every, every_orders, of = (np.concatenate(column) for column in zip(*ends, strict=True))
    at = 0
    for b in range(10):
        found, summed, _ = _merge(every[of == b], every_orders[of == b])
        if at + len(found) > len(codes):
            return -1
        starts[b] = at
        codes[at : at + len(found)] = found
        ways[at : at + len(found)] = summed
        depths[b] = int((found // TOP % 32).max(initial=0))
        at += len(found)
    starts[10] = at
    return at
