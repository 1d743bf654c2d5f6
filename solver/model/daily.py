"""A pit's daily results as a casino keeps them (``cbj hold --from daily.csv``), read and
checked: one row per period, its date, its table-rounds (or table-hours), the casino's win
and the drop.

The file is CSV with a header naming its columns, in any order: ``date`` (ISO, ``2026-01-31``,
strictly increasing), ``rounds`` or ``hours`` (table-rounds, or table-hours turned into
rounds at a stated number of rounds per hour), ``win`` (the casino's win, negative for a
loss) and ``drop`` (the cash and markers exchanged for chips, above zero; may be left out
when a drop-to-handle ratio is given instead).  Amounts are in money or main units, as the
caller says.  Every fault is one :class:`~solver.model.errors.SessionError` line naming
the row and the column.

>>> rows = parse_daily("date,rounds,win,drop\\n2026-01-01,1200,350,9000\\n")
>>> rows[0].date, rows[0].rounds, rows[0].win, rows[0].drop
('2026-01-01', Fraction(1200, 1), Fraction(350, 1), Fraction(9000, 1))
"""

from __future__ import annotations

import datetime
import itertools
import re
from dataclasses import dataclass
from fractions import Fraction

from solver.model.errors import SessionError

#: The most periods a file may hold (ten years of days).
MAX_PERIODS = 3660
#: The most bytes a daily file may hold (a row is a few dozen bytes).
MAX_DAILY_BYTES = 512 * 1024
#: The most rounds (or hours) one period may count.
MAX_PERIOD_ROUNDS = 10**9
_NUMBER = re.compile(r"[+-]?(?:\d{1,15}(?:\.\d{0,9})?|\.\d{1,9})", re.ASCII)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
COLUMNS = ("date", "rounds", "hours", "win", "drop")


@dataclass(frozen=True, slots=True)
class DailyRow:
    """One period as the file gives it: ``rounds`` (or ``hours``, when the file counts
    table-hours), ``win`` and ``drop`` as written (``drop`` None when left out)."""

    date: str
    rounds: Fraction | None
    hours: Fraction | None
    win: Fraction
    drop: Fraction | None


def _number(text: str, row: int, column: str) -> Fraction:
    """A number as written in a cell, or one line saying where it is not one."""
    cell = text.strip()
    if not _NUMBER.fullmatch(cell):
        shown = repr(cell[:24]) if cell else "an empty cell"
        raise SessionError(f"daily file, row {row}, column {column}: {shown} is not a number")
    return Fraction(cell)


def _header(fields: list[str] | None) -> dict[str, int]:
    """Each known column's position, checked: a date, rounds or hours, and a win."""
    if not fields:
        raise SessionError(
            "daily file is empty: give a header (date,rounds,win,drop) and one row per period"
        )
    names = [f.strip().lower() for f in fields]
    at: dict[str, int] = {}
    for i, name in enumerate(names):
        if name in COLUMNS:
            if name in at:
                raise SessionError(f"daily file: column {name!r} is named twice")
            at[name] = i
    missing = [c for c in ("date", "win") if c not in at]
    if missing or ("rounds" in at) == ("hours" in at):
        raise SessionError(
            "daily file's header must name date, win and one of rounds or hours (drop as well, "
            f"unless a drop-to-handle ratio is given); it reads {','.join(names)[:60]!r}"
        )
    return at


def _date(text: str, row: int) -> str:
    cell = text.strip()
    try:
        if not _DATE.fullmatch(cell):
            raise ValueError
        datetime.date.fromisoformat(cell)
    except ValueError:
        raise SessionError(
            f"daily file, row {row}, column date: {cell[:24]!r} is not a date like 2026-01-31"
        ) from None
    return cell


def parse_daily(text: str) -> tuple[DailyRow, ...]:
    """Every period of a daily file, checked (see the module's docstring)."""
    import csv  # loaded when read: `cbj --help` reads the catalogue, which names this
    import io

    if len(text) > MAX_DAILY_BYTES:
        raise SessionError(f"daily file is over {MAX_DAILY_BYTES:,} bytes")
    try:
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        at = _header(next(reader, None))
        rows: list[DailyRow] = []
        for line in reader:
            if not any(cell.strip() for cell in line):
                continue
            number = len(rows) + 1
            if len(rows) >= MAX_PERIODS:
                raise SessionError(f"daily file holds more than {MAX_PERIODS:,} periods")
            rows.append(_row(line, at, number))
    except csv.Error as error:
        raise SessionError(f"daily file is not CSV: {error}") from None
    if not rows:
        raise SessionError("daily file has a header but no period")
    for before, after in itertools.pairwise(rows):
        if after.date <= before.date:
            raise SessionError(
                f"daily file: {after.date} follows {before.date}; give the periods in date "
                "order, each date once"
            )
    return tuple(rows)


def _row(line: list[str], at: dict[str, int], number: int) -> DailyRow:
    """One row, each cell checked."""
    if len(line) <= max(at.values()):
        raise SessionError(f"daily file, row {number}: {len(line)} cells, fewer than the header's")
    date = _date(line[at["date"]], number)
    count_column = "rounds" if "rounds" in at else "hours"
    count = _number(line[at[count_column]], number, count_column)
    if not 0 < count <= MAX_PERIOD_ROUNDS or (count_column == "rounds" and count.denominator != 1):
        raise SessionError(
            f"daily file, row {number}, column {count_column}: {float(count):g} must be "
            + ("a whole number of rounds" if count_column == "rounds" else "a number of hours")
            + f" above 0 and at most {MAX_PERIOD_ROUNDS:,}"
        )
    win = _number(line[at["win"]], number, "win")
    drop = None
    if "drop" in at:
        drop = _number(line[at["drop"]], number, "drop")
        if drop <= 0:
            raise SessionError(
                f"daily file, row {number}, column drop: {float(drop):g} must be above 0 (the "
                "cash and markers exchanged for chips)"
            )
    rounds, hours = (count, None) if count_column == "rounds" else (None, count)
    return DailyRow(date, rounds, hours, win, drop)


def checked_text(text: str) -> str:
    """Daily results' text as it was given, once read as ``cbj hold --from`` reads a file."""
    parse_daily(text)
    return text
