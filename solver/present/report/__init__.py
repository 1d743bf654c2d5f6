"""A PAR-style math report of the game: content built once, rendered to HTML or PDF.

:func:`build_report` (:mod:`.content`) lays the figures of
:func:`solver.studies.report.report_figures` out as sections of neutral blocks
(:mod:`.blocks`); :func:`render_html` (:mod:`.html`) and :func:`render_pdf` (:mod:`.pdf`)
turn the same sections into a self-contained web page or a PDF; :mod:`.plots` draws the
figures.
"""

from __future__ import annotations

from pathlib import Path

from solver.present.files import check_writable, choose_format, write_atomic
from solver.present.report.blocks import Report
from solver.present.report.content import build_report
from solver.present.report.html import render_html
from solver.present.report.pdf import render_pdf

__all__ = [
    "REPORT_FORMATS",
    "Report",
    "build_report",
    "check_report_path",
    "render_html",
    "render_pdf",
    "render_report",
    "write_report",
]

#: Formats a report is written in.
REPORT_FORMATS = ("html", "pdf")


def check_report_path(path: Path, fmt: str | None = None) -> str:
    """The report's format (from ``fmt`` or ``path``'s extension), once ``path`` is writable.

    Checked before the report is computed, so a bad path fails in a moment.
    """
    chosen = choose_format(path, fmt, REPORT_FORMATS, "html")
    check_writable(path)
    return chosen


def render_report(report: Report, fmt: str) -> bytes:
    """The report as HTML or PDF bytes."""
    return render_pdf(report) if fmt == "pdf" else render_html(report).encode("utf-8")


def write_report(report: Report, path: Path, fmt: str | None = None) -> Path:
    """Write ``report`` to ``path`` atomically, as ``fmt`` or as its extension says."""
    return write_atomic(path, render_report(report, check_report_path(path, fmt)))
