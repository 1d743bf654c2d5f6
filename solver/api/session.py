"""``cbj session`` and ``cbj hold``: a session's exact distribution, the risk of ruin, and the
casino's check of an observed hold."""

from __future__ import annotations

from fractions import Fraction
from typing import Unpack

from solver.api.chart_file import chart_for
from solver.api.rules import Cards, RuleOptions, given_cards, make_rules
from solver.exact.game import ProgressCallback, solve_game
from solver.exact.hold import hold_check, observed_win
from solver.exact.lattice import round_table
from solver.exact.session import METHODS, check_rounds, parse_bankroll, session_figures
from solver.exact.strategies import realistic_play, simple_policy
from solver.model.checks import checked, shown
from solver.model.errors import SessionError
from solver.model.rules import Rules
from solver.results.hold import HoldCheck
from solver.results.kinds import Store
from solver.results.session import SessionResult
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
    progress: ProgressCallback | None = None,
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
    check_rounds(rounds)  # bad input is refused before the solve
    chosen = None if bankroll is None else parse_bankroll(bankroll)
    if method not in METHODS:
        raise SessionError(f"method {shown(method)} is unknown: use auto, exact or fft")
    played = make_rules(rules, options)
    name, lines = _round_lines(played, strategy, removed, jobs, cache, progress)
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


@checked
def hold(
    *,
    rounds: int,
    result: Fraction | int | str | None = None,
    hold: str | None = None,
    strategy: str = "optimal",
    method: str = "auto",
    jobs: int = 1,
    cache: Store | None = None,
    progress: ProgressCallback | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> HoldCheck:
    """Whether a table's result over ``rounds`` rounds is within what the game allows.

    Give the casino's net ``result`` in main units or its ``hold`` (a share of the total
    wagered, ``"2.5%"``); the answer is the exact two-sided tail probability of a result at
    least that far from the expectation, the 90/95/99% hold bands and a verdict, every
    seat-round counted as one independent round of ``strategy``.  See docs/protection.md.
    """
    check_rounds(rounds)
    if method not in METHODS:
        raise SessionError(f"method {shown(method)} is unknown: use auto, exact or fft")
    played = make_rules(rules, options)
    win = observed_win(played, rounds, result, hold)
    name, lines = _round_lines(played, strategy, (), jobs, cache, progress)
    return hold_check(played, round_table(lines), rounds, win, name, method)
