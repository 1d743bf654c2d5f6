"""The PAR report: every section, plain words and one number style, a reproducible PDF."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pypdf import PdfReader

from solver.cli import main
from solver.exact.strategy import Action
from solver.present.charts import COLOURS
from solver.present.report import Report, render_html, render_pdf, write_report
from solver.present.report.content import Grid, report_date
from tests.conftest import EPOCH

SECTIONS = (
    "Summary",
    "Rules and method",
    "Bonus wager",
    "Main wager",
    "Whole round",
    "House edge against the Bonus ratio",
    "Dealer",
    "Paytable sensitivity",
    "Rule variants",
    "Strategy chart",
    "Simulation cross-check",
    "Appendix: exact values",
)


class Page(HTMLParser):
    """Collects every <h2>'s text and the visible prose, and checks tags are balanced."""

    VOID = frozenset({"meta", "br", "path", "use", "stop", "col", "rect", "circle", "line"})

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[str] = []
        self.open: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag not in self.VOID:
            self.open.append(tag)
        if tag == "h2":
            self.headings.append("")

    def handle_startendtag(self, tag: str, attrs: object) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        assert self.open and self.open.pop() == tag, f"unbalanced </{tag}>"

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] == "h2":
            self.headings[-1] += data
        if not {"style", "svg"} & set(self.open) and "title" not in self.open[-1:]:
            self.text.append(data)


@pytest.fixture(scope="module")
def page(par_report: Report) -> Page:
    parser = Page()
    parser.feed(render_html(par_report))
    return parser


@pytest.fixture(scope="module")
def pdf(par_report: Report) -> bytes:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", EPOCH)
        return render_pdf(par_report)


def test_html_has_every_section_in_order(par_report: Report, page: Page) -> None:
    titles = [re.sub(r"^\d+\. ", "", h) for h in page.headings]
    assert titles == list(SECTIONS)
    html = render_html(par_report)
    assert html.count("<svg") == 4  # EV by Bonus card, Bonus ratio, dealer, pay sensitivity
    assert f"background:{COLOURS[Action.HIT]}" in html  # the chart's coloured cells
    for figure in ("House edge", "Hit frequency", "Odds of the top award", "Revision"):
        assert figure in html


def test_html_is_self_contained_and_fits_phones_and_paper(par_report: Report) -> None:
    html = render_html(par_report)
    assert "<img" not in html and not re.search(r'(src|href)="(https?:)?//', html)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    for rule in ("@page { size: A4", "print-color-adjust: exact", "break-inside: avoid",
                 "break-after: avoid", "overflow-x: auto"):  # fmt: skip
        assert rule in html
    assert "<text" in html  # plot text stays text (searchable, read aloud)


def test_prose_has_no_code_identifiers_and_one_number_style(page: Page) -> None:
    text = " ".join(page.text)
    for identifier in ("with_bonus", "own_cards", "bonus_ratio", "blackjack_pays", "_"):
        assert identifier not in text
    assert not re.search(r"(?<![\w\-])-\d", text), "hyphen used as a minus sign"
    assert "\u2212" in text  # true minus signs are used
    assert "points)" not in text.replace("percentage points)", "")


def test_every_return_line_gives_its_odds(par_report: Report) -> None:
    returns = [
        block
        for section in par_report.sections
        for block in section.blocks
        if isinstance(block, Grid) and block.headers[-1] == "return"
    ]
    assert len(returns) == 3  # Bonus, main wager, whole round
    for grid in returns:
        odds = grid.headers.index("odds")
        for row in grid.rows[:-1]:  # the total line has no odds
            assert re.fullmatch(r"1 in [\d.\u2009]+|never", row[odds]), row


def test_title_block_names_revision_and_date(
    par_report: Report, monkeypatch: pytest.MonkeyPatch
) -> None:
    from importlib.metadata import version

    block = par_report.title_block
    assert block.date == "2026-01-02"  # from SOURCE_DATE_EPOCH
    package, fingerprint = block.revision.split("+")
    assert package == version("community-blackjack") and re.fullmatch(r"[0-9a-f]{12}", fingerprint)
    assert any("2 standard 52-card decks" in line for line in block.rules)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    assert report_date() == "1970-01-01"


def test_simulation_cross_check_agrees(par_report: Report) -> None:
    section = next(s for s in par_report.sections if s.title == "Simulation cross-check")
    grid = next(b for b in section.blocks if isinstance(b, Grid))
    z_column = grid.headers.index("z")
    zs = [float(row[z_column].replace("\u2212", "-")) for row in grid.rows]
    assert len(zs) == 3 and all(abs(z) < 4 for z in zs)


def test_pdf_has_outline_page_x_of_y_vector_plots_and_text(pdf: bytes) -> None:
    reader = PdfReader(io.BytesIO(pdf))
    pages = len(reader.pages)
    assert 4 <= pages <= 7
    titles = [o.title for o in reader.outline if not isinstance(o, list)]
    assert titles == [f"{i}. {t}" for i, t in enumerate(SECTIONS, 1)]
    text = [p.extract_text() for p in reader.pages]
    assert all(f"page {n} of {pages}" in t for n, t in enumerate(text, start=1))
    assert "House edge" in text[0] and "2026-01-02" in text[0]
    assert b"/Subtype /Image" not in pdf  # plots are drawn as vectors
    assert b"/CreationDate (D:20260102" in pdf
    links = [
        a.get_object()
        for a in reader.pages[0].get("/Annots", [])
        if a.get_object().get("/Subtype") == "/Link"
    ]
    assert len(links) >= len(SECTIONS)  # the linked contents


def test_pdf_is_byte_identical_through_the_cli(
    pdf: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    with pytest.raises(SystemExit) as stop:
        main(["report", "--decks", "2", "-o", str(tmp_path / "r.pdf")])
    assert stop.value.code == 0 and "wrote" in capsys.readouterr().err
    assert (tmp_path / "r.pdf").read_bytes() == pdf


def test_chart_pdf_is_byte_identical_through_the_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    for name in ("c1.pdf", "c2.pdf"):
        with pytest.raises(SystemExit):
            main(["chart", "--decks", "2", "-o", str(tmp_path / name)])
    first = (tmp_path / "c1.pdf").read_bytes()
    assert first == (tmp_path / "c2.pdf").read_bytes()
    assert b"/CreationDate (D:20260102" in first


def test_html_is_written_and_other_files_refused(
    par_report: Report, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_report(par_report, tmp_path / "r.html")
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")
    with pytest.raises(SystemExit) as stop:
        main(["report", "--decks", "2", "-o", str(tmp_path / "r.txt")])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and ".html .pdf" in err
