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
No file or network request is needed.
"""

from __future__ import annotations

import html

from solver.present.report.blocks import Block, Grid, Plot, Report, Section, Text
from solver.present.report.plots import inline_svg, phone_figures, standalone_svg
from solver.present.style import stacked_table_css

CSS = (
    """
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #222;
       max-width: 60rem; margin: 0 auto; padding: 1rem; line-height: 1.45; font-size: 1rem; }
header { border-bottom: 3px solid #1f3a5f; margin-bottom: 1rem; }
h1 { color: #1f3a5f; margin: 0 0 .2rem; font-size: 1.6rem; line-height: 1.2; }
h2 { color: #1f3a5f; border-bottom: 1px solid #c8d3e0; padding-bottom: .2rem;
     margin: 1.8rem 0 .6rem; font-size: 1.25rem; }
h3 { color: #1f3a5f; margin: 1.4rem 0 .5rem; font-size: 1.08rem; }
.subtitle { font-size: 1.05rem; color: #555; margin-top: 0; }
dl.titleblock { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .8rem;
                font-size: .88rem; margin: .6rem 0 1rem; }
dl.titleblock dt { font-weight: bold; color: #1f3a5f; }
dl.titleblock dd { margin: 0; overflow-wrap: anywhere; }
dl.titleblock ul { margin: 0; padding-left: 1.1rem; }
p { overflow-wrap: break-word; }
.table { margin: .8rem 0; }
.scroll { overflow-x: auto; max-width: 100%; }
.scroll:focus { outline: 2px solid #1f3a5f; }
.cue { display: none; font-size: .8rem; color: #444; margin: 0 0 .2rem; }
p.caption { font-size: .8rem; color: #555; margin: .35rem 0 0; }
table { border-collapse: collapse; font-size: .86rem; }
th { background: #1f3a5f; color: white; text-align: left; padding: .3rem .5rem;
     vertical-align: bottom; }
td { padding: .25rem .5rem; border-bottom: 1px solid #dde3ea; vertical-align: top; }
tr:nth-child(even) td { background: #f4f6f9; }
th.num { text-align: right; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.exact { font-family: "DejaVu Sans Mono", monospace; font-size: .75rem;
           overflow-wrap: anywhere; word-break: break-all; }
table.compact th, table.compact td { padding: .2rem .3rem; text-align: center; }
table.compact td:first-child, table.compact th:first-child { text-align: left;
                                                               white-space: nowrap; }
table.exact { table-layout: fixed; width: 100%; }
table.wide { min-width: 36rem; }
tr.break td { border-top: 3px solid #111; }
table.exact col.name { width: 35%; }
figure { margin: .8rem 0; break-inside: avoid; }
figure svg { width: 100%; max-width: 40rem; height: auto; display: block; }
.plot.phone { display: none; }
figcaption { font-size: .8rem; color: #555; }
nav ol { columns: 2 12rem; font-size: .9rem; margin: .4rem 0; }
nav a { display: block; min-height: 24px; padding: 2px 0; }
footer { margin-top: 2rem; font-size: .8rem; color: #777; border-top: 1px solid #ccc; }
@media (max-width: 30rem) {
  body { padding: .6rem; }
  h1 { font-size: 1.3rem; }
  table { font-size: .8rem; }
  .scroll.chart { border: 1px solid #c8d3e0; box-shadow: inset -10px 0 8px -8px #7a8899; }
  .cue { display: block; }
  .plot { display: none; }
  .plot.phone { display: block; }
"""
    + stacked_table_css("table.stack")
    + """
  table.stack tr.break { border-top: 3px solid #111; }
  table.stack td::before { color: #1f3a5f; }
  table.stack td.exact { overflow-wrap: anywhere; }
  table.stack.prose td { text-align: left; overflow-wrap: anywhere; }
  table.stack.prose td::before { float: none; display: block; margin: 0; }
  table.wide { min-width: 0; }
  table.exact { table-layout: auto; }
}
@page { size: A4 portrait; margin: 14mm 13mm 15mm; }
@media print {
  * { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  body { max-width: none; padding: 0; font-size: 8.6pt; line-height: 1.3; }
  h1 { font-size: 16pt; }
  h2 { font-size: 11.5pt; margin: 1.1em 0 .35em; break-after: avoid; page-break-after: avoid; }
  h3 { font-size: 10pt; margin: .9em 0 .3em; break-after: avoid; page-break-after: avoid; }
  h2 + *, h2 + * + *, h3 + *, h3 + * + * { break-before: avoid; page-break-before: avoid; }
  section.annex { break-before: page; page-break-before: always; }
  p.lead { break-after: avoid; page-break-after: avoid; }
  .cue { display: none; }
  p { margin: .35em 0; orphans: 3; widows: 3; }
  nav ol { columns: 3; font-size: 8pt; }
  .scroll { overflow: visible; margin: .4em 0; }
  table { font-size: 7.6pt; break-inside: avoid; page-break-inside: avoid; }
  table.wide { min-width: 0; }
  th, td { padding: .12em .45em; }
  p.caption { font-size: 7.5pt; }
  figure { margin: .4em 0; break-inside: avoid; page-break-inside: avoid; }
  figure svg { max-width: 15cm; max-height: 6cm; }
  figcaption { font-size: 7.5pt; }
  td.exact { font-size: 6.4pt; }
  footer { margin-top: 1em; }
}
"""
)

VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'


def render_html(report: Report) -> str:
    """The report as one self-contained HTML page (plots as inline SVG): the core, then
    each annex from a new printed page."""
    e = html.escape
    block = report.title_block
    rules = "".join(f"<li>{e(line)}</li>" for line in block.rules)
    numbers = {id(s): n for n, s in report.numbered()}
    contents = [
        f'<li><a href="#s{numbers[id(s)]}">{numbers[id(s)]}. {e(s.title)}</a></li>'
        for s in report.core
    ] + [f'<li><a href="#annex{a.letter}">{e(a.heading)}</a></li>' for a in report.annexes]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        VIEWPORT,
        f"<title>{e(report.title)}: {e(report.subtitle)}</title>",
        f"<style>{CSS}{_running(report)}</style></head><body>",
        f"<header><h1>{e(report.title)}</h1><p class=subtitle>{e(report.subtitle)}</p>",
        '<dl class="titleblock">',
        f"<dt>Game</dt><dd>{e(block.game)}</dd>",
        f"<dt>Rules</dt><dd><ul>{rules}</ul></dd>",
        f"<dt>Paytable</dt><dd>{e(block.paytable)}</dd>",
        f"<dt>Software</dt><dd>{e(block.software)}</dd>",
        f"<dt>Figures hash</dt><dd>{e(block.figures_hash)}</dd>",
        f"<dt>Date</dt><dd>{e(block.date)}</dd>",
        *(f"<dt>{e(field)}</dt><dd>{e(entry)}</dd>" for field, entry in block.fields),
        "</dl></header>",
        '<nav aria-label="Contents"><strong>Contents</strong><ol>',
        *contents,
        "</ol></nav>",
    ]
    for section in report.core:
        parts.append(_html_section(numbers[id(section)], section, "h2"))
    for annex in report.annexes:
        one = len(annex.sections) == 1
        parts.append(f'<section class="annex" id="annex{annex.letter}"><h2>{e(annex.heading)}</h2>')
        parts += [_html_section(numbers[id(s)], s, "h3", titled=not one) for s in annex.sections]
        parts.append("</section>")
    parts.append(f"<footer>Generated by {e(report.generator)} on {e(block.date)}.</footer>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _html_section(number: str, section: Section, tag: str, titled: bool = True) -> str:
    """One section: its numbered heading (left out when it is its annex's only one), then
    its blocks."""
    e = html.escape
    key = f"s{number.replace('.', '-')}"
    head = f"<{tag}>{e(number)}. {e(section.title)}</{tag}>" if titled else ""
    blocks = section.blocks
    body = [
        _html_block(b, f"{key}f{j}", isinstance(b, Text) and j < len(blocks)
                    and not isinstance(blocks[j], Text))
        for j, b in enumerate(blocks, 1)
    ]  # fmt: skip
    return f'<section id="s{number}">{head}' + "\n".join(body) + "</section>"


def _running(report: Report) -> str:
    """CSS for a printed page's margins: the report's title and figures hash at the top, the
    generator and date and "page X of Y" at the foot, in page-margin boxes (Chromium 131
    and later print them; a browser without them prints the page without)."""
    block = report.title_block

    def box(where: str, content: str) -> str:
        return f"  @{where} {{ content: {content}; {MARGIN_TEXT} }}\n"

    return (
        "@page {\n"
        + box("top-left", _css_string(f"{report.title}: {report.subtitle}"))
        + box("top-right", _css_string(report.identity))
        + box("bottom-left", _css_string(f"{report.generator}, {block.date}"))
        + box("bottom-right", '"page " counter(page) " of " counter(pages)')
        + "}\n"
    )


#: How a printed page's running header and footer are set.
MARGIN_TEXT = 'font: 7.5pt "DejaVu Sans", Arial, sans-serif; color: #595959;'


def _css_string(text: str) -> str:
    """``text`` as a quoted CSS string that is safe inside a ``<style>`` element.

    >>> print(_css_string('a "b" </style>'))
    "a \\"b\\" \\3c /style>"
    """
    quoted = text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
    return '"' + quoted.replace("\n", "\\a ") + '"'


def _html_block(block: Block, key: str, lead: bool = False) -> str:
    """One block as HTML; a ``lead`` paragraph (just before a table or plot) stays with it."""
    e = html.escape
    if isinstance(block, Text):
        return f"<p class=lead>{e(block.text)}</p>" if lead else f"<p>{e(block.text)}</p>"
    if isinstance(block, Plot):
        with phone_figures():
            phone = standalone_svg(block.draw())
        return (
            f'<figure><div class="plot">{inline_svg(block.svg(), key)}</div>'
            f'<div class="plot phone">{inline_svg(phone, key + "p")}</div>'
            f"<figcaption>{e(block.caption)}</figcaption></figure>"
        )
    return _html_table(block, key)


def _html_table(block: Grid, key: str) -> str:
    """A table: stacked on a phone, or (a chart) in a scrolling region with a cue.

    The caption is a paragraph after the table's box, never inside what scrolls, and
    names the table for assistive technology (``aria-describedby``).
    """
    e = html.escape
    exact = block.long_numbers
    stack = not block.compact
    # A two-column table of words (a title block, definitions) heads each card with its
    # first cell; its one other column's header on every card would only repeat itself.
    labelled = stack and (block.numeric or len(block.headers) > 2)
    rows = []
    for r, row in enumerate(block.rows):
        cells = []
        for c, text in enumerate(row):
            kind = "exact" if exact and c else "num" if block.numeric and c else ""
            colour = block.colours[r][c] if block.colours else None
            style = f' style="background:{colour}"' if colour else ""
            label = f' data-label="{e(block.headers[c])}"' if labelled and c else ""
            cells.append(f"<td{f' class={kind}' if kind else ''}{label}{style}>{e(text)}</td>")
        opening = "<tr class=break>" if r in block.breaks else "<tr>"
        rows.append(opening + "".join(cells) + "</tr>")
    head = "".join(
        f"<th{' class=num' if block.numeric and c else ''} scope=col>{e(h)}</th>"
        for c, h in enumerate(block.headers)
    )
    wide = len(block.headers) >= 7 and not block.compact  # never squeezed on a desktop
    prose = stack and not block.numeric and not exact  # words: left-aligned, wrapped anywhere
    kinds = (
        ("compact", block.compact),
        ("exact", exact),
        ("wide", wide),
        ("stack", stack),
        ("prose", prose),
    )
    classes = " ".join(name for name, on in kinds if on)
    cls = f' class="{classes}"' if classes else ""
    cols = '<colgroup><col class="name"><col></colgroup>' if exact else ""
    described = f' aria-describedby="{key}c"' if block.caption else ""
    caption = f'<p class=caption id="{key}c">{e(block.caption)}</p>' if block.caption else ""
    table = (
        f"<table{cls}{described}>{cols}<thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    if stack:
        return f'<div class="table">{table}{caption}</div>'
    return (
        '<div class="table"><p class="cue" aria-hidden="true">Scroll the table sideways '
        "\u2192</p>"
        f'<div class="scroll chart" role="region" tabindex="0" aria-label="{e(block.headers[0])} '
        f'(scrolls sideways)">{table}</div>{caption}</div>'
    )
