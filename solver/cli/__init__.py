"""The ``cbj`` command line: parses options, calls one :mod:`solver.api` function, prints.

Results go to stdout in the format asked for; errors are one line on stderr with exit
status 2.  Every computation lives in the library; this package only reads options,
reports progress on a terminal and hands results to :mod:`solver.present`.

Every command is a row of the command table (:data:`solver.api.table.COMMANDS`), made
into a click command by :mod:`solver.cli.commands` when it runs; ``cbj --help`` lists the
commands from the same table and builds none of them.
"""

from __future__ import annotations

import atexit
import difflib
import os
import sys
from collections.abc import MutableMapping
from importlib import import_module
from typing import NoReturn

import click

from solver.api.table import COMMANDS as TABLE
from solver.api.table import ELSEWHERE, GROUPS
from solver.model import process
from solver.model.errors import CbjError
from solver.model.parallel import end_workers, stop_trackers

#: Each command of ``cbj`` (a group's name for its subcommands) and its one-line help, for
#: ``cbj --help`` to list without building it.
COMMANDS: dict[str, str] = {
    **{c.name: c.summary for c in TABLE if c.cli and " " not in c.name},
    **GROUPS,
    **{name: summary for name, (_, _, summary) in ELSEWHERE.items()},
}


class CommandTable(click.Group):
    """The ``cbj`` group: each subcommand is made from its row of the table when it is run."""

    def list_commands(self, context: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, context: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        if name in ELSEWHERE:
            module, attribute, _ = ELSEWHERE[name]
            found = getattr(import_module(module), attribute)
            assert isinstance(found, click.Command), f"{module}.{attribute} is no command"
            return found
        from solver.cli.commands import group, make  # builds with the present layer's names

        return group(name) if name in GROUPS else make(name)

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
            formatter.write_dl([(name, COMMANDS[name]) for name in sorted(COMMANDS)])


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
