"""The commands that need the dealer's and the player's tables, as computations:
``dealer``, ``graph``, ``chart`` (and its check and costs), ``strategies``, ``session``
and ``hold``; these load numpy, unlike :mod:`solver.studies.game`'s.

A strategy comes as a :class:`~solver.results.report.PlayerStrategy`: its name, and the
chart a ``chart:FILE`` names already read (the API reads files; nothing here does).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from solver.exact.chart import stored_chart
from solver.exact.chart_costs import check_chart, stored_costs
from solver.exact.dealer import dealer_distribution
from solver.exact.game import solve_game
from solver.exact.graph import decision_graph
from solver.exact.hold import hold_check, observed_win
from solver.exact.lattice import round_table
from solver.exact.ratios import ratio_table, round_moments
from solver.exact.session import session_figures
from solver.exact.strategies import realistic_play, simple_policy
from solver.exact.volatility import parse_ratios, with_volatility
from solver.model.cards import RANKS, VALUES, Card, Shoe, parse_value
from solver.model.catalogue import HOLD_OR_RESULT
from solver.model.chart_file import ChartGrid
from solver.model.checks import is_whole, shown
from solver.model.errors import CardError, SessionError, StrategyError
from solver.model.rule_table import RULES_BY_NAME
from solver.model.rules import Rules
from solver.results.charts import Chart, ChartCheck, ChartCosts
from solver.results.game import DealerResult, DecisionGraph
from solver.results.hold import HoldCheck
from solver.results.report import PlayerStrategy
from solver.results.run import Run
from solver.results.session import SessionResult
from solver.results.strategies import StrategiesResult
from solver.sim.strategies import TABLE_STRATEGIES


def chart(*, rules: Rules, run: Run) -> Chart:
    """The best printable hit/stand chart, its exact EV and its cost against perfect play."""
    return stored_chart(rules, solve_game(rules, exact=True, cache=run.cache), run.cache)


def chart_check(*, rules: Rules, file: ChartGrid, run: Run) -> ChartCheck:
    """The chart in ``file``: its exact EV, its cost against the best chart and perfect play,
    and each cell where it differs from the best chart with that cell's cost."""
    game = solve_game(rules, exact=True, cache=run.cache)
    return check_chart(game, file, file.name, stored_chart(rules, game, run.cache))


def chart_costs(*, rules: Rules, run: Run) -> ChartCosts:
    """The best chart with, in each cell, the cost of playing that cell the other way."""
    return stored_costs(solve_game(rules, exact=True, cache=run.cache), run.cache)


def check_names(played: Rules, strategies: tuple[PlayerStrategy, ...]) -> None:
    """Refuse an unknown strategy name (one line naming the valid ones) before any solve."""
    for strategy in strategies:
        if strategy.chart is None and strategy.key not in TABLE_STRATEGIES:
            simple_policy(strategy.name, played)


def strategies(
    *,
    rules: Rules,
    names: tuple[PlayerStrategy, ...],
    bonus_ratios: str | tuple[Fraction | int | str, ...],
    removed: tuple[Card, ...],
    run: Run,
) -> StrategiesResult:
    """Exact main EV, round EV, round house edge and cost against optimal play of each policy,
    optimal play's round at each Bonus ratio and its volatility at the rules' ratio."""
    if not names or any(not n.name.strip() for n in names):
        given = ",".join(n.name for n in names)
        raise StrategyError(f"strategies {given!r}: give names separated by commas")
    check_ratio = RULES_BY_NAME["bonus_ratio"].check
    ratios = (
        parse_ratios(bonus_ratios)
        if isinstance(bonus_ratios, str)
        else tuple(check_ratio(r) for r in bonus_ratios)
    )
    check_names(rules, names)
    charts = {n.name.strip(): n.chart for n in names if n.chart is not None}
    game = solve_game(rules, removed, True, run.jobs, run.progress, run.cache)
    listed = [n.name for n in names]
    result = realistic_play(rules, listed, game, run.cache, charts)
    return replace(
        result,
        ratios=ratio_table(round_moments(game), ratios),
        volatility=with_volatility(game, run.cache).volatility,
    )


def round_lines(
    rules: Rules, strategy: PlayerStrategy, removed: tuple[Card, ...], run: Run
) -> tuple[str, list[tuple[Fraction, Fraction]]]:
    """The strategy's name and the exact round's (net, probability) lines it plays."""
    check_names(rules, (strategy,))
    name = strategy.name.strip() if strategy.chart is not None else strategy.key
    game = solve_game(rules, removed, True, run.jobs, run.progress, run.cache)
    if name != "optimal":
        charts = {} if strategy.chart is None else {name: strategy.chart}
        game = realistic_play(rules, [name], game, run.cache, charts).policies[0].game
    if not game.round_lines:
        raise SessionError("the round needs the suits of every removed card")
    return name, [(line.net, line.probability) for line in game.round_lines]


def session(
    *,
    rules: Rules,
    rounds: int,
    bankroll: Fraction | None,
    strategy: PlayerStrategy,
    method: str,
    removed: tuple[Card, ...],
    run: Run,
) -> SessionResult:
    """The exact distribution of the net result over ``rounds`` rounds of ``strategy``."""
    name, lines = round_lines(rules, strategy, removed, run)
    figures = session_figures(lines, rounds, bankroll, method)  # type: ignore[arg-type]
    return SessionResult(rules, name, figures)


def hold(
    *,
    rules: Rules,
    rounds: int,
    result: Fraction | None,
    hold: Fraction | None,
    strategy: PlayerStrategy,
    method: str,
    run: Run,
) -> HoldCheck:
    """Whether a table's result over ``rounds`` rounds is within what the game allows: the
    casino's net ``result`` in main units or its ``hold`` (a share of the total wagered),
    judged by the exact two-sided tail of the session's distribution."""
    if (result is None) == (hold is None):
        raise SessionError(HOLD_OR_RESULT)
    win = observed_win(rules, rounds, result, None if hold is None else str(hold))
    name, lines = round_lines(rules, strategy, (), run)
    return hold_check(rules, round_table(lines), rounds, win, name, method)


def dealer(*, rules: Rules, bonus: str | int, removed: tuple[Card, ...]) -> DealerResult:
    """The dealer's final result for the Bonus card ``bonus`` (a value, or ``"all"``)."""
    shoe = Shoe.full(rules.decks).remove(removed)
    if is_whole(bonus):
        if abs(bonus) > 10**6:  # too long for str(), and no card
            raise CardError(f"bonus {shown(bonus)} is not a card: use A, 2 to 10, or all")
        bonuses = [parse_value(str(bonus))]
    elif str(bonus).strip().lower() == "all":
        bonuses = list(VALUES)
    else:
        bonuses = [parse_value(str(bonus))]
    rows = tuple(
        (b, dealer_distribution(rules, b, shoe.remove([Card(RANKS[b - 1])]).value_counts()))
        for b in bonuses
    )
    return DealerResult(rules, removed, rows)


def graph(*, rules: Rules, bonus: Card, hand: tuple[Card, ...], exact: bool) -> DecisionGraph:
    """The player's decision graph against ``bonus``, from ``hand`` or every first card."""
    return decision_graph(rules, bonus, hand, exact=exact)
