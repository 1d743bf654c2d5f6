"""The output formats commands print or write, and how a rule reads in a table cell.

Kept apart from the renderers so that ``cbj`` can offer its choices without loading them.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.model.rules import Rules


class Format(StrEnum):
    """Output formats a command can print."""

    TABLE = "table"
    CSV = "csv"
    JSON = "json"
    MD = "md"


class ChartFormat(StrEnum):
    """Formats ``cbj chart`` writes."""

    CSV = "csv"
    JSON = "json"
    MD = "md"
    HTML = "html"
    PDF = "pdf"
    SVG = "svg"
    PNG = "png"


TEXT_FORMATS = (ChartFormat.CSV, ChartFormat.JSON, ChartFormat.MD, ChartFormat.HTML)


def rule_cell(value: Any) -> str:
    """A rule's JSON value as a table cell: a paytable as ``S:R:A`` (named tiers as
    ``tier=pay`` items), booleans as yes/no.

    >>> rule_cell({"suited_match": "15", "rank_match": "4", "adjacent": "1"}), rule_cell(True)
    ('15:4:1', 'yes')
    >>> rule_cell({"suited_adjacent": "2", "adjacent": "1"})
    'suited-adjacent=2,adjacent=1'
    """
    if isinstance(value, dict):
        if list(value) == ["suited_match", "rank_match", "adjacent"]:
            return ":".join(str(v) for v in value.values())
        return ",".join(f"{k.replace('_', '-')}={v}" for k, v in value.items())
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def figure_cells(
    headers: tuple[str, ...],
    rows: tuple[tuple[str, ...], ...],
    keys: tuple[tuple[str | None, ...], ...],
) -> list[tuple[str, str, str, str]]:
    """Every cell a table marks with a figure's key: (key, its row's first cell, its column's
    header, its text); none when the table marks no cell.

    >>> figure_cells(("wager", "EV"), (("main", "+0.05"),), ((None, "main_ev"),))
    [('main_ev', 'main', 'EV', '+0.05')]
    """
    if not keys:
        return []
    return [
        (key, row[0], headers[i], row[i])
        for row, marks in zip(rows, keys, strict=True)
        for i, key in enumerate(marks)
        if key is not None
    ]


def download_name(rules: Rules, kind: str, fmt: str) -> str:
    """A file's name that says which game it is for (decks and Bonus pays), what it is and
    its format, so that a downloaded copy is not one more ``report.html``.

    >>> from solver.model.paytable import Paytable
    >>> from solver.model.rules import Rules
    >>> download_name(Rules(), "report", "pdf")
    'cbj-6d-15-4-1-report.pdf'
    >>> download_name(Rules(decks=2, paytable=Paytable.parse("7.5:4:1")), "chart", "csv")
    'cbj-2d-7.5-4-1-chart.csv'
    """
    from solver.model.checks import plain_number

    pays = "-".join(plain_number(p) for p in rules.paytable.pays)
    return re.sub(r"[^0-9A-Za-z.-]", "_", f"cbj-{rules.decks}d-{pays}-{kind}.{fmt}")
