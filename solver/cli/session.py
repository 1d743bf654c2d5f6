"""``cbj session`` and ``cbj hold``: a session's exact distribution, the risk of ruin, and the
casino's hold check."""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

import click

from solver.api import session as api
from solver.cli.cache import chosen_cache
from solver.cli.options import (
    COMMENTS_OPTION,
    FilePath,
    cache_option,
    comments_asked,
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

F = TypeVar("F", bound=Callable[..., Any])


def output_options(formats: type[StrEnum], kinds: str) -> Callable[[F], F]:
    """``--format`` (``formats``' values; ``kinds`` says what they are) and ``-o``."""

    def add(command: F) -> F:
        command = click.option(
            "-o",
            "--output",
            type=FilePath(dir_okay=False),
            default=None,
            help="Write to this file instead of stdout (- is stdout).",
        )(command)
        return click.option(
            "--format",
            "fmt",
            type=click.Choice([f.value for f in formats]),
            default=None,
            help=f"Output format: {kinds}  [default: from -o's extension, else table]",
        )(command)

    return add


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
@output_options(present.SessionFormat, "text, or a plot of the distribution (png, svg, html)")
@COMMENTS_OPTION
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


#: ``--method`` of ``cbj hold``: how the distribution of the table's result is found.
HOLD_METHOD_OPTION = click.option(
    "--method",
    type=click.Choice(["auto", "exact", "fft", "saddlepoint"]),
    default="auto",
    show_default=True,
    help="exact fractions, floats by FFT with an error bound (to 10^8 rounds), the "
    "saddlepoint tail (from 10^4 rounds), or auto (exact to 20 rounds, FFT to 10^6, "
    "saddlepoint beyond).",
)


@click.command("hold")
@rules_options
@click.option(
    "--rounds", type=int, default=None, help="Table-rounds dealt (1 to 10^9); not with --from."
)
@click.option("--result", default=None, help="The casino's win in main units, e.g. 250.")
@click.option(
    "--hold", default=None, help="The casino's hold, its win over the drop: 12%, 0.12 or 3/25."
)
@click.option(
    "--win-over-handle", default=None, help="Or its win over the handle (all wagers): 2.5%."
)
@click.option("--drop", default=None, help="The table's drop over the rounds, in main units.")
@click.option(
    "--drop-to-handle",
    default=None,
    help="Or the drop as a share of the handle, e.g. 0.2 (one chip bought per five wagered).",
)
@click.option(
    "--seats", type=int, default=1, show_default=True, help="Seats at the table (1 to 7)."
)
@click.option(
    "--strategy",
    default="optimal",
    show_default=True,
    help="What the players played: one strategy (optimal, chart, chart:FILE, stand-on:K, "
    "never-bust, mimic-dealer, always-stand) or a mix, '10% optimal, 60% chart, 30% "
    "mimic-dealer'.",
)
@click.option(
    "--from",
    "daily",
    type=FilePath(dir_okay=False),
    default=None,
    help="A daily file (CSV: date, rounds or hours, win, drop): check every period.",
)
@click.option(
    "--unit",
    default="1",
    show_default=True,
    help="With --from: the money a main unit stands for (the file's amounts are money).",
)
@click.option(
    "--rounds-per-hour",
    type=int,
    default=60,
    show_default=True,
    help="With --from and an hours column: table-rounds per table-hour.",
)
@HOLD_METHOD_OPTION
@jobs_option("Worker processes for the exact solve.")
@cache_option
@output_options(
    hold_present.SeriesFormat, "text; with --from also the control chart (png, pdf, svg, html)"
)
@COMMENTS_OPTION
def hold_command(
    no_cache: bool,
    fmt: str | None,
    output: Path | None,
    daily: Path | None,
    rounds: int | None,
    result: str | None,
    hold: str | None,
    win_over_handle: str | None,
    drop: str | None,
    unit: str,
    rounds_per_hour: int,
    **options: Any,
) -> None:
    """Whether a table's win, or each day of a pit's, is within what the game allows."""
    output = files.to_stdout(output)
    allowed = [f.value for f in hold_present.SeriesFormat]
    chosen = hold_present.SeriesFormat(files.choose_format(output, fmt, allowed, "table"))
    if output is None:
        files.check_terminal(chosen.value, sys.stdout)
    else:
        files.check_writable(output)
    cache = chosen_cache(no_cache)
    if daily is None:
        if rounds is None:
            raise click.UsageError("give --rounds (or --from a daily file)")
        if chosen in hold_present.CHART_FORMATS:
            raise click.UsageError("a control chart needs a daily file: give --from")
        check = api.hold(
            rounds=rounds,
            result=result,
            hold=hold,
            win_over_handle=win_over_handle,
            drop=drop,
            cache=cache,
            progress=progress_reporter("solving Bonus cards"),
            **options,
        )
        document, tables = check.to_json(), [hold_present.hold_table(check)]
    else:
        given = [
            n
            for n, v in (
                ("--rounds", rounds),
                ("--result", result),
                ("--hold", hold),
                ("--win-over-handle", win_over_handle),
                ("--drop", drop),
            )
            if v is not None
        ]
        if given:
            raise click.UsageError(f"{given[0]} is for one result: the daily file gives each")
        series = api.hold_series(
            daily=daily,
            unit=unit,
            rounds_per_hour=rounds_per_hour,
            cache=cache,
            progress=progress_reporter("periods"),
            **options,
        )
        if chosen in hold_present.CHART_FORMATS:
            _write(output, hold_present.render_series(series, chosen))
            return
        document, tables = series.to_json(), hold_present.series_tables(series)
    if chosen is hold_present.SeriesFormat.JSON:
        data = (dumps(document) + "\n").encode()
    else:
        data = (render_tables(tables, Format(chosen.value), comments_asked()) + "\n").encode()
    _write(output, data)


def _write(output: Path | None, data: bytes) -> None:
    """``data`` to stdout, or atomically to ``output``."""
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        click.echo(f"cbj: {files.wrote(files.write_atomic(output, data))}", err=True)
