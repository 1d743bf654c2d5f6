"""Render a printable chart: CSV, JSON, Markdown, HTML, and PDF/SVG/PNG via matplotlib.

Every format carries a title naming the rules that differ from the default, the rules and
paytable in force, a "how to read" line, the chart's exact EV against the
composition-dependent optimum, a legend, and the exceptions: cells where some hands are
better played the other way, marked on the grid with a number and listed below it.
Hit and stand are a light orange and a mid blue, told apart under deuteranopia, protanopia
and in greyscale (tested), and the letters H and S are always kept.  Output is
reproducible byte for byte for a given matplotlib version.
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.model.cards import VALUES, value_label
from solver.model.cells import (
    COLUMNS,
    LEGEND,
    ROWS,
    Action,
    Cell,
    cell_name,
    cell_of,
    chart_title,
    grid,
)
from solver.model.hands import describe_hand
from solver.model.process import check_stop
from solver.present.drawing import box, fit_lines, wrap
from solver.present.formats import ChartFormat
from solver.present.style import show, stacked_table_css
from solver.present.templates import Markup, macro
from solver.present.templates import render as render_template
from solver.present.wording import rules_sentence
from solver.results.figures import short_heading

if TYPE_CHECKING:
    from solver.results.charts import Chart, ExceptionHand

#: Hit light orange, stand mid blue: apart for every common colour-vision deficiency and
#: in greyscale (lightness differs by 22 L*), black letters readable on both.
COLOURS = {Action.HIT: "#ffd08a", Action.STAND: "#6c9fd4", Action.NONE: "#e6e6e6"}
COLOUR_NAMES = {Action.HIT: "orange", Action.STAND: "blue", Action.NONE: "grey"}
#: Each action's class in the HTML grid, and its legend's words without the aside.
CSS_CLASSES = {Action.HIT: "H", Action.STAND: "S", Action.NONE: "N"}
ACTION_WORDS = {a: LEGEND[a].split(" (")[0] for a in Action}
HOW_TO_READ = (
    "How to read: find the total of your own cards (rows; soft = an ace counted as 11) and "
    "the Bonus card (columns; 10 = 10, J, Q, K); H = hit, S = stand. A number marks a cell "
    "where some hands are better played the other way (listed below)."
)
SORT_KEY = "gain per round (how often \u00d7 gain when it occurs), largest first"
#: Hands named for each exception cell; the rest are counted.
HANDS_SHOWN = 4
TOP_EXCEPTIONS = 12
BLOCKS = {False: "hard totals", True: "soft totals (an ace counted as 11)"}


def title(chart: Chart) -> str:
    """The chart's title: its preset, if any, and in plain words every rule that differs."""
    return chart_title(chart.rules)


def summary(chart: Chart) -> str:
    """The chart's EV against perfect play, in one line."""
    return (
        f"Chart EV {show('chart_ev', chart.expected_value)} of the main wager; "
        f"composition-dependent optimum {show('chart_ev', chart.optimal_expected_value)}; the "
        f"chart gives up {show('chart_cost', chart.cost)} of the main wager per round"
    )


def legend_text() -> str:
    """The legend in one line, colours named."""
    return "Legend: " + "; ".join(
        f"{a.value} = {ACTION_WORDS[a]} ({COLOUR_NAMES[a]})" for a in Action
    ).replace("- = no such hand", "- = no such hand, a blackjack")


def header_lines(chart: Chart) -> list[str]:
    """Title, rules, how to read, EV and legend, as lines."""
    return [title(chart), rules_sentence(chart.rules), HOW_TO_READ, summary(chart), legend_text()]


@dataclass(frozen=True, slots=True)
class ExceptionCell:
    """One chart cell where some hands are better played the other way, with its hands."""

    number: int
    cell: Cell
    bonus: int
    chart_action: Action
    hands: tuple[ExceptionHand, ...]

    @property
    def frequency(self) -> Fraction:
        """Probability per round of reaching one of these hands when playing the chart."""
        return sum((h.frequency for h in self.hands), Fraction(0))

    @property
    def gain_per_round(self) -> Fraction:
        """Main-wager EV per round that playing these hands the other way adds."""
        return sum((h.frequency * h.gain for h in self.hands), Fraction(0))

    @property
    def gain_when_it_occurs(self) -> Fraction:
        """Average EV gained when one of these hands is held."""
        return self.gain_per_round / self.frequency

    @property
    def label(self) -> str:
        """``hard 16 v 10``."""
        return f"{cell_name(self.cell)} v {value_label(self.bonus)}"

    def hands_text(self) -> str:
        """The hands to play otherwise, most valuable first: ``10 6; 9 7; … and 39 more``."""
        named = "; ".join(describe_hand(h.hand) for h in self.hands[:HANDS_SHOWN])
        more = len(self.hands) - HANDS_SHOWN
        return f"{named}; and {more} more" if more > 0 else named


def exception_cells(chart: Chart) -> list[ExceptionCell]:
    """The chart's exceptions grouped by cell, numbered in order of gain per round."""
    groups: dict[tuple[Cell, int], list[ExceptionHand]] = {}
    for e in chart.exceptions:
        groups.setdefault((cell_of(e.hand), e.bonus), []).append(e)
    ordered = sorted(
        groups.items(),
        key=lambda item: (-sum(h.frequency * h.gain for h in item[1]), item[0][1], item[0][0]),
    )
    return [
        ExceptionCell(
            n,
            cell,
            bonus,
            hands[0].chart_action,
            tuple(sorted(hands, key=lambda h: (-h.frequency * h.gain, h.hand))),
        )
        for n, ((cell, bonus), hands) in enumerate(ordered, start=1)
    ]


#: The figures of each exception's row, after its cell, actions and hands.
EXCEPTION_KEYS = ("exception_frequency", "exception_gain_when", "exception_gain")
EXCEPTION_HEADERS = (
    "#",
    "cell",
    "chart",
    "better",
    "own cards to play the other way",
    *(short_heading(k) for k in EXCEPTION_KEYS),
)


def exception_rows(chart: Chart) -> list[tuple[str, ...]]:
    """The exception cells as text rows under :data:`EXCEPTION_HEADERS`."""
    return [
        (
            str(x.number),
            x.label,
            x.chart_action.value,
            x.hands[0].optimal_action.value,
            x.hands_text(),
            show("exception_frequency", x.frequency),
            show("exception_gain_when", x.gain_when_it_occurs),
            show("exception_gain", x.gain_per_round),
        )
        for x in exception_cells(chart)[:TOP_EXCEPTIONS]
    ]


def exceptions_heading(chart: Chart) -> str:
    """What the exception list shows and how it is sorted."""
    cells = exception_cells(chart)
    shown = min(len(cells), TOP_EXCEPTIONS)
    return (
        f"Exceptions: {len(chart.exceptions)} hands in {len(cells)} cells play better the "
        f"other way{'' if shown == len(cells) else f' (the {shown} largest shown and marked)'}"
        "; "
        f"sorted by {SORT_KEY}; gains in % of the main wager."
    )


@dataclass(frozen=True, slots=True)
class DisplayRow:
    """A row as drawn: one cell's actions, or a run of identical rows collapsed into one."""

    label: str
    soft: bool
    actions: tuple[Action, ...]
    marks: tuple[int | None, ...]
    collapsed: bool


def display_rows(chart: Chart) -> list[DisplayRow]:
    """The grid as drawn: runs of two or more unmarked uniform rows collapsed into one.

    Only the exceptions listed (the :data:`TOP_EXCEPTIONS` largest) are marked, so every
    mark on the grid has its footnote.
    """
    marks = {
        (x.cell, x.bonus): x.number for x in exception_cells(chart) if x.number <= TOP_EXCEPTIONS
    }
    rows: list[DisplayRow] = []
    run: list[Cell] = []

    def flush() -> None:
        if not run:
            return
        first, last = run[0], run[-1]
        kind = "soft" if first[0] else "hard"
        label = cell_name(first) if len(run) == 1 else f"{kind} {first[1]}\u2013{last[1]}"
        actions = tuple(chart.action(first, b) for b in VALUES)
        rows.append(DisplayRow(label, first[0], actions, (None,) * len(VALUES), len(run) > 1))
        run.clear()

    for cell in ROWS:
        actions = tuple(chart.action(cell, b) for b in VALUES)
        row_marks = tuple(marks.get((cell, b)) for b in VALUES)
        uniform = len(set(actions)) == 1 and not any(row_marks)
        if uniform and run and (run[0][0] != cell[0] or chart.action(run[0], 1) != actions[0]):
            flush()
        if uniform:
            run.append(cell)
            continue
        flush()
        rows.append(DisplayRow(cell_name(cell), cell[0], actions, row_marks, False))
    flush()
    return rows


def exception_lines(chart: Chart) -> list[str]:
    """The exceptions as footnote lines, for formats without tables."""
    return [
        f"{n}. {cell}: chart {c}, better {b} with {hands}. {often} rounds; gains {when} of "
        f"the main wager when it occurs, {per} per round."
        for n, cell, c, b, hands, often, when, per in exception_rows(chart)
    ]


def to_csv(chart: Chart, comments: bool = True) -> str:
    """The chart as CSV (every row); with ``comments``, headed and followed by ``#`` lines
    (its title, rules, how to read it and its exceptions)."""
    out = io.StringIO()
    if comments:
        out.writelines(f"# {line}\n" for line in header_lines(chart))
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("hand", *COLUMNS))
    for hand, actions in grid(chart):
        writer.writerow((hand, *actions))
    if comments:
        out.write(f"# {exceptions_heading(chart)}\n")
        out.writelines(f"# {line}\n" for line in exception_lines(chart))
    return out.getvalue()


def _md_cell(action: Action, mark: int | None) -> str:
    return action.value + (macro("charts/marks.html", "sup", mark) if mark else "")


def to_markdown(chart: Chart) -> str:
    """The chart as Markdown: header, hard and soft tables, legend and the exceptions."""
    head, *rest = header_lines(chart)
    lines = [f"# {head}", "", *(f"{line}  " for line in rest), ""]
    for soft in (False, True):
        lines += [f"## {BLOCKS[soft].capitalize()}", ""]
        lines.append("| hand | " + " | ".join(COLUMNS) + " |")
        lines.append("|---|" + "---|" * len(COLUMNS))
        for row in display_rows(chart):
            if row.soft != soft:
                continue
            cells = [_md_cell(a, m) for a, m in zip(row.actions, row.marks, strict=True)]
            lines.append(f"| {row.label} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += ["## Exceptions", "", exceptions_heading(chart), ""]
    lines.append("| " + " | ".join(EXCEPTION_HEADERS) + " |")
    lines.append("|" + "---|" * len(EXCEPTION_HEADERS))
    lines += ["| " + " | ".join(row) + " |" for row in exception_rows(chart)]
    return "\n".join(lines) + "\n"


def _every_bonus(action: Action) -> str:
    """A collapsed row's words: ``H: hit against every Bonus card``."""
    return f"{action.value}: {ACTION_WORDS[action]} against every Bonus card"


def _grid_row(row: DisplayRow) -> dict[str, Any]:
    """A row of the grid as plain values: its label, and its cells or its one wide cell."""
    first = row.actions[0]
    return {
        "label": row.label,
        "wide": {"css": CSS_CLASSES[first], "text": _every_bonus(first)} if row.collapsed else None,
        "cells": [
            (CSS_CLASSES[a], a.value, m) for a, m in zip(row.actions, row.marks, strict=True)
        ],
    }


def chart_table_html(chart: Chart) -> Markup:
    """The grid as an HTML table: hard and soft blocks, collapsed runs, marked cells."""
    rows = display_rows(chart)
    blocks = [
        {
            "kind": "soft" if soft else "hard",
            "heading": BLOCKS[soft].capitalize(),
            "rows": [_grid_row(row) for row in rows if row.soft == soft],
        }
        for soft in (False, True)
    ]
    return render_template("charts/grid.html", blocks=blocks, columns=COLUMNS)


def exceptions_html(chart: Chart) -> Markup:
    """The exception cells as an HTML table, each row the target of its cell's mark."""
    return render_template(
        "charts/exceptions.html",
        heading=exceptions_heading(chart),
        headers=EXCEPTION_HEADERS,
        rows=exception_rows(chart),
        numeric=(0, 5, 6, 7),
    )


def style() -> Markup:
    """The chart's style sheet (the text of a ``<style>`` element): colours by action, and
    the exceptions' table stacked on a phone."""
    return render_template(
        "charts/style.html",
        colours={CSS_CLASSES[a]: COLOURS[a] for a in Action},
        stacked_css=Markup(stacked_table_css("table.exceptions")),
    )


def to_html(chart: Chart) -> Markup:
    """A self-contained HTML page for phones, desktops and A4 paper: colours and letters."""
    head, *rest = header_lines(chart)
    legend = [
        {"colour": COLOURS[a], "letter": a.value, "words": ACTION_WORDS[a], "name": COLOUR_NAMES[a]}
        for a in Action
    ]
    return render_template(
        "charts/page.html",
        title=head,
        lines=rest[:-1],
        legend=legend,
        style=style(),
        grid=chart_table_html(chart),
        exceptions=exceptions_html(chart),
    )


def _creation_date(fmt: ChartFormat) -> dict[str, Any]:
    """No date in a drawn chart unless ``SOURCE_DATE_EPOCH`` asks for one (matplotlib reads it)."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return {}
    if fmt is ChartFormat.PDF:
        return {"CreationDate": None}
    if fmt is ChartFormat.SVG:
        return {"Date": None}
    return {}


def _draw_head(ax: Any, chart: Chart, width: float, margin: float) -> float:
    """The chart's title, rules, how to read it and its legend, from the page's top margin
    down; where the grid starts (inches)."""
    from matplotlib.patches import Rectangle

    head, rules_line, how, summary_line, _ = header_lines(chart)
    y = margin
    # The title is wrapped by its measured width, so a long one stays on the page.
    title_lines = fit_lines(head, 12.5, "bold", width - 2 * margin)
    ax.text(margin, y, title_lines, fontsize=12.5, weight="bold", va="top", linespacing=1.2)
    y += 0.3 + 0.21 * title_lines.count("\n")
    for text in (wrap(rules_line, 125), wrap(how, 125), wrap(summary_line, 125)):
        ax.text(margin, y, text, fontsize=7.5, va="top", linespacing=1.4)
        y += 0.17 * (text.count("\n") + 1) + 0.05
    x = margin
    for a in Action:
        ax.add_artist(Rectangle((x, y), 0.3, 0.2, facecolor=COLOURS[a], edgecolor="#555555"))
        ax.text(x + 0.15, y + 0.1, a.value, ha="center", va="center", fontsize=8)
        label = f"{ACTION_WORDS[a]} ({COLOUR_NAMES[a]})"
        ax.text(x + 0.38, y + 0.1, label, va="center", fontsize=7.5)
        x += 0.5 + 0.062 * len(label)
    return y + 0.4


def to_image(chart: Chart, fmt: ChartFormat) -> bytes:
    """The chart drawn on one A4 page with matplotlib, as PDF, SVG or PNG bytes.

    Positions are in inches from the page's top-left corner. SVG keeps its text as text
    and PDF embeds TrueType fonts, so both can be searched and read aloud.
    """
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    check_stop()  # a stopped job stops before each long stage of the drawing
    width, height, margin = 8.27, 11.69, 0.55
    rc: dict[str, Any] = {
        "svg.hashsalt": "community-blackjack",
        "svg.fonttype": "none",
        "pdf.fonttype": 42,
        "font.family": "DejaVu Sans",
    }
    with matplotlib.rc_context(rc):  # type: ignore[arg-type]
        figure = plt.figure(figsize=(width, height))
        ax = figure.add_axes((0, 0, 1, 1))
        ax.set_axis_off()
        ax.set_xlim(0, width)
        ax.set_ylim(height, 0)
        head = header_lines(chart)[0]
        y = _draw_head(ax, chart, width, margin)

        rows = display_rows(chart)
        notes = exception_lines(chart)
        label_w = 1.35
        cell_w = (width - 2 * margin - label_w) / len(COLUMNS)
        heading_lines = wrap(exceptions_heading(chart), 120).count("\n") + 1
        foot = 0.25 + 0.2 * heading_lines + 0.05 + 0.03 * len(notes) + 0.15
        foot += 0.16 * sum(wrap(n, 120).count("\n") + 1 for n in notes)
        row_h = min(0.36, (height - margin - foot - y) / (len(rows) + 3.4))
        box(ax, margin, y, label_w, row_h, "#eeeeee", "own \\ Bonus", 8, "bold")
        for j, column in enumerate(COLUMNS):
            box(ax, margin + label_w + j * cell_w, y, cell_w, row_h, "#eeeeee", column, 9, "bold")
        y += row_h
        for soft in (False, True):
            if soft:
                ax.plot([margin, width - margin], [y + 0.06, y + 0.06], color="#111111", lw=2)
            ax.text(margin, y + 0.12 + 0.6 * row_h, BLOCKS[soft].capitalize(), fontsize=8.5,
                    weight="bold", va="center")  # fmt: skip
            y += 0.2 + 0.8 * row_h
            for row in rows:
                if row.soft != soft:
                    continue
                box(ax, margin, y, label_w, row_h, "#f4f4f4", row.label, 8.5, "bold", "left")
                if row.collapsed:
                    a = row.actions[0]
                    box(ax, margin + label_w, y, cell_w * len(COLUMNS), row_h, COLOURS[a],
                         _every_bonus(a), 8.5, "normal", "left")  # fmt: skip
                else:
                    for j, (a, mark) in enumerate(zip(row.actions, row.marks, strict=True)):
                        left = margin + label_w + j * cell_w
                        box(ax, left, y, cell_w, row_h, COLOURS[a], a.value, 9)
                        if mark:
                            ax.text(left + cell_w - 0.05, y + 0.04, str(mark), fontsize=6.5,
                                    weight="bold", ha="right", va="top")  # fmt: skip
                y += row_h
        y += 0.2
        ax.text(margin, y, wrap(exceptions_heading(chart), 120), fontsize=7.5, va="top",
                weight="bold", linespacing=1.4)  # fmt: skip
        y += 0.2 * (wrap(exceptions_heading(chart), 120).count("\n") + 1) + 0.05
        for note in notes:
            text = wrap(note, 120)
            ax.text(margin, y, text, fontsize=7.5, va="top", linespacing=1.4)
            y += 0.16 * (text.count("\n") + 1) + 0.03
        check_stop()
        out = io.BytesIO()
        metadata: dict[str, Any] = {"Title": head, **_creation_date(fmt)}
        if fmt is ChartFormat.PNG:
            metadata = {"Title": head, "Software": None}
        figure.savefig(out, format=fmt.value, metadata=metadata, dpi=150)
        plt.close(figure)
    return out.getvalue()


def render(chart: Chart, fmt: ChartFormat | str, comments: bool = True) -> bytes:
    """The chart in any :class:`ChartFormat`, as bytes ready to write (a CSV with its
    ``#`` lines when ``comments``)."""
    fmt = ChartFormat(fmt)
    if fmt is ChartFormat.JSON:
        return (json.dumps(chart.to_json(), indent=2) + "\n").encode()
    if fmt is ChartFormat.CSV:
        return to_csv(chart, comments).encode()
    if fmt is ChartFormat.MD:
        return to_markdown(chart).encode()
    if fmt is ChartFormat.HTML:
        return to_html(chart).encode()
    return to_image(chart, fmt)
