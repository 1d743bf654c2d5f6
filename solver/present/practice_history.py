"""The Practice page's statistics as HTML: a session's or a player's history across sessions
(accuracy, streaks, EV given up, the trend, each hand type, each session), and the chart's
rows around a decision with its cell highlighted.

Pure: a :class:`~solver.present.practice_stats.StatsView` (or a chart and a cell) in,
HTML out, drawn by ``templates/practice/history.html``.  The figures and their labels are
the tables of :mod:`solver.present.practice_stats` (the catalogue's), so the page,
``cbj practice`` and a CSV say the same; each figure carries its catalogue key in
``data-history`` or ``data-session``.
"""

from __future__ import annotations

from typing import Any

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
from solver.present.templates import Markup, macro
from solver.present.workbench import html_table
from solver.results.practice_history import PracticeHistory

_HISTORY = "practice/history.html"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _summary_rows(view: StatsView) -> list[tuple[str, str, str]]:
    """The headline figures, each its label, its key (``accuracy``, ``streak``, ...) and
    its text."""
    table = summary_table(view)
    return [
        (_capital(label), str(keys[1]).removeprefix("practice_"), text)
        for (label, text), keys in zip(table.rows, table.keys, strict=True)
    ]


def _table_html(table: Table, view: StatsView) -> Markup:
    """A table captioned with whose figures it holds (each table's box a region of its own
    name: "This session, by kind of hand", "All your practice, by kind of hand")."""
    title = table.title[:1].lower() + table.title[1:]
    return html_table(f"{view.title}, {title}", table.headers, table.rows)


def hand_types_html(view: StatsView, what: str) -> Markup:
    """Decisions, mistakes, accuracy and cost by kind of hand, Bonus card and total, folded
    away under ``what``."""
    if not view.total.decisions:
        return Markup()
    tables = [_table_html(t, view) for t in hand_type_tables(view)]
    return macro(_HISTORY, "hand_types", what, tables)


def history_html(history: PracticeHistory) -> Markup:
    """The player's practice across sessions (kept in this browser): the headline figures,
    the hands on the review schedule, each hand type and each session."""
    if not history.total.decisions:
        return macro(_HISTORY, "history", None)
    view = of_history(history)
    schedule = history.schedule
    listed = len(schedule.reviews)
    shown: dict[str, Any] = {
        "figures": _summary_rows(view),
        "listed": listed,
        "due": sum(r.due <= schedule.clock for r in schedule.reviews),
        "to_review": f"{listed} hand{'s' if listed != 1 else ''} to review",
        "kinds": hand_types_html(view, "By kind of hand, Bonus card and total"),
        "sessions": _table_html(sessions_table(view), view),
    }
    return macro(_HISTORY, "history", shown)


def _near(cell: Cell) -> tuple[Cell, ...]:
    """The chart's rows next to ``cell``'s, of the same kind (hard or soft), and its own."""
    same = [r for r in ROWS if r[0] == cell[0]]
    at = same.index(cell)
    return tuple(same[max(at - 1, 0) : at + 2])


def chart_rows_html(chart: Actions, cell: Cell, bonus: int, name: str) -> Markup:
    """The chart's rows around ``cell`` (``name``'s), every Bonus card a column, the cell
    against ``bonus`` highlighted (``data-highlight``), its row and column headers too."""
    head = [(value_label(v), v == bonus) for v in VALUES]
    rows = []
    for row in _near(cell):
        cells = []
        for v in VALUES:
            action = chart.action(row, v)
            here = row == cell and v == bonus
            cells.append(
                {
                    "kind": "N" if action is Action.NONE else action.value,
                    "action": action.value,
                    "mark": f"{cell_name(row)} v {value_label(v)}" if here else "",
                }
            )
        rows.append({"name": cell_name(row), "here": row == cell, "cells": cells})
    caption = f"{_capital(name)} near {cell_name(cell)} (H hit, S stand): your hand outlined"
    return macro(_HISTORY, "chart_rows", caption, head, rows)
