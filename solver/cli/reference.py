"""The command reference in Markdown, read from ``cbj``'s own click commands and options.

The documentation site builds its "Commands" page from :func:`reference` each time it is
built, so a command or an option added to the CLI appears there with no edit, in the words
``cbj COMMAND --help`` prints (click's own help records, defaults included).  An option
that many commands share word for word (the rule options, ``--help``) is described once,
under "Options shared by many commands", and named in each command's list.

>>> text = reference()
>>> "## cbj advise" in text and "`--hand TEXT`" in text
True
"""

from __future__ import annotations

import html
import inspect
import re
from collections import Counter
from dataclasses import dataclass

import click

from solver.cli import cli

#: An option described word for word by at least this many commands is described once.
SHARED = 3


@dataclass(frozen=True, slots=True)
class Entry:
    """One command: its full name (``paytable solve``), its click command and context."""

    name: str
    command: click.Command
    context: click.Context

    def options(self) -> list[tuple[str, str]]:
        """Each option as click's help lists it: its flags with a metavar, and its help."""
        found = (p.get_help_record(self.context) for p in self.command.get_params(self.context))
        return [record for record in found if record is not None]

    def arguments(self) -> list[str]:
        """The command's positional arguments, as the usage line names them."""
        return [
            p.make_metavar(self.context)
            for p in self.command.get_params(self.context)
            if isinstance(p, click.Argument)
        ]


def entries(
    group: click.Group = cli, parent: click.Context | None = None, prefix: str = ""
) -> list[Entry]:
    """Every command and subcommand of ``group``, in the order ``--help`` lists them."""
    context = parent or click.Context(group, info_name="cbj", **group.context_settings)
    found = []
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        if command is None:
            continue
        own = click.Context(command, info_name=name, parent=context)
        found.append(Entry(f"{prefix}{name}", command, own))
        if isinstance(command, click.Group):
            found.extend(entries(command, own, f"{prefix}{name} "))
    return found


def escape(text: str) -> str:
    r"""Text for Markdown: HTML's special characters and Markdown's emphasis and links escaped.

    >>> escape("a <b> *c* [d]_e")
    'a &lt;b&gt; \\*c\\* \\[d\\]\\_e'
    """
    return re.sub(r"([\\`*_\[\]])", r"\\\1", html.escape(text, quote=False))


def help_text(command: click.Command) -> str:
    """A command's whole help as Markdown paragraphs (click's ``\\b`` markers dropped)."""
    text = inspect.cleandoc(command.help or command.short_help or "")
    paragraphs = [p.replace("\b\n", "").replace("\b", "").strip() for p in text.split("\n\n")]
    return "\n\n".join(escape(" ".join(p.split())) for p in paragraphs if p)


def _option(record: tuple[str, str]) -> str:
    flags, words = record
    return f"- `{flags}`: {escape(' '.join(words.split()))}" if words else f"- `{flags}`"


def _flags(record: tuple[str, str]) -> str:
    """An option's flags alone, without its metavar: ``-h, --help``."""
    return ", ".join(f"`{t.rstrip(',')}`" for t in record[0].split() if t.startswith("-"))


def _section(entry: Entry, shared: set[tuple[str, str]]) -> list[str]:
    usage = entry.command.get_usage(entry.context).removeprefix("Usage: ")
    lines = [f"## cbj {entry.name}", "", help_text(entry.command), "", "```text", usage, "```", ""]
    if isinstance(entry.command, click.Group):
        context = entry.context
        names = entry.command.list_commands(context)
        links = ", ".join(f"[`{n}`](#cbj-{entry.name.replace(' ', '-')}-{n})" for n in names)
        lines += [f"Subcommands: {links}.", ""]
    own = [r for r in entry.options() if r not in shared]
    lines += [_option(r) for r in own]
    common = [r for r in entry.options() if r in shared]
    if common:
        named = ", ".join(_flags(r) for r in common)
        lines += [f"- and the [shared options](#options-shared-by-many-commands) {named}"]
    return [*lines, ""]


def reference(group: click.Group = cli) -> str:
    """The whole command reference: ``cbj`` itself, each command, then the shared options."""
    found = entries(group)
    top = Entry("", group, click.Context(group, info_name="cbj", **group.context_settings))
    tally = Counter(r for e in found for r in set(e.options()))
    shared = {r for r, n in tally.items() if n >= SHARED}
    lines = [
        "# Command reference",
        "",
        "Every command of `cbj` with every option, in the words of its `--help`; this page is",
        "written from the command line's own definitions each time the site is built.",
        "Every command is also a function of the `solver` package with the same options",
        "([From Python](api.md)).",
        "",
        "```text",
        top.command.get_usage(top.context).removeprefix("Usage: "),
        "```",
        "",
        *(_option(r) for r in top.options()),
        "",
    ]
    for entry in found:
        lines += _section(entry, shared)
    lines += ["## Options shared by many commands", ""]
    for record in sorted(shared):
        users = ", ".join(e.name for e in found if record in e.options())
        lines += [_option(record), f"  (used by: {users})"]
    return "\n".join(lines) + "\n"
