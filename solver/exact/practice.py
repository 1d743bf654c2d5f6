"""The practice table's grading: one decision against the chart learned and perfect play.

A decision is graded twice, exactly: against the chart (the printed best chart, whose every
cell's cost ``cbj chart --costs`` gives, or the player's own, whose cell is priced alone by
:func:`~solver.exact.chart_costs.cell_figures`), and against composition-dependent perfect
play for that very hand in that very shoe (``cbj advise`` with every card seen since the
shuffle).  The first says what the mistake costs made every time (per round, the cell's
frequency included); the second what this one hand gave up.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from solver.exact.chart_costs import cell_figures
from solver.exact.game import advise
from solver.model.cards import Card
from solver.model.cells import Action, cell_of
from solver.model.chart_file import ChartGrid
from solver.model.hands import hand_of
from solver.model.rules import Rules
from solver.results.charts import CellCost, ChartCosts
from solver.results.game import GameResult
from solver.results.practice import Grade, Play, chart_name


def grade_play(
    rules: Rules,
    costs: ChartCosts,
    game: GameResult[Fraction],
    bonus: Card,
    hand: Sequence[Card],
    seen: Sequence[Card],
    play: Play,
    own: ChartGrid | None = None,
) -> Grade:
    """``play`` on ``hand`` against ``bonus``, with ``seen`` out of the shoe, graded.

    ``costs`` is the printed chart's (``cbj chart --costs`` under ``rules``) and ``game``
    the exact solve it was found from; ``own`` is the player's chart when it is the one
    learned.
    """
    advice = advise(rules, bonus, hand, seen, exact=True)
    cell = cell_of(hand_of(c.points for c in hand))
    value = bonus.points
    if own is None:
        found = costs.cells.get((cell, value))
        action = costs.chart.action(cell, value)
        other = Action.STAND if action is Action.HIT else Action.HIT
        flip = CellCost(cell, value, action, other, Fraction(0)) if found is None else found
        frequency = costs.frequencies.get((cell, value), Fraction(0))
    else:
        flip, frequency = cell_figures(game, own, cell, value)
    return Grade(
        bonus,
        tuple(hand),
        play,
        flip,
        chart_name(own),
        Fraction(advice.stand),
        Fraction(advice.hit),
        frequency,
        len(seen),
    )
