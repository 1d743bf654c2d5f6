"""The report's sections on risk: volatility, the Bonus ratio, a table of players, the simulator."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from solver.model.normal import Z90
from solver.model.rules import Rules
from solver.present.game import bound_text, net_step, session_places, volatility_table
from solver.present.report.blocks import Grid, Plot, Section, Text, column_keys
from solver.present.report.plots import ratio_plot
from solver.present.style import show, show_range, thousands
from solver.results.figures import heading, quantity_heading

if TYPE_CHECKING:
    from solver.results.report import RatioCurve
    from solver.results.seats import TableOfPlayers
    from solver.results.volatility import RatioRow, SessionRange, Volatility


def volatility_section(
    volatility: Volatility, rules: Rules, played: str = "optimal play"
) -> Section:
    """How far a player's net result wanders over sessions of ``played`` (words: "optimal
    play"): the exact session distribution, its ranges to the places of the lattice of
    ``rules``' nets."""
    sessions = volatility.sessions
    places = session_places(rules)
    table = volatility_table(volatility, "", rules)  # the terminal's rows, cell for cell
    normal = [thousands(s.rounds) for s in sessions if s.method == "normal"]
    fallback = (
        f" For {', '.join(normal)} rounds the pays make the exact distribution too wide to "
        "hold: those rows are the normal approximation."
        if normal
        else ""
    )
    bound = volatility.error_bound
    within = f"; every probability within {bound_text(bound)} of exact" if bound else ""
    sd, index = volatility.standard_deviation, volatility.index
    return Section(
        "Volatility",
        (
            Text(
                ("" if played == "optimal play" else f"Played: {played}. ")
                + f"The {heading('volatility_index')} is the {heading('round_sd')} times "
                f"z = {Z90:.4f}, the z of a two-sided 90% normal interval: "
                f"{show('round_sd', sd)} \u00d7 {Z90:.4f} = {show('volatility_index', index)} "
                f"main-wager units. {_session_sentence(sessions, places)}"
            ),
            Grid(
                table.headers,
                table.rows,
                caption=f"The player's net result after a session of {played} with "
                f"{volatility.ratio} on the Bonus per unit on the main wager, in main-wager "
                "units. Mean and SD exact; the ranges (5% to 95% and 2.5% to 97.5% points, on "
                f"the lattice of the nets, step {net_step(rules)}) and the chance of finishing "
                "above zero read off the n-fold convolution of the round's exact return table "
                f"(independent rounds, each from a freshly shuffled shoe{within}), not a "
                f"normal approximation.{fallback}",
                keys=table.keys,
            ),
        ),
    )


def _session_sentence(sessions: Sequence[SessionRange], places: int) -> str:
    """The 1,000-round session in words, or the longest shorter one."""
    session = max(
        (s for s in sessions if s.rounds <= 1_000),
        key=lambda s: s.rounds,
        default=sessions[0],
    )
    low, high = session.range90
    return (
        f"After {thousands(session.rounds)} rounds the player expects "
        f"{show('session_mean', session.mean)} units, finishes between "
        f"{show_range('session_range90', low, high, places)} nine times in ten, and is "
        f"ahead with probability {show('session_ahead', session.probability_ahead)}."
    )


#: The figures of each row of "House edge against the Bonus ratio".
RATIO_KEYS = (None, "round_wagered", "round_ev", "round_house_edge", "round_sd")
#: The figures of each row of "A table of players".
TABLE_KEYS = (None, "bonus_hold", "bonus_table_sd", "main_hold", "main_table_sd", "round_hold",
              "round_table_sd")  # fmt: skip


def ratio_section(rules: Rules, ratios: Sequence[RatioRow], curve: RatioCurve) -> Section:
    """The round's edge, EV and spread against the Bonus ratio, tabulated and plotted."""
    rows = tuple(
        (
            str(row.ratio),
            show("round_wagered", 1 + row.ratio),
            show("round_ev", row.expected_value),
            show("round_house_edge", row.house_edge),
            show("round_sd", row.standard_deviation),
        )
        for row in ratios
    )
    return Section(
        "House edge against the Bonus ratio",
        (
            Text(
                "The Bonus wager must be at least half the main wager; players may stake "
                "more. The main wager's edge is negative (player's favour) and the Bonus "
                "wager's positive, so the round's edge grows with the Bonus ratio. Play does "
                "not depend on the ratio r, so the round's EV is exactly E[M] + r E[B] and "
                "its variance Var(M) + 2r Cov(M, B) + r\u00b2 Var(B), where M and B are the "
                "main and Bonus wagers' net results per unit."
            ),
            Plot(
                partial(ratio_plot, curve.points, curve.in_force, rules.bonus_ratio),
                "Round house edge (% of the total wagered) against the Bonus ratio.",
            ),
            Grid(
                ("Bonus ratio", *(heading(k) for k in RATIO_KEYS[1:])),
                rows,
                keys=column_keys(rows, RATIO_KEYS),
                caption="Per round, in main-wager units; the house edge in % of the total "
                f"wagered. Exact, under optimal play; paytable {rules.paytable} throughout.",
            ),
        ),
    )


def table_section(table: TableOfPlayers) -> Section:
    """The casino's hold per table-round with 1 to 7 seats: exact Bonus, simulated the rest."""

    def held(key: str, hold: float, low: float, high: float) -> str:
        return f"{show(key, hold)} ({show(key, low)} to {show(key, high)})"

    exact_rows = tuple(
        (
            thousands(row.seats),
            show("bonus_hold", row.exact_bonus.hold),
            show("bonus_table_sd", row.exact_bonus.standard_deviation),
        )
        for row in table.rows
    )
    rows = tuple(
        (
            thousands(row.seats),
            held("main_hold", row.main.hold, *row.main.ci95),
            show("main_table_sd", row.main.standard_deviation),
            held("round_hold", row.round.hold, *row.round.ci95),
            show("round_table_sd", row.round.standard_deviation),
        )
        for row in table.rows
    )
    scores = [abs(row.bonus_z) for row in table.rows if not math.isnan(row.bonus_z)]
    worst = (
        f"largest |z| {show('z_score', max(scores)).lstrip('+')}"
        if scores
        else "no z-score: the simulated Bonus results did not vary"
    )
    return Section(
        "A table of players",
        (
            Text(
                "Several players at one table share the Bonus card, the dealer's hand and "
                "the shoe, so a table's spread is not one seat's times the seats. The Bonus "
                "wager's figures are exact; the rest come from the independent simulator: "
                f"{thousands(table.rounds)} table-rounds a row, every seat playing optimally, "
                f"a fresh shoe each round, seed {table.seed} plus the seats. The simulated "
                f"Bonus hold agrees with the exact one at every table ({worst})."
            ),
            Grid(
                ("seats", *(heading(k) for k in TABLE_KEYS[1:3])),
                exact_rows,
                keys=column_keys(exact_rows, TABLE_KEYS[:3]),
                caption="The casino's expected win (hold) on the Bonus wagers and its "
                "standard deviation (SD) per table-round, exact, in main-wager units; every "
                f"seat stakes 1 on the main wager and {table.rules.bonus_ratio} on the Bonus.",
            ),
            Grid(
                (
                    "seats",
                    heading("main_hold"),
                    quantity_heading("main_table_sd"),
                    heading("round_hold"),
                    quantity_heading("round_table_sd"),
                ),
                rows,
                keys=column_keys(rows, (None, *TABLE_KEYS[3:])),
                caption="The casino's hold on the main wagers and on whole rounds, each "
                "followed by its SD per table-round, simulated: each hold with its 95% "
                "confidence interval. Holds are the casino's: positive when the casino wins.",
            ),
        ),
    )
