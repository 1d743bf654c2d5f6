"""A practice session's statistics and its review schedule: plain values, JSON in and out.

:class:`SessionStats` counts a session's decisions: accuracy, the current and best streak of
decisions played as the chart plays them, each cell's decisions and mistakes (a hard or soft
total against a Bonus card, from which every hand type's figures are sums), the EV given
up, and the last decisions for the trend.  :class:`Schedule` is the spaced repetition of
the cells played against the chart: a cell missed comes back within a few decisions, each
right answer moves it further out, and after the last step it is learned.

Both travel in the practice state (:mod:`solver.results.practice_state`) and in the
player's history (:mod:`solver.results.practice_history`), which come back from a browser's
storage or a file: each reader here checks every field and says what is wrong in a
:class:`~solver.model.errors.PracticeError`.

>>> stats = SessionStats().graded(Decided(((False, 16), 10), False, 0.0, 0.0))
>>> stats.streak, stats.total.accuracy
(1, 1.0)
>>> read_session_stats(session_stats_json(stats)) == stats
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, TypeVar

from solver.model.cards import VALUES, value_label
from solver.model.cells import ROWS, Cell, cell_name
from solver.model.checks import whole_in
from solver.model.errors import PracticeError

#: A chart cell and the Bonus card's value: where a decision is made.
Key = tuple[Cell, int]
#: The last decisions kept for the trend ("1" right, "0" a mistake), oldest first.
RECENT = 100
#: The fewest decisions in each half of the trend's window before a trend is stated.
TREND_HALF = 10
#: A review's gaps in decisions: a cell missed is due again after the first; each right
#: answer there moves it to the next gap; right at the last, it is learned and leaves.
GAPS = (3, 8, 20, 50, 120)
#: The most of anything a tally may count (decisions, streaks, the clock).
MAX_COUNT = 10**9
#: The largest EV a tally may sum (in main-wager units, either sign).
MAX_EV = 10.0 * MAX_COUNT
#: Every cell a chart has, by its row name and Bonus card label, and back.
CELLS: tuple[Key, ...] = tuple((cell, b) for cell in ROWS for b in VALUES)
_ROWS = {cell_name(cell): cell for cell in ROWS}
_LABELS = {value_label(v): v for v in VALUES}


class Decided(NamedTuple):
    """One decision as the statistics count it: its cell, whether it was a mistake against
    the chart learned, the EV it gave up against perfect play for the hand, and what the
    mistake costs each time the cell comes up (0 when right)."""

    key: Key
    mistake: bool
    given_up: float
    cost: float


@dataclass(frozen=True, slots=True)
class Tally:
    """Decisions and mistakes at a cell (or summed over several), and what they gave up.

    ``given_up`` sums the EV each decision gave up against perfect play for its hand and
    shoe; ``mistake_cost`` sums what each mistake costs on average each time its cell comes
    up (the chart's figure), both in main-wager units.

    >>> (Tally(4, 1) + Tally(6, 1)).accuracy
    0.8
    """

    decisions: int = 0
    mistakes: int = 0
    given_up: float = 0.0
    mistake_cost: float = 0.0

    @property
    def right(self) -> int:
        """Decisions played as the chart plays them."""
        return self.decisions - self.mistakes

    @property
    def accuracy(self) -> float | None:
        """The share of decisions played as the chart plays them (None before any)."""
        return self.right / self.decisions if self.decisions else None

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.decisions + other.decisions,
            self.mistakes + other.mistakes,
            self.given_up + other.given_up,
            self.mistake_cost + other.mistake_cost,
        )

    def graded(self, decided: Decided) -> Tally:
        """The tally with one more decision."""
        return self + Tally(1, int(decided.mistake), decided.given_up, decided.cost)


T = TypeVar("T", str, int, Cell)


def grouped(cells: Mapping[Key, Tally], part: Callable[[Key], T]) -> dict[T, Tally]:
    """The tallies summed by ``part`` of their cell, in order of the part (hard before
    soft, the Bonus card from ace to ten, the totals as the chart's rows).

    >>> grouped({((False, 9), 4): Tally(2, 1), ((False, 9), 5): Tally(1)}, row)
    {(False, 9): Tally(decisions=3, mistakes=1, given_up=0.0, mistake_cost=0.0)}
    """
    found: dict[T, Tally] = {}
    for key in CELLS:
        if key in cells:
            group = part(key)
            found[group] = found.get(group, Tally()) + cells[key]
    return dict(sorted(found.items()))


def kind(key: Key) -> str:
    """A cell's kind of hand: ``hard`` or ``soft``."""
    return "soft" if key[0][0] else "hard"


def row(key: Key) -> Cell:
    """A cell's row: the hand's total, hard or soft."""
    return key[0]


def bonus(key: Key) -> int:
    """A cell's column: the Bonus card's value."""
    return key[1]


@dataclass(frozen=True, slots=True)
class Trend:
    """Accuracy over the later half of the last decisions against the earlier half."""

    earlier: float
    later: float
    decisions: int
    """Decisions in each half."""

    @property
    def change(self) -> float:
        """Later accuracy less earlier: positive when the player is improving."""
        return self.later - self.earlier


def trend(recent: str) -> Trend | None:
    """The trend of the last decisions (``1`` right, ``0`` a mistake, oldest first): None
    until each half holds :data:`TREND_HALF` decisions.

    >>> trend("0" * 10 + "1" * 10)
    Trend(earlier=0.0, later=1.0, decisions=10)
    """
    half = min(len(recent), RECENT) // 2
    if half < TREND_HALF:
        return None
    window = recent[-2 * half :]
    return Trend(window[:half].count("1") / half, window[half:].count("1") / half, half)


@dataclass(frozen=True, slots=True)
class SessionStats:
    """One session's decisions: by cell, the streaks, and the last ones for the trend."""

    cells: Mapping[Key, Tally] = field(default_factory=dict)
    streak: int = 0
    """Decisions in a row played as the chart plays them, up to the last."""
    best_streak: int = 0
    recent: str = ""
    """The last :data:`RECENT` decisions, ``1`` right and ``0`` a mistake, oldest first."""

    @property
    def total(self) -> Tally:
        """Every decision of the session together."""
        return sum(self.cells.values(), Tally())

    def trend(self) -> Trend | None:
        """Accuracy over the later half of the last decisions against the earlier half."""
        return trend(self.recent)

    def graded(self, decided: Decided) -> SessionStats:
        """The statistics with one more decision."""
        streak = 0 if decided.mistake else self.streak + 1
        return SessionStats(
            {**self.cells, decided.key: self.cells.get(decided.key, Tally()).graded(decided)},
            streak,
            max(self.best_streak, streak),
            (self.recent + ("0" if decided.mistake else "1"))[-RECENT:],
        )


@dataclass(frozen=True, slots=True)
class Review:
    """A cell played against the chart, in the review schedule: its step in :data:`GAPS` and
    the decision (on the schedule's clock) from which it is due."""

    cell: Cell
    bonus: int
    step: int
    due: int

    @property
    def key(self) -> Key:
        """The cell and the Bonus card."""
        return self.cell, self.bonus


@dataclass(frozen=True, slots=True)
class Schedule:
    """The cells to review and when: spaced repetition counted in decisions.

    ``clock`` counts the decisions graded since the schedule began (across sessions).

    >>> missed = Schedule().graded(((False, 16), 10), mistake=True)
    >>> missed.reviews
    (Review(cell=(False, 16), bonus=10, step=0, due=4),)
    >>> missed.graded(((False, 16), 10), mistake=False).reviews[0].due
    10
    """

    clock: int = 0
    reviews: tuple[Review, ...] = ()

    def graded(self, key: Key, mistake: bool) -> Schedule:
        """The schedule after a decision at ``key``: a mistake puts the cell back at the
        first gap; a right answer moves a cell under review one gap further out, or, after
        the last, off the schedule."""
        clock = self.clock + 1
        old = next((r for r in self.reviews if r.key == key), None)
        kept = tuple(r for r in self.reviews if r is not old)
        if mistake:
            return Schedule(clock, (*kept, Review(*key, 0, clock + GAPS[0])))
        if old is None or old.step + 1 == len(GAPS):
            return Schedule(clock, kept)
        step = old.step + 1
        return Schedule(clock, (*kept, replace(old, step=step, due=clock + GAPS[step])))

    def due(self) -> Review | None:
        """The review to deal now: the longest overdue (None when none is due)."""
        ready = [r for r in self.reviews if r.due <= self.clock]
        return min(ready, key=lambda r: (r.due, r.step, CELLS.index(r.key)), default=None)


# --- JSON ---------------------------------------------------------------------------------


def check(condition: bool, what: str) -> None:
    """Raise a :class:`PracticeError` saying ``what`` is malformed unless ``condition``."""
    if not condition:
        raise PracticeError(f"the practice {what} is missing or malformed")


def whole(value: object, what: str, low: int = 0, high: int = MAX_COUNT) -> int:
    """``value`` checked to be a whole number from ``low`` to ``high``."""
    if isinstance(value, bool) or not whole_in(value, low, high):
        raise PracticeError(f"the practice {what} is missing or malformed")
    return int(value)


def real(value: object, what: str, low: float = -MAX_EV) -> float:
    """``value`` checked to be a finite number from ``low`` to :data:`MAX_EV`."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not low <= value <= MAX_EV
    ):
        raise PracticeError(f"the practice {what} is missing or malformed")
    return float(value)


def outcomes(value: object, what: str) -> str:
    """A string of the last decisions, ``0`` and ``1``, checked."""
    check(isinstance(value, str) and re.fullmatch(f"[01]{{0,{RECENT}}}", value) is not None, what)
    return str(value)


def cell_key(name: object, label: object, what: str) -> Key:
    """A cell from its row name (``hard 16``) and Bonus card label (``10``, ``A``), checked."""
    cell = _ROWS.get(name) if isinstance(name, str) else None
    value = _LABELS.get(label) if isinstance(label, str) else None
    if cell is None or value is None:
        raise PracticeError(f"the practice {what} is missing or malformed")
    return cell, value


def tally_json(key: Key, tally: Tally) -> list[Any]:
    """A cell's tally as a short list: row, Bonus card, decisions, mistakes, EVs."""
    row_name, label = cell_name(key[0]), value_label(key[1])
    return [row_name, label, tally.decisions, tally.mistakes, tally.given_up, tally.mistake_cost]


def read_tallies(value: object, what: str) -> dict[Key, Tally]:
    """Cells' tallies written by :func:`tally_json`, each checked, none twice."""
    listed = value if isinstance(value, list) else None
    check(listed is not None and len(listed) <= len(CELLS), what)
    found: dict[Key, Tally] = {}
    for item in listed or ():
        check(isinstance(item, list) and len(item) == 6, what)
        key = cell_key(item[0], item[1], what)
        check(key not in found, what)
        decisions = whole(item[2], what, 1)
        tally = Tally(
            decisions, whole(item[3], what, 0, decisions), real(item[4], what, 0.0),
            real(item[5], what),
        )  # fmt: skip
        found[key] = tally
    return found


def _get(doc: object, name: str) -> Any:
    return doc.get(name) if isinstance(doc, dict) else None


def session_stats_json(stats: SessionStats) -> dict[str, Any]:
    """A session's statistics as plain JSON values."""
    return {
        "cells": [tally_json(key, t) for key in CELLS if (t := stats.cells.get(key)) is not None],
        "streak": stats.streak,
        "best_streak": stats.best_streak,
        "recent": stats.recent,
    }


def read_session_stats(doc: object, what: str = "statistics") -> SessionStats:
    """A session's statistics written by :func:`session_stats_json`, every field checked."""
    check(isinstance(doc, dict), what)
    cells = read_tallies(_get(doc, "cells"), f"{what}' cells")
    decisions = sum(t.decisions for t in cells.values())
    streak = whole(_get(doc, "streak"), f"{what}' streak", 0, decisions)
    best = whole(_get(doc, "best_streak"), f"{what}' best streak", streak, decisions)
    recent = outcomes(_get(doc, "recent"), f"{what}' last decisions")
    check(len(recent) == min(decisions, RECENT), f"{what}' last decisions")
    return SessionStats(cells, streak, best, recent)


def schedule_json(schedule: Schedule) -> dict[str, Any]:
    """The review schedule as plain JSON values: each review as row, Bonus card, step, due."""
    return {
        "clock": schedule.clock,
        "reviews": [
            [cell_name(r.cell), value_label(r.bonus), r.step, r.due] for r in schedule.reviews
        ],
    }


def read_schedule(doc: object) -> Schedule:
    """A review schedule written by :func:`schedule_json`, every field checked."""
    what = "review schedule"
    check(isinstance(doc, dict), what)
    clock = whole(_get(doc, "clock"), what)
    given = _get(doc, "reviews")
    listed = given if isinstance(given, list) else None
    check(listed is not None and len(listed) <= len(CELLS), what)
    reviews = tuple(_review(item, clock) for item in listed or ())
    check(len({r.key for r in reviews}) == len(reviews), what)
    return Schedule(clock, reviews)


def _review(item: object, clock: int) -> Review:
    what = "review schedule"
    if not isinstance(item, list) or len(item) != 4:
        raise PracticeError(f"the practice {what} is missing or malformed")
    cell, value = cell_key(item[0], item[1], what)
    step = whole(item[2], what, 0, len(GAPS) - 1)
    return Review(cell, value, step, whole(item[3], what, 0, clock + GAPS[-1]))


def joined(parts: Iterable[Mapping[Key, Tally]]) -> dict[Key, Tally]:
    """Several sets of tallies added cell by cell."""
    found: dict[Key, Tally] = {}
    for part in parts:
        for key, tally in part.items():
            found[key] = found.get(key, Tally()) + tally
    return found
