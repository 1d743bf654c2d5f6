"""``cbj session`` for people: the exact figures, the normal approximation beside, a plot.

Pure: a :class:`~solver.results.session.SessionResult` in, tables, a picture or an HTML
page out.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING

from solver.model.normal import QUANTILE_LEVELS
from solver.model.numbers import number
from solver.present.formats import Format
from solver.present.plot_files import figure_bytes, table_page
from solver.present.plots import plot_session
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


def _p(value: Fraction | float) -> str:
    return f"{float(value):.6g}"


def _net(value: Fraction | float) -> str:
    return number(value, 2)


def summary_table(result: SessionResult) -> Table:
    """The session's figures, exact (or FFT within its bound), the normal approximation beside
    each for comparison; every label the figure catalogue's."""
    f = result.figures
    d = f.distribution
    n = f.normal
    rows: list[tuple[str, str, str]] = [
        (heading("session_mean"), _net(f.mean), _net(n.mean)),
        (heading("session_sd"), _net(f.standard_deviation), _net(n.standard_deviation)),
        (heading("session_ahead"), _p(d.probability_ahead), _p(n.probability_ahead)),
        (heading("session_even"), _p(d.probability_even), _p(n.probability_even)),
        (
            heading("session_behind"),
            _p(d.probability_behind),
            _p(1 - n.probability_ahead - n.probability_even),
        ),
    ]
    keys = ["session_mean", "session_sd", "session_ahead", "session_even", "session_behind"]
    for level, exact, normal in zip(QUANTILE_LEVELS, f.quantiles, n.quantiles, strict=True):
        rows.append(
            (f"{float(level) * 100:g}% {heading('session_quantile')}", _net(exact), _net(normal))
        )
        keys.append("session_quantile")
    rows.append(
        (heading("largest_likely_loss"), _net(f.largest_likely_loss), _net(n.largest_likely_loss))
    )
    keys.append("largest_likely_loss")
    if f.ruin is not None:
        rows.append((heading("ruin_within"), _p(f.ruin.within), _p(n.ruin_within or 0.0)))
        rows.append(
            (heading("ruin_unlimited"), _p(f.ruin.unlimited.value), _p(n.ruin_unlimited or 0.0))
        )
        keys += ["ruin_within", "ruin_unlimited"]
    method = (
        "exact fractions"
        if d.exact
        else f"floats by FFT; every probability within {d.error_bound:.1e}"
    )
    notes = [
        *rules_notes(result.rules),
        f"strategy {result.strategy}; the player's net result after {f.rounds:,} rounds in "
        f"main-wager units, on a lattice of step {d.step}; {method}",
        "largest likely loss: the loss exceeded with a chance below 1% (minus the 1% point)",
    ]
    if f.ruin is not None:
        ruin = f.ruin
        notes.append(
            f"ruin: the running total reaching -{ruin.bankroll} or below after some round"
            + (f" (within the session: error below {ruin.within_error:.1e})" if not d.exact else "")
        )
        notes.append(f"ruin ever: {ruin.unlimited.method}")
    notes.append(
        "normal approximation, for comparison only: a normal distribution of the exact mean "
        "and SD (ruin: a Brownian motion of the same drift and variance)"
    )
    return Table(
        f"Session of {f.rounds:,} rounds",
        ("figure", "exact" if d.exact else "exact (FFT)", heading("session_normal")),
        tuple(rows),
        tuple(notes),
        tuple((None, key, "session_normal") for key in keys),
    )


def distribution_table(result: SessionResult) -> Table:
    """Every net result of the session with its probability and the running total."""
    rows = []
    running: Fraction | float = 0
    for net, p in result.figures.distribution.probabilities():
        running += p
        rows.append((str(net), _p(p), _p(running)))
    return Table(
        f"Net result after {result.figures.rounds:,} rounds",
        ("net", "probability", "chance of this net or less"),
        tuple(rows),
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


def render(result: SessionResult, fmt: str) -> str | bytes:
    """``cbj session``'s output in ``fmt``: JSON, tables (CSV with the whole distribution),
    or a plot (png, svg or an html page)."""
    chosen = SessionFormat(fmt)
    if chosen in PLOT_FORMATS:
        return render_plot(result, chosen)
    if chosen is SessionFormat.JSON:
        return dumps(result.to_json())
    return render_tables(session_tables(result, chosen is SessionFormat.CSV), Format(fmt))
