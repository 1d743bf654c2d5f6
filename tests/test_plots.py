"""The notebook plots: each draws on the axes it is given, returns them, and shows the result's
own numbers (read back from the artists drawn)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from typing import Any

import pytest
from matplotlib import pyplot as plt
from matplotlib.colors import to_hex
from matplotlib.patches import Rectangle

import solver
from solver.model.cards import VALUES
from solver.model.cells import ROWS
from solver.present.charts import COLOURS
from solver.store.memory import MemoryCache


def numbers(data: Any) -> list[float]:
    """A line's data (matplotlib types it as any array) as floats."""
    return [float(x) for x in data]


@pytest.fixture(autouse=True)
def _close_figures() -> object:
    yield None
    plt.close("all")


def test_the_chart_is_drawn_cell_for_cell_on_the_axes_given(games: MemoryCache) -> None:
    chart = solver.chart(decks=1, cache=games)
    _, ax = plt.subplots()
    assert solver.plot_chart(chart, ax) is ax
    cells = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert len(cells) == len(ROWS) * len(VALUES)
    letters = [t.get_text() for t in ax.texts]
    # Row by row, as the JSON lists the chart: each cell's letter and colour are its action.
    expected = [a for row in chart.to_json()["rows"] for a in row["actions"].values()]
    assert letters == expected
    colours = {to_hex(c.get_facecolor()) for c in cells}
    assert colours == {COLOURS[chart.action(cell, b)] for cell in ROWS for b in VALUES}
    assert [t.get_text() for t in ax.get_xticklabels()] == chart.to_json()["columns"]


def test_the_session_bars_are_the_exact_distribution(games: MemoryCache) -> None:
    run = solver.session(rounds=30, cache=games)
    _, ax = plt.subplots()
    assert solver.plot_session(run, ax) is ax
    bars = [bar for bar in ax.patches if isinstance(bar, Rectangle)]
    drawn = {round(bar.get_x() + bar.get_width() / 2, 9): bar.get_height() for bar in bars}
    exact = {round(float(net), 9): float(p) for net, p in run.figures.distribution.probabilities()}
    assert drawn and all(exact[net] == height for net, height in drawn.items())
    assert sum(drawn.values()) > 0.999  # all but the 0.01% tails at most
    assert ax.get_lines()[0].get_label() == "normal approximation"
    _, bare = plt.subplots()
    solver.plot_session(run, bare, normal=False)
    assert len(bare.get_lines()) == 1 == len(ax.get_lines()) - 1  # the zero line alone


def test_ev_by_true_count_shows_the_counters_rounds_and_the_linear_estimate(
    games: MemoryCache,
) -> None:
    run = solver.simulate(rounds=3_000, seed=5, counter="hi-lo", decks=1, cache=games)
    counts = solver.count(system="hi-lo", decks=1, cache=games)
    _, ax = plt.subplots()
    assert solver.plot_ev_by_true_count(run, ax, counts=counts) is ax
    assert run.counter is not None
    rows = run.counter.rounds_by_true_count
    points = ax.get_lines()[0]
    assert numbers(points.get_xdata()) == [k for k, *_ in rows]
    assert numbers(points.get_ydata()) == [mean for _, _, mean, _ in rows]
    line = next(x for x in ax.get_lines() if x.get_label() == "exact EORs, linear")
    (x0, x1), (y0, y1) = numbers(line.get_xdata()), numbers(line.get_ydata())
    slope = float(counts.systems[0].ev_per_true_count["round"])
    assert (y1 - y0) / (x1 - x0) == pytest.approx(slope)
    assert y0 - slope * x0 == pytest.approx(float(counts.eor.base["round"]))


def test_without_axes_each_plot_makes_its_own(games: MemoryCache) -> None:
    ax = solver.plot_session(solver.session(rounds=5, cache=games))
    assert ax.figure is not None and len(ax.patches) > 0


def test_ev_by_true_count_needs_a_counter(games: MemoryCache) -> None:
    run = solver.simulate(rounds=500, seed=1, cache=games)
    with pytest.raises(solver.SimulationError, match="no counter"):
        solver.plot_ev_by_true_count(run)
