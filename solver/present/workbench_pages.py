"""The workbench's Paytable, Compare, Chart and Report pages as HTML (see :mod:`.workbench`).

Pure: a paytable solution or search, solved games side by side, a chart's page and a
report's state in; escaped HTML out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from solver.model.rules import RULE_TABLE, Rules
from solver.present.formats import rule_cell
from solver.present.hold import hold_table
from solver.present.style import edge_percent
from solver.present.workbench import PAGES, Progress, html_table, link, progress_html

if TYPE_CHECKING:
    from solver.results.game import GameResult
    from solver.results.hold import HoldCheck
    from solver.results.paytable import PaySolution, SearchResult


def _load(query: Mapping[str, str], paytable: object) -> str:
    """A link that opens the Game page with this paytable."""
    return f'<a href="{escape(link("/", {**query, "paytable": str(paytable)}))}">load into Game</a>'


def pay_solution_html(solution: PaySolution, query: Mapping[str, str]) -> str:
    """A solved pay and the practical pays around it, each loadable into the Game page."""
    rows = [
        [
            escape(str(c.paytable)),
            escape(edge_percent(c.bonus_edge)),
            escape(edge_percent(c.round_edge)),
            _load(query, c.paytable),
        ]
        for c in solution.candidates
    ]
    lead = (
        f'<p class="lead" data-figure="pay" data-exact="{solution.pay}">The '
        f"{escape(solution.tier.replace('_', ' '))} pay that gives a "
        f"{escape(solution.kind.value)} house edge of {escape(edge_percent(solution.target))} "
        f"is {escape(str(solution.pay))} = {float(solution.pay):.6f} to 1.</p>"
    )
    return lead + html_table(
        "Practical pays near it", ("paytable", "Bonus edge", "round edge", ""), rows
    )


def search_html(result: SearchResult, query: Mapping[str, str]) -> str:
    """The paytables a search found, closest to the band's middle first."""
    rows = [
        [
            escape(str(h.paytable)),
            escape(edge_percent(h.bonus_edge)),
            escape(edge_percent(h.round_edge)),
            f"{float(h.round_hit_frequency):.4f}",
            f"{h.round_standard_deviation:.4f}",
            _load(query, h.paytable),
        ]
        for h in result.hits
    ]
    low, high = result.band
    lead = (
        f'<p class="lead">{result.matches:,} whole-unit paytables up to {result.max_pay} have a '
        f"{escape(result.kind.value)} house edge from {escape(edge_percent(low))} to "
        f"{escape(edge_percent(high))}; the closest to the middle:</p>"
    )
    headers = ("paytable", "Bonus edge", "round edge", "round hit frequency", "round SD", "")
    return lead + html_table("Paytables in the band", headers, rows)


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the Compare page: its letter, its rules form and its game if solved."""

    letter: str
    fields: str
    rules: Rules | None
    game: GameResult[Any] | None = None
    progress: Progress | None = None


def _compare_figures(game: GameResult[Any]) -> dict[str, tuple[float, str]]:
    figures: dict[str, tuple[float, str]] = {
        "main house edge": (float(-game.expected_value), edge_percent(-game.expected_value))
    }
    if game.bonus is not None:
        sd = math.sqrt(game.round_variance)
        figures |= {
            "Bonus house edge": (float(game.bonus.house_edge), edge_percent(game.bonus.house_edge)),
            "round house edge": (float(game.round_house_edge), edge_percent(game.round_house_edge)),
            "round hit frequency": (
                float(game.round_hit_frequency),
                f"{float(game.round_hit_frequency):.4f}",
            ),
            "round SD": (sd, f"{sd:.4f}"),
        }
        volatility = game.volatility
        if volatility is not None:
            figures["volatility index"] = (volatility.index, f"{volatility.index:.4f}")
    return figures


def _marked(text: str, differs: bool, attributes: str = "") -> str:
    cls = ' class="differs"' if differs else ""
    note = '<span class="visually-hidden"> (differs from A)</span>' if differs else ""
    return f"<span{cls}{attributes}>{escape(text)}</span>{note}"


def compare_body(columns: Sequence[Column]) -> str:
    """Two to four rule sets side by side: a table of their rules and figures in which every
    value unlike column A's is highlighted, then every column's fields (C and D join the
    table once one of their fields is given)."""
    forms = "".join(
        f'<fieldset class="column"><legend>{c.letter}</legend>{c.fields}</fieldset>'
        for c in columns
    )
    columns = [c for c in columns if c.letter in "AB" or c.rules is not None]
    head = "".join(f'<th scope="col">{c.letter}</th>' for c in columns)
    base = columns[0].rules
    rows: list[str] = []
    for rule in RULE_TABLE:
        cells = []
        for c in columns:
            if c.rules is None:
                cells.append("<td>invalid</td>")
                continue
            value = getattr(c.rules, rule.name)
            differs = base is not None and value != getattr(base, rule.name)
            cells.append(f"<td>{_marked(rule_cell(rule.to_json(value)), differs)}</td>")
        rows.append(f'<tr><th scope="row">{escape(rule.label)}</th>{"".join(cells)}</tr>')
    found = [None if c.game is None else _compare_figures(c.game) for c in columns]
    names = next((list(f) for f in found if f is not None), [])
    for name in names:
        cells = []
        for c, figures in zip(columns, found, strict=True):
            if figures is None or name not in figures:
                cells.append(f"<td>{progress_html(c.progress) if c.progress else '-'}</td>")
                continue
            value, text = figures[name]
            differs = found[0] is not None and name in found[0] and found[0][name][1] != text
            slug = name.replace(" ", "-").lower()
            data = f' data-figure="{slug}" data-column="{c.letter}" data-value="{value!r}"'
            cells.append(f"<td>{_marked(text, differs, data)}</td>")
        rows.append(f'<tr><th scope="row">{escape(name)}</th>{"".join(cells)}</tr>')
    busy = ' aria-busy="true"' if any(c.progress is not None for c in columns) else ""
    table = (
        f'<div class="scroll"><table class="compare" id="compare"{busy}>'
        "<caption>Side by side (highlighted: unlike A)</caption>"
        f'<thead><tr><th scope="col">rule or figure</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )
    return (  # the figures first: the forms below are long
        f'<section id="results" aria-live="polite">{table}</section>'
        '<form id="compare-form" method="get" action="/compare">'
        '<button type="submit">Compare</button>'
        f'<div class="compare-forms">{forms}</div>'
        '<button type="submit">Compare</button></form>'
    )


def start_button(action: str, label: str) -> str:
    """A form of one button that starts the work of the page at ``action`` (a POST)."""
    return (
        f'<form class="start" method="post" action="{escape(action)}">'
        f"<button>{escape(label)}</button></form>"
    )


def chart_page(chart_html: str, downloads: Mapping[str, str], query: Mapping[str, str]) -> str:
    """The page ``cbj chart`` writes, with the workbench's links above it (not printed).

    Each download is a button: drawing a file is work, which only a POST starts.
    """
    links = " ".join(
        f'<form class="download" method="post" action="{escape(url)}">'
        f"<button>{escape(name)}</button></form>"
        for name, url in downloads.items()
    )
    nav = "".join(f'<a href="{escape(link(path, query))}">{name}</a>' for path, name in PAGES)
    bar = (
        '<link rel="stylesheet" href="/static/chart-bar.css">'
        f'<nav class="workbench-bar" aria-label="Pages">{nav} <span>Download: {links}</span></nav>'
    )
    head, marker, rest = chart_html.partition("<body>")
    if not marker:
        return chart_html
    return head + marker + bar + rest


def report_body(
    fields: str,
    sizes: str,
    progress: Progress | None,
    downloads: Mapping[str, str],
    error: str,
    back: str = "",
) -> str:
    """The Report page: the rules and sizes, a build button, its progress, the downloads."""
    ready = "".join(
        f'<li><a href="{escape(url)}" download>Download the report as {escape(name)}</a></li>'
        for name, url in downloads.items()
    )
    return (
        '<form id="report-form" method="post">'
        f'{fields}{sizes}<button type="submit">Build the report</button></form>'
        f'<section id="results" aria-live="polite">{progress_html(progress, back)}'
        f'<p class="error" role="alert">{escape(error)}</p>'
        + (f'<ul id="downloads">{ready}</ul>' if ready else "")
        + "</section>"
    )


def hold_html(check: HoldCheck) -> str:
    """The hold check's verdict in a sentence, then ``cbj hold``'s table."""
    table = hold_table(check)
    lead = (
        f'<p class="lead" data-figure="hold-p-value" data-value="{check.p_value!r}">'
        f"Over {check.rounds:,} rounds the casino held {float(check.observed_hold):.3%} "
        f"against {float(check.expected_hold):.3%} expected; a result at least this far "
        f"from it, either side, has probability {check.p_value:.3g}. Verdict: "
        f"{escape(check.verdict)}.</p>"
    )
    rows = [[escape(cell) for cell in row] for row in table.rows]
    return lead + html_table(table.title, table.headers, rows)
