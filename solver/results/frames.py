"""Results as tables: pandas DataFrames (``to_frame``), HTML for Jupyter (``_repr_html_``)
and a short summary for a REPL (``repr``).

A result's tables are the tables of its JSON document (``to_json()``, which is what the CLI
prints with ``--format json``), so a frame never says anything the JSON does not: one row
per record, one column per field, a nested field named by its path (``outcomes.bust``).
Each number of the JSON becomes a float column under its own name and, where the JSON
gives it exactly, an object column ``NAME.exact`` of :class:`~fractions.Fraction` beside
it; a float the JSON writes as ``null`` (not finite) is NaN.  :data:`TABLES` names each
result type's tables: the first is the one ``to_frame()`` returns.

One index convention for every frame: **the index is the field, or the fields, that tell
its rows apart** (``frame.index.names`` says which): a card, a hand, an outcome, a count's
name, a number of rounds, a net result; a starting pair is ``(player, bonus)``, a chart's
exception ``(bonus, hand)``, a rule variant the rules it changes.  ``reset_index()`` turns
them back into columns.  A column of cards (``player``, ``bonus``, a count's ``rank``) is
an ordered categorical in card order (the ace first, the ten after the nine), so sorting
and plotting follow the cards, not their text.

pandas is optional (``pip install pandas``; from the project folder ``pip install
'.[frames]'``): only
:func:`frame` imports it, when a frame is asked for, so that the results layer still loads
the standard library and the model alone.  The HTML needs nothing outside the standard
library.

A result's ``repr`` is a summary of a few lines, as scipy's ``OptimizeResult`` prints: its
kind, its rules in one line, its headline figures (:data:`HEADLINES`, labelled from the
figure catalogue) and its tables with their sizes; ``to_json()`` and ``to_frame()`` hold
the rest.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from solver.model.cards import VALUES, value_label
from solver.model.counts import LABELS
from solver.model.errors import CbjError
from solver.results.figures import FIGURES_BY_KEY, heading

if TYPE_CHECKING:
    from pandas import DataFrame


@dataclass(frozen=True, slots=True)
class Records:
    """A list of records at ``path`` in the document: one row each."""

    path: str
    index: str | tuple[str, ...]
    """The field, or fields, that tell the rows apart (the frame's index).  ``PREFIX.*``
    stands for the fields under ``PREFIX`` whose values differ between rows or from the
    document's own value at ``PREFIX`` (the rules a variant changes)."""

    def keys(self) -> tuple[str, ...]:
        """The index's fields as written (``PREFIX.*`` not yet expanded)."""
        return (self.index,) if isinstance(self.index, str) else self.index


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
        "rows": Records(
            "rows",
            index=(
                "attack",
                "player",
                "shuffle.kind",
                "shuffle.penetration",
                "shuffle.buffer",
                "bonus_capped",
            ),
        ),
    },
    "BetResult": {"ramp": Records("ramp", index="true_count")},
    "BonusAnalysis": {"outcomes": Records("outcomes", index="outcome")},
    "BonusResult": {"outcomes": Records("outcomes", index="outcome")},
    "Chart": {
        "rows": Records("rows", index="hand"),
        "exceptions": Records("exceptions", index=("bonus", "hand")),
    },
    "ChartCheck": {"differences": Records("differences", index=("hand", "bonus"))},
    "ChartCosts": {"rows": Records("rows", index="hand")},
    "Counts": {"systems": Records("systems", index="name")},
    "DealerResult": {"tables": Records("tables", index="bonus")},
    "DecisionGraph": {
        "nodes": Records("nodes", index="hand"),
        "edges": Records("edges", index=("from", "card")),
    },
    "EffectsOfRemoval": {
        "effects": Labelled(("main", "main_chart", "bonus", "round"), index="rank")
    },
    "HoldCheck": {"bands": Records("bands", index="level")},
    "HoldSeries": {"periods": Records("periods", index="date")},
    "IndicesResult": {"indices": Records("indices", index="decision")},
    "GameResult": {
        "by_start": Records("by_start", index=("player", "bonus")),
        "by_bonus_card": Labelled(("by_bonus_card",), "bonus", names=("expected_value",)),
        "return_table": Records("round.return_table", index="net"),
        "sessions": Records("volatility.sessions", index="rounds"),
    },
    "PaySolution": {"candidates": Records("candidates", index="paytable")},
    "SearchResult": {"paytables": Records("paytables", index="paytable")},
    "SessionResult": {
        "distribution": Records("distribution", index="net"),
        "round": Records("round", index="net"),
        "quantiles": Records("quantiles", index="level"),
    },
    "ShoeStates": {"depths": Records("depths", index="depth")},
    "SimulationResult": {
        "wagers": Named(("main", "bonus", "round"), index="wager"),
        "by_true_count": Records("counter.by_true_count", index="true_count"),
    },
    "StrategiesResult": {
        "strategies": Records("strategies", index="name"),
        "bonus_ratios": Records("bonus_ratios", index="ratio"),
        "sessions": Records("volatility.sessions", index="rounds"),
    },
    "SweepResult": {"points": Records("points", index="value")},
    "TableOfPlayers": {"rows": Records("rows", index="seats")},
    "Variants": {"variants": Records("variants", index="rules.*")},
}

#: Rows of a table shown by ``_repr_html_``; ``to_frame`` has them all.
HTML_ROWS = 12

#: Each result type's headline figures, as its ``repr`` shows them: ``(name, JSON path)``,
#: the name a key of the figure catalogue (its label and its format are the catalogue's) or
#: else the words to show.  A path the document lacks (a game without a Bonus wager) is
#: left out.
HEADLINES: dict[str, tuple[tuple[str, str], ...]] = {
    "Advice": (
        ("hand", "hand"),
        ("Bonus card", "bonus"),
        ("stand", "stand"),
        ("hit", "hit"),
        ("decision", "decision"),
    ),
    "AttackResult": (
        ("samples", "samples"),
        ("cannot be beaten", "verdict.cannot_be_beaten"),
        ("tracker correlation", "bonus_ev.tracker_correlation"),
    ),
    "BetResult": (
        ("count", "count.name"),
        ("ramp", "ramp_text"),
        ("win per 100 rounds", "win_per_100_rounds"),
        ("n0", "n0"),
    ),
    "BonusAnalysis": (
        ("bonus_ev", "expected_value"),
        ("bonus_house_edge", "house_edge"),
        ("bonus_hit_frequency", "hit_frequency"),
    ),
    "BonusResult": (
        ("bonus_ev", "expected_value"),
        ("bonus_house_edge", "house_edge"),
        ("bonus_hit_frequency", "hit_frequency"),
    ),
    "Chart": (("chart_ev", "expected_value"), ("chart_cost", "cost")),
    "ChartCheck": (
        ("chart", "chart"),
        ("chart_ev", "expected_value"),
        ("chart_cost", "cost_against_optimal"),
    ),
    "ChartCosts": (("chart_ev", "expected_value"),),
    "Counts": (("cards", "cards"),),
    "DealerResult": (),
    "DecisionGraph": (("Bonus card", "bonus"),),
    "EffectsOfRemoval": (("cards", "cards"), ("main_ev", "base.main"), ("round_ev", "base.round")),
    "GameResult": (
        ("main_ev", "main.expected_value"),
        ("main_house_edge", "main.house_edge"),
        ("bonus_house_edge", "bonus.house_edge"),
        ("round_house_edge", "round.house_edge"),
        ("round_sd", "round.round_sd"),
    ),
    "HoldCheck": (
        ("rounds", "rounds"),
        ("win over handle observed", "observed.win_over_handle"),
        ("win over handle expected", "expected.win_over_handle"),
        ("hold observed", "observed.hold"),
        ("hold expected", "expected.hold"),
        ("p", "p_value"),
        ("verdict", "verdict"),
    ),
    "HoldSeries": (
        ("flagged", "flagged"),
        ("flagged after correction", "flagged_after_correction"),
        ("verdict", "verdict"),
    ),
    "IndicesResult": (("count", "count.name"), ("playing efficiency", "playing_efficiency")),
    "PaySolution": (("solve for", "solve_for"), ("pay_solution", "pay")),
    "PracticeTurn": (
        ("drill", "drill"),
        ("seed", "seed"),
        ("hand", "hand.cards"),
        ("Bonus card", "hand.bonus"),
        ("decisions", "score.decisions"),
        ("mistakes", "score.mistakes"),
    ),
    "RulesResult": (("preset", "preset.preset"),),
    "SearchResult": (("paytables in the band", "matches"),),
    "SessionResult": (
        ("rounds", "rounds"),
        ("session_mean", "mean"),
        ("session_sd", "sd"),
        ("ruin_within", "ruin.within_rounds"),
    ),
    "ShoeStates": (("samples", "samples"), ("seed", "seed"), ("count", "count.name")),
    "SimulationResult": (
        ("rounds", "rounds"),
        ("seed", "seed"),
        ("main wager mean", "main.mean"),
        ("round mean", "round.mean"),
    ),
    "StrategiesResult": (),
    "SweepResult": (("vary", "vary"), ("value in force", "in_force")),
    "TableOfPlayers": (("rounds", "rounds"), ("seed", "seed")),
    "Variants": (),
}


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


#: The columns that hold cards, each with its cards in order: blackjack values (a ten for
#: every ten-value card) and the count's ranks (``T`` for the ten).
CARD_COLUMNS: dict[str, tuple[str, ...]] = {
    "player": tuple(value_label(v) for v in VALUES),
    "bonus": tuple(value_label(v) for v in VALUES),
    "rank": LABELS,
}


def index_fields(
    document: Mapping[str, Any], table: Table, found: list[dict[str, Any]]
) -> list[str]:
    """The fields that make a table's index (``PREFIX.*`` expanded over the rows ``found``).

    >>> found = [{"rules.decks": 1, "rules.dealer": 17}, {"rules.decks": 2, "rules.dealer": 17}]
    >>> index_fields({"rules": {"decks": 6, "dealer": 17}}, Records("v", "rules.*"), found)
    ['rules.decks']
    """
    keys = table.keys() if isinstance(table, Records) else (table.index,)
    fields: list[str] = []
    for key in keys:
        if not key.endswith(".*"):
            fields.append(key)
            continue
        prefix = key.removesuffix("*")
        own = flatten(at(document, prefix.removesuffix(".")) or {}, prefix)
        under = [c for c in columns(found) if c.startswith(prefix) and not c.endswith(".exact")]
        changed = [
            c for c in under if len({repr(r.get(c)) for r in found} | {repr(own.get(c))}) > 1
        ]
        fields.extend(changed or under)
    return fields


def frame(document: Mapping[str, Any], table: Table) -> DataFrame:
    """One table of a result's JSON document as a pandas DataFrame (see the module's words)."""
    # pandas is an optional extra, imported only here: the results layer loads the standard
    # library alone (tests/test_layers.py), and every other use of a result goes without it.
    try:
        import pandas
    except ImportError as error:  # the extra is not installed
        raise ImportError(
            "to_frame() needs pandas: pip install pandas (from the project folder: "
            "pip install '.[frames]')"
        ) from error
    found = rows(document, table)
    fields = index_fields(document, table, found)
    if not found:  # no rows: an empty frame, its index named all the same
        empty = pandas.MultiIndex.from_arrays([[] for _ in fields], names=fields)
        return pandas.DataFrame(index=empty if len(fields) > 1 else empty.get_level_values(0))
    result = pandas.DataFrame.from_records(found, columns=columns(found))
    for name, cards in CARD_COLUMNS.items():
        if name in result.columns and set(result[name]) <= set(cards):
            result[name] = pandas.Categorical(result[name], categories=cards, ordered=True)
    return result.set_index(fields)


class Documented(Protocol):
    """A result: anything with the JSON document the CLI prints."""

    def to_json(self) -> dict[str, Any]: ...


def _tables(result: object) -> dict[str, Table]:
    return TABLES.get(type(result).__name__, {})


class Shown:
    """Jupyter shows the result as HTML: its rules, its figures and the start of its tables;
    a REPL shows a summary of a few lines.

    (Each subclass is a ``dataclass(repr=False)``, so that the summary is its ``repr``.)
    """

    __slots__ = ()

    def __repr__(self: Documented) -> str:
        """The result in a few lines: its kind, its rules, its headline figures, its tables."""
        return summary(self, _tables(self))

    def _repr_html_(self: Documented) -> str:
        """The result as an HTML fragment (what a notebook shows for it)."""
        return result_html(self, _tables(self))


class Tabular(Shown):
    """A result whose JSON holds tables: ``to_frame()`` gives each as a pandas DataFrame."""

    __slots__ = ()

    def to_frame(self: Documented, table: str | None = None) -> DataFrame:
        """One of the result's tables (:data:`solver.results.frames.TABLES`; the first by
        default) as a DataFrame: floats, and ``NAME.exact`` columns of Fractions beside them.

        Needs pandas: ``pip install pandas``.
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


# --- The summary ------------------------------------------------------------------------------

#: The rules' line is cut to this many characters in a summary (``result.rules`` has them).
RULES_LINE = 320


def number_text(number: float, percent: bool = False) -> str:
    """A figure's float as a summary prints it: a percentage to four places, a plain number
    to six decimal places (six significant figures where that would hide it).

    >>> number_text(0.0123, percent=True), number_text(0.05384), number_text(2.5e-11)
    ('1.2300%', '0.053840', '2.5e-11')
    """
    if percent:
        return f"{number:.4%}"
    return f"{number:.6f}" if number == 0 or 1e-3 <= abs(number) < 1e9 else f"{number:.6g}"


def headline(name: str, value: Any) -> str:
    """One figure of a summary: its label (the catalogue's, for a figure's key) and its value.

    >>> headline("round_house_edge", {"exact": "45/3647", "float": 0.0123})
    'round house edge: 1.2300%'
    >>> headline("hand", ["9", "7"]), headline("main_ev", {"float": None})
    ('hand: 9 7', 'main wager EV: not finite')
    >>> headline("value in force", {"exact": "6", "float": 6.0})
    'value in force: 6'
    """
    figure = FIGURES_BY_KEY.get(name)
    whole = isinstance(value, Mapping) and str(value.get("exact", "/")).lstrip("-").isdigit()
    if whole and figure is None and len(value["exact"]) <= 15:  # a count or a setting: 6
        value = int(value["exact"])
    elif isinstance(value, Mapping) and "float" in value:  # a number, exact or an interval
        value = value["float"]
        if value is None:
            value = "not finite"
    if isinstance(value, float):
        text = number_text(value, figure is not None and figure.percent)
    else:
        text = shown(tuple(value) if isinstance(value, list) else value)
    return f"{heading(name) if figure is not None else name}: {text}"


def summary(result: Documented, tables: Mapping[str, Table]) -> str:
    """A result in a few lines: its kind (exact or float where it says), its rules, its
    headline figures (:data:`HEADLINES`) and each table's size."""
    document = result.to_json()
    kind = type(result).__name__
    exact = document.get("exact")
    lines = [kind if not isinstance(exact, bool) else f"{kind} ({'exact' if exact else 'float'})"]
    rules = getattr(result, "rules", None)
    if rules is not None:
        omit = set(rules.to_json()) - set(document.get("rules") or {})
        said = rules.summary(omit=omit)
        cut = said if len(said) <= RULES_LINE else said[: RULES_LINE - 1] + "\u2026"
        lines.append(f"  rules: {cut}")
    for name, path in HEADLINES.get(kind, ()):
        value = at(document, path)
        if value is not None:
            lines.append(f"  {headline(name, value)}")
    sizes = [f"{name} ({len(rows(document, table))})" for name, table in tables.items()]
    if sizes:
        lines.append(f"  tables: {', '.join(sizes)}; to_frame(name) gives each")
    return "\n".join(lines)


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
