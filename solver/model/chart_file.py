"""A hit/stand chart read from the text of a file, in the CSV or JSON that ``cbj chart`` writes.

The CSV is a header ``hand,A,2,...,10`` and one row per cell (``hard 2`` .. ``hard 21``,
``soft 11`` .. ``soft 21``), each with one letter per Bonus card: ``H`` (hit), ``S``
(stand) or ``-`` (no such hand); lines starting with ``#`` and blank lines are skipped, so
a chart written by ``cbj chart --format csv`` and edited by hand reads back.  The JSON is
``cbj chart --format json``'s document: its ``rows``, each a ``hand`` and its
``actions`` by column, are read and every other key is ignored.

>>> text = "hand,A,2,3,4,5,6,7,8,9,10\\n" + "\\n".join(
...     f"{name},{','.join('S' * 10)}" for name in ROW_NAMES)
>>> parse_chart(text, "mine.csv").action((False, 12), 10).value
'S'
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from solver.model.cards import VALUES
from solver.model.cells import COLUMNS, ROWS, Action, Actions, Cell, cell_name, grid
from solver.model.errors import StrategyError

#: The prefix that names a chart file as a strategy: ``chart:my-chart.csv``.
CHART_PREFIX = "chart:"
#: Every row's name, in chart order.
ROW_NAMES = tuple(cell_name(cell) for cell in ROWS)
_ROW_OF = dict(zip(ROW_NAMES, ROWS, strict=True))
_LETTERS = {a.value: a for a in Action}
_HEADER = ",".join(("hand", *COLUMNS))
#: The longest line a CSV chart may have (a row is about 30 characters, a comment a sentence).
MAX_LINE = 1_000


def chart_path(strategy: str) -> str | None:
    """The file a strategy name ``chart:FILE`` names, or None for any other name.

    >>> chart_path("chart:My Chart.csv"), chart_path("chart"), chart_path("optimal")
    ('My Chart.csv', None, None)
    """
    text = strategy.strip()
    if not text.lower().startswith(CHART_PREFIX):
        return None
    path = text[len(CHART_PREFIX) :].strip()
    if not path:
        raise StrategyError(
            "strategy 'chart:' names no file: write chart:FILE, e.g. chart:mine.csv"
        )
    return path


@dataclass(frozen=True, slots=True)
class ChartGrid:
    """A chart given by its cells: one :class:`Action` per (cell, Bonus card value)."""

    name: str
    """How results name it: ``chart:FILE``."""
    actions: Mapping[tuple[Cell, int], Action]

    def action(self, cell: Cell, bonus: int) -> Action:
        """The chart's action for a cell against a Bonus card value."""
        return self.actions[(cell, bonus)]


def parse_chart(text: str, source: str = "chart") -> ChartGrid:
    """The chart in ``text`` (CSV or JSON, as ``cbj chart`` writes them), named ``chart:source``.

    Raises :class:`StrategyError` naming the file, the line and the bad cell or row.
    """
    body = text.removeprefix("\ufeff")
    rows = _json_rows(body, source) if body.lstrip().startswith("{") else _csv_rows(body, source)
    actions: dict[tuple[Cell, int], Action] = {}
    seen: dict[Cell, str] = {}
    for where, label, letters in rows:
        name = " ".join(str(label).lower().split())
        cell = _ROW_OF.get(name)
        if cell is None:
            raise StrategyError(
                f"chart {source}{where}: {str(label)[:24]!r} is not a row; rows are hard 2 .. "
                "hard 21 and soft 11 .. soft 21"
            )
        if cell in seen:
            raise StrategyError(f"chart {source}{where}: row {name!r} is given twice")
        seen[cell] = where
        for value, column, letter in zip(VALUES, COLUMNS, letters, strict=True):
            action = _LETTERS.get(str(letter).strip().upper())
            if action is None:
                raise StrategyError(
                    f"chart {source}{where}: {name} v {column} is {str(letter)[:12]!r}; "
                    "write H (hit), S (stand) or - (no such hand)"
                )
            actions[(cell, value)] = action
    missing = [cell_name(cell) for cell in ROWS if cell not in seen]
    if missing:
        listed = ", ".join(missing[:4]) + (
            f" and {len(missing) - 4} more" if len(missing) > 4 else ""
        )
        raise StrategyError(
            f"chart {source} is missing row(s) {listed}: every row hard 2 .. 21 and soft 11 .. 21 "
            "is needed"
        )
    return ChartGrid(f"{CHART_PREFIX}{source}", actions)


def chart_csv(chart: Actions) -> str:
    """A chart as the CSV ``cbj chart`` writes, its rows and letters only (no comments):
    what :func:`parse_chart` reads back.

    >>> chart = parse_chart(chart_csv(ChartGrid("x", dict.fromkeys(
    ...     ((cell, v) for cell in ROWS for v in VALUES), Action.STAND))))
    >>> chart.action((True, 17), 6).value
    'S'
    """
    lines = [_HEADER]
    lines += [",".join((name, *letters)) for name, letters in grid(chart)]
    return "\n".join(lines) + "\n"


Rows = Iterator[tuple[str, str, list[str]]]


def _csv_rows(text: str, source: str) -> Rows:
    """(where, row label, letters) of each CSV row after the header, comments skipped."""
    lines = [
        (n, line)
        for n, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not lines:
        raise StrategyError(f"chart {source} has no rows: expected the header {_HEADER}, then rows")
    n, header = lines[0]
    cells = [c.strip() for c in _csv_line(header, source, n)]
    if [c.lower() for c in cells] != [c.lower() for c in ("hand", *COLUMNS)]:
        raise StrategyError(
            f"chart {source} line {n}: the header {header.strip()[:60]!r} is not {_HEADER}"
        )
    for n, line in lines[1:]:
        label, *letters = _csv_line(line, source, n)
        if len(letters) != len(COLUMNS):
            raise StrategyError(
                f"chart {source} line {n}: row {label.strip()[:24]!r} has {len(letters)} "
                f"cell(s); expected {len(COLUMNS)}, one per Bonus card A, 2, ..., 10"
            )
        yield f" line {n}", label, letters


def _csv_line(line: str, source: str, n: int) -> list[str]:
    """The cells of one CSV line (at least one), a line the CSV reader refuses one error."""
    if len(line) > MAX_LINE:
        raise StrategyError(
            f"chart {source} line {n} is {len(line):,} characters long: a chart's lines are "
            f"at most {MAX_LINE}"
        )
    try:
        cells = next(csv.reader([line]), [])
    except csv.Error as error:  # a NUL character, an unclosed quote, a field too large
        raise StrategyError(f"chart {source} line {n} is not CSV: {error}") from None
    return cells or [""]


def _json_rows(text: str, source: str) -> Rows:
    """(where, row label, letters) of each row of a ``cbj chart --format json`` document."""
    try:  # numbers are kept as their text: a 5,000-digit number is not converted
        document: Any = json.loads(text, parse_int=str, parse_float=str, parse_constant=str)
    except json.JSONDecodeError as error:
        raise StrategyError(
            f"chart {source} is not valid JSON: {error.msg} (line {error.lineno})"
        ) from None
    except RecursionError:
        raise StrategyError(
            f"chart {source} is not a chart: its JSON is nested too deeply"
        ) from None
    rows = document.get("rows") if isinstance(document, dict) else None
    if not isinstance(rows, list):
        raise StrategyError(f"chart {source}: a JSON chart needs 'rows', as cbj chart writes it")
    for k, row in enumerate(rows, start=1):
        where = f" row {k}"
        if not isinstance(row, dict) or not isinstance(row.get("hand"), str):
            raise StrategyError(f"chart {source}{where}: each row needs a 'hand' and 'actions'")
        actions = row.get("actions")
        if not isinstance(actions, dict):
            raise StrategyError(f"chart {source}{where}: row {row['hand'][:24]!r} has no 'actions'")
        absent = [c for c in COLUMNS if c not in actions]
        unknown = [str(c) for c in actions if c not in COLUMNS]
        if absent or unknown:
            what = f"no cell for {', '.join(absent)}" if absent else f"a column {unknown[0][:8]!r}"
            raise StrategyError(
                f"chart {source}{where}: row {row['hand'][:24]!r} has {what}; columns are "
                "A, 2, ..., 10"
            )
        yield where, row["hand"], [str(actions[c]) for c in COLUMNS]
