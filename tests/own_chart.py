"""A chart of one's own for the practice tests: the printed chart with every hard 12 to 16
standing (unlike the printed chart against most Bonus cards), written as a CSV file."""

from __future__ import annotations

from pathlib import Path

from solver.model.cells import Action
from solver.model.chart_file import ChartGrid, chart_csv
from solver.results.charts import Chart


def own_chart(printed: Chart, folder: Path) -> tuple[Path, ChartGrid]:
    """The chart, and the file ``mine.csv`` in ``folder`` that holds it."""
    actions = dict(printed.actions)
    for total in range(12, 17):
        for bonus in range(1, 11):
            if actions[((False, total), bonus)] is not Action.NONE:
                actions[((False, total), bonus)] = Action.STAND
    grid = ChartGrid("mine", actions)
    path = folder / "mine.csv"
    path.write_text(chart_csv(grid))
    return path, grid
