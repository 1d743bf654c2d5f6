"""The Paytable, Compare, Chart, Report and Hold pages' parts (solver.present.workbench_pages)
and what issue 47 asked of them, without a browser: the paytable's answer leads with its
decimal, the Chart page says its EV once, the report's progress is not 100% while a stage
runs, and its download and manifest are named for the game and the format.

The report's own figures are not built here: ``api.report`` is replaced by a stand-in that
reports its steps as the real one does (tests/test_report.py builds the real thing).
"""

from __future__ import annotations

import html
import re
import threading
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from starlette.testclient import TestClient

import solver
from solver.model.paytable import Paytable
from solver.model.rules import Rules
from solver.present import workbench_pages
from solver.present.formats import download_name
from solver.present.style import show
from solver.present.templates import Markup
from solver.studies.report import STEPS
from solver.web.app import make_app
from solver.web.work import WorkbenchStore
from solver.web.workbench import Workbench
from tests.conftest import GAMES

if TYPE_CHECKING:
    from solver.results.report import ReportFigures

BASE = "http://127.0.0.1:8021"
OURS = {"origin": BASE, "sec-fetch-site": "same-origin"}


def test_the_paytables_answer_leads_with_its_decimal_and_folds_the_fraction() -> None:
    solution = solver.paytable_solve(
        solve_for="suited_match", target_round_edge=Fraction(1, 20), cache=GAMES
    )
    page = str(workbench_pages.pay_solution_html(solution, {}))
    lead = re.search(r'<p class="lead"[^>]*>(.*?)</p>', page, re.S)
    assert lead is not None
    decimal = show("break_even_pay", solution.pay)
    assert decimal.endswith("to 1") and decimal in lead.group(1)
    assert "long-number" not in lead.group(1)  # no fraction in the sentence
    folded = re.search(r'<details class="exact">(.*?)</details>', page, re.S)
    assert folded is not None and page.index(decimal) < folded.start()
    digits = re.sub(r"\D", "", re.sub(r"<[^>]+>", "", folded.group(1)))
    assert digits == f"{solution.pay.numerator}{solution.pay.denominator}"
    assert len(digits) > 40  # the long fraction issue 47 saw before the decimal


def test_the_chart_page_says_its_ev_once() -> None:
    chart = solver.chart_costs(cache=GAMES).chart
    from solver.present.workbench import chart_lead

    lead = chart_lead(chart.expected_value, chart.optimal_expected_value)
    page = str(workbench_pages.chart_page(chart, {"PDF": "/chart/chart.pdf"}, {}, lead))
    text = re.sub(r"<[^>]+>", " ", page.split("<main>", 1)[1])
    for value in (chart.expected_value, chart.optimal_expected_value):
        assert text.count(show("chart_ev", value)) == 1, show("chart_ev", value)
    assert show("chart_cost", chart.cost) in text  # what the chart gives up, said too
    assert page.count('data-figure="chart-ev"') == 1


def test_values_are_escaped_on_the_compare_table() -> None:
    shown = {"decks": "<script>alert(1)</script>"}
    columns = [
        workbench_pages.Column("A", Markup(), Rules()),
        workbench_pages.Column("B", Markup(), None, shown=shown, invalid=frozenset({"paytable"})),
    ]
    table = str(workbench_pages.compare_table(columns))
    assert "<script>" not in table and "&lt;script&gt;alert(1)&lt;/script&gt;" in table


@pytest.mark.parametrize(
    ("rules", "kind", "fmt", "name"),
    [
        (Rules(), "report", "pdf", "cbj-6d-15-4-1-report.pdf"),
        (
            Rules(decks=2, paytable=Paytable.parse("20:5:2")),
            "report",
            "html",
            "cbj-2d-20-5-2-report.html",
        ),
        (Rules(decks=8), "chart", "csv", "cbj-8d-15-4-1-chart.csv"),
    ],
)
def test_a_download_is_named_for_its_game_and_format(
    rules: Rules, kind: str, fmt: str, name: str
) -> None:
    assert download_name(rules, kind, fmt) == name


class StandIn:
    """``api.report`` as the workbench calls it: each step reported as it finishes, then the
    document written (held until ``release`` is set), as HTML text or PDF bytes."""

    def __init__(self) -> None:
        self.writing = threading.Event()
        self.release = threading.Event()

    def __call__(self, format: str, progress: Any, **_: Any) -> str | bytes:
        for done in range(1, len(STEPS) + 1):
            progress(done, len(STEPS))
        self.writing.set()
        self.release.wait(30)
        return b"%PDF-1.4 stand-in" if format == "pdf" else "<!DOCTYPE html><title>r</title>"


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandIn]:
    fake = StandIn()
    monkeypatch.setattr("solver.web.workbench.api.report", fake)
    yield fake
    fake.release.set()


@pytest.mark.parametrize("fmt", ["html", "pdf"])
def test_the_reports_progress_is_not_done_while_it_writes_and_its_file_is_named(
    stand_in: StandIn, fmt: str
) -> None:
    bench = Workbench(WorkbenchStore(GAMES))
    fields = {"decks": "2", "format": fmt}
    with TestClient(make_app(bench), base_url=BASE) as client:
        client.post("/report", params=fields, headers=OURS, follow_redirects=False)
        assert stand_in.writing.wait(30)
        page = client.get("/report", params=fields).text
        status = re.search(r'<div id="progress"[^>]*role="status">(.*?)</div>', page, re.S)
        assert status is not None, page
        words = re.sub(r"<[^>]+>", " ", status.group(1))
        stages = len(STEPS) + 1
        assert f"writing the document ({len(STEPS)} of {stages}," in words, words
        assert "100%" not in words and f'value="{len(STEPS)}"' in status.group(1)
        stand_in.release.set()
        deadline = time.monotonic() + 30
        while 'id="downloads"' not in (page := client.get("/report", params=fields).text):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        name = f"cbj-2d-15-4-1-report.{fmt}"
        assert f'download="{name}"' in page
        got = client.get("/report/download", params=fields)
    bench.close()
    assert got.status_code == 200
    assert got.headers["content-disposition"] == f'attachment; filename="{name}"'


@pytest.mark.parametrize(("fmt", "output"), [("html", None), ("html", "mine.html")])
def test_the_manifests_command_writes_the_format_built(
    par_figures: ReportFigures,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    fmt: str,
    output: str | None,
) -> None:
    """A report returned as HTML names ``cbj-2d-15-4-1-report.html`` in its manifest's
    command (it said ``-o report.pdf`` whatever the format); one written names its file."""
    monkeypatch.setattr("solver.api.files.report_figures", lambda *_, **__: par_figures)
    if output is None:
        page = solver.report(format=fmt, decks=2)
        written = "cbj-2d-15-4-1-report.html"
    else:
        solver.report(tmp_path / output, decks=2)
        page = (tmp_path / output).read_text(encoding="utf-8")
        written = output
    assert isinstance(page, str)
    command = html.unescape(re.sub(r"<[^>]+>", " ", page.split("Reproducibility manifest")[-1]))
    found = re.search(r"cbj report .*? -o (\S+)", command, re.S)
    assert found is not None and found.group(1) == written


@pytest.mark.parametrize("path", ["/hold", "/report"])
def test_the_strategy_box_offers_the_strategies_by_name(path: str) -> None:
    """The Hold and Report pages' strategy is a text box (a chart file is a file's name)
    offering the named strategies from the page's own datalist."""
    from solver.model.outcomes import NAMED_POLICIES

    with TestClient(make_app(Workbench(WorkbenchStore(GAMES))), base_url=BASE) as client:
        page = client.get(path).text
    box = re.search(r'<input [^>]*id="f-strategy"[^>]*>', page)
    assert box is not None and 'list="strategy-names"' in box.group(0), box
    names = re.search(r'<datalist id="strategy-names">(.*?)</datalist>', page, re.S)
    assert names is not None
    offered = re.findall(r'<option value="([^"]+)">', names.group(1))
    assert set(NAMED_POLICIES) <= set(offered)
