"""The commands that need the dealer's and the player's tables: ``cbj dealer``, ``chart``.

And ``cbj strategies``; these load numpy, unlike :mod:`solver.api.game`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Unpack

from solver.api.rules import Cards, RuleOptions, given_cards, make_rules
from solver.exact.chart import Chart, stored_chart
from solver.exact.dealer import DealerResult, dealer_distribution
from solver.exact.game import ProgressCallback, solve_game
from solver.exact.ratios import ratio_table, round_moments, volatility
from solver.exact.strategies import StrategiesResult, realistic_play, simple_policy
from solver.exact.volatility import check_ratio, parse_ratios
from solver.model.cards import RANKS, VALUES, Card, Shoe, parse_value
from solver.model.checks import checked, is_whole
from solver.model.errors import StrategyError
from solver.model.outcomes import POLICY_NAMES
from solver.model.rules import TABULATED_RATIOS, Rules
from solver.sim.strategies import TABLE_STRATEGIES
from solver.store.protocol import Store


@checked
def dealer(
    *,
    bonus: str | int = "all",
    removed: Cards = (),
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> DealerResult:
    """The dealer's final result for the Bonus card ``bonus`` (a value, or ``"all"``)."""
    played = make_rules(rules, options)
    cards = given_cards(removed)
    shoe = Shoe.full(played.decks).remove(cards)
    if is_whole(bonus):
        bonuses = [parse_value(str(bonus))]
    elif str(bonus).strip().lower() == "all":
        bonuses = list(VALUES)
    else:
        bonuses = [parse_value(str(bonus))]
    rows = tuple(
        (b, dealer_distribution(played, b, shoe.remove([Card(RANKS[b - 1])]).value_counts()))
        for b in bonuses
    )
    return DealerResult(played, cards, rows)


@checked
def chart(
    *, cache: Store | None = None, rules: Rules | None = None, **options: Unpack[RuleOptions]
) -> Chart:
    """The best printable hit/stand chart, its exact EV and its cost against perfect play."""
    played = make_rules(rules, options)
    return stored_chart(played, solve_game(played, exact=True, cache=cache), cache)


@checked
def strategies(
    *,
    names: Sequence[str] | str = POLICY_NAMES,
    bonus_ratios: Sequence[Fraction | int | str] | str = TABULATED_RATIOS,
    removed: Cards = (),
    jobs: int = 1,
    cache: Store | None = None,
    progress: ProgressCallback | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> StrategiesResult:
    """Exact main EV, round EV, round house edge and cost against optimal play of each policy.

    ``names`` lists the policies (``optimal``, ``chart``, ``stand-on:K``, ``never-bust``,
    ``mimic-dealer``, ``always-stand``; text is a comma list).  The result also carries
    optimal play's round at each of ``bonus_ratios`` (each at least 1/2) and its
    volatility at the rules' ratio.  ``removed`` cards are out of the shoe (with suits).
    """
    played = make_rules(rules, options)
    listed = names.split(",") if isinstance(names, str) else list(names)
    if not listed or any(not n.strip() for n in listed):
        raise StrategyError(f"strategies {names!r}: give names separated by commas")
    ratios = (
        parse_ratios(bonus_ratios)
        if isinstance(bonus_ratios, str)
        else tuple(check_ratio(r) for r in bonus_ratios)
    )
    for name in listed:  # refuse unknown names before the long solve
        if name.strip().lower() not in TABLE_STRATEGIES:
            simple_policy(name, played)
    game = solve_game(played, given_cards(removed), True, jobs, progress, cache)
    result = realistic_play(played, listed, game, cache)
    moments = round_moments(game)
    return replace(
        result,
        ratios=ratio_table(moments, ratios),
        volatility=volatility(moments, played.bonus_ratio),
    )
