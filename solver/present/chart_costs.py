"""``cbj chart --check`` and ``--costs`` as tables: a chart's cells and what each costs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.model.cards import VALUES, value_label
from solver.model.cells import COLUMNS, ROWS, Cell, cell_name
from solver.model.numbers import number, signed
from solver.present.charts import title
from solver.present.tables import Table

if TYPE_CHECKING:
    from solver.results.charts import ChartCheck, ChartCosts


def check_table(check: ChartCheck) -> Table:
    """A chart's exact EV and costs, and each cell that differs from the best chart.

    Cells are listed by cost per 100 rounds (main-wager units), largest first: what the
    chart gains by playing that one cell as the best chart does.
    """
    rows = tuple(
        (
            cell_name(d.cell),
            value_label(d.bonus),
            d.action.value,
            d.other.value,
            signed(d.per_100_rounds, 4),
        )
        for d in check.differences
    )
    notes = (
        f"rules: {check.rules.summary()}",
        f"EV {signed(check.expected_value * 100, 4)}% of the main wager; best chart "
        f"{signed(check.best_expected_value * 100, 4)}%; composition-dependent optimum "
        f"{signed(check.optimal_expected_value * 100, 4)}%",
        f"cost per 100 rounds (main-wager units): {number(100 * check.cost_against_best, 4)} "
        f"against the best chart, {number(100 * check.cost_against_optimal, 4)} against "
        "perfect play",
        f"{len(rows)} cell(s) differ from the best chart"
        + ("; each cost is what playing that cell alone as the best chart does would gain"
           if rows else ": this is the best chart"),
    )  # fmt: skip
    return Table(
        f"Chart {check.name} against the best chart",
        ("hand", "Bonus card", "chart", "best", "cost per 100 rounds"),
        rows,
        notes,
    )


def costs_table(costs: ChartCosts) -> Table:
    """The best chart with, in each cell, the cost per 100 rounds of playing it the other way."""

    def cell_text(cell: Cell, bonus: int) -> str:
        found = costs.cells.get((cell, bonus))
        action = costs.chart.action(cell, bonus).value
        if found is None:
            return action
        if found.cost == 0:  # no hand reaches the cell when the chart is played
            return f"{action} -"
        return f"{action} {number(found.per_100_rounds, 3)}"

    rows = tuple((cell_name(cell), *(cell_text(cell, b) for b in VALUES)) for cell in ROWS)
    notes = (
        f"rules: {costs.rules.summary()}",
        f"best chart EV {signed(costs.chart.expected_value * 100, 4)}% of the main wager",
        "each cell: the best chart's action, then what playing that cell the other way costs "
        "the main wager per 100 rounds (main-wager units); - marks a cell no hand reaches "
        "when the chart is played (playing it the other way costs exactly nothing); "
        "10 = 10, J, Q, K",
    )
    return Table(title(costs.chart) + ": the cost of each cell", ("hand", *COLUMNS), rows, notes)
