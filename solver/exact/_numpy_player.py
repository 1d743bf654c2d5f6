"""The numpy twin's player kernels (see :mod:`solver.exact._numpy`): the hand space, the
player's float solve after the dealer's, a Bonus card's whole float solve in one call, a
fixed play's walk and float rows as tuples, as ``_player.c`` computes them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from solver.exact._numpy_dealer import dealer_float, distinct_sizes, shoe_groups

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: Standing's classes: win, push, lose.
WIN, PUSH, LOSE = 0, 1, 2
#: Codes of the dealer's results in ``player_hands.showdown_tables``' labels.
LABEL_BUST, LABEL_NATURAL = -1, -2


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


def chart_walk(
    values: Any,
    hit: Any,
    reach: Any,
    order: Any,
    bounds: Any,
    hits: Any,
    draws: Any,
    children: Any,
    sizes: Any,
    stand: Any,
    left: int,
    roots: Any,
    weights: Any,
    /,
) -> None:
    """A fixed play's values (``hits``: whether each hand draws) over a hand space whose
    hands are listed level by level, the highest hard total first (``order[bounds[k]:
    bounds[k + 1]]``), into ``values`` (the bust last, -1); when ``hit`` has room, every
    hand's value of hitting once under the play (0 where no card is left); when ``reach``
    has room, each hand's chance of being reached from ``roots`` (each with its weight)."""
    n = len(sizes)
    drawing = np.asarray(hits, dtype=bool)
    levels = [order[a:b] for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True)]
    values[n] = -1.0
    values[:n][~drawing] = stand[~drawing]
    for level in levels:
        rows = level[drawing[level]]
        if len(rows):
            values[rows] = _hit_once(rows, values, draws, children, sizes, left)
    if len(hit) == n:
        hit[:] = 0.0
        rows = np.flatnonzero(sizes < left)
        hit[rows] = _hit_once(rows, values, draws, children, sizes, left)
    if len(reach) != n + 1:
        return
    reach[:] = np.bincount(roots, weights, n + 1)
    for level in reversed(levels):  # the lowest hard totals first
        rows = level[drawing[level]]
        if len(rows):
            share = reach[rows] / (left - sizes[rows])
            passed = draws[rows] * share[:, None]
            reach += np.bincount(children[rows].ravel(), passed.ravel(), n + 1)


def _hit_once(
    rows: IntArray, values: FloatArray, draws: Any, children: Any, sizes: Any, left: int
) -> FloatArray:
    """Each of ``rows`` hitting once, its children valued by ``values``."""
    terms = draws[rows] * values[children[rows]]
    terms[:, 0] += 0.0  # the running sum starts at 0.0 (-0.0 + 0.0 is 0.0)
    # The cards in order, one after another, as a hand-by-hand walk adds them.
    found: FloatArray = np.add.accumulate(terms, axis=1)[:, -1] / (left - sizes[rows])
    return found


def rows(array: Any, order: Any, /) -> tuple[tuple[Any, ...], ...]:
    """Rows ``order`` of a two-dimensional float array as a tuple of tuples of floats."""
    return tuple(map(tuple, np.take(array, order, axis=0).tolist()))


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
    written unless ``grouped``, when they are read and ``grouped`` is the number of hands
    kept from the call that wrote them (``hands`` ... ``sizes`` hold them already; only the
    draws are written).  Returns ``n``."""
    u = len(keys_in)
    if grouped:  # the hands of a space kept from an earlier call: only the draws are new
        n = grouped
        if n > u:
            raise ValueError("a kept hand space must fit the universe's rows")
        draws[:n] = limit[None, :] - hands[:n]
        if (draws[:n] < 0).any():
            raise ValueError("a kept hand does not fit in the shoe")
    else:
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
