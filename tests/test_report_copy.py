"""Numbers copied out of the report's PDF: one number each, still set grouped (issue 25).

The gap between thousands is drawn as spacing (the digit before it advances further), not
as a character, so pdftotext and pypdf read ``1234567`` where the page shows "1 234 567".
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from pypdf import PdfReader

from solver.model.rules import Rules
from solver.present.report import Report, render_pdf
from solver.present.report.blocks import Grid, Section, Text, TitleBlock
from solver.present.report.pdf_type import GROUP_GAP, GROUPED, escape, register_fonts
from solver.present.style import amount, one_in, thousands

#: Numbers as the report prints them, and as a reader copies them.
NUMBERS = {
    thousands(-1234567): "\u22121234567",
    one_in(Fraction(1, 5980)): "1 in 5980",
    amount(12345.6): "+12345.6",
}


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-section report: the numbers in prose, in a wide table and in a bold header."""
    shown = list(NUMBERS)
    prose = Text("Numbers: " + "; ".join(shown) + ".")
    table = Grid(("what", f"bold {shown[0]}"), tuple((f"row {i}", n) for i, n in enumerate(shown)))
    block = TitleBlock("A game", ("decks: 6",), "15:4:1", "0.1.0", "0123456789ab", "2026-01-02")
    report = Report(Rules(), block, (Section(f"Only {shown[0]}", (prose, table)),))
    path = tmp_path_factory.mktemp("copy") / "numbers.pdf"
    path.write_bytes(render_pdf(report))
    return path


def _pypdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(path.read_bytes())).pages)


@pytest.mark.parametrize("extract", ["pypdf", "pdftotext"])
def test_numbers_copy_out_of_the_pdf_as_one_number(pdf: Path, extract: str) -> None:
    if extract == "pdftotext":
        if shutil.which("pdftotext") is None:
            pytest.skip("poppler's pdftotext is not installed")
        text = subprocess.run(
            ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
    else:
        text = _pypdf_text(pdf)
    for copied in NUMBERS.values():
        # prose, the table's row and (the first) its bold header and the section heading
        assert text.count(copied) >= 2, (copied, text)
    assert not re.search(r"\d[ \u00a0\u202f]\d{3}\b", text), text  # no group splits a number


def test_the_gap_is_in_the_digits_widths_not_a_character() -> None:
    """Each font's grouped twin: the same glyphs, every digit a group gap (a fifth of an
    em) wider, every other character as wide; the regular fonts untouched."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    for font in register_fonts():
        for ch in "0123456789":
            wider = stringWidth(ch, font + GROUPED, 10) - stringWidth(ch, font, 10)
            assert wider == pytest.approx(GROUP_GAP / 100)
        for ch in "A .%\u2212":
            assert stringWidth(ch, font + GROUPED, 10) == stringWidth(ch, font, 10)
    assert stringWidth("1", "DejaVuSans", 10) == pytest.approx(6.3623046875)  # DejaVu's own


def test_escape_marks_the_digit_before_each_gap() -> None:
    assert escape("1\u202f234\u202f567", "DejaVuSans-Bold") == (
        '<font name="DejaVuSans-Bold-Grouped">1</font>23'
        '<font name="DejaVuSans-Bold-Grouped">4</font>567'
    )
    assert "\u202f" not in escape("a\u202fb") and "\u00a0" in escape("a\u202fb")
