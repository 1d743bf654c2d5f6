"""Game protection: ``cbj eor``, ``cbj count`` and ``cbj shoe-states``."""

from __future__ import annotations

from typing import Any

import click

from solver.api import protection as api
from solver.cli.cache import chosen_cache
from solver.cli.options import (
    ALL_FORMATS,
    cache_option,
    emit_result,
    format_option,
    jobs_option,
    progress_reporter,
    rules_options,
    solving_options,
)
from solver.present import protection


@click.command("eor")
@solving_options
def eor(removed: str, exact: bool, jobs: int, no_cache: bool, fmt: str, **options: Any) -> None:
    """Effects of removal: each wager's EV change when one card of each rank leaves."""
    result = api.eor(
        removed=removed, exact=exact, jobs=jobs, cache=chosen_cache(no_cache), **options
    )
    emit_result(fmt, result, protection.eor_tables(result))


@click.command("count")
@rules_options
@click.option("--tags", default=None, help="A tag per rank, e.g. 'A=-1,2=1,...,9=0,T=-1'.")
@click.option("--system", default=None, help="A published count: hi-lo, ko, hi-opt-i, omega-ii.")
@click.option("--removed", default="", help="Cards already out of the shoe (with suits).")
@click.option("--exact", is_flag=True, help="Exact EORs and slopes (slower) instead of floats.")
@jobs_option("Workers sharing the Bonus card values: threads for floats, processes for --exact.")
@cache_option
@format_option(*ALL_FORMATS)
def count(no_cache: bool, fmt: str, **options: Any) -> None:
    """Betting correlation and EV per true count of card counts for this game."""
    result = api.count(cache=chosen_cache(no_cache), **options)
    emit_result(fmt, result, protection.count_table(result))


@click.command("shoe-states")
@rules_options
@click.option(
    "--depths",
    default=None,
    help="Shares of the shoe dealt, each between 0 and 1, separated by commas; default "
    "0.25,0.5,0.75,0.83, those that leave half a deck.",
)
@click.option("--samples", type=int, required=True, help="Random shoes dealt to each depth.")
@click.option("--seed", type=int, default=None, help="Seed; a fresh one is reported if not given.")
@click.option("--system", default=None, help="Count for the true count: hi-lo (default), ko, ...")
@click.option("--tags", default=None, help="A tag per rank instead, e.g. 'A=-1,2=1,...,T=-1'.")
@jobs_option("Local worker processes, -1 for all cores; same results.", every_core=True)
@click.option(
    "--backend",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="Solve the shoes here, or on a Dask cluster (pip install 'community-blackjack[dask]').",
)
@click.option(
    "--scheduler",
    default=None,
    help="The Dask scheduler, e.g. tcp://10.0.0.5:8786 (default: $DASK_SCHEDULER_ADDRESS).",
)
@cache_option
@format_option(*ALL_FORMATS)
def shoe_states(no_cache: bool, fmt: str, **options: Any) -> None:
    """Random shoes dealt to each depth, each solved: EV spread, count fit, EOR estimate."""
    result = api.shoe_states(
        cache=chosen_cache(no_cache), progress=progress_reporter("shoe states"), **options
    )
    emit_result(fmt, result, protection.shoe_states_tables(result))
