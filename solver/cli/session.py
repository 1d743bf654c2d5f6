"""``cbj session`` and ``cbj hold``: a session's exact distribution, the risk of ruin, and the
casino's hold check."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from solver.api import session as api
from solver.cli.cache import chosen_cache
from solver.cli.options import (
    ALL_FORMATS,
    COMMENTS_OPTION,
    FilePath,
    cache_option,
    comments_asked,
    emit_result,
    format_option,
    jobs_option,
    progress_reporter,
    rules_options,
    strategy_option,
)
from solver.present import files
from solver.present import hold as hold_present
from solver.present import session as present
from solver.present.formats import Format
from solver.present.tables import dumps, render_tables

#: ``--method`` of ``cbj session`` and ``cbj hold``: how the session distribution is found.
METHOD_OPTION = click.option(
    "--method",
    type=click.Choice(["auto", "exact", "fft"]),
    default="auto",
    show_default=True,
    help="exact fractions (up to 100 rounds), floats by FFT with an error bound, or auto "
    "(exact up to 20 rounds).",
)


@click.command("session")
@rules_options
@click.option("--rounds", type=int, required=True, help="Rounds in the session (1 to 100,000).")
@click.option(
    "--bankroll",
    default=None,
    help="Units of the main wager you can lose: adds the probability of ruin, e.g. 100.",
)
@strategy_option()
@METHOD_OPTION
@click.option("--removed", default="", help="Cards out of the shoe, with suits, e.g. 'As 10h'.")
@jobs_option("Worker processes for the exact solve.")
@cache_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice([f.value for f in present.SessionFormat]),
    default=None,
    help="Output format: text, or a plot of the distribution (png, svg, html)  "
    "[default: from -o's extension, else table]",
)
@COMMENTS_OPTION
@click.option(
    "-o",
    "--output",
    type=FilePath(dir_okay=False),
    default=None,
    help="Write to this file instead of stdout (- is stdout).",
)
def session_command(
    rounds: int,
    bankroll: str | None,
    strategy: str,
    method: str,
    removed: str,
    jobs: int,
    no_cache: bool,
    fmt: str | None,
    output: Path | None,
    **options: Any,
) -> None:
    """Exact distribution of the net result over a session, and the risk of ruin."""
    output = files.to_stdout(output)
    allowed = [f.value for f in present.SessionFormat]
    chosen = present.SessionFormat(files.choose_format(output, fmt, allowed, "table"))
    fmt = chosen.value
    if output is None:
        files.check_terminal(fmt, sys.stdout)
    else:
        files.check_writable(output)
    result = api.session(
        rounds=rounds,
        bankroll=bankroll,
        strategy=strategy,
        method=method,
        removed=removed,
        jobs=jobs,
        cache=chosen_cache(no_cache),
        progress=progress_reporter("solving Bonus cards"),
        **options,
    )
    if chosen in present.PLOT_FORMATS:
        data = present.render_plot(result, chosen)
    elif chosen is present.SessionFormat.JSON:
        data = (dumps(result.to_json()) + "\n").encode()
    else:
        tables = present.session_tables(result, chosen is present.SessionFormat.CSV)
        data = (render_tables(tables, Format(fmt), comments_asked()) + "\n").encode()
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        click.echo(f"cbj: {files.wrote(files.write_atomic(output, data))}", err=True)


@click.command("hold")
@rules_options
@click.option("--rounds", type=int, required=True, help="Rounds dealt (1 to 100,000).")
@click.option("--result", default=None, help="The casino's net win in main units, e.g. 250.")
@click.option("--hold", default=None, help="The casino's hold instead: 2.5%, 0.025 or 1/40.")
@strategy_option("What the players played:")
@METHOD_OPTION
@jobs_option("Worker processes for the exact solve.")
@cache_option
@format_option(*ALL_FORMATS)
def hold_command(no_cache: bool, fmt: str, **options: Any) -> None:
    """Whether a table's observed hold is within what the game allows (exact, two-sided)."""
    result = api.hold(
        cache=chosen_cache(no_cache), progress=progress_reporter("solving Bonus cards"), **options
    )
    emit_result(fmt, result, hold_present.hold_table(result))
