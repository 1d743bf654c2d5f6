"""The ``cbj`` command line: parses options into rules and cards, prints results.

Results go to stdout in the format asked for; errors are one line on stderr with
exit status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from solver.bonus import analyse_bonus
from solver.cards import parse_cards
from solver.errors import CbjError, SimulationError
from solver.export import (
    Format,
    bonus_document,
    bonus_table,
    dumps,
    render_tables,
    rules_table,
    simulation_tables,
)
from solver.rules import DealerNatural, Paytable, Rules, parse_ratio
from solver.simulate import SimulationResult, parse_strategy, simulate

F = TypeVar("F", bound=Callable[..., Any])


def rules_options(command: F) -> F:
    """Add the rules options, spelled the same on every command that takes them."""
    options = [
        click.option(
            "--decks", type=int, default=6, show_default=True, help="Decks in the shoe (1-8)."
        ),
        click.option(
            "--dealer-stands-on",
            type=int,
            default=18,
            show_default=True,
            help="Dealer stops at this best total, with or without the Bonus card (12-21).",
        ),
        click.option(
            "--blackjack-pays",
            default="3:2",
            show_default=True,
            help="Pay of own card + Bonus card = 21, e.g. 3:2, 6:5, 2:1, 1:1.",
        ),
        click.option(
            "--dealer-natural",
            default="with_bonus",
            show_default=True,
            type=click.Choice([d.value for d in DealerNatural]),
            help="Which two-card dealer 21s are naturals.",
        ),
        click.option(
            "--natural-beats-multi-card-21/--no-natural-beats-multi-card-21",
            default=True,
            show_default=True,
            help="Whether a dealer natural beats a player 21 of 3+ cards.",
        ),
        click.option(
            "--paytable",
            default="15:4:1",
            show_default=True,
            help="Bonus pays S:R:A (suited match : rank match : adjacent), each to 1.",
        ),
        click.option(
            "--bonus-ratio",
            default="1/2",
            show_default=True,
            help="Bonus wager per unit of main wager (at least 1/2).",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def format_option(*choices: Format) -> Callable[[F], F]:
    """Add ``--format`` with the given choices (the first is the default)."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice([c.value for c in choices]),
        default=choices[0].value,
        show_default=True,
        help="Output format.",
    )


def make_rules(options: dict[str, Any]) -> Rules:
    """Build validated :class:`Rules` from the rules options' values."""
    return Rules(
        decks=options["decks"],
        dealer_stands_on=options["dealer_stands_on"],
        blackjack_pays=parse_ratio(options["blackjack_pays"], "blackjack pays"),
        dealer_natural=DealerNatural(options["dealer_natural"]),
        natural_beats_multi_card_21=options["natural_beats_multi_card_21"],
        paytable=Paytable.parse(options["paytable"]),
        bonus_ratio=parse_ratio(options["bonus_ratio"], "bonus ratio"),
    )


def emit(text: str) -> None:
    """Print a result to stdout."""
    click.echo(text)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="community-blackjack", prog_name="cbj")
def cli() -> None:
    """Exact analysis of Community Blackjack (Casino Edition)."""


@cli.command(name="rules")
@rules_options
@format_option(Format.TABLE, Format.JSON, Format.CSV, Format.MD)
def rules_command(fmt: str, **options: Any) -> None:
    """Print the rules in force, each with its default and meaning."""
    rules = make_rules(options)
    if Format(fmt) is Format.JSON:
        emit(dumps({"rules": rules.to_json()}))
    else:
        emit(rules_table(rules).render(Format(fmt)))


@cli.command()
@rules_options
@click.option("--removed", default="", help="Cards already out of the shoe, e.g. 'As 10h Kd'.")
@click.option("--symbolic", is_flag=True, help="Also print the EV as an expression of the pays.")
@format_option(Format.TABLE, Format.JSON, Format.CSV, Format.MD)
def bonus(removed: str, symbolic: bool, fmt: str, **options: Any) -> None:
    """Exact return table of the Bonus wager."""
    analysis = analyse_bonus(make_rules(options), parse_cards(removed))
    expression = str(analysis.symbolic_expected_value()) if symbolic else None
    if Format(fmt) is Format.JSON:
        document = bonus_document(analysis)
        if expression is not None:
            document["symbolic_expected_value"] = expression
        emit(dumps(document))
        return
    emit(bonus_table(analysis).render(Format(fmt)))
    if expression is not None:
        emit(f"\nexpected value as a function of the pays S, R, A: {expression}")


@cli.command(name="simulate")
@rules_options
@click.option("--rounds", type=int, required=True, help="Rounds to deal.")
@click.option("--seed", type=int, default=None, help="Seed; the same seed gives the same result.")
@click.option(
    "--seats", type=int, default=1, show_default=True, help="Players sharing Bonus card and dealer."
)
@click.option(
    "--strategy",
    default="stand-on:18",
    show_default=True,
    help="optimal, chart, or stand-on:K (stand once the best total reaches K).",
)
@click.option(
    "--penetration",
    type=float,
    default=None,
    help="Share of the shoe dealt before a reshuffle, in (0, 1].  [default: 0.75]",
)
@click.option("--fresh-shoe", is_flag=True, help="Shuffle a fresh shoe for every round.")
@click.option(
    "--jobs",
    type=int,
    default=1,
    show_default=True,
    help="Worker processes, -1 for all cores; results do not depend on it.",
)
@click.option("--removed", default="", help="Cards out of the shoe, with suits, e.g. 'As 10h'.")
@format_option(Format.TABLE, Format.JSON, Format.CSV, Format.MD)
def simulate_command(
    rounds: int,
    seed: int | None,
    seats: int,
    strategy: str,
    penetration: float | None,
    fresh_shoe: bool,
    jobs: int,
    removed: str,
    fmt: str,
    **options: Any,
) -> None:
    """Monte Carlo simulation of whole rounds, independent of the exact solver."""
    if fresh_shoe and penetration is not None:
        raise SimulationError("give --penetration or --fresh-shoe, not both")
    rules = make_rules(options)

    def run(progress: Callable[[int], None] | None) -> SimulationResult:
        return simulate(
            rules,
            parse_strategy(strategy, rules),
            rounds,
            seed=seed,
            seats=seats,
            penetration=None if fresh_shoe else 0.75 if penetration is None else penetration,
            jobs=jobs,
            removed=parse_cards(removed),
            progress=progress,
        )

    if sys.stderr.isatty():
        with click.progressbar(length=rounds, label="dealing", file=sys.stderr) as bar:
            result = run(bar.update)
    else:
        result = run(None)
    if Format(fmt) is Format.JSON:
        emit(dumps(result.to_json()))
    else:
        emit(render_tables(simulation_tables(result), Format(fmt)))


def fail(message: str) -> None:
    """Report bad input as one line on stderr and exit with status 2."""
    click.echo(f"cbj: error: {message}", err=True)
    sys.exit(2)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``cbj`` console command."""
    try:
        status = cli.main(args=argv, prog_name="cbj", standalone_mode=False)
    except CbjError as error:
        fail(str(error))
    except click.ClickException as error:
        fail(error.format_message().replace("\n", " "))
    except click.Abort:
        fail("aborted")
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`): nothing left to say
        sys.exit(0)
    sys.exit(status if isinstance(status, int) else 0)
