"""The best linear count of a level, found by a complete search over every tag vector.

A count of level ``L`` tags each rank with a whole number from ``-L`` to ``L``; the tens
J, Q and K share the ten's tag (the main game cannot tell them apart), so there are ten
groups and ``(2L + 1) ** 10`` vectors: 59,049 at level 1, 9,765,625 at level 2,
282,475,249 at level 3.  Balanced and unbalanced vectors alike are searched.

With ``e`` the EORs less their mean over the 13 ranks, ``E[g]`` their sum over group
``g`` and ``w[g]`` its number of ranks, a vector ``t`` has (Griffin's betting
correlation, see :func:`solver.exact.protection.betting_correlation`)::

    BC(t) = P / sqrt((Q - S**2 / 13) * sum(e**2)),   P = sum t[g] E[g],
                                                     S = sum w[g] t[g],  Q = sum w[g] t[g]**2

Split the groups into two halves: ``P``, ``S`` and ``Q`` are each the sum of the halves'.
For fixed ``(S, Q)`` of both halves, ``BC`` grows with ``P``, so within each half only
the vector with the largest ``P`` of each ``(S, Q)`` class can belong to an optimum.  The
search enumerates each half (``(2L + 1) ** 5`` vectors), keeps the best of each class, and
compares every pair of classes: a complete search (every vector is dominated by a
compared pair), in a second or so for level 3.  Ties are broken towards the smallest
``|S|`` (the most balanced count), then the smallest ``Q``, then the first vector in
lexicographic order of the tags.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np

from solver.model.counts import LABELS, Tags
from solver.model.errors import CountError
from solver.results.count_search import CountSearch, PlayingSearch
from solver.results.dealt_shoes import COLUMNS, GAINS, DealtShoes

#: The ten tag groups: each rank A to 9 alone, and the four ten-value ranks together.
GROUPS: tuple[tuple[str, ...], ...] = (*((r,) for r in LABELS[:9]), tuple(LABELS[9:]))
#: Highest level searched (level 5 compares about 10^8 class pairs).
MAX_LEVEL = 5
#: Correlations closer than this are a tie.
TIE = 1e-12

Array = np.ndarray[Any, Any]


def _half(values: Array, weights: Array, level: int) -> tuple[Array, Array, Array, Array]:
    """Every vector of one half grouped by ``(S, Q)``: each class's best vector, P, S and Q."""
    k = len(values)
    vectors = np.array(list(product(range(-level, level + 1), repeat=k)), dtype=np.int64)
    p = vectors @ values
    s = vectors @ weights
    q = (vectors**2) @ weights
    # Sort by class, then largest P first (the first vector in lexicographic order on a tie:
    # ``product`` yields that order and lexsort is stable).
    order = np.lexsort((-p, q, s))
    s, q = s[order], q[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = (s[1:] != s[:-1]) | (q[1:] != q[:-1])
    chosen = order[first]
    return vectors[chosen], p[chosen], s[first], q[first]


def group_effects(effects: Mapping[str, Fraction | float]) -> tuple[Array, Array, float]:
    """Each group's summed centred EOR, its number of ranks, and the EORs' sum of squares."""
    e = {r: Fraction(effects[r]) for r in LABELS}
    mean = sum(e.values(), Fraction(0)) / len(LABELS)
    centred = {r: v - mean for r, v in e.items()}
    sums = np.array([float(sum(centred[r] for r in g)) for g in GROUPS])
    weights = np.array([len(g) for g in GROUPS], dtype=np.int64)
    return sums, weights, float(sum(v * v for v in centred.values()))


def search_vectors(
    sums: Array, weights: Array, spread: float, level: int, ranks: int
) -> tuple[Array, float, int]:
    """The tag vector (one tag per group) of the highest correlation, its value, and the
    number of class pairs compared; ``ranks`` is the number of ranks the weights add up to.

    >>> v, bc, _ = search_vectors(np.array([-2.0, 1.0, 1.0]), np.array([1, 1, 1]), 6.0, 1, 3)
    >>> v.tolist(), round(bc, 12)
    ([-1, 0, 0], 1.0)
    """
    if not 1 <= level <= MAX_LEVEL:
        raise CountError(f"level {level} is not searched: give 1 to {MAX_LEVEL}")
    if spread == 0:
        raise CountError("every rank has the same EOR: no count can follow it")
    cut = len(sums) // 2
    v1, p1, s1, q1 = _half(sums[:cut], weights[:cut], level)
    v2, p2, s2, q2 = _half(sums[cut:], weights[cut:], level)
    s = s1[:, None] + s2[None, :]
    q = q1[:, None] + q2[None, :]
    variance = q - s * s / ranks
    with np.errstate(divide="ignore", invalid="ignore"):
        bc = np.where(variance > 1e-9, (p1[:, None] + p2[None, :]) / np.sqrt(variance * spread), -2)
    top = bc.max()
    ties = np.flatnonzero(bc.ravel() >= top - TIE)
    # Most balanced, then smallest squares, then the first in lexicographic order.
    i1, i2 = np.unravel_index(ties, bc.shape)
    tagged = np.concatenate([v1[i1], v2[i2]], axis=1)
    keys = (*tagged.T[::-1], q[i1, i2], np.abs(s[i1, i2]))  # lexsort: the last key first
    best = int(np.lexsort(keys)[0])
    return tagged[best], float(bc.ravel()[ties[best]]), int(bc.size)


def search_count(effects: Mapping[str, Fraction | float], level: int, wager: str) -> CountSearch:
    """The level-``level`` count best correlated with ``effects`` (one wager's EORs).

    Every vector of tags from ``-level`` to ``level`` is covered (the tens sharing one
    tag); see the module's docstring for why comparing the classes' best halves suffices.
    """
    sums, weights, spread = group_effects(effects)
    vector, correlation, pairs = search_vectors(sums, weights, spread, level, len(LABELS))
    tags: Tags = {}
    for group, tag in zip(GROUPS, vector.tolist(), strict=True):
        tags.update(dict.fromkeys(group, int(tag)))
    tags = {r: tags[r] for r in LABELS}
    return CountSearch(level, wager, tags, correlation, (2 * level + 1) ** len(GROUPS), pairs)


# --- The best count for index plays -------------------------------------------------------------

#: Highest level the playing search covers ((2L + 1) ** 10 vectors, each scored in full).
MAX_PLAYING_LEVEL = 2


def group_true_counts(shoes: DealtShoes) -> Array:
    """``X[s, g]``: what one unit of group ``g``'s tag adds to state ``s``'s true count
    (its cards dealt less an average shoe's, per deck left), so that a vector ``t`` of
    group tags has true counts ``X @ t`` (as :meth:`DealtShoes.true_counts` reads them)."""
    rows = np.array(shoes.rows)
    left = rows[:, 0]
    dealt = 52 * shoes.rules.decks - left
    by_rank = rows[:, 1 : 1 + len(LABELS)]
    columns = []
    for group in GROUPS:
        cards = by_rank[:, [LABELS.index(r) for r in group]].sum(axis=1)
        columns.append((52 * cards - 4 * len(group) * dealt) / left)
    return np.stack(columns, axis=1)


def playing_scores(vectors: Array, x: Array, gains: Array, weights: Array) -> Array:
    """Each vector's weighted mean of ``|correlation(X @ t, gains[:, k])|`` over decisions
    ``k`` (weights ``weights``), from the states' moments: the plain formula, for a twin.

    >>> x = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]])
    >>> y = (x @ np.array([1.0, -1.0]))[:, None]
    >>> playing_scores(np.array([[1, -1], [1, 0]]), x, y, np.array([1.0])).round(6).tolist()
    [1.0, 0.866025]
    """
    counts = vectors @ x.T  # each vector's true count in each state
    counts = counts - counts.mean(axis=1, keepdims=True)
    centred = gains - gains.mean(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        norms = np.sqrt((counts**2).sum(axis=1))[:, None] * np.sqrt((centred**2).sum(axis=0))
        rho = np.where(norms > 0, (counts @ centred) / norms, 0.0)
    scores: Array = np.abs(rho) @ weights / weights.sum()
    return scores


def search_playing(shoes: DealtShoes, level: int, round_ev: Array) -> PlayingSearch:
    """The level-``level`` count whose true count best follows the decisions' gains in
    ``shoes`` (:class:`~solver.results.count_search.PlayingSearch`), over every vector of
    group tags; of a vector and its negative (equal scores) the one whose true count rises
    with ``round_ev``, each state's round EV, is kept.

    The correlations come from the states' covariances: with ``C = cov(X, gains)`` and
    ``S = cov(X)``, ``t`` correlates ``t @ C[:, k] / sqrt(t @ S @ t * var(gains[:, k]))``
    with decision ``k``; both halves of ``t`` (five groups each) are enumerated once and
    every pair scored, a block of first halves at a time.
    """
    if not 1 <= level <= MAX_PLAYING_LEVEL:
        raise CountError(
            f"level {level} is not searched for playing: give 1 to {MAX_PLAYING_LEVEL}"
        )
    x = group_true_counts(shoes)
    gains = np.array(shoes.rows)[:, GAINS:].reshape(len(x), -1)
    weights = np.maximum(gains, 0).mean(axis=0)
    spread = gains.std(axis=0)
    if len(x) < 3 or not (weights * spread).any():
        raise CountError("the dealt shoes give no decision a gain that varies: deal more shoes")
    xc, yc = x - x.mean(axis=0), gains - gains.mean(axis=0)
    cov, covariance = xc.T @ yc / len(x), xc.T @ xc / len(x)
    scale = np.where(spread > 0, weights / np.where(spread > 0, spread, 1), 0.0) / weights.sum()
    half = len(GROUPS) // 2
    first = np.array(list(product(range(-level, level + 1), repeat=half)), dtype=np.float64)
    second = np.array(
        list(product(range(-level, level + 1), repeat=len(GROUPS) - half)), dtype=np.float64
    )
    a, b = first @ cov[:half], second @ cov[half:]
    q1 = np.einsum("ij,jk,ik->i", first, covariance[:half, :half], first)
    q2 = np.einsum("ij,jk,ik->i", second, covariance[half:, half:], second)
    cross = first @ covariance[:half, half:]
    best, where = -1.0, (0, 0)
    for start in range(0, len(first), 32):
        stop = min(start + 32, len(first))
        total = np.abs(a[start:stop, None, :] + b[None, :, :]) @ scale
        variance = q1[start:stop, None] + q2[None, :] + 2 * cross[start:stop] @ second.T
        with np.errstate(divide="ignore", invalid="ignore"):
            score = np.where(variance > 1e-12, total / np.sqrt(variance), -1.0)
        i, j = np.unravel_index(int(np.argmax(score)), score.shape)
        if score[i, j] > best + TIE:
            best, where = float(score[i, j]), (start + int(i), int(j))
    vector = np.concatenate([first[where[0]], second[where[1]]]).astype(np.int64)
    if float(np.cov(x @ vector, round_ev)[0, 1]) < 0:
        vector = -vector
    tags: Tags = {}
    for group, tag in zip(GROUPS, vector.tolist(), strict=True):
        tags.update(dict.fromkeys(group, int(tag)))
    tags = {r: tags[r] for r in LABELS}
    return PlayingSearch(level, tags, best, (2 * level + 1) ** len(GROUPS), len(x))


def best_playing_count(shoes: DealtShoes, level: int) -> PlayingSearch:
    """:func:`search_playing` on the even-numbered shoes (the odd ones are left to judge the
    count on), the sign set by the round's EV for a counter playing the chart."""
    half = shoes.every_other(0)
    rows = np.array(half.rows)
    at = {name: i for i, name in enumerate(COLUMNS)}
    round_ev = rows[:, at["chart_ev"]] + float(shoes.rules.bonus_ratio) * rows[:, at["bonus_ev"]]
    return search_playing(half, level, round_ev)
