"""The printable chart and what its cells cost: ``cbj chart``, ``--check`` and ``--costs``.

:func:`solver.exact.chart.best_chart` finds the best chart exactly, and
:mod:`solver.exact.chart_costs` prices a chart's cells; the types here hold what they find.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from solver.model.cards import VALUES, value_label
from solver.model.cells import COLUMNS, LEGEND, ROWS, Action, Cell, cell_name, chart_title, grid
from solver.model.hands import describe_hand
from solver.model.numbers import exact_json
from solver.model.rules import Rules
from solver.results.frames import Tabular
from solver.results.kinds import Kind


@dataclass(frozen=True, slots=True)
class ExceptionHand:
    """A hand where composition-dependent play beats the chart's action."""

    bonus: int
    hand: tuple[int, ...]
    chart_action: Action
    frequency: Fraction
    gain: Fraction

    @property
    def optimal_action(self) -> Action:
        """The composition-dependent optimum's action."""
        return Action.STAND if self.chart_action is Action.HIT else Action.HIT


@dataclass(frozen=True, slots=True, repr=False)
class Chart(Tabular):
    """The best printable chart under ``rules`` with its exact cost against perfect play."""

    rules: Rules
    actions: dict[tuple[Cell, int], Action]
    expected_value: Fraction
    optimal_expected_value: Fraction
    exceptions: tuple[ExceptionHand, ...]

    @property
    def cost(self) -> Fraction:
        """How much the chart gives up per round against composition-dependent play."""
        return self.optimal_expected_value - self.expected_value

    def action(self, cell: Cell, bonus: int) -> Action:
        """The chart's action for a cell against a Bonus card value."""
        return self.actions[(cell, bonus)]

    def to_json(self) -> dict[str, Any]:
        """The chart as the document ``cbj chart --format json`` prints."""
        return {
            "title": title(self),
            "rules": self.rules.to_json(),
            "columns": list(COLUMNS),
            "rows": [
                {"hand": hand, "actions": dict(zip(COLUMNS, actions, strict=True))}
                for hand, actions in grid(self)
            ],
            "expected_value": exact_json(self.expected_value),
            "optimal_expected_value": exact_json(self.optimal_expected_value),
            "cost": exact_json(self.cost),
            "legend": {a.value: text for a, text in LEGEND.items()},
            "exceptions": [
                {
                    "bonus": value_label(e.bonus),
                    "hand": describe_hand(e.hand),
                    "chart": e.chart_action.value,
                    "optimal": e.optimal_action.value,
                    "frequency": exact_json(e.frequency),
                    "gain": exact_json(e.gain),
                }
                for e in self.exceptions
            ],
        }


#: The head of every chart's title, before the rules that differ from the default.
def title(chart: Chart) -> str:
    """The chart's title line (:func:`solver.model.cells.chart_title` of its rules)."""
    return chart_title(chart.rules)


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


@dataclass(frozen=True, slots=True, repr=False)
class ChartCheck(Tabular):
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


@dataclass(frozen=True, slots=True, repr=False)
class ChartCosts(Tabular):
    """The best chart with, in each cell, what playing that cell the other way costs."""

    chart: Chart
    cells: dict[tuple[Cell, int], CellCost]
    frequencies: dict[tuple[Cell, int], Fraction] = field(default_factory=dict)
    """How often play by the chart reaches each cell: the chance per round of deciding there
    (a cell no hand of the chart reaches is left out)."""

    @property
    def rules(self) -> Rules:
        """The rules of the chart."""
        return self.chart.rules

    def per_mistake(self, cell: Cell, bonus: int) -> Fraction | None:
        """What playing the cell the other way costs each time it comes up: its cost per
        round over its frequency (None for a cell the chart never reaches)."""
        frequency = self.frequencies.get((cell, bonus))
        found = self.cells.get((cell, bonus))
        if not frequency or found is None:
            return None
        return found.cost / frequency

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


#: Best charts, kept by their rules (a full shoe).
CHART: Kind[Chart] = Kind("chart", Chart)
#: The best chart's costs cell by cell, kept by their rules (a full shoe).
CHART_COSTS: Kind[ChartCosts] = Kind("chart-costs", ChartCosts)
