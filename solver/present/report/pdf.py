"""The report as a PDF laid out with reportlab: A4 portrait, each annex from a new page."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from solver.model.process import check_stop
from solver.present.report.blocks import Annex, Block, Grid, Plot, Report, Section, Text
from solver.present.report.pdf_type import MARKUP, escape, paragraph_styles, register_fonts
from solver.present.report.plots import INK
from solver.present.templates import macro

#: A millimetre in points.
MM = 72 / 25.4
#: The page's margins (points): each side, the top (above the running header's rule's
#: foot) and the foot (above the footer).
SIDE, TOP, FOOT = 18 * MM, 20 * MM, 18 * MM
#: The running header's and footer's baselines, from the page's top and foot (points).
HEADER, FOOTER = 12 * MM, 10 * MM


@dataclass(frozen=True, slots=True)
class PageLayout:
    """How full one page of the PDF came out: the share of its frame left blank, and
    whether an annex starts on the next page (where a blank foot is the rule)."""

    page: int
    blank: float
    before_annex: bool


def render_pdf(report: Report, layout: list[PageLayout] | None = None) -> bytes:
    """The report as an A4 PDF: outline, linked contents, "page X of Y", vector plots.

    The core's sections follow one another; each annex starts a page of its own, its
    heading a top-level bookmark and its sections below it. Byte-identical for the same
    report: its creation date is the date the report prints (midnight UTC), which
    ``SOURCE_DATE_EPOCH`` fixes for reproducible builds. Every font is embedded (DejaVu
    Sans, the canvas's first font included), the language is English and a reader shows
    the document's title. reportlab writes no structure tree, so the PDF is not tagged
    (docs/report.md). ``layout``, when given, receives each page's :class:`PageLayout`.
    """
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.platypus import BaseDocTemplate, NextPageTemplate, PageBreak, Paragraph

    fonts = register_fonts()
    out = io.BytesIO()
    annex_pages: list[int] = []

    class Document(BaseDocTemplate):  # type: ignore[misc]
        """Adds an outline entry (bookmark) for every heading, opening at it, and measures
        how full each page came out."""

        def afterFlowable(self, flowable: Any) -> None:
            check_stop()  # a stopped job stops between two drawn blocks
            key = getattr(flowable, "outline_key", None)
            if key is not None and isinstance(flowable, Paragraph):
                # The heading's anchor: a destination at its top (/XYZ), made as it drew.
                level = getattr(flowable, "outline_level", 0)
                self.canv.addOutlineEntry(flowable.outline_title, key, level=level, closed=False)
                if getattr(flowable, "starts_annex", False):
                    annex_pages.append(self.canv.getPageNumber())

        def afterPage(self) -> None:
            frame = self.frame
            blank = (frame._y - frame._y1p) / frame._height if frame._height else 0.0
            pages.append((self.canv.getPageNumber(), max(blank, 0.0)))

    pages: list[tuple[int, float]] = []
    document = Document(
        out,
        pagesize=A4,
        leftMargin=SIDE,
        rightMargin=SIDE,
        topMargin=TOP,
        bottomMargin=FOOT,
        title=f"{report.title}: {report.subtitle}",
        author=report.generator,
        subject=report.identity,
        creator=report.generator,
        producer=report.generator,
        invariant=True,
        initialFontName=fonts[0],
        lang="en",
        displayDocTitle=True,
    )
    decorate = partial(_decorate, report, fonts[0])
    document.addPageTemplates(
        [_template("portrait", A4, decorate), _template("landscape", landscape(A4), decorate)]
    )
    styles = paragraph_styles(fonts)
    story = _cover(report, styles)
    width, height = text_width(A4), A4[1] - TOP - FOOT
    numbers = dict((id(s), n) for n, s in report.numbered())
    for section in report.core:
        story.extend(_pdf_section(numbers[id(section)], section, styles, width, height))
    for annex in report.annexes:
        wide = _wants_landscape(annex, fonts, text_width(A4))
        size = landscape(A4) if wide else A4
        name = f"annex{annex.letter}"
        heading = Paragraph(
            macro(MARKUP, "anchored", name, escape(annex.heading, styles["h1"].fontName)),
            styles["h1"],
        )
        heading.outline_key = name
        heading.outline_title = annex.heading
        heading.starts_annex = True
        template = "landscape" if wide else "portrait"
        story += [NextPageTemplate(template), PageBreak(), heading]
        one = len(annex.sections) == 1
        for section in annex.sections:
            story.extend(
                _pdf_section(
                    numbers[id(section)],
                    section,
                    styles,
                    text_width(size),
                    size[1] - TOP - FOOT,
                    level=1,
                    titled=not one,
                )
            )
    page_footer = partial(_page_of, fonts[0])
    document.build(story, canvasmaker=_numbered_canvas(page_footer, report.title_block.date))
    if layout is not None:
        layout += [PageLayout(n, blank, n + 1 in annex_pages) for n, blank in pages]
    return out.getvalue()


#: The frame's padding on each side (reportlab's default), inside the margins.
FRAME_PAD = 6


def text_width(size: tuple[float, float]) -> float:
    """The width a table or paragraph may take on a page of ``size``: inside the margins
    and the frame's padding."""
    return size[0] - 2 * SIDE - 2 * FRAME_PAD


def _template(name: str, size: tuple[float, float], decorate: Callable[..., None]) -> Any:
    """A page template of ``size`` with one frame inside the margins."""
    from reportlab.platypus import Frame, PageTemplate

    frame = Frame(SIDE, FOOT, size[0] - 2 * SIDE, size[1] - TOP - FOOT, id=name)
    return PageTemplate(id=name, frames=[frame], onPage=decorate, pagesize=size)


def _wants_landscape(annex: Annex, fonts: tuple[str, str], width: float) -> bool:
    """Whether ``annex`` has long numbers (Annex B's) that would not fit on one line of a
    portrait page ``width`` wide: its pages are then landscape, the next annex's portrait."""
    from solver.present.report.pdf_tables import long_width

    return any(
        isinstance(b, Grid) and b.long_numbers and long_width(b, *fonts, width) > width
        for section in annex.sections
        for b in section.blocks
    )


def _decorate(report: Report, font: str, canvas: Any, doc: Any) -> None:
    """The running header (title, figures hash, a rule) and the footer's date, on every page."""
    width, height = canvas._pagesize
    canvas.saveState()
    canvas.setFont(font, 7.5)
    canvas.setFillColorRGB(0.35, 0.35, 0.35)
    top = height - HEADER
    left, right = SIDE + 6, width - SIDE - 6  # the frame's padding
    canvas.drawString(left, top, f"{report.title}: {report.subtitle}")
    canvas.drawRightString(right, top, report.identity)
    canvas.setStrokeColorRGB(0.12, 0.23, 0.37)
    canvas.line(left, top - 2 * MM, right, top - 2 * MM)
    canvas.drawString(left, FOOTER, f"{report.generator}, {report.title_block.date}")
    canvas.restoreState()


def _page_of(font: str, canvas: Any, page: int, pages: int, width: float) -> None:
    """The footer's "page X of Y", at the right of a page ``width`` wide."""
    canvas.saveState()
    canvas.setFont(font, 7.5)
    canvas.setFillColorRGB(0.35, 0.35, 0.35)
    canvas.drawRightString(width - SIDE - 6, FOOTER, f"page {page} of {pages}")
    canvas.restoreState()


def _numbered_canvas(footer: Callable[[Any, int, int, float], None], date: str) -> Any:
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
            self._widths: list[float] = []

        def showPage(self) -> None:
            self._widths.append(self._pagesize[0])
            self.doForm(f"page-{len(self._widths)}")
            super().showPage()

        def save(self) -> None:
            total = len(self._widths)
            for n, width in enumerate(self._widths, start=1):
                self.beginForm(f"page-{n}")
                footer(self, n, total, width)
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


def _cover(report: Report, styles: dict[str, Any]) -> list[Any]:
    from reportlab.lib import colors
    from reportlab.platypus import HRFlowable, Paragraph, Spacer, Table, TableStyle

    block = report.title_block
    rules = macro(MARKUP, "lines", [escape(line) for line in block.rules])
    rows = [
        ("Game", escape(block.game)),
        ("Rules", rules),
        ("Paytable", escape(block.paytable)),
        ("Software", escape(block.software)),
        ("Figures hash", escape(block.figures_hash)),
        ("Date", escape(block.date)),
        *((escape(field), escape(entry)) for field, entry in block.fields),
    ]
    table = Table(
        [
            [Paragraph(macro(MARKUP, "bold", k), styles["cell"]), Paragraph(v, styles["cell"])]
            for k, v in rows
        ],
        colWidths=[78, None],
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
    numbers = dict((id(s), n) for n, s in report.numbered())
    links = [(f"s{numbers[id(s)]}", escape(f"{numbers[id(s)]}. {s.title}")) for s in report.core]
    links += [(f"annex{a.letter}", escape(a.heading)) for a in report.annexes]
    return [
        Spacer(1, 2),
        Paragraph(escape(report.title, styles["title"].fontName), styles["title"]),
        Paragraph(escape(report.subtitle), styles["subtitle"]),
        HRFlowable(width="100%", thickness=2, color=colors.HexColor(INK), spaceAfter=6),
        table,
        Spacer(1, 6),
        Paragraph(macro(MARKUP, "contents", links, INK), styles["body"]),
    ]


def _pdf_section(
    number: str,
    section: Section,
    styles: dict[str, Any],
    width: float,
    height: float,
    level: int = 0,
    titled: bool = True,
) -> list[Any]:
    from reportlab.platypus import KeepTogether, Paragraph, Table

    style = styles["h1" if level == 0 else "h2"]
    title = escape(f"{number}. {section.title}", style.fontName)
    heading = Paragraph(macro(MARKUP, "anchored", f"s{number}", title), style)
    heading.outline_key = f"s{number}"
    heading.outline_title = f"{number}. {section.title}"
    heading.outline_level = level
    # A table stays with its caption and the paragraph just before it, a plot with its
    # caption; the heading stays with what follows it. A group with a table that does not
    # fit what is left of a page moves to the next only when less than a quarter of a page
    # is left: otherwise it starts here and the table splits (its header row repeated, at
    # least four rows on each side), so no page but one before an annex is more than about
    # three tenths blank. A group without a table (a plot, at most a third of a page, or
    # prose) is kept whole.
    story: list[Any] = []
    held: list[Any] = [heading] if titled else []
    blocks = section.blocks
    for i, block in enumerate(blocks):
        # A paragraph leads a table (it stays with it); a plot, which cannot split, goes
        # to the next page alone when it does not fit, its paragraph left on this one.
        leads = isinstance(block, Text) and i + 1 < len(blocks) and isinstance(blocks[i + 1], Grid)
        held.extend(_pdf_block(block, styles, width))
        if leads:
            continue
        splits = any(isinstance(f, Table) for f in held)
        story.append(_table_group(held, height / 4) if splits else KeepTogether(held))
        held = []
    return story


#: Body rows of a table that must fit under its heading and lead paragraph for the table
#: to start on the page (else the group moves to the next page), and that the next page
#: must have of it when it splits (the header row repeated above them).
FIRST_ROWS, LAST_ROWS = 4, 4


def _table_group_class() -> Any:
    """A group (heading, lead paragraphs, a table, its caption) that splits only at the table.

    It starts on the current page when more than ``least`` of it is left and the table's
    header and first :data:`FIRST_ROWS` rows fit there under what comes before it, with
    at least :data:`LAST_ROWS` left for the next page: the table then splits, its header
    repeated on the next page, where what follows the table goes with the rest of it.
    Otherwise the whole group moves to the next page. So a heading never ends a page, a
    caption never starts one, and a long table leaves no page much blank.
    """
    from reportlab.platypus import FrameBreak, KeepTogether, Table

    class TableGroup(KeepTogether):  # type: ignore[misc]
        def __init__(self, flowables: list[Any], least: float) -> None:
            super().__init__(flowables)
            self._least = least

        def split(self, aW: float, aH: float) -> list[Any]:
            fits = _heights(self._content, aW, aH) <= aH
            here = self._split_here(aW, aH) if aH > self._least and not fits else None
            if here is not None:
                return here
            # reportlab's KeepTogether moves to the next frame when its content is taller
            # than the space left (and no maxHeight allows it to start here).
            self._maxHeight = None
            moved: list[Any] = super().split(aW, aH)
            return moved

        def _split_here(self, aW: float, aH: float) -> list[Any] | None:
            """The group split at its table to fill this page, or None if it cannot be."""
            t = next(i for i, f in enumerate(self._content) if isinstance(f, Table))
            above, table, below = self._content[:t], self._content[t], self._content[t + 1 :]
            # What follows the table goes on with its rest; when the table fits here but
            # not with it, its last rows go on with it.
            room = min(aH - _heights(above, aW, aH), table.wrap(aW, aH)[1] - 1)
            parts = table.split(aW, room)
            if len(parts) != 2 or len(parts[0]._cellvalues) <= FIRST_ROWS:
                return None
            if len(parts[1]._cellvalues) <= LAST_ROWS:  # its header repeated
                return None
            return [*above, parts[0], FrameBreak(), parts[1], *below]

    return TableGroup


def _heights(flowables: list[Any], aW: float, aH: float) -> float:
    """The height ``flowables`` take one after another, the space around each included."""
    total = 0.0
    for flowable in flowables:
        _, h = flowable.wrap(aW, aH)
        total += h + flowable.getSpaceBefore() + flowable.getSpaceAfter()
    return total


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
    from solver.present.report.pdf_tables import grid_table

    return [grid_table(block, styles, width), *caption]


def _vector_plot(block: Plot, width: float) -> Any:
    """The plot drawn by matplotlib straight onto the page, scaled to at most ``width``.

    Its text stays text, set in the report's embedded DejaVu Sans: selectable, and far
    cheaper than glyph outlines.
    """
    # Imported here: matplotlib and reportlab load only when a PDF is drawn.
    from solver.present.report.pdf_plots import PlotFlowable

    return PlotFlowable(block.draw, width)
