"""The commands that write files: ``cbj tables``, ``cbj graph`` and ``cbj report``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from solver.api import files as api
from solver.cli.cache import chosen_cache
from solver.cli.options import (
    HAND_FORMS,
    FilePath,
    cache_option,
    emit,
    jobs_option,
    progress_reporter,
    rules_options,
    rules_options_except,
    strategy_option,
    whole_hand,
)
from solver.model.rule_table import RULES_BY_NAME
from solver.present import files
from solver.present.collection import VARIANTS
from solver.present.graph import GraphFormat, render_graph
from solver.results.game import DecisionGraph


@click.command("tables")
@click.option(
    "--output-dir",
    default="strategy_tables",
    show_default=True,
    help="Folder to (re)write: new, empty, or a collection already; it is replaced whole.",
)
@cache_option
def tables(output_dir: str, no_cache: bool) -> None:
    """Regenerate the strategy_tables/ collection: every variant in every format."""
    written = api.tables(
        output_dir, cache=chosen_cache(no_cache), progress=progress_reporter("charts")
    )
    for variant, chart_written in zip(VARIANTS, written.charts, strict=True):
        emit(
            f"{variant.folder}: chart EV {float(chart_written.expected_value) * 100:+.4f}% of "
            "the main wager"
        )
    click.echo(f"cbj: {files.wrote(output_dir)}", err=True)


# Extra arguments are the rest of a hand typed with spaces and no quotes (``--hand 9 3``).
@click.command("graph", context_settings={"allow_extra_args": True})
@rules_options
@click.option("--bonus", "bonus_text", required=True, help="The Bonus card, e.g. 7 or 7h.")
@click.option(
    "--hand", default=None, help=f"Start from these own cards: {HAND_FORMS} (default: all)."
)
@click.option("--exact", is_flag=True, help="Exact fractions as extra attributes (slower).")
@click.option(
    "-o",
    "--output",
    type=FilePath(dir_okay=False, writable=True),
    required=True,
    help="File to write: .graphml, .gexf or .dot (or a picture: .svg, .png, .pdf); "
    "- writes GraphML to stdout.",
)
@click.pass_context
def graph(
    context: click.Context,
    /,
    bonus_text: str,
    hand: str | None,
    exact: bool,
    output: Path,
    **options: Any,
) -> None:
    """The player's decision graph (hands, EVs, draws) for Gephi, yEd or Graphviz."""
    if hand is None and context.args:
        raise click.UsageError(f"unexpected argument {context.args[0]!r}")
    cards = () if hand is None else whole_hand(context, hand)
    if files.to_stdout(output) is None:  # -o -: GraphML, text, on stdout
        drawn = api.graph(None, bonus=bonus_text, hand=cards, exact=exact, **options)
        assert isinstance(drawn, DecisionGraph)
        sys.stdout.buffer.write(render_graph(drawn, GraphFormat.GRAPHML))
        sys.stdout.flush()
        return
    api.graph(output, bonus=bonus_text, hand=cards, exact=exact, **options)
    click.echo(f"cbj: wrote {output}", err=True)


@click.command("report")
@rules_options_except("paytable")
@click.option(
    "--paytable",
    "paytables",
    multiple=True,
    help=f"{RULES_BY_NAME['paytable'].help} Repeat to compare paytables, lettered A, B, ... "
    "in order  [default: 15:4:1]",
)
@click.option(
    "-o",
    "--output",
    type=FilePath(dir_okay=False),
    default=None,
    help="Write to this file, .html or .pdf (default, or -: HTML on stdout).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["html", "pdf"]),
    default=None,
    help="Output format  [default: from -o's extension, else html]",
)
@click.option(
    "--shoe-samples",
    type=int,
    default=None,
    help="Game protection: its size, 4 dealt shoes (and 1/25 of a whole shoe) a sample  "
    "[default: 50]",
)
@click.option(
    "--counter-rounds",
    type=int,
    default=None,
    help="Game protection: rounds dealt to each simulated counter  [default: 2000000]",
)
@jobs_option()
@cache_option
@click.option(
    "--table-rounds",
    type=int,
    default=None,
    help="A table of players: table-rounds dealt for each number of seats  [default: 50000]",
)
@click.option(
    "--simulation-rounds",
    type=int,
    default=None,
    help="Simulation cross-check: rounds dealt, with a fresh shoe and with a cut card  "
    "[default: 10000000]",
)
@strategy_option(
    "The player's strategy, set beside perfect play, the printed chart and mimicking the "
    "dealer, and played in the volatility section:"
)
@click.option("--prepared-by", default="", help="Title block: who prepared the report.")
@click.option("--prepared-for", default="", help="Title block: whom the report is for.")
@click.option("--revision-note", default="", help="Title block: what this revision changed.")
@click.option("--table-limits", default="", help="The game's table limits, stated when given.")
@click.option("--procedures", default="", help="The game's procedures, stated when given.")
@click.option("--core-only", is_flag=True, help="Write the core alone, without the annexes.")
def report(
    output: Path | None,
    fmt: str | None,
    jobs: int,
    no_cache: bool,
    paytables: tuple[str, ...],
    **options: Any,
) -> None:
    """A PAR-style math report of the game: HTML or PDF."""
    output = files.to_stdout(output)
    if output is None and fmt is not None:
        files.check_terminal(fmt, sys.stdout)
    result = api.report(
        output,
        format=fmt,
        jobs=jobs,
        cache=chosen_cache(no_cache),
        progress=progress_reporter("report"),
        paytable=paytables[0] if paytables else None,
        paytables=paytables[1:],
        **options,
    )
    if isinstance(result, str):
        click.echo(result, nl=False)
    elif isinstance(result, bytes):
        sys.stdout.buffer.write(result)
        sys.stdout.flush()
    else:
        click.echo(f"cbj: {files.wrote(output or '')}", err=True)
