"""The docs written from the command table: the command guide's table of every command and
``docs/api.md``'s signature of every function.

``python scripts/commands_doc.py`` writes each block between its marks;
``tests/test_commands.py`` fails when a committed page differs from what this writes, so a
command added to the table appears in both pages with no edit of them.

>>> "| `cbj hold` | [`solver.hold`](api.md#hold) |" in guide_table()
True
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.api.command_code import signature
from solver.api.table import COMMANDS, Command
from solver.model.params import Param

SCRIPT = "python scripts/commands_doc.py"
#: Each page's block: its marks, and what writes the lines between them.
GUIDE_BEGIN = f"<!-- the command table: written by `{SCRIPT}`; do not edit -->"
GUIDE_END = "<!-- end of the command table -->"
API_BEGIN = f"<!-- every function's signature: written by `{SCRIPT}`; do not edit -->"
API_END = "<!-- end of the signatures -->"


def _option(param: Param, command: Command) -> str:
    """A parameter as the CLI writes it (an API keyword when the CLI has none)."""
    flag = param.flag.split("/")[-1] if param.flag else "--" + param.name.replace("_", "-")
    shown = f"`{param.name}=`" if flag == "-" or not command.cli else f"`{flag}`"
    required = param.required or param.name in command.required
    return f"**{shown}**" if required else shown


def guide_table(table: Sequence[Command] = COMMANDS) -> str:
    """Every command: its function, its options (required ones in bold; the rules' options
    and the run's are every command's, named once below), and what it gives."""
    rows = [
        "| command | from Python | options | gives |",
        "| --- | --- | --- | --- |",
    ]
    for command in table:
        shown = f"`cbj {command.name}`" if command.cli else f"(`{command.name}`, no command)"
        options = ", ".join(
            _option(p, command)
            for p in command.params
            if p.name not in ("progress", "cache", "jobs")
        )
        rules = {"rules": "the rules", "but-paytable": "the rules", "variants": "rule lists"}
        extra = rules.get(command.rules, "")
        listed = "; ".join(part for part in (options, extra) if part)
        function = f"[`solver.{command.function}`](api.md#{command.function.replace('_', '-')})"
        gives = f"`{command.returns.replace('|', 'or')}`"
        if not command.api:
            function, gives = "- (the terminal's own)", command.gives
        rows.append(f"| {shown} | {function} | {listed or '-'} | {gives} |")
    return "\n".join(rows)


def api_signatures(table: Sequence[Command] = COMMANDS) -> str:
    """Every function's heading and signature, in the command table's order."""
    parts = []
    for command in (c for c in table if c.api):
        anchor = command.function.replace("_", "-")
        body = signature(command).removeprefix("def ").rstrip(":")
        parts += [f"### {command.function} {{#{anchor}}}", "", "```python", body, "```", ""]
    return "\n".join(parts).rstrip("\n")


def with_block(document: str, begin: str, end: str, block: str) -> str:
    """``document`` with the lines between ``begin`` and ``end`` written as ``block``."""
    head, found, rest = document.partition(begin)
    _, ended, tail = rest.partition(end)
    if not found or not ended:
        raise ValueError(f"the document has no {begin!r} ... {end!r} block")
    return f"{head}{begin}\n\n{block}\n\n{end}{tail}"


def written(page: str, document: str, table: Sequence[Command] = COMMANDS) -> str:
    """``docs/<page>`` (``command-guide.md`` or ``api.md``) with its block written afresh."""
    if page == "command-guide.md":
        return with_block(document, GUIDE_BEGIN, GUIDE_END, guide_table(table))
    return with_block(document, API_BEGIN, API_END, api_signatures(table))


#: The pages this writes, in ``docs/``.
PAGES = ("command-guide.md", "api.md")
