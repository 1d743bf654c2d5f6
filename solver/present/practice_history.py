"""The Practice page's statistics as HTML: a session's or a player's history across sessions
(accuracy, streaks, EV given up, the trend, each hand type, each session), and the chart's
rows around a decision with its cell highlighted.

Pure: a :class:`~solver.present.practice_stats.StatsView` (or a chart and a cell) in,
escaped HTML out.  The figures and their labels are the tables of
:mod:`solver.present.practice_stats` (the catalogue's), so the page, ``cbj practice`` and a
CSV say the same; each figure carries its catalogue key in ``data-history`` or
``data-session``.
"""

from __future__ import annotations

from html import escape

from solver.model.cards import VALUES, value_label
from solver.model.cells import ROWS, Action, Actions, Cell, cell_name
from solver.present.practice_stats import (
    StatsView,
    hand_type_tables,
    of_history,
    sessions_table,
    summary_table,
)
from solver.present.tables import Table
from solver.present.workbench import html_table
from solver.results.practice_history import PracticeHistory


def figures_html(view: StatsView, name: str) -> str:
    """The headline figures as a list of terms, each value marked ``data-<name>`` with its
    key (``accuracy``, ``streak``, ...)."""
    table = summary_table(view)
    rows = "".join(
        f"<div><dt>{escape(label[:1].upper() + label[1:])}</dt><dd data-{name}="
        f'"{escape(str(keys[1]).removeprefix("practice_"))}">{escape(text)}</dd></div>'
        for (label, text), keys in zip(table.rows, table.keys, strict=True)
    )
    return f'<dl class="score">{rows}</dl>'


def _table_html(table: Table, view: StatsView) -> str:
    """A table captioned with whose figures it holds (each table's box a region of its own
    name: "This session, by kind of hand", "All your practice, by kind of hand")."""
    rows = tuple(tuple(escape(c) for c in r) for r in table.rows)
    title = table.title[:1].lower() + table.title[1:]
    return html_table(f"{view.title}, {title}", table.headers, rows)


def hand_types_html(view: StatsView, what: str) -> str:
    """Decisions, mistakes, accuracy and cost by kind of hand, Bonus card and total, folded
    away under ``what``."""
    if not view.total.decisions:
        return ""
    tables = "".join(_table_html(t, view) for t in hand_type_tables(view))
    return f'<details class="more"><summary>{escape(what)}</summary>{tables}</details>'


def history_html(history: PracticeHistory) -> str:
    """The player's practice across sessions (kept in this browser): the headline figures,
    the hands on the review schedule, each hand type and each session."""
    if not history.total.decisions:
        return (
            "<h2>All your practice</h2><p>No decisions yet. Each session's are kept in this "
            "browser (never on the server): export them to a file to keep or move them.</p>"
        )
    view = of_history(history)
    schedule = history.schedule
    due = sum(r.due <= schedule.clock for r in schedule.reviews)
    listed = len(schedule.reviews)
    reviews = (
        f'<p class="reviews" data-reviews="{listed}" data-due="{due}">'
        f"{listed} hand{'s' if listed != 1 else ''} to review, {due} due now: "
        "Drill my mistakes deals them again, each right answer moving it further out.</p>"
        '<button type="button" id="drill-mistakes" class="secondary">Drill my mistakes</button>'
        if listed
        else '<p class="reviews" data-reviews="0" data-due="0">No hands to review: '
        "every mistake has been learned.</p>"
    )
    sessions = (
        '<details class="more"><summary>Each session</summary>'
        + _table_html(sessions_table(view), view)
        + "</details>"
    )
    return (
        "<h2>All your practice</h2>"
        + figures_html(view, "history")
        + reviews
        + hand_types_html(view, "By kind of hand, Bonus card and total")
        + sessions
    )


def _near(cell: Cell) -> tuple[Cell, ...]:
    """The chart's rows next to ``cell``'s, of the same kind (hard or soft), and its own."""
    same = [r for r in ROWS if r[0] == cell[0]]
    at = same.index(cell)
    return tuple(same[max(at - 1, 0) : at + 2])


def chart_rows_html(chart: Actions, cell: Cell, bonus: int, name: str) -> str:
    """The chart's rows around ``cell`` (``name``'s), every Bonus card a column, the cell
    against ``bonus`` highlighted (``data-highlight``), its row and column headers too."""
    head = "".join(
        f'<th scope="col"{" class=here" if v == bonus else ""}>{value_label(v)}</th>'
        for v in VALUES
    )
    body = []
    for row in _near(cell):
        cells = []
        for v in VALUES:
            action = chart.action(row, v)
            kind = "N" if action is Action.NONE else action.value
            mark = (
                f' here" data-highlight="{escape(cell_name(row))} v {value_label(v)}'
                if row == cell and v == bonus
                else ""
            )
            cells.append(f'<td class="{kind}{mark}">{escape(action.value)}</td>')
        here = " class=here" if row == cell else ""
        body.append(f'<tr><th scope="row"{here}>{escape(cell_name(row))}</th>{"".join(cells)}</tr>')
    said = f"near {cell_name(cell)} (H hit, S stand): your hand outlined"
    caption = f"{name[:1].upper()}{name[1:]} {said}"
    return (
        f'<div class="chart-rows"><table class="chart-rows"><caption>{escape(caption)}</caption>'
        f'<thead><tr><th scope="col">own \\ Bonus</th>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )
