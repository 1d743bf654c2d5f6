"""A table of players for people (``cbj seats``): one row per number of seats.

The figures come from :func:`solver.studies.seats.table_of_players`; this module only
lays them out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.present.style import Cell, cell, count_cell, interval_cell, thousands
from solver.present.tables import Table, rules_notes
from solver.results.figures import short_heading

if TYPE_CHECKING:
    from solver.results.seats import TableOfPlayers
    from solver.results.simulation import TableEstimate


def interval(key: str, estimate: TableEstimate) -> Cell:
    """A simulated hold with its 95% interval, for a table cell."""
    low, high = estimate.ci95
    return interval_cell(key, estimate.hold, low, high)


#: The figures of each row, in its columns' order.
SEATS_KEYS = ("bonus_hold", "bonus_table_sd", "bonus_hold_simulated", "z_score", "main_hold",
              "main_table_sd", "round_hold", "round_table_sd")  # fmt: skip


def seats_table(result: TableOfPlayers) -> Table:
    """The table of players for people: one row per number of seats."""
    rows = tuple(
        (
            count_cell(row.seats),
            cell("bonus_hold", row.exact_bonus.hold),
            cell("bonus_table_sd", row.exact_bonus.standard_deviation),
            cell("bonus_hold_simulated", row.bonus.hold),
            cell("z_score", row.bonus_z),
            interval("main_hold", row.main),
            cell("main_table_sd", row.main.standard_deviation),
            interval("round_hold", row.round),
            cell("round_table_sd", row.round.standard_deviation),
        )
        for row in result.rows
    )
    return Table(
        "A table of players: the casino's result per table-round",
        ("seats", *(short_heading(k) for k in SEATS_KEYS)),
        rows,
        (
            *rules_notes(result.rules),
            "Casino's expected win and SD per table-round in main-wager units; every seat "
            f"bets 1 on the main wager and {result.rules.bonus_ratio} on the Bonus and plays "
            f"{result.strategy}.",
            "Bonus hold and SD exact (the seats share the Bonus card); main and round from "
            f"{thousands(result.rounds)} simulated table-rounds per row, fresh shoe each round, "
            f"seed {result.seed} + seats, each hold with its 95% interval; z = (simulated - "
            "exact) / standard error.",
        ),
        tuple((None, *SEATS_KEYS) for _ in rows),
    )
