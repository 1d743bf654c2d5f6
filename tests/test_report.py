"""The PAR report: every section in the HTML, a valid and reproducible PDF."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from solver.cli import main
from solver.exact.strategy import Action
from solver.model.rules import Rules
from solver.present.charts import COLOURS
from solver.present.report import Report, build_report, render_html, render_pdf

SECTIONS = (
    "Summary",
    "Assumptions and method",
    "Bonus wager",
    "Main wager",
    "Whole round",
    "Dealer",
    "Paytable sensitivity",
    "Rule variants",
    "Strategy chart",
    "Appendix: exact values",
)


@pytest.fixture(scope="module")
def report() -> Report:
    return build_report(Rules(decks=2))


class Headings(HTMLParser):
    """Collects the text of every <h2> and checks tags are balanced."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[str] = []
        self.open: list[str] = []
        self.inside = False

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag not in {"meta", "br", "path", "use", "stop"}:
            self.open.append(tag)
        self.inside = tag == "h2"
        if self.inside:
            self.headings.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag in {"path", "use", "stop"}:
            return
        assert self.open and self.open.pop() == tag, f"unbalanced </{tag}>"
        self.inside = False if tag == "h2" else self.inside

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.headings[-1] += data


def test_html_has_every_section_in_order(report: Report) -> None:
    page = render_html(report)
    parser = Headings()
    parser.feed(page)
    titles = [re.sub(r"^\d+\. ", "", h) for h in parser.headings]
    assert titles == list(SECTIONS)
    assert page.count("<svg") == 3  # EV by Bonus card, dealer, pay sensitivity
    assert f"background:{COLOURS[Action.HIT]}" in page  # the chart's coloured cells
    assert "<img" not in page and not re.search(r'(src|href)="https?:', page)  # self-contained
    for figure in ("House edge", "Element of risk", "Hit frequency", "Odds of the top award"):
        assert figure in page
    assert "paytable 15:4:1" in page and "2 decks" in page


def test_html_is_reproducible(report: Report) -> None:
    assert render_html(report) == render_html(build_report(Rules(decks=2)))


def test_pdf_is_valid_reproducible_and_of_a_sensible_length(report: Report) -> None:
    first, second = render_pdf(report), render_pdf(report)
    assert first == second
    assert first.startswith(b"%PDF-") and first.rstrip().endswith(b"%%EOF")
    pages = len(re.findall(rb"/Type /Page\b", first))
    assert 5 <= pages <= 12
    assert b"/CreationDate (D:20000101000000" in first


def test_cli_writes_html_and_pdf_and_refuses_other_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("r.html", "r.pdf"):
        with pytest.raises(SystemExit) as stop:
            main(["report", "--decks", "2", "-o", str(tmp_path / name)])
        assert stop.value.code == 0
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF-")
    assert "wrote" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["report", "--decks", "2", "-o", str(tmp_path / "r.txt")])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and ".html .pdf" in err
