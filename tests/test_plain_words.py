"""Plain words everywhere a person reads: no identifier with an underscore, and no rule value
in its typed spelling, in any table, Markdown, HTML, PDF text or workbench page.

Internal names (``suited_match``, ``with_bonus``, ``main_chart``) belong to JSON, CSV and
the values typed at ``--help``; the deliberate exceptions are listed in :data:`EXCEPTIONS`.
"""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pypdf import PdfReader

import solver
import solver.store.disk as disk
from solver.cli import main
from solver.model.rule_table import RULE_TABLE
from solver.model.rules import Rules
from solver.present import fields, workbench, workbench_pages
from solver.present.report import Report
from solver.present.report.blocks import Grid
from solver.present.templates import Markup
from solver.store.memory import MemoryCache

ROOT = Path(__file__).resolve().parent.parent
#: An identifier: lower-case words joined by underscores.
IDENTIFIER = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")
#: Every rule value spelled as typed (the closed choices with more than one word).
TYPED_VALUES = {c for rule in RULE_TABLE for c in rule.choices if "_" in c}
#: Where a person reads an identifier on purpose, and why.
EXCEPTIONS = {
    "cbj rules": "its value and meaning columns show the values as the options take them",
    "report manifest": "its command line and the rules' JSON rebuild the report as typed",
}

#: Commands and the tables and Markdown they print (each run in both formats).
COMMANDS = [
    ["bonus"],
    ["bonus", "--paytable", "suited-match=15,rank-match=4,suited-adjacent=2,adjacent=1"],
    ["dealer"],
    ["solve"],
    ["solve", "--decks", "1", "--exact", "--dealer-natural", "own_cards"],
    ["advise", "--bonus", "7", "--hand", "9 4"],
    ["strategies"],
    ["session", "--rounds", "50", "--bankroll", "20"],
    ["seats", "--rounds", "2000", "--seats", "1-2"],
    ["simulate", "--rounds", "3000", "--counter", "hi-lo"],
    ["paytable", "solve", "--solve-for", "suited_match", "--target-bonus-edge", "5%"],
    ["paytable", "search", "--max-pay", "20", "--top", "3"],
    ["variants", "--decks", "1,2"],
    ["eor"],
    ["count"],
    ["chart", "--costs"],
]


def identifiers(text: str) -> list[str]:
    """Every identifier and typed rule value in ``text``."""
    return sorted(set(IDENTIFIER.findall(text)) | {v for v in TYPED_VALUES if v in text})


class _Visible(HTMLParser):
    """The text of a page a person sees: no tags, attributes, styles or scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.hidden += tag in ("style", "script")

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("style", "script")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.text.append(data)


def visible(page: str) -> str:
    parser = _Visible()
    parser.feed(page)
    return " ".join(parser.text)


@pytest.fixture(autouse=True)
def session_store(games: MemoryCache, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(disk, "default_cache", lambda warn=None: games)


@pytest.mark.slow
@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a[:3]))
def test_tables_and_markdown_speak_plain_words(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    for fmt in ("table", "md"):
        with pytest.raises(SystemExit) as stop:
            main([*argv, "--format", fmt])
        out = capsys.readouterr().out
        assert stop.value.code in (0, None)
        assert identifiers(out) == [], (argv, fmt)


def test_cbj_rules_shows_typed_values_only_in_its_value_columns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["rules"])
    lines = capsys.readouterr().out.splitlines()
    table = lines[lines.index(next(line for line in lines if line.startswith("---"))) + 1 :]
    for line in table:  # the rule's label and option: plain words and dashes
        label_and_option = line[: line.index("--") + 24]
        assert identifiers(label_and_option) == [], line
    assert "cbj rules" in EXCEPTIONS


def test_charts_the_collection_and_the_session_page_speak_plain_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for name in ("md", "html"):
        with pytest.raises(SystemExit):
            main(["chart", "--format", name])
        out = capsys.readouterr().out
        assert identifiers(visible(out) if name == "html" else out) == [], name
    with pytest.raises(SystemExit):
        main(["session", "--rounds", "30", "--format", "html", "-o", str(tmp_path / "s.html")])
    assert identifiers(visible((tmp_path / "s.html").read_text())) == []
    for page in (ROOT / "strategy_tables").rglob("*"):
        if page.suffix == ".md":
            assert identifiers(page.read_text()) == [], page
        elif page.suffix == ".html":
            assert identifiers(visible(page.read_text())) == [], page


def test_the_workbench_pages_speak_plain_words(games: MemoryCache) -> None:
    rules = Rules.from_options(
        dealer_natural="own_cards", natural_beats="non_blackjack", dealer_bonus="must_use"
    )
    game = solver.solve(rules=rules, cache=games)
    pages = [
        workbench.game_figures(game),
        fields.rules_fields({}, {}, rules),
        fields.choice_field("solve_for", "Solve for", "", ["suited_match", "rank_match"], "", {}),
        workbench_pages.compare_body(
            [
                workbench_pages.Column("A", Markup(), Rules(), solver.solve(cache=games)),
                workbench_pages.Column("B", Markup(), rules, game),
            ]
        ),
        workbench_pages.pay_solution_html(
            solver.paytable_solve(solve_for="rank_match", target_bonus_edge="5%", cache=games), {}
        ),
        workbench_pages.search_html(solver.paytable_search(max_pay=12, top=3, cache=games), {}),
    ]
    for page in pages:
        assert identifiers(visible(page)) == [], visible(page)[:200]


def _manifest_rows(report: Report) -> set[str]:
    section = next(s for s in report.sections if s.title == "Reproducibility manifest")
    grid = next(b for b in section.blocks if isinstance(b, Grid))
    return {row[1] for row in grid.rows if row[0] in ("Command", "Rules (JSON)")}


def test_the_report_speaks_plain_words_but_in_its_manifest(
    par_report: Report, report_html: str, report_pdf: bytes
) -> None:
    kept = _manifest_rows(par_report)
    assert kept and "report manifest" in EXCEPTIONS
    text = visible(report_html)
    for row in kept:
        text = text.replace(row, "")
    assert identifiers(text) == []
    words = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(report_pdf)).pages)
    found = identifiers(words)
    manifest = " ".join(kept)
    assert [w for w in found if w not in manifest] == []


def test_the_scan_finds_what_it_looks_for() -> None:
    assert identifiers("the suited_match tier") == ["suited_match"]
    assert identifiers("dealer naturals: with_bonus") == ["with_bonus"]
    assert identifiers("push and loss; 10 = 10, J, Q, K; <b>x</b>") == []
    assert visible('<p title="a_b">plain <style>.x_y {}</style>words</p>') == "plain  words"
