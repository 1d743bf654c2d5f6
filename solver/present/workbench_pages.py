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

from solver.model.rule_table import Rule
from solver.model.rules import RULE_TABLE, Rules
from solver.present.formats import rule_cell
from solver.present.hold import draw_series, hold_table, series_tables
from solver.present.long_numbers import exact_html
from solver.present.style import show, thousands
from solver.present.workbench import (
    Progress,
    html_table,
    link,
    progress_html,
    site_header,
)
from solver.results.figures import heading

if TYPE_CHECKING:
    from solver.results.game import GameResult
    from solver.results.hold import HoldCheck, HoldSeries
    from solver.results.paytable import PaySolution, SearchResult


#: The heading of a column of links that open the Game page with the row's paytable (a
#: heading screen readers can say, never a blank one).
GAME_LINK = "open in Game"


def _load(query: Mapping[str, str], paytable: object) -> str:
    """A link that opens the Game page with this paytable."""
    return f'<a href="{escape(link("/", {**query, "paytable": str(paytable)}))}">load into Game</a>'


def pay_solution_html(solution: PaySolution, query: Mapping[str, str]) -> str:
    """A solved pay and the practical pays around it, each loadable into the Game page."""
    rows = [
        [
            escape(str(c.paytable)),
            escape(show("bonus_house_edge", c.bonus_edge)),
            escape(show("round_house_edge", c.round_edge)),
            _load(query, c.paytable),
        ]
        for c in solution.candidates
    ]
    lead = (
        f'<p class="lead" data-figure="pay" data-exact="{solution.pay}">The '
        f"{escape(solution.tier.replace('_', ' '))} pay that gives a "
        f"{escape(solution.kind.value)} house edge of "
        f"{escape(show(_EDGE_KEYS[solution.kind], solution.target))} "
        f"is {exact_html(solution.pay)} = {escape(show('break_even_pay', solution.pay))}.</p>"
    )
    return lead + html_table(
        "Practical pays near it",
        ("paytable", heading("bonus_house_edge"), heading("round_house_edge"), GAME_LINK),
        rows,
    )


def search_html(result: SearchResult, query: Mapping[str, str]) -> str:
    """The paytables a search found, closest to the band's middle first."""
    rows = [
        [
            escape(str(h.paytable)),
            escape(show("bonus_house_edge", h.bonus_edge)),
            escape(show("round_house_edge", h.round_edge)),
            escape(show("round_hit_frequency", h.round_hit_frequency)),
            escape(show("round_sd", h.round_standard_deviation)),
            _load(query, h.paytable),
        ]
        for h in result.hits
    ]
    low, high = result.band
    lead = (
        f'<p class="lead">{escape(thousands(result.matches))} whole-unit paytables up to '
        f"{result.max_pay} have a {escape(result.kind.value)} house edge from "
        f"{escape(show(_EDGE_KEYS[result.kind], low))} to "
        f"{escape(show(_EDGE_KEYS[result.kind], high))}; the closest to the middle:</p>"
    )
    headers = (
        "paytable",
        *(heading(k) for k in ("bonus_house_edge", "round_house_edge", "round_hit_frequency")),
        heading("round_sd"),
        GAME_LINK,
    )
    return lead + html_table("Paytables in the band", headers, rows)


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the Compare page: its letter, its rules form and its game if solved."""

    letter: str
    fields: str
    rules: Rules | None
    game: GameResult[Any] | None = None
    progress: Progress | None = None
    shown: Mapping[str, object] | None = None
    """Each rule's value as far as an invalid column's fields say it."""
    invalid: frozenset[str] = frozenset()
    """The fields of the column that are not valid."""

    def value(self, name: str) -> object | None:
        """The rule's value in this column (None where its field is not valid)."""
        if self.rules is not None:
            found: object = getattr(self.rules, name)
            return found
        if name in self.invalid or self.shown is None:
            return None
        return self.shown.get(name)


def _compare_figures(game: GameResult[Any]) -> dict[str, tuple[float, str]]:
    """The Compare page's figures of one game by catalogue key: each value and its text."""
    ev = game.expected_value
    values: dict[str, Any] = {"main_house_edge": -ev, "main_rtp": 1 + ev}
    if game.bonus is not None:
        edge = game.round_house_edge
        values |= {
            "bonus_house_edge": game.bonus.house_edge,
            "bonus_rtp": game.bonus.return_to_player,
            "round_house_edge": edge,
            "round_rtp": 1 - edge,
            "round_hit_frequency": game.round_hit_frequency,
            "round_sd": math.sqrt(game.round_variance),
        }
        if game.volatility is not None:
            values["volatility_index"] = game.volatility.index
    return {key: (float(value), show(key, value)) for key, value in values.items()}


#: The catalogue key of a paytable design's target edge, by its kind.
_EDGE_KEYS = {"bonus": "bonus_house_edge", "round": "round_house_edge"}


def _rule_text(rule: Rule, value: object) -> str:
    """A rule's value in a Compare cell: a number as typed, a choice in its plain words."""
    return rule.words(rule.check(value)) if rule.choices else rule_cell(rule.to_json(value))


def _marked(text: str, differs: bool, attributes: str = "") -> str:
    cls = ' class="differs"' if differs else ""
    note = '<span class="visually-hidden"> (differs from A)</span>' if differs else ""
    return f"<span{cls}{attributes}>{escape(text)}</span>{note}"


def compare_table(columns: Sequence[Column]) -> str:
    """Two to four rule sets side by side: a table of their rules and figures in which every
    value unlike column A's is highlighted (C and D once one of their fields is given); a
    field that is not valid marks its own cell only."""
    columns = [c for c in columns if c.letter in "AB" or c.rules is not None or c.invalid]
    head = "".join(f'<th scope="col">{c.letter}</th>' for c in columns)
    base = columns[0]
    rows: list[str] = []
    for rule in RULE_TABLE:
        cells = []
        base_value = base.value(rule.name)
        for c in columns:
            value = c.value(rule.name)
            if value is None:
                cells.append('<td><span class="bad">not valid</span></td>')
                continue
            differs = base_value is not None and value != base_value
            cells.append(f"<td>{_marked(_rule_text(rule, value), differs)}</td>")
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
            slug = name.replace("_", "-")
            data = f' data-figure="{slug}" data-column="{c.letter}" data-value="{value!r}"'
            cells.append(f"<td>{_marked(text, differs, data)}</td>")
        rows.append(f'<tr><th scope="row">{escape(heading(name))}</th>{"".join(cells)}</tr>')
    busy = ' aria-busy="true"' if any(c.progress is not None for c in columns) else ""
    caption = "Side by side (highlighted: unlike A)"
    return (
        f'<div class="table-box"><p class="caption">{caption}</p>'
        '<p class="cue" hidden>Scroll the table sideways \u2192</p>'
        f'<div class="scroll" role="region" tabindex="0" aria-label="{caption}">'
        f'<table class="compare" id="compare"{busy}>'
        f'<thead><tr><th scope="col">rule or figure</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div></div>"
    )


def compare_body(columns: Sequence[Column]) -> str:
    """The Compare page: the table (:func:`compare_table`), then every column's fields; the
    table follows the fields as they are typed (the page's script)."""
    forms = "".join(
        f'<fieldset class="column"><legend>{c.letter}</legend>{c.fields}</fieldset>'
        for c in columns
    )
    return (  # the figures first: the forms below are long
        f'<section id="results" aria-live="polite">{compare_table(columns)}</section>'
        '<form id="compare-form" method="post" action="/compare">'
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


def chart_page(
    chart_html: str, downloads: Mapping[str, str], query: Mapping[str, str], lead: str = ""
) -> str:
    """The page ``cbj chart`` writes, in the workbench's frame: the navigation bar across the
    window as on every page (not printed), the chart as the page's ``main``, ``lead`` (not
    printed) under its title.

    Each download is a button: drawing a file is work, which only a POST starts.
    """
    links = " ".join(
        f'<form class="download" method="post" action="{escape(url)}">'
        f"<button>{escape(name)}</button></form>"
        for name, url in downloads.items()
    )
    bar = site_header("/chart", query, f'<p class="downloads">Download: {links}</p>')
    head, marker, rest = chart_html.partition("<body>")
    chart, end, tail = rest.rpartition("</body>")
    if not marker or not end:
        return chart_html
    style = '<link rel="stylesheet" href="/static/site.css"></head>'
    return (
        head.replace("</head>", style, 1)
        + '<body class="framed">'
        + bar
        + "<main>"
        + chart.replace("</h1>", f'</h1><div class="lead-line">{lead}</div>', 1)
        + "</main>"
        + end
        + tail
    )


def report_body(
    fields: str,
    options: tuple[str, str],
    progress: Progress | None,
    downloads: Mapping[str, str],
    error: str,
    back: str = "",
    open_rules: bool = False,
) -> str:
    """The Report page: the build's progress and the downloads first (in view once the
    button is pressed); beside them the form: what the build makes (``options``' first
    part) and the build button, in the first screen; the rules folded away (``open_rules``:
    shown, when one of them is wrong); the report's other options and the button again."""
    ready = "".join(
        f'<li><a href="{escape(url)}" download>Download the report as {escape(name)}</a></li>'
        for name, url in downloads.items()
    )
    waiting = (
        ""
        if progress is not None or ready or error
        else '<p class="idle">Press Build the report: its progress, step by step, then its '
        "downloads show here.</p>"
    )
    button = '<button type="submit">Build the report</button>'
    shown = " open" if open_rules else ""
    return (
        '<div class="columns results-first">'
        f'<section id="results" aria-live="polite">{waiting}{progress_html(progress, back)}'
        f'<p class="error" role="alert">{escape(error)}</p>'
        + (f'<ul id="downloads">{ready}</ul>' if ready else "")
        + "</section>"
        '<form id="report-form" class="rules" method="post">'
        f'{options[0]}{button}<details class="rules-more"{shown}><summary>Rules of the game'
        f"</summary>{fields}</details>{options[1]}{button}</form></div>"
    )


def hold_html(check: HoldCheck) -> str:
    """The hold check's verdict in a sentence, then ``cbj hold``'s table."""
    table = hold_table(check)
    held = (
        f"held {show('casino_hold', check.observed_hold)} of the drop against "
        f"{show('casino_hold', check.expected_hold or 0)} expected"
        if check.observed_hold is not None
        else f"won {show('win_over_handle', check.observed_over_handle)} of the handle against "
        f"{show('win_over_handle', check.expected_over_handle)} expected"
    )
    lead = (
        f'<p class="lead" data-figure="hold-tail" data-value="{check.p_value!r}">'
        f"Over {escape(thousands(check.rounds))} table-rounds the casino {escape(held)}; a "
        "result at least this far from it, either side, has probability "
        f"{escape(show('hold_tail', check.p_value))}. Verdict: "
        f"{escape(check.verdict)}.</p>"
    )
    rows = [[escape(cell) for cell in row] for row in table.rows]
    notes = "".join(f"<p>{escape(n)}</p>" for n in table.notes[1:])
    return lead + html_table(table.title, table.headers, rows) + notes


def series_html(series: HoldSeries) -> str:
    """A daily series: its verdict, the control chart (inline SVG) and the periods."""
    drawn = []
    for width, kind in ((9.0, "wide"), (3.6, "narrow")):
        svg = draw_series(series, "svg", width).decode()
        drawn.append(f'<div class="{kind}">{svg[svg.index("<svg") :]}</div>')
    lead = (
        f'<p class="lead" data-figure="hold-flagged" data-value="{len(series.flagged)}">'
        f"{escape(series.verdict)}.</p>"
    )
    parts = [lead, f'<figure class="control-chart">{"".join(drawn)}</figure>']
    for table in series_tables(series):
        rows = [[escape(cell) for cell in row] for row in table.rows]
        parts.append(html_table(table.title, table.headers, rows))
    return "".join(parts)
