"""The game's commands that a cache hit answers cheaply: ``cbj bonus``, ``solve``, ``advise``."""

from __future__ import annotations

from typing import Any

import click

from solver.api import game as api
from solver.cli.cache import chosen_cache
from solver.cli.options import (
    ALL_FORMATS,
    HAND_FORMS,
    comments_asked,
    emit,
    emit_result,
    format_option,
    progress_reporter,
    rules_options,
    solving_options,
    whole_hand,
)
from solver.present.formats import Format
from solver.present.game import bonus_tables, game_summary, game_tables
from solver.present.tables import advice_table, dumps, render_tables


@click.command("bonus")
@rules_options
@click.option("--removed", default="", help="Cards already out of the shoe, e.g. 'As 10h Kd'.")
@click.option("--symbolic", is_flag=True, help="Also print the EV as an expression of the pays.")
@format_option(*ALL_FORMATS)
def bonus(removed: str, symbolic: bool, fmt: str, **options: Any) -> None:
    """Exact return table of the Bonus wager."""
    result = api.bonus(removed=removed, symbolic=symbolic, **options)
    emit_result(fmt, result, bonus_tables(result.analysis))
    if result.symbolic_expected_value is not None and Format(fmt) is not Format.JSON:
        emit(
            f"\nexpected value as a function of the pays S, R, A: {result.symbolic_expected_value}"
        )


@click.command("solve")
@solving_options
def solve(removed: str, exact: bool, jobs: int, no_cache: bool, fmt: str, **options: Any) -> None:
    """Optimal play, the main wager's EV and the whole round's figures."""
    game = api.solve(
        removed=removed,
        exact=exact,
        jobs=jobs,
        cache=chosen_cache(no_cache),
        progress=progress_reporter("solving Bonus cards"),
        **options,
    )
    output = Format(fmt)
    if output is Format.JSON:
        emit(dumps(game.to_json()))
    elif output is Format.TABLE:
        emit(game_summary(game))
    else:
        emit(render_tables(game_tables(game), output, comments_asked()))


# Extra arguments are the rest of a hand typed with spaces and no quotes (``--hand 9 7``).
@click.command("advise", context_settings={"allow_extra_args": True})
@rules_options
@click.option("--bonus", "bonus_text", required=True, help="The Bonus card, e.g. 7 or 7h.")
@click.option("--hand", required=True, help=f"The player's own cards: {HAND_FORMS}.")
@click.option("--seen", default="", help="Other cards known to be out of the shoe.")
@click.option("--exact", is_flag=True, help="Exact fractions instead of floats.")
@format_option(*ALL_FORMATS)
@click.pass_context
def advise(
    context: click.Context,
    /,
    bonus_text: str,
    hand: str,
    seen: str,
    exact: bool,
    fmt: str,
    **options: Any,
) -> None:
    """Stand and hit values for one hand, and the optimal decision."""
    hand = whole_hand(context, hand)
    advice = api.advise(bonus=bonus_text, hand=hand, seen=seen, exact=exact, **options)
    emit_result(fmt, advice, advice_table(advice))
