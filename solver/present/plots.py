"""Plots for a notebook: each draws one result on the matplotlib ``Axes`` it is given and
returns it, so that a plot can share a figure with the reader's own.

Without ``ax``, each makes a figure of its own with pyplot (shown by Jupyter as usual).

>>> import solver
>>> ax = solver.plot_session(solver.session(rounds=20))
>>> ax.get_xlabel(), len(ax.patches) > 0
('net result (units of the main wager)', True)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

from solver.model.cards import VALUES
from solver.model.cells import COLUMNS, LEGEND, ROWS, Action, cell_name
from solver.model.errors import SimulationError
from solver.present.charts import COLOURS

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from solver.results.charts import Chart
    from solver.results.protection import Counts
    from solver.results.session import SessionResult
    from solver.results.simulation import SimulationResult

#: The exact figures' blue and the approximations' orange (a session's bars and its normal
#: curve, a counter's simulated points and the exact EORs' line).
EXACT = "#3b75af"
NORMAL = "#e07b00"


def _axes(ax: Axes | None, width: float, height: float) -> Axes:
    """``ax``, or the axes of a new pyplot figure of the given size (inches)."""
    if ax is not None:
        return ax
    from matplotlib import pyplot as plt  # only a plot made here needs pyplot

    return plt.subplots(figsize=(width, height), layout="constrained")[1]


def plot_chart(chart: Chart, ax: Axes | None = None) -> Axes:
    """The printable chart as a grid: own total down, Bonus card across, H orange, S blue."""
    from matplotlib.patches import Patch, Rectangle

    ax = _axes(ax, 5.5, 8.5)
    for row, cell in enumerate(ROWS):
        for column, bonus in enumerate(VALUES):
            action = chart.action(cell, bonus)
            ax.add_patch(
                Rectangle((column, row), 1, 1, facecolor=COLOURS[action], edgecolor="white")
            )
            ax.text(column + 0.5, row + 0.5, action.value, ha="center", va="center", fontsize=7)
    ax.set_xlim(0, len(VALUES))
    ax.set_ylim(len(ROWS), 0)
    ax.set_xticks([c + 0.5 for c in range(len(COLUMNS))], list(COLUMNS))
    ax.set_yticks([r + 0.5 for r in range(len(ROWS))], [cell_name(c) for c in ROWS], fontsize=7)
    ax.xaxis.tick_top()
    ax.set_xlabel("Bonus card")
    ax.xaxis.set_label_position("top")
    ax.tick_params(length=0)
    ax.spines[:].set_visible(False)
    shown = (Action.HIT, Action.STAND)
    ax.legend(
        handles=[Patch(facecolor=COLOURS[a], label=LEGEND[a].split(" (")[0]) for a in shown],
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        ncols=2,
        frameon=False,
    )
    ax.set_title(
        f"EV {float(chart.expected_value):+.4%}, {float(chart.cost):.2e} below perfect play"
    )
    return ax


def _window(result: SessionResult) -> tuple[list[float], list[float]]:
    """The nets and probabilities worth drawing: from the 0.01% to the 99.99% quantile."""
    d = result.figures.distribution
    low, high = d.quantile(Fraction(1, 10_000)), d.quantile(Fraction(9_999, 10_000))
    pairs = [(float(x), float(p)) for x, p in d.probabilities() if low <= x <= high]
    return [x for x, _ in pairs], [p for _, p in pairs]


def plot_session(result: SessionResult, ax: Axes | None = None, *, normal: bool = True) -> Axes:
    """The exact distribution of a session's net result as bars, the normal curve beside."""
    f = result.figures
    ax = _axes(ax, 9, 4.5)
    nets, probabilities = _window(result)
    step = float(f.distribution.step)
    ax.bar(nets, probabilities, width=step * 0.9, color=EXACT, label="exact")
    sd = f.normal.standard_deviation
    if normal and sd > 0 and nets:
        count = 400
        xs = [nets[0] + (nets[-1] - nets[0]) * i / count for i in range(count + 1)]
        ys = [
            step * math.exp(-0.5 * ((x - f.normal.mean) / sd) ** 2) / (sd * math.sqrt(2 * math.pi))
            for x in xs
        ]
        ax.plot(xs, ys, color=NORMAL, label="normal approximation")
    ax.axvline(0, color="#555555", linewidth=0.8)
    ax.set_xlabel("net result (units of the main wager)")
    ax.set_ylabel("probability")
    ax.legend()
    return ax


def plot_ev_by_true_count(
    run: SimulationResult, ax: Axes | None = None, *, counts: Counts | None = None
) -> Axes:
    """The round's EV at each true count, as a simulated counter saw it (95% intervals);
    with ``counts``, the exact linear estimate of the same count beside it."""
    if run.counter is None:
        raise SimulationError("the simulation had no counter: give counter= (e.g. 'hi-lo')")
    rows = run.counter.rounds_by_true_count
    ax = _axes(ax, 7, 4)
    ax.errorbar(
        [k for k, *_ in rows],
        [mean for _, _, mean, _ in rows],
        yerr=[1.959964 * error if math.isfinite(error) else 0.0 for *_, error in rows],
        fmt="o",
        color=EXACT,
        capsize=2,
        label="simulated (95% interval)",
    )
    name = run.counter.counter.name
    system = next((s for s in counts.systems if s.name == name), None) if counts else None
    if counts is not None and system is not None:
        base, slope = float(counts.eor.base["round"]), float(system.ev_per_true_count["round"])
        ends = [rows[0][0], rows[-1][0]] if rows else [-5, 5]
        ax.plot(ends, [base + slope * k for k in ends], color=NORMAL, label="exact EORs, linear")
    ax.axhline(0, color="#555555", linewidth=0.8)
    ax.set_xlabel(f"true count ({name})")
    ax.set_ylabel("round EV per unit on the main wager")
    ax.legend(frameon=False)
    return ax
