"""The printable chart's vocabulary: its actions, cells, rows, columns and legend.

A cell is the total of the player's own cards, hard or soft, and a chart gives one
:class:`Action` per cell and Bonus card value.  The solver that finds the best chart
(:mod:`solver.exact.chart`) and the renderers (:mod:`solver.present.charts`) share
these names.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import Protocol

from solver.model.cards import VALUES, value_label
from solver.model.hands import own_best
from solver.model.rules import PRESETS, PresetName, Rules

#: The head of every chart's title; the rules that differ from the default follow it.
CHART_TITLE = "Community Blackjack (Casino Edition) basic strategy"


def chart_title(rules: Rules) -> str:
    """A chart's title: the preset the rules are, if any, and in plain words every rule
    that differs from the default.

    >>> chart_title(Rules(decks=1))[-6:], chart_title(Rules())[-13:]
    ('1 deck', 'default rules')
    >>> "Vegas 21 preset (" in chart_title(Rules.from_preset("vegas-21"))
    True
    """
    changed = "; ".join(rule.phrase(getattr(rules, rule.name)) for rule in rules.changed(Rules()))
    named = [
        preset.title.split(" (")[0]
        for preset in PRESETS.values()
        if preset.name is not PresetName.CASINO_EDITION and preset.to_rules() == rules
    ]
    if named:
        return f"{CHART_TITLE}: {named[0]} preset ({changed})"
    return f"{CHART_TITLE}: {changed or 'default rules'}"


HARD_TOTALS = tuple(range(2, 22))
SOFT_TOTALS = tuple(range(11, 22))


class Action(StrEnum):
    """What a chart cell says to do."""

    HIT = "H"
    STAND = "S"
    NONE = "-"
    """No such hand arises against this Bonus card (a lone ace with a ten is a blackjack)."""


Cell = tuple[bool, int]  # (soft, total)


@cache
def cell_of(hand: tuple[int, ...]) -> Cell:
    """The chart cell of a hand: soft when an ace can count 11 within 21.

    >>> from solver.model.hands import hand_of
    >>> cell_of(hand_of([1, 6])), cell_of(hand_of([10, 6, 1]))
    ((True, 17), (False, 17))
    """
    hard = sum(v * n for v, n in enumerate(hand, start=1))
    best = own_best(hard, hand[0] > 0)
    return (best != hard, best)


def cell_name(cell: Cell) -> str:
    """A cell as a row label: ``hard 12`` or ``soft 17``.

    >>> cell_name((True, 17))
    'soft 17'
    """
    return f"{'soft' if cell[0] else 'hard'} {cell[1]}"


ROWS: tuple[Cell, ...] = tuple((False, t) for t in HARD_TOTALS) + tuple(
    (True, t) for t in SOFT_TOTALS
)
#: The chart's columns: the Bonus card's value.
COLUMNS = tuple(value_label(v) for v in VALUES)
#: What each letter in a chart means.
LEGEND = {
    Action.HIT: "hit (draw a card)",
    Action.STAND: "stand",
    Action.NONE: "no such hand (a lone ace with a ten-value Bonus card is a blackjack)",
}


class Actions(Protocol):
    """Anything that gives an action for each cell and Bonus card: a chart."""

    def action(self, cell: Cell, bonus: int) -> Action:
        """The action for a cell against a Bonus card value."""
        ...


def grid(chart: Actions) -> list[tuple[str, list[str]]]:
    """Row label and one action letter per Bonus card, in chart order."""
    return [(cell_name(cell), [chart.action(cell, b).value for b in VALUES]) for cell in ROWS]
