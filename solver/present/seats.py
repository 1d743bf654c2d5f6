"""A table of players for people (``cbj seats``): one row per number of seats.

The figures come from :func:`solver.studies.seats.table_of_players`; this module only
lays them out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.model.numbers import number, signed
from solver.present.tables import Table, rules_notes

if TYPE_CHECKING:
    from solver.results.seats import TableOfPlayers
    from solver.results.simulation import TableEstimate


def interval(estimate: TableEstimate, digits: int = 4) -> str:
    """A simulated hold with its 95% interval, for a table cell."""
    low, high = estimate.ci95
    return f"{signed(estimate.hold, digits)} ({signed(low, digits)} to {signed(high, digits)})"


def seats_table(result: TableOfPlayers) -> Table:
    """The table of players for people: one row per number of seats."""
    rows = tuple(
        (
            str(row.seats),
            signed(row.exact_bonus.hold, 4),
            number(row.exact_bonus.standard_deviation, 4),
            f"{signed(row.bonus.hold, 4)} (z {row.bonus_z:+.2f})",
            interval(row.main),
            number(row.main.standard_deviation, 4),
            interval(row.round),
            number(row.round.standard_deviation, 4),
        )
        for row in result.rows
    )
    return Table(
        "A table of players: the casino's result per table-round",
        (
            "seats",
            "Bonus hold (exact)",
            "Bonus SD (exact)",
            "Bonus hold (simulated)",
            "main hold (95% CI)",
            "main SD",
            "round hold (95% CI)",
            "round SD",
        ),
        rows,
        (
            *rules_notes(result.rules),
            "Casino's expected win and SD per table-round in main-wager units; every seat "
            f"bets 1 on the main wager and {result.rules.bonus_ratio} on the Bonus and plays "
            f"{result.strategy}.",
            "Bonus figures exact (the seats share the Bonus card); main and round from "
            f"{result.rounds:,} simulated table-rounds per row, fresh shoe each round, seed "
            f"{result.seed} + seats; z = (simulated - exact) / standard error.",
        ),
    )
