"""A label that names a segment of a bar, drawn only where it fits inside it.

Imported only when a plot is drawn: it loads matplotlib.
"""

from __future__ import annotations

import numpy as np
from matplotlib.backend_bases import RendererBase
from matplotlib.patches import Rectangle
from matplotlib.text import Text


class SegmentLabel(Text):
    """``text`` centred at ``(x, y)`` on the bar ``bar``, in ``colour``, 10 points.

    Whether it fits is decided as it is drawn, from the laid-out figure's own measures (the
    text's extent and the bar's), at least a point and a half clear of each end of the
    bar; it takes no part in the layout.
    """

    def __init__(self, bar: Rectangle, x: float, y: float, text: str, colour: str) -> None:
        super().__init__(x, y, text, ha="center", va="center", fontsize=10, color=colour)
        self.set_in_layout(False)
        self.bar = bar

    def fits(self, renderer: RendererBase) -> bool:
        """Whether the text lies inside its bar, clear of both ends, as laid out now."""
        bar = self.bar.get_window_extent(renderer)
        name = self.get_window_extent(renderer)
        clear = float(np.asarray(renderer.points_to_pixels(1.5)))
        return bool(bar.x0 + clear <= name.x0 and name.x1 <= bar.x1 - clear)

    def draw(self, renderer: RendererBase) -> None:
        if self.fits(renderer):
            super().draw(renderer)
