"""The report as one self-contained HTML page for phones, desktops and A4 paper.

Plots are inline SVG with their text kept as text; tables wider than a phone scroll inside
their own box; the print stylesheet sets A4 pages, keeps colours, never breaks a table or
a figure, and keeps headings with what follows. No file or network request is needed.
"""

from __future__ import annotations

import html

from solver.present.report.blocks import Block, Grid, Plot, Report, Text
from solver.present.report.plots import inline_svg

CSS = """
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #222;
       max-width: 60rem; margin: 0 auto; padding: 1rem; line-height: 1.45; font-size: 1rem; }
header { border-bottom: 3px solid #1f3a5f; margin-bottom: 1rem; }
h1 { color: #1f3a5f; margin: 0 0 .2rem; font-size: 1.6rem; line-height: 1.2; }
h2 { color: #1f3a5f; border-bottom: 1px solid #c8d3e0; padding-bottom: .2rem;
     margin: 1.8rem 0 .6rem; font-size: 1.25rem; }
.subtitle { font-size: 1.05rem; color: #555; margin-top: 0; }
dl.titleblock { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .8rem;
                font-size: .88rem; margin: .6rem 0 1rem; }
dl.titleblock dt { font-weight: bold; color: #1f3a5f; }
dl.titleblock dd { margin: 0; overflow-wrap: anywhere; }
dl.titleblock ul { margin: 0; padding-left: 1.1rem; }
p { overflow-wrap: break-word; }
.scroll { overflow-x: auto; max-width: 100%; margin: .8rem 0; }
table { border-collapse: collapse; font-size: .86rem; }
th { background: #1f3a5f; color: white; text-align: left; padding: .3rem .5rem;
     vertical-align: bottom; }
td { padding: .25rem .5rem; border-bottom: 1px solid #dde3ea; vertical-align: top; }
tr:nth-child(even) td { background: #f4f6f9; }
th.num { text-align: right; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.exact { font-family: "DejaVu Sans Mono", monospace; font-size: .74rem;
           overflow-wrap: anywhere; word-break: break-all; }
table.compact th, table.compact td { padding: .2rem .3rem; text-align: center; }
table.compact td:first-child, table.compact th:first-child { text-align: left;
                                                               white-space: nowrap; }
table.exact { table-layout: fixed; width: 100%; }
table.wide { min-width: 36rem; }
tr.break td { border-top: 3px solid #111; }
table.exact col.name { width: 35%; }
caption { caption-side: bottom; text-align: left; font-size: .8rem; color: #555;
          padding-top: .35rem; }
figure { margin: .8rem 0; break-inside: avoid; }
figure svg { width: 100%; max-width: 40rem; height: auto; display: block; }
figcaption { font-size: .8rem; color: #555; }
nav ol { columns: 2 12rem; font-size: .9rem; margin: .4rem 0; }
footer { margin-top: 2rem; font-size: .8rem; color: #777; border-top: 1px solid #ccc; }
@media (max-width: 30rem) {
  body { padding: .6rem; }
  h1 { font-size: 1.3rem; }
  table { font-size: .8rem; }
}
@page { size: A4 portrait; margin: 14mm 13mm 15mm; }
@media print {
  * { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  body { max-width: none; padding: 0; font-size: 8.6pt; line-height: 1.3; }
  h1 { font-size: 16pt; }
  h2 { font-size: 11.5pt; margin: 1.1em 0 .35em; break-after: avoid; page-break-after: avoid; }
  h2 + * { break-before: avoid; }
  p { margin: .35em 0; orphans: 3; widows: 3; }
  nav ol { columns: 3; font-size: 8pt; }
  .scroll { overflow: visible; margin: .4em 0; }
  table { font-size: 7.6pt; break-inside: avoid; page-break-inside: avoid; }
  table.wide { min-width: 0; }
  th, td { padding: .12em .45em; }
  caption { font-size: 7pt; }
  figure { margin: .4em 0; break-inside: avoid; page-break-inside: avoid; }
  figure svg { max-width: 15cm; max-height: 6cm; }
  figcaption { font-size: 7pt; }
  td.exact { font-size: 6.4pt; }
  footer { margin-top: 1em; }
}
"""

VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'


def render_html(report: Report) -> str:
    """The report as one self-contained HTML page (plots as inline SVG)."""
    e = html.escape
    block = report.title_block
    rules = "".join(f"<li>{e(line)}</li>" for line in block.rules)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        VIEWPORT,
        f"<title>{e(report.title)}: {e(report.subtitle)}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<header><h1>{e(report.title)}</h1><p class=subtitle>{e(report.subtitle)}</p>",
        '<dl class="titleblock">',
        f"<dt>Game</dt><dd>{e(block.game)}</dd>",
        f"<dt>Rules</dt><dd><ul>{rules}</ul></dd>",
        f"<dt>Paytable</dt><dd>{e(block.paytable)}</dd>",
        f"<dt>Revision</dt><dd>{e(block.revision)}</dd>",
        f"<dt>Date</dt><dd>{e(block.date)}</dd>",
        "</dl></header>",
        '<nav aria-label="Contents"><strong>Contents</strong><ol>',
        *(
            f'<li><a href="#s{i}">{e(s.title)}</a></li>'
            for i, s in enumerate(report.sections, start=1)
        ),
        "</ol></nav>",
    ]
    for i, section in enumerate(report.sections, start=1):
        parts.append(f'<section id="s{i}"><h2>{i}. {e(section.title)}</h2>')
        parts.extend(_html_block(b, f"s{i}f{j}") for j, b in enumerate(section.blocks, 1))
        parts.append("</section>")
    parts.append(f"<footer>Generated by {e(report.generator)} on {e(block.date)}.</footer>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _html_block(block: Block, key: str) -> str:
    e = html.escape
    if isinstance(block, Text):
        return f"<p>{e(block.text)}</p>"
    if isinstance(block, Plot):
        return (
            f"<figure>{inline_svg(block.svg(), key)}"
            f"<figcaption>{e(block.caption)}</figcaption></figure>"
        )
    return _html_table(block)


def _html_table(block: Grid) -> str:
    e = html.escape
    exact = block.headers[-1] == "exact value"
    rows = []
    for r, row in enumerate(block.rows):
        cells = []
        for c, text in enumerate(row):
            kind = "exact" if exact and c else "num" if block.numeric and c else ""
            colour = block.colours[r][c] if block.colours else None
            style = f' style="background:{colour}"' if colour else ""
            cells.append(f"<td{f' class={kind}' if kind else ''}{style}>{e(text)}</td>")
        opening = "<tr class=break>" if r in block.breaks else "<tr>"
        rows.append(opening + "".join(cells) + "</tr>")
    caption = f"<caption>{e(block.caption)}</caption>" if block.caption else ""
    head = "".join(
        f"<th{' class=num' if block.numeric and c else ''} scope=col>{e(h)}</th>"
        for c, h in enumerate(block.headers)
    )
    wide = len(block.headers) >= 7 and not block.compact  # scrolls on a phone, never squeezed
    kinds = (("compact", block.compact), ("exact", exact), ("wide", wide))
    classes = " ".join(name for name, on in kinds if on)
    cls = f' class="{classes}"' if classes else ""
    cols = '<colgroup><col class="name"><col></colgroup>' if exact else ""
    return (
        f'<div class="scroll"><table{cls}>{caption}{cols}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )
