"""The report's plots, drawn with matplotlib, and their SVG and PNG forms."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from typing import TYPE_CHECKING

from solver.model.cards import value_label
from solver.model.outcomes import BonusOutcome

if TYPE_CHECKING:
    from collections.abc import Sequence

    from matplotlib.figure import Figure

    from solver.results.report import PaySensitivity


class _TierWords(dict[str, str]):
    """Clause 4's outcomes in words; any other tier's name read as its words."""

    def __missing__(self, key: str) -> str:
        return key.replace("_", " ")


BONUS_NAMES: dict[str, str] = _TierWords(
    {
        BonusOutcome.SUITED_MATCH: "suited match",
        BonusOutcome.RANK_MATCH: "rank match",
        BonusOutcome.ADJACENT: "adjacent",
        BonusOutcome.LOSE: "loss",
    }
)

INK = "#1f3a5f"
#: Okabe and Ito's colour-blind-safe blue and vermilion, for gains and losses.
GOOD = "#0072b2"
BAD = "#d55e00"
#: The dealer plot's bust (a dark brown) and natural (a light yellow): in greyscale and for
#: every common colour-vision deficiency they stay apart from each other and from the
#: totals' blues (at least 10 L* from every one of them), and every segment also carries
#: its name where it is wide enough, so no series is told apart by colour alone.
BUST = "#4a1a08"
NATURAL = "#fff3a8"
#: The totals' blues, lightest to darkest, 12 L* apart, where a dealer stands on 17 or
#: more (five totals at most); more totals take blues graded between the first and last.
TOTAL_BLUES = ("#b9d6ea", "#7db8da", "#4a98c9", "#2676b8", "#0b559f")
#: A phone's plots (:func:`phone_figures`): at most this wide (inches), so that their
#: 10-point text is at least 12 CSS pixels on a 390-pixel screen.
PHONE_WIDTH = 4.2
_PHONE: ContextVar[bool] = ContextVar("phone", default=False)


@contextmanager
def phone_figures() -> Iterator[None]:
    """Within this block, plots are drawn for a phone: narrower, a little taller."""
    token = _PHONE.set(True)
    try:
        yield
    finally:
        _PHONE.reset(token)


def _dealer_colour(i: int, labels: int) -> str:
    """The colour of the ``i``-th of ``labels`` results: bust, each total, then natural.

    >>> _dealer_colour(0, 6), _dealer_colour(5, 6), _dealer_colour(1, 12)
    ('#4a1a08', '#fff3a8', '#b9d6ea')
    """
    if i == 0:
        return BUST
    if i == labels - 1:
        return NATURAL
    totals = labels - 2
    if totals <= len(TOTAL_BLUES):
        return TOTAL_BLUES[i - 1]
    light, dark = (_rgb(TOTAL_BLUES[0]), _rgb(TOTAL_BLUES[-1]))
    share = (i - 1) / (totals - 1)
    return "#" + "".join(
        f"{round(a + (b - a) * share):02x}" for a, b in zip(light, dark, strict=True)
    )


def dealer_colours(labels: int) -> list[str]:
    """The colours of a dealer plot of ``labels`` results, bust first, natural last."""
    return [_dealer_colour(i, labels) for i in range(labels)]


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _luminance(colour: str) -> float:
    """The relative luminance of ``colour`` (WCAG 2: sRGB made linear, then weighted)."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
              for c in (v / 255 for v in _rgb(colour))]  # fmt: skip
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ink_on(colour: str) -> str:
    """Black or white, whichever contrasts more with ``colour`` (at least 4.58:1 always).

    >>> ink_on("#2676b8"), ink_on("#4a98c9"), ink_on(BUST)
    ('white', 'black', 'white')
    """
    light = _luminance(colour)
    return "white" if 1.05 / (light + 0.05) > (light + 0.05) / 0.05 else "black"


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure  # imported here: only drawing a report needs it

    if _PHONE.get():
        width, height = min(width, PHONE_WIDTH), height * 1.25
    return Figure(figsize=(width, height), layout="constrained")


def dealer_plot(rows: list[tuple[int, dict[str, Fraction]]]) -> Figure:
    """The dealer's final results by Bonus card, stacked; each segment wide enough named on
    it as the legend names it."""
    from solver.present.report.plot_labels import SegmentLabel  # as matplotlib: see _figure

    figure = _figure(6.4, 3.0)
    axes = figure.add_subplot()
    labels = list(rows[0][1])
    names = [value_label(c) for c, _ in rows]
    colours = dealer_colours(len(labels))
    left = [0.0] * len(rows)
    for label, colour in zip(labels, colours, strict=True):
        widths = [float(d[label]) for _, d in rows]
        bars = axes.barh(names, widths, left=left, color=colour, label=label, height=0.7,
                         edgecolor="white", linewidth=0.6)  # fmt: skip
        for y, bar in enumerate(bars):
            centre = bar.get_x() + bar.get_width() / 2
            axes.add_artist(SegmentLabel(bar, centre, y, label, ink_on(colour)))
        left = [a + b for a, b in zip(left, widths, strict=True)]
    axes.set_xlim(0, 1)
    axes.invert_yaxis()
    axes.set_xlabel("probability")
    axes.set_ylabel("Bonus card")
    # At most six entries a row: a dealer standing on 12 has twelve results.
    per_row = min(len(labels), 4 if _PHONE.get() else 6)
    axes.legend(ncols=per_row, frameon=False, loc="lower center", bbox_to_anchor=(0.5, 1.0))
    axes.spines[["top", "right"]].set_visible(False)
    return figure


def sensitivity_plot(lines: Sequence[PaySensitivity]) -> Figure:
    """The round's house edge against each tier's pay, the pay in force marked."""
    figure = _figure(6.8, 2.6)
    figure.get_layout_engine().set(wspace=0.06)  # type: ignore[call-arg, union-attr]
    axes_row = figure.subplots(1, len(lines), sharey=True, squeeze=False)[0]  # one per tier
    for axes, line in zip(axes_row, lines, strict=True):
        current_edge = float(line.edge) * 100
        xs = [x for x, _ in line.line]
        ys = [float(edge) * 100 for _, edge in line.line]
        axes.plot([float(x) for x in xs], ys, color=INK, linewidth=1.6)
        axes.axhline(0, color="black", linewidth=0.8)
        axes.plot([float(line.pays)], [current_edge], "o", color=BAD, markersize=5)
        axes.set_title(BONUS_NAMES[line.tier], fontsize=10)
        axes.set_xlabel("pay (to 1)")
        axes.spines[["top", "right"]].set_visible(False)
    axes_row[0].set_ylabel("round house edge (%)")
    return figure


#: A point of a plotted curve: x and y as drawn.
Point = tuple[float, float]


def ratio_plot(curve: tuple[Point, ...], in_force: Point, ratio: Fraction) -> Figure:
    """The round's house edge against the Bonus ratio (``curve``), ``ratio`` marked."""
    figure = _figure(6.4, 2.4)
    axes = figure.add_subplot()
    axes.plot([x for x, _ in curve], [y for _, y in curve], color=INK, linewidth=1.6)
    axes.plot([in_force[0]], [in_force[1]],
              "o", color=BAD, markersize=5, label=f"ratio in force ({ratio})")  # fmt: skip
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set_xlabel("Bonus wager as a multiple of the main wager")
    axes.set_ylabel("round house edge (%)")
    axes.legend(frameon=False, loc="lower right")
    axes.spines[["top", "right"]].set_visible(False)
    return figure


def standalone_svg(figure: Figure) -> str:
    """The figure as a standalone SVG document, its text kept as text in DejaVu Sans.

    The HTML inlines it (:func:`~solver.present.plot_files.svg_element`); the PDF draws
    the figure onto its page instead (:mod:`.pdf_plots`).
    """
    import matplotlib

    out = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "cbj", "svg.fonttype": "none"}):
        figure.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()
