"""No label escapes the catalogue, and every CSV is data.

Every command's table (as Markdown, the same cells), CSV, JSON and HTML output is read
back: each header, each figure row's label and each JSON key must be one the figure
catalogue (``solver/results/figures.py``) or its dimensions (``solver/results/dimensions.py``)
gives. A label planted in a presenter is caught. Every command's CSV loads with pandas into
numeric columns, with no number left as text (no %, no thousands separator, no range in
one cell) and no comment line unless ``--comments`` asks for it.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import solver.store.disk as disk
from solver.cli import COMMANDS, main
from solver.model.cards import VALUES, value_label
from solver.model.paytable import BONUS_TIERS, LOSE
from solver.model.rule_table import RULE_TABLE
from solver.results.dimensions import JSON_FIELDS, known_label
from solver.results.figures import FIGURES
from solver.store.memory import MemoryCache

#: Every command with figures, and a command line that runs it in a moment.
RUNS: dict[str, list[str]] = {
    "advise": ["advise", "--bonus", "7", "--hand", "9 4"],
    "attack": ["attack", "--decks", "1", "--samples", "4", "--paths", "2", "--rounds", "20000"],
    "bet": ["bet", "--decks", "1", "--samples", "4"],
    "bonus": ["bonus"],
    "chart": ["chart", "--costs"],
    "count": ["count"],
    "dealer": ["dealer"],
    "eor": ["eor"],
    "hold": ["hold", "--rounds", "1000", "--result", "20"],
    "indices": ["indices", "--decks", "1", "--samples", "4"],
    "paytable": ["paytable", "search", "--max-pay", "20", "--top", "3"],
    "rules": ["rules"],
    "seats": ["seats", "--rounds", "2000", "--seed", "1", "--seats", "1-2"],
    "session": ["session", "--rounds", "50", "--bankroll", "20"],
    "shoe-states": ["shoe-states", "--samples", "3", "--seed", "1", "--depths", "0.5"],
    "simulate": ["simulate", "--rounds", "3000", "--seed", "1", "--counter", "hi-lo"],
    "solve": ["solve"],
    "strategies": ["strategies"],
    "sweep": ["sweep", "--vary", "suited-match", "--from", "10", "--to", "20", "--step", "5"],
    "variants": ["variants", "--decks", "1,2"],
}
#: More command lines of a command with another shape of output.
MORE_RUNS: dict[str, list[str]] = {
    "chart-grid": ["chart"],
    "paytable-solve": ["paytable", "solve", "--solve-for", "suited_match",
                       "--target-bonus-edge", "5%"],
    "solve-exact": ["solve", "--decks", "1", "--exact"],
    "simulate-seats": ["simulate", "--rounds", "2000", "--seed", "1", "--seats", "2"],
}  # fmt: skip
#: Commands that print no figures of their own: files written (their tables are checked
#: where they are made), a server, and the disk cache's housekeeping.
NO_FIGURES = {"graph", "report", "serve", "tables", "cache", "practice"}  # practice: keys typed
ALL_RUNS = {**RUNS, **MORE_RUNS}


@pytest.fixture(autouse=True)
def session_store(games: MemoryCache, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(disk, "default_cache", lambda warn=None: games)


def output(argv: list[str], fmt: str, capsys: pytest.CaptureFixture[str]) -> str:
    """What ``cbj ARGV --format FMT`` prints (it must succeed)."""
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--format", fmt])
    out, err = capsys.readouterr()
    assert stop.value.code in (0, None), err
    return out


def test_every_command_with_figures_is_read() -> None:
    assert set(COMMANDS) == set(RUNS) | NO_FIGURES


# --- Labels ---------------------------------------------------------------------------------

#: What a label may carry after it: a CSV's part of a cell (a range's ends, an interval's, a
#: chart cell's action and cost) and its unit, or a qualifier in brackets.
_SUFFIX = re.compile(r"( low| high| 95% low| 95% high| action| cost| play| index)?( \([^()]*\))?$")
#: A level before a label: ``1% point of the net result``, ``95% band of hold``.
_LEVEL = re.compile(r"^\d+(\.\d+)?% ")


def unknown(label: str) -> bool:
    """Whether ``label`` is none the catalogue gives, in any of the forms outputs print: as
    it is, without a CSV part or a qualifier in brackets, without a level before it, or a
    column's unit column (``value unit``)."""
    text = label.strip()
    base = _SUFFIX.sub("", text)
    forms = (text, base, _LEVEL.sub("", base), text.removesuffix(" unit"))
    return bool(text) and text != "unit" and not any(known_label(f) for f in forms)


def markdown_labels(text: str) -> Iterator[str]:
    """Every header of every Markdown table, and the first cell of each row of a table of
    figures (one headed "figure")."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not re.fullmatch(r"\|(---\|)+", line):
            continue
        headers = [h.strip() for h in lines[i - 1].strip("|").split("|")]
        yield from headers
        if headers[0] == "figure":
            for row in lines[i + 1 :]:
                if not row.startswith("|"):
                    break
                yield row.strip("|").split("|")[0].strip()


def csv_labels(text: str) -> list[str]:
    """A CSV's header row, and its figure column where it has one."""
    import csv

    rows = list(csv.reader(io.StringIO(text)))
    labels = list(rows[0])
    if "figure" in labels:
        column = labels.index("figure")
        labels += [row[column] for row in rows[1:] if len(row) > column and row[column]]
    return labels


#: Keys of mappings whose keys are data, not names: cards, outcomes, tiers, percentiles, the
#: round's outcome pairs, true counts.
_DATA_KEY = re.compile(r"^(-?\d+(\.\d+)?|[AJQKT]|[a-z_]+/[a-z_]+)$")
_DATA_KEYS = frozenset(
    {value_label(v) for v in VALUES}
    | {"blackjack", "win", "push", LOSE, "bust", "natural", "H", "S", "-"}
    | {t.name for t in BONUS_TIERS}
    | {r.name for r in RULE_TABLE}
)


def json_keys(document: Any) -> Iterator[str]:
    """Every key of a JSON document that names something (not a mapping's data)."""
    if isinstance(document, dict):
        for key, value in document.items():
            if key not in _DATA_KEYS and not _DATA_KEY.match(key):
                yield key
            yield from json_keys(value)
    elif isinstance(document, list):
        for value in document:
            yield from json_keys(value)


def known_json_key(key: str) -> bool:
    return key in JSON_FIELDS or key in {f.json for f in FIGURES} or key in {f.key for f in FIGURES}


class _Headers(HTMLParser):
    """Every column header (``<th>`` in a ``<thead>``) of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.inside = self.head = False

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.head = self.head or tag == "thead"
        if tag == "th" and self.head:
            self.inside, self.found = True, [*self.found, ""]

    def handle_endtag(self, tag: str) -> None:
        self.inside = self.inside and tag != "th"
        self.head = self.head and tag != "thead"

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.found[-1] += data


def html_headers(page: str) -> list[str]:
    parser = _Headers()
    parser.feed(page)
    return [h.strip() for h in parser.found]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ALL_RUNS))
def test_every_label_and_json_key_is_the_catalogues(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ALL_RUNS[name]
    labels = [*markdown_labels(output(argv, "md", capsys))]
    labels += csv_labels(output(argv, "csv", capsys))
    stray = sorted({label for label in labels if unknown(label)})
    assert stray == [], stray
    keys = sorted({key for key in json_keys(json.loads(output(argv, "json", capsys)))})
    assert [k for k in keys if not known_json_key(k)] == []


def test_the_html_pages_commands_write_use_the_catalogues_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "session.html"
    with pytest.raises(SystemExit):
        main(["session", "--rounds", "30", "--format", "html", "-o", str(page)])
    chart = output(["chart"], "html", capsys)
    headers = [*html_headers(page.read_text()), *html_headers(chart)]
    assert len(headers) > 10
    assert [h for h in headers if unknown(h)] == []


def test_a_stray_label_planted_in_a_presenter_is_caught(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The checks above can fail: a presenter that types its own header is caught."""
    import solver.present.seats as seats

    monkeypatch.setattr(seats, "short_heading", lambda key: "casino edge")
    labels = [*markdown_labels(output(RUNS["seats"], "md", capsys))]
    assert "casino edge" in labels and unknown("casino edge")
    assert not unknown("round house edge (%)") and not unknown("1% point of the net result")
    assert unknown("edge per round") and unknown("round edge (%)")
    assert known_json_key("round_sd") and not known_json_key("standard_deviation_of_round")


def test_a_stray_label_planted_in_the_report_is_caught(
    par_report: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dataclasses import replace

    from solver.present.report.blocks import Grid, Section

    stray = replace(
        par_report, core=(Section("x", (Grid(("figure", "value"), (("edge", "1"),)),)),)
    )
    assert "edge" in report_labels(stray) and unknown("edge")


# --- CSV that is data -----------------------------------------------------------------------

#: Text that is a number written for a person: a %, a thousands separator, a true minus
#: sign, "1 in N", "N to 1", or a range in one cell.
_WRITTEN_NUMBER = re.compile(
    r"^[\u2212+-]?[\d\u202f\u2009,.]+%$|^\d{1,3}([,\u202f]\d{3})+|\u2212\d|^1 in [\d.]+$"
    r"|^[\d.]+ to 1$|^[\u2212+-]?[\d.]+ to [\u2212+-]?[\d.]+$"
)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ALL_RUNS))
def test_every_csv_loads_into_pandas_as_numbers(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import pandas as pd
    from pandas.api.types import is_numeric_dtype

    text = output(ALL_RUNS[name], "csv", capsys)
    assert not text.startswith("#")  # comments only when asked for
    frame = pd.read_csv(io.StringIO(text))
    assert len(frame) > 0 and len(frame.columns) > 1
    numeric = [c for c in frame.columns if is_numeric_dtype(frame[c])]
    assert numeric or name in ("rules", "chart-grid"), list(frame.columns)
    for column in frame.columns:
        if is_numeric_dtype(frame[column]):
            continue
        written = [v for v in frame[column].dropna().astype(str) if _WRITTEN_NUMBER.search(v)]
        assert written == [], (column, written[:3])
    commented = output([*ALL_RUNS[name], "--comments"], "csv", capsys)
    assert commented.startswith("# ")
    assert len(pd.read_csv(io.StringIO(commented), comment="#")) == len(frame)


def report_labels(report: Any) -> list[str]:
    """Every header of the report's tables, and the labels of its tables of figures (the
    Summary's quantities, the Definitions' terms, Annex B's figures)."""
    from solver.present.report.blocks import Grid

    found: list[str] = []
    for section in report.sections:
        for grid in (b for b in section.blocks if isinstance(b, Grid)):
            found += grid.headers
            if grid.headers[0] == "figure":
                found += [row[0] for row in grid.rows if row[0] != "sign convention"]
    return found


def test_the_reports_labels_are_the_catalogues(par_report: Any) -> None:
    """The 2-deck report of the session (the default game's labels are the same code's)."""
    labels = report_labels(par_report)
    assert len(labels) > 150
    assert sorted({label for label in labels if unknown(label)}) == []
