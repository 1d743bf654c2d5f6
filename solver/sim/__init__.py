"""The Monte Carlo simulator: written from the rule text, independent of the exact solver.

It imports only :mod:`solver.model` and the result types of :mod:`solver.results` (cards,
rules, outcome names and payoffs; what a simulation returns); exact figures to compare
against are passed in by the caller.
"""

from solver.sim.counter import CountedRound, count_stacked, parse_bets
from solver.sim.deal import card_code, deal_stacked, shoe_codes
from solver.sim.run import simulate
from solver.sim.strategies import (
    AlwaysStand,
    MimicDealer,
    NeverBust,
    StandOn,
    Strategy,
    TableStrategy,
    parse_strategy,
)

__all__ = [
    "AlwaysStand",
    "CountedRound",
    "MimicDealer",
    "NeverBust",
    "StandOn",
    "Strategy",
    "TableStrategy",
    "card_code",
    "count_stacked",
    "deal_stacked",
    "parse_bets",
    "parse_strategy",
    "shoe_codes",
    "simulate",
]
