"""Any chart's exact value, and what each of its cells costs: ``cbj chart --check``, ``--costs``.

A chart plays each Bonus card's column on its own (:mod:`solver.exact.chart`), so the cost
of one cell is found by valuing that column twice, the cell played each way: exact
integers over the column's common denominators, only the cells below the flipped one
(lower hard totals, which can reach it) valued again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from fractions import Fraction
from functools import partial

from solver.exact.chart import (  # the chart's exact column workspace, shared with its search
    _Column,
    best_chart,
    reached,
    stored_chart,
    verify_chart,
)
from solver.exact.game import solutions_of
from solver.model.cards import value_label
from solver.model.cells import ROWS, Action, Actions, Cell, cell_name
from solver.model.errors import HandError
from solver.model.hands import hand_of, is_player_blackjack
from solver.results.charts import CHART_COSTS, CellCost, Chart, ChartCheck, ChartCosts
from solver.results.game import GameResult
from solver.results.kinds import Key, Store


def _column_value(
    game: GameResult[Fraction],
    column: _Column,
    bonus: int,
    chosen: dict[Cell, Action],
    values: list[int] | None = None,
) -> Fraction:
    """The main wager's EV contributed by Bonus card ``bonus`` when its column plays ``chosen``
    (its hands' ``values`` numerators, when already known)."""
    values = column.values(chosen) if values is None else values
    space = column.solution.space
    total = Fraction(0)
    for start in game.starts:
        if start.bonus != bonus:
            continue
        if is_player_blackjack(start.player, bonus):
            total += Fraction(start.probability) * game.rules.blackjack_pays
        else:
            i = space.index(hand_of([start.player]))
            total += Fraction(start.probability) * column.fraction(i, values)
    return total


def _values_from(
    column: _Column, chosen: dict[Cell, Action], values: list[int], start: int
) -> list[int]:
    """``column.values(chosen)`` when only cells from ``column.order[start]`` on have changed:
    the cells above it (higher hard totals) keep ``values``."""
    out = list(values)
    for cell in column.order[start:]:
        hit = chosen.get(cell) is Action.HIT
        for i in column.members[cell]:
            out[i] = column.hit(i, out) if hit else column.stand[i]
    return out


def chart_value(game: GameResult[Fraction], chart: Actions, name: str = "chart") -> Fraction:
    """The main wager's exact EV when every hand of ``game`` is played by ``chart``'s cells."""
    columns = verify_chart(game, chart, name)
    return sum(
        (
            _column_value(game, column, b, {c: chart.action(c, b) for c in column.members})
            for b, column in columns.items()
        ),
        Fraction(0),
    )


def _other(action: Action) -> Action:
    return Action.STAND if action is Action.HIT else Action.HIT


def _flip_costs(
    game: GameResult[Fraction],
    columns: dict[int, _Column],
    chart: Actions,
    cells: Callable[[int, _Column], Iterator[Cell]],
) -> list[CellCost]:
    """For each cell ``cells`` names: the EV gained by flipping it alone in ``chart``."""
    found = []
    for bonus, column in columns.items():
        chosen = {c: chart.action(c, bonus) for c in column.members}
        values = column.values(chosen)
        base = _column_value(game, column, bonus, chosen, values)
        for cell in cells(bonus, column):
            flipped = dict(chosen)
            flipped[cell] = _other(chosen[cell])
            changed = _values_from(column, flipped, values, column.order.index(cell))
            gain = _column_value(game, column, bonus, flipped, changed) - base
            found.append(CellCost(cell, bonus, chosen[cell], flipped[cell], gain))
    return found


def check_chart(
    game: GameResult[Fraction], chart: Actions, name: str = "chart", best: Chart | None = None
) -> ChartCheck:
    """``chart`` against the best chart of ``game`` (an exact solve; ``best`` when given):
    the EVs, and the cells where it differs with what each costs."""
    columns = verify_chart(game, chart, name)
    best = best if best is not None else best_chart(game.rules, game)
    differs = partial(_differing, chart, best)
    costs = _flip_costs(game, columns, chart, differs)
    expected = sum(
        (
            _column_value(game, column, b, {c: chart.action(c, b) for c in column.members})
            for b, column in columns.items()
        ),
        Fraction(0),
    )
    costs.sort(key=lambda c: (-c.cost, ROWS.index(c.cell), c.bonus))
    return ChartCheck(
        game.rules,
        name,
        expected,
        best.expected_value,
        Fraction(game.expected_value),
        tuple(costs),
    )


def _differing(chart: Actions, best: Chart, bonus: int, column: _Column) -> Iterator[Cell]:
    return (c for c in column.order if chart.action(c, bonus) != best.action(c, bonus))


def chart_costs(
    game: GameResult[Fraction], chart: Chart | None = None, bonuses: Iterable[int] | None = None
) -> ChartCosts:
    """The best chart of ``game`` (or ``chart``, when given) and each cell's cost of a flip.

    Each cost is the EV per round lost by playing that one cell the other way: never
    negative on the best chart.  ``bonuses`` limits the costs to those Bonus card columns.
    """
    best = chart if chart is not None else best_chart(game.rules, game)
    columns = verify_chart(game, best)
    if bonuses is not None:
        wanted = set(bonuses)
        columns = {b: column for b, column in columns.items() if b in wanted}
    flips = _flip_costs(game, columns, best, lambda b, column: iter(column.order))
    return ChartCosts(
        best,
        {(c.cell, c.bonus): replace(c, cost=-c.cost) for c in flips},
        cell_frequencies(game, best, columns),
    )


def cell_frequencies(
    game: GameResult[Fraction], chart: Actions, columns: dict[int, _Column] | None = None
) -> dict[tuple[Cell, int], Fraction]:
    """How often play by ``chart`` reaches each cell against each Bonus card: the exact chance
    per round of a decision there (``columns``: those of ``game``, when built already)."""
    columns = verify_chart(game, chart) if columns is None else columns
    probability = {(s.player, s.bonus): Fraction(s.probability) for s in game.starts}
    found: dict[tuple[Cell, int], Fraction] = {}
    for bonus, column in columns.items():
        chosen = {c: chart.action(c, bonus) for c in column.members}
        for cell, _, numerator, denominator in reached(column, chosen, bonus, probability):
            key = (cell, bonus)
            found[key] = found.get(key, Fraction(0)) + Fraction(numerator, denominator)
    return found


def stored_costs(game: GameResult[Fraction], cache: Store | None = None) -> ChartCosts:
    """:func:`chart_costs` of the best chart of ``game`` (an exact solve of a full shoe),
    kept in ``cache`` under its rules with the chart itself."""
    rules = game.rules

    def compute() -> ChartCosts:
        return chart_costs(game, stored_chart(rules, game, cache))

    if cache is None or game.removed:
        return compute()
    return cache.fetch(CHART_COSTS, Key(rules, exact=True), compute)


def cell_figures(
    game: GameResult[Fraction], chart: Actions, cell: Cell, bonus: int
) -> tuple[CellCost, Fraction]:
    """What playing one cell of ``chart`` the other way costs per round, every other cell as
    the chart has it (:func:`chart_costs`' figure for that cell, found from its column
    alone; negative where the other way is better), and how often play by ``chart`` reaches
    the cell (:func:`cell_frequencies`' figure)."""
    solution = solutions_of(game).get(bonus)
    column = None if solution is None else _Column.of(solution, bonus)
    if column is None or cell not in column.members:
        raise HandError(f"no hand of {cell_name(cell)} arises against {value_label(bonus)}")
    if chart.action(cell, bonus) is Action.NONE:
        raise HandError(f"the chart has no play for {cell_name(cell)} v {value_label(bonus)}")
    (flip,) = _flip_costs(game, {bonus: column}, chart, lambda b, c: iter([cell]))
    frequency = cell_frequencies(game, chart, {bonus: column}).get((cell, bonus), Fraction(0))
    return replace(flip, cost=-flip.cost), frequency
