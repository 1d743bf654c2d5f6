"""A result's plot as a file: PNG or SVG bytes that are the same for the same figure, and an
HTML page of a table with its plot (``cbj session`` and ``cbj sweep``).

Pure: a matplotlib figure or a :class:`~solver.present.tables.Table` and its SVG in, bytes
or text out.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree

from solver.present.tables import Table
from solver.present.templates import Markup, render

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: What each picture format's file says of itself: nothing that changes from run to run.
METADATA: dict[str, dict[str, Any]] = {"svg": {"Date": None}, "png": {"Software": None}}
#: The prefixes matplotlib's SVG gives its namespaces, kept when it is written again.
PREFIXES = {
    "": "http://www.w3.org/2000/svg",
    "xlink": "http://www.w3.org/1999/xlink",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "cc": "http://creativecommons.org/ns#",
    "dc": "http://purl.org/dc/elements/1.1/",
}


def figure_bytes(figure: Figure, fmt: str) -> bytes:
    """``figure`` as PNG or SVG bytes (``fmt``), its SVG ids and text reproducible."""
    import matplotlib  # only a plot needs matplotlib

    out = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "cbj", "svg.fonttype": "none"}):
        figure.savefig(out, format=fmt, metadata=METADATA[fmt], dpi=120)
    return out.getvalue()


def svg_element(document: str | bytes, prefix: str = "") -> Markup:
    """An SVG document as an element of an HTML page, announced as an image (``role``).

    With a ``prefix``, its ids are renamed ``prefix``-0, -1, ... in order and every
    reference (``#id``) with them: matplotlib names clip paths after object addresses,
    so renaming makes a page reproducible and keeps ids unique among several figures.

    >>> drawing = '<svg xmlns="http://www.w3.org/2000/svg"><g id="a"/><use href="#a"/></svg>'
    >>> print(svg_element(drawing, "p"))
    <svg xmlns="http://www.w3.org/2000/svg" role="img"><g id="p-0" /><use href="#p-0" /></svg>
    """
    for name, uri in PREFIXES.items():
        ElementTree.register_namespace(name, uri)
    root = ElementTree.fromstring(document)
    if prefix:
        elements = list(root.iter())
        ids = dict.fromkeys(e.attrib["id"] for e in elements if "id" in e.attrib)
        names = {old: f"{prefix}-{n}" for n, old in enumerate(ids)}
        for element in elements:
            for key, value in list(element.attrib.items()):
                element.set(key, names[value] if key == "id" else _references(value, names))
    root.set("role", "img")
    return Markup(ElementTree.tostring(root, encoding="unicode"))


def _references(value: str, names: dict[str, str]) -> str:
    """``value`` (an attribute's) with each ``#id`` of ``names`` renamed."""
    return _REFERENCE.sub(lambda m: "#" + names.get(m[1], m[1]), value)


_REFERENCE = re.compile(r"#([A-Za-z_][\w.-]*)")


def table_page(table: Table, svg: bytes) -> Markup:
    """An HTML page: the table's title, notes and rows, then the plot (``svg``) inline."""
    return render("plots/page.html", table=table, drawing=svg_element(svg))
