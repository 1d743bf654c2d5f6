"""A result's plot as a file: PNG or SVG bytes that are the same for the same figure, and an
HTML page of a table with its plot (``cbj session`` and ``cbj sweep``).

Pure: a matplotlib figure or a :class:`~solver.present.tables.Table` and its SVG in, bytes
or text out.
"""

from __future__ import annotations

import html
import io
from typing import TYPE_CHECKING, Any

from solver.present.tables import Table

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: What each picture format's file says of itself: nothing that changes from run to run.
METADATA: dict[str, dict[str, Any]] = {"svg": {"Date": None}, "png": {"Software": None}}


def figure_bytes(figure: Figure, fmt: str) -> bytes:
    """``figure`` as PNG or SVG bytes (``fmt``), its SVG ids and text reproducible."""
    import matplotlib  # only a plot needs matplotlib

    out = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "cbj", "svg.fonttype": "none"}):
        figure.savefig(out, format=fmt, metadata=METADATA[fmt], dpi=120)
    return out.getvalue()


def table_page(table: Table, svg: bytes) -> str:
    """An HTML page: the table's title, notes and rows, then the plot (``svg``) inline."""
    head = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in table.headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in table.rows
    )
    notes = "".join(f"<p>{html.escape(n)}</p>" for n in table.notes)
    text = svg.decode()
    drawing = text[text.index("<svg") :].replace("<svg ", '<svg role="img" ', 1)
    title = html.escape(table.title)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title></head><body><main><h1>{title}</h1>{notes}"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        f"<figure>{drawing}<figcaption>{title}</figcaption></figure></main></body></html>\n"
    )
