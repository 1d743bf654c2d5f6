"""The workbench's Paytable, Compare, Chart, Report and Hold pages' parts as HTML (see
:mod:`.workbench`), drawn by the templates in ``templates/pages/``.

Pure: a paytable solution or search, solved games side by side, a chart, a report's state
or a hold check in; escaped HTML (:class:`Markup`) out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree

from solver.model.cells import LEGEND, Action
from solver.model.rule_table import Rule
from solver.model.rules import RULE_TABLE, Rules
from solver.present import charts
from solver.present.formats import rule_cell
from solver.present.hold import draw_series, hold_table, series_tables
from solver.present.long_numbers import exact_html
from solver.present.style import show, thousands
from solver.present.templates import Markup, macro, render
from solver.present.workbench import (
    Progress,
    html_table,
    link,
    progress_html,
    site_header,
)
from solver.results.figures import heading

if TYPE_CHECKING:
    from solver.results.charts import Chart
    from solver.results.game import GameResult
    from solver.results.hold import HoldCheck, HoldSeries
    from solver.results.paytable import PaySolution, SearchResult


#: The heading of a column of links that open the Game page with the row's paytable (a
#: heading screen readers can say, never a blank one).
GAME_LINK = "open in Game"
#: The template of the pages' small pieces.
PARTS = "pages/parts.html"


def _load(query: Mapping[str, str], paytable: object) -> Markup:
    """A link that opens the Game page with this paytable."""
    return macro(PARTS, "load_link", link("/", {**query, "paytable": str(paytable)}))


def _table(caption: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> Markup:
    return html_table(caption, headers, rows)


def pay_solution_html(solution: PaySolution, query: Mapping[str, str]) -> Markup:
    """A solved pay, its decimal first and the exact fraction folded under it, then the
    practical pays around it, each loadable into the Game page."""
    rows = [
        [
            *(
                str(c.paytable),
                show("bonus_house_edge", c.bonus_edge),
                show("round_house_edge", c.round_edge),
            ),
            _load(query, c.paytable),
        ]
        for c in solution.candidates
    ]
    headers = ("paytable", heading("bonus_house_edge"), heading("round_house_edge"), GAME_LINK)
    return macro(
        "pages/paytable.html",
        "solution",
        tier=solution.tier.replace("_", " "),
        kind=solution.kind.value,
        target=show(_EDGE_KEYS[solution.kind], solution.target),
        pay=str(solution.pay),
        decimal=show("break_even_pay", solution.pay),
        fraction=exact_html(solution.pay),
        table=_table("Practical pays near it", headers, rows),
    )


def search_html(result: SearchResult, query: Mapping[str, str]) -> Markup:
    """The paytables a search found, closest to the band's middle first."""
    rows = [
        [
            *(
                str(h.paytable),
                show("bonus_house_edge", h.bonus_edge),
                show("round_house_edge", h.round_edge),
                show("round_hit_frequency", h.round_hit_frequency),
                show("round_sd", h.round_standard_deviation),
            ),
            _load(query, h.paytable),
        ]
        for h in result.hits
    ]
    keys = ("bonus_house_edge", "round_house_edge", "round_hit_frequency", "round_sd")
    low, high = result.band
    return macro(
        "pages/paytable.html",
        "search",
        matches=thousands(result.matches),
        max_pay=result.max_pay,
        kind=result.kind.value,
        low=show(_EDGE_KEYS[result.kind], low),
        high=show(_EDGE_KEYS[result.kind], high),
        table=_table("Paytables in the band", ("paytable", *map(heading, keys), GAME_LINK), rows),
    )


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the Compare page: its letter, its rules form and its game if solved."""

    letter: str
    fields: Markup
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


@dataclass(frozen=True, slots=True)
class _Cell:
    """One cell of the Compare table: a value's text (marked where unlike A's, with its
    figure's data for the scripts and tests), a field not valid, a solve's progress, or none."""

    text: str | None = None
    differs: bool = False
    bad: bool = False
    progress: Markup | None = None
    figure: str = ""
    column: str = ""
    value: str = ""


def _rule_row(rule: Rule, columns: Sequence[Column]) -> dict[str, Any]:
    """A rule's row of the Compare table: each column's value, marked where unlike A's."""
    base = columns[0].value(rule.name)
    cells: list[_Cell] = []
    for c in columns:
        value = c.value(rule.name)
        if value is None:
            cells.append(_Cell(bad=True))
            continue
        differs = base is not None and value != base
        cells.append(_Cell(_rule_text(rule, value), differs))
    return {"label": rule.label, "cells": cells}


def _figure_cell(c: Column, name: str, figures: dict[str, Any] | None, base: Any) -> _Cell:
    """A figure's cell in column ``c``: its text, marked where unlike A's, else the
    column's progress (or a dash)."""
    if figures is None or name not in figures:
        if c.progress is None:
            return _Cell()
        return _Cell(progress=progress_html(c.progress))
    value, text = figures[name]
    differs = base is not None and name in base and base[name][1] != text
    slug = name.replace("_", "-")
    return _Cell(text, differs, figure=slug, column=c.letter, value=repr(value))


def compare_table(columns: Sequence[Column]) -> Markup:
    """Two to four rule sets side by side: a table of their rules and figures in which every
    value unlike column A's is highlighted (C and D once one of their fields is given); a
    field that is not valid marks its own cell only."""
    columns = [c for c in columns if c.letter in "AB" or c.rules is not None or c.invalid]
    rows = [_rule_row(rule, columns) for rule in RULE_TABLE]
    found = [None if c.game is None else _compare_figures(c.game) for c in columns]
    names = next((list(f) for f in found if f is not None), [])
    for name in names:
        cells = [_figure_cell(c, name, f, found[0]) for c, f in zip(columns, found, strict=True)]
        rows.append({"label": heading(name), "cells": cells})
    busy = any(c.progress is not None for c in columns)
    return macro("pages/compare.html", "table", [c.letter for c in columns], rows, busy)


def compare_body(columns: Sequence[Column]) -> Markup:
    """The Compare page: the table (:func:`compare_table`), then every column's fields; the
    table follows the fields as they are typed (the page's script)."""
    forms = [(c.letter, c.fields) for c in columns]
    return macro("pages/compare.html", "body", compare_table(columns), forms)


def start_button(action: str, label: str) -> Markup:
    """A form of one button that starts the work of the page at ``action`` (a POST)."""
    return macro(PARTS, "start_button", action, label)


def folded_rules(fields: Markup, open_: bool = False) -> Markup:
    """The rules' fields folded away under "Rules of the game" (``open_``: shown, when one
    of them is wrong), so that a page's own tool comes first."""
    return macro(PARTS, "folded_rules", fields, open_)


def chart_page(
    chart: Chart, downloads: Mapping[str, str], query: Mapping[str, str], lead: Markup | None = None
) -> Markup:
    """The page ``cbj chart`` writes, in the workbench's frame: the navigation bar across the
    window as on every page (not printed), the chart as the page's ``main``, ``lead`` (the
    main wager's EV, with the chart and with perfect play: said there only) under its title.

    Each download is a button: drawing a file is work, which only a POST starts.
    """
    buttons = macro(PARTS, "downloads", list(downloads.items()))
    bar = site_header("/chart", query, buttons)
    title, rules_line, how, _, _ = charts.header_lines(chart)
    legend = [
        {
            "letter": a.value,
            "colour": charts.COLOURS[a],
            "words": LEGEND[a].split(" (")[0],
            "colour_name": charts.COLOUR_NAMES[a],
        }
        for a in Action
    ]
    return render(
        "pages/chart.html",
        title=title,
        css=charts.style(),
        bar=bar,
        lead=lead or Markup(),
        lines=(rules_line, how),
        cost=show("chart_cost", chart.cost),
        legend=legend,
        table=charts.chart_table_html(chart),
        exceptions=charts.exceptions_html(chart),
    )


def report_body(
    fields: Markup,
    options: tuple[Markup, Markup],
    progress: Progress | None,
    downloads: Mapping[str, tuple[str, str]],
    error: str,
    back: str = "",
    open_rules: bool = False,
) -> Markup:
    """The Report page: the build's progress and the downloads first (in view once the
    button is pressed); beside them the form: what the build makes (``options``' first
    part) and the build button, in the first screen; the rules folded away (``open_rules``:
    shown, when one of them is wrong); the report's other options and the button again.

    ``downloads``: each built file's address and name, by its format's name."""
    return render(
        "pages/report.html",
        idle=progress is None and not downloads and not error,
        progress=progress_html(progress, back),
        error=error,
        downloads=[(name, url, file) for name, (url, file) in downloads.items()],
        fields=fields,
        options=options,
        open_rules=open_rules,
    )


def hold_html(check: HoldCheck) -> Markup:
    """The hold check's verdict in a sentence, then ``cbj hold``'s table."""
    table = hold_table(check)
    held = (
        f"held {show('casino_hold', check.observed_hold)} of the drop against "
        f"{show('casino_hold', check.expected_hold or 0)} expected"
        if check.observed_hold is not None
        else f"won {show('win_over_handle', check.observed_over_handle)} of the handle against "
        f"{show('win_over_handle', check.expected_over_handle)} expected"
    )
    return macro(
        "pages/hold.html",
        "check",
        rounds=thousands(check.rounds),
        held=held,
        tail=show("hold_tail", check.p_value),
        verdict=check.verdict,
        p_value=repr(check.p_value),
        table=_table(table.title, table.headers, table.rows),
        notes=table.notes[1:],
    )


def _inline_svg(drawn: bytes) -> Markup:
    """A drawn SVG file as an element to put in a page: its XML declaration and doctype
    left out (parsed and written again; matplotlib's own drawing, not user input)."""
    ElementTree.register_namespace("", "http://www.w3.org/2000/svg")
    ElementTree.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    return Markup(ElementTree.tostring(ElementTree.fromstring(drawn), encoding="unicode"))


def series_html(series: HoldSeries) -> Markup:
    """A daily series: its verdict, the control chart (inline SVG) and the periods."""
    drawn = [
        (kind, _inline_svg(draw_series(series, "svg", width)))
        for width, kind in ((9.0, "wide"), (3.6, "narrow"))
    ]
    tables = [_table(t.title, t.headers, t.rows) for t in series_tables(series)]
    return macro("pages/hold.html", "series", series.verdict, len(series.flagged), drawn, tables)
