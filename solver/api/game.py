"""The game's commands that a cache hit answers cheaply: ``cbj bonus``, ``solve``, ``advise``.

This module loads the game's summary, not the player's solver (nor numpy) until a game
is solved.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal, Unpack, overload

from solver.api.progress import step_progress
from solver.api.rules import Cards, RuleOptions, given_cards, make_rules
from solver.exact.bonus import analyse_bonus
from solver.exact.game import ProgressCallback, solve_game
from solver.exact.game import advise as advise_hand
from solver.exact.volatility import with_volatility
from solver.model.cards import Card
from solver.model.checks import checked, shown
from solver.model.errors import CardError
from solver.model.rules import Rules
from solver.results.bonus import BonusResult
from solver.results.game import Advice, GameResult
from solver.results.kinds import Store


@checked
def bonus(
    *,
    removed: Cards = (),
    symbolic: bool = False,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> BonusResult:
    """The Bonus wager's exact return table from a full shoe less ``removed`` cards."""
    analysis = analyse_bonus(make_rules(rules, options), given_cards(removed))
    expression = str(analysis.symbolic_expected_value()) if symbolic else None
    return BonusResult(analysis, expression)


@overload
def solve(
    *,
    removed: Cards = ...,
    exact: Literal[True],
    jobs: int = ...,
    cache: Store | None = ...,
    progress: ProgressCallback | bool | None = ...,
    rules: Rules | None = ...,
    **options: Unpack[RuleOptions],
) -> GameResult[Fraction]: ...


@overload
def solve(
    *,
    removed: Cards = ...,
    exact: Literal[False] = ...,
    jobs: int = ...,
    cache: Store | None = ...,
    progress: ProgressCallback | bool | None = ...,
    rules: Rules | None = ...,
    **options: Unpack[RuleOptions],
) -> GameResult[float]: ...


@overload
def solve(
    *,
    removed: Cards = ...,
    exact: bool = ...,
    jobs: int = ...,
    cache: Store | None = ...,
    progress: ProgressCallback | bool | None = ...,
    rules: Rules | None = ...,
    **options: Unpack[RuleOptions],
) -> GameResult[Any]: ...


@checked
def solve(
    *,
    removed: Cards = (),
    exact: bool = False,
    jobs: int = 1,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> GameResult[Any]:
    """Optimal play for every hand, the main wager, the Bonus wager and the whole round.

    ``exact=True`` gives every figure as a ``Fraction``; ``jobs`` workers share the Bonus
    card values; ``cache`` (a :class:`~solver.results.kinds.Store`) reuses earlier solves.
    The result carries the round's volatility over sessions, from the session's exact
    distribution.
    """
    played = make_rules(rules, options)
    bar = step_progress(progress, "solving Bonus cards")
    game = solve_game(played, given_cards(removed), exact, jobs, bar, cache)
    return with_volatility(game, cache)


@checked
def advise(
    *,
    bonus: Card | str,
    hand: Cards,
    seen: Cards = (),
    exact: bool = False,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> Advice[Any]:
    """Stand and hit values for one hand against the Bonus card, and the better choice."""
    bonus_cards = given_cards([bonus] if isinstance(bonus, Card) else bonus)
    if len(bonus_cards) != 1:
        raise CardError(f"the Bonus card is exactly one card, got {shown(bonus)}")
    played = make_rules(rules, options)
    return advise_hand(played, bonus_cards[0], given_cards(hand), given_cards(seen), exact=exact)
