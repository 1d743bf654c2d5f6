"""A player's practice statistics for people: the headline figures, each kind of hand, each
Bonus card and total, each session.

Pure: a session's statistics (:class:`~solver.results.practice_stats.SessionStats`) or a
player's history (:class:`~solver.results.practice_history.PracticeHistory`) in, tables out
(text, CSV or Markdown, :class:`~solver.present.tables.Table`), every label the figure
catalogue's.

>>> from solver.results.practice_stats import Decided
>>> stats = SessionStats().graded(Decided(((False, 16), 10), True, 0.01, 0.0123))
>>> summary_table(of_session(stats)).rows[2]
('accuracy', '0.0%')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from solver.model.cards import value_label
from solver.model.cells import Cell, cell_name
from solver.present.style import decimals
from solver.present.tables import Table
from solver.results.figures import heading
from solver.results.practice_history import PracticeHistory, SessionSummary
from solver.results.practice_stats import (
    Key,
    SessionStats,
    Tally,
    Trend,
    bonus,
    grouped,
    kind,
    row,
)


@dataclass(frozen=True, slots=True)
class StatsView:
    """What a session's statistics and a history both show."""

    title: str
    total: Tally
    streak: int
    best: int
    trend: Trend | None
    cells: Mapping[Key, Tally]
    sessions: tuple[SessionSummary, ...] = ()
    reviews: int = 0
    """Cells on the review schedule."""


def of_session(stats: SessionStats, reviews: int = 0) -> StatsView:
    """A session's statistics, to show."""
    return StatsView(
        "This session",
        stats.total,
        stats.streak,
        stats.best_streak,
        stats.trend(),
        stats.cells,
        reviews=reviews,
    )


def of_history(history: PracticeHistory) -> StatsView:
    """A player's history, every session together, to show."""
    return StatsView(
        "All your practice",
        history.total,
        history.streak,
        history.best,
        history.trend(),
        history.all_cells(),
        history.summaries(),
        len(history.schedule.reviews),
    )


def accuracy(tally: Tally) -> str:
    """A tally's accuracy as a percentage to one decimal (a dash before any decision).

    >>> accuracy(Tally(8, 1)), accuracy(Tally())
    ('87.5%', '-')
    """
    share = tally.accuracy
    return "-" if share is None else f"{share * 100:.1f}%"


def trend_words(found: Trend | None) -> str:
    """The trend in words: the change in accuracy, and over how many decisions.

    >>> trend_words(Trend(0.6, 0.8, 50))
    'up 20.0 points: 80.0% over the last 50 decisions, 60.0% over the 50 before'
    """
    if found is None:
        return "not yet (it needs 20 decisions)"
    change = found.change * 100
    way = "up" if change > 0 else "down" if change < 0 else "level"
    points = f" {abs(change):.1f} points" if change else ""
    return (
        f"{way}{points}: {found.later * 100:.1f}% over the last {found.decisions} decisions, "
        f"{found.earlier * 100:.1f}% over the {found.decisions} before"
    )


def summary_table(view: StatsView) -> Table:
    """The headline figures: decisions, mistakes, accuracy, the streaks, the EV given up,
    what the mistakes cost and the trend."""
    total = view.total
    figures = (
        ("practice_decisions", f"{total.decisions:,}"),
        ("practice_mistakes", f"{total.mistakes:,}"),
        ("practice_accuracy", accuracy(total)),
        ("practice_streak", f"{view.streak:,}"),
        ("practice_best_streak", f"{view.best:,}"),
        ("practice_mistake_cost", f"{decimals(total.mistake_cost)} main bets"),
        ("practice_given_up", f"{decimals(total.given_up)} main bets"),
        ("practice_trend", trend_words(view.trend)),
    )
    rows = tuple((heading(key), text) for key, text in figures)
    notes = (
        "right and wrong against the chart learned; EV given up against perfect play for "
        "each very hand and shoe",
        f"hands due for review: {view.reviews}",
    )
    return Table(view.title, ("figure", "value"), rows, notes, tuple((None, k) for k, _ in figures))


K = TypeVar("K", str, int, Cell)


def _tally_table(
    title: str, what: str, cells: Mapping[Key, Tally], part: Callable[[Key], K],
    name: Callable[[K], str],
) -> Table:  # fmt: skip
    groups = grouped(cells, part)
    keys: tuple[str, ...] = ("practice_decisions", "practice_mistakes", "practice_accuracy",
            "practice_mistake_cost")  # fmt: skip
    rows = tuple(
        (name(g), f"{t.decisions:,}", f"{t.mistakes:,}", accuracy(t), decimals(t.mistake_cost))
        for g, t in groups.items()
    )
    headers = (what, *(heading(k) for k in keys))
    return Table(title, headers, rows, keys=tuple((None, *keys) for _ in rows))


def hand_type_tables(view: StatsView) -> tuple[Table, ...]:
    """Decisions, mistakes and accuracy by kind of hand, by Bonus card and by total."""
    cells = view.cells
    return (
        _tally_table("By kind of hand", "hand", cells, kind, str),
        _tally_table("By Bonus card", "Bonus card", cells, bonus, value_label),
        _tally_table("By total", "total", cells, row, cell_name),
    )


def sessions_table(view: StatsView) -> Table:
    """Each session, oldest first: its drill, decisions, accuracy, best streak and cost."""
    rows = tuple(
        (
            str(n),
            s.drill.value,
            str(s.seed),
            f"{s.total.decisions:,}",
            accuracy(s.total),
            f"{s.best_streak:,}",
            decimals(s.total.mistake_cost),
        )
        for n, s in enumerate(view.sessions, start=1)
    )
    keys = ("practice_decisions", "practice_accuracy", "practice_best_streak",
            "practice_mistake_cost")  # fmt: skip
    return Table(
        "Each session",
        ("session", "drill", "seed", *(heading(k) for k in keys)),
        rows,
        keys=tuple((None, None, None, *keys) for _ in rows),
    )


def stats_tables(view: StatsView) -> tuple[Table, ...]:
    """The headline figures, each hand type, and (for a history) each session."""
    sessions = (sessions_table(view),) if view.sessions else ()
    return (summary_table(view), *hand_type_tables(view), *sessions)
