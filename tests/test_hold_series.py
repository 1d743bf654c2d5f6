"""``solver.hold_series`` (``cbj hold --from``): a pit's daily series whose flags are exactly
the rows outside each day's band (from ``solver.hold``), Holm's adjustment against its
definition, table hours and a drop from the ratio; hostile daily files are one line and
exit 2 in bounded memory."""

from __future__ import annotations

import math
import os
import tracemalloc
from fractions import Fraction
from pathlib import Path

import pytest

from solver.api.functions import hold, hold_series
from solver.model.daily import MAX_DAILY_BYTES, parse_daily
from solver.model.errors import SessionError
from solver.present.hold import draw_series, render_series_page, series_tables
from solver.results.hold import FLAG_LEVEL
from solver.store.memory import MemoryCache
from tests.conftest import run_cli


def _daily_file(path: Path, rows: list[tuple[str, int, Fraction, int]]) -> Path:
    path.write_text(
        "date,rounds,win,drop\n"
        + "".join(f"{d},{n},{float(w):.1f},{drop}\n" for d, n, w, drop in rows)
    )
    return path


def test_a_daily_series_flags_exactly_the_rows_outside_the_band(
    tmp_path: Path, games: MemoryCache
) -> None:
    """30 days of 2 seats: three days' wins just outside the 95% band, one just inside its
    edge; the flags are those three and no other, and each day's band is its own."""
    band = {}
    for n in (400, 500):
        check = hold(rounds=n, result=0, seats=2, decks=1, cache=games)
        band[n] = next(b for b in check.bands if b.level == FLAG_LEVEL)
    rows = []
    outside = {"2026-01-04", "2026-01-17", "2026-01-29"}
    for day in range(1, 31):
        date = f"2026-01-{day:02d}"
        n = 400 if day % 2 else 500
        b = band[n]
        win = (b.low_win + b.high_win) / 2
        if date in outside:
            win = b.high_win + 1 if day % 3 else b.low_win - 1
        if day == 9:
            win = b.high_win  # on the edge: inside
        rows.append((date, n, Fraction(round(2 * win), 2), 8 * n))
    series = hold_series(
        daily=_daily_file(tmp_path / "daily.csv", rows), seats=2, decks=1, cache=games
    )
    assert {p.date for p in series.flagged} == outside
    assert len(series.periods) == 30
    for p in series.periods:
        b = next(x for x in p.bands if x.level == FLAG_LEVEL)
        assert p.outside == (not b.low_win <= p.win <= b.high_win)
        assert p.adjusted_p_value >= p.p_value
    assert series.total.rounds == 15 * 400 + 15 * 500
    assert "3 of 30 periods outside the 95% band" in series.verdict
    assert len(series_tables(series)[0].rows) == 30
    assert draw_series(series, "png", 3.6).startswith(b"\x89PNG")  # a phone's width
    assert "<svg" in render_series_page(series)


def test_the_holm_adjustment_against_its_definition() -> None:
    from solver.exact.hold import holm

    p = [0.001, 0.2, 0.011, 0.04, 0.5]
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    for i, adjusted in enumerate(holm(p)):
        rank = order.index(i)
        want = max(min(1.0, (m - r) * p[order[r]]) for r in range(rank + 1))
        assert math.isclose(adjusted, want)


def _hostile(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Each hostile daily file and a word its one line of error says."""
    files: dict[str, tuple[Path, str]] = {}
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    files["empty"] = (empty, "daily file is empty")
    many = tmp_path / "many.csv"
    with many.open("w") as out:
        out.write("date,rounds,win,drop\n")
        for i in range(10**6):
            out.write(f"2026-01-01,1,{i},1\n")
    files["a million rows"] = (many, "over")
    words = tmp_path / "words.csv"
    words.write_text("date,rounds,win,drop\n2026-01-01,100,lots,900\n")
    files["not a number"] = (words, "row 1, column win: 'lots' is not a number")
    negative = tmp_path / "negative.csv"
    negative.write_text("date,rounds,win,drop\n2026-01-01,100,5,-900\n")
    files["negative drop"] = (negative, "column drop: -900 must be above 0")
    backwards = tmp_path / "backwards.csv"
    backwards.write_text("date,rounds,win,drop\n2026-01-02,100,5,900\n2026-01-01,100,5,900\n")
    files["dates out of order"] = (backwards, "2026-01-01 follows 2026-01-02")
    fifo = tmp_path / "fifo.csv"
    os.mkfifo(fifo)
    files["a FIFO"] = (fifo, "is not a regular file")
    huge = tmp_path / "huge.csv"
    with huge.open("wb") as out:
        out.truncate(1 << 30)  # a sparse gigabyte
    files["a gigabyte"] = (huge, f"is over {MAX_DAILY_BYTES:,} bytes")
    return files


def test_hostile_daily_files_are_one_line_and_exit_2_in_bounded_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, (path, message) in _hostile(tmp_path).items():
        tracemalloc.start()
        try:
            status, out, err = run_cli(["hold", "--decks", "1", "--from", str(path)], capsys)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert status == 2 and not out, name
        assert message in err and len(err.strip().splitlines()) == 1, (name, err)
        assert peak < 8 * MAX_DAILY_BYTES, (name, peak)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("date,win,drop\n2026-01-01,5,9\n", "one of rounds or hours"),
        ("date,rounds,win\n2026-01-01,1.5,3\n", "whole number of rounds"),
        ("date,rounds,win,drop\n2026-02-30,10,3,9\n", "is not a date"),
        ("date,rounds,win,drop\n", "no period"),
        ("date,rounds,win,drop\n2026-01-01,10,3\n", "fewer than the header's"),
    ],
)
def test_a_bad_daily_text_is_named(text: str, message: str) -> None:
    with pytest.raises(SessionError, match=message):
        parse_daily(text)


def test_table_hours_become_rounds_and_a_missing_drop_comes_of_the_ratio(
    tmp_path: Path, games: MemoryCache
) -> None:
    path = tmp_path / "hours.csv"
    path.write_text("date,hours,win\n2026-03-01,10,120\n2026-03-02,8,-40\n")
    series = hold_series(
        daily=path, rounds_per_hour=50, drop_to_handle="0.2", unit="5", decks=1, cache=games
    )
    first = series.periods[0]
    assert first.rounds == 500 and first.win == 24
    assert first.drop == Fraction(1, 5) * 500 * Fraction(3, 2)
    with pytest.raises(SessionError, match="no drop"):
        hold_series(daily=path, decks=1, cache=games)
