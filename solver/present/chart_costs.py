"""``cbj chart --check`` and ``--costs`` as tables: a chart's cells and what each costs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.model.cards import VALUES, value_label
from solver.model.cells import COLUMNS, ROWS, Cell, cell_name
from solver.present.charts import title
from solver.present.style import Cell as TableCell
from solver.present.style import cell, plain, show
from solver.present.tables import Table
from solver.results.figures import heading, short_heading

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
            cell("cell_cost", d.per_100_rounds),
        )
        for d in check.differences
    )
    notes = (
        f"rules: {check.rules.summary()}",
        f"{heading('chart_ev')} {show('chart_ev', check.expected_value)}; best chart "
        f"{show('chart_ev', check.best_expected_value)}; composition-dependent optimum "
        f"{show('chart_ev', check.optimal_expected_value)}",
        f"cost per 100 rounds (main-wager units): "
        f"{show('cell_cost', 100 * check.cost_against_best)} against the best chart, "
        f"{show('cell_cost', 100 * check.cost_against_optimal)} against perfect play",
        f"{len(rows)} cell(s) differ from the best chart"
        + ("; each cost is what playing that cell alone as the best chart does would gain"
           if rows else ": this is the best chart"),
    )  # fmt: skip
    return Table(
        f"Chart {check.name} against the best chart",
        ("hand", "Bonus card", "chart", "best", short_heading("cell_cost")),
        rows,
        notes,
        tuple((None, None, None, None, "cell_cost") for _ in rows),
    )


def costs_table(costs: ChartCosts) -> Table:
    """The best chart with, in each cell, the cost per 100 rounds of playing it the other way
    (in a CSV, each Bonus card's action and cost in two columns)."""

    def cell_text(chart_cell: Cell, bonus: int) -> str:
        found = costs.cells.get((chart_cell, bonus))
        action = costs.chart.action(chart_cell, bonus).value
        if found is None:
            return action
        if found.cost == 0:  # no hand reaches the cell when the chart is played
            return TableCell(f"{action} -", (action, ""), (" action", " cost"))
        cost = show("cell_cost", found.per_100_rounds)
        return TableCell(f"{action} {cost}", (action, plain(cost)), (" action", " cost"))

    rows = tuple((cell_name(c), *(cell_text(c, b) for b in VALUES)) for c in ROWS)
    notes = (
        f"rules: {costs.rules.summary()}",
        f"best chart EV {show('chart_ev', costs.chart.expected_value)} of the main wager",
        "each cell: the best chart's action, then what playing that cell the other way costs "
        "the main wager per 100 rounds (main-wager units); - marks a cell no hand reaches "
        "when the chart is played (playing it the other way costs exactly nothing); "
        "10 = 10, J, Q, K",
    )
    return Table(title(costs.chart) + ": the cost of each cell", ("hand", *COLUMNS), rows, notes)
