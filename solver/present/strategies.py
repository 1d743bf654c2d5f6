"""Realistic play and the Bonus ratio as tables (``cbj strategies``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.model.numbers import number, percent, signed
from solver.present.tables import Table, rules_notes

if TYPE_CHECKING:
    from solver.results.strategies import StrategiesResult


def strategies_table(result: StrategiesResult) -> Table:
    """Each policy's exact main EV, round EV, round house edge and cost against optimal play."""
    rows = tuple(
        (
            p.name,
            signed(p.main_ev),
            signed(p.round_ev),
            percent(p.round_house_edge),
            number(result.cost(p)),
        )
        for p in result.policies
    )
    return Table(
        "Strategies: exact figures",
        ("strategy", "main EV", "round EV", "round house edge", "cost vs optimal"),
        rows,
        (
            *rules_notes(result.rules),
            "EVs per unit of main wager; the round's house edge is per unit of the total "
            "wagered (main + Bonus); cost is main EV given up against optimal play.",
        ),
    )


def ratios_table(result: StrategiesResult) -> Table:
    """Optimal play's round at each Bonus ratio."""
    rows = tuple(
        (
            str(row.ratio),
            signed(row.expected_value),
            percent(row.house_edge),
            number(row.standard_deviation, 4),
        )
        for row in result.ratios
    )
    return Table(
        "The round by Bonus ratio (optimal play)",
        ("bonus ratio", "round EV", "house edge per unit wagered", "round SD"),
        rows,
        ("Exact: EV(r) = E[M] + r E[B], Var(r) = Var(M) + 2r Cov(M, B) + r^2 Var(B).",),
    )
