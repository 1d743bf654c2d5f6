"""The workbench's Sensitivity page (``cbj sweep``) as HTML: its form and its answer, the
table and the plot of the edge against one parameter, the game in force marked in both.

Pure: a :class:`~solver.results.sweep.SweepResult` and its plot (the SVG ``cbj sweep --plot``
draws, at two sizes) in, :class:`Markup` out, drawn by the templates of
``templates/sensitivity/``.  The table is :func:`~solver.present.sweep.sweep_table`'s, row
for row, each figure carrying its value for scripts and tests.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from solver.present.sweep import SWEEP_FIGURES, sweep_table
from solver.present.templates import Markup, render
from solver.results.sweep import SweepResult

#: The namespaces of matplotlib's SVG, kept as they were when it is written again inline:
#: SVG's the default, XLink's as ``xlink`` (an HTML page reads ``xlink:href`` by that name).
SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)


def inline_svg(data: bytes, label: str) -> Markup:
    """An SVG file's drawing for a page: no prolog, no metadata, named for screen readers
    as an image called ``label``.

    >>> inline_svg(b'<svg xmlns="http://www.w3.org/2000/svg"><metadata/></svg>', "a plot")
    Markup('<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="a plot" />')
    """
    root = ET.fromstring(data)
    for metadata in root.findall(f"{{{SVG}}}metadata"):
        root.remove(metadata)
    root.set("role", "img")
    root.set("aria-label", label)
    return Markup(ET.tostring(root, encoding="unicode"))


def _rows(result: SweepResult) -> list[dict[str, Any]]:
    """Each point as the template draws it: its cells' texts, its figures' values, its mark."""
    table = sweep_table(result)
    return [
        {
            "cells": [str(text) for text in row],
            "figures": [(key, repr(float(getattr(point, key)))) for key in SWEEP_FIGURES],
            "value": f"{point.value.numerator}/{point.value.denominator}",
            "in_force": point.in_force,
        }
        for row, point in zip(table.rows, result.points, strict=True)
    ]


def sweep_html(result: SweepResult, wide: bytes, narrow: bytes) -> Markup:
    """The answer: the plot (``wide`` and ``narrow``: its SVG for a wide screen and for a
    phone), then the table, one row per value, the game in force marked, and its notes."""
    table = sweep_table(result)
    label = (
        f"{table.title}: each wager's house edge and the round's SD against the "
        f"{result.varied.label}, the game in force marked (the table below gives every value)"
    )
    return render(
        "sensitivity/answer.html",
        title=table.title,
        headers=table.headers,
        rows=_rows(result),
        notes=table.notes,
        vary=result.varied.name,
        wide=inline_svg(wide, label),
        narrow=inline_svg(narrow, label),
    )


def sensitivity_body(
    sweep_fields: Markup, rules_fields: Markup, left_out: Markup, answer: Markup
) -> Markup:
    """The page's body: the form (what to vary and its range, then the rules, then what of
    ``cbj sweep`` the page leaves out) beside the answer."""
    return render(
        "sensitivity/body.html",
        sweep_fields=sweep_fields,
        rules_fields=rules_fields,
        left_out=left_out,
        answer=answer,
    )
