"""The edge against one parameter: one solve of the game at each value (``cbj sweep``,
:func:`sweep`).

Each point is a plain solve of the game with that one rule or pay changed
(:func:`solver.exact.game.solve_game`, kept in the store like any other solve), so its
figures are ``cbj solve``'s at that value.  The points are solved on up to ``jobs`` worker
processes, with ``progress(done, total)`` called as each is finished.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import partial

from solver.exact.game import solve_game
from solver.model.parallel import parallel_map
from solver.model.params import ProgressCallback
from solver.model.rules import Rules
from solver.results.kinds import Store
from solver.results.run import Run
from solver.results.sweep import (
    Number,
    SweepPoint,
    SweepResult,
    sweep_values,
    value_in,
    varied,
    with_value,
)


def _point(
    item: tuple[Fraction, Rules], in_force: Fraction, exact: bool, cache: Store | None
) -> SweepPoint:
    """The game at one value of the parameter (``item``: the value and the rules with it):
    each wager's house edge and the round's SD, marked if it is the value in force."""
    value, rules = item
    game = solve_game(rules, exact=exact, cache=cache)
    assert game.bonus is not None  # a full shoe: every card's suit is known
    return SweepPoint(
        value,
        value == in_force,
        -game.expected_value,
        game.bonus.house_edge,
        game.round_house_edge,
        math.sqrt(game.round_variance),
    )


def solve_sweep(
    rules: Rules,
    vary: str,
    start: Number,
    stop: Number,
    step: Number | None = None,
    *,
    exact: bool = False,
    jobs: int = 1,
    cache: Store | None = None,
    progress: ProgressCallback | None = None,
) -> SweepResult:
    """The game under ``rules`` with ``vary`` (a numeric rule, or a tier's pay) set to each
    value from ``start`` to ``stop`` by ``step``, and the value in force among them.

    >>> result = solve_sweep(Rules(), "suited-match", 10, 20, 5)
    >>> [(str(p.value), p.in_force) for p in result.points]
    [('10', False), ('15', True), ('20', False)]
    """
    what = varied(vary, rules)
    values = sweep_values(what, rules, start, stop, step)
    items = [(value, with_value(rules, what, value)) for value in values]
    point = partial(_point, in_force=value_in(rules, what), exact=exact, cache=cache)
    points = tuple(parallel_map(point, items, jobs, "processes", progress))
    return SweepResult(rules, what, exact, points)


def sweep(
    *,
    rules: Rules,
    vary: str,
    start: Number,
    stop: Number,
    step: Number | None,
    exact: bool,
    run: Run,
) -> SweepResult:
    """The edge against one parameter: the game under the rules with ``vary`` (a numeric
    rule, or a tier's pay) set to each value from ``start`` to ``stop`` by ``step``, each
    wager's house edge and the round's edge and SD at each, the value in force marked.
    """
    return solve_sweep(
        rules, vary, start, stop, step, exact=exact, jobs=run.jobs, cache=run.cache,
        progress=run.progress,
    )  # fmt: skip
