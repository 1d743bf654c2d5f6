"""Render a printable chart: CSV, JSON, Markdown, HTML, and PDF/SVG/PNG via matplotlib.

Every format carries a title, the rules and paytable in force, the chart's exact EV
against the composition-dependent optimum, and a legend.  Output is reproducible byte for
byte for a given matplotlib version (no dates, fixed SVG ids).
"""

from __future__ import annotations

import csv
import html
import io
import json
from enum import StrEnum
from typing import Any

from solver.exact.strategy import COLUMNS, LEGEND, Action, Chart, grid, title
from solver.model.cards import value_label
from solver.model.hands import describe_hand
from solver.present.tables import rules_notes

COLOURS = {Action.HIT: "#f4a6a6", Action.STAND: "#a8d5a2", Action.NONE: "#dddddd"}
TOP_EXCEPTIONS = 12


class ChartFormat(StrEnum):
    """Formats ``cbj chart`` writes."""

    CSV = "csv"
    JSON = "json"
    MD = "md"
    HTML = "html"
    PDF = "pdf"
    SVG = "svg"
    PNG = "png"


TEXT_FORMATS = (ChartFormat.CSV, ChartFormat.JSON, ChartFormat.MD, ChartFormat.HTML)


def summary(chart: Chart) -> str:
    """The chart's EV against perfect play, in one line."""
    return (
        f"Chart EV {float(chart.expected_value):+.6f} per unit main wager; composition-dependent "
        f"optimum {float(chart.optimal_expected_value):+.6f}; cost {float(chart.cost):.2e}"
    )


def header_lines(chart: Chart) -> list[str]:
    """Title, rules, EV and legend, as lines."""
    legend = "; ".join(f"{a.value} = {text}" for a, text in LEGEND.items())
    return [
        title(chart),
        *rules_notes(chart.rules),
        "Columns: the Bonus card. Rows: the total of your own cards (soft = an ace counts 11).",
        summary(chart),
        f"Legend: {legend}",
    ]


def to_csv(chart: Chart) -> str:
    """The chart as CSV, headed by ``#`` comment lines."""
    out = io.StringIO()
    for line in header_lines(chart):
        out.write(f"# {line}\n")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("hand", *COLUMNS))
    for hand, actions in grid(chart):
        writer.writerow((hand, *actions))
    return out.getvalue()


def exception_rows(chart: Chart) -> list[tuple[str, str, str, str, str, str]]:
    return [
        (
            describe_hand(e.hand),
            value_label(e.bonus),
            e.chart_action.value,
            e.optimal_action.value,
            f"{float(e.frequency):.3e}",
            f"{float(e.gain):.5f}",
        )
        for e in chart.exceptions[:TOP_EXCEPTIONS]
    ]


EXCEPTION_HEADERS = ("hand", "bonus", "chart", "optimal", "frequency", "EV gained")


def to_markdown(chart: Chart) -> str:
    """The chart as Markdown: header, table, legend and the main exceptions."""
    head, *rest = header_lines(chart)
    lines = [f"# {head}", "", *(f"{line}  " for line in rest), ""]
    lines.append("| hand | " + " | ".join(COLUMNS) + " |")
    lines.append("|---|" + "---|" * len(COLUMNS))
    lines += [f"| {hand} | " + " | ".join(actions) + " |" for hand, actions in grid(chart)]
    lines += [
        "",
        f"## Exceptions ({len(chart.exceptions)} hands; the {TOP_EXCEPTIONS} that matter most)",
        "",
    ]
    lines.append("| " + " | ".join(EXCEPTION_HEADERS) + " |")
    lines.append("|" + "---|" * len(EXCEPTION_HEADERS))
    lines += ["| " + " | ".join(row) + " |" for row in exception_rows(chart)]
    return "\n".join(lines) + "\n"


_CSS = """
body { font-family: Helvetica, Arial, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.25em; margin: 0 0 .3em; }
p { margin: .15em 0; font-size: .8em; }
table { border-collapse: collapse; margin: .6em 0; }
th, td { border: 1px solid #555; text-align: center; padding: 2px 10px; font-size: .95em; }
th { background: #eee; }
td.label { text-align: left; font-weight: bold; background: #f7f7f7; }
td.H { background: %(H)s; } td.S { background: %(S)s; } td.N { background: %(N)s; }
table.exceptions td, table.exceptions th { font-size: .7em; }
@page { size: A4 portrait; margin: 10mm; }
@media print { body { margin: 0; } th, td { padding: 1px 10px; } }
"""
for _action, _key in ((Action.HIT, "H"), (Action.STAND, "S"), (Action.NONE, "N")):
    _CSS = _CSS.replace(f"%({_key})s", COLOURS[_action])


def to_html(chart: Chart) -> str:
    """A self-contained HTML page: colour per action and the letter in every cell."""
    esc = html.escape
    head, *rest = header_lines(chart)
    rows = []
    for hand, actions in grid(chart):
        cells = "".join(
            f'<td class="{"N" if a == Action.NONE.value else a}">{esc(a)}</td>' for a in actions
        )
        rows.append(f'<tr><td class="label">{esc(hand)}</td>{cells}</tr>')
    exceptions = "".join(
        "<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>"
        for row in exception_rows(chart)
    )
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{esc(head)}</title>",
            f"<style>{_CSS}</style></head><body>",
            f"<h1>{esc(head)}</h1>",
            *(f"<p>{esc(line)}</p>" for line in rest),
            "<table><thead><tr><th>hand</th>"
            + "".join(f"<th>{c}</th>" for c in COLUMNS)
            + "</tr></thead><tbody>",
            *rows,
            "</tbody></table>",
            f"<p>Exceptions: {len(chart.exceptions)} hands where perfect play departs from the "
            f"chart; the {TOP_EXCEPTIONS} that matter most:</p>",
            '<table class="exceptions"><thead><tr>'
            + "".join(f"<th>{esc(h)}</th>" for h in EXCEPTION_HEADERS)
            + "</tr></thead><tbody>",
            exceptions,
            "</tbody></table>",
            "</body></html>",
            "",
        ]
    )


def to_image(chart: Chart, fmt: ChartFormat) -> bytes:
    """The chart drawn on one A4 page with matplotlib, as PDF, SVG or PNG bytes."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.patches import Rectangle

    with matplotlib.rc_context(
        {"svg.hashsalt": "community-blackjack", "font.family": "DejaVu Sans"}
    ):
        figure = plt.figure(figsize=(8.27, 11.69))
        ax = figure.add_axes((0.07, 0.04, 0.86, 0.78))
        ax.set_axis_off()
        rows = grid(chart)
        n_rows, n_cols = len(rows), len(COLUMNS)
        ax.set_xlim(0, n_cols + 2)
        ax.set_ylim(n_rows + 1, 0)
        for j, column in enumerate(COLUMNS):
            ax.add_patch(Rectangle((j + 2, 0), 1, 1, facecolor="#eeeeee", edgecolor="#555555"))
            ax.text(j + 2.5, 0.5, column, ha="center", va="center", fontsize=10, weight="bold")
        ax.add_patch(Rectangle((0, 0), 2, 1, facecolor="#eeeeee", edgecolor="#555555"))
        ax.text(1, 0.5, "hand \\ Bonus", ha="center", va="center", fontsize=9, weight="bold")
        for i, (hand, actions) in enumerate(rows, start=1):
            ax.add_patch(Rectangle((0, i), 2, 1, facecolor="#f7f7f7", edgecolor="#555555"))
            ax.text(0.12, i + 0.5, hand, ha="left", va="center", fontsize=9, weight="bold")
            for j, action in enumerate(actions):
                colour = COLOURS[Action(action)]
                ax.add_patch(Rectangle((j + 2, i), 1, 1, facecolor=colour, edgecolor="#555555"))
                ax.text(j + 2.5, i + 0.5, action, ha="center", va="center", fontsize=9)
        lines = header_lines(chart)
        figure.text(0.07, 0.965, lines[0], fontsize=12, weight="bold", va="top")
        rules_text = lines[1].replace(", dealer natural", ",\ndealer natural")
        figure.text(0.07, 0.94, rules_text, fontsize=7.5, va="top")
        figure.text(0.07, 0.905, lines[2] + "\n" + lines[3], fontsize=7.5, va="top")
        legend = "   ".join(
            f"{a.value} = {LEGEND[a].split(' (')[0]}" for a in (Action.HIT, Action.STAND)
        )
        figure.text(
            0.07, 0.865, f"Legend: {legend}   - = no such hand (blackjack)", fontsize=7.5, va="top"
        )
        figure.text(
            0.07,
            0.845,
            f"{len(chart.exceptions)} hands where composition-dependent play departs from "
            f"the chart cost {float(chart.cost):.2e} per round in all.",
            fontsize=7.5,
            va="top",
        )
        out = io.BytesIO()
        metadata: dict[str, Any] = {"Title": lines[0]}
        if fmt is ChartFormat.PDF:
            metadata["CreationDate"] = None
        elif fmt is ChartFormat.SVG:
            metadata["Date"] = None
        figure.savefig(out, format=fmt.value, metadata=metadata, dpi=150)
        plt.close(figure)
    return out.getvalue()


def render(chart: Chart, fmt: ChartFormat) -> bytes:
    """The chart in any :class:`ChartFormat`, as bytes ready to write."""
    if fmt is ChartFormat.JSON:
        return (json.dumps(chart.to_json(), indent=2) + "\n").encode()
    if fmt is ChartFormat.CSV:
        return to_csv(chart).encode()
    if fmt is ChartFormat.MD:
        return to_markdown(chart).encode()
    if fmt is ChartFormat.HTML:
        return to_html(chart).encode()
    return to_image(chart, fmt)
