"""The ``cbj`` command line: parses options into rules and cards, prints results.

Results go to stdout in the format asked for; errors are one line on stderr with
exit status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from solver.bonus import analyse_bonus
from solver.cards import RANKS, VALUES, Card, Shoe, parse_cards, parse_value
from solver.charts import TEXT_FORMATS, ChartFormat, render
from solver.collection import chart_for, write_collection
from solver.dealer import dealer_distribution
from solver.errors import CardError, CbjError, SimulationError
from solver.export import (
    Format,
    advice_document,
    advice_table,
    bonus_document,
    bonus_table,
    dealer_document,
    dealer_table,
    dumps,
    game_document,
    game_summary,
    game_tables,
    render_tables,
    rules_table,
    simulation_tables,
)
from solver.game import ProgressCallback, solve_game, solve_game_cached
from solver.game import advise as advise_hand
from solver.rules import DealerNatural, Paytable, Rules, parse_ratio
from solver.simulate import ExactFigure, SimulationResult, parse_strategy, simulate
from solver.strategy import exact_main

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


def card_option(name: str, help_text: str) -> Callable[[F], F]:
    """An option taking a list of cards, e.g. ``--removed 'As 10h K'``."""
    return click.option(name, default="", help=help_text)


def progress_reporter(label: str) -> ProgressCallback | None:
    """A progress bar on stderr when stderr is a terminal, else nothing."""
    if not sys.stderr.isatty():
        return None
    bar: Any = None

    def report(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = click.progressbar(length=total, label=label, file=sys.stderr)
            bar.__enter__()
        bar.update(1)
        if done == total:
            bar.__exit__(None, None, None)

    return report


@cli.command()
@rules_options
@click.option(
    "--bonus",
    "bonus_text",
    default="all",
    show_default=True,
    help="Bonus card value A, 2..10, or 'all' for one row per value.",
)
@card_option("--removed", "Cards already out of the shoe (suits optional).")
@format_option(Format.TABLE, Format.JSON, Format.CSV, Format.MD)
def dealer(bonus_text: str, removed: str, fmt: str, **options: Any) -> None:
    """Exact distribution of the dealer's final result for each Bonus card."""
    rules = make_rules(options)
    cards = parse_cards(removed)
    shoe = Shoe.full(rules.decks).remove(cards)
    bonuses = list(VALUES) if bonus_text.strip().lower() == "all" else [parse_value(bonus_text)]
    rows = []
    for bonus in bonuses:
        left = shoe.remove([Card(RANKS[bonus - 1])])
        rows.append((bonus, cards, dealer_distribution(rules, bonus, left.value_counts())))
    if Format(fmt) is Format.JSON:
        emit(dumps(dealer_document(rules, rows)))
    else:
        emit(dealer_table(rules, rows).render(Format(fmt)))


@cli.command()
@rules_options
@card_option("--removed", "Cards already out of the shoe (with suits, for the Bonus wager).")
@click.option("--exact", is_flag=True, help="Exact fractions (slower) instead of floats.")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Workers sharing the Bonus card values: threads for floats, processes for --exact.",
)
@click.option("--no-cache", is_flag=True, help="Solve afresh instead of using the disk cache.")
@format_option(Format.TABLE, Format.JSON, Format.CSV, Format.MD)
def solve(removed: str, exact: bool, jobs: int, no_cache: bool, fmt: str, **options: Any) -> None:
    """Optimal play, the main wager's EV and the whole round's figures."""
    rules = make_rules(options)
    cards = parse_cards(removed)
    progress = progress_reporter("solving Bonus cards")
    solver_function = solve_game if no_cache else solve_game_cached
    game = solver_function(rules, cards, exact=exact, jobs=jobs, progress=progress)
    output = Format(fmt)
    if output is Format.JSON:
        emit(dumps(game_document(game)))
    elif output is Format.TABLE:
        emit(game_summary(game))
    else:
        emit(render_tables(game_tables(game), output))


@cli.command()
@rules_options
@click.option("--bonus", "bonus_text", required=True, help="The Bonus card, e.g. 7 or 7h.")
@click.option("--hand", required=True, help="The player's own cards, e.g. '9 4'.")
@card_option("--seen", "Other cards known to be out of the shoe.")
@click.option("--exact", is_flag=True, help="Exact fractions instead of floats.")
@format_option(Format.TABLE, Format.JSON, Format.CSV, Format.MD)
def advise(bonus_text: str, hand: str, seen: str, exact: bool, fmt: str, **options: Any) -> None:
    """Stand and hit values for one hand, and the optimal decision."""
    rules = make_rules(options)
    bonus_cards = parse_cards(bonus_text)
    if len(bonus_cards) != 1:
        raise CardError(f"--bonus takes exactly one card, got {bonus_text!r}")
    advice = advise_hand(rules, bonus_cards[0], parse_cards(hand), parse_cards(seen), exact=exact)
    if Format(fmt) is Format.JSON:
        emit(dumps(advice_document(advice)))
    else:
        emit(advice_table(advice).render(Format(fmt)))


@cli.command()
@rules_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice([f.value for f in ChartFormat]),
    default="md",
    show_default=True,
    help="Output format.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write to this file instead of stdout.",
)
def chart(fmt: str, output: str | None, **options: Any) -> None:
    """The best printable hit/stand chart and its cost against perfect play."""
    chosen = ChartFormat(fmt)
    if output is None and chosen not in TEXT_FORMATS and sys.stdout.isatty():
        raise CbjError(f"{fmt} is a binary format: give -o FILE or redirect stdout")
    data = render(chart_for(make_rules(options)), chosen)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        Path(output).write_bytes(data)


@cli.command()
@click.option(
    "--output-dir",
    type=click.Path(file_okay=False),
    default="strategy_tables",
    show_default=True,
    help="Folder to (re)write.",
)
def tables(output_dir: str) -> None:
    """Regenerate the strategy_tables/ collection: every variant in every format."""
    charts = write_collection(Path(output_dir), progress=progress_reporter("charts"))
    for variant, written in charts:
        emit(f"{variant.folder}: chart EV {float(written.expected_value):+.6f}")


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
    cards = parse_cards(removed)
    played = parse_strategy(strategy, rules)
    exact = None
    if played.name in ("optimal", "chart") and not cards:
        # The solver's figure for the same strategy, for the z-score (a fresh shoe matches
        # it exactly; dealing to a cut card only approximately).
        mean, probabilities = exact_main(rules, "chart" if played.name == "chart" else "optimal")
        exact = {"main": ExactFigure(mean, probabilities)}

    def run(progress: Callable[[int], None] | None) -> SimulationResult:
        return simulate(
            rules,
            played,
            rounds,
            seed=seed,
            seats=seats,
            penetration=None if fresh_shoe else 0.75 if penetration is None else penetration,
            jobs=jobs,
            removed=cards,
            exact=exact,
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
