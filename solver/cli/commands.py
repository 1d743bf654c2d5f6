"""Every ``cbj`` command, made from the command table: its options, the call, the output.

One click command per row of :data:`~solver.api.table.COMMANDS`: the rules' options as
one group, then an option per parameter from its catalogue entry (flag, help, default,
required), and one callback.  The callback hands the text typed to the row's API function
(which reads it by the catalogue, so the CLI and the API accept and refuse the same text
with the same message), then prints the result in the format asked for, or writes it to a
file atomically, in one place for every command.  The few commands that print in their
own way (a chart's ``--check``, a graph, a report, the collection, clearing the cache) have
their hook here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

import click

from solver.api import functions as api
from solver.api.call import load
from solver.api.table import COMMANDS, COMMANDS_BY_NAME, GROUPS, Command
from solver.model.cards import parse_cards
from solver.model.catalogue import HAND_FORMS
from solver.model.errors import CardError
from solver.model.params import Kind, Param
from solver.model.rules import RULE_TABLE, PresetName, Rules
from solver.present.formats import Format, rule_cell
from solver.present.tables import Table, dumps, render_tables

if TYPE_CHECKING:
    from solver.results.kinds import Store

#: What the help shows for a value of each kind (click's words).
METAVARS = {Kind.WHOLE: "INTEGER", Kind.NUMBER: "FLOAT", Kind.PATH: "PATH"}


def with_default(help_text: str, default: str) -> str:
    """An option's help with the value used when it is not given, as click shows defaults.

    >>> with_default("Decks in the shoe (1-8).", "6")
    'Decks in the shoe (1-8).  [default: 6]'
    """
    return f"{help_text}  [default: {default}]"


def hyphens(word: str) -> str:
    """A choice as the CLI writes it: with hyphens (``must_use`` is ``must-use``)."""
    return word.replace("_", "-")


#: The default of every rule, as the CLI shows it; the defaults themselves live in Rules.
_DEFAULTS = {name: hyphens(rule_cell(value)) for name, value in Rules().to_json().items()}
#: The names of the rules' options: each rule, the preset and the old alias.
RULE_OPTIONS = ("preset", *(rule.name for rule in RULE_TABLE), "natural_beats_multi_card_21")


def rule_options(kind: str) -> list[click.Option]:
    """The rules' options of a command taking them as ``kind`` (a row's ``rules``), spelled
    the same on every command: ``--preset``, one per row of the rule table, the old alias."""
    options = [
        click.Option(
            ["--game"],
            metavar="FILE",
            help="Read the rules from a TOML file (docs/rules.md#a-game-in-a-file); the other "
            "rules options override it.",
        ),
        click.Option(
            ["--preset"],
            metavar=f"[{'|'.join(p.value for p in PresetName)}]",
            help=with_default(
                "Start from a named set of rules; the other rules options override it.",
                PresetName.CASINO_EDITION.value,
            ),
        ),
    ]
    for rule in RULE_TABLE:
        if rule.name == "paytable" and kind == "but-paytable":
            continue
        metavar = f"[{'|'.join(map(hyphens, rule.choices))}]" if rule.choices else "TEXT"
        text = rule.help
        if kind == "variants" and rule.common:
            example = ",".join(hyphens(rule_cell(rule.to_json(value))) for value in rule.common)
            text, metavar = f"{text} Several separated by commas, e.g. {example}.", "TEXT"
        shown = with_default(text, _DEFAULTS[rule.name])
        options.append(click.Option([rule.flag], metavar=metavar, help=shown))
    options.append(
        click.Option(
            ["--natural-beats-multi-card-21/--no-natural-beats-multi-card-21"],
            default=None,
            help="Old spelling of --natural-beats: yes is multi-card-21, no is nothing.",
        )
    )
    return options


def option(param: Param) -> click.Option:
    """The click option of one parameter, from its catalogue entry."""
    flags = (param.flag or "--" + param.name.replace("_", "-")).split("/")
    if param.name == "cache":
        return click.Option([*flags, "no_cache"], is_flag=True, help=param.help)
    if param.kind is Kind.FLAG:  # a flag saying no (--no-mid-shoe-entry) gives False
        negative: dict[str, Any] = {"flag_value": False, "default": True}
        given_flag = negative if param.default is True else {}
        return click.Option([*flags, param.name], is_flag=True, help=param.help, **given_flag)
    metavar = param.metavar or METAVARS.get(param.kind, "TEXT")
    if param.choices:
        metavar = f"[{'|'.join(param.choices)}]"
    given: dict[str, Any] = {"default": param.shown_default} if param.shown_default else {}
    if param.multiple:
        given["default"] = ()
    return click.Option(
        [*flags, param.name],
        metavar=metavar,
        required=param.required,
        multiple=param.multiple,
        show_default=bool(param.shown_default),
        help=param.help or None,
        **given,
    )


@cache
def make(name: str) -> click.Command:
    """The click command of the row ``name`` of the command table."""
    command = COMMANDS_BY_NAME[name]
    params: list[click.Parameter] = [*rule_options(command.rules)] if command.rules else []
    params += [
        option(p.but(required=True) if p.name in command.required else p)
        for p in command.params
        if p.flag != "-"
    ]

    def callback(**given: Any) -> None:
        run(command, click.get_current_context(), given)

    return click.Command(
        command.name.split()[-1],
        params=params,
        callback=callback,
        help=command.summary,
        context_settings={"allow_extra_args": True} if command.extra_args else {},
    )


@cache
def group(name: str) -> click.Group:
    """A group of commands (``cbj paytable``, ``cbj cache``): its rows' commands under it; run
    with no command, its help."""

    def callback() -> None:
        context = click.get_current_context()
        if context.invoked_subcommand is None:
            click.echo(context.get_help())

    found = click.Group(name, help=GROUPS[name], invoke_without_command=True, callback=callback)
    for command in COMMANDS:
        words = command.name.split()
        if command.cli and words[0] == name and len(words) == 2:
            found.add_command(make(command.name))
    return found


def warn(message: str) -> None:
    """One line of warning on stderr."""
    click.echo(f"cbj: warning: {message}", err=True)


def progress_reporter(label: str) -> Callable[[int, int], None] | None:
    """A progress bar on stderr when stderr is a terminal, else nothing."""
    if not label or not sys.stderr.isatty():
        return None
    bar: Any = None
    last = 0

    def report(done: int, total: int) -> None:
        nonlocal bar, last
        if bar is None:
            bar = click.progressbar(length=total, label=label, file=sys.stderr)
            bar.__enter__()
        bar.update(done - last)
        last = done
        if done >= total:
            bar.__exit__(None, None, None)

    return report


def whole_hand(context: click.Context, hand: str) -> str:
    """``--hand``'s value with the rest of a hand typed with spaces and no quotes (``--hand
    9 7``: click hands ``7`` over as an extra argument); a word that is no card is a usage
    error showing the forms a hand takes."""
    for word in context.args:
        try:
            parse_cards(word)
        except CardError:
            message = f"unexpected argument {word!r}: write the hand as {HAND_FORMS}"
            raise click.UsageError(message) from None
    return " ".join([hand, *context.args])


def chosen_cache(no_cache: bool) -> Store | None:
    """The user's disk cache (its warnings one line each on stderr), unless ``--no-cache``."""
    return None if no_cache else load("solver.store.disk:default_cache")(warn=warn)


def old_spellings(options: dict[str, Any]) -> list[str]:
    """A note for each choice written with underscores (its old spelling, taken for one more
    release), said once the command has done its work (an error stays one line)."""
    return [
        f"{rule.flag} {given}: underscores are the old spelling, write {hyphens(given)}"
        for rule in RULE_TABLE
        if rule.choices and isinstance(given := options.get(rule.name), str) and "_" in given
    ]


#: The rules ``variants`` takes several values of (those with common values in the table).
_LISTED = frozenset(rule.name for rule in RULE_TABLE if rule.common)


def game_options(command: Command, path: str) -> dict[str, Any]:
    """The rules options game file ``path`` gives ``command``: all of them, but the paytable
    where the command's own options make it, and each as a list of one for ``variants``."""
    read_game: Callable[[str], dict[str, Any]] = load("solver.api.game_file:read_game")
    options = read_game(path)
    if command.rules == "but-paytable":
        options.pop("paytable", None)
    if command.rules == "variants":
        options = {k: [v] if k in _LISTED else v for k, v in options.items()}
    return options


def arguments(command: Command, context: click.Context, given: dict[str, Any]) -> dict[str, Any]:
    """The API function's keywords from the options given: the text typed, the rules'
    options (those typed, over a game file's), the user's disk cache unless ``--no-cache``,
    a progress bar."""
    found = {k: v for k, v in given.items() if v is not None}  # None: not given
    names = {p.name for p in command.api_params}
    if "game" in found:  # the file's rules, under those typed
        found = {**game_options(command, found.pop("game")), **found}
    if "no_cache" in found:
        found["cache"] = chosen_cache(found.pop("no_cache"))
    if "progress" in names:
        found["progress"] = progress_reporter(command.progress)
    if "warn" in names:
        found["warn"] = warn
    if command.extra_args and found.get("hand") is not None:
        found["hand"] = whole_hand(context, found["hand"])
    elif context.args:
        raise click.UsageError(f"unexpected argument {context.args[0]!r}")
    return found


def function(command: Command) -> Callable[..., Any]:
    """The row's API function."""
    found: Callable[..., Any] = getattr(api, command.function)
    return found


def output_of(command: Command, result: Any, fmt: str, comments: bool = False) -> str | bytes:
    """The result in format ``fmt``: the row's own rendering, its JSON or its tables (a CSV
    opening with its tables' titles and notes as ``#`` lines when ``comments``)."""
    if command.render:
        render: Callable[[Any, str, bool], str | bytes] = load(command.render)
        return render(result, fmt, comments)
    if fmt == Format.JSON:
        return dumps(result.to_json())
    tables: Table | list[Table] = load(command.tables)(result)
    listed = [tables] if isinstance(tables, Table) else tables
    return render_tables(listed, Format(fmt), comments)


def printed(data: str | bytes) -> None:
    """Print ``data`` to stdout: text with a newline, bytes as they are."""
    if isinstance(data, str):
        click.echo(data)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()


#: The commands that print in their own way, or write files: their hooks, by name
#: (:mod:`solver.cli.files`, loaded only for them).
HOOKS = {
    "chart": "solver.cli.files:chart",
    "graph": "solver.cli.files:graph",
    "report": "solver.cli.files:report",
    "tables": "solver.cli.files:tables",
    "cache clear": "solver.cli.files:cache_clear",
    "session": "solver.cli.files:written",
    "hold": "solver.cli.files:hold",
    "sweep": "solver.cli.files:sweep",
    "practice": "solver.cli.practice:practice",
}


def run(command: Command, context: click.Context, given: dict[str, Any]) -> None:
    """Call the row's API function with the options given and print its result in the
    format asked for (or hand it to the command's hook)."""
    notes = old_spellings(given)  # as typed: a game file writes the rules' JSON names
    found = arguments(command, context, given)
    if command.name in HOOKS:
        load(HOOKS[command.name])(command, found)
    else:
        param = next(p for p in command.params if p.name == "format")
        fmt = param.read(found.pop("format", None)) or param.example
        comments = found.pop("comments", False)
        printed(output_of(command, function(command)(**found), fmt, comments))
    for note in notes:
        warn(note)
