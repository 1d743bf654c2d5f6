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
from solver.exact.hold import hold_check, observed_win, parse_amount, parse_ratio
from solver.exact.hold import hold_series as series_check
from solver.exact.lattice import round_table
from solver.exact.ratios import ratio_table, round_moments
from solver.exact.session import session_figures
from solver.exact.strategies import policy_for, realistic_play, simple_policy
from solver.exact.table_round import seat_law, table_round
from solver.exact.volatility import parse_ratios, with_volatility
from solver.model.cards import RANKS, VALUES, Card, Shoe, parse_value
from solver.model.chart_file import ChartGrid
from solver.model.checks import is_whole, shown
from solver.model.daily import parse_daily
from solver.model.errors import CardError, SessionError, StrategyError
from solver.model.rule_table import RULES_BY_NAME
from solver.model.rules import Rules
from solver.results.charts import Chart, ChartCheck, ChartCosts
from solver.results.game import DealerResult, DecisionGraph
from solver.results.hold import HoldCheck, HoldSeries, Seating
from solver.results.report import PlayerStrategy
from solver.results.run import Run
from solver.results.session import RoundTable, SessionResult
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
        raise StrategyError(f"strategies {shown(given)}: give names separated by commas")
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


def seated(
    rules: Rules, strategy: tuple[tuple[Fraction, PlayerStrategy], ...], seats: int, run: Run
) -> tuple[Seating, RoundTable, Fraction]:
    """Who sat at the table, the table-round's distribution and its exact mean (the
    players' net per table-round): exact for one seat of one strategy, else the float
    table-round of :func:`~solver.exact.table_round.table_round`."""
    players = [p for _, p in strategy]
    check_names(rules, tuple(players))
    charts = {p.key: p.chart for p in players if p.chart is not None}
    names = [p.key for p in players]
    game = solve_game(rules, (), True, run.jobs, run.progress, run.cache)
    played = realistic_play(rules, names, game, run.cache, charts).policies
    by_name = {p.name: p.game for p in played}
    shares = tuple((share, p.key) for share, p in strategy)
    seating = Seating(seats, shares)
    mean = seats * sum(
        (share * Fraction(by_name[n].round_expected_value) for share, n in shares), Fraction(0)
    )
    if seats == 1 and len(shares) == 1:
        lines = by_name[names[0]].round_lines
        if not lines:  # pragma: no cover - the full shoe's cards all have suits
            raise SessionError("the round needs the suits of every card")
        return seating, round_table([(line.net, line.probability) for line in lines]), mean
    laws = [(share, seat_law(rules, policy_for(n, game, run.cache, charts))) for share, n in shares]
    return seating, table_round(rules, laws, seats), mean


def drop_of(
    rules: Rules, rounds: int, seats: int, drop: str | None, drop_to_handle: str | None
) -> Fraction | None:
    """The table's drop over the rounds: given, or a share of the handle; None if neither."""
    if drop is not None and drop_to_handle is not None:
        raise SessionError("give the drop (--drop) or a drop-to-handle ratio, not both")
    if drop is not None:
        found = parse_amount(drop, "drop")
        if found <= 0:
            raise SessionError(f"drop {shown(drop)} must be above 0")
        return found
    if drop_to_handle is not None:
        return parse_ratio(drop_to_handle) * rounds * seats * (1 + rules.bonus_ratio)
    return None


def observed(
    rules: Rules,
    rounds: int,
    seats: int,
    result: Fraction | int | str | None = None,
    hold: Fraction | float | str | None = None,
    win_over_handle: Fraction | float | str | None = None,
    drop: str | None = None,
    drop_to_handle: str | None = None,
) -> tuple[Fraction, Fraction | None]:
    """The casino's win in main units and the table's drop (None: not given), from exactly
    one of its win, its hold over the drop or its win over the handle."""
    found_drop = drop_of(rules, rounds, seats, drop, drop_to_handle)
    win = observed_win(
        Seating(seats, ((Fraction(1), "optimal"),)),
        rules,
        rounds,
        result=result,
        hold=hold,
        win_over_handle=win_over_handle,
        drop=found_drop,
    )
    return win, found_drop


def hold(
    *,
    rules: Rules,
    rounds: int | None,
    result: Fraction | int | str | None,
    hold: Fraction | float | str | None,
    win_over_handle: Fraction | float | str | None,
    drop: str | None,
    drop_to_handle: str | None,
    seats: int,
    strategy: tuple[tuple[Fraction, PlayerStrategy], ...],
    method: str,
    run: Run,
) -> HoldCheck:
    """Whether a table's result over ``rounds`` table-rounds is within what the game allows.

    Give the casino's win in main units (``result``), its hold over the drop (``hold``,
    with ``drop`` in main units or ``drop_to_handle``) or its win over the handle
    (``win_over_handle``).  ``seats`` seats share the dealer and the Bonus card; ``strategy``
    is one strategy or a mix (``"10% optimal, 60% chart, 30% mimic-dealer"``).  The answer
    is the exact two-sided tail of a result at least that far from the expectation, the
    90/95/99% bands and a verdict.  See docs/protection.md.
    """
    if rounds is None:
        raise SessionError("give the table-rounds dealt (--rounds), or a daily file (--from)")
    win, found_drop = observed(  # a bad result is refused before the solve
        rules, rounds, seats, result, hold, win_over_handle, drop, drop_to_handle
    )
    seating, table, mean = seated(rules, strategy, seats, run)
    return hold_check(rules, table, rounds, win, seating, method, found_drop, mean)


def hold_series(
    *,
    rules: Rules,
    daily: str | None,
    text: str | None,
    seats: int,
    strategy: tuple[tuple[Fraction, PlayerStrategy], ...],
    unit: str,
    drop_to_handle: str | None,
    rounds_per_hour: int,
    method: str,
    run: Run,
) -> HoldSeries:
    """A pit's daily results (``cbj hold --from FILE``) against the exact distribution:
    each period's tail and bands, the periods outside the 95% band (alone, and after
    Holm's correction for testing them all) and the whole run as one check.

    ``daily`` names a CSV file (date, rounds or hours, win, drop), or ``text`` holds it;
    its amounts are in money, ``unit`` money to a main unit.  See docs/protection.md.
    """
    if (daily is None) == (text is None):
        raise SessionError("give the daily results as a file (--from) or as text, not both")
    money = parse_amount(unit, "unit")
    if money <= 0:
        raise SessionError(f"unit {shown(unit)} must be above 0: the money a main unit stands for")
    ratio = None if drop_to_handle is None else parse_ratio(drop_to_handle)
    given = daily if text is None else text
    assert given is not None  # exactly one of the two
    rows = parse_daily(given)
    seating, table, mean = seated(rules, strategy, seats, replace(run, progress=None))
    return series_check(
        rules,
        table,
        rows,
        seating,
        unit=money,
        drop_to_handle=ratio,
        rounds_per_hour=rounds_per_hour,
        method=method,
        mean=mean,
        progress=run.progress,
    )


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
