"""The report's plots drawn by matplotlib straight onto the PDF's page.

:class:`PlotFlowable` is a reportlab flowable that lays a matplotlib figure out and draws
it with :class:`CanvasRenderer`, a matplotlib renderer whose every path and string is a
call on the page's reportlab canvas: no file format between them (the SVG the HTML
inlines is not read back). The renderer works at 72 dots an inch, a point a unit, and
places text as matplotlib's SVG renderer does with its text kept as text: anchored where
matplotlib anchors it, in the PDF's embedded DejaVu Sans, so it stays selectable.

Imported only when a PDF is drawn: it loads matplotlib and reportlab.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from matplotlib.backend_bases import GraphicsContextBase, RendererBase
from matplotlib.colors import to_rgba
from matplotlib.font_manager import findfont
from matplotlib.path import Path
from reportlab.pdfgen.canvas import FILL_NON_ZERO
from reportlab.platypus import Flowable

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties
    from matplotlib.text import Text
    from matplotlib.transforms import Transform
    from matplotlib.typing import ColorType

#: The PDF font (registered by :mod:`.pdf`) of each font file matplotlib may lay text out
#: in: its default family, DejaVu Sans. Text in any other font is drawn as outlines.
_PDF_FONTS = {"DejaVuSans.ttf": "DejaVuSans", "DejaVuSans-Bold.ttf": "DejaVuSans-Bold"}
_CAPS = {"butt": 0, "round": 1, "projecting": 2}
_JOINS = {"miter": 0, "round": 1, "bevel": 2}
#: Of matplotlib's horizontal alignments, the canvas's call that sets a string so.
_ALIGNED = {"left": "drawString", "center": "drawCentredString", "right": "drawRightString"}


class CanvasRenderer(RendererBase):
    """A matplotlib renderer that draws on a reportlab canvas, in points, y upwards."""

    def __init__(self, canvas: Any, width: float, height: float) -> None:
        super().__init__()
        self.canvas = canvas
        self.width, self.height = width, height

    def flipy(self) -> bool:
        return False

    def get_canvas_width_height(self) -> tuple[float, float]:
        return self.width, self.height

    def draw_path(
        self,
        gc: GraphicsContextBase,
        path: Path,
        transform: Transform,
        rgbFace: ColorType | None = None,
    ) -> None:
        """Fill and stroke ``path``, clipped as ``gc`` says (an outline to the figure too)."""
        fill = _fill_colour(gc, rgbFace)
        stroke = _stroke_colour(gc)
        if fill is None and stroke is None:
            return
        outline = rgbFace is None and gc.get_hatch_path() is None
        bounds = (0.0, 0.0, self.width, self.height) if outline else None
        canvas = self.canvas
        canvas.saveState()
        self._clip(gc)
        shape = _canvas_path(
            canvas, path, transform, clip=bounds, simplify=path.should_simplify and outline
        )
        if fill is not None:
            canvas.setFillColorRGB(*fill[:3], alpha=fill[3] if fill[3] < 1 else None)
        if stroke is not None:
            canvas.setStrokeColorRGB(*stroke[:3], alpha=stroke[3] if stroke[3] < 1 else None)
            canvas.setLineWidth(gc.get_linewidth())
            canvas.setLineCap(_CAPS[gc.get_capstyle()])
            canvas.setLineJoin(_JOINS[gc.get_joinstyle()])
            offset, dashes = gc.get_dashes()
            if dashes is not None:
                canvas.setDash(np.asarray(dashes, dtype=float).tolist(), offset or 0)
        canvas.drawPath(
            shape, stroke=int(stroke is not None), fill=int(fill is not None),
            fillMode=FILL_NON_ZERO,
        )  # fmt: skip
        canvas.restoreState()

    def draw_text(
        self,
        gc: GraphicsContextBase,
        x: float,
        y: float,
        s: str,
        prop: FontProperties,
        angle: float,
        ismath: bool | Literal["TeX"] = False,
        mtext: Text | None = None,
    ) -> None:
        """Set ``s`` as text at its baseline's start ``(x, y)``, turned ``angle`` degrees.

        Unturned text (and text turned about its anchor) is set from matplotlib's anchor
        with the string's own alignment, as the SVG renderer does, so that the PDF font's
        widths, not the layout's hinted ones, decide where a centred label's ends fall.
        Mathematical text and text in other fonts (none here) are drawn as outlines.
        """
        font = _PDF_FONTS.get(PurePath(findfont(prop)).name)
        if ismath or font is None:
            super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
            return
        canvas = self.canvas
        canvas.saveState()
        self._clip(gc)
        r, g, b, alpha = gc.get_rgb()
        if gc.get_forced_alpha():
            alpha = gc.get_alpha()
        canvas.setFillColorRGB(r, g, b, alpha=alpha if alpha < 1 else None)
        canvas.setFont(font, prop.get_size_in_points())
        draw = "drawString"
        if mtext is not None and (angle == 0 or mtext.get_rotation_mode() == "anchor"):
            ax, ay = mtext.get_transform().transform(mtext.get_unitless_position())
            # Move the anchor along the text's upright to the baseline matplotlib chose.
            up = (-math.sin(math.radians(angle)), math.cos(math.radians(angle)))
            shift = up[0] * (x - ax) + up[1] * (y - ay)
            x, y = ax + shift * up[0], ay + shift * up[1]
            draw = _ALIGNED[mtext.get_horizontalalignment()]
        canvas.translate(x, y)
        canvas.rotate(angle)
        getattr(canvas, draw)(0, 0, s)
        canvas.restoreState()

    def _clip(self, gc: GraphicsContextBase) -> None:
        """Clip what is drawn next to ``gc``'s rectangle and path (within a saved state)."""
        box = gc.get_clip_rectangle()
        if box is not None:
            shape = self.canvas.beginPath()
            shape.rect(*box.bounds)
            self.canvas.clipPath(shape, stroke=0, fill=0)
        clip_path, affine = gc.get_clip_path()
        if clip_path is not None and affine is not None:
            shape = _canvas_path(self.canvas, clip_path.get_fully_transformed_path(), affine)
            self.canvas.clipPath(shape, stroke=0, fill=0, fillMode=FILL_NON_ZERO)


def _fill_colour(gc: GraphicsContextBase, face: ColorType | None) -> tuple[float, ...] | None:
    """The fill's RGBA, or None when nothing is filled."""
    if face is None:
        return None
    r, g, b, alpha = to_rgba(face)
    if gc.get_forced_alpha():
        alpha = gc.get_alpha()
    return None if alpha == 0 else (r, g, b, alpha)


def _stroke_colour(gc: GraphicsContextBase) -> tuple[float, ...] | None:
    """The outline's RGBA, or None when no outline is drawn."""
    r, g, b, alpha = gc.get_rgb()
    if gc.get_forced_alpha():
        alpha = gc.get_alpha()
    return None if gc.get_linewidth() <= 0 or alpha == 0 else (r, g, b, alpha)


def _canvas_path(
    canvas: Any,
    path: Path,
    transform: Transform,
    clip: tuple[float, float, float, float] | None = None,
    simplify: bool = False,
) -> Any:
    """``path`` under ``transform`` as a reportlab path (quadratic curves made cubic)."""
    shape = canvas.beginPath()
    here = (0.0, 0.0)
    for points, code in path.iter_segments(transform, clip=clip, simplify=simplify, curves=True):
        if code == Path.MOVETO:
            here = (points[0], points[1])
            shape.moveTo(*here)
        elif code == Path.LINETO:
            here = (points[0], points[1])
            shape.lineTo(*here)
        elif code == Path.CURVE3:
            (qx, qy), end = (points[0], points[1]), (points[2], points[3])
            shape.curveTo(
                here[0] + 2 * (qx - here[0]) / 3, here[1] + 2 * (qy - here[1]) / 3,
                end[0] + 2 * (qx - end[0]) / 3, end[1] + 2 * (qy - end[1]) / 3, *end,
            )  # fmt: skip
            here = end
        elif code == Path.CURVE4:
            shape.curveTo(*points)
            here = (points[4], points[5])
        elif code == Path.CLOSEPOLY:
            shape.close()
    return shape


class PlotFlowable(Flowable):  # type: ignore[misc]
    """A matplotlib figure drawn onto the page, scaled to at most 92% of ``width``.

    ``draw`` makes the figure; it is made here (its size is the flowable's) and laid out
    and drawn once, when the page draws it.
    """

    def __init__(self, draw: Callable[[], Figure], width: float) -> None:
        super().__init__()
        self.figure = draw()
        self.figure.set_dpi(72)  # a point a unit, as the canvas
        natural = self.figure.get_figwidth() * 72, self.figure.get_figheight() * 72
        self.scale = min(width * 0.92 / natural[0], 1.0)
        self.natural = natural
        self.width, self.height = natural[0] * self.scale, natural[1] * self.scale
        self.hAlign = "LEFT"

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        canvas.saveState()
        canvas.scale(self.scale, self.scale)
        self.figure.draw(CanvasRenderer(canvas, *self.natural))
        canvas.restoreState()
