"""Designing the game: ``cbj paytable solve``, ``cbj paytable search`` and ``cbj variants``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from solver.api import paytable as api
from solver.cli.cache import chosen_cache
from solver.cli.options import (
    ALL_FORMATS,
    F,
    cache_option,
    emit_result,
    format_option,
    jobs_option,
    progress_reporter,
    rules_options,
    rules_options_except,
    show_help_if_bare,
    variant_options,
)
from solver.model.outcomes import DEFAULT_ROUND_BAND
from solver.model.paytable import BONUS_TIERS, Tier
from solver.present.formats import Format
from solver.present.tables import pay_solution_table, search_table, variants_table


@click.group(invoke_without_command=True)
@click.pass_context
def paytable(context: click.Context) -> None:
    """Design the Bonus paytable: solve a pay for a target edge, or search paytables."""
    show_help_if_bare(context)


def pay_option(tier: Tier) -> Callable[[F], F]:
    """``--suited-match`` and friends: one tier's pay, overriding ``--paytable``."""
    return click.option(
        f"--{tier.option}",
        tier.name,
        default=None,
        help=f"Pay of the {tier.words} tier to 1 (default: from --paytable).",
    )


@paytable.command("solve")
@rules_options
@click.option(
    "--solve-for",
    required=True,
    help="The tier whose pay is solved for: any tier of --paytable, e.g. rank_match or "
    "suited-adjacent (docs/designer.md).",
)
@pay_option(BONUS_TIERS[0])
@pay_option(BONUS_TIERS[1])
@pay_option(BONUS_TIERS[2])
@click.option(
    "--target-bonus-edge", default=None, help="Bonus wager house edge, e.g. 0.05, 1/20, 5%."
)
@click.option(
    "--target-round-edge", default=None, help="Round house edge per total wagered, e.g. 2%."
)
@cache_option
@format_option(*ALL_FORMATS)
def paytable_solve(fmt: str, no_cache: bool, **options: Any) -> None:
    """Solve exactly for one pay so that the house edge hits a target."""
    solution = api.paytable_solve(cache=chosen_cache(no_cache), **options)
    emit_result(fmt, solution, pay_solution_table(solution))


@paytable.command("search")
@rules_options_except("paytable")
@click.option(
    "--max-pay", type=int, default=50, show_default=True, help="Highest pay to try, to 1."
)
@click.option(
    "--round-edge-range",
    default=None,
    help=f"Band LO:HI of the round house edge (default {DEFAULT_ROUND_BAND} if no band).",
)
@click.option("--bonus-edge-range", default=None, help="Band LO:HI of the Bonus house edge.")
@click.option("--top", type=int, default=10, show_default=True, help="Paytables to list.")
@click.option(
    "--tiers",
    default=None,
    help="Tiers to pay, best first, e.g. suited-match,rank-match,suited-adjacent,adjacent "
    "(default: suited-match,rank-match,adjacent; docs/designer.md).",
)
@cache_option
@format_option(*ALL_FORMATS)
def paytable_search(fmt: str, no_cache: bool, **options: Any) -> None:
    """List whole-unit paytables whose house edge lies in a band."""
    result = api.paytable_search(cache=chosen_cache(no_cache), **options)
    emit_result(fmt, result, search_table(result))


@click.command("variants")
@variant_options
@click.option("--exact", is_flag=True, help="Exact main-wager EVs (slower) instead of floats.")
@jobs_option()
@cache_option
@format_option(Format.TABLE, Format.CSV, Format.JSON, Format.MD)
def variants(fmt: str, no_cache: bool, **options: Any) -> None:
    """Main EV, Bonus EV and round edge for every combination of the rules listed."""
    result = api.variants(
        cache=chosen_cache(no_cache), progress=progress_reporter("variants"), **options
    )
    emit_result(fmt, result, variants_table(result))
