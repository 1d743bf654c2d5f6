"""What the tests of ``cbj indices``, ``cbj bet`` and ``cbj attack`` share: a one-deck game
near even and its dealt shoes, made once per process (the three files keep to one xdist
worker: tests/conftest.py)."""

from __future__ import annotations

import functools

import numpy as np

from solver.exact.dealt_shoes import chart_walk, chosen_decisions, deal_shoes, every_decision
from solver.exact.game import solve_game
from solver.model.rules import Paytable, Rules
from solver.results.charts import Chart
from solver.results.dealt_shoes import DealtShoes, Decision
from solver.results.simulation import Counter
from solver.sim import simulate
from solver.studies.simulation import played_strategy
from tests.conftest import GAMES

#: A one-deck game near even (the suited match cannot happen in one deck: 25:6:2 brings the
#: round to -0.5%), so that counting pays in some shoes and the Kelly ramp moves.
NEAR_EVEN = Rules(decks=1, paytable=Paytable.parse("25:6:2"))
#: The share of the shoe dealt before the cut card, in the study and the simulation.
CUT = 0.75
#: A small study of :data:`NEAR_EVEN` through the commands (``solver.indices``,
#: ``solver.bet``): its dealt shoes, kept in the session's store, serve every call.
STUDY = {"count": "hi-lo", "samples": 24, "seed": 5, "penetration": CUT, "cache": GAMES}


def near_even_chart() -> Chart:
    """The printed chart of :data:`NEAR_EVEN` (from the session's store)."""
    from solver.api.functions import chart

    return chart(rules=NEAR_EVEN, cache=GAMES)


@functools.cache
def near_even_shoes() -> tuple[DealtShoes, Decision]:
    """Dealt shoes of :data:`NEAR_EVEN` following the five decisions worth most and the
    costliest flip of the chart in the full shoe (which the index test plays at will)."""
    played = near_even_chart()
    every = every_decision(played)
    _, gains = chart_walk(played, solve_game(NEAR_EVEN, exact=False), every)
    costliest = every[int(np.argmin(gains))]
    positions, _, _ = chosen_decisions(NEAR_EVEN, played, 5, CUT)
    chosen = (*(every[k] for k in positions), costliest)
    return deal_shoes(NEAR_EVEN, played, 80, 21, CUT, chosen), costliest


def counter_mean(counter: Counter, rounds: int, seed: int) -> tuple[float, float]:
    """The counter's win per round playing the chart, and its standard error."""
    result = simulate(
        NEAR_EVEN,
        played_strategy("chart", NEAR_EVEN, lambda: solve_game(NEAR_EVEN, exact=True, cache=GAMES)),
        rounds,
        seed=seed,
        penetration=CUT,
        counter=counter,
    )
    assert result.counter is not None
    return result.counter.mean, result.counter.standard_error


__all__ = ["CUT", "NEAR_EVEN", "STUDY", "counter_mean", "near_even_chart", "near_even_shoes"]
