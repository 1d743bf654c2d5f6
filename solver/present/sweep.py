"""``cbj sweep`` for people: the edge against one parameter as a table and as a plot.

Pure: a :class:`~solver.results.sweep.SweepResult` in, a table (text, CSV, Markdown), a
picture (PNG, SVG) or an HTML page out; every label the figure catalogue's, the game in
force marked in each.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from solver.model.checks import plain_number
from solver.present.plot_files import figure_bytes, table_page
from solver.present.style import Cell, cell, plain
from solver.present.tables import Table, rules_notes
from solver.results.figures import heading
from solver.results.sweep import SweepResult, value_in

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: The figures of each point, in the table's order.
SWEEP_FIGURES = ("main_house_edge", "bonus_house_edge", "round_house_edge", "round_sd")
#: The edges plotted, each with its colour (Okabe and Ito's colour-blind-safe set), marker
#: and dash, so that no line is told apart by colour alone.
EDGE_LINES = {
    "main_house_edge": ("#0072b2", "o", "-"),
    "bonus_house_edge": ("#e69f00", "s", "--"),
    "round_house_edge": ("#000000", "D", "-"),
}
SD_COLOUR = "#009e73"
#: The plot's size in inches (width, height) as ``cbj sweep --plot`` draws it; and as a
#: phone's screen shows it (the workbench draws both).
WIDE, NARROW = (7.5, 5.5), (3.9, 5.2)
#: The game in force's mark.
IN_FORCE = "in force"
IN_FORCE_COLOUR = "#d55e00"


def value_text(value: Fraction) -> str:
    """A swept value as the options take it: ``15``, ``1.5``, ``4/3``."""
    return plain_number(value)


def _in_force(result: SweepResult) -> str:
    """Where the game in force is, in words."""
    shown = f"{result.varied.label} {value_text(value_in(result.rules, result.varied))}"
    if result.marked is None:
        return f"the game in force ({shown}) is outside this range"
    return f"the game in force: {shown}"


def sweep_table(result: SweepResult) -> Table:
    """One row per value: each wager's house edge, the round's edge and SD, the value in
    force marked."""
    rows = tuple(
        (
            Cell(
                value_text(p.value) + (f" ({IN_FORCE})" if p.in_force else ""),
                (plain(value_text(p.value)),),  # a CSV's number: the mark is in the notes
            ),
            *(cell(key, getattr(p, key)) for key in SWEEP_FIGURES),
        )
        for p in result.points
    )
    method = "exact fractions" if result.exact else "the exact model in floating point"
    notes = (
        *rules_notes(result.rules),
        f"each row sets the {result.varied.label} to its value, every other rule as in "
        f"force; {_in_force(result)}",
        "house edges in % of each wager (the round's of the total wagered), the casino's: "
        f"positive when it wins; round SD in main-wager units; main wager by {method}",
    )
    return Table(
        f"House edge against the {result.varied.label}",
        (result.varied.label, *(heading(k) for k in SWEEP_FIGURES)),
        rows,
        notes,
        tuple((None, *SWEEP_FIGURES) for _ in rows),
    )


def plot_sweep(result: SweepResult, edges: Axes, spread: Axes) -> None:
    """Each wager's house edge (%) on ``edges`` and the round's SD on ``spread``, against
    the parameter, the game in force marked on both."""
    xs = [float(p.value) for p in result.points]
    for key, (colour, marker, dash) in EDGE_LINES.items():
        ys = [float(getattr(p, key)) * 100 for p in result.points]
        edges.plot(xs, ys, color=colour, marker=marker, linestyle=dash, markersize=4,
                   label=heading(key))  # fmt: skip
    edges.axhline(0, color="#555555", linewidth=0.8)
    edges.set_ylabel("house edge (%)")
    spread.plot(xs, [p.round_sd for p in result.points], color=SD_COLOUR, marker="v",
                markersize=4, label=heading("round_sd"))  # fmt: skip
    spread.set_ylabel(f"{heading('round_sd')} (main units)")
    spread.set_xlabel(result.varied.label)
    marked = result.marked
    if marked is not None:
        for axes in (edges, spread):
            mark = f"{IN_FORCE} ({value_text(marked.value)})"
            axes.axvline(float(marked.value), color=IN_FORCE_COLOUR, linestyle=":",
                         linewidth=1.2, label=mark)  # fmt: skip
    for axes in (edges, spread):
        axes.legend(frameon=False, fontsize=8)
        axes.spines[["top", "right"]].set_visible(False)


def sweep_figure(result: SweepResult, size: tuple[float, float] = WIDE) -> Figure:
    """The plot as a matplotlib figure of its own (no pyplot: safe in a server's threads),
    ``size`` inches wide and high."""
    from matplotlib.figure import Figure  # only a plot needs matplotlib

    figure = Figure(figsize=size, layout="constrained")
    edges, spread = figure.subplots(2, 1, sharex=True, height_ratios=(2, 1))
    plot_sweep(result, edges, spread)
    edges.set_title(f"House edge against the {result.varied.label}", fontsize=11)
    return figure


def draw(result: SweepResult, fmt: str, size: tuple[float, float] = WIDE) -> bytes:
    """The plot as PNG or SVG bytes, the same bytes for the same result."""
    return figure_bytes(sweep_figure(result, size), fmt)


def render_page(result: SweepResult) -> str:
    """An HTML page: the table, then the plot as inline SVG."""
    return table_page(sweep_table(result), draw(result, "svg"))
