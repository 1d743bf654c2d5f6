"""The commands that need the dealer's and the player's tables: ``cbj dealer``, ``chart``.

And ``cbj strategies``; these load numpy, unlike :mod:`solver.api.game`'s.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from solver.api import strategy as api
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
)
from solver.model.outcomes import POLICY_NAMES
from solver.present import chart_costs, charts, files
from solver.present import strategies as present_strategies
from solver.present.formats import ChartFormat, Format
from solver.present.game import volatility_table
from solver.present.tables import dealer_table


@click.command("dealer")
@rules_options
@click.option(
    "--bonus",
    "bonus_text",
    default="all",
    show_default=True,
    help="Bonus card value A, 2..10, or 'all' for one row per value.",
)
@click.option("--removed", default="", help="Cards already out of the shoe (suits optional).")
@format_option(*ALL_FORMATS)
def dealer(bonus_text: str, removed: str, fmt: str, **options: Any) -> None:
    """Exact distribution of the dealer's final result for each Bonus card."""
    result = api.dealer(bonus=bonus_text, removed=removed, **options)
    emit_result(fmt, result, dealer_table(result.rules, result.removed, result.rows))


#: The formats ``cbj chart --check`` and ``--costs`` print (a table of cells, not a chart).
CHECK_FORMATS = (Format.TABLE.value, Format.CSV.value, Format.JSON.value, Format.MD.value)


@click.command("chart")
@rules_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(list(dict.fromkeys([*(f.value for f in ChartFormat), Format.TABLE.value]))),
    default=None,
    help="Output format  [default: from -o's extension, else md; table for --check, --costs]",
)
@click.option(
    "-o",
    "--output",
    type=FilePath(dir_okay=False),
    default=None,
    help="Write to this file instead of stdout (format from its extension; - is stdout).",
)
@click.option(
    "--check",
    "check_file",
    default=None,
    metavar="FILE",
    help="Price the chart in FILE (CSV or JSON as cbj chart writes): its EV, its cost, and "
    "each cell that differs from the best chart.",
)
@click.option(
    "--costs",
    is_flag=True,
    help="The best chart with each cell's cost per 100 rounds of playing it the other way.",
)
@cache_option
@COMMENTS_OPTION
def chart(
    fmt: str | None,
    output: Path | None,
    check_file: str | None,
    costs: bool,
    no_cache: bool,
    **options: Any,
) -> None:
    """The best printable hit/stand chart and its cost against perfect play."""
    output = files.to_stdout(output)
    if check_file is not None or costs:
        _chart_cells(fmt, output, check_file, costs, no_cache, options)
        return
    if fmt == Format.TABLE.value:
        raise click.UsageError("--format table is for --check and --costs; a chart is md, csv, "
                               "json, html, pdf, svg or png")  # fmt: skip
    chosen = ChartFormat(files.choose_format(output, fmt, [f.value for f in ChartFormat], "md"))
    if output is None:
        files.check_terminal(chosen.value, sys.stdout)
    else:
        files.check_writable(output)
    data = charts.render(
        api.chart(cache=chosen_cache(no_cache), **options), chosen, comments_asked()
    )
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        click.echo(f"cbj: {files.wrote(files.write_atomic(output, data))}", err=True)


def _chart_cells(
    fmt: str | None,
    output: Path | None,
    check_file: str | None,
    costs: bool,
    no_cache: bool,
    options: dict[str, Any],
) -> None:
    """``cbj chart --check FILE`` or ``--costs``: a table of cells and their costs."""
    if check_file is not None and costs:
        raise click.UsageError("give --check FILE or --costs, not both")
    if output is not None:
        raise click.UsageError("--check and --costs print to stdout: leave out -o")
    chosen = fmt or Format.TABLE.value
    if chosen not in CHECK_FORMATS:
        raise click.UsageError(
            f"--check and --costs print {', '.join(CHECK_FORMATS)}, not {chosen}"
        )
    cache = chosen_cache(no_cache)
    if check_file is not None:
        checked = api.chart_check(file=check_file, cache=cache, **options)
        emit_result(chosen, checked, chart_costs.check_table(checked))
    else:
        priced = api.chart_costs(cache=cache, **options)
        emit_result(chosen, priced, chart_costs.costs_table(priced))


@click.command("strategies")
@rules_options
@click.option(
    "--strategies",
    "names",
    default=",".join(POLICY_NAMES),
    show_default=True,
    help="Policies to evaluate, separated by commas; chart:FILE plays a chart file "
    "(docs/charts.md).",
)
@click.option(
    "--bonus-ratios",
    default="1/2,3/4,1,3/2,2",
    show_default=True,
    help="Bonus ratios (each at least 1/2) at which to show optimal play's round.",
)
@click.option("--removed", default="", help="Cards out of the shoe, with suits, e.g. 'As 10h'.")
@jobs_option("Worker processes for the exact solve.")
@cache_option
@format_option(*ALL_FORMATS)
def strategies_command(
    names: str,
    bonus_ratios: str,
    removed: str,
    jobs: int,
    no_cache: bool,
    fmt: str,
    **options: Any,
) -> None:
    """Exact EV, house edge and cost of realistic strategies; the Bonus ratio; volatility."""
    result = api.strategies(
        names=names,
        bonus_ratios=bonus_ratios,
        removed=removed,
        jobs=jobs,
        cache=chosen_cache(no_cache),
        progress=progress_reporter("solving Bonus cards"),
        **options,
    )
    emit_result(
        fmt,
        result,
        [
            present_strategies.strategies_table(result),
            present_strategies.ratios_table(result),
            volatility_table(
                result.volatility,
                "The player's net result over sessions (optimal play)",
                result.rules,
            ),
        ],
    )
