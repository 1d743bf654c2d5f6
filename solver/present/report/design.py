"""The report's sections on the game's design: dealer, paytable, rule variants, the chart."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING

from solver.model.cards import value_label
from solver.model.cells import COLUMNS
from solver.present.charts import (
    COLOURS,
    EXCEPTION_HEADERS,
    EXCEPTION_KEYS,
    display_rows,
    exception_rows,
    exceptions_heading,
    summary,
)
from solver.present.report.blocks import Grid, Plot, Section, Text, column_keys
from solver.present.report.plots import dealer_plot, sensitivity_plot
from solver.present.style import show
from solver.present.wording import differences_in_words
from solver.present.wording import to_one as _to_one
from solver.results.figures import heading, outcome_words

if TYPE_CHECKING:
    from solver.model.rules import Rules
    from solver.results.charts import Chart
    from solver.results.paytable import Variant
    from solver.results.report import DealerRows, PaySensitivity


def bonus_card_chance(value: int) -> Fraction:
    """The chance that the Bonus card, dealt from a full shoe, has this value: a ten-value
    card is 4 ranks of 13.

    >>> bonus_card_chance(10), bonus_card_chance(1)
    (Fraction(4, 13), Fraction(1, 13))
    """
    return Fraction(4 if value == 10 else 1, 13)


def dealer_section(rows: DealerRows) -> Section:
    """The dealer's final result by Bonus card, and overall."""
    labels = tuple(rows[0][1])
    overall = {x: sum((bonus_card_chance(c) * d[x] for c, d in rows), Fraction(0)) for x in labels}
    cells = (
        *((value_label(c), *(show("dealer_result", d[x]) for x in labels)) for c, d in rows),
        ("overall", *(show("dealer_result", overall[x]) for x in labels)),
    )
    return Section(
        "Dealer",
        (
            Grid(
                ("Bonus card", *labels),
                cells,
                caption=f"The {heading('dealer_result')}: the probability of each final "
                "dealer result for each Bonus card, from the full shoe less that card (before "
                "the player draws); overall, each Bonus card weighted by its chance (a "
                "ten-value card 4 in 13, any other value 1 in 13).",
                compact=True,
                keys=column_keys(cells, (None, *("dealer_result" for _ in labels))),
            ),
        ),
    )


def dealer_plot_section(rows: DealerRows) -> Section:
    """The dealer's final result by Bonus card, plotted (Annex C)."""
    return Section(
        "Dealer's results plotted",
        (Plot(partial(dealer_plot, rows), f"The {heading('dealer_result')}, by Bonus card."),),
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
                f"{summary(chart)}. Identical rows are merged (e.g. hard 2\u20137)."
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
                (found := tuple(exception_rows(chart))),
                caption=exceptions_heading(chart),
                numeric=False,
                keys=column_keys(found, (*(None for _ in EXCEPTION_HEADERS[:5]), *EXCEPTION_KEYS)),
            ),
        ),
    )


def _superscript(n: int) -> str:
    return str(n).translate(
        str.maketrans("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")
    )


def _break_even_text(even: Fraction | None) -> str:
    """The break-even pay, or why there is none."""
    if even is None:
        return "none (this tier cannot happen in this shoe)"
    return show("break_even_pay", even) if even >= 0 else "none (edge stays positive)"


def sensitivity_section(lines: Sequence[PaySensitivity]) -> Section:
    """The round's edge as a straight line in each tier's pay, and each break-even pay."""
    rows = []
    for line in lines:
        # The edge is linear in the pay: edge(current) + slope * (x - current) = 0.
        rows.append(
            (
                outcome_words(line.tier),
                _to_one(line.pays),
                show("edge_per_pay", line.slope * 100),
                _break_even_text(line.break_even),
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
                ("tier", "pays", heading("edge_per_pay"), heading("break_even_pay")),
                tuple(rows),
                keys=column_keys(tuple(rows), (None, None, "edge_per_pay", "break_even_pay")),
                caption="House edge change: percentage points of the round's house edge per "
                "unit added to the tier's pay. Break-even pay: the pay of that tier, the "
                "others unchanged, at which the round's house edge is exactly 0.",
            ),
        ),
    )


def variants_section(rules: Rules, variants: Sequence[Variant]) -> Section:
    """Each common variant's headline figures, one rule changed at a time."""
    rows = tuple(
        (
            differences_in_words(v.rules, rules),
            show("main_ev", v.main_expected_value),
            show("bonus_ev", v.bonus_expected_value),
            show("round_house_edge", v.round_house_edge),
        )
        for v in variants
    )
    keys = (None, "main_ev", "bonus_ev", "round_house_edge")
    return Section(
        "Rule variants",
        (
            Grid(
                ("rules changed", *(heading(k) for k in keys[1:])),
                rows,
                caption="Each row changes one rule from those in force and keeps the "
                "paytable and the Bonus ratio. Main wager EV per main unit (float solver, "
                "agreeing with the exact solver to 1e\u221212), Bonus wager EV per Bonus unit "
                "(exact), round house edge in % of the total wagered; EVs the player's.",
                keys=column_keys(rows, keys),
            ),
        ),
    )
