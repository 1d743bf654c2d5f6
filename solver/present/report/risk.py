"""The report's sections on risk: volatility, the Bonus ratio, a table of players, the simulator."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from solver.model.normal import Z90
from solver.model.rules import Rules
from solver.present.report.blocks import Grid, Plot, Section, Text, column_keys
from solver.present.report.plots import ratio_plot
from solver.present.style import amount, edge_percent, signed, thousands
from solver.results.figures import heading

if TYPE_CHECKING:
    from solver.results.report import RatioCurve
    from solver.results.seats import TableOfPlayers
    from solver.results.volatility import RatioRow, SessionRange, Volatility


def volatility_section(volatility: Volatility, played: str = "optimal play") -> Section:
    """How far a player's net result wanders over sessions of ``played`` (words: "optimal
    play"): the exact session distribution."""
    sessions = volatility.sessions
    rows = tuple(
        (
            thousands(s.rounds),
            amount(s.mean),
            f"{s.standard_deviation:.1f}",
            _range(s.range90),
            _range(s.range95),
            _chance(s.probability_ahead),
        )
        for s in sessions
    )
    keys = (None, "session_mean", "session_sd", "session_range90", "session_range95",
            "session_ahead")  # fmt: skip
    normal = [thousands(s.rounds) for s in sessions if s.method == "normal"]
    fallback = (
        f" For {', '.join(normal)} rounds the pays make the exact distribution too wide to "
        "hold: those rows are the normal approximation."
        if normal
        else ""
    )
    return Section(
        "Volatility",
        (
            Text(
                ("" if played == "optimal play" else f"Played: {played}. ")
                + f"The volatility index is the round's standard deviation times z = {Z90:.4f}, "
                "the z of a two-sided 90% normal interval: "
                f"{volatility.standard_deviation:.4f} \u00d7 {Z90:.4f} = "
                f"{volatility.index:.4f} main-wager units. {_session_sentence(sessions)}"
            ),
            Grid(
                ("rounds", *(heading(k) for k in keys[1:])),
                rows,
                caption=f"The player's net result after a session of {played} with "
                f"{volatility.ratio} on the Bonus per unit on the main wager, in "
                "main-wager units. Mean and standard deviation are exact (n rounds: n times "
                "the round's mean, \u221an times its standard deviation). The ranges (from "
                "the 5% to the 95% point, and from the 2.5% to the 97.5% point) and the "
                "chance of finishing above zero are read off the session's own distribution, "
                "the n-fold convolution of the round's exact return table (independent "
                "rounds, each from a freshly shuffled shoe; every probability within "
                f"{volatility.error_bound:.0e} of exact), not a normal approximation; "
                f"cbj solve, cbj strategies and the workbench give the same.{fallback}",
                keys=column_keys(rows, keys),
            ),
        ),
    )


def _session_sentence(sessions: Sequence[SessionRange]) -> str:
    """The 1,000-round session in words, or the longest shorter one."""
    session = max(
        (s for s in sessions if s.rounds <= 1_000),
        key=lambda s: s.rounds,
        default=sessions[0],
    )
    low, high = session.range90
    return (
        f"After {thousands(session.rounds)} rounds the player expects {amount(session.mean)} "
        f"units, finishes between {amount(low, 0)} and {amount(high, 0)} nine times in ten, and "
        f"is ahead with probability {_chance(session.probability_ahead)}."
    )


def _range(bounds: tuple[float, float]) -> str:
    """A range of net results to the nearest unit: ``\u221233 to +5``."""
    return f"{amount(bounds[0], 0)} to {amount(bounds[1], 0)}"


def _chance(probability: float) -> str:
    """A probability as a percentage to one decimal, with the far tails said in words."""
    if probability < 0.0005:
        return "below 0.1%"
    if probability > 0.9995:
        return "above 99.9%"
    return f"{probability * 100:.1f}%"


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
            str(1 + row.ratio),
            signed(row.expected_value),
            edge_percent(row.house_edge),
            f"{row.standard_deviation:.4f}",
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

    def held(hold: float, half_width: float | None = None) -> str:
        text = signed(hold, 3)
        return text if half_width is None else f"{text} \u00b1 {half_width:.3f}"

    rows = tuple(
        (
            str(row.seats),
            held(float(row.exact_bonus.hold)),
            f"{row.exact_bonus.standard_deviation:.3f}",
            held(row.main.hold, row.main.ci95[1] - row.main.hold),
            f"{row.main.standard_deviation:.3f}",
            held(row.round.hold, row.round.ci95[1] - row.round.hold),
            f"{row.round.standard_deviation:.3f}",
        )
        for row in table.rows
    )
    scores = [abs(row.bonus_z) for row in table.rows if not math.isnan(row.bonus_z)]
    worst = (
        f"largest |z| {max(scores):.2f}"
        if scores
        else "no z-score: the simulated Bonus results did not vary"
    )
    return Section(
        "A table of players",
        (
            Text(
                "The casino's result per table-round when several players sit at one table. "
                "They share the Bonus card, the dealer's hand and the shoe, so their results "
                "are correlated: a table's spread is not one seat's spread times the seats. "
                "The Bonus wager's hold and standard deviation are exact (the correlation "
                "between two seats through the shared Bonus card is computed exactly). The "
                "main wager's and the round's come from the independent simulator: "
                f"{thousands(table.rounds)} table-rounds for each number of seats, every seat "
                "playing optimally, a freshly shuffled shoe each round, seed "
                f"{table.seed} plus the number of seats. The simulated Bonus hold agrees with "
                f"the exact one at every table ({worst})."
            ),
            Grid(
                ("seats", *(heading(k) for k in TABLE_KEYS[1:])),
                rows,
                keys=column_keys(rows, TABLE_KEYS),
                caption="Casino's expected win (hold) and its standard deviation (SD) per "
                "table-round, in main-wager units; every seat stakes 1 on the main wager and "
                f"{table.rules.bonus_ratio} on the Bonus. Bonus figures exact; main-wager and "
                "round figures simulated, holds \u00b1 the half-width of their 95% confidence "
                "interval. Holds are the casino's: positive when the casino wins.",
            ),
        ),
    )
