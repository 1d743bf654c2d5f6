"""The report's tables in the PDF: grids of figures and words, and tables of long numbers.

Imported only when a PDF is drawn: it loads reportlab.
"""

from __future__ import annotations

import re
from typing import Any

from reportlab.lib import colors
from reportlab.platypus import Paragraph, Table, TableStyle

from solver.present.report.blocks import Grid
from solver.present.report.pdf_type import escape, text_width
from solver.present.report.plots import INK
from solver.present.style import GROUP_SPACE, MINUS

#: A cell's left and right padding (points): a grid's, a compact grid's (a strategy chart,
#: a row of figures by Bonus card).
SIDE_PAD, COMPACT_PAD = 3.25, 2.0
#: A cell's left and right padding together, and a hair for rounding (points).
PAD = 2 * SIDE_PAD + 0.5
#: The fewest body rows either part of a split table keeps (the header repeated above the
#: second): a table never leaves a few rows stranded on a page.
MIN_ROWS = 4


class KeptTable(Table):  # type: ignore[misc]
    """A table that splits only where each part keeps at least :data:`MIN_ROWS` body rows:
    when reportlab's split would leave fewer on the next page, rows move over to it; when
    fewer fit here, it does not split here at all."""

    def split(self, availWidth: float, availHeight: float) -> list[Any]:
        parts: list[Any] = super().split(availWidth, availHeight)
        if len(parts) != 2:
            return parts
        head = self.repeatRows if isinstance(self.repeatRows, int) else len(self.repeatRows)
        body = len(self._cellvalues) - head
        kept = len(parts[0]._cellvalues) - head
        if body < 2 * MIN_ROWS or kept < MIN_ROWS:
            return []
        if body - kept >= MIN_ROWS:
            return parts
        # Split so that MIN_ROWS body rows go on: the height of every row before them.
        room = sum(self._rowHeights[: head + body - MIN_ROWS]) + 0.01
        return list(super().split(availWidth, room))


def grid_table(block: Grid, styles: dict[str, Any], width: float) -> Any:
    """``block`` as a reportlab table at most ``width`` wide, its header row repeated."""
    if block.long_numbers:
        return long_table(block, styles, width)

    def cell(text: str, column: int) -> Any:
        if block.numeric and column:
            return Paragraph(escape(unbroken(text)), styles["cell_right"])
        return Paragraph(escape(text), styles["cell"])

    data = [_header(block, styles, block.numeric)]
    data += [[cell(t, c) for c, t in enumerate(row)] for row in block.rows]
    fonts = (styles["cell"].fontName, styles["head"].fontName)
    table = KeptTable(
        data, colWidths=column_widths(block, width, fonts), repeatRows=1, hAlign="LEFT"
    )
    commands = _commands(styles, len(data), COMPACT_PAD if block.compact else SIDE_PAD)
    for r in block.breaks:
        commands.append(("LINEABOVE", (0, r + 1), (-1, r + 1), 1.5, colors.black))
    if block.colours:
        for r, row in enumerate(block.colours, start=1):
            for c, colour in enumerate(row):
                if colour:
                    commands.append(("BACKGROUND", (c, r), (c, r), colors.HexColor(colour)))
    table.setStyle(TableStyle(commands))
    return table


def _header(block: Grid, styles: dict[str, Any], right: bool) -> list[Any]:
    """The header row's cells: every column but the first aligned right when ``right``."""
    font = styles["head"].fontName
    return [
        Paragraph(escape(h, font), styles["head_right" if right and c else "head"])
        for c, h in enumerate(block.headers)
    ]


def _commands(styles: dict[str, Any], rows: int, side: float = SIDE_PAD) -> list[tuple[Any, ...]]:
    """The style every table shares: its header's band, rules and alternate shading."""
    commands: list[tuple[Any, ...]] = [
        # the cells' own font, not reportlab's unembedded Helvetica
        ("FONTNAME", (0, 0), (-1, -1), styles["cell"].fontName),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor(INK)),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.HexColor("#c8d3e0")),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("LEFTPADDING", (0, 0), (-1, -1), side),
        ("RIGHTPADDING", (0, 0), (-1, -1), side),
    ]
    for r in range(2, rows, 2):
        commands.append(("BACKGROUND", (0, r), (-1, r), colors.HexColor("#f4f6f9")))
    return commands


def fits(block: Grid, width: float, fonts: tuple[str, str]) -> bool:
    """Whether ``block`` sets within ``width`` with no header past two lines, no numeric
    grid's row header past two lines and no number broken: its columns' floors fit."""
    return block.long_numbers or sum(_floors(block, fonts)) <= width


def _floors(block: Grid, fonts: tuple[str, str]) -> list[float]:
    return _widths(block, fonts)[1]


def column_widths(block: Grid, width: float, fonts: tuple[str, str]) -> list[float]:
    """Column widths from the text's measured widths: no number is ever wrapped in its cell.

    A column is as wide as its widest cell when the table fits the page; otherwise its
    header gives way first (to two lines at most), then the columns of prose, never below
    their longest word, and a figure's interval, which goes under the figure; numbers
    (every cell of a numeric table but the first column's) are never broken.
    """
    full, floor = _widths(block, fonts)
    if sum(full) <= width:
        return full
    cells = _widths(block, fonts, headers=False)[0]
    middle = [max(c, f) for c, f in zip(cells, floor, strict=True)]
    upper, lower = (full, middle) if sum(middle) <= width else (middle, floor)
    spare = sum(upper) - sum(lower)
    excess = sum(upper) - width
    if spare <= excess:  # even at their floors too wide: share the page by the floors
        return [f * width / sum(floor) for f in floor]
    return [w - (w - f) * excess / spare for w, f in zip(upper, lower, strict=True)]


def _widths(
    block: Grid, fonts: tuple[str, str], headers: bool = True
) -> tuple[list[float], list[float]]:
    """Each column's whole width (its widest cell unbroken) and its floor (the least it
    takes with no header past two lines and no number broken)."""
    regular, bold = fonts

    def word_width(text: str, font: str) -> float:
        return max((text_width(w, font) for w in text.split(" ")), default=0.0)

    full, floor = [], []
    for c, header in enumerate(block.headers):
        cells = [row[c] for row in block.rows]
        head = text_width(header, bold) if headers else 0.0
        whole = max([head, *(text_width(t, regular) for t in cells)])
        keep = block.numeric and c > 0
        # a header never wraps past two lines, nor a numeric grid's row header; a figure
        # is never broken, though its interval may go under it: "+4.20%" / "(+2.80% to ...)"
        heads = two_line_width(header, bold)
        rows_head = c == 0 and block.numeric
        least = max([heads,
                     *((whole_width(t, regular) if keep else
                        two_line_width(t, regular) if rows_head else word_width(t, regular))
                       for t in cells)])  # fmt: skip
        pad = 2 * COMPACT_PAD + 0.5 if block.compact else PAD
        full.append(whole + pad)
        floor.append(least + pad)
    return full, floor


def unbroken(text: str) -> str:
    """A figure's cell with no break but before its interval's bracket: no-break spaces
    elsewhere (``-0.05 (-0.06 to -0.04)`` breaks only before the bracket).

    >>> unbroken("1.5 (1 to 2)") == "1.5 (1\u00a0to\u00a02)"
    True
    """
    parts = re.split(r" (?=\()", text)
    return " ".join(part.replace(" ", "\u00a0") for part in parts)


def whole_width(text: str, font: str) -> float:
    """The least width a figure's cell takes: the figure whole, and its interval whole
    under it (a break only before the interval's bracket).

    >>> from solver.present.report.pdf_type import register_fonts
    >>> _ = register_fonts()
    >>> whole_width("1.5 (1 to 2)", "DejaVuSans") == text_width("(1 to 2)", "DejaVuSans")
    True
    """
    return max(text_width(part, font) for part in re.split(r" (?=\()", text))


def two_line_width(text: str, font: str) -> float:
    """The narrowest width that sets ``text`` on at most two lines, broken at a space.

    >>> from solver.present.report.pdf_type import register_fonts
    >>> _ = register_fonts()
    >>> two_line_width("aa aa", "DejaVuSans") == text_width("aa", "DejaVuSans")
    True
    """
    words = text.split(" ")
    whole = text_width(text, font)
    if len(words) == 1:
        return whole
    return min(
        max(text_width(" ".join(words[:i]), font), text_width(" ".join(words[i:]), font))
        for i in range(1, len(words))
    )


def lines_needed(text: str, width: float, font: str) -> int:
    """How many lines ``text`` takes set ``width`` wide (broken at spaces, as a cell does)."""
    lines, line = 1, ""
    for word in text.split(" "):
        longer = f"{line} {word}" if line else word
        if line and text_width(longer, font) > width:
            lines, line = lines + 1, word
        else:
            line = longer
    return lines


# --- Long numbers -----------------------------------------------------------------------


def long_table(block: Grid, styles: dict[str, Any], width: float) -> Any:
    """A table of long exact numbers (the appendix's), each set on whole lines.

    Its first column (the names) takes at most a fifth of ``width``; each number is
    grouped by thousands and aligned right. A fraction that fits is set on one line;
    otherwise its numerator is on one line and, under it, its denominator after "/". A
    number wider than the column (none up to about 92 digits on a landscape page) wraps
    between groups of thousands, never inside one.
    """
    regular = styles["cell"].fontName
    names = _name_width(block, regular, styles["head"].fontName, width)
    room = width - names - PAD
    cells = [[number_lines(text, room, regular) for text in row[1:]] for row in block.rows]
    widest = max(
        [text_width(h, styles["head"].fontName) for h in block.headers[1:]]
        + [text_width(line, regular) for row in cells for lines in row for line in lines]
    )
    data = [_header(block, styles, right=True)]
    for row, numbers in zip(block.rows, cells, strict=True):
        data.append(
            [
                Paragraph(escape(row[0]), styles["cell"]),
                *([Paragraph(escape(line), styles["cell_right"]) for line in n] for n in numbers),
            ]
        )
    columns = [names, *[min(widest + PAD, room + PAD)] * (len(block.headers) - 1)]
    table = KeptTable(data, colWidths=columns, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle(_commands(styles, len(data))))
    return table


def long_width(block: Grid, font: str, bold: str, width: float) -> float:
    """How wide ``block`` (of long numbers) must be to set every number on one line."""
    longest = max(
        text_width(_grouped(part), font)
        for row in block.rows
        for text in row[1:]
        for part in _digits(text).split("/")
    )
    return _name_width(block, font, bold, width) + longest + text_width("/", font) + PAD


def _name_width(block: Grid, font: str, bold: str, width: float) -> float:
    """The first column's width: its longest entry, at most a fifth of ``width`` (a longer
    name wraps, so that the numbers keep their lines)."""
    entries = [text_width(block.headers[0], bold), *(text_width(r[0], font) for r in block.rows)]
    return min(max(entries) + PAD, width / 5)


def number_lines(text: str, room: float, font: str) -> list[str]:
    """An exact number (``p/q``, ``-p/q`` or a count) as lines at most ``room`` wide.

    >>> from solver.present.report.pdf_type import register_fonts
    >>> _ = register_fonts()
    >>> number_lines("\u22121234/56", 200, "DejaVuSans") == ["\u22121\u202f234/56"]
    True
    >>> number_lines("1234/56", 30, "DejaVuSans") == ["1\u202f234", "/56"]
    True
    """
    sign, digits = (MINUS, _digits(text)[1:]) if text.startswith(MINUS) else ("", _digits(text))
    whole = sign + "/".join(_grouped(part) for part in digits.split("/"))
    if text_width(whole, font) <= room:
        return [whole]
    numerator, _, denominator = digits.partition("/")
    lines = _wrapped(sign, numerator, room, font)
    return lines + (_wrapped("/", denominator, room, font) if denominator else [])


def _digits(text: str) -> str:
    """``text`` without its spaces: the digits, any sign and the fraction's slash."""
    return "".join(ch for ch in text if not ch.isspace())


def _grouped(digits: str) -> str:
    """``digits`` (and any sign) grouped by thousands with narrow no-break spaces."""
    head = len(digits) % 3 or 3
    groups = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
    return GROUP_SPACE.join(groups)


def _wrapped(lead: str, digits: str, room: float, font: str) -> list[str]:
    """``lead`` and ``digits`` grouped, broken into lines at most ``room`` wide between groups."""
    groups = _grouped(digits).split(GROUP_SPACE)
    lines: list[str] = []
    line = lead + groups[0]
    for group in groups[1:]:
        longer = line + GROUP_SPACE + group
        if text_width(longer, font) > room:
            lines.append(line)
            line = group
        else:
            line = longer
    return [*lines, line]
