"""The Monte Carlo simulator: written from the rule text, independent of the exact solver.

It imports only :mod:`solver.model` (cards, rules, outcome names and payoffs); exact
figures to compare against are passed in by the caller.
"""

from solver.sim.counter import CountedRound, Counter, count_stacked, parse_bets
from solver.sim.deal import SeatRound, card_code, deal_stacked, shoe_codes
from solver.sim.hands import Wager
from solver.sim.run import simulate
from solver.sim.stats import (
    ChiSquare,
    CounterStatistics,
    Estimate,
    ExactFigure,
    SeatStatistics,
    SimulationResult,
    chi_square_sf,
)
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
    "ChiSquare",
    "CountedRound",
    "Counter",
    "CounterStatistics",
    "Estimate",
    "ExactFigure",
    "MimicDealer",
    "NeverBust",
    "SeatRound",
    "SeatStatistics",
    "SimulationResult",
    "StandOn",
    "Strategy",
    "TableStrategy",
    "Wager",
    "card_code",
    "chi_square_sf",
    "count_stacked",
    "deal_stacked",
    "parse_bets",
    "parse_strategy",
    "shoe_codes",
    "simulate",
]
