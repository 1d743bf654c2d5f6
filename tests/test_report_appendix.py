"""The report's appendix: the main wager's and the round's combinations out of their cycles."""

from __future__ import annotations

import math
from fractions import Fraction

from solver.exact.game import solve_game
from solver.model.rules import Rules
from solver.present.report.blocks import Grid
from solver.present.report.wagers import appendix_section, combinations_grid


def whole(text: str) -> int:
    """A number as the report prints it (narrow no-break spaces between groups)."""
    return int("".join(ch for ch in text if ch.isdigit()))


def test_the_combinations_are_the_exact_probabilities_over_one_cycle() -> None:
    rules = Rules(decks=1)
    game = solve_game(rules, exact=True)
    main = combinations_grid(game)  # in the core's Main wager
    round_ = [b for b in appendix_section(game).blocks if isinstance(b, Grid)][-1]
    for grid, probabilities in (
        (main, list(game.outcomes.values())),
        (round_, [line.probability for line in game.round_lines]),
    ):
        rows = grid.rows
        assert rows[-1][0] == "total (the cycle)"
        cycle = whole(rows[-1][1])
        counts = [whole(count) for _, count in rows[:-1]]
        assert sum(counts) == cycle
        for count, probability in zip(counts, probabilities, strict=True):
            assert Fraction(count, cycle) == probability
        assert math.gcd(cycle, *counts) == 1  # the least cycle: no common factor to cancel
