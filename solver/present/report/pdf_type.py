"""The PDF's type: its fonts and their grouped twins, paragraph styles, text and widths.

Numbers are grouped by thousands with no character between the groups (see
:func:`escape`); :func:`text_width` measures text as it is set, gaps included.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from solver.present.report.plots import INK
from solver.present.style import GROUP_SPACE
from solver.present.templates import Markup, macro

#: The gap between groups of thousands, in thousandths of an em: a narrow space's width.
GROUP_GAP = 200
#: The size of table cells and captions (points); body text is 9.5, nothing is smaller
#: but the running header and footer.
CELL = 9.0
#: The suffix of each font's grouped twin (see :func:`escape`).
GROUPED = "-Grouped"
#: A gap of thousands after its digit, or a narrow no-break space alone (none of the
#: report's numbers has one): set as a smaller no-break space.
_GAP = re.compile("([0-9]?\u202f)")
#: The template of the PDF's paragraph markup.
MARKUP = "report/pdf.xml"


def escape(text: str, font: str = "DejaVuSans") -> Markup:
    """``text`` as reportlab paragraph markup in ``font``: escaped, numbers kept whole.

    The gap between thousands is spacing, not a character: the digit before it is set in
    the font's grouped twin (:func:`register_fonts`), whose digits are :data:`GROUP_GAP`
    wider. A number never breaks across lines, still reads grouped, and copies out of
    the PDF (pdftotext, pypdf, a reader's selection) as one number, ``1234567``.

    >>> print(escape("1\u202f000 < 2"))
    <font name="DejaVuSans-Grouped">1</font>000 &lt; 2
    """
    pieces = [  # text, a gap, text, a gap, ..., text
        ("", part) if n % 2 == 0 else ("digit", part[0]) if len(part) == 2 else ("narrow", "\u00a0")
        for n, part in enumerate(_GAP.split(text))
    ]
    return macro(MARKUP, "text", pieces, font + GROUPED)


def register_fonts() -> tuple[str, str]:
    """DejaVu Sans and its bold (shipped with matplotlib), so that PDF text matches the plots.

    Returns the two fonts' names; each has its grouped twin, the name and :data:`GROUPED`.
    """
    import matplotlib
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    names = ("DejaVuSans", "DejaVuSans-Bold")
    for name in names:
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(folder / f"{name}.ttf")))
        if name + GROUPED not in pdfmetrics.getRegisteredFontNames():
            # The same glyphs, each digit advancing a group gap further: the gap after
            # it is in the font's widths (which PDF readers and text extraction both use),
            # so no character marks it.
            grouped = TTFont(name + GROUPED, str(folder / f"{name}.ttf"))
            widths = dict(grouped.face.charWidths)
            for digit in "0123456789":
                widths[ord(digit)] = widths[ord(digit)] + GROUP_GAP
            grouped.face.charWidths = widths
            face_name = grouped.face.name  # reportlab shares one font per face name
            grouped.face.name = face_name + (
                b"-Grouped" if isinstance(face_name, bytes) else GROUPED
            )
            pdfmetrics.registerFont(grouped)
    return names


def paragraph_styles(fonts: tuple[str, str]) -> dict[str, Any]:
    """The report's paragraph styles by name, in ``fonts`` (regular and bold)."""
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle

    regular, bold = fonts
    ink = colors.HexColor(INK)
    return {
        "title": ParagraphStyle("title", fontName=bold, fontSize=22, leading=27, textColor=ink),
        "subtitle": ParagraphStyle("subtitle", fontName=regular, fontSize=13, leading=17,
                                   textColor=colors.HexColor("#555555"), spaceAfter=8),
        "h1": ParagraphStyle("h1", fontName=bold, fontSize=14, leading=18, textColor=ink,
                             spaceBefore=14, spaceAfter=6, keepWithNext=1),
        "h2": ParagraphStyle("h2", fontName=bold, fontSize=11.5, leading=15, textColor=ink,
                             spaceBefore=10, spaceAfter=5, keepWithNext=1),
        "body": ParagraphStyle("body", fontName=regular, fontSize=9.5, leading=13,
                               spaceAfter=6),
        "caption": ParagraphStyle("caption", fontName=regular, fontSize=CELL, leading=12,
                                  textColor=colors.HexColor("#555555"), spaceBefore=3,
                                  spaceAfter=10),
        "cell": ParagraphStyle("cell", fontName=regular, fontSize=CELL, leading=11.5),
        "cell_right": ParagraphStyle("cell_right", fontName=regular, fontSize=CELL, leading=11.5,
                                     alignment=2),
        "head": ParagraphStyle("head", fontName=bold, fontSize=CELL, leading=11.5,
                               textColor=colors.white),
        "head_right": ParagraphStyle("head_right", fontName=bold, fontSize=CELL, leading=11.5,
                                     textColor=colors.white, alignment=2),
    }  # fmt: skip


def text_width(text: str, font: str, size: float = CELL) -> float:
    """The width of ``text`` as :func:`escape` sets it in ``font`` at ``size`` (points).

    >>> _ = register_fonts()
    >>> text_width("1\u202f000", "DejaVuSans", 10) - text_width("1000", "DejaVuSans", 10)
    2.0
    """
    from reportlab.pdfbase.pdfmetrics import stringWidth

    gaps = text.count(GROUP_SPACE) * GROUP_GAP * size / 1000
    return float(stringWidth(text.replace(GROUP_SPACE, ""), font, size)) + gaps
