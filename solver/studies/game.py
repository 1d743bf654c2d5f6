"""The game's commands that a cache hit answers cheaply, as computations: ``bonus``,
, ``solve`` and ``advise``, each a function of checked values (the command table,
:mod:`~solver.api.table`, reads them from what the user gave).  This module loads the
game's summary, not the player's solver (nor numpy) until a game is solved.

Every function here takes its inputs already read by the parameter catalogue
(:mod:`solver.model.catalogue`): cards as cards, the rules as :class:`Rules`, the run's
settings as one :class:`~solver.results.kinds.Run`.
"""

from __future__ import annotations

from typing import Any

from solver.exact.bonus import analyse_bonus
from solver.exact.game import advise as advise_hand
from solver.exact.game import solve_game
from solver.exact.volatility import with_volatility
from solver.model.cards import Card
from solver.model.rules import Rules
from solver.results.bonus import BonusResult
from solver.results.game import Advice, GameResult
from solver.results.run import Run


def bonus(*, rules: Rules, removed: tuple[Card, ...], symbolic: bool) -> BonusResult:
    """The Bonus wager's exact return table from a full shoe less ``removed`` cards."""
    analysis = analyse_bonus(rules, removed)
    expression = str(analysis.symbolic_expected_value()) if symbolic else None
    return BonusResult(analysis, expression)


def solve(*, rules: Rules, removed: tuple[Card, ...], exact: bool, run: Run) -> GameResult[Any]:
    """Optimal play, the main wager, the Bonus wager and the whole round, with its volatility."""
    game = solve_game(rules, removed, exact, run.jobs, run.progress, run.cache)
    return with_volatility(game, run.cache)


def advise(
    *, rules: Rules, bonus: Card, hand: tuple[Card, ...], seen: tuple[Card, ...], exact: bool
) -> Advice[Any]:
    """Stand and hit values for one hand against the Bonus card, and the better choice."""
    return advise_hand(rules, bonus, hand, seen, exact=exact)
