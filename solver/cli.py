"""The ``cbj`` command line: parses options, calls one :mod:`solver.api` function, prints.

Results go to stdout in the format asked for; errors are one line on stderr with exit
status 2.  Every computation lives in the library; this module only reads options,
reports progress on a terminal and hands results to :mod:`solver.present`.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Iterator, MutableMapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

import click

from solver.model import process
from solver.model.errors import CbjError
from solver.model.outcomes import DEFAULT_ROUND_BAND, PAY_TIERS, POLICY_NAMES, BonusOutcome
from solver.model.rules import DealerNatural, NaturalBeats, PresetName, Rules
from solver.present.formats import ChartFormat, Format, rule_cell
from solver.present.presets import preset_table
from solver.present.tables import (
    Table,
    advice_table,
    bonus_table,
    cache_table,
    dealer_table,
    dumps,
    game_summary,
    game_tables,
    pay_solution_table,
    render_tables,
    rules_table,
    search_table,
    simulation_tables,
    variants_table,
    volatility_table,
)


def lazy_module(name: str) -> ModuleType:
    """A module loaded on first use: ``cbj rules`` need not load numpy and the solver."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, module)  # as an import would: solver.api
    return module


if TYPE_CHECKING:
    from pathlib import Path

    import solver.cache as disk
    from solver import api
    from solver.exact.game import GameStore, ProgressCallback
    from solver.present import charts, files, play, protection
    from solver.present import seats as present_seats
else:
    api = lazy_module("solver.api")
    disk = lazy_module("solver.cache")
    files = lazy_module("solver.present.files")  # shutil and tempfile, for commands that write
    charts = lazy_module("solver.present.charts")
    play = lazy_module("solver.present.play")
    protection = lazy_module("solver.present.protection")
    present_seats = lazy_module("solver.present.seats")

F = TypeVar("F", bound=Callable[..., Any])


class AsciiInt(click.types.IntParamType):
    """Click's whole numbers, in the ASCII digits the help documents (not Arabic-Indic ones)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.isascii():
            self.fail(f"{value!r} is not a whole number in the digits 0-9", param, ctx)
        return super().convert(value, param, ctx)


class AsciiIntRange(AsciiInt, click.IntRange):
    """Click's ``IntRange``, in ASCII digits."""


def option(*decls: str, **attrs: Any) -> Callable[[F], F]:
    """``click.option``, made when its command is first built (see :class:`LazyCommands`)."""
    if attrs.get("type") is int:  # whole numbers in ASCII digits only
        attrs["type"] = AsciiInt()
    elif type(attrs.get("type")) is click.IntRange:
        given = attrs["type"]
        attrs["type"] = AsciiIntRange(given.min, given.max, given.min_open, given.max_open)

    def decorate(command: F) -> F:
        later: list[tuple[tuple[str, ...], dict[str, Any]]] = vars(command).setdefault(
            "options_later", []
        )
        later.append((decls, attrs))
        return command

    return decorate


class LazyCommands(MutableMapping[str, click.Command]):
    """A group's subcommands, each built from its function when it is first looked up.

    Building a command makes its click options (about 4% of ``cbj rules`` when every
    command was built); ``cbj rules`` builds one command, ``cbj --help`` none: its list is
    made from stand-ins that carry each command's docstring (see
    :meth:`LazyGroup.format_commands`).
    """

    def __init__(self) -> None:
        self.built: dict[str, click.Command] = {}
        self.waiting: dict[str, Callable[..., Any]] = {}
        self.stand_ins = False

    def __getitem__(self, name: str) -> click.Command:
        if name in self.built:
            return self.built[name]
        function = self.waiting[name]
        if self.stand_ins:
            return click.Command(name, help=function.__doc__)
        for decls, attrs in vars(function).pop("options_later", []):
            click.option(*decls, **attrs)(function)
        self.built[name] = command = click.command(name)(function)
        del self.waiting[name]
        return command

    def __setitem__(self, name: str, command: click.Command) -> None:
        self.waiting.pop(name, None)
        self.built[name] = command

    def __delitem__(self, name: str) -> None:
        if self.built.pop(name, None) is None:
            del self.waiting[name]

    def __iter__(self) -> Iterator[str]:
        return iter([*self.built, *self.waiting])

    def __len__(self) -> int:
        return len(self.built) + len(self.waiting)


class LazyGroup(click.Group):
    """A click group whose subcommands are built on first use; its subgroups are too."""

    group_class = type
    commands: LazyCommands

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["commands"] = LazyCommands()
        super().__init__(*args, **kwargs)

    def lazy_command(self, name: str) -> Callable[[F], F]:
        """Register a function as the subcommand ``name``, built when first used."""

        def register(function: F) -> F:
            self.commands.waiting[name] = function
            return function

        return register

    def format_commands(self, context: click.Context, formatter: click.HelpFormatter) -> None:
        """List the subcommands with their one-line help, building none of them."""
        self.commands.stand_ins = True
        try:
            super().format_commands(context, formatter)
        finally:
            self.commands.stand_ins = False


class FilePath(click.Path):
    """``click.Path`` whose value is a :class:`pathlib.Path`, loaded only when one is given."""

    def convert(
        self, value: Any, param: click.Parameter | None, context: click.Context | None
    ) -> Any:
        from pathlib import Path

        return Path(os.fsdecode(super().convert(value, param, context)))


#: The default of every rule, as the CLI shows it; the defaults themselves live in Rules.
_DEFAULTS = {name: rule_cell(value) for name, value in Rules().to_json().items()}


def _rule_options() -> dict[str, Callable[[F], F]]:
    """The rules options by rule name, spelled the same on every command that takes them."""

    def rule_option(name: str, help_text: str, **kwargs: Any) -> Callable[[F], F]:
        flag = "--" + name.replace("_", "-")
        return option(flag, default=None, show_default=_DEFAULTS[name], help=help_text, **kwargs)

    return {
        "preset": option(
            "--preset",
            default=None,
            type=click.Choice([p.value for p in PresetName]),
            help="Start from a named set of rules; the other rules options override it.  "
            "[default: casino-edition]",
        ),
        "decks": rule_option("decks", "Decks in the shoe (1-8)."),
        "dealer_stands_on": rule_option(
            "dealer_stands_on",
            "Dealer stops at this best total, with or without the Bonus card (12-21).",
        ),
        "blackjack_pays": rule_option(
            "blackjack_pays", "Pay of own card + Bonus card = 21, e.g. 3:2, 6:5, 2:1, 1:1."
        ),
        "dealer_natural": rule_option(
            "dealer_natural",
            "Which two-card dealer 21s are naturals.",
            type=click.Choice([d.value for d in DealerNatural]),
        ),
        "natural_beats": rule_option(
            "natural_beats",
            "Which player hands a dealer natural beats: 21s of 3+ cards, every "
            "non-blackjack hand, or none (ties every 21).",
            type=click.Choice([b.value for b in NaturalBeats]),
        ),
        "natural_beats_multi_card_21": option(
            "--natural-beats-multi-card-21/--no-natural-beats-multi-card-21",
            default=None,
            help="Old spelling of --natural-beats: yes is multi_card_21, no is nothing.",
        ),
        "paytable": rule_option(
            "paytable", "Bonus pays S:R:A (suited match : rank match : adjacent), each to 1."
        ),
        "bonus_ratio": rule_option(
            "bonus_ratio", "Bonus wager per unit of main wager (at least 1/2)."
        ),
    }


def rules_options(command: F) -> F:
    """Add every rules option."""
    return rules_options_except()(command)


def rules_options_except(*names: str) -> Callable[[F], F]:
    """Add the rules options but those named (a command that sets those rules its own way)."""

    def decorate(command: F) -> F:
        options = [o for n, o in _rule_options().items() if n not in names]
        for add in reversed(options):
            command = add(command)
        return command

    return decorate


def format_option(*choices: Format) -> Callable[[F], F]:
    """Add ``--format`` with the given choices (the first is the default)."""
    return option(
        "--format",
        "fmt",
        type=click.Choice([c.value for c in choices]),
        default=choices[0].value,
        show_default=True,
        help="Output format.",
    )


ALL_FORMATS = (Format.TABLE, Format.JSON, Format.CSV, Format.MD)


def cache_option(command: F) -> F:
    """Add ``--no-cache``."""
    return option("--no-cache", is_flag=True, help="Solve afresh instead of using the disk cache.")(
        command
    )


def jobs_option(help_text: str = "Parallel workers.", every_core: bool = False) -> Callable[[F], F]:
    """Add ``--jobs``; with ``every_core``, -1 (one worker per core) is accepted too and the
    value is checked by the library."""
    kind = int if every_core else click.IntRange(min=1)
    return option("--jobs", type=kind, default=1, show_default=True, help=help_text)


def warn(message: str) -> None:
    """One line of warning on stderr."""
    click.echo(f"cbj: warning: {message}", err=True)


def solving_options(command: F) -> F:
    """The options of a command that solves the game: rules, removed cards, exact, jobs."""
    for add in reversed(
        [
            rules_options,
            option("--removed", default="", help="Cards already out of the shoe (with suits)."),
            option("--exact", is_flag=True, help="Exact fractions (slower) instead of floats."),
            jobs_option(
                "Workers sharing the Bonus card values: threads for floats, processes for --exact."
            ),
            cache_option,
            format_option(*ALL_FORMATS),
        ]
    ):
        command = add(command)
    return command


def chosen_cache(no_cache: bool) -> GameStore | None:
    """The user's disk cache (its warnings one line each on stderr), unless ``--no-cache``."""
    return None if no_cache else disk.default_cache(warn=warn)


def emit(text: str) -> None:
    """Print a result to stdout."""
    click.echo(text)


def emit_result(fmt: str, result: Any, tables: Table | tuple[Table, ...] | list[Table]) -> None:
    """Print a result as its JSON document, or as its table(s) in the text format asked for."""
    output = Format(fmt)
    if output is Format.JSON:
        emit(dumps(result.to_json()))
    else:
        emit(render_tables([tables] if isinstance(tables, Table) else tables, output))


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


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    invoke_without_command=True,
)
@click.version_option(package_name="community-blackjack", prog_name="cbj")
@click.pass_context
def cli(context: click.Context) -> None:
    """Exact analysis of Community Blackjack (Casino Edition)."""
    show_help_if_bare(context)


def show_help_if_bare(context: click.Context) -> None:
    """A group run with no command prints its help and succeeds."""
    if context.invoked_subcommand is None:
        click.echo(context.get_help())


@cli.lazy_command("rules")
@rules_options
@format_option(*ALL_FORMATS)
def rules_command(fmt: str, **options: Any) -> None:
    """Print the rules in force, each with its default and meaning."""
    result = api.rules(**options)
    tables = [rules_table(result.rules)]
    if result.preset is not None:
        tables.append(preset_table(result.preset))
    emit_result(fmt, result, tables)


@cli.lazy_command("bonus")
@rules_options
@option("--removed", default="", help="Cards already out of the shoe, e.g. 'As 10h Kd'.")
@option("--symbolic", is_flag=True, help="Also print the EV as an expression of the pays.")
@format_option(*ALL_FORMATS)
def bonus(removed: str, symbolic: bool, fmt: str, **options: Any) -> None:
    """Exact return table of the Bonus wager."""
    result = api.bonus(removed=removed, symbolic=symbolic, **options)
    emit_result(fmt, result, bonus_table(result.analysis))
    if result.symbolic_expected_value is not None and Format(fmt) is not Format.JSON:
        emit(
            f"\nexpected value as a function of the pays S, R, A: {result.symbolic_expected_value}"
        )


@cli.lazy_command("dealer")
@rules_options
@option(
    "--bonus",
    "bonus_text",
    default="all",
    show_default=True,
    help="Bonus card value A, 2..10, or 'all' for one row per value.",
)
@option("--removed", default="", help="Cards already out of the shoe (suits optional).")
@format_option(*ALL_FORMATS)
def dealer(bonus_text: str, removed: str, fmt: str, **options: Any) -> None:
    """Exact distribution of the dealer's final result for each Bonus card."""
    result = api.dealer(bonus=bonus_text, removed=removed, **options)
    emit_result(fmt, result, dealer_table(result.rules, result.removed, result.rows))


@cli.lazy_command("solve")
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
        emit(render_tables(game_tables(game), output))


@cli.lazy_command("advise")
@rules_options
@option("--bonus", "bonus_text", required=True, help="The Bonus card, e.g. 7 or 7h.")
@option("--hand", required=True, help="The player's own cards, e.g. '9 4'.")
@option("--seen", default="", help="Other cards known to be out of the shoe.")
@option("--exact", is_flag=True, help="Exact fractions instead of floats.")
@format_option(*ALL_FORMATS)
def advise(bonus_text: str, hand: str, seen: str, exact: bool, fmt: str, **options: Any) -> None:
    """Stand and hit values for one hand, and the optimal decision."""
    advice = api.advise(bonus=bonus_text, hand=hand, seen=seen, exact=exact, **options)
    emit_result(fmt, advice, advice_table(advice))


@cli.lazy_command("chart")
@rules_options
@option(
    "--format",
    "fmt",
    type=click.Choice([f.value for f in ChartFormat]),
    default=None,
    help="Output format  [default: from -o's extension, else md]",
)
@option(
    "-o",
    "--output",
    type=FilePath(dir_okay=False),
    default=None,
    help="Write to this file instead of stdout (format from its extension).",
)
@cache_option
def chart(fmt: str | None, output: Path | None, no_cache: bool, **options: Any) -> None:
    """The best printable hit/stand chart and its cost against perfect play."""
    chosen = ChartFormat(files.choose_format(output, fmt, [f.value for f in ChartFormat], "md"))
    if output is None:
        files.check_terminal(chosen.value, sys.stdout)
    else:
        files.check_writable(output)
    data = charts.render(api.chart(cache=chosen_cache(no_cache), **options), chosen)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        click.echo(f"cbj: {files.wrote(files.write_atomic(output, data))}", err=True)


@cli.lazy_command("tables")
@option(
    "--output-dir",
    default="strategy_tables",
    show_default=True,
    help="Folder to (re)write: new, empty, or a collection already; it is replaced whole.",
)
@cache_option
def tables(output_dir: str, no_cache: bool) -> None:
    """Regenerate the strategy_tables/ collection: every variant in every format."""
    from solver.present.collection import VARIANTS

    written = api.tables(
        output_dir, cache=chosen_cache(no_cache), progress=progress_reporter("charts")
    )
    for variant, chart_written in zip(VARIANTS, written.charts, strict=True):
        emit(f"{variant.folder}: chart EV {float(chart_written.expected_value):+.6f}")
    click.echo(f"cbj: {files.wrote(output_dir)}", err=True)


@cli.lazy_command("simulate")
@rules_options
@option("--rounds", type=int, required=True, help="Rounds to deal.")
@option("--seed", type=int, default=None, help="Seed; the same seed gives the same result.")
@option(
    "--seats", type=int, default=1, show_default=True, help="Players sharing Bonus card and dealer."
)
@option(
    "--strategy",
    default="optimal",
    show_default=True,
    help="optimal, chart, stand-on:K (stand once the best total reaches K), never-bust, "
    "mimic-dealer or always-stand.",
)
@option(
    "--penetration",
    type=float,
    default=None,
    help="Share of the shoe dealt before a reshuffle, in (0, 1].  [default: 0.75]",
)
@option("--fresh-shoe", is_flag=True, help="Shuffle a fresh shoe for every round.")
@jobs_option("Worker processes, -1 for all cores; results do not depend on it.", every_core=True)
@option("--removed", default="", help="Cards out of the shoe, with suits, e.g. 'As 10h'.")
@option(
    "--counter",
    default=None,
    help="Seat a card counter at seat 1 using this count: hi-lo, ko, hi-opt-i, omega-ii, "
    "best-level-1..3, or tags 'A=-1,2=1,...,T=-1'.",
)
@option("--spread", default=None, help="The counter's smallest and largest bet.  [default: 1-8]")
@option(
    "--ramp",
    default=None,
    help="The counter's bets by true count, 'TC:UNITS,...' (bet UNITS from TC up).  "
    "[default: the smallest bet, then one unit more per true count from 2]",
)
@option("--wong-out", default=None, help="The counter sits out below this true count.")
@cache_option
@format_option(*ALL_FORMATS)
def simulate_command(
    rounds: int,
    seed: int | None,
    seats: int,
    strategy: str,
    penetration: float | None,
    fresh_shoe: bool,
    jobs: int,
    removed: str,
    counter: str | None,
    spread: str | None,
    ramp: str | None,
    wong_out: str | None,
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
        "jobs": jobs,
        "removed": removed,
        "counter": counter,
        "spread": spread,
        "ramp": ramp,
        "wong_out": wong_out,
        "cache": chosen_cache(no_cache),
        **options,
    }
    if sys.stderr.isatty():
        with click.progressbar(length=rounds, label="dealing", file=sys.stderr) as bar:
            result = api.simulate(progress=bar.update, **arguments)
    else:
        result = api.simulate(**arguments)
    emit_result(fmt, result, simulation_tables(result))


@cli.lazy_command("seats")
@rules_options
@option(
    "--seats",
    default="1-7",
    show_default=True,
    help="Numbers of players at the table, 1 to 7: a range, a list or both, e.g. 1-7 or 1,3,5.",
)
@option(
    "--rounds",
    type=int,
    default=200_000,
    show_default=True,
    help="Table-rounds simulated for each number of seats.",
)
@option("--seed", type=int, default=None, help="Seed; the same seed gives the same result.")
@option(
    "--strategy",
    default="optimal",
    show_default=True,
    help="What every seat plays: optimal, chart, stand-on:K, never-bust, mimic-dealer or "
    "always-stand.",
)
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


@cli.lazy_command("strategies")
@rules_options
@option(
    "--strategies",
    "names",
    default=",".join(POLICY_NAMES),
    show_default=True,
    help="Policies to evaluate, separated by commas.",
)
@option(
    "--bonus-ratios",
    default="1/2,3/4,1,3/2,2",
    show_default=True,
    help="Bonus ratios (each at least 1/2) at which to show optimal play's round.",
)
@option("--removed", default="", help="Cards out of the shoe, with suits, e.g. 'As 10h'.")
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
            play.strategies_table(result),
            play.ratios_table(result),
            volatility_table(result.volatility, "Volatility of the round (optimal play)"),
        ],
    )


@click.group(cls=LazyGroup, invoke_without_command=True)
@click.pass_context
def paytable(context: click.Context) -> None:
    """Design the Bonus paytable: solve a pay for a target edge, or search paytables."""
    show_help_if_bare(context)


cli.add_command(paytable)


def pay_option(tier: BonusOutcome) -> Callable[[F], F]:
    """``--suited-match`` and friends: one tier's pay, overriding ``--paytable``."""
    return option(
        f"--{tier.value.replace('_', '-')}",
        tier.value,
        default=None,
        help=f"Pay of the {tier.value.replace('_', ' ')} tier to 1 (default: from --paytable).",
    )


@paytable.lazy_command("solve")
@rules_options
@option(
    "--solve-for",
    required=True,
    type=click.Choice([t.value for t in PAY_TIERS]),
    help="The tier whose pay is solved for.",
)
@pay_option(BonusOutcome.SUITED_MATCH)
@pay_option(BonusOutcome.RANK_MATCH)
@pay_option(BonusOutcome.ADJACENT)
@option("--target-bonus-edge", default=None, help="Bonus wager house edge, e.g. 0.05, 1/20, 5%.")
@option("--target-round-edge", default=None, help="Round house edge per total wagered, e.g. 2%.")
@cache_option
@format_option(*ALL_FORMATS)
def paytable_solve(fmt: str, no_cache: bool, **options: Any) -> None:
    """Solve exactly for one pay so that the house edge hits a target."""
    solution = api.paytable_solve(cache=chosen_cache(no_cache), **options)
    emit_result(fmt, solution, pay_solution_table(solution))


@paytable.lazy_command("search")
@rules_options_except("paytable")
@option("--max-pay", type=int, default=50, show_default=True, help="Highest pay to try, to 1.")
@option(
    "--round-edge-range",
    default=None,
    help=f"Band LO:HI of the round house edge (default {DEFAULT_ROUND_BAND} if no band).",
)
@option("--bonus-edge-range", default=None, help="Band LO:HI of the Bonus house edge.")
@option("--top", type=int, default=10, show_default=True, help="Paytables to list.")
@cache_option
@format_option(*ALL_FORMATS)
def paytable_search(fmt: str, no_cache: bool, **options: Any) -> None:
    """List whole-unit paytables whose house edge lies in a band."""
    result = api.paytable_search(cache=chosen_cache(no_cache), **options)
    emit_result(fmt, result, search_table(result))


@cli.lazy_command("variants")
@rules_options_except("decks", "dealer_stands_on", "blackjack_pays", "dealer_natural")
@option("--decks", default="", help="Deck counts, e.g. 1,2,6,8.")
@option("--dealer-stands-on", default="", help="Totals, e.g. 17,18.")
@option("--blackjack-pays", default="", help="Pays, e.g. 3:2,6:5.")
@option("--dealer-natural", default="", help="e.g. with_bonus,own_cards,none.")
@option("--exact", is_flag=True, help="Exact main-wager EVs (slower) instead of floats.")
@jobs_option()
@cache_option
@format_option(Format.TABLE, Format.CSV, Format.JSON, Format.MD)
def variants(fmt: str, no_cache: bool, **options: Any) -> None:
    """Main EV, Bonus EV and round edge for every combination of the rules listed."""
    result = api.variants(
        cache=chosen_cache(no_cache), progress=progress_reporter("variants"), **options
    )
    emit_result(fmt, result, variants_table(result))


@cli.lazy_command("report")
@rules_options
@option(
    "-o",
    "--output",
    type=FilePath(dir_okay=False),
    default=None,
    help="Write to this file, .html or .pdf (default: HTML on stdout).",
)
@option(
    "--format",
    "fmt",
    type=click.Choice(["html", "pdf"]),
    default=None,
    help="Output format  [default: from -o's extension, else html]",
)
@option(
    "--shoe-samples",
    type=int,
    default=None,
    help="Game protection: random shoes solved at each depth  [default: 50]",
)
@option(
    "--counter-rounds",
    type=int,
    default=None,
    help="Game protection: rounds dealt to each simulated counter  [default: 2000000]",
)
@click.option(
    "--table-rounds",
    type=AsciiInt(),
    default=None,
    help="A table of players: table-rounds dealt for each number of seats  [default: 50000]",
)
@click.option(
    "--simulation-rounds",
    type=AsciiInt(),
    default=None,
    help="Simulation cross-check: rounds dealt  [default: 100000]",
)
@jobs_option()
@cache_option
def report(output: Path | None, fmt: str | None, jobs: int, no_cache: bool, **options: Any) -> None:
    """A PAR-style math report of the game: HTML or PDF."""
    if output is None and fmt is not None:
        files.check_terminal(fmt, sys.stdout)
    result = api.report(output, format=fmt, jobs=jobs, cache=chosen_cache(no_cache), **options)
    if isinstance(result, str):
        click.echo(result, nl=False)
    elif isinstance(result, bytes):
        sys.stdout.buffer.write(result)
        sys.stdout.flush()
    else:
        click.echo(f"cbj: {files.wrote(output or '')}", err=True)


@click.group(name="cache", cls=LazyGroup, invoke_without_command=True)
@click.pass_context
def cache_group(context: click.Context) -> None:
    """The disk cache of solved games: where it is, how big, and clearing it."""
    show_help_if_bare(context)


cli.add_command(cache_group)


@cache_group.lazy_command("info")
@format_option(*ALL_FORMATS)
def cache_info(fmt: str) -> None:
    """Where the cache is, its size on disk and its number of entries."""
    info = api.cache_info(warn=warn)
    emit_result(fmt, info, cache_table(info))


@cache_group.lazy_command("clear")
def cache_clear() -> None:
    """Delete every cached result."""
    cleared = api.cache_clear(warn=warn)
    click.echo(f"cbj: removed {cleared.entries} cached result(s) from {cleared.path}", err=True)


@cli.lazy_command("eor")
@solving_options
def eor(removed: str, exact: bool, jobs: int, no_cache: bool, fmt: str, **options: Any) -> None:
    """Effects of removal: each wager's EV change when one card of each rank leaves."""
    result = api.eor(
        removed=removed, exact=exact, jobs=jobs, cache=chosen_cache(no_cache), **options
    )
    emit_result(fmt, result, protection.eor_tables(result))


@cli.lazy_command("count")
@rules_options
@option("--tags", default=None, help="A tag per rank, e.g. 'A=-1,2=1,...,9=0,T=-1'.")
@option("--system", default=None, help="A published count: hi-lo, ko, hi-opt-i, omega-ii.")
@option("--removed", default="", help="Cards already out of the shoe (with suits).")
@option("--exact", is_flag=True, help="Exact EORs and slopes (slower) instead of floats.")
@jobs_option("Workers sharing the Bonus card values: threads for floats, processes for --exact.")
@cache_option
@format_option(*ALL_FORMATS)
def count(no_cache: bool, fmt: str, **options: Any) -> None:
    """Betting correlation and EV per true count of card counts for this game."""
    result = api.count(cache=chosen_cache(no_cache), **options)
    emit_result(fmt, result, protection.count_table(result))


@cli.lazy_command("shoe-states")
@rules_options
@option(
    "--depths",
    default="0.25,0.5,0.75,0.83",
    show_default=True,
    help="Shares of the shoe dealt, each between 0 and 1, separated by commas.",
)
@option("--samples", type=int, required=True, help="Random shoes dealt to each depth.")
@option("--seed", type=int, default=None, help="Seed; a fresh one is reported if not given.")
@option("--system", default=None, help="Count for the true count: hi-lo (default), ko, ...")
@option("--tags", default=None, help="A tag per rank instead, e.g. 'A=-1,2=1,...,T=-1'.")
@jobs_option("Local worker processes, -1 for all cores; same results.", every_core=True)
@option(
    "--backend",
    type=click.Choice(["local", "dask"]),
    default="local",
    show_default=True,
    help="Solve the shoes here, or on a Dask cluster (pip install 'community-blackjack[dask]').",
)
@option(
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


@cli.lazy_command("graph")
@rules_options
@option("--bonus", "bonus_text", required=True, help="The Bonus card, e.g. 7 or 7h.")
@option("--hand", default=None, help="Start from these own cards, e.g. '9 3' (default: all).")
@option("--exact", is_flag=True, help="Exact fractions as extra attributes (slower).")
@option(
    "-o",
    "--output",
    type=FilePath(dir_okay=False, writable=True),
    required=True,
    help="File to write: .graphml, .gexf or .dot (or a picture: .svg, .png, .pdf).",
)
def graph(bonus_text: str, hand: str | None, exact: bool, output: Path, **options: Any) -> None:
    """The player's decision graph (hands, EVs, draws) for Gephi, yEd or Graphviz."""
    api.graph(output, bonus=bonus_text, hand=() if hand is None else hand, exact=exact, **options)
    click.echo(f"cbj: wrote {output}", err=True)


def fail(message: str) -> None:
    """Report bad input as one line on stderr and exit with status 2."""
    click.echo(f"cbj: error: {message}", err=True)
    sys.exit(2)


def interrupted(status: int = 130) -> None:
    """Ctrl-C (or SIGTERM, SIGHUP): show the cursor again (a progress bar hides it), say
    so, exit 128 + the signal."""
    if sys.stderr is not None and sys.stderr.isatty():
        sys.stderr.write("\x1b[?25h\r\x1b[K")  # cursor shown, a half-drawn bar wiped
    click.echo("cbj: interrupted", err=True)
    sys.exit(status)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``cbj`` console command."""
    # The solver multiplies no matrices, so the pool of threads OpenBLAS starts with numpy
    # (one per core) would only add start-up time and CPU; a user's own setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # SIGTERM and SIGHUP clean up as Ctrl-C does (in the command's own process, not a
    # caller's); a full or closed standard output is one line, not silence.
    process.start(own_process=argv is None)
    try:
        status = cli.main(args=argv, prog_name="cbj", standalone_mode=False)
        sys.stdout.flush()
    except CbjError as error:
        fail(str(error))
    except click.ClickException as error:
        fail(error.format_message().replace("\n", " "))
    except (click.Abort, KeyboardInterrupt) as error:
        interrupted(process.exit_status(error))
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`): nothing left to say
        sys.exit(0)
    sys.exit(status if isinstance(status, int) else 0)
