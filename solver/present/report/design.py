"""The report's sections on the game's design: dealer, paytable, rule variants, the chart."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from solver.model.cards import value_label
from solver.model.cells import COLUMNS
from solver.present.charts import (
    COLOURS,
    EXCEPTION_HEADERS,
    display_rows,
    exception_rows,
    exceptions_heading,
    summary,
)
from solver.present.report.blocks import Grid, Plot, Section, Text, column_keys
from solver.present.report.plots import dealer_plot, sensitivity_plot
from solver.present.style import edge_percent, minus, signed_percent
from solver.present.wording import differences_in_words
from solver.present.wording import to_one as _to_one
from solver.results.figures import heading, outcome_words

if TYPE_CHECKING:
    from fractions import Fraction

    from solver.model.rules import Rules
    from solver.results.charts import Chart
    from solver.results.paytable import Variant
    from solver.results.report import DealerRows, PaySensitivity


def dealer_section(rows: DealerRows) -> Section:
    """The dealer's final result by Bonus card, plotted and tabulated."""
    labels = tuple(rows[0][1])
    cells = tuple((value_label(c), *(f"{float(d[x]):.4f}" for x in labels)) for c, d in rows)
    return Section(
        "Dealer",
        (
            Plot(partial(dealer_plot, rows), "The dealer's final result by Bonus card."),
            Grid(
                ("Bonus card", *labels),
                cells,
                caption=f"The {heading('dealer_result')}: the probability of each final "
                "dealer result for each Bonus card, from the full shoe less that card (before "
                "the player draws).",
                compact=True,
                keys=column_keys(cells, (None, *("dealer_result" for _ in labels))),
            ),
        ),
    )


def chart_section(chart: Chart) -> Section:
    """The best printable chart, its cost against perfect play and its main exceptions."""
    rows = display_rows(chart)
    cells = []
    colours = []
    for row in rows:
        marks = [
            f"{a.value}{_superscript(m) if m else ''}"
            for a, m in zip(row.actions, row.marks, strict=True)
        ]
        cells.append((row.label, *marks))
        colours.append((None, *(COLOURS[a] for a in row.actions)))
    return Section(
        "Strategy chart",
        (
            Text(
                "The best chart that looks only at the total of the player's own cards (hard, "
                "or soft when an ace counts 11) and the Bonus card (10 = 10, J, Q, K): H hit "
                "(orange), S stand (blue), \u2013 no decision (a blackjack); hard totals "
                "first, then soft. "
                f"{summary(chart)}. The main-wager figures above assume composition-dependent "
                "optimal play; a player using this chart gets the chart EV instead. Identical "
                "rows are merged (e.g. hard 2\u20137)."
            ),
            Grid(
                ("own \\ Bonus", *COLUMNS),
                tuple(cells),
                caption="Hit/stand chart by own total (rows) and Bonus card (columns; 10 = 10, "
                "J, Q, K); a number marks a cell with exceptions, listed below.",
                colours=tuple(colours),
                numeric=False,
                compact=True,
                breaks=tuple(i for i, row in enumerate(rows) if row.soft)[:1],
            ),
            Grid(
                EXCEPTION_HEADERS,
                tuple(exception_rows(chart)),
                caption=exceptions_heading(chart),
                numeric=False,
            ),
        ),
    )


def _superscript(n: int) -> str:
    return str(n).translate(
        str.maketrans("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")
    )


def _break_even_text(even: Fraction | None) -> str:
    """The break-even pay in words, or why there is none."""
    if even is None:
        return "none (this tier cannot happen in this shoe)"
    return f"{float(even):.4f} to 1" if even >= 0 else "none (edge stays positive)"


def sensitivity_section(lines: Sequence[PaySensitivity]) -> Section:
    """The round's edge as a straight line in each tier's pay, and each break-even pay."""
    rows = []
    for line in lines:
        # The edge is linear in the pay: edge(current) + slope * (x - current) = 0.
        even = line.break_even
        rows.append(
            (
                outcome_words(line.tier),
                _to_one(line.pays),
                minus(f"{float(line.slope) * 100:+.4f}"),
                _break_even_text(even),
            )
        )
    return Section(
        "Paytable sensitivity",
        (
            Text(
                "The main wager's optimal play does not depend on the Bonus pays, so the "
                "round's house edge is an exact straight line in each pay. The plot moves one "
                "pay at a time, the others held at the paytable in force (the dot)."
            ),
            Plot(
                partial(sensitivity_plot, tuple(lines)),
                "Round house edge (% of the total wagered) as a function of each pay.",
            ),
            Grid(
                (
                    "tier",
                    "pays",
                    f"{heading('edge_per_pay')} per unit of pay (percentage points)",
                    heading("break_even_pay"),
                ),
                tuple(rows),
                keys=column_keys(tuple(rows), (None, None, "edge_per_pay", "break_even_pay")),
                caption="Break-even pay: the pay of that tier, the others unchanged, at which "
                "the round's house edge is exactly 0.",
            ),
        ),
    )


def variants_section(rules: Rules, variants: Sequence[Variant]) -> Section:
    """Each common variant's headline figures, one rule changed at a time."""
    rows = tuple(
        (
            differences_in_words(v.rules, rules),
            signed_percent(v.main_expected_value),
            signed_percent(v.bonus_expected_value),
            edge_percent(v.round_house_edge),
        )
        for v in variants
    )
    keys = (None, "main_ev", "bonus_ev", "round_house_edge")
    return Section(
        "Rule variants",
        (
            Grid(
                ("rules changed", *(f"{heading(k)} (%)" for k in keys[1:3]), heading(keys[3])),
                rows,
                caption="Each row changes one rule from those in force and keeps the "
                "paytable and the Bonus ratio. Main wager EV in % of the main wager (float "
                "solver, agreeing with the exact solver to 1e\u221212), Bonus wager EV in % "
                "of the Bonus wager (exact), round house edge in % of the total wagered; EVs "
                "the player's, signed.",
                keys=column_keys(rows, keys),
            ),
        ),
    )
