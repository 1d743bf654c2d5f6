"""The commands that need the dealer's and the player's tables: ``cbj dealer``, ``chart``.

And ``cbj strategies``; these load numpy, unlike :mod:`solver.api.game`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Unpack

from solver.api.chart_file import chart_for, load_chart
from solver.api.progress import step_progress
from solver.api.rules import Cards, RuleOptions, given_cards, make_rules
from solver.exact.chart import stored_chart
from solver.exact.chart_costs import check_chart, stored_costs
from solver.exact.dealer import dealer_distribution
from solver.exact.game import ProgressCallback, solve_game
from solver.exact.ratios import ratio_table, round_moments
from solver.exact.strategies import realistic_play, simple_policy
from solver.exact.volatility import check_ratio, parse_ratios, with_volatility
from solver.model.cards import RANKS, VALUES, Card, Shoe, parse_value
from solver.model.chart_file import ChartGrid
from solver.model.checks import checked, is_whole, shown
from solver.model.errors import CardError, StrategyError
from solver.model.outcomes import POLICY_NAMES
from solver.model.rules import TABULATED_RATIOS, Rules
from solver.results.charts import Chart, ChartCheck, ChartCosts
from solver.results.game import DealerResult
from solver.results.kinds import Store
from solver.results.strategies import StrategiesResult
from solver.sim.strategies import TABLE_STRATEGIES


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
        if abs(bonus) > 10**6:  # too long for str(), and no card
            raise CardError(f"bonus {shown(bonus)} is not a card: use A, 2 to 10, or all")
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
def chart_check(
    *,
    file: str | Path,
    cache: Store | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> ChartCheck:
    """The chart in ``file``: its exact EV, its cost against the best chart and perfect play,
    and each cell where it differs from the best chart with that cell's cost."""
    played = make_rules(rules, options)
    grid = load_chart(file)  # a bad file fails before the solve
    game = solve_game(played, exact=True, cache=cache)
    return check_chart(game, grid, grid.name, stored_chart(played, game, cache))


@checked
def chart_costs(
    *, cache: Store | None = None, rules: Rules | None = None, **options: Unpack[RuleOptions]
) -> ChartCosts:
    """The best chart with, in each cell, the cost of playing that cell the other way."""
    played = make_rules(rules, options)
    return stored_costs(solve_game(played, exact=True, cache=cache), cache)


@checked
def strategies(
    *,
    names: Sequence[str] | str = POLICY_NAMES,
    bonus_ratios: Sequence[Fraction | int | str] | str = TABULATED_RATIOS,
    removed: Cards = (),
    jobs: int = 1,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> StrategiesResult:
    """Exact main EV, round EV, round house edge and cost against optimal play of each policy.

    ``names`` lists the policies (``optimal``, ``chart``, ``chart:FILE``, ``stand-on:K``,
    ``never-bust``, ``mimic-dealer``, ``always-stand``; text is a comma list); ``chart:FILE``
    plays the chart in that file (CSV or JSON, as :func:`chart` writes it).  The result also carries
    optimal play's round at each of ``bonus_ratios`` (each at least 1/2) and its
    volatility at the rules' ratio.  ``removed`` cards are out of the shoe (with suits).
    """
    played = make_rules(rules, options)
    listed = names.split(",") if isinstance(names, str) else list(names)
    if not listed or any(not n.strip() for n in listed):
        raise StrategyError(f"strategies {shown(names)}: give names separated by commas")
    ratios = (
        parse_ratios(bonus_ratios)
        if isinstance(bonus_ratios, str)
        else tuple(check_ratio(r) for r in bonus_ratios)
    )
    charts: dict[str, ChartGrid] = {}
    for name in listed:  # refuse unknown names (and unreadable charts) before the long solve
        grid = chart_for(name)
        if grid is not None:
            charts[name.strip()] = grid
        elif name.strip().lower() not in TABLE_STRATEGIES:
            simple_policy(name, played)
    bar = step_progress(progress, "solving Bonus cards")
    game = solve_game(played, given_cards(removed), True, jobs, bar, cache)
    result = realistic_play(played, listed, game, cache, charts)
    moments = round_moments(game)
    return replace(
        result,
        ratios=ratio_table(moments, ratios),
        volatility=with_volatility(game, cache).volatility,
    )
