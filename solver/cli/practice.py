"""``cbj practice``: a practice session at the terminal, the statistics kept across sessions.

The session is the library's (:func:`solver.practice_start`, :func:`solver.practice_play`),
so each decision is graded, and each mistake costed, exactly as the workbench's Practice
page grades and costs it; the words are the page's too (:mod:`solver.present.practice_text`).
It reads one line per decision from standard input (``h`` hit, ``s`` stand, Enter the
next round, ``q`` quit; end of input quits too), so it plays in a terminal and from a
script alike.

The player's history (:class:`~solver.results.practice_history.PracticeHistory`) is kept
in ``practice-history.json`` in the user's data folder, or the file ``--history`` names,
said as the session starts; it is written (atomically) after each decision, and never
with ``--no-history``.  The ``mistakes`` drill deals the cells the history says are due.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from solver.api import functions as api
from solver.api.table import Command
from solver.model.cells import Actions
from solver.model.errors import PracticeError
from solver.present import files
from solver.present.formats import Format
from solver.present.practice_stats import of_history, of_session, summary_table
from solver.present.practice_text import (
    KEYS,
    chart_row,
    grade_lines,
    hand_lines,
    score_line,
    settlement_line,
)
from solver.present.tables import Table, render_tables
from solver.results.practice_history import PracticeHistory, read_history
from solver.results.practice_state import PracticeTurn

#: The history file's name in the user's data folder.
HISTORY_NAME = "practice-history.json"
#: What each answer means: with a hand in play, and between rounds.
DECIDING = {"h": "hit", "hit": "hit", "s": "stand", "stand": "stand"}
BETWEEN = {"": "deal", "n": "deal", "next": "deal", "d": "deal", "deal": "deal"}
QUIT = ("q", "quit", "exit")


def default_history() -> Path:
    """``practice-history.json`` in the user's data folder, as platformdirs finds it
    (``$XDG_DATA_HOME/community-blackjack``, by default ``~/.local/share/community-blackjack``,
    on Linux)."""
    import platformdirs  # only where no file is named

    from solver.store.disk import APP_FOLDER

    return Path(platformdirs.user_data_dir(APP_FOLDER, appauthor=False)) / HISTORY_NAME


def history_file(given: Any, keep_none: bool) -> Path | None:
    """The file the history is kept in (None: none kept), checked before the session."""
    if keep_none:
        if given is not None:
            raise click.UsageError("give --history FILE or --no-history, not both")
        return None
    path = default_history() if given is None else Path(os.fsdecode(given))
    if given is None:
        path.parent.mkdir(parents=True, exist_ok=True)
    files.check_writable(path)
    return path


def read_file(path: Path | None) -> PracticeHistory | None:
    """The history kept in ``path`` (a new one where there is no file yet)."""
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return PracticeHistory()
    except (OSError, UnicodeDecodeError) as error:
        raise PracticeError(f"cannot read the practice history {path}: {error}") from None
    try:
        return read_history(json.loads(text))
    except (ValueError, PracticeError) as error:
        raise PracticeError(
            f"{path} is no practice history cbj can read ({str(error)[:80]}): move it away, "
            "or give --history FILE or --no-history"
        ) from None


def ask(prompt: str) -> str | None:
    """One line typed, trimmed and in lower case; None at the end of input."""
    click.echo(prompt, nl=False)
    try:
        line = sys.stdin.readline()
    except OSError:  # no input to read (closed, or taken by a caller): as its end
        line = ""
    if not line:
        click.echo()
        return None
    return line.strip().lower()


def shown(turn: PracticeTurn, history: PracticeHistory | None, chart: Actions) -> list[str]:
    """What a turn shows: the grade (after a mistake, the ``chart``'s row, the cell
    marked), the round played out, the score, the next hand."""
    grade = turn.grade
    row = "" if grade is None else chart_row(grade.cell, grade.bonus.points, chart.action)
    lines = [] if grade is None else grade_lines(grade, row)
    if turn.settled is not None:
        lines.append(settlement_line(turn.settled))
    if turn.grade is not None:
        lines.append(score_line(turn.state.stats, history))
    hand = hand_lines(turn.state)
    return [*lines, *([""] if lines and hand else []), *hand]


def opening(turn: PracticeTurn, path: Path | None) -> list[str]:
    """The session's first lines: what it drills and learns, its seed, where the
    statistics are kept, and the keys."""
    setup = turn.state.setup
    kept = (
        f"Your statistics are kept in {path} (--history FILE keeps them elsewhere, "
        "--no-history keeps none)."
        if path is not None
        else "No statistics are kept (--no-history)."
    )
    return [
        f"Practice: {setup.drill.words}; learning {setup.chart_name}; seed {setup.seed} "
        "(the same seed deals the same session).",
        kept,
        f"Keys: {KEYS}.",
        "",
    ]


def closing(turn: PracticeTurn, history: PracticeHistory | None, path: Path | None) -> str:
    """The session's figures, and every session's where a history is kept."""
    state = turn.state
    tables: list[Table] = [summary_table(of_session(state.stats, len(state.schedule.reviews)))]
    if history is not None and history.sessions:
        tables.append(summary_table(of_history(history)))
    text = render_tables(tables, Format.TABLE)
    kept = path is not None and state.stats.total.decisions > 0  # written after each one
    return text + (f"\n\nKept in {path}." if kept else "")


def practice(command: Command, found: dict[str, Any]) -> None:
    """``cbj practice``: deal, read each decision, grade it, until ``q`` or the end of input."""
    path = history_file(found.pop("history_file", None), found.pop("no_history", False))
    history = read_file(path)
    turn = api.practice_start(history=history, **found)
    if history is not None:
        history = history.started(turn.state.setup)
    cache = found.get("cache")
    setup = turn.state.setup
    chart = setup.chart or api.chart_costs(cache=cache, rules=setup.rules).chart
    click.echo("\n".join([*opening(turn, path), *shown(turn, history, chart)]))
    while True:
        choices = DECIDING if turn.state.hand is not None else BETWEEN
        answer = ask("Hit or stand? " if choices is DECIDING else "Enter: the next round. ")
        if answer is None or answer in QUIT:
            break
        if answer not in choices:
            said = "h to hit or s to stand" if choices is DECIDING else "Enter for the next round"
            click.echo(f"Type {said}; q quits.")
            continue
        turn = api.practice_play(turn.state, choices[answer], cache=cache)
        if history is not None and turn.grade is not None and path is not None:
            history = history.updated(turn.state)
            files.write_atomic(path, json.dumps(history.to_json()) + "\n")
        click.echo("\n".join(["", *shown(turn, history, chart)]))
    click.echo(closing(turn, history, path))
