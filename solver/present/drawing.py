"""Text and boxes for the charts drawn with matplotlib on an A4 page (PDF, SVG, PNG).

Positions are in inches from the page's top-left corner, on axes whose limits are the
page (see :func:`solver.present.charts.to_image`).
"""

from __future__ import annotations

from typing import Any


def fit_lines(text: str, size: float, weight: str, inches: float) -> str:
    """``text`` broken at spaces into lines at most ``inches`` wide in DejaVu Sans."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    font = FontProperties(family="DejaVu Sans", size=size, weight=weight)
    measure = TextToPath()

    def fits(line: str) -> bool:
        points = measure.get_text_width_height_descent(line, font, ismath=False)[0]
        return bool(points <= inches * 72)

    lines: list[str] = []
    for word in text.split(" "):
        if lines and fits(f"{lines[-1]} {word}"):
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return "\n".join(lines)


def wrap(text: str, width: int) -> str:
    """``text`` broken at spaces into lines of at most ``width`` characters."""
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


def box(
    ax: Any,
    x: float,
    y: float,
    w: float,
    h: float,
    colour: str,
    text: str,
    size: float,
    weight: str = "normal",
    align: str = "center",
) -> None:
    """A filled box with its text, centred or at its left."""
    from matplotlib.patches import Rectangle

    # add_artist, not add_patch: the limits are fixed, and updating the data limits for
    # each of the 230 boxes took a quarter of a drawing's time (the output is the same).
    ax.add_artist(Rectangle((x, y), w, h, facecolor=colour, edgecolor="#555555", linewidth=0.8))
    tx = x + w / 2 if align == "center" else x + 0.08
    ax.text(tx, y + h / 2, text, ha=align, va="center", fontsize=size, weight=weight)
