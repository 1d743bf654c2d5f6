"""The report as one self-contained HTML page for phones, desktops and A4 paper.

Plots are inline SVG with their text kept as text, drawn twice: for a desktop or paper,
and narrower for a phone (shown by a media query) so that their text is 12 px there too.
On a phone every table of figures stacks, one row a card of "header: value" lines, so no
column is hidden (a table of words, the manifest's, puts each value under its header, left
aligned and wrapped anywhere: a hash or a command line never runs off the screen; a table
of two columns of words, as the title block, under its first cell alone); the
strategy chart, a grid that must stay a grid, scrolls inside a labelled region with a
visible cue, its caption outside the scrolling box. Text is at least 12 px and links at
least 24 px tall on a phone. The print stylesheet sets A4 pages with a running header
and "page X of Y" (page-margin boxes), keeps colours, never breaks a table or a figure,
and keeps headings with what follows.
No file or network request is needed. The page, its style sheet and the blocks are
templates (``templates/report/page.html``, ``blocks.html``); this module gives them the
report's blocks as plain values.
"""

from __future__ import annotations

from typing import Any

from solver.present.plot_files import svg_element
from solver.present.report.blocks import Block, Grid, Plot, Report, Section, Text
from solver.present.report.plots import phone_figures, standalone_svg
from solver.present.style import stacked_table_css
from solver.present.templates import Markup, render


def render_html(report: Report) -> Markup:
    """The report as one self-contained HTML page (plots as inline SVG): the core, then
    each annex from a new printed page (templates/report/page.html)."""
    numbers = {id(s): n for n, s in report.numbered()}
    annexes = [
        (annex, [_section(numbers[id(s)], s, 3, len(annex.sections) > 1) for s in annex.sections])
        for annex in report.annexes
    ]
    return render(
        "report/page.html",
        report=report,
        block=report.title_block,
        stacked=Markup(stacked_table_css("table.stack")),  # CSS, for inside <style>
        running=_running(report),
        core=[_section(numbers[id(s)], s, 2) for s in report.core],
        annexes=annexes,
    )


def _section(number: str, section: Section, level: int, titled: bool = True) -> dict[str, Any]:
    """One section: its number, its title (None when it is its annex's only one, so left
    out), its heading's level and its blocks."""
    key = f"s{number.replace('.', '-')}"
    blocks = section.blocks
    return {
        "number": number,
        "title": section.title if titled else None,
        "level": level,
        "blocks": [
            _block(b, f"{key}f{j}", isinstance(b, Text) and j < len(blocks)
                   and not isinstance(blocks[j], Text))
            for j, b in enumerate(blocks, 1)
        ],
    }  # fmt: skip


def _running(report: Report) -> dict[str, Markup]:
    """A printed page's running header and footer: the report's title and figures hash at
    the top, the generator and date at the foot, as CSS strings."""
    return {
        "title": _css_string(f"{report.title}: {report.subtitle}"),
        "identity": _css_string(report.identity),
        "generator": _css_string(f"{report.generator}, {report.title_block.date}"),
    }


def _css_string(text: str) -> Markup:
    """``text`` as a quoted CSS string that is safe inside a ``<style>`` element.

    >>> print(_css_string('a "b" </style>'))
    "a \\"b\\" \\3c /style>"
    """
    quoted = text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
    return Markup('"' + quoted.replace("\n", "\\a ") + '"')  # CSS, escaped for a style sheet


def _block(block: Block, key: str, lead: bool = False) -> dict[str, Any]:
    """One block; a ``lead`` paragraph (just before a table or plot) stays with it."""
    if isinstance(block, Text):
        return {"kind": "text", "text": block.text, "lead": lead}
    if isinstance(block, Plot):
        with phone_figures():
            phone = standalone_svg(block.draw())
        return {
            "kind": "plot",
            "desktop": svg_element(block.svg(), key),
            "phone": svg_element(phone, key + "p"),
            "caption": block.caption,
        }
    return _table(block, key)


def _table(block: Grid, key: str) -> dict[str, Any]:
    """A table's cells, each with its class, its header for a phone's card and its colour;
    a chart (``compact``) scrolls sideways, any other table stacks on a phone."""
    exact = block.long_numbers
    stack = not block.compact
    # A two-column table of words (a title block, definitions) heads each card with its
    # first cell; its one other column's header on every card would only repeat itself.
    labelled = stack and (block.numeric or len(block.headers) > 2)
    kinds = ["", *("exact" if exact else "num" if block.numeric else "" for _ in block.headers[1:])]
    labels = [None, *(block.headers[1:] if labelled else [None] * (len(block.headers) - 1))]
    rows = [
        (r in block.breaks, [
            (text, kinds[c], labels[c], block.colours[r][c] if block.colours else None)
            for c, text in enumerate(row)
        ])
        for r, row in enumerate(block.rows)
    ]  # fmt: skip
    wide = len(block.headers) >= 7 and not block.compact  # never squeezed on a desktop
    prose = stack and not block.numeric and not exact  # words: left-aligned, wrapped anywhere
    classes = (
        ("compact", block.compact),
        ("exact", exact),
        ("wide", wide),
        ("stack", stack),
        ("prose", prose),
    )
    return {
        "kind": "table",
        "key": key,
        "classes": " ".join(name for name, on in classes if on),
        "exact": exact,
        "stack": stack,
        "region": block.headers[0],
        "headers": [(h, block.numeric and c > 0) for c, h in enumerate(block.headers)],
        "rows": rows,
        "caption": block.caption,
    }
