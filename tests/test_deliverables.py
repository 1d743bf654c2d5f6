"""The deliverables as a reader meets them: the PDF report, the collection, pictures.

PDF: every bookmark and contents link lands on the page of its heading, every font is
embedded, the document has a language and the creation date it prints, no number is
wrapped inside a cell, no heading ends a page and no page but the last is more than half
blank. The collection: plain-word titles naming the preset, file names that say the game,
every grid mark with its footnote, titles inside the page, one way of stating the cost.
The dealer plot's series differ by more than hue. A decision graph too large to read is
refused as a picture with a one-line hint. (Browser checks are in ``test_browser.py``.)
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from solver.model.rules import Rules
from solver.present.collection import VARIANTS, Variant
from solver.present.formats import ChartFormat
from solver.present.report import Report, render_html, render_pdf
from solver.present.report.blocks import Grid, Section, Text, TitleBlock
from solver.present.report.pdf_type import escape
from solver.present.report.plots import dealer_colours, dealer_plot, ink_on, standalone_svg
from solver.present.style import GROUP_SPACE, thousands
from tests.colour_vision import (
    DEUTERANOPIA,
    PROTANOPIA,
    contrast_ratio,
    delta_e,
    lab,
    linear_of,
    simulate,
)
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "strategy_tables"
A4_HEIGHT = 841.89
#: The report's text frame, in points from the page's foot (top margin 20 mm, foot 18 mm).
FRAME_BOTTOM, FRAME_TOP = 18 * 72 / 25.4, A4_HEIGHT - 20 * 72 / 25.4


@pytest.fixture(scope="module")
def pdf_bytes(report_pdf: bytes) -> bytes:
    """The session's report as PDF (tests/conftest.py)."""
    return report_pdf


@pytest.fixture(scope="module")
def pdf(pdf_bytes: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(pdf_bytes))


@pytest.fixture(scope="module")
def page_lines(pdf: PdfReader) -> list[list[str]]:
    """Each page's lines of text, extracted once for the tests that read them (extracting
    one page takes about 30 ms; the bookmark test read a page twice for each heading)."""
    return [_lines(page) for page in pdf.pages]


def _headings(report: Report) -> list[str]:
    """Every heading the outline holds, in order: the core's sections, then each annex and
    (when it has more than one) its sections."""
    numbers = {id(s): n for n, s in report.numbered()}
    found = [f"{numbers[id(s)]}. {s.title}" for s in report.core]
    for annex in report.annexes:
        found.append(annex.heading)
        if len(annex.sections) > 1:
            found += [f"{numbers[id(s)]}. {s.title}" for s in annex.sections]
    return found


def _contents(report: Report) -> list[str]:
    """The contents' entries on the first page: the core's sections, then the annexes."""
    numbers = {id(s): n for n, s in report.numbered()}
    return [f"{numbers[id(s)]}. {s.title}" for s in report.core] + [
        a.heading for a in report.annexes
    ]


def _outline(reader: PdfReader) -> list[Any]:
    """Every outline entry, an annex's sections after it."""

    def walk(items: list[Any]) -> list[Any]:
        return [e for item in items for e in (walk(item) if isinstance(item, list) else [item])]

    return walk(reader.outline)


def _page_numbers(reader: PdfReader) -> dict[int, int]:
    """Each page's object number, to its index."""
    return {page.indirect_reference.idnum: i for i, page in enumerate(reader.pages)}  # type: ignore[union-attr]


def _lines(page: Any) -> list[str]:
    return [line.strip() for line in page.extract_text().splitlines() if line.strip()]


def test_every_bookmark_and_contents_link_lands_on_its_heading(
    pdf: PdfReader, page_lines: list[list[str]], par_report: Report
) -> None:
    headings = _headings(par_report)
    outline = _outline(pdf)
    assert [item.title for item in outline] == headings
    for item in outline:
        page = pdf.get_destination_page_number(item)
        assert page is not None and item.title in page_lines[page], (item.title, page)
    pages = _page_numbers(pdf)
    links = [a.get_object() for a in pdf.pages[0].get("/Annots", [])]
    links = [a for a in links if a.get("/Subtype") == "/Link"]
    # The contents, in order; a title broken over two lines is two links to one place.
    places = list(dict.fromkeys((a["/Dest"][0].idnum, float(a["/Dest"][3])) for a in links))
    contents = _contents(par_report)
    assert len(places) == len(contents)
    landed = [pages[page] for page, _ in places]
    assert landed != [0] * len(landed)
    for heading, page in zip(contents, landed, strict=True):
        assert heading in page_lines[page], (heading, page)


def test_every_font_is_embedded(pdf: PdfReader) -> None:
    for page in pdf.pages:
        fonts: Any = page["/Resources"]["/Font"]  # type: ignore[index]
        for ref in fonts.values():
            font = ref.get_object()
            assert font["/BaseFont"] != "/Helvetica"
            descendant = font.get("/DescendantFonts")
            described = (descendant[0].get_object() if descendant else font)["/FontDescriptor"]
            assert {"/FontFile", "/FontFile2", "/FontFile3"} & set(described.get_object())


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="poppler-utils not installed")
def test_pdffonts_lists_every_font_embedded(pdf_bytes: bytes, tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    path.write_bytes(pdf_bytes)
    rows = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True)
    fonts = rows.stdout.splitlines()[2:]
    assert fonts and all(line.split()[-5] == "yes" for line in fonts), rows.stdout


def _mini_report(date: str, *blocks: Text | Grid) -> Report:
    block = TitleBlock("A game", ("decks: 6",), "15:4:1", "0.1.0", "0123456789ab", date)
    return Report(Rules(), block, (Section("Only", blocks),))


def test_language_and_creation_date_follow_the_printed_date() -> None:
    """The PDF is dated the day it prints (any day, not only ``SOURCE_DATE_EPOCH``'s)."""
    for date in ("2031-05-06", "1999-12-31"):
        reader = PdfReader(io.BytesIO(render_pdf(_mini_report(date, Text("x")))))
        root: Any = reader.trailer["/Root"]
        assert root["/Lang"] == "en"
        assert reader.metadata is not None
        assert str(reader.metadata["/CreationDate"]).startswith("D:" + date.replace("-", ""))
        assert date in reader.pages[0].extract_text()


def test_numbers_are_never_broken_between_thousands() -> None:
    """A thousands separator is a no-break space in HTML and PDF: a number stays on one line.

    The paragraph is as wide as the page and the cells as narrow as the table can be: each
    breaks only between words, never inside the number.
    """
    big = thousands(-1234567)
    assert GROUP_SPACE in big and "\u2009" not in big
    narrow = Grid(("name", "value"), tuple((f"row {i}", big + " units") for i in range(3)))
    words = " ".join(["word"] * 22)
    report = _mini_report("2026-01-02", Text(f"{words} {big} {words} {big}"), narrow)
    pages = PdfReader(io.BytesIO(render_pdf(report))).pages
    lines = [line for page in pages for line in _lines(page)]
    # The gap between thousands is spacing, no character: extracted as one number.
    assert sum(line.count("\u22121234567") for line in lines) == 5, lines
    assert "Grouped" in escape(big) and big in render_html(report)


def test_no_number_is_wrapped_in_a_report_cell(
    page_lines: list[list[str]], par_report: Report
) -> None:
    lines = [line for page in page_lines for line in page]
    text = "\n".join(lines)
    checked = 0
    for section in par_report.sections:
        for block in section.blocks:
            if not isinstance(block, Grid) or not block.numeric:
                continue
            if block.long_numbers:
                continue
            for row in block.rows:
                for cell in row[1:]:
                    whole = cell.replace(GROUP_SPACE, "")  # as text extraction gives it: one number
                    # a figure's interval may go under the figure, but no further apart
                    for part in re.split(r" (?=\()", whole):
                        if part and any(ch.isdigit() for ch in part):
                            checked += 1
                            assert part in text, (section.title, cell)
    assert checked > 200


def _text_heights(page: Any) -> list[float]:
    """The height above the page's foot of every piece of text drawn on ``page``."""
    heights: list[float] = []

    def visit(text: str, cm: list[float], tm: list[float], *_: Any) -> None:
        if text.strip():
            heights.append(tm[4] * cm[1] + tm[5] * cm[3] + cm[5])

    page.extract_text(visitor_text=visit)
    return heights


def _frame(page: Any) -> tuple[float, float]:
    """The text frame's foot and top on ``page`` (portrait or landscape), from the page's foot."""
    return FRAME_BOTTOM, float(page.mediabox.height) - (A4_HEIGHT - FRAME_TOP)


def _landscape(page: Any) -> bool:
    return float(page.mediabox.width) > float(page.mediabox.height)


def test_no_page_is_more_than_three_tenths_blank_but_before_an_annex(pdf: PdfReader) -> None:
    """A table that does not fit starts on the page when a quarter of it is left, and splits
    there (four rows at least on each side); only the page before an annex (which starts a
    page of its own) and the last may end early. Every page is portrait but Annex B's."""
    pages = pdf.pages
    starts = {e.title[:7]: int(pdf.get_destination_page_number(e) or 0) for e in _outline(pdf)
              if e.title.startswith("Annex ")}  # fmt: skip
    annexes = set(starts.values())
    assert len(annexes) == 6
    wide = [n for n, page in enumerate(pages) if _landscape(page)]  # Annex B's long numbers
    assert all(starts["Annex B"] <= n < starts["Annex C"] for n in wide), wide
    for n, page in enumerate(pages[:-1], start=1):
        if n in annexes:  # the next page (n counts from 1) starts an annex
            continue
        foot, top = _frame(page)
        lowest = min(y for y in _text_heights(page) if foot - 10 < y < top)
        blank = (lowest - foot) / (top - foot)
        assert blank < 0.3, f"page {n} is {blank:.0%} blank"


def _sizes(page: Any) -> list[tuple[float, float, str]]:
    """Each piece of text drawn on ``page``: its size as drawn (points), height, text."""
    found: list[tuple[float, float, str]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        if text.strip():
            a, b, c, d = (tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3],
                          tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3])  # fmt: skip
            height = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            found.append((size * abs(a * d - b * c) ** 0.5, height, text.strip()))

    page.extract_text(visitor_text=visit)
    return found


def test_no_text_in_the_body_is_under_9_points(pdf: PdfReader) -> None:
    """Paragraphs, tables, captions, the appendix's numbers and the plots' labels (as drawn,
    scaled) are at least 9 points; only the running header and footer are smaller."""
    sizes = []
    for page in pdf.pages:
        foot, top = _frame(page)
        sizes += [(size, text) for size, y, text in _sizes(page) if foot < y < top]
    assert len(sizes) > 1000
    assert min(size for size, _ in sizes) >= 9 - 1e-6, sorted(sizes)[:5]
    assert any("Bonus card" in text and size < 9.9 for size, text in sizes)  # a plot's label


def test_bookmarks_open_at_their_heading(pdf: PdfReader, par_report: Report) -> None:
    """Each outline entry is an /XYZ destination whose top is its heading's (not /Fit)."""
    outline = _outline(pdf)
    assert len(outline) == len(_headings(par_report))
    for item in outline:
        assert item.typ == "/XYZ" and item.top is not None, item
        number = pdf.get_destination_page_number(item)
        assert number is not None, item
        page = pdf.pages[number]
        (baseline,) = [y for _, y, text in _sizes(page) if text == item.title]
        assert baseline < float(item.top) < baseline + 20, (item.title, baseline, item.top)


def _appendix_text(pdf_bytes: bytes, tmp_path: Path) -> str:
    path = tmp_path / "report.pdf"
    path.write_bytes(pdf_bytes)
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True)
    # the annex's heading, not the pointers to it that earlier captions carry
    end = text.stdout.rindex("Annex C. Designer studies\n")
    return text.stdout[text.stdout.rindex("Annex B. Exact fractions\n", 0, end) : end]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_pdftotext_finds_every_exact_number_of_the_appendix_whole(
    pdf_bytes: bytes, par_report: Report, tmp_path: Path
) -> None:
    """Each fraction is on one line, or its numerator on one and "/denominator" on the
    next; each count on one line: no number is broken across lines (a broken one is found
    on no line whole; two numbers of neighbouring cells may be extracted on neighbouring
    lines)."""
    text = _appendix_text(pdf_bytes, tmp_path)
    lines = text.replace("\n/", "/").splitlines()
    (appendix,) = [s for s in par_report.sections if s.title == "Exact values"]
    values = [row[1] for grid in appendix.blocks if isinstance(grid, Grid) for row in grid.rows]
    assert len(values) > 15 and any(len(v) > 100 for v in values)
    for value in values:
        whole = "".join(value.split())  # a count's gaps between thousands are no characters
        # whole on one line (pdftotext may set a short name on the same line before it)
        assert any(line == whole or line.endswith(f" {whole}") for line in lines), value


def test_a_number_too_long_for_a_line_wraps_between_groups() -> None:
    numerator, denominator = 7**180, 3**230  # 153 and 110 digits: wider than the page
    grid = Grid(
        ("quantity", "exact value"),
        (("long", f"{numerator}/{denominator}"), ("short", "\u22125/311")),
        long_numbers=True,
    )
    (page,) = PdfReader(io.BytesIO(render_pdf(_mini_report("2026-01-02", grid)))).pages
    assert not _landscape(page)  # a portrait page: the number wraps between its groups
    lines = _lines(page)
    assert "\u22125/311" in lines
    numbers = [line for line in lines if re.fullmatch(r"/?\d+", line)]
    cut = next(i for i, line in enumerate(numbers) if line.startswith("/"))
    for parts, whole in ((numbers[:cut], numerator), (numbers[cut:], denominator)):
        parts = [part.lstrip("/") for part in parts]
        assert len(parts) > 1 and "".join(parts) == str(whole), parts
        assert all(len(part) % 3 == 0 for part in parts[1:]), parts  # whole groups


def test_no_heading_ends_a_pdf_page(page_lines: list[list[str]], par_report: Report) -> None:
    headings = set(_headings(par_report))
    for n, lines in enumerate(page_lines, start=1):
        # The page's last text is its "page X of Y"; what the page ends on comes before.
        assert lines[-1].startswith("page ") and lines[-2] not in headings, (n, lines[-2])


# --- The collection ---------------------------------------------------------------------


def _file(variant: Variant, fmt: ChartFormat) -> Path:
    return TABLES / variant.folder / variant.file_name(fmt)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.folder)
def test_file_names_say_the_game_and_the_variant(variant: Variant) -> None:
    files = sorted(p.name for p in (TABLES / variant.folder).iterdir())
    assert files == sorted(variant.file_name(f) for f in ChartFormat)
    assert all(name.startswith(f"community-blackjack-{variant.folder}-") for name in files)
    index = (TABLES / "README.md").read_text(encoding="utf-8")
    for fmt in ChartFormat:
        assert f"({variant.folder}/{variant.file_name(fmt)})" in index


def _titles(variant: Variant) -> dict[str, str]:
    """The title as each format of ``variant``'s chart states it."""
    html = _file(variant, ChartFormat.HTML).read_text(encoding="utf-8")
    svg = _file(variant, ChartFormat.SVG).read_text(encoding="utf-8")
    pdf = PdfReader(_file(variant, ChartFormat.PDF))
    assert pdf.metadata is not None
    return {
        "csv": _file(variant, ChartFormat.CSV).read_text(encoding="utf-8").splitlines()[0][2:],
        "md": _file(variant, ChartFormat.MD).read_text(encoding="utf-8").splitlines()[0][2:],
        "json": json.loads(_file(variant, ChartFormat.JSON).read_text())["title"],
        "html": re.search(r"<h1>(.*?)</h1>", html).group(1),  # type: ignore[union-attr]
        "svg": re.search(r"<title>(.*?)</title>", svg, re.S).group(1),  # type: ignore[union-attr]
        "pdf": str(pdf.metadata["/Title"]),
    }


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.folder)
def test_every_format_titles_the_chart_in_plain_words(variant: Variant) -> None:
    titles = _titles(variant)
    first = titles["json"]
    for fmt, text in titles.items():
        assert text.replace("&amp;", "&") == first, fmt
    assert "_" not in first and "bonus_card" not in first
    if variant.folder == "vegas-21":
        assert "Vegas 21 preset" in first
    else:
        assert "preset" not in first


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.folder)
def test_every_mark_on_a_grid_has_its_footnote(variant: Variant) -> None:
    html = _file(variant, ChartFormat.HTML).read_text(encoding="utf-8")
    targets = set(re.findall(r'href="#(x\d+)"', html))
    ids = set(re.findall(r'id="(x\d+)"', html))
    assert targets <= ids, sorted(targets - ids)
    md = _file(variant, ChartFormat.MD).read_text(encoding="utf-8")
    marks = {int(m) for m in re.findall(r"<sup>(\d+)</sup>", md)}
    notes = {int(m) for m in re.findall(r"^\| (\d+) \|", md, re.M)}
    assert marks <= notes, sorted(marks - notes)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.folder)
def test_the_drawn_title_stays_on_the_page(variant: Variant) -> None:
    """Nothing is drawn in the PNG's right margin (the page is 8.27 in at 150 dpi)."""
    from PIL import Image

    with Image.open(_file(variant, ChartFormat.PNG)) as image:
        grey = image.convert("L")
        width, height = grey.size
        margin = round(0.3 * width / 8.27)  # the last 0.3 in of the 0.55 in margin
        strip = grey.crop((width - margin, 0, width, height // 4))
        darkest, _ = strip.getextrema()
        assert isinstance(darkest, int) and darkest > 240, "something runs into the margin"


def test_the_cost_is_stated_one_way_everywhere() -> None:
    index = (TABLES / "README.md").read_text(encoding="utf-8")
    assert not re.search(r"\de-\d", index)
    for variant in VARIANTS:
        md = _file(variant, ChartFormat.MD).read_text(encoding="utf-8")
        found = re.search(r"the chart gives up (\S+) of the main wager per round", md)
        assert found is not None, variant.folder
        cost = found.group(1)
        start = f"| {variant.description} |"
        row = next(line for line in index.splitlines() if line.startswith(start))
        assert row.split(" | ")[3] == cost, (variant.folder, row)


# --- The dealer plot --------------------------------------------------------------------


@pytest.mark.parametrize("totals", [4, 5])
def test_dealer_series_differ_in_greyscale_and_for_colour_blind_readers(totals: int) -> None:
    colours = dealer_colours(totals + 2)
    for i, first in enumerate(colours):
        for second in colours[i + 1 :]:
            grey = abs(lab(linear_of(first))[0] - lab(linear_of(second))[0])
            assert grey >= 10, (first, second, grey)
            for matrix in (DEUTERANOPIA, PROTANOPIA):
                assert delta_e(simulate(first, matrix), simulate(second, matrix)) >= 10


def test_dealer_plot_names_its_segments() -> None:
    """Every result wide enough is written on its segment: bust, totals, natural."""
    labels = ["bust", "18", "19", "20", "21", "natural"]
    shares = [Fraction(3, 10), Fraction(1, 10), Fraction(1, 10), Fraction(1, 10),
              Fraction(3, 10), Fraction(1, 10)]  # fmt: skip
    rows = [(card, dict(zip(labels, shares, strict=True))) for card in range(1, 11)]
    drawn = re.findall(r">([^<>]+)</text>", standalone_svg(dealer_plot(rows)))
    assert drawn.count("bust") == drawn.count("21") == 10 + 1  # and the legend's
    assert "nat" not in drawn and drawn.count("natural") >= 1  # as the legend names it


@pytest.mark.parametrize("results", range(3, 13))  # a dealer standing on 21 ... on 12
def test_every_dealer_label_contrasts_with_its_segment(results: int) -> None:
    """WCAG 2's 4.5:1 for text, on every colour: black "21" on dark blue is gone."""
    for colour in dealer_colours(results):
        ink = {"white": "#ffffff", "black": "#000000"}[ink_on(colour)]
        assert contrast_ratio(linear_of(ink), linear_of(colour)) >= 4.5, (colour, ink)


# --- The decision graph -----------------------------------------------------------------


def test_a_graph_too_large_to_read_is_refused_as_a_picture_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "graph.svg"
    status, _, err = run_cli(["graph", "--decks", "1", "--bonus", "7", "-o", str(picture)], capsys)
    assert status != 0 and err.count("\n") == 1 and "--hand" in err, err
    assert not picture.exists()
    whole = tmp_path / "graph.dot"
    status, _, _ = run_cli(["graph", "--decks", "1", "--bonus", "7", "-o", str(whole)], capsys)
    assert status == 0 and whole.read_text().count(" -> ") > 1000
    status, _, _ = run_cli(
        ["graph", "--decks", "1", "--bonus", "7", "--hand", "9 3", "-o", str(picture)], capsys
    )
    assert status == 0 and picture.read_bytes().startswith(b"<?xml")


def test_no_header_wraps_past_two_lines_and_no_number_breaks(par_report: Report) -> None:
    """Every grid's columns fit the page at their floors: each header (and a numeric grid's
    row label) on at most two lines, every number whole; a grid too wide for that fails."""
    from reportlab.lib.pagesizes import A4

    from solver.present.report.pdf import text_width
    from solver.present.report.pdf_tables import fits, lines_needed
    from solver.present.report.pdf_type import register_fonts

    fonts = register_fonts()
    width = text_width(A4)
    grids = [b for s in par_report.sections for b in s.blocks if isinstance(b, Grid)]
    assert len(grids) > 20 and all(fits(g, width, fonts) for g in grids)
    wide = Grid(tuple(f"a header of {n} words too many to set" for n in range(9)),
                (tuple("1.234567" for _ in range(9)),))  # fmt: skip
    assert not fits(wide, width, fonts)
    assert lines_needed("a header of words", 30, fonts[1]) > 2


def test_a_table_splits_only_with_four_rows_on_each_side() -> None:
    """reportlab's split moves rows on so that the next page has four; a table of fewer
    than eight rows, or with fewer than four fitting, does not split."""
    from reportlab.platypus import Paragraph

    from solver.present.report.pdf_tables import KeptTable
    from solver.present.report.pdf_type import paragraph_styles, register_fonts

    styles = paragraph_styles(register_fonts())

    def table(rows: int) -> KeptTable:
        data = [[Paragraph(f"row {r}", styles["cell"])] for r in range(rows + 1)]
        made = KeptTable(data, repeatRows=1)
        made.wrap(300, 1000)
        return made

    ten = table(10)
    row = ten._rowHeights[1]
    parts = ten.split(300, ten._rowHeights[0] + 8.5 * row)  # eight rows would fit
    assert [len(p._cellvalues) - 1 for p in parts] == [6, 4]
    assert ten.split(300, ten._rowHeights[0] + 2.5 * row) == []  # two rows would fit
    seven = table(7)
    assert seven.split(300, seven._rowHeights[0] + 5.5 * row) == []
