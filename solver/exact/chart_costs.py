"""Any chart's exact value, and what each of its cells costs: ``cbj chart --check``, ``--costs``.

A chart plays each Bonus card's column on its own (:mod:`solver.exact.chart`), so the cost
of one cell is found by valuing that column twice, the cell played each way: exact
integers over the column's common denominators, only the cells below the flipped one
(lower hard totals, which can reach it) valued again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial
from typing import Any

from solver.exact.chart import (  # the chart's exact column workspace, shared with its search
    Chart,
    _Column,
    best_chart,
    title,
    verify_chart,
)
from solver.exact.game import GameResult
from solver.model.cards import VALUES, value_label
from solver.model.cells import COLUMNS, ROWS, Action, Actions, Cell, cell_name
from solver.model.hands import hand_of, is_player_blackjack
from solver.model.numbers import exact_json
from solver.model.rules import Rules


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


@dataclass(frozen=True, slots=True)
class CellCost:
    """One cell of a chart against one Bonus card, and what playing it as it is costs.

    ``cost`` is the main wager's EV per round gained by playing the cell ``other`` instead
    of ``action``, every other cell as the chart has it (negative: ``action`` is better).
    """

    cell: Cell
    bonus: int
    action: Action
    other: Action
    cost: Fraction

    @property
    def per_100_rounds(self) -> Fraction:
        """The cost over 100 rounds, in main-wager units."""
        return 100 * self.cost

    def to_json(self) -> dict[str, Any]:
        """The cell and its cost as JSON."""
        return {
            "hand": cell_name(self.cell),
            "bonus": value_label(self.bonus),
            "chart": self.action.value,
            "other": self.other.value,
            "cost": exact_json(self.cost),
            "cost_per_100_rounds": exact_json(self.per_100_rounds),
        }


@dataclass(frozen=True, slots=True)
class ChartCheck:
    """A chart's exact EV, its cost against the best chart and perfect play, cell by cell.

    ``differences`` lists each cell where it departs from the best chart, with what the
    chart would gain by playing that cell alone as the best chart does, largest first.
    """

    rules: Rules
    name: str
    expected_value: Fraction
    best_expected_value: Fraction
    optimal_expected_value: Fraction
    differences: tuple[CellCost, ...]

    @property
    def cost_against_best(self) -> Fraction:
        """EV per round given up against the best chart."""
        return self.best_expected_value - self.expected_value

    @property
    def cost_against_optimal(self) -> Fraction:
        """EV per round given up against composition-dependent play."""
        return self.optimal_expected_value - self.expected_value

    def to_json(self) -> dict[str, Any]:
        """The check as ``cbj chart --check FILE --format json`` prints it."""
        return {
            "rules": self.rules.to_json(),
            "chart": self.name,
            "expected_value": exact_json(self.expected_value),
            "best_expected_value": exact_json(self.best_expected_value),
            "optimal_expected_value": exact_json(self.optimal_expected_value),
            "cost_against_best": exact_json(self.cost_against_best),
            "cost_against_optimal": exact_json(self.cost_against_optimal),
            "cost_against_best_per_100_rounds": exact_json(100 * self.cost_against_best),
            "differences": [d.to_json() for d in self.differences],
        }


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


@dataclass(frozen=True, slots=True)
class ChartCosts:
    """The best chart with, in each cell, what playing that cell the other way costs."""

    chart: Chart
    cells: dict[tuple[Cell, int], CellCost]

    @property
    def rules(self) -> Rules:
        """The rules of the chart."""
        return self.chart.rules

    def to_json(self) -> dict[str, Any]:
        """The costs as ``cbj chart --costs --format json`` prints them."""
        rows = []
        for cell in ROWS:
            found = [self.cells.get((cell, b)) for b in VALUES]
            rows.append(
                {
                    "hand": cell_name(cell),
                    "actions": {
                        c: self.chart.action(cell, b).value
                        for c, b in zip(COLUMNS, VALUES, strict=True)
                    },
                    "cost_per_100_rounds": {
                        c: None if f is None else exact_json(f.per_100_rounds)
                        for c, f in zip(COLUMNS, found, strict=True)
                    },
                }
            )
        return {
            "title": title(self.chart),
            "rules": self.rules.to_json(),
            "expected_value": exact_json(self.chart.expected_value),
            "columns": list(COLUMNS),
            "rows": rows,
        }


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
    return ChartCosts(best, {(c.cell, c.bonus): replace(c, cost=-c.cost) for c in flips})
