"""The report as an A4 PDF laid out with reportlab."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape as _escape

from solver.present.report.blocks import Block, Grid, Plot, Report, Section, Text
from solver.present.report.plots import INK

#: The gap between groups of thousands, in thousandths of an em: a narrow space's width.
GROUP_GAP = 200
#: The suffix of each font's grouped twin (see :func:`escape`).
GROUPED = "-Grouped"
#: What stands for a narrow no-break space that does not follow a digit (none of the
#: report's numbers has one): a no-break space set three points smaller.
NARROW_SPACE_MARKUP = '<font size="-3">\u00a0</font>'
_GROUP = re.compile("([0-9])\u202f")


def escape(text: str, font: str = "DejaVuSans") -> str:
    """``text`` as reportlab paragraph markup in ``font``: escaped, numbers kept whole.

    The gap between thousands is spacing, not a character: the digit before it is set in
    the font's grouped twin (:func:`_register_fonts`), whose digits are :data:`GROUP_GAP`
    wider. A number never breaks across lines, still reads grouped, and copies out of
    the PDF (pdftotext, pypdf, a reader's selection) as one number, ``1234567``.

    >>> escape("1\u202f000 < 2")
    '<font name="DejaVuSans-Grouped">1</font>000 &lt; 2'
    """
    marked = _GROUP.sub(f'<font name="{font}{GROUPED}">\\1</font>', _escape(text))
    return marked.replace("\u202f", NARROW_SPACE_MARKUP)


def render_pdf(report: Report) -> bytes:
    """The report as an A4 PDF: outline, linked contents, "page X of Y", vector plots.

    Byte-identical for the same report: its creation date is the date the report prints
    (midnight UTC), which ``SOURCE_DATE_EPOCH`` fixes for reproducible builds. Every font
    is embedded (DejaVu Sans, the canvas's first font included) and the language is English.
    """
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    fonts = _register_fonts()
    out = io.BytesIO()

    class Document(SimpleDocTemplate):  # type: ignore[misc]
        """Adds an outline entry (bookmark) for every section heading."""

        def afterFlowable(self, flowable: Any) -> None:
            key = getattr(flowable, "outline_key", None)
            if key is not None and isinstance(flowable, Paragraph):
                self.canv.bookmarkPage(key)
                self.canv.addOutlineEntry(flowable.outline_title, key, level=0, closed=False)

    document = Document(
        out,
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=20 * mm,
        bottomMargin=18 * mm,
        title=f"{report.title}: {report.subtitle}",
        author=report.generator,
        subject=f"Revision {report.title_block.revision}",
        creator=report.generator,
        producer=report.generator,
        invariant=True,
        initialFontName=fonts[0],
        lang="en",
    )
    styles = _styles(fonts)
    story = _cover(report, styles)
    for i, section in enumerate(report.sections, start=1):
        story.extend(_pdf_section(i, section, styles, document.width, document.height))

    def decorate(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont(fonts[0], 7.5)
        canvas.setFillColorRGB(0.35, 0.35, 0.35)
        top = A4[1] - 12 * mm
        left, right = doc.leftMargin + 6, A4[0] - doc.rightMargin - 6  # the frame's padding
        canvas.drawString(left, top, f"{report.title}: {report.subtitle}")
        canvas.drawRightString(right, top, f"revision {report.title_block.revision}")
        canvas.setStrokeColorRGB(0.12, 0.23, 0.37)
        canvas.line(left, top - 2 * mm, right, top - 2 * mm)
        canvas.drawString(left, 10 * mm, f"{report.generator}, {report.title_block.date}")
        canvas.restoreState()

    page_footer = partial(_page_of, fonts[0], A4[0] - document.rightMargin - 6, 10 * mm)
    document.build(
        story,
        onFirstPage=decorate,
        onLaterPages=decorate,
        canvasmaker=_numbered_canvas(page_footer, report.title_block.date),
    )
    return out.getvalue()


def _page_of(font: str, right: float, y: float, canvas: Any, page: int, pages: int) -> None:
    canvas.saveState()
    canvas.setFont(font, 7.5)
    canvas.setFillColorRGB(0.35, 0.35, 0.35)
    canvas.drawRightString(right, y, f"page {page} of {pages}")
    canvas.restoreState()


def _numbered_canvas(footer: Callable[[Any, int, int], None], date: str) -> Any:
    """A canvas class that writes "page X of Y" once Y is known, dated ``date``.

    Each page draws a form (``page-N``) that is filled in when the document is saved:
    the pages themselves are written as they end, so every bookmark and link made while
    a page is laid out points to that page (holding pages back until the count is known
    pointed them all at page 1).
    """
    from reportlab.pdfgen.canvas import Canvas

    class NumberedCanvas(Canvas):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            _set_creation_date(self._doc, date)
            self._page_count = 0

        def showPage(self) -> None:
            self._page_count += 1
            self.doForm(f"page-{self._page_count}")
            super().showPage()

        def save(self) -> None:
            total = self._page_count
            for n in range(1, total + 1):
                self.beginForm(f"page-{n}")
                footer(self, n, total)
                self.endForm()
            super().save()

    return NumberedCanvas


def _set_creation_date(document: Any, date: str) -> None:
    """Date ``document`` (a reportlab ``PDFDocument``) at midnight UTC of ``date`` (ISO)."""
    import calendar
    import time

    moment = time.strptime(date, "%Y-%m-%d")
    stamp = document._timeStamp
    stamp.t = calendar.timegm(moment)
    stamp.lt = time.gmtime(stamp.t)
    stamp.YMDhms = tuple(stamp.lt)[:6]
    stamp.dhh = stamp.dmm = 0
    stamp.tzname = "UTC"


def _register_fonts() -> tuple[str, str, str]:
    """DejaVu Sans (shipped with matplotlib) so that PDF text matches the plots."""
    import matplotlib
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    names = ("DejaVuSans", "DejaVuSans-Bold", "DejaVuSansMono")
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


def _styles(fonts: tuple[str, str, str]) -> dict[str, Any]:
    from reportlab.lib import colors
    from reportlab.lib.styles import ParagraphStyle

    regular, bold, mono = fonts
    ink = colors.HexColor(INK)
    return {
        "title": ParagraphStyle("title", fontName=bold, fontSize=22, leading=27, textColor=ink),
        "subtitle": ParagraphStyle("subtitle", fontName=regular, fontSize=13, leading=17,
                                   textColor=colors.HexColor("#555555"), spaceAfter=8),
        "h1": ParagraphStyle("h1", fontName=bold, fontSize=14, leading=18, textColor=ink,
                             spaceBefore=14, spaceAfter=6, keepWithNext=1),
        "body": ParagraphStyle("body", fontName=regular, fontSize=9.5, leading=13,
                               spaceAfter=6),
        "caption": ParagraphStyle("caption", fontName=regular, fontSize=8, leading=10.5,
                                  textColor=colors.HexColor("#555555"), spaceBefore=3,
                                  spaceAfter=10),
        "cell": ParagraphStyle("cell", fontName=regular, fontSize=8, leading=10),
        "cell_right": ParagraphStyle("cell_right", fontName=regular, fontSize=8, leading=10,
                                     alignment=2),
        "head": ParagraphStyle("head", fontName=bold, fontSize=8, leading=10,
                               textColor=colors.white),
        "head_right": ParagraphStyle("head_right", fontName=bold, fontSize=8, leading=10,
                                     textColor=colors.white, alignment=2),
        "mono": ParagraphStyle("mono", fontName=mono, fontSize=6.5, leading=8.5),
    }  # fmt: skip


def _cover(report: Report, styles: dict[str, Any]) -> list[Any]:
    from reportlab.lib import colors
    from reportlab.platypus import HRFlowable, Paragraph, Spacer, Table, TableStyle

    block = report.title_block
    rules = "<br/>".join(escape(line) for line in block.rules)
    rows = [
        ("Game", escape(block.game)),
        ("Rules", rules),
        ("Paytable", escape(block.paytable)),
        ("Revision", escape(block.revision)),
        ("Date", escape(block.date)),
    ]
    table = Table(
        [[Paragraph(f"<b>{k}</b>", styles["cell"]), Paragraph(v, styles["cell"])] for k, v in rows],
        colWidths=[60, None],
        hAlign="LEFT",
    )
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), styles["cell"].fontName),  # not Helvetica
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ]
        )
    )
    contents = "; ".join(
        f'<a href="#s{i}" color="#1f3a5f">{i}. {escape(s.title)}</a>'
        for i, s in enumerate(report.sections, 1)
    )
    return [
        Spacer(1, 2),
        Paragraph(escape(report.title, styles["title"].fontName), styles["title"]),
        Paragraph(escape(report.subtitle), styles["subtitle"]),
        HRFlowable(width="100%", thickness=2, color=colors.HexColor(INK), spaceAfter=6),
        table,
        Spacer(1, 6),
        Paragraph(f"<b>Contents:</b> {contents}", styles["body"]),
    ]


def _pdf_section(
    number_: int, section: Section, styles: dict[str, Any], width: float, height: float
) -> list[Any]:
    from reportlab.platypus import KeepTogether, Paragraph, Table

    heading = Paragraph(
        f'<a name="s{number_}"/>{number_}. {escape(section.title, styles["h1"].fontName)}',
        styles["h1"],
    )
    heading.outline_key = f"o{number_}"
    heading.outline_title = f"{number_}. {section.title}"
    # A table or plot stays with its caption and the paragraph just before it; the
    # heading stays with what follows it. A group with a table that does not fit what is
    # left of a page moves to the next only when less than half a page is left: otherwise
    # it starts here and the table splits (its header row repeated), so no page but the
    # last is more than half blank. A group without a table (a plot, at most a third of a
    # page, or prose) is kept whole.
    story: list[Any] = []
    held: list[Any] = [heading]
    blocks = section.blocks
    for i, block in enumerate(blocks):
        leads = (
            isinstance(block, Text) and i + 1 < len(blocks) and not isinstance(blocks[i + 1], Text)
        )
        held.extend(_pdf_block(block, styles, width))
        if leads:
            continue
        splits = any(isinstance(f, Table) for f in held)
        story.append(_table_group(held, height / 2) if splits else KeepTogether(held))
        held = []
    return story


#: Body rows of a table that must fit under its heading and lead paragraph for the table
#: to start on the page (else the group moves to the next page).
FIRST_ROWS = 3


def _table_group_class() -> Any:
    """A group (heading, lead paragraphs, a table, its caption) that splits only at the table.

    It starts on the current page when more than ``least`` of it is left and the table's
    header and first :data:`FIRST_ROWS` rows fit there under what comes before it (the
    table then splits, its header repeated); otherwise it moves to the next page. So a
    heading never ends a page and no page is left more than half blank by a long table.
    """
    from reportlab.platypus import KeepTogether, Table

    class TableGroup(KeepTogether):  # type: ignore[misc]
        def __init__(self, flowables: list[Any], least: float) -> None:
            super().__init__(flowables)
            self._least = least

        def split(self, aW: float, aH: float) -> list[Any]:
            # reportlab's KeepTogether moves to the next frame when its content is taller
            # than the space left and that space exceeds maxHeight (or there is none).
            self._maxHeight = aH + 1 if self._starts_here(aW, aH) else None
            result: list[Any] = super().split(aW, aH)
            return result

        def _starts_here(self, aW: float, aH: float) -> bool:
            if aH <= self._least:
                return False
            above = 0.0
            for flowable in self._content:
                if isinstance(flowable, Table):
                    parts = flowable.split(aW, aH - above)
                    return len(parts) == 2 and len(parts[0]._cellvalues) > FIRST_ROWS
                _, h = flowable.wrap(aW, aH)
                above += h + flowable.getSpaceBefore() + flowable.getSpaceAfter()
            return True

    return TableGroup


def _table_group(flowables: list[Any], least: float) -> Any:
    return _table_group_class()(flowables, least)


def _pdf_block(block: Block, styles: dict[str, Any], width: float) -> list[Any]:
    """The flowables of ``block``: a paragraph, or a table or plot and its caption."""
    from reportlab.platypus import Paragraph

    if isinstance(block, Text):
        return [Paragraph(escape(block.text), styles["body"])]
    caption = [Paragraph(escape(block.caption), styles["caption"])] if block.caption else []
    if isinstance(block, Plot):
        return [_vector_plot(block, width), *caption]
    return [_pdf_table(block, styles, width), *caption]


def _vector_plot(block: Plot, width: float) -> Any:
    """The plot drawn by matplotlib straight onto the page, scaled to at most ``width``.

    Its text stays text, set in the report's embedded DejaVu Sans: selectable, and far
    cheaper than glyph outlines.
    """
    # Imported here: matplotlib and reportlab load only when a PDF is drawn.
    from solver.present.report.pdf_plots import PlotFlowable

    return PlotFlowable(block.draw, width)


def _pdf_table(block: Grid, styles: dict[str, Any], width: float) -> Any:
    from reportlab.lib import colors
    from reportlab.platypus import Paragraph, Table, TableStyle

    exact = block.headers[-1] == "exact value"

    def cell(text: str, column: int) -> Any:
        if exact and column:
            return Paragraph(escape(text, styles["mono"].fontName), styles["mono"])
        style = "cell_right" if block.numeric and column else "cell"
        return Paragraph(escape(text), styles[style])

    data = [
        [
            Paragraph(
                escape(h, styles["head"].fontName),
                styles["head_right" if block.numeric and c else "head"],
            )
            for c, h in enumerate(block.headers)
        ]
    ]
    data += [[cell(t, c) for c, t in enumerate(row)] for row in block.rows]
    fonts = (styles["cell"].fontName, styles["head"].fontName, styles["mono"].fontName)
    widths = _column_widths(block, width, fonts)
    table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), fonts[0]),  # the cells' own, not unembedded Helvetica
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor(INK)),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.HexColor("#c8d3e0")),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
    ]
    for r in range(2, len(data), 2):
        commands.append(("BACKGROUND", (0, r), (-1, r), colors.HexColor("#f4f6f9")))
    for r in block.breaks:
        commands.append(("LINEABOVE", (0, r + 1), (-1, r + 1), 1.5, colors.black))
    if block.colours:
        for r, row in enumerate(block.colours, start=1):
            for c, colour in enumerate(row):
                if colour:
                    commands.append(("BACKGROUND", (c, r), (c, r), colors.HexColor(colour)))
    table.setStyle(TableStyle(commands))
    return table


def _column_widths(block: Grid, width: float, fonts: tuple[str, str, str]) -> list[float]:
    """Column widths from the text's measured widths: no number is ever wrapped in its cell.

    A column is as wide as its widest cell when the table fits the page; otherwise the
    columns of prose give way, never below their longest word, while numbers (every cell
    of a numeric table but the first column's) keep their whole width.
    """
    from reportlab.pdfbase.pdfmetrics import stringWidth

    regular, bold, _ = fonts
    if block.headers[-1] == "exact value":
        return [width * 0.3, width * 0.7]
    pad = 8.5  # left and right padding, and a hair for rounding

    def text_width(text: str, font: str) -> float:  # a group gap is spacing (see escape)
        gaps = text.count("\u202f") * GROUP_GAP * 8 / 1000
        return float(stringWidth(text.replace("\u202f", ""), font, 8)) + gaps

    def word_width(text: str, font: str) -> float:
        return max((text_width(w, font) for w in text.split(" ")), default=0.0)

    full, floor = [], []
    for c, header in enumerate(block.headers):
        cells = [row[c] for row in block.rows]
        whole = max([text_width(header, bold), *(text_width(t, regular) for t in cells)])
        keep = block.numeric and c > 0
        least = max([word_width(header, bold),
                     *((text_width(t, regular) if keep else word_width(t, regular))
                       for t in cells)])  # fmt: skip
        full.append(whole + pad)
        floor.append(least + pad)
    if sum(full) <= width:
        return full
    spare = sum(full) - sum(floor)
    excess = sum(full) - width
    if spare <= excess:  # even at their floors too wide: share the page by the floors
        return [f * width / sum(floor) for f in floor]
    return [w - (w - f) * excess / spare for w, f in zip(full, floor, strict=True)]
