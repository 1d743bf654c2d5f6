"""``cbj session`` for people: the figures beside the normal approximation, and a plot.

Pure: a :class:`~solver.results.session.SessionResult` in, tables, a picture or an HTML
page out.
"""

from __future__ import annotations

import html
import io
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.model.normal import QUANTILE_LEVELS
from solver.model.numbers import number
from solver.present.plots import plot_session
from solver.present.tables import Table, rules_notes

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
    """The session's figures, exact (or FFT within its bound) beside the normal approximation."""
    f = result.figures
    d = f.distribution
    n = f.normal
    rows: list[tuple[str, str, str]] = [
        ("mean net", _net(f.mean), _net(n.mean)),
        ("SD", _net(f.standard_deviation), _net(n.standard_deviation)),
        ("P(ahead)", _p(d.probability_ahead), _p(n.probability_ahead)),
        ("P(even)", _p(d.probability_even), _p(n.probability_even)),
        ("P(behind)", _p(d.probability_behind), _p(1 - n.probability_ahead - n.probability_even)),
    ]
    for level, exact, normal in zip(QUANTILE_LEVELS, f.quantiles, n.quantiles, strict=True):
        rows.append((f"{float(level) * 100:g}% quantile", _net(exact), _net(normal)))
    rows.append(("largest likely loss", _net(f.largest_likely_loss), _net(n.largest_likely_loss)))
    if f.ruin is not None:
        rows.append(
            (
                f"P(ruin) within {f.rounds:,} rounds",
                _p(f.ruin.within),
                _p(n.ruin_within or 0.0),
            )
        )
        rows.append(("P(ruin) unlimited", _p(f.ruin.unlimited.value), _p(n.ruin_unlimited or 0.0)))
    method = (
        "exact fractions"
        if d.exact
        else f"floats by FFT; every probability within {d.error_bound:.1e}"
    )
    notes = [
        *rules_notes(result.rules),
        f"strategy {result.strategy}; net results on a lattice of step {d.step}; {method}",
        "largest likely loss: the loss exceeded with probability below 1% (-(1% quantile))",
    ]
    if f.ruin is not None:
        ruin = f.ruin
        notes.append(
            f"ruin: the running total reaching -{ruin.bankroll} or below after some round"
            + (f" (within rounds: error below {ruin.within_error:.1e})" if not d.exact else "")
        )
        notes.append(f"unlimited session: {ruin.unlimited.method}")
    notes.append("normal approximation: mean and SD as exact, ranges and ruin from the normal")
    return Table(
        f"Session of {f.rounds:,} rounds",
        ("figure", "exact" if d.exact else "exact (FFT)", "normal approximation"),
        tuple(rows),
        tuple(notes),
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
        ("net", "probability", "P(net <= this)"),
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

    rc = {"svg.hashsalt": "cbj", "svg.fonttype": "none"}
    with matplotlib.rc_context(rc):  # type: ignore[arg-type]
        figure, axes = plt.subplots(figsize=(9, 4.5))
        plot_session(result, axes)
        f = result.figures
        axes.set_title(f"Net result after {f.rounds:,} rounds ({result.strategy} play)")
        figure.tight_layout()
        out = io.BytesIO()
        metadata: dict[str, Any] = {"svg": {"Date": None}, "png": {"Software": None}}[fmt]
        figure.savefig(out, format=fmt, metadata=metadata, dpi=120)
        plt.close(figure)
    return out.getvalue()


def render_page(result: SessionResult) -> str:
    """An HTML page: the figures as a table and the plot as inline SVG."""
    table = summary_table(result)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in table.headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in table.rows
    )
    notes = "".join(f"<p>{html.escape(n)}</p>" for n in table.notes)
    svg = draw(result, "svg").decode()
    svg = svg[svg.index("<svg") :]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(table.title)}</title></head><body>"
        f"<h1>{html.escape(table.title)}</h1>{notes}"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        f"<figure>{svg}</figure></body></html>\n"
    )


def render_plot(result: SessionResult, fmt: SessionFormat) -> bytes:
    """The plot in ``fmt`` (png, svg or an html page), as bytes."""
    if fmt is SessionFormat.HTML:
        return render_page(result).encode()
    return draw(result, fmt.value)
