"""The files the commands write: ``cbj tables``, ``cbj graph`` and ``cbj report``.

Each writer is the command table's ``write`` for its row: it checks the file or folder
first (a bad path fails in a moment, not after the work), has the work done, and writes
atomically (a temporary name renamed; a folder built aside and swapped in whole), or
hands the result back when no file is named.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.api.table import Command
from solver.exact.chart import stored_chart
from solver.exact.game import solve_game
from solver.model.rules import Rules
from solver.present.collection import VARIANTS, is_collection, write_collection
from solver.present.files import (
    check_output_dir,
    check_writable,
    choose_format,
    folder_swap,
    write_atomic,
)
from solver.present.formats import download_name
from solver.present.graph import graph_format, render_graph
from solver.present.report import (
    REPORT_FORMATS,
    build_report,
    check_report_path,
    render_html,
    render_pdf,
)
from solver.present.report import (
    write_report as write_document,
)
from solver.present.report.front import Prepared
from solver.results.game import DecisionGraph
from solver.results.run import Run
from solver.results.written import Written
from solver.studies.report import report_figures, verify_strategy
from solver.studies.strategy import graph


def write_tables(
    command: Command, values: dict[str, Any], rules: Rules | None, run: Run
) -> Written:
    """Write the ``strategy_tables/`` collection: every variant's chart in every format.

    The folder is checked first (it must be new, empty or a collection already), built
    aside and swapped in whole, so an interrupted run leaves the old collection intact.
    """
    target = check_output_dir(str(values["output_dir"]), is_collection)
    cache = run.cache
    charts = [
        stored_chart(v.rules, solve_game(v.rules, exact=True, cache=cache), cache) for v in VARIANTS
    ]
    with folder_swap(target) as building:
        built = write_collection(building, charts, progress=run.progress)
    paths = tuple(target / path.relative_to(building) for path in built)
    return Written(Rules(), paths, tuple(charts))


def write_graph(
    command: Command, values: dict[str, Any], rules: Rules | None, run: Run
) -> Written | DecisionGraph:
    """The player's decision graph against ``bonus``, from ``hand`` or every first card.

    Written to ``output`` (``.graphml``, ``.gexf``, ``.dot``, or a picture: ``.svg``,
    ``.png``, ``.pdf``) when given; else the graph itself, whose ``to_json()`` lists it.
    """
    assert rules is not None
    output = values["output"]
    fmt = graph_format(Path(output)) if output is not None else None
    if output is not None:
        check_writable(Path(output))
    result = graph(rules=rules, bonus=values["bonus"], hand=values["hand"], exact=values["exact"])
    if output is None or fmt is None:
        return result
    write_atomic(Path(output), render_graph(result, fmt))
    return Written(rules, (Path(output),))


def write_report(
    command: Command, values: dict[str, Any], rules: Rules | None, run: Run
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
    player's (a name as for :func:`~solver.api.functions.strategies`, or ``chart:FILE``,
    or a :class:`~solver.results.report.PlayerStrategy` whose chart is read already), set
    beside perfect play and played in the volatility section; a chart file's SHA-256 goes
    in the manifest. ``progress(done, total)`` is called as each step of the
    report's figures finishes.
    """
    assert rules is not None
    verify_strategy(values["strategy"], rules)
    output, fmt = values["output"], values["format"]
    if output is not None:
        chosen = check_report_path(Path(output), fmt)
    else:
        chosen = choose_format(None, fmt, REPORT_FORMATS, "html")
    figures = report_figures(
        rules,
        jobs=run.jobs,
        cache=run.cache,
        shoe_samples=values["shoe_samples"],
        counter_rounds=values["counter_rounds"],
        table_rounds=values["table_rounds"],
        simulation_rounds=values["simulation_rounds"],
        paytables=values["paytables"],
        progress=run.progress,
        strategy=values["strategy"],
    )
    names = ("prepared_by", "prepared_for", "revision_note", "table_limits", "procedures")
    prepared = Prepared(*(values[n] for n in names))
    written = Path(output).name if output is not None else download_name(rules, "report", chosen)
    document = build_report(figures, prepared, values["core_only"], written)
    if output is None:
        return render_pdf(document) if chosen == "pdf" else render_html(document)
    return Written(rules, (write_document(document, Path(output), chosen),))
