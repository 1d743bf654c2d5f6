"""The ``cbj`` command line: parses options into rules and cards, prints results.

Results go to stdout in the format asked for; errors are one line on stderr with
exit status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from solver import api
from solver.exact.bonus import analyse_bonus
from solver.exact.dealer import dealer_distribution
from solver.exact.design import (
    PAY_TIERS,
    EdgeKind,
    edge_model,
    parse_band,
    parse_edge,
    parse_pay,
    search_paytables,
    solve_pay,
    solve_variants,
    variant_rules,
    with_pay,
)
from solver.exact.game import ProgressCallback, solve_game, solve_game_cached
from solver.exact.game import advise as advise_hand
from solver.model.cards import RANKS, VALUES, Card, Shoe, parse_cards, parse_value
from solver.model.errors import CardError, CbjError, DesignError, RulesError, SimulationError
from solver.model.outcomes import BonusOutcome
from solver.model.rules import DealerNatural, Paytable, Rules, parse_ratio
from solver.present.charts import TEXT_FORMATS, ChartFormat, render
from solver.present.collection import chart_for, write_collection
from solver.present.tables import (
    Format,
    Table,
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
    pay_solution_document,
    pay_solution_table,
    render_tables,
    rules_table,
    search_document,
    search_table,
    simulation_tables,
    variants_document,
    variants_table,
)
from solver.sim import SimulationResult

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


def _rule_options() -> dict[str, Callable[[F], F]]:
    """The rules options by rule name, spelled the same on every command that takes them."""
    return {
        "decks": click.option(
            "--decks", type=int, default=6, show_default=True, help="Decks in the shoe (1-8)."
        ),
        "dealer_stands_on": click.option(
            "--dealer-stands-on",
            type=int,
            default=18,
            show_default=True,
            help="Dealer stops at this best total, with or without the Bonus card (12-21).",
        ),
        "blackjack_pays": click.option(
            "--blackjack-pays",
            default="3:2",
            show_default=True,
            help="Pay of own card + Bonus card = 21, e.g. 3:2, 6:5, 2:1, 1:1.",
        ),
        "dealer_natural": click.option(
            "--dealer-natural",
            default="with_bonus",
            show_default=True,
            type=click.Choice([d.value for d in DealerNatural]),
            help="Which two-card dealer 21s are naturals.",
        ),
        "natural_beats_multi_card_21": click.option(
            "--natural-beats-multi-card-21/--no-natural-beats-multi-card-21",
            default=True,
            show_default=True,
            help="Whether a dealer natural beats a player 21 of 3+ cards.",
        ),
        "paytable": click.option(
            "--paytable",
            default="15:4:1",
            show_default=True,
            help="Bonus pays S:R:A (suited match : rank match : adjacent), each to 1.",
        ),
        "bonus_ratio": click.option(
            "--bonus-ratio",
            default="1/2",
            show_default=True,
            help="Bonus wager per unit of main wager (at least 1/2).",
        ),
    }


def rules_options(command: F) -> F:
    """Add every rules option."""
    return rules_options_except()(command)


def rules_options_except(*names: str) -> Callable[[F], F]:
    """Add the rules options but those named (a command that sets those rules its own way)."""

    def decorate(command: F) -> F:
        options = [o for n, o in _rule_options().items() if n not in names]
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


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
    """Build validated :class:`Rules` from the rules options given (defaults for the rest)."""
    parsers: dict[str, Callable[[Any], Any]] = {
        "decks": int,
        "dealer_stands_on": int,
        "blackjack_pays": lambda v: parse_ratio(v, "blackjack pays"),
        "dealer_natural": DealerNatural,
        "natural_beats_multi_card_21": bool,
        "paytable": Paytable.parse,
        "bonus_ratio": lambda v: parse_ratio(v, "bonus ratio"),
    }
    return Rules(
        **{name: parse(options[name]) for name, parse in parsers.items() if name in options}
    )


def emit(text: str) -> None:
    """Print a result to stdout."""
    click.echo(text)


def emit_result(fmt: str, document: dict[str, Any], tables: Table | Sequence[Table]) -> None:
    """Print a result as its JSON document, or as its table(s) in the text format asked for."""
    output = Format(fmt)
    if output is Format.JSON:
        emit(dumps(document))
    else:
        emit(render_tables([tables] if isinstance(tables, Table) else tables, output))


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
    emit_result(fmt, {"rules": rules.to_json()}, rules_table(rules))


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
    emit_result(fmt, dealer_document(rules, rows), dealer_table(rules, rows))


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
    emit_result(fmt, advice_document(advice), advice_table(advice))


@cli.command()
@rules_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice([f.value for f in ChartFormat]),
    default=None,
    help="Output format [default: from the -o file's suffix, else md].",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write to this file instead of stdout.",
)
def chart(fmt: str | None, output: str | None, **options: Any) -> None:
    """The best printable hit/stand chart and its cost against perfect play."""
    suffix = Path(output).suffix.lower().lstrip(".") if output else ""
    fmt = fmt or (suffix if suffix in set(ChartFormat) else "md")
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

    def run(progress: Callable[[int], None] | None) -> SimulationResult:
        return api.simulate(
            rounds,
            rules=rules,
            seed=seed,
            seats=seats,
            strategy=strategy,
            penetration=None if fresh_shoe else 0.75 if penetration is None else penetration,
            jobs=jobs,
            removed=removed,
            progress=progress,
        )

    if sys.stderr.isatty():
        with click.progressbar(length=rounds, label="dealing", file=sys.stderr) as bar:
            result = run(bar.update)
    else:
        result = run(None)
    emit_result(fmt, result.to_json(), simulation_tables(result))


@cli.group()
def paytable() -> None:
    """Design the Bonus paytable: solve a pay for a target edge, or search paytables."""


def pay_option(tier: BonusOutcome) -> Callable[[F], F]:
    """``--suited-match`` and friends: one tier's pay, overriding ``--paytable``."""
    return click.option(
        f"--{tier.value.replace('_', '-')}",
        tier.value,
        default=None,
        help=f"Pay of the {tier.value.replace('_', ' ')} tier to 1 (default: from --paytable).",
    )


@paytable.command(name="solve")
@rules_options
@click.option(
    "--solve-for",
    required=True,
    type=click.Choice([t.value for t in PAY_TIERS]),
    help="The tier whose pay is solved for.",
)
@pay_option(BonusOutcome.SUITED_MATCH)
@pay_option(BonusOutcome.RANK_MATCH)
@pay_option(BonusOutcome.ADJACENT)
@click.option(
    "--target-bonus-edge", default=None, help="Bonus wager house edge, e.g. 0.05, 1/20, 5%."
)
@click.option(
    "--target-round-edge", default=None, help="Round house edge per total wagered, e.g. 2%."
)
@format_option(Format.TABLE, Format.JSON, Format.CSV, Format.MD)
def paytable_solve(
    solve_for: str,
    suited_match: str | None,
    rank_match: str | None,
    adjacent: str | None,
    target_bonus_edge: str | None,
    target_round_edge: str | None,
    fmt: str,
    **options: Any,
) -> None:
    """Solve exactly for one pay so that the house edge hits a target."""
    tier = BonusOutcome(solve_for)
    kind, target = _one_of(
        {EdgeKind.BONUS: target_bonus_edge, EdgeKind.ROUND: target_round_edge}, "target"
    )
    rules = make_rules(options)
    given = {
        BonusOutcome.SUITED_MATCH: suited_match,
        BonusOutcome.RANK_MATCH: rank_match,
        BonusOutcome.ADJACENT: adjacent,
    }
    if given[tier] is not None:
        raise DesignError(
            f"--{tier.value.replace('_', '-')} is the pay being solved for: leave it out"
        )
    table = rules.paytable
    for t, text in given.items():
        if text is not None:
            table = with_pay(table, t, parse_pay(text, t))
    solution = solve_pay(
        edge_model(rules), tier, kind, parse_edge(target, "target"), table, rules.bonus_ratio
    )
    emit_result(fmt, pay_solution_document(solution), pay_solution_table(solution))


def _one_of(choices: dict[EdgeKind, str | None], what: str) -> tuple[EdgeKind, str]:
    """The one option given among the ``--...-bonus-edge`` / ``--...-round-edge`` pair."""
    given = [(kind, text) for kind, text in choices.items() if text is not None]
    if len(given) != 1:
        raise DesignError(f"give exactly one {what}: a bonus edge or a round edge")
    return given[0]


#: The band ``cbj paytable search`` uses when none is given.
DEFAULT_ROUND_BAND = "1%:2%"


@paytable.command(name="search")
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
@format_option(Format.TABLE, Format.JSON, Format.CSV, Format.MD)
def paytable_search(
    max_pay: int,
    round_edge_range: str | None,
    bonus_edge_range: str | None,
    top: int,
    fmt: str,
    **options: Any,
) -> None:
    """List whole-unit paytables whose house edge lies in a band."""
    if round_edge_range is None and bonus_edge_range is None:
        round_edge_range = DEFAULT_ROUND_BAND
    kind, band = _one_of(
        {EdgeKind.BONUS: bonus_edge_range, EdgeKind.ROUND: round_edge_range}, "edge range"
    )
    rules = make_rules(options)
    result = search_paytables(
        edge_model(rules), kind, parse_band(band), rules.bonus_ratio, max_pay, top
    )
    emit_result(fmt, search_document(result), search_table(result))


def comma_list(text: str | None, parse: Callable[[str], T]) -> tuple[T, ...]:
    """Parse a comma-separated option value; ``None`` gives an empty tuple."""
    if text is None:
        return ()
    items = [item.strip() for item in text.split(",")]
    if not all(items):
        raise RulesError(f"list {text!r} has an empty item: separate values with single commas")
    return tuple(parse(item) for item in items)


def _int(what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise RulesError(f"{what} {text!r} is not a whole number") from None

    return parse


def _natural(text: str) -> DealerNatural:
    try:
        return DealerNatural(text)
    except ValueError:
        choices = ", ".join(d.value for d in DealerNatural)
        raise RulesError(f"dealer natural {text!r} is unknown: use one of {choices}") from None


@cli.command()
@rules_options_except("decks", "dealer_stands_on", "blackjack_pays", "dealer_natural")
@click.option("--decks", "decks_list", default=None, help="Deck counts, e.g. 1,2,6,8.")
@click.option("--dealer-stands-on", "stands_list", default=None, help="Totals, e.g. 17,18.")
@click.option("--blackjack-pays", "blackjack_list", default=None, help="Pays, e.g. 3:2,6:5.")
@click.option(
    "--dealer-natural", "natural_list", default=None, help="e.g. with_bonus,own_cards,none."
)
@click.option("--exact", is_flag=True, help="Exact main-wager EVs (slower) instead of floats.")
@click.option(
    "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Parallel workers."
)
@format_option(Format.TABLE, Format.CSV, Format.JSON, Format.MD)
def variants(
    decks_list: str | None,
    stands_list: str | None,
    blackjack_list: str | None,
    natural_list: str | None,
    exact: bool,
    jobs: int,
    fmt: str,
    **options: Any,
) -> None:
    """Main EV, Bonus EV and round edge for every combination of the rules listed."""
    base = make_rules(options)
    rules = variant_rules(
        base,
        decks=comma_list(decks_list, _int("decks")),
        dealer_stands_on=comma_list(stands_list, _int("dealer stands on")),
        blackjack_pays=comma_list(blackjack_list, lambda t: parse_ratio(t, "blackjack pays")),
        dealer_natural=comma_list(natural_list, _natural),
    )
    found = solve_variants(rules, exact=exact, jobs=jobs, progress=progress_reporter("variants"))
    emit_result(fmt, variants_document(base, found), variants_table(base, found))


@cli.command()
@rules_options
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    default=None,
    help="Write to this file: .html or .pdf (default: HTML on stdout).",
)
@click.option(
    "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Parallel workers."
)
def report(output: Path | None, jobs: int, **options: Any) -> None:
    """A PAR-style math report of the game: HTML or PDF."""
    from solver.present.report import build_report, check_report_path, render_html, write_report

    if output is not None:
        check_report_path(output)
    document = build_report(make_rules(options), jobs=jobs)
    if output is None:
        click.echo(render_html(document), nl=False)
        return
    write_report(document, output)
    click.echo(f"cbj: wrote {output}", err=True)


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
