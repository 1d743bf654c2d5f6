"""``cbj session`` and ``cbj hold``: a session's exact distribution, the risk of ruin, and the
casino's check of an observed hold."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, Unpack

from solver.api.chart_file import chart_for
from solver.api.progress import step_progress
from solver.api.reading import read_small_file, shown_name
from solver.api.rules import Cards, RuleOptions, given_cards, make_rules
from solver.exact.game import ProgressCallback, solve_game
from solver.exact.hold import (
    check_method,
    check_rounds,
    hold_check,
    observed_win,
    parse_amount,
    parse_ratio,
)
from solver.exact.hold import hold_series as series_check
from solver.exact.lattice import round_table
from solver.exact.seats import check_seats
from solver.exact.session import METHODS, parse_bankroll, session_figures
from solver.exact.session import check_rounds as check_session_rounds
from solver.exact.strategies import policy_for, realistic_play, simple_policy
from solver.exact.table_round import parse_mix, seat_law, table_round
from solver.model.checks import checked, shown
from solver.model.daily import MAX_DAILY_BYTES, parse_daily
from solver.model.errors import SessionError
from solver.model.rules import Rules
from solver.results.hold import HoldCheck, HoldSeries, Seating
from solver.results.kinds import Store
from solver.results.session import RoundTable, SessionResult
from solver.sim.strategies import TABLE_STRATEGIES


@checked
def session(
    *,
    rounds: int,
    bankroll: Fraction | int | str | None = None,
    strategy: str = "optimal",
    method: str = "auto",
    removed: Cards = (),
    jobs: int = 1,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> SessionResult:
    """The exact distribution of the net result over ``rounds`` rounds of ``strategy``.

    The whole round (main wager 1, Bonus wager at the ratio) is convolved ``rounds`` times:
    exact fractions up to 20 rounds (``method="auto"``; ``"exact"`` up to 100), floats by
    FFT with a bound on their error above (``"fft"``).  With ``bankroll``, the probability
    that the running total reaches ``-bankroll`` within the session and ever.  ``strategy``
    is a name as for :func:`~solver.api.strategy.strategies`.  See docs/session.md.
    """
    check_session_rounds(rounds)  # bad input is refused before the solve
    chosen = None if bankroll is None else parse_bankroll(bankroll)
    if method not in METHODS:
        raise SessionError(f"method {shown(method)} is unknown: use auto, exact or fft")
    played = make_rules(rules, options)
    bar = step_progress(progress, "solving Bonus cards")
    name, lines = _round_lines(played, strategy, removed, jobs, cache, bar)
    figures = session_figures(lines, rounds, chosen, method)  # type: ignore[arg-type]
    return SessionResult(played, name, figures)


def _round_lines(
    played: Rules,
    strategy: str,
    removed: Cards,
    jobs: int,
    cache: Store | None,
    progress: ProgressCallback | None,
) -> tuple[str, list[tuple[Fraction, Fraction]]]:
    """The strategy's name and the exact round's (net, probability) lines it plays."""
    name = strategy.strip().lower() if isinstance(strategy, str) else ""
    chart = chart_for(strategy) if isinstance(strategy, str) else None
    if chart is not None:
        name = strategy.strip()
    elif name not in TABLE_STRATEGIES:
        simple_policy(str(strategy), played)
    game = solve_game(played, given_cards(removed), True, jobs, progress, cache)
    if name != "optimal":
        charts = {} if chart is None else {name: chart}
        game = realistic_play(played, [name], game, cache, charts).policies[0].game
    if not game.round_lines:
        raise SessionError("the round needs the suits of every removed card")
    return name, [(line.net, line.probability) for line in game.round_lines]


def _seated(
    played: Rules,
    strategy: str,
    seats: int,
    jobs: int,
    cache: Store | None,
    progress: ProgressCallback | None,
) -> tuple[Seating, RoundTable, Fraction]:
    """Who sat at the table, the table-round's distribution and its exact mean (the
    players' net per table-round): exact for one seat of one strategy, else the float
    table-round of :func:`~solver.exact.table_round.table_round`."""
    check_seats(seats)
    players = parse_mix(strategy)
    charts: dict[str, Any] = {}
    names = []
    for _, name in players:
        chart = chart_for(name)
        if chart is not None:
            charts[name.strip()] = chart
            names.append(name.strip())
        else:
            names.append(name.strip().lower())
            if names[-1] not in TABLE_STRATEGIES:
                simple_policy(name, played)
    game = solve_game(played, (), True, jobs, progress, cache)
    played_games = realistic_play(played, names, game, cache, charts).policies
    by_name = {p.name: p.game for p in played_games}
    shares = [(share, name) for (share, _), name in zip(players, names, strict=True)]
    seating = Seating(seats, tuple(shares))
    mean = seats * sum(
        (share * Fraction(by_name[n].round_expected_value) for share, n in shares), Fraction(0)
    )
    if seats == 1 and len(shares) == 1:
        lines = by_name[names[0]].round_lines
        if not lines:  # pragma: no cover - the full shoe's cards all have suits
            raise SessionError("the round needs the suits of every card")
        return seating, round_table([(line.net, line.probability) for line in lines]), mean
    laws = [(share, seat_law(played, policy_for(n, game, cache, charts))) for share, n in shares]
    return seating, table_round(played, laws, seats), mean


def _drop_of(
    played: Rules, rounds: int, seats: int, drop: str | None, drop_to_handle: str | None
) -> Fraction | None:
    """The table's drop over the rounds: given, or a share of the handle; None if neither."""
    if drop is not None and drop_to_handle is not None:
        raise SessionError("give the drop (--drop) or a drop-to-handle ratio, not both")
    if drop is not None:
        found = parse_amount(drop, "drop")
        if found <= 0:
            raise SessionError(f"drop {drop!r} must be above 0")
        return found
    if drop_to_handle is not None:
        return parse_ratio(drop_to_handle) * rounds * seats * (1 + played.bonus_ratio)
    return None


@checked
def hold(
    *,
    rounds: int,
    result: Fraction | int | str | None = None,
    hold: str | None = None,
    win_over_handle: str | None = None,
    drop: str | None = None,
    drop_to_handle: str | None = None,
    seats: int = 1,
    strategy: str = "optimal",
    method: str = "auto",
    jobs: int = 1,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> HoldCheck:
    """Whether a table's result over ``rounds`` table-rounds is within what the game allows.

    Give the casino's win in main units (``result``), its hold over the drop (``hold``,
    with ``drop`` in main units or ``drop_to_handle``) or its win over the handle
    (``win_over_handle``).  ``seats`` seats share the dealer and the Bonus card; ``strategy``
    is one strategy or a mix (``"10% optimal, 60% chart, 30% mimic-dealer"``).  The answer
    is the exact two-sided tail of a result at least that far from the expectation, the
    90/95/99% bands and a verdict.  See docs/protection.md.
    """
    check_rounds(rounds)
    check_method(method)
    played = make_rules(rules, options)
    found_drop = _drop_of(played, rounds, seats, drop, drop_to_handle)
    bar = step_progress(progress, "solving Bonus cards")
    seating, table, mean = _seated(played, strategy, seats, jobs, cache, bar)
    win = observed_win(
        seating,
        played,
        rounds,
        result=result,
        hold=hold,
        win_over_handle=win_over_handle,
        drop=found_drop,
    )
    return hold_check(played, table, rounds, win, seating, method, found_drop, mean)


@checked
def hold_series(
    *,
    daily: str | Path | None = None,
    text: str | None = None,
    seats: int = 1,
    strategy: str = "optimal",
    unit: str = "1",
    drop_to_handle: str | None = None,
    rounds_per_hour: int = 60,
    method: str = "auto",
    jobs: int = 1,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> HoldSeries:
    """A pit's daily results (``cbj hold --from FILE``) against the exact distribution:
    each period's tail and bands, the periods outside the 95% band (alone, and after
    Holm's correction for testing them all) and the whole run as one check.

    ``daily`` names a CSV file (date, rounds or hours, win, drop), or ``text`` holds it;
    its amounts are in money, ``unit`` money to a main unit.  See docs/protection.md.
    """
    if (daily is None) == (text is None):
        raise SessionError("give the daily results as a file (--from) or as text, not both")
    check_method(method)
    money = parse_amount(unit, "unit")
    if money <= 0:
        raise SessionError(f"unit {unit!r} must be above 0: the money a main unit stands for")
    ratio = None if drop_to_handle is None else parse_ratio(drop_to_handle)
    if text is None:
        assert daily is not None
        data = read_small_file(
            daily, MAX_DAILY_BYTES, "daily file", SessionError, "a CSV of date,rounds,win,drop"
        )
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise SessionError(f"daily file {shown_name(daily)} is not UTF-8 text") from None
    rows = parse_daily(text)
    played = make_rules(rules, options)
    seating, table, mean = _seated(played, strategy, seats, jobs, cache, None)
    return series_check(
        played,
        table,
        rows,
        seating,
        unit=money,
        drop_to_handle=ratio,
        rounds_per_hour=rounds_per_hour,
        method=method,
        mean=mean,
        progress=step_progress(progress, "periods"),
    )
