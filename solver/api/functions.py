"""The library's commands: one function per row of the command table.

Written from :data:`~solver.api.table.COMMANDS` by ``python scripts/commands_code.py``: do
not edit (``tests/test_commands.py`` fails when this file differs from what the script
writes).  Each function reads its arguments by the parameter catalogue and runs its
row's computation (:func:`~solver.api.call.call`); each is a name of :mod:`solver`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Unpack, cast, overload

from solver.api.call import call
from solver.model.outcomes import POLICY_NAMES

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from fractions import Fraction
    from pathlib import Path
    from typing import Any

    from solver.api.rules import Cards, RuleOptions, VariantOptions
    from solver.model.cards import Card
    from solver.model.chart_file import ChartGrid
    from solver.model.params import ProgressCallback
    from solver.model.paytable import Paytable, Tier
    from solver.model.rules import Rules
    from solver.results.attack import AttackResult
    from solver.results.betting import BetResult
    from solver.results.bonus import BonusResult
    from solver.results.charts import Chart, ChartCheck, ChartCosts
    from solver.results.commands import (
        AdviseResult,
        CountResult,
        EorResult,
        GraphResult,
        HoldResult,
        HoldSeriesResult,
        PaytableSearchResult,
        PaytableSolveResult,
        PracticePlayResult,
        PracticeStartResult,
        ReportResult,
        SeatsResult,
        SimulateResult,
        SolveResult,
        TablesResult,
    )
    from solver.results.game import DealerResult
    from solver.results.indices import IndicesResult
    from solver.results.kinds import Store
    from solver.results.paytable import Variants
    from solver.results.practice import PracticeState
    from solver.results.practice_history import PracticeHistory
    from solver.results.protection import ShoeStates
    from solver.results.report import PlayerStrategy
    from solver.results.rules import RulesResult
    from solver.results.run import Run
    from solver.results.session import SessionResult
    from solver.results.strategies import StrategiesResult
    from solver.results.sweep import SweepResult
    from solver.store.cache import CacheClearResult
    from solver.store.disk import CacheInfo


__all__ = [
    "advise",
    "attack",
    "bet",
    "bonus",
    "cache_clear",
    "cache_info",
    "chart",
    "chart_check",
    "chart_costs",
    "count",
    "dealer",
    "eor",
    "graph",
    "hold",
    "hold_series",
    "indices",
    "paytable_search",
    "paytable_solve",
    "practice_play",
    "practice_start",
    "report",
    "rules",
    "seats",
    "session",
    "shoe_states",
    "simulate",
    "solve",
    "strategies",
    "sweep",
    "tables",
    "variants",
]


def rules(
    *,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> RulesResult:
    """The rules in force, each validated; with ``preset=``, which rules it sets and why."""
    return cast("RulesResult", call("rules", locals()))


def bonus(
    *,
    removed: Cards = (),
    symbolic: bool = False,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> BonusResult:
    """The Bonus wager's exact return table from a full shoe less ``removed`` cards."""
    return cast("BonusResult", call("bonus", locals()))


@overload
def solve(
    *,
    removed: Cards = ...,
    exact: Literal[True],
    jobs: int | str = ...,
    cache: Store | None = ...,
    progress: ProgressCallback | bool | None = ...,
    run: Run | None = ...,
    rules: Rules | None = ...,
    **options: Unpack[RuleOptions],
) -> SolveResult[Fraction]: ...


@overload
def solve(
    *,
    removed: Cards = ...,
    exact: Literal[False] = ...,
    jobs: int | str = ...,
    cache: Store | None = ...,
    progress: ProgressCallback | bool | None = ...,
    run: Run | None = ...,
    rules: Rules | None = ...,
    **options: Unpack[RuleOptions],
) -> SolveResult[float]: ...


@overload
def solve(
    *,
    removed: Cards = ...,
    exact: bool = ...,
    jobs: int | str = ...,
    cache: Store | None = ...,
    progress: ProgressCallback | bool | None = ...,
    run: Run | None = ...,
    rules: Rules | None = ...,
    **options: Unpack[RuleOptions],
) -> SolveResult[Any]: ...


def solve(
    *,
    removed: Cards = (),
    exact: bool = False,
    jobs: int | str = 1,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> SolveResult[Any]:
    """Optimal play, the main wager, the Bonus wager and the whole round, with its volatility."""
    return cast("SolveResult[Any]", call("solve", locals()))


def advise(
    *,
    bonus: Card | str,
    hand: Cards,
    seen: Cards = (),
    exact: bool = False,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> AdviseResult[Any]:
    """Stand and hit values for one hand against the Bonus card, and the better choice."""
    return cast("AdviseResult[Any]", call("advise", locals()))


def dealer(
    *,
    bonus: str | int = "all",
    removed: Cards = (),
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> DealerResult:
    """The dealer's final result for the Bonus card ``bonus`` (a value, or ``"all"``)."""
    return cast("DealerResult", call("dealer", locals()))


def chart(
    *,
    cache: Store | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> Chart:
    """The best printable hit/stand chart, its exact EV and its cost against perfect play."""
    return cast("Chart", call("chart", locals()))


def chart_check(
    *,
    file: str | Path,
    cache: Store | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> ChartCheck:
    """The chart in ``file``: its exact EV, its cost against the best chart and perfect play,
    and each cell where it differs from the best chart with that cell's cost.
    """
    return cast("ChartCheck", call("chart_check", locals()))


def chart_costs(
    *,
    cache: Store | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> ChartCosts:
    """The best chart with, in each cell, the cost of playing that cell the other way."""
    return cast("ChartCosts", call("chart_costs", locals()))


def tables(
    output_dir: str | Path = "strategy_tables",
    *,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    run: Run | None = None,
) -> TablesResult:
    """Write the ``strategy_tables/`` collection: every variant's chart in every format.

    The folder is checked first (it must be new, empty or a collection already), built
    aside and swapped in whole, so an interrupted run leaves the old collection intact.
    """
    return cast("TablesResult", call("tables", locals()))


def strategies(
    *,
    names: Sequence[str] | str = POLICY_NAMES,
    bonus_ratios: Sequence[Fraction | int | str] | str = "1/2,3/4,1,3/2,2",
    removed: Cards = (),
    jobs: int | str = 1,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> StrategiesResult:
    """Exact main EV, round EV, round house edge and cost against optimal play of each policy,
    optimal play's round at each Bonus ratio and its volatility at the rules' ratio.
    """
    return cast("StrategiesResult", call("strategies", locals()))


def session(
    *,
    rounds: int | str,
    bankroll: Fraction | float | str | None = None,
    strategy: str = "optimal",
    method: str = "auto",
    removed: Cards = (),
    jobs: int | str = 1,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> SessionResult:
    """The exact distribution of the net result over ``rounds`` rounds of ``strategy``."""
    return cast("SessionResult", call("session", locals()))


def hold(
    *,
    rounds: int | str | None = None,
    result: Fraction | int | str | None = None,
    hold: Fraction | float | str | None = None,
    win_over_handle: Fraction | float | str | None = None,
    drop: str | None = None,
    drop_to_handle: str | None = None,
    seats: int | str = 1,
    strategy: str = "optimal",
    method: str = "auto",
    jobs: int | str = 1,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> HoldResult:
    """Whether a table's result over ``rounds`` table-rounds is within what the game allows.

    Give the casino's win in main units (``result``), its hold over the drop (``hold``,
    with ``drop`` in main units or ``drop_to_handle``) or its win over the handle
    (``win_over_handle``).  ``seats`` seats share the dealer and the Bonus card; ``strategy``
    is one strategy or a mix (``"10% optimal, 60% chart, 30% mimic-dealer"``).  The answer
    is the exact two-sided tail of a result at least that far from the expectation, the
    90/95/99% bands and a verdict.  See docs/protection.md.
    """
    return cast("HoldResult", call("hold", locals()))


def hold_series(
    *,
    daily: str | Path | None = None,
    text: str | None = None,
    seats: int | str = 1,
    strategy: str = "optimal",
    unit: str = "1",
    drop_to_handle: str | None = None,
    rounds_per_hour: int | str = 60,
    method: str = "auto",
    jobs: int | str = 1,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> HoldSeriesResult:
    """A pit's daily results (``cbj hold --from FILE``) against the exact distribution:
    each period's tail and bands, the periods outside the 95% band (alone, and after
    Holm's correction for testing them all) and the whole run as one check.

    ``daily`` names a CSV file (date, rounds or hours, win, drop), or ``text`` holds it;
    its amounts are in money, ``unit`` money to a main unit.  See docs/protection.md.
    """
    return cast("HoldSeriesResult", call("hold_series", locals()))


def seats(
    *,
    seats: Sequence[int] | str = "1-7",
    rounds: int | str | None = None,
    seed: int | str | None = None,
    strategy: str = "optimal",
    jobs: int | str = 1,
    cache: Store | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> SeatsResult:
    """The casino's hold per table-round and its SD with each number of seats (1 to 7):
    the Bonus wager's exact, the main wager's and the round's simulated, ``rounds``
    table-rounds per number of seats, every seat playing ``strategy`` from a fresh shoe.
    """
    return cast("SeatsResult", call("seats", locals()))


def simulate(
    *,
    rounds: int | str,
    seed: int | str | None = None,
    seats: int | str = 1,
    strategy: str = "optimal",
    penetration: Fraction | float | str | None = None,
    fresh_shoe: bool = False,
    csm: int | str | None = None,
    jobs: int | str = 1,
    removed: Cards = (),
    counter: str | Mapping[str, int] | None = None,
    spread: str | tuple[int, int] | None = None,
    ramp: str | Sequence[tuple[float, int]] | None = None,
    wong_out: Fraction | float | str | None = None,
    mid_shoe_entry: bool = True,
    indices: bool = False,
    index_samples: int | str = 2000,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> SimulateResult:
    """Deal ``rounds`` rounds with the independent simulator, beside the exact figures.

    The shoe is reshuffled after ``penetration`` of it is dealt (0.75 when not given), or
    every round with ``fresh_shoe``, or dealt by a continuous shuffler whose tray holds
    ``csm`` cards (each round's cards go back in before the next); ``counter`` seats a card
    counter at seat 1 who bets by the true count within ``spread`` along ``ramp`` and sits
    out below ``wong_out`` (with ``mid_shoe_entry`` false it sits down only at a shuffle and
    leaves until the next below ``wong_out``), and with ``indices`` plays the count's index
    plays (found from ``index_samples`` dealt shoes at the simulation's penetration).
    """
    return cast("SimulateResult", call("simulate", locals()))


def eor(
    *,
    removed: Cards = (),
    exact: bool = False,
    jobs: int | str = 1,
    cache: Store | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> EorResult[Any]:
    """The exact change in each wager's EV when one card of each rank leaves the shoe."""
    return cast("EorResult[Any]", call("eor", locals()))


def count(
    *,
    tags: str | Mapping[str, int] | None = None,
    system: str | None = None,
    removed: Cards = (),
    exact: bool = False,
    jobs: int | str = 1,
    cache: Store | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> CountResult:
    """Betting correlation and EV per true count of a count (or of the usual ones and the best)."""
    return cast("CountResult", call("count", locals()))


def shoe_states(
    *,
    depths: str | Sequence[float | str] | None = None,
    samples: int | str,
    seed: int | str | None = None,
    system: str | None = None,
    tags: str | Mapping[str, int] | None = None,
    jobs: int | str = 1,
    backend: str = "local",
    scheduler: str | None = None,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> ShoeStates:
    """Deal ``samples`` random shoes to each depth, solve each, and summarise what they do."""
    return cast("ShoeStates", call("shoe_states", locals()))


def indices(
    *,
    count: str = "best-level-2",
    samples: int | str = 2000,
    seed: int | str = 39,
    penetration: Fraction | float | str = 0.83,
    jobs: int | str = 1,
    backend: str = "local",
    scheduler: str | None = None,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> IndicesResult:
    """The true count at which each chart decision worth most flips, ranked by value."""
    return cast("IndicesResult", call("indices", locals()))


def bet(
    *,
    count: str = "best-level-2",
    spread: str | tuple[int, int] = "1-8",
    bankroll: Fraction | float | str = 1000.0,
    kelly_fraction: Fraction | float | str = 1.0,
    rounds_per_hour: int | str = 100,
    target_ruin: Fraction | float | str = 0.05,
    indices: bool = False,
    samples: int | str = 2000,
    seed: int | str = 39,
    penetration: Fraction | float | str = 0.83,
    jobs: int | str = 1,
    backend: str = "local",
    scheduler: str | None = None,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> BetResult:
    """The growth-optimal (Kelly) ramp within a spread, with SCORE, DI, N0 and win rates,
    for a counter who plays the chart (and with ``indices`` the count's index plays).
    """
    return cast("BetResult", call("bet", locals()))


def attack(
    *,
    spread: str | tuple[int, int] = "1-8",
    bonus_multiple: Fraction | float | str | None = None,
    count: str = "best-level-2",
    paths: int | str = 40,
    rounds: int | str = 2000000,
    buffer: int | str = 20,
    samples: int | str = 2000,
    seed: int | str = 39,
    penetration: Fraction | float | str = 0.83,
    jobs: int | str = 1,
    backend: str = "local",
    scheduler: str | None = None,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> AttackResult:
    """Every attack a casino must consider, each with its bound and the best practical
    counter's figure, per round dealt and per round played, by penetration and under a
    continuous shuffler (a tray of ``buffer`` cards), and the verdict they give.

    ``count`` is the practical counter's count (its Kelly ramp within ``spread`` and its
    index plays); ``paths`` shoes dealt round by round give the bound with no mid-shoe
    entry; ``rounds`` simulated rounds measure the practical counter with no mid-shoe entry
    and under the shuffler.  ``bonus_multiple`` is the most the Bonus wager is raised to,
    in main wagers: by default 2, or twice the rules' Bonus ratio if that is more (at most
    100).  A store keeps the result whole: the same arguments again read it back (the
    simulated counters, most of the cost, are kept nowhere else).
    """
    return cast("AttackResult", call("attack", locals()))


def sweep(
    *,
    vary: str,
    start: Fraction | float | int | str,
    stop: Fraction | float | int | str,
    step: Fraction | float | int | str | None = None,
    exact: bool = False,
    jobs: int | str = 1,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> SweepResult:
    """The edge against one parameter: the game under the rules with ``vary`` (a numeric
    rule, or a tier's pay) set to each value from ``start`` to ``stop`` by ``step``, each
    wager's house edge and the round's edge and SD at each, the value in force marked.
    """
    return cast("SweepResult", call("sweep", locals()))


def paytable_solve(
    *,
    solve_for: Tier | str,
    suited_match: Fraction | int | str | None = None,
    rank_match: Fraction | int | str | None = None,
    adjacent: Fraction | int | str | None = None,
    pays: Mapping[str, Fraction | int | str] | None = None,
    target_bonus_edge: Fraction | str | None = None,
    target_round_edge: Fraction | str | None = None,
    cache: Store | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> PaytableSolveResult:
    """The exact pay of tier ``solve_for`` (any tier of the paytable) that gives the target
    edge; ``suited_match``, ``rank_match``, ``adjacent`` and ``pays`` (by tier name)
    override pays of the paytable in force.
    """
    return cast("PaytableSolveResult", call("paytable_solve", locals()))


def paytable_search(
    *,
    max_pay: int | str = 50,
    round_edge_range: str | None = None,
    bonus_edge_range: str | None = None,
    top: int | str = 10,
    tiers: str | Sequence[Tier | str] | None = None,
    cache: Store | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> PaytableSearchResult:
    """Whole-unit paytables whose house edge lies in a band, closest to its middle first;
    ``tiers`` names the tiers searched, best first (clause 4's three when not given).
    """
    return cast("PaytableSearchResult", call("paytable_search", locals()))


def variants(
    *,
    exact: bool = False,
    jobs: int | str = 1,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[VariantOptions],
) -> Variants:
    """Main EV, Bonus EV and round edge for every combination of the rule values listed."""
    return cast("Variants", call("variants", locals()))


def report(
    output: str | Path | None = None,
    *,
    paytables: Sequence[Paytable | str] = (),
    format: str | None = None,
    shoe_samples: int | str | None = None,
    counter_rounds: int | str | None = None,
    jobs: int | str = 1,
    cache: Store | None = None,
    table_rounds: int | str | None = None,
    simulation_rounds: int | str | None = None,
    strategy: str | PlayerStrategy = "optimal",
    prepared_by: str = "",
    prepared_for: str = "",
    revision_note: str = "",
    table_limits: str = "",
    procedures: str = "",
    core_only: bool = False,
    progress: ProgressCallback | bool | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> ReportResult:
    """A PAR-style report of the game.

    Written to ``output`` (HTML or PDF, as ``format`` or the extension says; the path is
    checked before any work), else returned: HTML text, or PDF bytes if ``format="pdf"``.
    ``shoe_samples`` (4 dealt shoes, and a 25th of a shoe dealt round by round, per
    sample) and ``counter_rounds`` (rounds per simulated counter) size the
    game-protection section, ``table_rounds`` (table-rounds
    per number of seats) the table of players and ``simulation_rounds`` the simulation
    cross-check (``None``: each one's default). ``paytables`` are set beside the rules'
    own paytable (A) as B, C, ...; ``prepared_by``, ``prepared_for`` and
    ``revision_note`` fill the title block (blank lines when empty); ``table_limits`` and
    ``procedures``, when given, are stated in the title block and with the game.
    ``core_only`` writes the core alone, without its annexes. ``strategy`` is the
    player's (a name as for :func:`~solver.api.functions.strategies`, or ``chart:FILE``,
    or a :class:`~solver.results.report.PlayerStrategy` whose chart is read already), set
    beside perfect play and played in the volatility section; a chart file's SHA-256 goes
    in the manifest. ``progress(done, total)`` is called as each step of the
    report's figures finishes.
    """
    return cast("ReportResult", call("report", locals()))


def graph(
    output: str | Path | None = None,
    *,
    bonus: Card | str,
    hand: Cards = (),
    exact: bool = False,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> GraphResult:
    """The player's decision graph against ``bonus``, from ``hand`` or every first card.

    Written to ``output`` (``.graphml``, ``.gexf``, ``.dot``, or a picture: ``.svg``,
    ``.png``, ``.pdf``) when given; else the graph itself, whose ``to_json()`` lists it.
    """
    return cast("GraphResult", call("graph", locals()))


def cache_info(
    directory: str | Path | None = None,
    *,
    warn: Callable[[str], None] | None = None,
) -> CacheInfo:
    """Where the disk cache is, its size on disk, its entries and its size cap."""
    return cast("CacheInfo", call("cache_info", locals()))


def cache_clear(
    directory: str | Path | None = None,
    *,
    warn: Callable[[str], None] | None = None,
) -> CacheClearResult:
    """Delete every entry of the disk cache."""
    return cast("CacheClearResult", call("cache_clear", locals()))


def practice_start(
    *,
    seed: int | str | None = None,
    drill: str = "dealt",
    penetration: Fraction | float | str | None = None,
    chart: str | Path | ChartGrid | None = None,
    history: PracticeHistory | Mapping[str, Any] | None = None,
    cache: Store | None = None,
    run: Run | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> PracticeStartResult:
    """A practice session under the rules, its first round dealt.

    ``seed`` makes the session replayable (a fresh one when None, shown in the state);
    ``drill`` is ``dealt``, ``hard``, ``soft``, ``costly``, ``close`` or ``mistakes``;
    ``penetration`` is the share of the shoe dealt before a reshuffle (3/4 when None);
    ``chart`` is the chart learned (the printed best chart when None); ``history`` is the
    player's practice history (or its JSON, checked), whose review schedule the session
    carries on.
    """
    return cast("PracticeStartResult", call("practice_start", locals()))


def practice_play(
    state: PracticeState | Mapping[str, Any],
    play: str,
    *,
    cache: Store | None = None,
    run: Run | None = None,
) -> PracticePlayResult:
    """One play of a session: ``hit`` or ``stand`` (graded), or ``deal`` the next round;
    ``state`` is the last turn's (or its JSON, read as untrusted input and checked).
    """
    return cast("PracticePlayResult", call("practice_play", locals()))
