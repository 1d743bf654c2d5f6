"""The ``cbj`` command line: parses options, calls one :mod:`solver.api` function, prints.

Results go to stdout in the format asked for; errors are one line on stderr with exit
status 2.  Every computation lives in the library; this package only reads options,
reports progress on a terminal and hands results to :mod:`solver.present`.

Each group of commands is a module of its own, split by what it imports:
:mod:`solver.cli.rules` needs only the rule table, while :mod:`solver.cli.strategy` brings the
solver (and numpy).  :data:`COMMANDS` names each command's module, which is imported when
that command runs (click's loading of a subcommand by name); ``cbj --help`` lists the
commands from the same table and imports none of them.
"""

from __future__ import annotations

import atexit
import difflib
import os
import sys
from collections.abc import MutableMapping
from importlib import import_module
from typing import Any, NoReturn

import click

from solver.model import process
from solver.model.errors import CbjError
from solver.model.parallel import end_workers, stop_trackers

#: Each command: the module and name of its click command, and its one-line help (the
#: command's docstring, which a test checks), for ``cbj --help`` to list without loading it.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "advise": (
        "solver.cli.game",
        "advise",
        "Stand and hit values for one hand, and the optimal decision.",
    ),
    "attack": (
        "solver.cli.advantage",
        "attack",
        "Every attack a casino must consider, its bound, and what ends it.",
    ),
    "bet": (
        "solver.cli.advantage",
        "bet",
        "Optimal betting: the Kelly ramp by true count, SCORE, DI, N0 and the bankroll.",
    ),
    "bonus": ("solver.cli.game", "bonus", "Exact return table of the Bonus wager."),
    "cache": (
        "solver.cli.cache",
        "cache_group",
        "The disk cache of solved games: where it is, how big, and clearing it.",
    ),
    "chart": (
        "solver.cli.strategy",
        "chart",
        "The best printable hit/stand chart and its cost against perfect play.",
    ),
    "count": (
        "solver.cli.protection",
        "count",
        "Betting correlation and EV per true count of card counts for this game.",
    ),
    "dealer": (
        "solver.cli.strategy",
        "dealer",
        "Exact distribution of the dealer's final result for each Bonus card.",
    ),
    "eor": (
        "solver.cli.protection",
        "eor",
        "Effects of removal: each wager's EV change when one card of each rank leaves.",
    ),
    "graph": (
        "solver.cli.files",
        "graph",
        "The player's decision graph (hands, EVs, draws) for Gephi, yEd or Graphviz.",
    ),
    "hold": (
        "solver.cli.session",
        "hold_command",
        "Whether a table's win, or each day of a pit's, is within what the game allows.",
    ),
    "indices": (
        "solver.cli.advantage",
        "indices",
        "Index plays: the true count at which each close call flips, and what it is worth.",
    ),
    "paytable": (
        "solver.cli.paytable",
        "paytable",
        "Design the Bonus paytable: solve a pay for a target edge, or search paytables.",
    ),
    "report": ("solver.cli.files", "report", "A PAR-style math report of the game: HTML or PDF."),
    "rules": (
        "solver.cli.rules",
        "rules_command",
        "Print the rules in force, each with its default and meaning.",
    ),
    "seats": (
        "solver.cli.simulation",
        "seats_command",
        "The casino's hold per table-round and its SD for 1 to 7 seats at one table.",
    ),
    "session": (
        "solver.cli.session",
        "session_command",
        "Exact distribution of the net result over a session, and the risk of ruin.",
    ),
    "serve": (
        "solver.web.command",
        "serve",
        "The designer's workbench: a local web app of every figure, live as you type.",
    ),
    "shoe-states": (
        "solver.cli.protection",
        "shoe_states",
        "Random shoes dealt to each depth, each solved: EV spread, count fit, EOR estimate.",
    ),
    "simulate": (
        "solver.cli.simulation",
        "simulate_command",
        "Monte Carlo simulation of whole rounds, independent of the exact solver.",
    ),
    "solve": (
        "solver.cli.game",
        "solve",
        "Optimal play, the main wager's EV and the whole round's figures.",
    ),
    "strategies": (
        "solver.cli.strategy",
        "strategies_command",
        "Exact EV, house edge and cost of realistic strategies; the Bonus ratio; volatility.",
    ),
    "tables": (
        "solver.cli.files",
        "tables",
        "Regenerate the strategy_tables/ collection: every variant in every format.",
    ),
    "variants": (
        "solver.cli.paytable",
        "variants",
        "Main EV, Bonus EV and round edge for every combination of the rules listed.",
    ),
}


class AsciiInt(click.types.IntParamType):
    """Click's whole numbers, in the ASCII digits the help documents (not Arabic-Indic ones)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.isascii():
            self.fail(f"{value!r} is not a whole number in the digits 0-9", param, ctx)
        return super().convert(value, param, ctx)


class AsciiIntRange(AsciiInt, click.IntRange):
    """Click's ``IntRange``, in ASCII digits."""


class AsciiFloat(click.types.FloatParamType):
    """Click's numbers with a fraction, in ASCII digits too."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.isascii():
            self.fail(f"{value!r} is not a number in the digits 0-9", param, ctx)
        return super().convert(value, param, ctx)


def ascii_digits(command: click.Command) -> click.Command:
    """``command`` (and its subcommands) with every number option in ASCII digits."""
    for param in command.params:
        kind = param.type
        if type(kind) is click.types.IntParamType:
            param.type = AsciiInt()
        elif isinstance(kind, click.IntRange) and not isinstance(kind, AsciiInt):
            param.type = AsciiIntRange(kind.min, kind.max, kind.min_open, kind.max_open, kind.clamp)
        elif type(kind) is click.types.FloatParamType:
            param.type = AsciiFloat()
    if isinstance(command, click.Group):
        for subcommand in command.commands.values():
            ascii_digits(subcommand)
    return command


class CommandTable(click.Group):
    """The ``cbj`` group: each subcommand is imported from its module when it is run."""

    def list_commands(self, context: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, context: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attribute, _ = COMMANDS[name]
        command = getattr(import_module(module), attribute)
        assert isinstance(command, click.Command), f"{module}.{attribute} is no command"
        return ascii_digits(command)

    def resolve_command(
        self, context: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """The command named first in ``args``; a name that is none says which is closest."""
        name = args[0] if args else ""
        if name in COMMANDS or name.startswith("-") or context.resilient_parsing:
            return super().resolve_command(context, args)
        close = difflib.get_close_matches(name, COMMANDS, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else " 'cbj --help' lists the commands."
        raise click.UsageError(f"No such command {name!r}.{hint}", context)

    def format_commands(self, context: click.Context, formatter: click.HelpFormatter) -> None:
        """List the subcommands with their whole one-line help from :data:`COMMANDS`, loading
        none (wrapped, never cut short)."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, COMMANDS[name][2]) for name in sorted(COMMANDS)])


@click.group(
    cls=CommandTable,
    context_settings={"help_option_names": ["-h", "--help"]},
    invoke_without_command=True,
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=lambda context, _, value: show_version(context, value),
    help="Show the version, the commit it was built from and the kernels in use (compiled or "
    "numpy), and exit.",
)
@click.pass_context
def cli(context: click.Context) -> None:
    """Exact analysis of Community Blackjack (Casino Edition)."""
    if context.invoked_subcommand is None:
        click.echo(context.get_help())


def show_version(context: click.Context, value: bool) -> None:
    """Print the version and the solver's and simulator's kernels (``cbj --version``), then stop."""
    if not value or context.resilient_parsing:
        return
    from solver.exact import kernel
    from solver.model.version import described
    from solver.sim import kernel as sim_kernel

    kernels = f"{kernel.current()} (solver), {sim_kernel.current()} (simulator)"
    click.echo(f"cbj, version {described()} (kernel: {kernels})")
    context.exit()


def fail(message: str) -> NoReturn:
    """Report bad input as one line on stderr and exit with status 2."""
    click.echo(f"cbj: error: {message}", err=True)
    sys.exit(2)


def interrupted(status: int = 130) -> NoReturn:
    """Ctrl-C (or SIGTERM, SIGHUP): show the cursor again (a progress bar hides it), say
    so, exit 128 + the signal."""
    if sys.stderr is not None and sys.stderr.isatty():
        sys.stderr.write("\x1b[?25h\r\x1b[K")  # cursor shown, a half-drawn bar wiped
    click.echo("cbj: interrupted", err=True)
    sys.exit(status)


#: The warnings filter :func:`quiet_resource_tracker` adds (``-W``'s form, see ``python -W``).
RESOURCE_TRACKER_FILTER = "ignore:resource_tracker:UserWarning"


def quiet_resource_tracker(environ: MutableMapping[str, str]) -> None:
    """Silence joblib's resource tracker in the processes this one starts.

    The tracker is a process of its own: once an interrupted command and its workers have
    ended, it removes what they left (a temporary folder, a semaphore) and warns of each
    kind as it goes, after "cbj: interrupted", in a traceback-like pair of lines.  The
    files go either way; only the warning is left out.  A filter of the user's own in
    ``PYTHONWARNINGS`` stays, before this one.

    >>> environ = {"PYTHONWARNINGS": "error"}
    >>> quiet_resource_tracker(environ)
    >>> environ["PYTHONWARNINGS"]
    'error,ignore:resource_tracker:UserWarning'
    """
    filters = [f for f in environ.get("PYTHONWARNINGS", "").split(",") if f]
    if RESOURCE_TRACKER_FILTER not in filters:
        environ["PYTHONWARNINGS"] = ",".join([*filters, RESOURCE_TRACKER_FILTER])


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``cbj`` console command."""
    # The solver multiplies no matrices, so the pool of threads OpenBLAS starts with numpy
    # (one per core) would only add start-up time and CPU; a user's own setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    quiet_resource_tracker(os.environ)
    if argv is None:
        atexit.register(stop_trackers)  # the last thing the command does: see its doc
    # SIGTERM and SIGHUP clean up as Ctrl-C does (in the command's own process, not a
    # caller's); a full or closed standard output is one line, not silence.
    process.start(own_process=argv is None)
    try:
        status = _run(argv)
    finally:
        if argv is None:  # the work is over; a late signal must not kill the shutdown
            process.ignore_stop_signals()
            end_workers()  # no worker outlives its command
    sys.exit(status)


def _run(argv: list[str] | None) -> int:
    """Run the command; its exit status (bad input and interruptions exit here)."""
    try:
        status = cli.main(args=argv, prog_name="cbj", standalone_mode=False)
        sys.stdout.flush()
    except CbjError as error:
        fail(str(error))
    except click.ClickException as error:
        fail(error.format_message().replace("\n", " "))
    except (click.Abort, KeyboardInterrupt) as error:
        interrupted(process.exit_status(error))
    except (BrokenPipeError, process.ReaderGone):
        sys.stderr.close()  # the reader went away (e.g. `| head`): nothing left to say
        return 0
    return status if isinstance(status, int) else 0
