"""What the best player can win: ``cbj indices``, ``cbj bet`` and ``cbj attack``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from solver.api import advantage as api
from solver.cli.cache import chosen_cache
from solver.cli.options import (
    ALL_FORMATS,
    cache_option,
    emit_result,
    format_option,
    jobs_option,
    progress_reporter,
    rules_options,
)
from solver.model.shuffles import DEFAULT_BUFFER
from solver.present import advantage as present
from solver.studies.attack import PATHS, ROUNDS

F = TypeVar("F", bound=Callable[..., Any])


def study_options(command: F) -> F:
    """The dealt-shoe study's size, seed, penetration, workers and backend."""
    for add in reversed(
        [
            click.option(
                "--samples",
                type=int,
                default=api.SAMPLES,
                show_default=True,
                help="Shoes dealt at random depths and solved.",
            ),
            click.option(
                "--seed", type=int, default=api.SEED, show_default=True, help="Seed of the deal."
            ),
            click.option(
                "--penetration",
                type=float,
                default=api.PENETRATION,
                show_default=True,
                help="Share of the shoe dealt before the cut card.",
            ),
            jobs_option("Local worker processes, -1 for all cores; same results.", every_core=True),
            click.option(
                "--backend",
                type=click.Choice(["local", "dask"]),
                default="local",
                show_default=True,
                help="Solve the shoes here or on a Dask cluster.",
            ),
            click.option(
                "--scheduler",
                default=None,
                help="The Dask scheduler (default: $DASK_SCHEDULER_ADDRESS).",
            ),
            cache_option,
            format_option(*ALL_FORMATS),
        ]
    ):
        command = add(command)
    return command


COUNT_HELP = (
    "The count: best-level-1..5 (betting), best-playing-1..2 (index plays), hi-lo, ko, "
    "hi-opt-i, omega-ii or tags 'A=-1,...'."
)


@click.command("indices")
@rules_options
@click.option("--count", default="best-level-2", show_default=True, help=COUNT_HELP)
@study_options
def indices(no_cache: bool, fmt: str, **options: Any) -> None:
    """Index plays: the true count at which each close call flips, and what it is worth."""
    result = api.indices(
        cache=chosen_cache(no_cache), progress=progress_reporter("dealt shoes"), **options
    )
    emit_result(fmt, result, present.indices_tables(result))


@click.command("bet")
@rules_options
@click.option("--count", default="best-level-2", show_default=True, help=COUNT_HELP)
@click.option("--spread", default="1-8", show_default=True, help="Smallest-largest bet in units.")
@click.option(
    "--bankroll",
    type=float,
    default=1000.0,
    show_default=True,
    help="Bankroll in units the Kelly bets are sized to.",
)
@click.option(
    "--kelly-fraction",
    type=float,
    default=1.0,
    show_default=True,
    help="Share of the full Kelly bet, e.g. 0.5.",
)
@click.option("--rounds-per-hour", type=int, default=100, show_default=True)
@click.option(
    "--target-ruin",
    type=float,
    default=0.05,
    show_default=True,
    help="Risk of ruin the bankroll figure is for.",
)
@click.option("--indices", is_flag=True, help="The counter also plays its count's index plays.")
@study_options
def bet(no_cache: bool, fmt: str, **options: Any) -> None:
    """Optimal betting: the Kelly ramp by true count, SCORE, DI, N0 and the bankroll."""
    result = api.bet(
        cache=chosen_cache(no_cache), progress=progress_reporter("dealt shoes"), **options
    )
    emit_result(fmt, result, present.bet_tables(result))


@click.command("attack")
@rules_options
@click.option("--spread", default="1-8", show_default=True, help="Smallest-largest bet in units.")
@click.option(
    "--bonus-multiple",
    default=None,
    help="The most the Bonus wager is raised to, times the main wager; default 2, or twice "
    "the rules' Bonus ratio if more (at most 100).",
)
@click.option(
    "--count",
    default="best-level-2",
    show_default=True,
    help="The practical counter's count (its Kelly ramp and index plays): " + COUNT_HELP,
)
@click.option(
    "--paths",
    type=int,
    default=PATHS,
    show_default=True,
    help="Whole shoes dealt round by round and solved, for the bound with no mid-shoe entry.",
)
@click.option(
    "--rounds",
    type=int,
    default=ROUNDS,
    show_default=True,
    help="Rounds of each simulated counter (no mid-shoe entry; under a shuffler).",
)
@click.option(
    "--buffer",
    type=int,
    default=DEFAULT_BUFFER,
    show_default=True,
    help="The continuous shuffler's tray, in cards.",
)
@study_options
def attack(no_cache: bool, fmt: str, **options: Any) -> None:
    """Every attack a casino must consider, its bound, and what ends it."""
    result = api.attack(
        cache=chosen_cache(no_cache), progress=progress_reporter("dealt shoes"), **options
    )
    emit_result(fmt, result, present.attack_tables(result))
