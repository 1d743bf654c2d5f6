"""The report's plots drawn straight onto the PDF's page, against matplotlib's own drawing.

:mod:`solver.present.report.pdf_plots` is a matplotlib renderer on reportlab's canvas.
Its twins: matplotlib's layout, which says where each label's box is (every label the
renderer sets must be text on the page at that box), and matplotlib's Agg renderer, whose
picture of the same figure the page's must match but for anti-aliasing. Also the dealer
plot's labels: each inside its segment, legible on its colour.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from solver.present.report import Report
from solver.present.report.blocks import Plot
from solver.present.report.pdf_plots import CanvasRenderer, PlotFlowable
from solver.present.report.pdf_type import register_fonts
from solver.present.report.plots import dealer_plot


def _mixed() -> Figure:
    """A figure with what the report's plots lack: mathematical text, a turned anchored
    label, a translucent fill, a dashed curve and a clip path."""
    figure = Figure(figsize=(4, 2.5), layout="constrained")
    axes = figure.add_subplot()
    axes.fill_between([0, 1, 2], [0, 1, 0], color="#0072b2", alpha=0.5)
    axes.plot([0, 1, 2], [0.2, 0.8, 0.4], "--", color="black")
    axes.set_title(r"$\sigma^2$ of the round", fontsize=10)
    axes.text(1, 0.5, "turned", rotation=30, rotation_mode="anchor", ha="center")
    axes.set_ylabel("share")
    return figure


@pytest.fixture(scope="module")
def plots(par_report: Report) -> list[Plot]:
    """The session's report's plots, and :func:`_mixed`."""
    found = [b for s in par_report.sections for b in s.blocks if isinstance(b, Plot)]
    assert len(found) == 3  # the Bonus ratio, the sensitivity to each pay, the dealer
    return [*found, Plot(_mixed, "")]


class Recorder(CanvasRenderer):
    """The renderer, noting each string it sets as text: the string and its artist."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.set: list[tuple[str, Any]] = []

    def draw_text(self, gc: Any, x: float, y: float, s: str, prop: Any, angle: float,
                  ismath: Any = False, mtext: Any = None) -> None:  # fmt: skip
        super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
        if not ismath:
            self.set.append((s, mtext)) if s.strip() else None


def _page(plot: Plot) -> tuple[bytes, Recorder, Figure]:
    """A one-page PDF of ``plot`` drawn at its own size, what its renderer set, the figure."""
    register_fonts()
    flowable = PlotFlowable(plot.draw, 1e6)  # wide enough to be drawn unscaled
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(flowable.width, flowable.height))
    canvas.setFont("DejaVuSans", 10)
    renderer = Recorder(canvas, flowable.width, flowable.height)
    flowable.figure.draw(renderer)
    canvas.showPage()
    canvas.save()
    return out.getvalue(), renderer, flowable.figure


def _placed(pdf: bytes) -> list[tuple[str, float, float]]:
    """Each string on the page: its text and the start of its baseline (x, y)."""
    found: list[tuple[str, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], *_: Any) -> None:
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            found.append((text.strip(), x, y))

    PdfReader(io.BytesIO(pdf)).pages[0].extract_text(visitor_text=visit)
    return found


def test_every_label_is_text_inside_the_box_matplotlib_lays_out(plots: list[Plot]) -> None:
    """Each string the renderer sets is text on the page, and an unturned one starts and
    ends where matplotlib's layout put its box (to a point: the PDF font's widths are
    unhinted) with its baseline inside it."""
    for plot in plots:
        pdf, renderer, _ = _page(plot)
        placed = _placed(pdf)
        assert sorted(t for t, *_ in placed) == sorted(s.strip() for s, _ in renderer.set)
        for text, x, y in placed:
            artists = [m for s, m in renderer.set if s.strip() == text]
            if any(m is None or m.get_rotation() != 0 for m in artists):
                continue
            right = x + stringWidth(text, "DejaVuSans", artists[0].get_fontsize())
            boxes = [m.get_window_extent() for m in artists]
            assert any(
                b.x0 - 1 < x < b.x0 + 1 and b.x1 - 1 < right < b.x1 + 1 and b.y0 <= y <= b.y1
                for b in boxes
            ), (text, x, right, y, boxes)
    _, mixed, _ = _page(plots[-1])
    assert "turned" in [s for s, _ in mixed.set]


def _pixels(png: bytes | Path) -> Any:
    source = io.BytesIO(png) if isinstance(png, bytes) else png
    with Image.open(source) as image:
        return np.asarray(image.convert("L"), dtype=float)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_the_page_pictures_each_plot_as_matplotlibs_agg_does(
    plots: list[Plot], tmp_path: Path
) -> None:
    """Rasterised at 72 dpi, the page and Agg's PNG differ by at most a few grey levels on
    average over every 8 by 8 block of pixels (anti-aliasing and hinting differ; a missing
    bar, label or colour does not pass)."""
    for n, plot in enumerate(plots):
        pdf, _, _ = _page(plot)
        path = tmp_path / f"{n}.pdf"
        path.write_bytes(pdf)
        rasterise = [
            "pdftoppm",
            "-r",
            "72",
            "-png",
            "-singlefile",
            str(path),
            str(path.with_suffix("")),
        ]
        subprocess.run(rasterise, check=True)
        agg = io.BytesIO()
        plot.draw().savefig(agg, format="png", dpi=72)
        page, own = _pixels(path.with_suffix(".png")), _pixels(agg.getvalue())
        h, w = (min(a, b) // 8 * 8 for a, b in zip(page.shape, own.shape, strict=True))
        blocks = [p[:h, :w].reshape(h // 8, 8, w // 8, 8).mean(axis=(1, 3)) for p in (page, own)]
        assert np.abs(blocks[0] - blocks[1]).mean() < 6, n


def test_the_dealers_segments_are_named_only_inside_themselves() -> None:
    """A name is drawn only where it fits its segment, a point and a half clear of each
    end, as measured on the page; a segment a fifth of the axis wide is always named."""
    labels = ["bust", "17", "18", "19", "20", "21", "natural"]
    shares = ([2, 20, 20, 20, 20, 10, 8], [4, 12, 12, 12, 12, 12, 36], [6, 6, 6, 6, 6, 30, 40])
    rows = [
        (card, dict(zip(labels, [Fraction(k, 100) for k in row], strict=True)))
        for card, row in enumerate(shares, start=1)
    ]
    pdf, _, figure = _page(Plot(lambda: dealer_plot(rows), ""))
    axes = figure.axes[0]
    segments = [(p, p.get_window_extent()) for p in axes.patches if isinstance(p, Rectangle)]
    top = axes.get_window_extent().y1  # the legend is above the axes
    names = {"bust", "17", "18", "19", "20", "21", "natural"}
    placed = [(t, x, y) for t, x, y in _placed(pdf) if t in names and y < top]
    named = []
    for text, x, y in placed:
        right = x + stringWidth(text, "DejaVuSans", 10)
        inside = [
            p for p, b in segments if b.x0 + 1.5 <= x and right <= b.x1 - 1.5 and b.y0 < y < b.y1
        ]
        assert len(inside) == 1, (text, x, y)
        named += inside
    wide = [p for p, _ in segments if p.get_width() > 0.19]
    assert len(wide) == 7 and all(p in named for p in wide)
    assert [t for t, *_ in placed].count("bust") == 1  # 2% and 4% are too narrow, 6% is not
