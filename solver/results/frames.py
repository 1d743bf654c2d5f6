"""Results as tables: pandas DataFrames (``to_frame``) and HTML for Jupyter (``_repr_html_``).

A result's tables are the tables of its JSON document (``to_json()``, which is what the CLI
prints with ``--format json``), so a frame never says anything the JSON does not: one row
per record, one column per field, a nested field named by its path (``outcomes.bust``).
Each number of the JSON becomes a float column under its own name and, where the JSON
gives it exactly, an object column ``NAME.exact`` of :class:`~fractions.Fraction` beside
it; a float the JSON writes as ``null`` (not finite) is NaN.  :data:`TABLES` names each
result type's tables: the first is the one ``to_frame()`` returns.

pandas is an optional extra (``pip install 'community-blackjack[frames]'``): only
:func:`frame` imports it, when a frame is asked for, so that the results layer still loads
the standard library and the model alone.  The HTML needs nothing outside the standard
library.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from solver.model.errors import CbjError

if TYPE_CHECKING:
    from pandas import DataFrame


@dataclass(frozen=True, slots=True)
class Records:
    """A list of records at ``path`` in the document: one row each."""

    path: str
    index: str | None = None
    """The field that labels the rows (the frame's index), if one does."""


@dataclass(frozen=True, slots=True)
class Labelled:
    """Mappings from one set of labels to numbers (or records), side by side: a row per label.

    Each path's values become the columns named ``names`` (by default the last part of
    each path), and the labels the column ``index``.
    """

    paths: tuple[str, ...]
    index: str
    names: tuple[str, ...] = ()

    def columns(self) -> tuple[str, ...]:
        """The name of each path's column."""
        return self.names or tuple(path.rpartition(".")[2] for path in self.paths)


@dataclass(frozen=True, slots=True)
class Named:
    """One record at each of ``paths``: a row each, labelled by the path's last part."""

    paths: tuple[str, ...]
    index: str


Table = Records | Labelled | Named

#: Each table-like result type's tables, by name; the first is ``to_frame()``'s default.
TABLES: dict[str, dict[str, Table]] = {
    "AttackResult": {
        "attacks": Records("attacks", index="attack"),
        "rows": Records("rows"),
    },
    "BetResult": {"ramp": Records("ramp", index="true_count")},
    "BonusAnalysis": {"outcomes": Records("outcomes", index="outcome")},
    "BonusResult": {"outcomes": Records("outcomes", index="outcome")},
    "Chart": {"rows": Records("rows", index="hand"), "exceptions": Records("exceptions")},
    "ChartCheck": {"differences": Records("differences")},
    "ChartCosts": {"rows": Records("rows", index="hand")},
    "Counts": {"systems": Records("systems", index="name")},
    "DealerResult": {"tables": Records("tables", index="bonus")},
    "DecisionGraph": {"nodes": Records("nodes"), "edges": Records("edges")},
    "EffectsOfRemoval": {
        "effects": Labelled(("main", "main_chart", "bonus", "round"), index="rank")
    },
    "HoldCheck": {"bands": Records("bands")},
    "HoldSeries": {"periods": Records("periods", index="date")},
    "IndicesResult": {"indices": Records("indices", index="decision")},
    "GameResult": {
        "by_start": Records("by_start"),
        "by_bonus_card": Labelled(("by_bonus_card",), "bonus", names=("expected_value",)),
        "return_table": Records("round.return_table"),
        "sessions": Records("volatility.sessions", index="rounds"),
    },
    "PaySolution": {"candidates": Records("candidates")},
    "SearchResult": {"paytables": Records("paytables")},
    "SessionResult": {
        "distribution": Records("distribution"),
        "round": Records("round"),
        "quantiles": Records("quantiles", index="level"),
    },
    "ShoeStates": {"depths": Records("depths", index="depth")},
    "SimulationResult": {
        "wagers": Named(("main", "bonus", "round"), index="wager"),
        "by_true_count": Records("counter.by_true_count", index="true_count"),
    },
    "StrategiesResult": {
        "strategies": Records("strategies", index="name"),
        "bonus_ratios": Records("bonus_ratios"),
        "sessions": Records("volatility.sessions", index="rounds"),
    },
    "TableOfPlayers": {"rows": Records("rows", index="seats")},
    "Variants": {"variants": Records("variants")},
}

#: Rows of a table shown by ``_repr_html_``; ``to_frame`` has them all.
HTML_ROWS = 12


def at(document: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted ``path`` of a JSON document (``""`` is the document), or None.

    >>> document = {"round": {"return_table": [1, 2]}, "bonus": None}
    >>> at(document, "round.return_table"), at(document, "bonus.outcomes")
    ([1, 2], None)
    """
    value: Any = document
    for part in path.split(".") if path else ():
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def is_number(value: object) -> bool:
    """Whether a JSON value is one of the API's numbers, ``{"exact": "p/q", "float": x}``
    or ``{"float": x}``."""
    return isinstance(value, Mapping) and "float" in value and set(value) <= {"exact", "float"}


def flatten(record: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """A JSON record as one row: nested objects by their dotted path, numbers as floats with
    their exact value beside them as a Fraction.

    >>> flatten({"hand": "9 7", "ev": {"exact": "-1/8", "float": -0.125}, "p": {"float": None}})
    {'hand': '9 7', 'ev': -0.125, 'ev.exact': Fraction(-1, 8), 'p': nan}
    >>> flatten({"outcomes": {"bust": {"float": 0.25}}, "range90": [-1.5, 2.0]})
    {'outcomes.bust': 0.25, 'range90': (-1.5, 2.0)}
    """
    row: dict[str, Any] = {}
    for key, value in record.items():
        name = f"{prefix}{key}"
        if is_number(value):
            row[name] = math.nan if value["float"] is None else float(value["float"])
            if "exact" in value:
                row[f"{name}.exact"] = Fraction(value["exact"])
        elif isinstance(value, Mapping):
            row.update(flatten(value, f"{name}."))
        elif isinstance(value, list):
            row[name] = tuple(value)
        else:
            row[name] = value
    return row


def rows(document: Mapping[str, Any], table: Table) -> list[dict[str, Any]]:
    """The rows of one table of a result's JSON document, each a flat record."""
    if isinstance(table, Records):
        return [flatten(record) for record in at(document, table.path) or ()]
    if isinstance(table, Named):
        return [
            {table.index: path.rpartition(".")[2], **flatten(at(document, path))}
            for path in table.paths
            if at(document, path) is not None
        ]
    mappings = [at(document, path) or {} for path in table.paths]
    labels = list(mappings[0]) if mappings else []
    named = list(zip(table.columns(), mappings, strict=True))
    return [
        {table.index: label, **flatten({name: m.get(label) for name, m in named})}
        for label in labels
    ]


def columns(records: list[dict[str, Any]]) -> list[str]:
    """Every field of the rows, in the order first seen.

    >>> columns([{"a": 1}, {"a": 2, "b": 3}])
    ['a', 'b']
    """
    return list(dict.fromkeys(name for record in records for name in record))


def frame(document: Mapping[str, Any], table: Table) -> DataFrame:
    """One table of a result's JSON document as a pandas DataFrame (see the module's words)."""
    # pandas is an optional extra, imported only here: the results layer loads the standard
    # library alone (tests/test_layers.py), and every other use of a result goes without it.
    try:
        import pandas
    except ImportError as error:  # the extra is not installed
        raise ImportError(
            "to_frame() needs pandas: pip install 'community-blackjack[frames]'"
        ) from error
    found = rows(document, table)
    result = pandas.DataFrame.from_records(found, columns=columns(found))
    index = table.index
    return result.set_index(index) if index is not None and index in result.columns else result


class Documented(Protocol):
    """A result: anything with the JSON document the CLI prints."""

    def to_json(self) -> dict[str, Any]: ...


def _tables(result: object) -> dict[str, Table]:
    return TABLES.get(type(result).__name__, {})


class Shown:
    """Jupyter shows the result as HTML: its rules, its figures and the start of its tables."""

    __slots__ = ()

    def _repr_html_(self: Documented) -> str:
        """The result as an HTML fragment (what a notebook shows for it)."""
        return result_html(self, _tables(self))


class Tabular(Shown):
    """A result whose JSON holds tables: ``to_frame()`` gives each as a pandas DataFrame."""

    __slots__ = ()

    def to_frame(self: Documented, table: str | None = None) -> DataFrame:
        """One of the result's tables (:data:`solver.results.frames.TABLES`; the first by
        default) as a DataFrame: floats, and ``NAME.exact`` columns of Fractions beside them.

        Needs pandas: ``pip install 'community-blackjack[frames]'``.
        """
        tables = _tables(self)
        name = next(iter(tables)) if table is None else table
        if name not in tables:
            raise CbjError(
                f"{type(self).__name__} has no table {name!r}: it has {', '.join(tables)}"
            )
        return frame(self.to_json(), tables[name])

    def to_frames(self: Documented) -> dict[str, DataFrame]:
        """Every table of the result as a DataFrame, by name."""
        document = self.to_json()
        return {name: frame(document, table) for name, table in _tables(self).items()}


# --- HTML ---------------------------------------------------------------------------------------


def shown(value: object) -> str:
    """A cell's value as text: floats to six significant figures, a pair of numbers as a range.

    >>> shown(0.0538401234), shown(math.nan), shown((-1.5, 2.25)), shown(("9", "7")), shown(None)
    ('0.0538401', '', '-1.5 to 2.25', '9 7', '')
    """
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.6g}"
    if isinstance(value, tuple):
        numbers = len(value) == 2 and all(isinstance(v, float) for v in value)
        return (" to " if numbers else " ").join(shown(v) for v in value)
    return "" if value is None else str(value)


def _cell(record: Mapping[str, Any], name: str, tag: str = "td") -> str:
    value = record.get(name)
    exact = record.get(f"{name}.exact")
    title = f' title="exact: {html.escape(str(exact))}"' if exact is not None else ""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    align = ' style="text-align:right"' if number else ""
    return f"<{tag}{title}{align}>{html.escape(shown(value))}</{tag}>"


def table_html(name: str, records: list[dict[str, Any]], limit: int = HTML_ROWS) -> str:
    """A table as HTML: its first ``limit`` rows, exact values in each number's tooltip."""
    names = [c for c in columns(records) if not c.endswith(".exact")]
    head = "".join(f"<th>{html.escape(c)}</th>" for c in names)
    body = "".join("<tr>" + "".join(_cell(r, c) for c in names) + "</tr>" for r in records[:limit])
    more = len(records) - limit
    caption = f"{name}: {len(records)} rows"
    if more > 0:
        caption += f", the first {limit} shown (to_frame({name!r}) has them all)"
    return (
        f"<table><caption>{html.escape(caption)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def figures(
    document: Mapping[str, Any], skip: set[str], prefix: str = ""
) -> Iterator[tuple[str, Any, Any]]:
    """The document's single figures outside its tables and rules: ``(path, value, exact)``."""
    for key, value in document.items():
        path = f"{prefix}{key}"
        if key == "rules" or path in skip:
            continue
        if is_number(value):
            yield path, flatten({"v": value})["v"], value.get("exact")
        elif isinstance(value, Mapping):
            yield from figures(value, skip, f"{path}.")
        elif not isinstance(value, list):
            yield path, value, None
        elif value and not isinstance(value[0], Mapping):
            yield path, tuple(value), None


def label(path: str) -> str:
    """A figure's path in the JSON, in words.

    >>> label("round.house_edge")
    'round \u203a house edge'
    """
    return path.replace(".", " \u203a ").replace("_", " ")


def result_html(result: Documented, tables: Mapping[str, Table]) -> str:
    """A result as an HTML fragment: its type and rules, its figures, then its tables."""
    document = result.to_json()
    skip = {p for t in tables.values() for p in ((t.path,) if isinstance(t, Records) else t.paths)}
    rules = getattr(result, "rules", None)
    head = f"<p><strong>{html.escape(type(result).__name__)}</strong>"
    if rules is not None:  # the rules the JSON names (a paytable search names no paytable)
        omit = set(rules.to_json()) - set(document.get("rules") or {})
        head += f": {html.escape(rules.summary(omit=omit))}"
    parts = [head + "</p>"]
    found = [
        {"figure": label(path), "value": value, "value.exact": exact}
        for path, value, exact in figures(document, skip)
    ]
    if found:
        parts.append(table_html("figures", found, limit=len(found)))
    for name, table in tables.items():
        records = rows(document, table)
        if records:
            parts.append(table_html(name, records))
    return f'<div class="cbj-result">{"".join(parts)}</div>'
