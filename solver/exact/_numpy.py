"""The exact side's kernels in numpy: the twin of ``solver/exact/_native.c``.

Every function here has the compiled one's name and signature and fills the same output
arrays with the same numbers: float results are the same bits (the compiled code adds its
terms in the order these numpy calls add them), exact ones the same integers.  Which twin
runs is chosen once, in :mod:`solver.exact.kernel`; callers never ask.  The inputs are
those the callers hand to either twin (see each function's caller); unlike the compiled
twin, these do not check every index before they run (numpy raises IndexError instead).
"""

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

__all__ = [
    "dealer_ends",
    "dealer_float",
    "dealer_residues",
    "distinct_sizes",
    "extend",
    "final_hands",
    "fold",
    "hand_space",
    "player_exact",
    "rows",
    "shoe_groups",
    "shoe_summary",
    "solve_float",
    "solve_hands",
    "stand_modular",
]

#: Modular folds of more products than this are done a block of shoe groups at a time;
#: float folds always are (one array took twice as long for one deck's float folds, while
#: the modular folds, reduced whole after each fold, were 5-10% faster in one array).
BLOCK_PRODUCTS = 1 << 18
#: Standing's classes: win, push, lose.
WIN, PUSH, LOSE = 0, 1, 2
#: Codes of the dealer's results in ``player_hands.showdown_tables``' labels.
LABEL_BUST, LABEL_NATURAL = -1, -2


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


def hand_space(
    universe: Any,
    children_in: Any,
    keys_in: Any,
    sizes_in: Any,
    limit: Any,
    roots: Any,
    hands: Any,
    keys: Any,
    children: Any,
    draws: Any,
    sizes: Any,
    position: Any,
    /,
) -> int:
    """The hands of ``universe`` that fit in ``limit`` and hold a root, in its order, into
    the first ``n`` rows of the outputs (counts, keys, children renumbered with ``n`` for a
    bust, cards left, sizes); ``position`` gets each universe hand's place.  Returns n."""
    fits = (universe <= limit).all(axis=1)
    # A one-card root is contained in every hand holding its value: those in one test.
    single = roots.sum(axis=1) == 1
    contains = (universe[:, roots[single].argmax(axis=1)] > 0).any(axis=1)
    for root in roots[~single]:
        held = np.flatnonzero(root)  # only the values the root holds can fall short
        contains |= (universe[:, held] >= root[held]).all(axis=1)
    chosen = np.flatnonzero(fits & contains)
    n = len(chosen)
    # np.take rather than [chosen]: numpy's fancy indexing of rows is many times slower.
    hands[:n] = np.take(universe, chosen, axis=0)
    # Children found once among all hands, then renumbered: a hand not chosen is n.
    position[...] = n
    position[chosen] = np.arange(n)
    children[:n] = np.take(position, np.take(children_in, chosen, axis=0))
    draws[:n] = limit[None, :] - hands[:n]
    keys[:n] = keys_in[chosen]
    sizes[:n] = sizes_in[chosen]
    return n


def _classes(hands: Any, sizes: Any, tables: tuple[Any, Any, Any, Any]) -> IntArray:
    """Standing's class (win, push, lose) for each hand against each dealer result."""
    best, own_21, beats, labels = tables
    hard = hands @ np.arange(1, 11)
    ace = (hands[:, 0] > 0).astype(np.int64)
    total = best[hard, ace]
    cards_21 = np.where(own_21[hard, ace], sizes, sizes + 1)
    beaten = (total == 21) & (beats[cards_21] != 0)
    classes = np.empty((len(hands), len(labels)), dtype=np.int64)
    for j, label in enumerate(labels.tolist()):
        if label == LABEL_BUST:
            classes[:, j] = WIN
        elif label == LABEL_NATURAL:
            classes[:, j] = np.where((total < 21) | beaten, LOSE, PUSH)
        else:
            classes[:, j] = np.where(total > label, WIN, np.where(total == label, PUSH, LOSE))
    return classes


def solve_hands(
    dealer: Any,
    hands: Any,
    children: Any,
    draws: Any,
    sizes: Any,
    best: Any,
    own_21: Any,
    beats: Any,
    labels: Any,
    total: int,
    stand_vec: Any,
    stand: Any,
    hit: Any,
    hitting: Any,
    played: Any,
    value: Any,
    /,
) -> None:
    """The player's float solve after the dealer's distributions, in the hand space's own
    order: standing's (win, push, lose) and value, hitting's value, whether each hand hits,
    and the (win, push, lose) and value of optimal play (the busted hand last: -1, lose)."""
    n = len(sizes)
    classes = _classes(hands, sizes, (best, own_21, beats, labels))
    stand_vec[...] = np.stack([(dealer * (classes == k)).sum(axis=1) for k in (WIN, PUSH, LOSE)], 1)
    stand[...] = stand_vec[:, WIN] - stand_vec[:, LOSE]
    # Hands renumbered by size, so that each size is one slice (no gather or scatter).
    # Sizes are below 22: as bytes, numpy's stable sort is a radix sort (the same order).
    by_size = np.argsort(sizes.astype(np.int8), kind="stable")
    place = np.empty(n + 1, dtype=np.int64)
    place[by_size] = np.arange(n)
    place[n] = n  # the busted hand
    # np.take rather than [by_size]: numpy's fancy indexing of rows is many times slower.
    kids = np.take(place, np.take(children, by_size, axis=0))
    left = total - sizes[by_size]
    chances = np.take(draws, by_size, axis=0) / np.maximum(left, 1)[:, None]  # each value
    stand_sorted = stand[by_size]
    stand_vec_sorted = np.take(stand_vec, by_size, axis=0)
    top = int(sizes.max(initial=0))  # no hands (no roots): an empty solution
    ends = np.searchsorted(sizes[by_size], np.arange(top + 2)).tolist()
    hit_sorted = np.zeros(n)
    chosen = np.zeros(n, dtype=bool)
    played_sorted = np.zeros((n + 1, 3))
    played_sorted[n] = (0.0, 0.0, 1.0)  # the busted hand
    value_sorted = np.zeros(n + 1)
    value_sorted[n] = -1.0
    for size in range(len(ends) - 2, 0, -1):
        rows = slice(ends[size], ends[size + 1])
        weights = chances[rows]
        kid = kids[rows]
        hit_sorted[rows] = (weights * value_sorted[kid]).sum(axis=1)
        hit_vec = np.einsum("rv,rvk->rk", weights, played_sorted[kid])
        choose = chosen[rows] = hit_sorted[rows] > stand_sorted[rows]
        value_sorted[rows] = np.where(choose, hit_sorted[rows], stand_sorted[rows])
        played_sorted[rows] = np.where(choose[:, None], hit_vec, stand_vec_sorted[rows])
    back = place[:n]
    hit[...] = hit_sorted[back]
    hitting[...] = chosen[back]
    played[:n] = np.take(played_sorted, back, axis=0)
    played[n] = played_sorted[n]
    value[:n] = value_sorted[back]
    value[n] = -1.0


def rows(array: Any, order: Any, /) -> tuple[tuple[Any, ...], ...]:
    """Rows ``order`` of a two-dimensional float array as a tuple of tuples of floats."""
    return tuple(map(tuple, np.take(array, order, axis=0).tolist()))


def _tails(sizes: Sequence[int], depth: int, q: int) -> IntArray:
    """``tail[L, c] = padded_falling(sizes[c] - L, depth - L) mod q``: lifts counts of
    L-card dealer hands to the common denominator ``padded_falling(N, depth)``."""
    n = np.array(sizes, dtype=np.int64)
    tail = np.ones((depth + 1, len(n)), dtype=np.int64)
    for cards in range(depth - 1, -1, -1):
        tail[cards] = tail[cards + 1] * (np.maximum(n - cards, 1) % q) % q
    return tail


def dealer_residues(
    out: Any,
    sums: Any,
    final: Any,
    lengths: Any,
    results: Any,
    sizes: Any,
    column: Any,
    primes: Any,
    depth: int,
    /,
) -> None:
    """The dealer's residues (prime, result, shoe) from the modular folds' sums (prime,
    group, pair): each pair lifted to the common denominator and added by result, bust as
    the denominator less the rest."""
    first = np.ones(len(results), dtype=bool)
    first[1:] = results[1:] != results[:-1]
    starts = np.flatnonzero(first)
    for k, q in enumerate(primes.tolist()):  # a scalar modulus: numpy reduces by it faster
        tails = _tails(sizes.tolist(), depth, q)
        lifted = np.take(sums[k], final, axis=0).T * np.take(tails[lengths], column, axis=1) % q
        by_result = np.zeros(out.shape[1:], dtype=np.int64)
        if len(starts):
            by_result[results[starts]] += np.add.reduceat(lifted, starts, axis=0)
        by_result %= q
        # Every hand ends, so bust is the denominator less the rest.
        by_result[0] = (tails[0, column] - by_result[1:].sum(axis=0)) % q
        out[k] = by_result


def garner_digits(residues: IntArray, primes: Sequence[int]) -> list[IntArray]:
    """Mixed-radix digits ``a_i < p_i`` of the integers with these residues (first axis)."""
    digits: list[IntArray] = []
    for i, prime in enumerate(primes):
        digit = residues[i] % prime
        for j in range(i):
            inverse = pow(primes[j], -1, prime)
            digit = (digit - digits[j]) % prime * inverse % prime
        digits.append(digit)
    return digits


def extend(out: Any, residues: Any, primes: Any, more: Any, /) -> None:
    """The integers given by their residues (``residues[i]`` modulo ``primes[i]``) modulo
    each of ``more`` into ``out[k]``, by Garner's digits, without building them."""
    if not len(primes):
        raise ValueError("residues must be (primes, ...) and out (more, ...), of 1 to 64")
    listed = primes.tolist()
    digits = garner_digits(residues, listed)
    for k, prime in enumerate(more.tolist()):
        value = digits[-1] % prime
        for i in range(len(listed) - 2, -1, -1):
            value = (value * (listed[i] % prime) + digits[i]) % prime
        out[k] = value


def stand_modular(out: Any, dealer: Any, classes: Any, lift: Any, primes: Any, /) -> None:
    """Standing's numerators (prime, hand, w/p/l): the dealer's residues (prime, result,
    hand) summed by each hand's class, times ``lift`` (prime, hand), modulo each prime."""
    pk = primes[:, None]
    for k in (WIN, PUSH, LOSE):
        summed = (dealer * np.equal(classes.T, k)[None]).sum(axis=1)
        out[:, :, k] = summed % pk * (lift % pk) % pk


def _stand_floats(
    stand: IntArray, shift: IntArray, scale: FloatArray, primes: Sequence[int]
) -> FloatArray:
    """Standing's values as floats from its exact numerators: ``(x - D) / D`` for ``x`` the
    net shifted by ``D`` (given by its residues), in doubles from Garner's digits."""
    pk = np.array(primes, dtype=np.int64)[:, None]
    digits = garner_digits((stand[:, :, WIN] - stand[:, :, LOSE] + shift) % pk, primes)
    radix = np.cumprod([1.0, *map(float, primes[:-1])])
    whole = np.zeros(stand.shape[1])
    for i in range(len(primes) - 1, -1, -1):
        whole += digits[i] * radix[i]
    return whole / scale - 1.0


def player_exact(
    numerators: Any,
    hitting: Any,
    sizes: Any,
    draws: Any,
    kids: Any,
    left: Any,
    sums: Any,
    lift: Any,
    bust: Any,
    scale: Any,
    primes: Any,
    tolerance: float,
    /,
) -> None:
    """The player's exact backward pass modulo each prime, a hand size at a time: the
    numerators (prime, hand, (standing's net, hitting's net, played win, push, lose), the
    nets shifted by ``D(m)``) and whether each hand hits, decided by float values except
    within ``tolerance``, where the numerators decide exactly."""
    listed = primes.tolist()
    n = len(sizes)
    pk = primes[:, None]
    stand = sums % pk[:, :, None] * (lift % pk)[:, :, None] % pk[:, :, None]
    shift = np.take(bust, sizes, axis=1)
    stand_float = _stand_floats(stand, shift, scale[sizes], listed)
    played = np.zeros((len(listed), n + 1, 3), dtype=np.int64)
    hit = np.zeros((len(listed), n, 3), dtype=np.int64)
    value = np.zeros(n + 1)
    value[n] = -1.0
    chosen = np.zeros(n, dtype=bool)
    for size in range(int(sizes.max(initial=0)), 0, -1):
        at = np.flatnonzero(sizes == size)
        played[:, n] = 0
        played[:, n, LOSE] = bust[:, size + 1]  # a busted hand loses, over D(size + 1)
        kid, weights = kids[at], draws[at]
        hit[:, at] = np.einsum("rv,prvk->prk", weights, played[:, kid]) % pk[:, :, None]
        hit_float = (weights * value[kid]).sum(axis=1) / left[at]
        choose = hit_float > stand_float[at]
        for j in np.flatnonzero(np.abs(hit_float - stand_float[at]) < tolerance).tolist():
            choose[j] = _beats(hit[:, at[j]], stand[:, at[j]], listed)
        chosen[at] = choose
        played[:, at] = np.where(choose[None, :, None], hit[:, at], stand[:, at])
        value[at] = np.where(choose, hit_float, stand_float[at])
    nets = [(v[:, :, WIN] - v[:, :, LOSE] + shift) % pk for v in (stand, hit)]
    numerators[...] = np.stack([*nets, *np.moveaxis(played[:, :n], 2, 0)], axis=2)
    hitting[...] = chosen


def _beats(hit: IntArray, stand: IntArray, primes: Sequence[int]) -> bool:
    """Whether hitting's numerators (prime, w/p/l) beat standing's, compared exactly."""
    margins = np.stack([hit[:, WIN] + stand[:, LOSE], hit[:, LOSE] + stand[:, WIN]], axis=1)
    digits = garner_digits(margins % np.array(primes, dtype=np.int64)[:, None], primes)
    return [int(d[0]) for d in reversed(digits)] > [int(d[1]) for d in reversed(digits)]


def solve_float(
    universe: Any,
    children_in: Any,
    keys_in: Any,
    sizes_in: Any,
    limit: Any,
    roots: Any,
    ways: Any,
    folds: Sequence[tuple[Any, Any, Any, Any, int]],
    take: Any,
    table: Any,
    lengths: Any,
    wide: Any,
    starts: Any,
    results: Any,
    width: int,
    best: Any,
    own_21: Any,
    beats: Any,
    labels: Any,
    depth: int,
    parents: Any,
    held: Any,
    bounds: Any,
    group: Any,
    group_sizes: Any,
    grouped: int,
    hands: Any,
    keys: Any,
    children: Any,
    draws: Any,
    sizes: Any,
    stand: Any,
    hit: Any,
    hitting: Any,
    played: Any,
    /,
) -> int:
    """A Bonus card's whole float solve: :func:`hand_space`, the dealer's distributions for
    the hands' shoes (summary, groups, distinct sizes, falling factorials, then
    :func:`dealer_float`) and :func:`solve_hands`, into the first ``n`` rows of the
    outputs (``played`` one more, the busted hand).  The shoe groups (:func:`shoe_groups`
    of the counts less the fewest of each value, rows of the universe's length) are
    written unless ``grouped``, when they are read.  Returns ``n``."""
    u = len(keys_in)
    position = np.empty(u + 1, dtype=np.int64)
    space = (hands, keys, children, draws, sizes, position)
    n = hand_space(universe, children_in, keys_in, sizes_in, limit, roots, *space)
    if not n:
        return 0
    shoes = draws[:n]
    shoe_sizes, least, most = shoes.sum(axis=1), shoes.min(axis=0), shoes.max(axis=0)
    if int(shoe_sizes.min()) < depth:
        raise ValueError("a shoe is smaller than the dealer's deepest hand")
    if int((most - least).max()) >= 1 << 15:
        raise ValueError("the shoes' counts must differ by less than 2**15")
    if not grouped:
        found = np.empty((10, n), dtype=np.int64), np.empty((10, n), dtype=np.int64)
        edges = np.empty((10, n + 1), dtype=np.int64)
        shoe_groups(shoes - least, *found, edges, group[:n], group_sizes)
        parents[:, :n], held[:, :n], bounds[:, : n + 1] = *found, edges
    steps = tuple(
        (*fold[:4], parents[f, :g], held[f, :d] + least[9 - f], bounds[f, : d + 1], fold[4])
        for f, (fold, (g, d)) in enumerate(zip(folds, group_sizes.tolist(), strict=True))
    )
    distinct, column = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    count = distinct_sizes(shoe_sizes, distinct, column)
    falling = np.cumprod(
        distinct[None, :count] - np.arange(depth)[:, None], axis=0, dtype=np.float64
    )
    falling = np.vstack([np.ones((1, count)), falling])
    dealer = np.empty((n, len(labels)))
    tail = (group[:n], lengths, wide, falling, column, starts, results, width)
    dealer_float(ways, steps, table, take, dealer, *tail)
    stand_vec, value = np.empty((n, 3)), np.empty(n + 1)
    space_n = (hands[:n], children[:n], shoes, sizes[:n], best, own_21, beats, labels)
    outputs = (stand_vec, stand[:n], hit[:n], hitting[:n], played[: n + 1], value)
    solve_hands(dealer, *space_n, int(limit.sum()), *outputs)
    return n


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
