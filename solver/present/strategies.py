"""Realistic play and the Bonus ratio as tables (``cbj strategies``), labelled from the
figure catalogue."""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.present.game import SIGNS_NOTE, volatility_table
from solver.present.style import cell, number_cell
from solver.present.tables import Table, rules_notes
from solver.results.figures import heading

if TYPE_CHECKING:
    from solver.results.strategies import StrategiesResult

#: The figures of each strategy's row, in its columns' order.
STRATEGY_KEYS = ("main_ev", "round_ev", "round_house_edge", "strategy_cost")
#: The figures of each Bonus ratio's row.
RATIO_KEYS = ("round_ev", "round_house_edge", "round_sd")


def strategies_table(result: StrategiesResult) -> Table:
    """Each policy's exact main EV, round EV, round house edge and cost against optimal play."""
    rows = tuple(
        (
            p.name,
            *map(
                cell,
                STRATEGY_KEYS,
                (p.main_ev, p.round_ev, p.round_house_edge, result.cost(p)),
            ),
        )
        for p in result.policies
    )
    return Table(
        "Strategies: exact figures",
        ("strategy", *(heading(k) for k in STRATEGY_KEYS)),
        rows,
        (
            *rules_notes(result.rules),
            f"round figures with {result.rules.bonus_ratio} on the Bonus per unit on the main "
            "wager; EV given up: the optimal main wager EV less the strategy's (the round "
            "gives up the same)",
            SIGNS_NOTE,
        ),
        tuple((None, *STRATEGY_KEYS) for _ in rows),
    )


def ratios_table(result: StrategiesResult) -> Table:
    """Optimal play's round at each Bonus ratio."""
    rows = tuple(
        (
            number_cell(row.ratio),
            cell("round_ev", row.expected_value),
            cell("round_house_edge", row.house_edge),
            cell("round_sd", row.standard_deviation),
        )
        for row in result.ratios
    )
    return Table(
        "The round by Bonus ratio (optimal play)",
        ("Bonus ratio", *(heading(k) for k in RATIO_KEYS)),
        rows,
        ("Exact: EV(r) = E[M] + r E[B], Var(r) = Var(M) + 2r Cov(M, B) + r^2 Var(B).",),
        tuple((None, *RATIO_KEYS) for _ in rows),
    )


def strategies_tables(result: StrategiesResult) -> list[Table]:
    """``cbj strategies``' tables: the policies, the Bonus ratios and optimal play's volatility."""
    volatility = volatility_table(
        result.volatility, "The player's net result over sessions (optimal play)", result.rules
    )
    return [strategies_table(result), ratios_table(result), volatility]
