"""A player's practice history across sessions: one plain value, versioned JSON in and out.

The history keeps each finished session's summary (accuracy, best streak, EV given up), every
cell's decisions and mistakes over all of them, the streak carried from one session to the
next, the last decisions for the trend, the review schedule, and the session in progress.
The browser keeps it in its own storage and the terminal in a file in the user's data
folder; the server keeps nothing.  It changes by two pure steps: :meth:`PracticeHistory.started`
when a session starts, and :meth:`PracticeHistory.updated` with each turn's state (as often
as one likes: the session in progress is replaced, never added twice).

:func:`read_history` reads it back as untrusted input, every field checked.

>>> from solver.model.rules import Rules
>>> from solver.results.practice import PracticeSetup
>>> history = PracticeHistory().started(PracticeSetup(Rules(), seed=5))
>>> read_history(history.to_json()) == history
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from solver.model.checks import MAX_SEED
from solver.model.errors import PracticeError
from solver.results.practice import Drill, PracticeSetup, PracticeState
from solver.results.practice_stats import (
    RECENT,
    Key,
    Schedule,
    SessionStats,
    Tally,
    Trend,
    check,
    joined,
    outcomes,
    read_schedule,
    read_session_stats,
    read_tallies,
    real,
    schedule_json,
    session_stats_json,
    tally_json,
    trend,
    whole,
)

#: The history's format: a history of another version is refused with a clear message.
HISTORY_VERSION = 1
#: What the JSON calls itself, so that no other file is read as a history by mistake.
HISTORY_KIND = "cbj practice history"
#: Finished sessions kept (the oldest leave first; their cells stay counted).
MAX_SESSIONS = 200
#: The longest chart name kept.
MAX_NAME = 80
DRILLS = frozenset(d.value for d in Drill)


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """One session: its seed, drill and chart, and its figures."""

    seed: int
    drill: Drill
    chart: str
    total: Tally
    best_streak: int

    def to_json(self) -> dict[str, Any]:
        """The session as a JSON record."""
        total = self.total
        return {
            "seed": self.seed,
            "drill": self.drill.value,
            "chart": self.chart,
            "decisions": total.decisions,
            "mistakes": total.mistakes,
            "given_up": total.given_up,
            "mistake_cost": total.mistake_cost,
            "best_streak": self.best_streak,
        }


@dataclass(frozen=True, slots=True)
class Ongoing:
    """The session in progress: its settings and its statistics so far."""

    seed: int
    drill: Drill
    chart: str
    stats: SessionStats = field(default_factory=SessionStats)

    def summary(self) -> SessionSummary:
        """The session as it stands, summed up."""
        return SessionSummary(
            self.seed, self.drill, self.chart, self.stats.total, self.stats.best_streak
        )


@dataclass(frozen=True, slots=True)
class PracticeHistory:
    """Every session a player has practised, and what to review next.

    ``sessions``, ``cells``, ``carried``, ``best_streak`` and ``recent`` hold the finished
    sessions (``carried`` is the streak the last of them ended on); ``ongoing`` is the
    session in progress; the figures (:attr:`total`, :attr:`streak`, :meth:`trend`, ...)
    take both together.
    """

    sessions: tuple[SessionSummary, ...] = ()
    cells: dict[Key, Tally] = field(default_factory=dict)
    carried: int = 0
    best_streak: int = 0
    recent: str = ""
    ongoing: Ongoing | None = None
    schedule: Schedule = field(default_factory=Schedule)

    # --- The figures ----------------------------------------------------------------------

    def all_cells(self) -> dict[Key, Tally]:
        """Every decision of every session, the one in progress included, by cell."""
        now = self.ongoing.stats.cells if self.ongoing else {}
        return joined((self.cells, now))

    @property
    def total(self) -> Tally:
        """Every decision of every session together."""
        return sum(self.all_cells().values(), Tally())

    @property
    def streak(self) -> int:
        """Decisions in a row played as the chart plays them, across sessions, up to now."""
        if self.ongoing is None:
            return self.carried
        stats = self.ongoing.stats
        return stats.streak if stats.total.mistakes else self.carried + stats.streak

    @property
    def best(self) -> int:
        """The longest streak of all (across sessions)."""
        inside = self.ongoing.stats.best_streak if self.ongoing else 0
        return max(self.best_streak, inside, self.streak)

    def last_decisions(self) -> str:
        """The last decisions of all sessions (``1`` right, ``0`` a mistake), oldest first."""
        now = self.ongoing.stats.recent if self.ongoing else ""
        return (self.recent + now)[-RECENT:]

    def trend(self) -> Trend | None:
        """Accuracy over the later half of the last decisions against the earlier half."""
        return trend(self.last_decisions())

    def summaries(self) -> tuple[SessionSummary, ...]:
        """Each session, oldest first, the one in progress last."""
        ongoing = () if self.ongoing is None else (self.ongoing.summary(),)
        return (*self.sessions, *ongoing)

    # --- The two steps --------------------------------------------------------------------

    def started(self, setup: PracticeSetup) -> PracticeHistory:
        """The history as a new session starts: the one in progress (if it made any
        decision) joins the finished ones."""
        finished = self._finished()
        return replace(finished, ongoing=Ongoing(setup.seed, setup.drill, _name(setup)))

    def updated(self, state: PracticeState) -> PracticeHistory:
        """The history with the session in progress as ``state`` has it.

        A state of another session (another seed, drill or chart, or fewer decisions than
        the session in progress has made: the same seed started again) starts it first;
        a client that knows a session is new says so with :meth:`started`.
        """
        setup = state.setup
        ongoing = self.ongoing
        named = (setup.seed, setup.drill, _name(setup))
        if (
            ongoing is None
            or (ongoing.seed, ongoing.drill, ongoing.chart) != named
            or state.stats.total.decisions < ongoing.stats.total.decisions
        ):
            return self.started(setup).updated(state)
        return replace(self, ongoing=replace(ongoing, stats=state.stats), schedule=state.schedule)

    def _finished(self) -> PracticeHistory:
        ongoing = self.ongoing
        if ongoing is None or not ongoing.stats.total.decisions:
            return replace(self, ongoing=None)
        return PracticeHistory(
            (*self.sessions, ongoing.summary())[-MAX_SESSIONS:],
            self.all_cells(),
            self.streak,
            self.best,
            self.last_decisions(),
            None,
            self.schedule,
        )

    # --- JSON -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The history as the JSON a browser stores and a file holds."""
        ongoing = self.ongoing
        return {
            "kind": HISTORY_KIND,
            "version": HISTORY_VERSION,
            "sessions": [s.to_json() for s in self.sessions],
            "cells": [tally_json(key, tally) for key, tally in self.cells.items()],
            "carried": self.carried,
            "best_streak": self.best_streak,
            "recent": self.recent,
            "ongoing": None
            if ongoing is None
            else {
                "seed": ongoing.seed,
                "drill": ongoing.drill.value,
                "chart": ongoing.chart,
                "stats": session_stats_json(ongoing.stats),
            },
            "schedule": schedule_json(self.schedule),
        }


def _name(setup: PracticeSetup) -> str:
    return setup.chart_name[:MAX_NAME]


def _drill(value: object, what: str) -> Drill:
    if isinstance(value, str) and value in DRILLS:
        return Drill(value)
    raise PracticeError(f"the practice {what} names an unknown drill")


def _chart(value: object, what: str) -> str:
    check(isinstance(value, str) and len(value) <= MAX_NAME and value.isprintable(), what)
    return str(value)


def _seed(value: object, what: str) -> int:
    return whole(value, what, 0, MAX_SEED)


def _summary(doc: object) -> SessionSummary:
    what = "history's sessions"
    if not isinstance(doc, dict):
        raise PracticeError(f"the practice {what} is missing or malformed")
    decisions = whole(doc.get("decisions"), what)
    total = Tally(
        decisions,
        whole(doc.get("mistakes"), what, 0, decisions),
        real(doc.get("given_up"), what, 0.0),
        real(doc.get("mistake_cost"), what),
    )
    return SessionSummary(
        _seed(doc.get("seed"), what),
        _drill(doc.get("drill"), what),
        _chart(doc.get("chart"), what),
        total,
        whole(doc.get("best_streak"), what, 0, decisions),
    )


def _ongoing(doc: object) -> Ongoing | None:
    if doc is None:
        return None
    what = "history's session in progress"
    if not isinstance(doc, dict):
        raise PracticeError(f"the practice {what} is missing or malformed")
    return Ongoing(
        _seed(doc.get("seed"), what),
        _drill(doc.get("drill"), what),
        _chart(doc.get("chart"), what),
        read_session_stats(doc.get("stats"), "history's session in progress"),
    )


def read_history(doc: object) -> PracticeHistory:
    """The history in ``doc`` (as :meth:`PracticeHistory.to_json` writes it), every field
    checked: a :class:`PracticeError` names the first that is not right."""
    if not isinstance(doc, dict) or doc.get("kind") != HISTORY_KIND:
        raise PracticeError("not a practice history (a file cbj practice keeps)")
    if doc.get("version") != HISTORY_VERSION:
        raise PracticeError(
            f"a practice history of version {str(doc.get('version'))[:12]}: this version of cbj "
            f"reads version {HISTORY_VERSION}"
        )
    given = doc.get("sessions")
    listed = given if isinstance(given, list) else None
    check(listed is not None and len(listed) <= MAX_SESSIONS, "history's sessions")
    sessions = tuple(_summary(item) for item in listed or ())
    cells = read_tallies(doc.get("cells"), "history's cells")
    decisions = sum(t.decisions for t in cells.values())
    carried = whole(doc.get("carried"), "history's streak", 0, decisions)
    best = whole(doc.get("best_streak"), "history's best streak", carried, decisions)
    recent = outcomes(doc.get("recent"), "history's last decisions")
    check(len(recent) == min(decisions, RECENT), "history's last decisions")
    return PracticeHistory(
        sessions,
        cells,
        carried,
        best,
        recent,
        _ongoing(doc.get("ongoing")),
        read_schedule(doc.get("schedule")),
    )
