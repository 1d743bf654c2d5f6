"""Colour-vision deficiency simulation and colour differences, for the palette tests.

The dichromacy matrices are those of Machado, Oliveira and Fernandes, "A Physiologically-based
Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6), 2009, table for severity
1.0; they act on linear RGB. CIELAB and the WCAG 2 contrast ratio follow the sRGB standard
(IEC 61966-2-1) and WCAG 2.1 §1.4.3. Written here from those publications.
"""

from __future__ import annotations

import math

Matrix = tuple[tuple[float, float, float], ...]
RGB = tuple[float, float, float]

# Machado et al. (2009), severity 1.0.
PROTANOPIA: Matrix = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
DEUTERANOPIA: Matrix = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
TRITANOPIA: Matrix = (
    (1.255528, -0.076749, -0.178779),
    (-0.078411, 0.930809, 0.147602),
    (0.004733, 0.691367, 0.303900),
)


def parse_hex(colour: str) -> RGB:
    """``#rrggbb`` as sRGB components in [0, 1]."""
    text = colour.lstrip("#")
    return (int(text[0:2], 16) / 255, int(text[2:4], 16) / 255, int(text[4:6], 16) / 255)


def to_linear(c: float) -> float:
    """An sRGB component to linear light."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def simulate(colour: str, matrix: Matrix) -> RGB:
    """The linear RGB a dichromat sees for ``colour`` (clipped to the gamut)."""
    linear = [to_linear(c) for c in parse_hex(colour)]
    return tuple(  # type: ignore[return-value]
        min(max(sum(m * c for m, c in zip(row, linear, strict=True)), 0.0), 1.0) for row in matrix
    )


def linear_of(colour: str) -> RGB:
    """``colour`` in linear RGB, as a person with typical vision sees it."""
    r, g, b = (to_linear(c) for c in parse_hex(colour))
    return (r, g, b)


def luminance(linear: RGB) -> float:
    """Relative luminance Y of a linear RGB colour (sRGB primaries, D65)."""
    r, g, b = linear
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def lab(linear: RGB) -> RGB:
    """CIELAB (D65 white) of a linear RGB colour."""
    r, g, b = linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def delta_e(first: RGB, second: RGB) -> float:
    """CIE76 colour difference between two linear RGB colours."""
    a, b = lab(first), lab(second)
    return math.sqrt(sum((p - q) ** 2 for p, q in zip(a, b, strict=True)))


def lightness_difference(first: RGB, second: RGB) -> float:
    """Difference of CIELAB lightness L*: what is left in greyscale."""
    return abs(lab(first)[0] - lab(second)[0])


def contrast_ratio(first: RGB, second: RGB) -> float:
    """WCAG 2 contrast ratio of two linear RGB colours (1 to 21)."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)
