"""Whole sessions of play: the net result of each of many sessions of a fixed length.

Exact figures give a round's mean and SD; how a session's total spreads is then
approximated (normal).  Simulated sessions check that approximation: each lane plays its
own session, every round from a freshly shuffled shoe, and the session's net results are
returned one per lane.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from solver.model.cards import Card, Shoe
from solver.model.checks import shown, whole_in
from solver.model.errors import SimulationError
from solver.model.rules import Rules
from solver.results.simulation import payoffs
from solver.sim.deal import Shoes, Table, play_round, shoe_codes
from solver.sim.strategies import Strategy


def simulate_sessions(
    rules: Rules,
    strategy: Strategy,
    rounds: int,
    sessions: int,
    *,
    seed: int | None = None,
    removed: Iterable[Card] = (),
) -> npt.NDArray[np.float64]:
    """Net result of the round wager (main + ``bonus_ratio`` x Bonus) over each session.

    Args:
        rules: The rules to play by.
        strategy: The player's policy.
        rounds: Rounds in a session.
        sessions: Sessions to play, side by side.
        seed: Root of every random number.
        removed: Cards out of the shoe (each with its suit).

    Returns:
        One net result per session, in units of the main wager.
    """
    for what, value in (("rounds", rounds), ("sessions", sessions)):
        if not whole_in(value, 1):
            raise SimulationError(f"{what} {shown(value)} must be a whole number of at least 1")
    cards = shoe_codes(Shoe.full(rules.decks).remove(tuple(removed)))
    table = Table.make(rules, strategy, cards, 1, None)
    shoes = Shoes(cards, sessions, np.random.default_rng(seed), None)
    main_pay, bonus_pay = (np.array([float(p) for p in pays]) for pays in payoffs(rules))
    ratio = float(rules.bonus_ratio)
    totals = np.zeros(sessions, dtype=np.float64)
    for _ in range(rounds):
        main, bonus = play_round(shoes, sessions, table)
        totals += main_pay[main[0]] + ratio * bonus_pay[bonus[0]]
    return totals


def coverage(results: npt.NDArray[np.float64], low: float, high: float) -> float:
    """Share of results inside ``[low, high]``."""
    return float(np.mean((results >= low) & (results <= high)))
