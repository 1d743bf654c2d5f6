"""Index plays from dealt shoes: where each chart decision flips by true count.

For each followed decision, every dealt state gives its true count ``x`` and the exact
main-EV gain ``y`` of playing the decision the other way from the chart
(:mod:`solver.exact.dealt_shoes`).  The index is where the least-squares line of ``y`` on
``x`` crosses zero: deviate on the side where the line is positive.  Its 95% interval is
the 2.5 and 97.5 percentiles of the same root over bootstrap resamples of the states.  The
index's value is the mean of ``y`` over the states where the index deviates, per 100
rounds; beside it the perfect value (deviating in exactly the states where ``y > 0``),
and their ratio summed over decisions is the count's playing efficiency.  The linear
estimate is the root of the line the decision's effects of removal predict
(:func:`solver.exact.protection.ev_per_true_count`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from solver.exact.protection import ev_per_true_count
from solver.model.cards import RANKS
from solver.model.counts import LABELS, Tags
from solver.results.dealt_shoes import GAINS, DealtShoes
from solver.results.indices import IndexPlay, IndicesResult

#: Bootstrap resamples for each index's interval.
RESAMPLES = 200

Array = np.ndarray[tuple[int, ...], np.dtype[np.float64]]


def fit_roots(x: Array, y: Array) -> tuple[Array, Array]:
    """The zero of the least-squares line of each column of ``y`` on ``x`` (NaN where the
    line is flat), and the sign of its slope.

    >>> roots, signs = fit_roots(np.array([0.0, 1, 2]), np.array([[-1.0], [0], [1]]))
    >>> roots.tolist(), signs.tolist()
    ([1.0], [1.0])
    """
    dx = x - x.mean(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = (dx[..., None] * (y - y.mean(axis=0))).sum(axis=0) / (dx**2).sum(axis=0)[..., None]
        intercept = y.mean(axis=0) - slope * x.mean(axis=0)[..., None]
        roots = np.where(slope != 0, -intercept / slope, np.nan)
    return roots, np.nan_to_num(np.sign(slope))


def _linear_index(shoes: DealtShoes, tags: Tags, k: int) -> float | None:
    """The root of the line the decision's effects of removal predict."""
    base = shoes.full[GAINS + k]
    by_value = [row[GAINS + k] - base for row in shoes.after]
    effects = {label: by_value[rank.points - 1] for rank, label in zip(RANKS, LABELS, strict=True)}
    slope = float(ev_per_true_count(tags, effects, 52 * shoes.rules.decks))
    return None if slope == 0 else -base / slope


def _number(value: float) -> float | None:
    return float(value) if np.isfinite(value) else None


def _played_gains(shoes: DealtShoes, x: Array, plays: Sequence[IndexPlay]) -> Array:
    """Each state's main-EV gain per round from every played index of ``plays`` together,
    each played to one place as the simulated counter plays it (``x``: the true counts)."""
    y = np.array(shoes.rows)[:, GAINS:].reshape(len(x), -1)
    together = np.zeros(len(x))
    for play in plays:
        if play.played:
            rule = play.rule()
            fires = x >= rule.index if rule.at_least else x <= rule.index
            together += y[:, shoes.decisions.index(play.decision)] * fires
    return together


def index_gains(shoes: DealtShoes, tags: Tags, result: IndicesResult) -> Array:
    """Each state's main-EV gain per round from playing ``result``'s played indices."""
    return _played_gains(shoes, np.array(shoes.true_counts(tags)), result.plays)


def index_plays(shoes: DealtShoes, system: str, tags: Tags) -> IndicesResult:
    """Every followed decision's index under ``tags``, the most valuable first."""
    x = np.array(shoes.true_counts(tags))
    y = np.array(shoes.rows)[:, GAINS:].reshape(len(x), -1)
    roots, signs = fit_roots(x, y)
    rng = np.random.default_rng(np.random.SeedSequence(shoes.seed, spawn_key=(1,)))
    picks = rng.integers(0, len(x), size=(RESAMPLES, len(x)))
    boot, _ = fit_roots(x[picks].T, np.transpose(y[picks], (1, 0, 2)))
    with np.errstate(all="ignore"):
        low, high = np.nanpercentile(boot, [2.5, 97.5], axis=0) if len(x) > 2 else (roots, roots)
    plays = []
    for k, decision in enumerate(shoes.decisions):
        at_least = bool(signs[k] >= 0)
        if np.isfinite(roots[k]):
            deviate = x >= roots[k] if at_least else x <= roots[k]
        else:
            deviate = np.zeros(len(x), dtype=bool)
        play = IndexPlay(
            decision,
            shoes.chart_hits[k],
            _number(roots[k]),
            at_least,
            _number(low[k]),
            _number(high[k]),
            _linear_index(shoes, tags, k),
            float(100 * (y[:, k] * deviate).mean()),
            float(100 * np.maximum(y[:, k], 0).mean()),
        )
        plays.append(play)
    together = _played_gains(shoes, x, plays)
    plays.sort(key=lambda p: -p.value)
    se = float(together.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else 0.0
    return IndicesResult(
        shoes.rules,
        system,
        dict(tags),
        shoes.samples,
        shoes.seed,
        shoes.penetration,
        tuple(plays),
        float(100 * together.mean()),
        100 * se,
    )
