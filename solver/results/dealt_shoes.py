"""Dealt shoes, each solved: the raw material of index plays, optimal betting and the bound."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from solver.model.cards import value_label
from solver.model.cells import Cell, cell_name
from solver.model.counts import LABELS, Tags
from solver.model.rules import Rules
from solver.results.kinds import Kind

#: A chart decision: (cell, Bonus card value).
Decision = tuple[Cell, int]

#: The columns of each state's row, before the decisions' gains.
COLUMNS = (
    "cards_left",
    *LABELS,
    "main_ev",
    "main_variance",
    "chart_ev",
    "bonus_ev",
    "bonus_variance",
    "round_variance",
)
#: Index of the first decision's gain in a row.
GAINS = len(COLUMNS)


def decision_name(decision: Decision) -> str:
    """A decision as words: ``hard 16 v 10``.

    >>> decision_name(((False, 16), 10))
    'hard 16 v 10'
    """
    cell, bonus = decision
    return f"{cell_name(cell)} v {value_label(bonus)}"


@dataclass(frozen=True, slots=True)
class DealtShoes:
    """``samples`` shoes dealt at random depths up to ``penetration`` and solved.

    Each row holds, in :data:`COLUMNS` order, the cards left, the cards dealt of each rank,
    the main wager's EV and variance under composition-dependent play, its EV played by
    the full shoe's chart, the Bonus wager's EV and variance per Bonus unit, the round's
    variance at the rules' Bonus ratio; then, for each of ``decisions``, the main EV
    gained by playing that cell the other way from the full shoe's chart in that shoe.
    ``full`` is the same row for the full shoe and ``after`` for the full shoe less one
    card of each value 1..10 (the decisions' effects of removal).
    """

    rules: Rules
    samples: int
    seed: int
    penetration: float
    decisions: tuple[Decision, ...]
    chart_hits: tuple[bool, ...]
    """Whether the full shoe's chart hits each decision (deviating then means standing)."""
    full: tuple[float, ...]
    after: tuple[tuple[float, ...], ...]
    rows: tuple[tuple[float, ...], ...]

    def true_counts(self, tags: Tags) -> list[float]:
        """Each state's true count under ``tags``: the running count less its expected
        drift, per deck left (an unbalanced count read against its drift)."""
        deck = 52 * self.rules.decks
        deck_sum = 4 * sum(tags[r] for r in LABELS)
        out = []
        for row in self.rows:
            left = row[0]
            running = sum(tags[r] * row[1 + i] for i, r in enumerate(LABELS))
            out.append((52 * running - deck_sum * (deck - left)) / left)
        return out

    def every_other(self, first: int) -> DealtShoes:
        """The states numbered ``first``, ``first + 2``, ...: one half of the sample, to
        pick something on one half and judge it on the other."""
        rows = self.rows[first::2]
        return replace(self, samples=len(rows), rows=rows)

    def to_json(self) -> dict[str, Any]:
        """The sample's description (the rows are for the analyses, not for printing)."""
        return {
            "rules": self.rules.to_json(),
            "samples": self.samples,
            "seed": self.seed,
            "penetration": self.penetration,
            "decisions": [decision_name(d) for d in self.decisions],
        }


#: Dealt shoes, kept by their rules, size, seed, penetration and decisions (``cbj indices``,
#: ``cbj bet`` and ``cbj attack`` on the same settings deal them once).
DEALT_SHOES: Kind[DealtShoes] = Kind("dealt-shoes", DealtShoes)
