"""The commands that write files: ``cbj tables``, ``cbj graph`` and ``cbj report``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Unpack

from solver.api.chart_file import chart_and_digest
from solver.api.progress import step_progress
from solver.api.rules import Cards, RuleOptions, given_cards, make_rules
from solver.exact.chart import stored_chart
from solver.exact.game import ProgressCallback, solve_game
from solver.exact.graph import decision_graph
from solver.model.cards import Card
from solver.model.checks import checked, shown
from solver.model.errors import CardError
from solver.model.paytable import Paytable
from solver.model.rules import Rules
from solver.present.collection import VARIANTS, is_collection, write_collection
from solver.present.files import (
    Written,
    check_output_dir,
    check_writable,
    choose_format,
    folder_swap,
    write_atomic,
)
from solver.present.graph import graph_format, render_graph
from solver.present.report import (
    REPORT_FORMATS,
    build_report,
    check_report_path,
    render_html,
    render_pdf,
    write_report,
)
from solver.present.report.front import Prepared
from solver.results.game import DecisionGraph
from solver.results.kinds import Store
from solver.results.report import PlayerStrategy
from solver.studies.report import report_figures, verify_strategy


@checked
def tables(
    output_dir: str | Path = "strategy_tables",
    *,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
) -> Written:
    """Write the ``strategy_tables/`` collection: every variant's chart in every format.

    The folder is checked first (it must be new, empty or a collection already), built
    aside and swapped in whole, so an interrupted run leaves the old collection intact.
    """
    target = check_output_dir(str(output_dir), is_collection)
    charts = [
        stored_chart(v.rules, solve_game(v.rules, exact=True, cache=cache), cache) for v in VARIANTS
    ]
    with folder_swap(target) as building:
        built = write_collection(building, charts, progress=step_progress(progress, "charts"))
    paths = tuple(target / path.relative_to(building) for path in built)
    return Written(Rules(), paths, tuple(charts))


@checked
def graph(
    output: str | Path | None = None,
    *,
    bonus: Card | str,
    hand: Cards = (),
    exact: bool = False,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> Written | DecisionGraph:
    """The player's decision graph against ``bonus``, from ``hand`` or every first card.

    Written to ``output`` (``.graphml``, ``.gexf``, ``.dot``, or a picture: ``.svg``,
    ``.png``, ``.pdf``) when given; else the graph itself, whose ``to_json()`` lists it.
    """

    bonus_cards = given_cards([bonus] if isinstance(bonus, Card) else bonus)
    if len(bonus_cards) != 1:
        raise CardError(f"the Bonus card is exactly one card, got {shown(bonus)}")
    if isinstance(hand, str) and not hand.strip():
        raise CardError("the hand is empty: give cards, e.g. '9 3', or leave it out for all")
    fmt = graph_format(Path(output)) if output is not None else None
    if output is not None:
        check_writable(Path(output))
    played = make_rules(rules, options)
    result = decision_graph(played, bonus_cards[0], given_cards(hand), exact=exact)
    if output is None or fmt is None:
        return result
    write_atomic(Path(output), render_graph(result, fmt))
    return Written(played, (Path(output),))


def player_strategy(strategy: str) -> PlayerStrategy:
    """The report's player's strategy named ``strategy``: a chart file read, with its SHA-256."""
    read = chart_and_digest(strategy)
    if read is None:
        return PlayerStrategy(strategy)
    return PlayerStrategy(strategy, *read)


@checked
def report(
    output: str | Path | None = None,
    *,
    format: str | None = None,
    jobs: int = 1,
    shoe_samples: int | None = None,
    counter_rounds: int | None = None,
    table_rounds: int | None = None,
    simulation_rounds: int | None = None,
    paytables: Sequence[Paytable | str] = (),
    prepared_by: str = "",
    prepared_for: str = "",
    revision_note: str = "",
    table_limits: str = "",
    procedures: str = "",
    core_only: bool = False,
    strategy: str | PlayerStrategy = "optimal",
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> Written | str | bytes:
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
    player's (a name as for :func:`~solver.api.strategy.strategies`, or ``chart:FILE``, or
    a :class:`~solver.results.report.PlayerStrategy` whose chart is read already), set
    beside perfect play and played in the volatility section; a chart file's SHA-256 goes
    in the manifest. ``progress(done, total)`` is called as each step of the
    report's figures finishes.
    """

    played = make_rules(rules, options)
    player = strategy if isinstance(strategy, PlayerStrategy) else player_strategy(strategy)
    verify_strategy(player, played)
    others = tuple(p if isinstance(p, Paytable) else Paytable.parse(str(p)) for p in paytables)
    if output is not None:
        chosen = check_report_path(Path(output), format)
    else:
        chosen = choose_format(None, format, REPORT_FORMATS, "html")
    figures = report_figures(
        played,
        jobs=jobs,
        cache=cache,
        shoe_samples=shoe_samples,
        counter_rounds=counter_rounds,
        table_rounds=table_rounds,
        simulation_rounds=simulation_rounds,
        paytables=others,
        progress=step_progress(progress, "report"),
        strategy=player,
    )
    prepared = Prepared(prepared_by, prepared_for, revision_note, table_limits, procedures)
    document = build_report(figures, prepared, core_only)
    if output is None:
        return render_pdf(document) if chosen == "pdf" else render_html(document)
    return Written(played, (write_report(document, Path(output), chosen),))
