"""A PAR-style math report of the game: content built once, rendered to HTML or PDF.

:func:`build_report` (:mod:`.content`) computes every figure and lays it out as sections of
neutral blocks; :func:`render_html` (:mod:`.html`) and :func:`render_pdf` (:mod:`.pdf`) turn
the same sections into a self-contained web page or a PDF; :mod:`.plots` draws the figures.
"""

from __future__ import annotations

from pathlib import Path

from solver.model.errors import ReportError
from solver.present.report.content import Report, build_report
from solver.present.report.html import render_html
from solver.present.report.pdf import render_pdf

__all__ = [
    "Report",
    "build_report",
    "check_report_path",
    "render_html",
    "render_pdf",
    "write_report",
]


def check_report_path(path: Path) -> None:
    """Refuse a report file name that is neither ``.html`` (``.htm``) nor ``.pdf``."""
    if path.suffix.lower() not in (".pdf", ".html", ".htm"):
        raise ReportError(f"report file {str(path)!r} must end in .html or .pdf")


def write_report(report: Report, path: Path) -> None:
    """Write ``report`` as HTML or PDF, chosen by ``path``'s suffix."""
    check_report_path(path)
    if path.suffix.lower() == ".pdf":
        path.write_bytes(render_pdf(report))
    else:
        path.write_text(render_html(report), encoding="utf-8")
