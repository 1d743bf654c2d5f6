"""The simulator's commands: ``cbj simulate`` and ``cbj seats``."""

from __future__ import annotations

import sys
from typing import Any

import click

from solver.api import simulation as api
from solver.api.advantage import SAMPLES
from solver.cli.cache import chosen_cache
from solver.cli.options import (
    ALL_FORMATS,
    cache_option,
    emit_result,
    format_option,
    jobs_option,
    rules_options,
    strategy_option,
)
from solver.present import seats as present_seats
from solver.present.tables import simulation_tables


@click.command("simulate")
@rules_options
@click.option("--rounds", type=int, required=True, help="Rounds to deal.")
@click.option("--seed", type=int, default=None, help="Seed; the same seed gives the same result.")
@click.option(
    "--seats", type=int, default=1, show_default=True, help="Players sharing Bonus card and dealer."
)
@strategy_option()
@click.option(
    "--penetration",
    type=float,
    default=None,
    help="Share of the shoe dealt before a reshuffle, in (0, 1].  [default: 0.75]",
)
@click.option("--fresh-shoe", is_flag=True, help="Shuffle a fresh shoe for every round.")
@click.option(
    "--csm",
    type=int,
    default=None,
    help="Deal from a continuous shuffler whose tray holds this many cards (e.g. 20): each "
    "round's cards go back in before the next.",
)
@jobs_option("Worker processes, -1 for all cores; results do not depend on it.", every_core=True)
@click.option("--removed", default="", help="Cards out of the shoe, with suits, e.g. 'As 10h'.")
@click.option(
    "--counter",
    default=None,
    help="Seat a card counter at seat 1 using this count: hi-lo, ko, hi-opt-i, omega-ii, "
    "best-level-1..3, or tags 'A=-1,2=1,...,T=-1'.",
)
@click.option(
    "--spread", default=None, help="The counter's smallest and largest bet.  [default: 1-8]"
)
@click.option(
    "--ramp",
    default=None,
    help="The counter's bets by true count, 'TC:UNITS,...' (bet UNITS from TC up).  "
    "[default: the smallest bet, then one unit more per true count from 2]",
)
@click.option("--wong-out", default=None, help="The counter sits out below this true count.")
@click.option(
    "--no-mid-shoe-entry",
    is_flag=True,
    help="The counter sits down only at a shuffle, and leaves until the next once the true "
    "count falls below --wong-out.",
)
@click.option(
    "--indices",
    is_flag=True,
    help="The counter also plays its count's index plays (with --strategy chart).",
)
@click.option(
    "--index-samples",
    type=int,
    default=SAMPLES,
    show_default=True,
    help="Shoes dealt and solved to find the index plays (as cbj indices).",
)
@cache_option
@format_option(*ALL_FORMATS)
def simulate_command(
    rounds: int,
    seed: int | None,
    seats: int,
    strategy: str,
    penetration: float | None,
    fresh_shoe: bool,
    csm: int | None,
    jobs: int,
    removed: str,
    counter: str | None,
    spread: str | None,
    ramp: str | None,
    wong_out: str | None,
    no_mid_shoe_entry: bool,
    indices: bool,
    index_samples: int,
    no_cache: bool,
    fmt: str,
    **options: Any,
) -> None:
    """Monte Carlo simulation of whole rounds, independent of the exact solver."""
    arguments: dict[str, Any] = {
        "rounds": rounds,
        "seed": seed,
        "seats": seats,
        "strategy": strategy,
        "penetration": penetration,
        "fresh_shoe": fresh_shoe,
        "csm": csm,
        "jobs": jobs,
        "removed": removed,
        "counter": counter,
        "spread": spread,
        "ramp": ramp,
        "wong_out": wong_out,
        "mid_shoe_entry": not no_mid_shoe_entry,
        "indices": indices,
        "index_samples": index_samples,
        "cache": chosen_cache(no_cache),
        **options,
    }
    if sys.stderr.isatty():
        with click.progressbar(length=rounds, label="dealing", file=sys.stderr) as bar:
            result = api.simulate(progress=bar.update, **arguments)
    else:
        result = api.simulate(**arguments)
    emit_result(fmt, result, simulation_tables(result))


@click.command("seats")
@rules_options
@click.option(
    "--seats",
    default="1-7",
    show_default=True,
    help="Numbers of players at the table, 1 to 7: a range, a list or both, e.g. 1-7 or 1,3,5.",
)
@click.option(
    "--rounds",
    type=int,
    default=200_000,
    show_default=True,
    help="Table-rounds simulated for each number of seats.",
)
@click.option("--seed", type=int, default=None, help="Seed; the same seed gives the same result.")
@strategy_option("What every seat plays:")
@jobs_option("Worker processes, -1 for all cores; results do not depend on it.", every_core=True)
@cache_option
@format_option(*ALL_FORMATS)
def seats_command(
    seats: str,
    rounds: int,
    seed: int | None,
    strategy: str,
    jobs: int,
    no_cache: bool,
    fmt: str,
    **options: Any,
) -> None:
    """The casino's hold per table-round and its SD for 1 to 7 seats at one table."""
    result = api.seats(
        seats=seats,
        rounds=rounds,
        seed=seed,
        strategy=strategy,
        jobs=jobs,
        cache=chosen_cache(no_cache),
        **options,
    )
    emit_result(fmt, result, present_seats.seats_table(result))
