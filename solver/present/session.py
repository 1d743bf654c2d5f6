"""``cbj session`` for people: the exact figures, the normal approximation beside, a plot.

Pure: a :class:`~solver.results.session.SessionResult` in, tables, a picture or an HTML
page out.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.model.normal import QUANTILE_LEVELS
from solver.present.formats import Format
from solver.present.game import bound_text
from solver.present.plot_files import figure_bytes, table_page
from solver.present.plots import plot_session
from solver.present.style import cell, lattice_places, minus, thousands
from solver.present.tables import Table, dumps, render_tables, rules_notes
from solver.results.figures import heading

if TYPE_CHECKING:
    from solver.results.session import SessionResult


class SessionFormat(StrEnum):
    """What ``cbj session`` prints: the text formats, and a plot of the distribution."""

    TABLE = "table"
    CSV = "csv"
    JSON = "json"
    MD = "md"
    PNG = "png"
    SVG = "svg"
    HTML = "html"


#: The formats that are a plot.
PLOT_FORMATS = (SessionFormat.PNG, SessionFormat.SVG, SessionFormat.HTML)


def summary_table(result: SessionResult) -> Table:
    """The session's figures, exact (or FFT within its bound), the normal approximation beside
    each for comparison, in the same format; every label the figure catalogue's."""
    f = result.figures
    d = f.distribution
    n = f.normal
    places = lattice_places(d.step)
    shown: list[tuple[str, str, Any, Any]] = [
        ("session_mean", heading("session_mean"), f.mean, n.mean),
        ("session_sd", heading("session_sd"), f.standard_deviation, n.standard_deviation),
        ("session_ahead", heading("session_ahead"), d.probability_ahead, n.probability_ahead),
        ("session_even", heading("session_even"), d.probability_even, n.probability_even),
        ("session_behind", heading("session_behind"), d.probability_behind,
         1 - n.probability_ahead - n.probability_even),
    ]  # fmt: skip
    for level, exact, normal in zip(QUANTILE_LEVELS, f.quantiles, n.quantiles, strict=True):
        label = f"{float(level) * 100:g}% {heading('session_quantile')}"
        shown.append(("session_quantile", label, exact, normal))
    shown.append(("largest_likely_loss", heading("largest_likely_loss"), f.largest_likely_loss,
                  n.largest_likely_loss))  # fmt: skip
    if f.ruin is not None:
        shown.append(("ruin_within", heading("ruin_within"), f.ruin.within, n.ruin_within or 0.0))
        shown.append(("ruin_unlimited", heading("ruin_unlimited"), f.ruin.unlimited.value,
                      n.ruin_unlimited or 0.0))  # fmt: skip
    lattice = {"session_quantile", "largest_likely_loss"}
    rows = tuple(
        (
            label,
            cell(key, exact, places if key in lattice else None),
            cell(key, normal, places if key in lattice else None),
        )
        for key, label, exact, normal in shown
    )
    method = (
        "exact fractions"
        if d.exact
        else f"floats by FFT; every probability within {bound_text(d.error_bound)}"
    )
    notes = [
        *rules_notes(result.rules),
        f"strategy {result.strategy}; the player's net result after {thousands(f.rounds)} "
        f"rounds in main-wager units, on a lattice of step {d.step}; {method}",
        "largest likely loss: the loss exceeded with a chance below 1% (minus the 1% point)",
    ]
    if f.ruin is not None:
        ruin = f.ruin
        notes.append(
            f"ruin: the running total reaching {minus('-')}{ruin.bankroll} or below after some "
            "round"
            + (
                f" (within the session: error below {bound_text(ruin.within_error)})"
                if not d.exact
                else ""
            )
        )
        notes.append(f"ruin ever: {ruin.unlimited.method}")
    notes.append(
        "normal approximation, for comparison only: a normal distribution of the exact mean "
        "and SD (ruin: a Brownian motion of the same drift and variance)"
    )
    return Table(
        f"Session of {thousands(f.rounds)} rounds",
        ("figure", "value", heading("session_normal")),
        rows,
        tuple(notes),
        tuple((None, key, "session_normal") for key, *_ in shown),
    )


def distribution_table(result: SessionResult) -> Table:
    """Every net result of the session with its probability and the running total."""
    rows = []
    running: Fraction | float = 0
    places = lattice_places(result.figures.distribution.step)
    for net, p in result.figures.distribution.probabilities():
        running += p
        rows.append(
            (
                cell("session_quantile", net, places),
                cell("session_probability", p),
                cell("session_cumulative", min(running, 1)),
            )
        )
    return Table(
        f"Net result after {thousands(result.figures.rounds)} rounds",
        ("net", heading("session_probability"), heading("session_cumulative")),
        tuple(rows),
        keys=tuple((None, "session_probability", "session_cumulative") for _ in rows),
    )


def session_tables(result: SessionResult, full: bool) -> list[Table]:
    """The summary, and with ``full`` the whole distribution (for CSV)."""
    return [summary_table(result), *([distribution_table(result)] if full else [])]


def draw(result: SessionResult, fmt: str) -> bytes:
    """The distribution of the net result as a bar plot (PNG or SVG), the normal beside."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    figure, axes = plt.subplots(figsize=(9, 4.5))
    try:
        plot_session(result, axes)
        f = result.figures
        axes.set_title(f"Net result after {f.rounds:,} rounds ({result.strategy} play)")
        figure.tight_layout()
        return figure_bytes(figure, fmt)
    finally:
        plt.close(figure)


def render_page(result: SessionResult) -> str:
    """An HTML page: the figures as a table and the plot as inline SVG."""
    return table_page(summary_table(result), draw(result, "svg"))


def render_plot(result: SessionResult, fmt: SessionFormat) -> bytes:
    """The plot in ``fmt`` (png, svg or an html page), as bytes."""
    if fmt is SessionFormat.HTML:
        return render_page(result).encode()
    return draw(result, fmt.value)


def render(result: SessionResult, fmt: str, comments: bool = False) -> str | bytes:
    """``cbj session``'s output in ``fmt``: JSON, tables (CSV with the whole distribution),
    or a plot (png, svg or an html page)."""
    chosen = SessionFormat(fmt)
    if chosen in PLOT_FORMATS:
        return render_plot(result, chosen)
    if chosen is SessionFormat.JSON:
        return dumps(result.to_json())
    tables = session_tables(result, chosen is SessionFormat.CSV)
    return render_tables(tables, Format(fmt), comments)
