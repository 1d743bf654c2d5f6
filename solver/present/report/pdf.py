"""The report as an A4 PDF laid out with reportlab."""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from solver.model.errors import ReportError
from solver.present.report.blocks import Block, Grid, Plot, Report, Section, Text
from solver.present.report.plots import INK

if TYPE_CHECKING:
    from svglib.fonts import FontMap


def render_pdf(report: Report) -> bytes:
    """The report as an A4 PDF: outline, linked contents, "page X of Y", vector plots.

    Byte-identical for the same report; the PDF's dates come from ``SOURCE_DATE_EPOCH``
    when it is set (reportlab reads it), else a fixed 2000-01-01.
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
    )
    styles = _styles(fonts)
    story = _cover(report, styles)
    for i, section in enumerate(report.sections, start=1):
        story.extend(_pdf_section(i, section, styles, document.width))

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
        canvasmaker=_numbered_canvas(page_footer),
    )
    return out.getvalue()


def _page_of(font: str, right: float, y: float, canvas: Any, page: int, pages: int) -> None:
    canvas.saveState()
    canvas.setFont(font, 7.5)
    canvas.setFillColorRGB(0.35, 0.35, 0.35)
    canvas.drawRightString(right, y, f"page {page} of {pages}")
    canvas.restoreState()


def _numbered_canvas(footer: Callable[[Any, int, int], None]) -> Any:
    """A canvas class that holds every page back until the page count is known."""
    from reportlab.pdfgen.canvas import Canvas

    class NumberedCanvas(Canvas):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            for n, state in enumerate(self._pages, start=1):
                self.__dict__.update(state)
                footer(self, n, total)
                super().showPage()
            super().save()

    return NumberedCanvas


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
                             spaceBefore=14, spaceAfter=6),
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
        Paragraph(escape(report.title), styles["title"]),
        Paragraph(escape(report.subtitle), styles["subtitle"]),
        HRFlowable(width="100%", thickness=2, color=colors.HexColor(INK), spaceAfter=6),
        table,
        Spacer(1, 6),
        Paragraph(f"<b>Contents:</b> {contents}", styles["body"]),
    ]


def _pdf_section(number_: int, section: Section, styles: dict[str, Any], width: float) -> list[Any]:
    from reportlab.platypus import KeepTogether, Paragraph

    heading = Paragraph(f'<a name="s{number_}"/>{number_}. {escape(section.title)}', styles["h1"])
    heading.outline_key = f"o{number_}"
    heading.outline_title = f"{number_}. {section.title}"
    # A table or plot stays with its caption and the paragraph just before it; the
    # heading stays with what follows it.
    story: list[Any] = []
    held: list[Any] = [heading]
    blocks = section.blocks
    for i, block in enumerate(blocks):
        held.extend(_pdf_block(block, styles, width))
        if isinstance(block, Text) and i + 1 < len(blocks) and not isinstance(blocks[i + 1], Text):
            continue
        story.append(KeepTogether(held))
        held = []
    return story


def _pdf_block(block: Block, styles: dict[str, Any], width: float) -> list[Any]:
    from reportlab.platypus import Paragraph

    if isinstance(block, Text):
        return [Paragraph(escape(block.text), styles["body"])]
    caption = [Paragraph(escape(block.caption), styles["caption"])] if block.caption else []
    if isinstance(block, Plot):
        return [_vector_plot(block, width), *caption]
    return [_pdf_table(block, styles, width), *caption]


def _vector_plot(block: Plot, width: float) -> Any:
    """The plot as reportlab vector drawing (through SVG), scaled to at most ``width``.

    Its text stays text, set in the report's embedded DejaVu Sans: selectable, and far
    cheaper than the glyph outlines matplotlib would otherwise write for svglib to convert.
    """
    from svglib.svglib import svg2rlg

    drawing = svg2rlg(io.BytesIO(block.svg().encode()), font_map=_plot_fonts())
    if drawing is None:
        raise ReportError("matplotlib wrote an SVG that svglib cannot read")
    scale = min(width * 0.92 / drawing.width, 1.0)
    drawing.scale(scale, scale)
    drawing.width, drawing.height = drawing.width * scale, drawing.height * scale
    drawing.hAlign = "LEFT"
    return drawing


@cache
def _plot_fonts() -> FontMap:
    """svglib's font map for the plots: DejaVu Sans is the reportlab font registered here.

    Any other family is refused (``("", False)``), never looked up on the system, so the
    PDF does not depend on the fonts a machine has installed.
    """
    from svglib.fonts import FontMap

    class PlotFonts(FontMap):
        def find_font(
            self, font_name: str, weight: str = "normal", style: str = "normal"
        ) -> tuple[str, bool]:
            if font_name.lower() != "dejavu sans" or style != "normal":
                return "", False
            return ("DejaVuSans-Bold" if weight == "bold" else "DejaVuSans"), True

    return PlotFonts()


def _pdf_table(block: Grid, styles: dict[str, Any], width: float) -> Any:
    from reportlab.lib import colors
    from reportlab.platypus import Paragraph, Table, TableStyle

    exact = block.headers[-1] == "exact value"

    def cell(text: str, column: int) -> Any:
        if exact and column:
            return Paragraph(escape(text), styles["mono"])
        style = "cell_right" if block.numeric and column else "cell"
        return Paragraph(escape(text), styles[style])

    data = [
        [
            Paragraph(escape(h), styles["head_right" if block.numeric and c else "head"])
            for c, h in enumerate(block.headers)
        ]
    ]
    data += [[cell(t, c) for c, t in enumerate(row)] for row in block.rows]
    widths = _column_widths(block, width)
    table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    commands: list[tuple[Any, ...]] = [
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


def _column_widths(block: Grid, width: float) -> list[float]:
    """Share the page width by the longest text in each column (first column wider)."""
    columns = len(block.headers)
    longest = [
        max(len(block.headers[c]), *(len(row[c]) for row in block.rows)) if block.rows else 1
        for c in range(columns)
    ]
    if block.headers[-1] == "exact value":
        return [width * 0.3, width * 0.7]
    weights = [min(max(n, 4), 60) + 2 for n in longest]
    total = sum(weights)
    natural = [width * w / total for w in weights]
    if sum(longest) < 70:  # a narrow table need not span the page
        scale = max(sum(longest) / 70, 0.55)
        natural = [w * scale for w in natural]
    # Never so narrow that a short label ("hard 10") wraps: about 5 points a character.
    fitted = [max(w, 5.0 * n + 9) for w, n in zip(natural, longest, strict=True)]
    if sum(fitted) <= width:
        return fitted
    # Too wide: shrink the columns of long text, never a column below its longest word.
    words = [
        max(len(word) for text in (block.headers[c], *(row[c] for row in block.rows))
            for word in (text.split() or [""]))
        for c in range(columns)
    ]  # fmt: skip
    floor = [5.0 * n + 9 for n in words]
    spare = sum(f - m for f, m in zip(fitted, floor, strict=True))
    excess = sum(fitted) - width
    if spare <= excess:
        return [w * width / sum(fitted) for w in fitted]
    return [f - (f - m) * excess / spare for f, m in zip(fitted, floor, strict=True)]
