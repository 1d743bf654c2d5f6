"""The figure catalogue: every figure printed is held to its label, its basis and its value.

Each output (``cbj solve``, ``bonus``, ``strategies`` and ``session``, the workbench's Game
page and the report) marks the cells that show a figure with the figure's catalogue key.
For the default game and one variant (2 decks, paytables A and B: the session's report),
every marked cell must carry the catalogue's label (in its column's header, its row's
label, or its quantity beside the wager it is in), every number must be marked, and the
same figure must print the same value in every output, to the places each prints.
"""

from __future__ import annotations

import io
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, NamedTuple

import pytest

import solver
from solver.model.rules import Rules
from solver.present import workbench
from solver.present.formats import Format
from solver.present.game import bonus_tables, game_tables, volatility_table
from solver.present.glossary import glossary
from solver.present.report.blocks import Grid, Report
from solver.present.session import summary_table
from solver.present.strategies import ratios_table, strategies_table
from solver.present.style import Cell, plain
from solver.present.tables import Table
from solver.results.dimensions import DIMENSIONS_BY_LABEL
from solver.results.figures import (
    FIGURES,
    FIGURES_BY_KEY,
    QUANTITIES,
    Wager,
    heading,
    quantity_heading,
)
from solver.store.memory import MemoryCache
from tests.conftest import run_cli

GLOSSARY = Path(__file__).resolve().parent.parent / "docs" / "glossary.md"
#: The headers of a column of percentiles.
PERCENTILES = DIMENSIONS_BY_LABEL["percentile"].values

# --- The catalogue itself ---------------------------------------------------------------------


def test_keys_and_headings_are_unique_and_plain() -> None:
    keys = [f.key for f in FIGURES]
    assert len(keys) == len(set(keys)) and all(re.fullmatch(r"[a-z0-9_]+", k) for k in keys)
    headings = [heading(k) for k in keys]
    assert len(headings) == len(set(headings))
    assert not any("_" in h for h in headings)
    assert all(f.definition.endswith(".") and f.definition[0].isupper() for f in FIGURES)


def test_a_label_shared_by_two_bases_names_its_basis_in_every_output() -> None:
    by_label: dict[str, set[Any]] = defaultdict(set)
    for f in FIGURES:
        by_label[f.label].add(f.basis)
    shared = {label for label, bases in by_label.items() if len(bases) > 1}
    assert shared  # the round's EV per main unit and per unit wagered, at least
    for f in FIGURES:
        if f.label in shared:
            assert heading(f.key) == f"{f.label} {f.basis.short}"
            assert quantity_heading(f.key).endswith(f.basis.short)
        else:
            assert heading(f.key) == f.label


def test_every_shared_quantity_is_defined_once_for_every_wager() -> None:
    for quantity in QUANTITIES:
        wagers = [f.wager for f in FIGURES if f.quantity == quantity]
        assert len(wagers) > 1 and Wager.NONE not in wagers, quantity


def test_docs_glossary_is_the_one_the_catalogue_writes() -> None:
    assert GLOSSARY.read_text(encoding="utf-8") == glossary(), (
        "docs/glossary.md is stale: run python scripts/glossary_doc.py"
    )
    for f in FIGURES:
        assert f"| `{f.key}` | {heading(f.key)} |" in glossary()


# --- Reading what the outputs print -------------------------------------------------------------


class Shown(NamedTuple):
    """One printed figure: where, its key, the labels beside it, and its text."""

    source: str
    key: str
    row: str
    header: str
    context: str
    text: str
    point: str = ""
    """The point of its dimension where the row is the figure's label (a session's rounds)."""


_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:/\d+)?")


def _clean(text: str) -> str:
    return text.replace("\u2212", "-").replace("\u202f", "").replace("\u2009", "")


def values(text: str) -> list[tuple[float, float]]:
    """The numbers a cell prints, each with half a unit of its last place (its rounding):
    percentages as fractions, "1 in N" as 1/N, exact fractions as they are."""
    cleaned = _clean(text).replace(",", "")
    if cleaned.startswith("1 in "):
        n = float(cleaned.split()[2])
        return [(1 / n, 0.006 / n)]  # N to three significant figures
    scale = 0.01 if "%" in cleaned else 1.0
    bound = re.fullmatch(r"(below|above) ([\d.]+)%?", cleaned)
    if bound:  # a chance said in words beyond the places shown: the interval it leaves
        edge = float(bound.group(2)) * scale
        low, high = (0.0, edge) if bound.group(1) == "below" else (edge, 1.0)
        return [((low + high) / 2, (high - low) / 2)]
    found = []
    for number in _NUMBER.findall(cleaned):
        if "/" in number:
            found.append((float(Fraction(number)), 1e-15))
            continue
        places = len(number.split(".")[1]) if "." in number else 0
        found.append((float(number) * scale, 0.5 * 10.0**-places * scale))
    return found


_WAGER_WORDS = {Wager.MAIN: ("main",), Wager.BONUS: ("bonus",), Wager.ROUND: ("round",)}


def labelled(shown: Shown) -> bool:
    """The cell carries the catalogue's label: in its header or its row's label, or its
    quantity there with its wager in the other place or in the table's own words."""
    figure = FIGURES_BY_KEY[shown.key]
    if shown.header in PERCENTILES and "percentile" in figure.quantity:
        return True  # a column of percentiles of one figure: P5, P95
    places: tuple[str, ...] = (shown.header.lower(), shown.row.lower())
    if FAMILIES.get(shown.key) == "both":  # a grid of one figure: its caption names it
        places += (shown.context.lower(),)
    if any(heading(shown.key).lower() in p or (figure.short or "\0").lower() in p for p in places):
        return True
    words = _WAGER_WORDS.get(figure.wager, ())
    around = " ".join((*places, shown.context.lower()))
    # a grid of wagers names the quantity once; the basis, where another figure shares the
    # label on another basis, is then said in its caption (one basis per table)
    basis = figure.basis.short.lower() if heading(shown.key) != figure.label else ""
    return (
        any(figure.quantity.lower() in p for p in places)
        and all(w in around for w in words)
        and basis in around
    )


#: Keys printed once per row of a dimension (rounds, outcome, Bonus card, ...): the same
#: figure is the same key at the same point of that dimension.
FAMILIES = {
    "session_mean": "row", "session_sd": "row", "session_range90": "row",
    "session_range95": "row", "session_ahead": "row", "main_probability": "row",
    "bonus_probability": "row", "round_probability": "row", "main_return": "row",
    "bonus_return": "row", "round_return": "row", "round_return_per_wagered": "row",
    "bonus_combinations": "row", "main_ev_by_bonus_card": "header", "dealer_result": "both",
    "round_net": "row", "main_combinations": "row", "round_combinations": "row",
    "eor": "both",
}  # fmt: skip
#: Figures not compared across outputs: derived display forms, or figures of studies each
#: output draws afresh (odds restate a probability; the session normal is a comparison).
UNCOMPARED = {"odds", "true_odds", "session_normal", "session_quantile", "eor"}


def _point(text: str) -> str:
    """A dimension's point as one spelling: ``1,000`` and ``1 000`` alike, words lower case."""
    cleaned = _clean(text).replace(",", "").strip().lower()
    return {"lose": "loss"}.get(cleaned, cleaned)


def identity(shown: Shown) -> tuple[str, ...]:
    dimension = FAMILIES.get(shown.key)
    if dimension == "row":
        return (shown.key, _point(shown.point or shown.row))
    if dimension == "header":
        return (shown.key, _point(shown.header))
    if dimension == "both":
        return (shown.key, _point(shown.row), _point(shown.header))
    return (shown.key,)


def from_tables(
    source: str, tables: Iterable[Table], own: tuple[str, ...] = (), point: str = ""
) -> list[Shown]:
    """The figures of CLI tables; ``own`` lists the first cells of the rows that are the
    game asked for (a table of strategies or ratios has others); ``point`` is the point of
    a table of one session (its rounds), whose rows are figures."""
    found = []
    for table in tables:
        context = " ".join((table.title, *table.notes))
        for key, row, header, text in table.figures():
            rows_of_games = table.title.startswith(("Strategies", "The round by Bonus ratio"))
            if rows_of_games and row not in own:
                continue
            found.append(Shown(source, key, row, header, context, text, point))
    return found


#: The report's grids whose rows are other games than the one in force, and the first cell
#: of its own row.
OTHER_GAMES = {
    "Perfect play, the printed chart and realistic play": "perfect play",
    "Paytables compared": "A: ",
    "House edge against the Bonus ratio": "1/2",
    "Rule variants": "rules in force",
}


def from_report(report: Report) -> list[Shown]:
    """The report's figures in its own game (paytable A, perfect play, the ratio in force)."""
    found = []
    for section in report.sections:
        grids = [b for b in section.blocks if isinstance(b, Grid)]
        if section.title == "Bonus wager":
            grids = grids[:1]  # paytable A's
        for grid in grids:
            mine = OTHER_GAMES.get(section.title)
            context = f"{section.title} {grid.caption}"
            for key, row, header, text in grid.figures():
                if mine is not None and not row.startswith(mine):
                    continue
                found.append(Shown("report", key, row, header, context, text))
    return found


class _Tables(HTMLParser):
    """The workbench's tables: caption (the ``p.caption`` standing above each table's box),
    headers, and each row's cells with their figures."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, Any]] = []
        self.cell: list[str] | None = None
        self.key: str | None = None
        self.in_caption = False
        self.caption = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table":
            self.tables.append({"caption": self.caption, "headers": [], "rows": []})
            self.caption = ""
        elif tag == "p" and found.get("class") == "caption":
            self.in_caption = True
        elif tag == "tr" and self.tables:
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th"):
            self.cell, self.key = [], None
        elif tag == "span" and found.get("data-figure") and self.cell is not None:
            self.key = str(found["data-figure"]).replace("-", "_")

    def handle_endtag(self, tag: str) -> None:
        if tag == "p" and self.in_caption:
            self.in_caption = False
        elif tag in ("td", "th") and self.cell is not None and self.tables:
            row = self.tables[-1]["rows"][-1]
            row.append(("".join(self.cell).strip(), self.key))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.in_caption:
            self.caption += data
        elif self.cell is not None:
            self.cell.append(data)


def from_workbench(page: str) -> list[Shown]:
    """The figures of a workbench page's tables (the cells whose span names a figure)."""
    parser = _Tables()
    parser.feed(page)
    found = []
    for table in parser.tables:
        header, *body = table["rows"]
        headers = [text for text, _ in header]
        for row in body:
            for i, (text, key) in enumerate(row):
                if key is not None and key in FIGURES_BY_KEY:
                    found.append(
                        Shown("workbench", key, row[0][0], headers[i], table["caption"], text)
                    )
    return found


def agree(shown: list[Shown]) -> Iterator[str]:
    """Every disagreement between two outputs that print the same figure."""
    by_identity: dict[tuple[str, ...], list[Shown]] = defaultdict(list)
    for s in shown:
        if s.key not in UNCOMPARED:
            by_identity[identity(s)].append(s)
    for figure, printed in by_identity.items():
        sources = {s.source for s in printed}
        if len(sources) < 2:
            continue
        first = printed[0]
        for other in printed[1:]:
            a, b = values(first.text), values(other.text)
            if len(a) != len(b) or any(
                abs(x - y) > dx + dy + 1e-12 for (x, dx), (y, dy) in zip(a, b, strict=True)
            ):
                yield f"{figure}: {first.source} {first.text!r} but {other.source} {other.text!r}"


def unmarked_numbers(table: Table, dimensions: set[str]) -> list[str]:
    """Numbers a table prints outside a marked cell, its dimensions' columns and its first."""
    found = []
    for row, keys in zip(table.rows, table.keys or [()] * len(table.rows), strict=True):
        for i, text in enumerate(row[1:], start=1):
            marked = i < len(keys) and keys[i] is not None
            if not marked and table.headers[i] not in dimensions and values(text):
                found.append(f"{table.title}: {table.headers[i]} {text!r}")
    return found


# --- The outputs of one game ----------------------------------------------------------------


def cli_figures(rules: Rules, games: MemoryCache, rounds: int) -> list[Shown]:
    """What ``cbj solve``, ``bonus``, ``strategies`` and ``session`` print for ``rules``,
    and the workbench's Game page, each marked cell read back; each table's CSV must hold
    the number its text shows."""
    game = solver.solve(rules=rules, cache=games)
    strategies = solver.strategies(names="optimal,chart", rules=rules, cache=games)
    session = solver.session(rounds=rounds, rules=rules)
    tables = {
        "solve": list(game_tables(game)[:3]),
        "bonus": list(bonus_tables(solver.bonus(rules=rules).analysis)),
        "strategies": [
            strategies_table(strategies),
            ratios_table(strategies),
            volatility_table(strategies.volatility, "sessions", rules),
        ],
        "session": [summary_table(session)],
    }
    assert [m for found in tables.values() for m in csv_apart(found)] == []
    shown = from_tables("solve", tables["solve"])
    shown += from_tables("bonus", tables["bonus"])
    shown += from_tables("strategies", tables["strategies"],
                         own=("optimal", str(rules.bonus_ratio)))  # fmt: skip
    shown += from_tables("session", tables["session"], point=str(rounds))
    shown += from_workbench(workbench.game_figures(game))
    return shown


def written_apart(shown: list[Shown]) -> Iterator[str]:
    """Every figure two outputs print in different text: each figure has one format (an
    exact fraction, Annex B's, is its other form, and is left out)."""
    by_identity: dict[tuple[str, ...], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for s in shown:
        if s.key not in UNCOMPARED and "/" not in s.text:
            by_identity[identity(s)][s.source].add(s.text)
    for figure, printed in by_identity.items():
        if len(printed) > 1 and len({frozenset(texts) for texts in printed.values()}) > 1:
            yield f"{figure}: {dict(printed)}"


def csv_apart(tables: Iterable[Table]) -> Iterator[str]:
    """Every figure whose CSV number is not the number its table shows (read by pandas)."""
    import pandas as pd

    for table in tables:
        frame = pd.read_csv(io.StringIO(table.render(Format.CSV)))
        for r, (row, keys) in enumerate(zip(table.rows, table.keys, strict=True)):
            for i, key in enumerate(keys):
                value = row[i]
                if key is None or not isinstance(value, Cell):
                    continue
                shown = [plain(p) for p in re.split(r" to | \(|\)", str(value)) if p]
                for part, number in zip(value.parts, shown, strict=True):
                    column = next(c for c in frame.columns if c.startswith(table.headers[i] + part))
                    if frame[column].iloc[r] != pytest.approx(number):
                        yield f"{table.title}: {key} {row[i]!r} but {frame[column].iloc[r]!r}"


def check(shown: list[Shown]) -> None:
    unlabelled = [s for s in shown if not labelled(s)]
    assert unlabelled == [], [(s.source, s.key, s.row, s.header) for s in unlabelled]
    disagreements = list(agree(shown))
    assert disagreements == [], disagreements
    assert list(written_apart(shown)) == []
    assert {s.source for s in shown} >= {"solve", "bonus", "strategies", "session", "workbench"}


def test_the_default_game_prints_each_figure_once_over(games: MemoryCache) -> None:
    shown = cli_figures(Rules(), games, 100)
    check(shown)
    compared = {identity(s) for s in shown if s.key not in UNCOMPARED}
    # the headline figures reach at least two outputs each, so the check above bites
    for key in ("main_ev", "round_house_edge", "round_rtp", "bonus_rtp", "round_sd"):
        assert len({s.source for s in shown if s.key == key}) >= 2, key
    assert ("session_ahead", "100") in compared
    assert {s.source for s in shown if identity(s) == ("session_ahead", "100")} == {
        "solve", "strategies", "session", "workbench"}  # fmt: skip


def test_what_the_terminal_prints_is_what_the_tables_hold(
    games: MemoryCache, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import solver.store.disk as disk

    monkeypatch.setattr(disk, "default_cache", lambda warn=None: games)
    game = solver.solve(rules=Rules(), cache=games)
    for argv, tables in (
        (["solve"], game_tables(game)[:3]),
        (["bonus"], bonus_tables(solver.bonus().analysis)),
    ):
        status, out, _ = run_cli(argv, capsys)
        assert status == 0
        lines = out.splitlines()
        for table in tables:
            for key, row, _, text in table.figures():
                assert any(line.startswith(row) and text in line for line in lines), (key, row)
    for table in (*game_tables(game)[:3], *bonus_tables(solver.bonus().analysis)):
        dimensions = {"rounds", "Bonus card", "pays", "exact"}
        assert unmarked_numbers(table, dimensions) == [] or table.title.startswith("Bonus wager,")


@pytest.mark.slow
def test_the_variant_and_its_report_print_each_figure_once_over(
    par_report: Report, games: MemoryCache
) -> None:
    shown = cli_figures(par_report.rules, games, 1_000)
    report = from_report(par_report)
    check([*shown, *report])
    keys = {s.key for s in report}
    for key in ("main_ev", "bonus_rtp", "round_rtp", "round_sd", "session_ahead"):
        assert key in keys, key
    # the report's round figures agree with the terminal's on one basis, per main unit
    by_key = {(s.source, s.key): s.text for s in [*shown, *report]}
    assert values(by_key[("report", "round_ev")])[0][0] == pytest.approx(
        values(by_key[("solve", "round_ev")])[0][0], abs=1e-4
    )


def test_a_mislabelled_or_disagreeing_figure_is_caught() -> None:
    """The checks above can fail: a wrong label, and two outputs that disagree."""
    right = Shown("a", "round_ev", "round EV per main unit", "value", "", "-0.018507")
    assert labelled(right)
    assert not labelled(right._replace(row="round EV"))  # its basis is not said
    assert labelled(right._replace(row="EV", header="round", context="each per main unit"))
    assert not labelled(right._replace(row="main wager EV"))
    same = right._replace(source="b", text="\u22120.0185")
    assert list(agree([right, same])) == []
    assert list(agree([right, same._replace(text="\u22120.0123")]))
    assert list(written_apart([right, same]))  # the same value, written two ways
    assert list(written_apart([right, right._replace(source="b")])) == []
    assert values("1 in 4.38")[0][0] == pytest.approx(1 / 4.38)
    assert values("below 0.1%") == [(0.0005, 0.0005)]
    [(rtp, half)] = values("98.7662%")
    assert rtp == pytest.approx(0.987662) and half == pytest.approx(5e-7)
    table = Table("t", ("rounds", "x"), (("100", "1.5"),), keys=((None, None),))
    assert unmarked_numbers(table, {"rounds"}) == ["t: x '1.5'"]
