"""The options that several commands share, and how a command prints its result.

Cheap to import (click and the rule table): ``cbj rules`` loads this and its own module.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from solver.model.cards import parse_cards
from solver.model.errors import CardError
from solver.model.rules import RULE_TABLE, PresetName, Rules
from solver.present.formats import Format, rule_cell
from solver.present.tables import Table, dumps, render_tables

F = TypeVar("F", bound=Callable[..., Any])


class FilePath(click.Path):
    """``click.Path`` whose value is a :class:`pathlib.Path`."""

    def convert(
        self, value: Any, param: click.Parameter | None, context: click.Context | None
    ) -> Any:
        # Here, not at the top: every command loads this module, and only one given a file
        # needs pathlib (a cache hit loads none: tests/test_store_fingerprint.py).
        from pathlib import Path

        return Path(os.fsdecode(super().convert(value, param, context)))


def with_default(help_text: str, default: str) -> str:
    """An option's help with the value used when it is not given, as click shows defaults.

    For options whose default is None (not given: the preset's value is used), where
    click's own ``show_default`` text would be printed in parentheses.

    >>> with_default("Decks in the shoe (1-8).", "6")
    'Decks in the shoe (1-8).  [default: 6]'
    """
    return f"{help_text}  [default: {default}]"


#: The default of every rule, as the CLI shows it; the defaults themselves live in Rules.
_DEFAULTS = {name: rule_cell(value) for name, value in Rules().to_json().items()}


def _rule_options() -> dict[str, Callable[[F], F]]:
    """The rules options by rule name, one per row of the rule table, plus ``--preset`` and
    the old alias; spelled the same on every command that takes them."""
    options: dict[str, Callable[[F], F]] = {
        "preset": click.option(
            "--preset",
            default=None,
            type=click.Choice([p.value for p in PresetName]),
            help=with_default(
                "Start from a named set of rules; the other rules options override it.",
                PresetName.CASINO_EDITION.value,
            ),
        )
    }
    for rule in RULE_TABLE:
        choices: dict[str, Any] = {"type": click.Choice(rule.choices)} if rule.choices else {}
        options[rule.name] = click.option(
            rule.flag, default=None, help=with_default(rule.help, _DEFAULTS[rule.name]), **choices
        )
    options["natural_beats_multi_card_21"] = click.option(
        "--natural-beats-multi-card-21/--no-natural-beats-multi-card-21",
        default=None,
        help="Old spelling of --natural-beats: yes is multi_card_21, no is nothing.",
    )
    return options


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


def variant_options(command: F) -> F:
    """Add the rules options of ``cbj variants``: a rule with common values in the rule table
    takes several, separated by commas (its common values are the help's example)."""
    options = _rule_options()
    for rule in RULE_TABLE:
        if rule.common:
            example = ",".join(rule_cell(rule.to_json(value)) for value in rule.common)
            options[rule.name] = click.option(
                rule.flag,
                default="",
                help=with_default(
                    f"{rule.help} Several separated by commas, e.g. {example}.",
                    _DEFAULTS[rule.name],
                ),
            )
    for add in reversed(options.values()):
        command = add(command)
    return command


def format_option(*choices: Format) -> Callable[[F], F]:
    """Add ``--format`` with the given choices (the first is the default), and
    ``--comments`` (:func:`comments_asked`)."""
    chosen = click.option(
        "--format",
        "fmt",
        type=click.Choice([c.value for c in choices]),
        default=choices[0].value,
        show_default=True,
        help="Output format.",
    )
    return lambda command: chosen(COMMENTS_OPTION(command))


#: ``--comments``: kept in the context (not passed to the command), read by the output.
COMMENTS_OPTION = click.option(
    "--comments",
    is_flag=True,
    expose_value=False,
    callback=lambda context, _, value: context.meta.__setitem__("cbj.comments", value),
    help="CSV: each table's title and notes as # lines before the data.",
)


def comments_asked() -> bool:
    """Whether ``--comments`` was given (a CSV then opens with its tables' notes)."""
    context = click.get_current_context(silent=True)
    return bool(context is not None and context.meta.get("cbj.comments"))


ALL_FORMATS = (Format.TABLE, Format.JSON, Format.CSV, Format.MD)

#: How a hand may be written, for the help and for the error of a word that is no card.
HAND_FORMS = "--hand '9 7', --hand 9,7, --hand 9 7 or --hand 97 (suits optional: 9h 7s)"


def whole_hand(context: click.Context, hand: str) -> str:
    """``--hand``'s value with the rest of a hand typed with spaces and no quotes (``--hand
    9 7``: click hands ``7`` over as an extra argument; the command allows extra arguments);
    a word that is no card is a usage error showing the forms a hand takes."""
    for word in context.args:
        try:
            parse_cards(word)
        except CardError:
            message = f"unexpected argument {word!r}: write the hand as {HAND_FORMS}"
            raise click.UsageError(message) from None
    return " ".join([hand, *context.args])


def cache_option(command: F) -> F:
    """Add ``--no-cache``."""
    return click.option(
        "--no-cache", is_flag=True, help="Solve afresh instead of using the disk cache."
    )(command)


def jobs_option(help_text: str = "Parallel workers.", every_core: bool = False) -> Callable[[F], F]:
    """Add ``--jobs``; with ``every_core``, -1 (one worker per core) is accepted too and the
    value is checked by the library."""
    kind = int if every_core else click.IntRange(min=1)
    return click.option("--jobs", type=kind, default=1, show_default=True, help=help_text)


#: What ``--strategy`` takes, for its help: every command that plays a strategy says the same.
STRATEGY_HELP = (
    "optimal, chart, chart:FILE (a chart file, as cbj chart --format csv or json writes it), "
    "stand-on:K (stand once the best total reaches K), never-bust, mimic-dealer or "
    "always-stand."
)


def strategy_option(what: str = "") -> Callable[[F], F]:
    """Add ``--strategy`` (default ``optimal``); ``what`` says what plays it, e.g. "What
    every seat plays:". The name is checked by the library (one line and exit 2)."""
    prefix = f"{what} " if what else ""
    return click.option(
        "--strategy", default="optimal", show_default=True, help=prefix + STRATEGY_HELP
    )


def warn(message: str) -> None:
    """One line of warning on stderr."""
    click.echo(f"cbj: warning: {message}", err=True)


def solving_options(command: F) -> F:
    """The options of a command that solves the game: rules, removed cards, exact, jobs."""
    for add in reversed(
        [
            rules_options,
            click.option(
                "--removed", default="", help="Cards already out of the shoe (with suits)."
            ),
            click.option(
                "--exact", is_flag=True, help="Exact fractions (slower) instead of floats."
            ),
            jobs_option(
                "Workers sharing the Bonus card values: threads for floats, processes for --exact."
            ),
            cache_option,
            format_option(*ALL_FORMATS),
        ]
    ):
        command = add(command)
    return command


def emit(text: str) -> None:
    """Print a result to stdout."""
    click.echo(text)


def emit_result(fmt: str, result: Any, tables: Table | tuple[Table, ...] | list[Table]) -> None:
    """Print a result as its JSON document, or as its table(s) in the text format asked for."""
    output = Format(fmt)
    if output is Format.JSON:
        emit(dumps(result.to_json()))
    else:
        listed = [tables] if isinstance(tables, Table) else tables
        emit(render_tables(listed, output, comments_asked()))


def progress_reporter(label: str) -> Callable[[int, int], None] | None:
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


def show_help_if_bare(context: click.Context) -> None:
    """A group run with no command prints its help and succeeds."""
    if context.invoked_subcommand is None:
        click.echo(context.get_help())
