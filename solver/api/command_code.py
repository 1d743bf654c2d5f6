"""The code written from the command table, where a type checker must read commands as code.

Each command's API function, with its typed keywords, its result type and its docstring,
cannot be made from :data:`~solver.api.table.COMMANDS` at run time without losing its
static types (``mypy --strict``, ``solver/__init__.pyi``), so ``python
scripts/commands_code.py`` writes them: ``solver/api/functions.py`` whole, and one marked
block in each of ``solver/__init__.py`` and ``solver/__init__.pyi``.
``tests/test_commands.py`` fails, naming the file and the script, when a committed file
differs from what this writes.

>>> dealer = next(c for c in COMMANDS if c.name == "dealer")
>>> print(signature(dealer).split("\\n")[2])
    bonus: str | int = "all",
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Sequence
from fractions import Fraction
from importlib import import_module
from pathlib import Path

from solver.api.table import COMMANDS, TYPES, Command
from solver.model.outcomes import POLICY_NAMES
from solver.model.params import Param
from solver.model.rule_code import PACKAGE, import_lines, with_block

#: The script that writes the code, as the marks and the stale test name it.
SCRIPT = "python scripts/commands_code.py"
#: The generated module, written whole.
FUNCTIONS_MODULE = "api/functions.py"
MARKED = ("__init__.py", "__init__.pyi")
BEGIN = f"# each command's function, written by `{SCRIPT}`; do not edit"
END = "# end of what scripts/commands_code.py writes"
#: Every file the command table writes, relative to :data:`~solver.model.rule_code.PACKAGE`.
WRITTEN = (FUNCTIONS_MODULE, *MARKED)

#: Where the names an annotation may use come from (besides :data:`~solver.api.table.TYPES`).
NAMES = {
    **TYPES,
    "Any": "typing",
    "Callable": "collections.abc",
    "Mapping": "collections.abc",
    "Sequence": "collections.abc",
    "Fraction": "fractions",
    "Path": "pathlib",
    "Cards": "solver.api.rules",
    "RuleOptions": "solver.api.rules",
    "VariantOptions": "solver.api.rules",
    "Card": "solver.model.cards",
    "ChartGrid": "solver.model.chart_file",
    "POLICY_NAMES": "solver.model.outcomes",
    "ProgressCallback": "solver.model.params",
    "Paytable": "solver.model.paytable",
    "Tier": "solver.model.paytable",
    "Rules": "solver.model.rules",
    "Run": "solver.results.run",
    "Store": "solver.results.kinds",
    "PracticeHistory": "solver.results.practice_history",
    "PracticeState": "solver.results.practice",
    "PlayerStrategy": "solver.results.report",
}


def _default(param: Param) -> str:
    """A keyword's default as code."""
    value = param.default
    if value == POLICY_NAMES:
        return "POLICY_NAMES"
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})".replace(", 1)", ")")
    return json.dumps(value) if isinstance(value, str) else repr(value)


def _parameter(param: Param, stub: bool, exact: str) -> str:
    """One parameter's line: its annotation and default (``...`` in an overload)."""
    if param.name == "exact" and exact:
        return f"    exact: {exact},"
    required = param.required and param.default is None
    default = "" if required else " = ..." if stub else f" = {_default(param)}"
    return f"    {param.name}: {param.annotation}{default},"


def signature(command: Command, result: str = "", exact: str = "") -> str:
    """The ``def`` line of ``command``'s function and its parameters, one per line; with
    ``exact`` (``Literal[True]``, say), an overload's, every default ``...``."""
    stub = bool(exact)
    params = command.api_params
    first = [_parameter(p, stub, exact) for p in params if p.name in command.positional]
    rest = [_parameter(p, stub, exact) for p in params if p.name not in command.positional]
    lines = [f"def {command.function}(", *first, "    *,", *rest]
    if command.run:
        lines.append(f"    run: Run | None = {'...' if stub else 'None'},")
    if command.rules:
        options = "VariantOptions" if command.rules == "variants" else "RuleOptions"
        lines += [f"    rules: Rules | None = {'...' if stub else 'None'},"]
        lines += [f"    **options: Unpack[{options}],"]
    return "\n".join([*lines, f") -> {result or command.returns}:"])


def docstring(command: Command) -> list[str]:
    """The function's docstring: its writer's or its compute function's, as written there."""
    reference = command.write or command.compute
    module, _, name = reference.partition(":")
    found = inspect.getdoc(getattr(import_module(module), name)) or command.summary
    first, *rest = found.replace("\\", "\\\\").split("\n")
    if not rest:
        return [f'    """{first}"""']
    return [f'    """{first}', *(f"    {line}" if line else "" for line in rest), '    """']


#: ``solve``'s overloads: ``exact=True`` gives fractions, ``False`` floats.
EXACT_TYPES = (
    ("Literal[True]", "SolveResult[Fraction]"),
    ("Literal[False] = ...", "SolveResult[float]"),
    ("bool = ...", "SolveResult[Any]"),
)


def _overloads(command: Command) -> list[str]:
    """The overloads of a function whose result's numbers follow ``exact``."""
    if command.returns != "SolveResult[Any]":
        return []
    return [
        line
        for exact, result in EXACT_TYPES
        for line in ("@overload", signature(command, result, exact) + " ...", "", "")
    ]


def function(command: Command) -> list[str]:
    """The text of ``command``'s API function."""
    result = command.returns
    return [
        *_overloads(command),
        signature(command),
        *docstring(command),
        f'    return cast("{result}", call("{command.function}", locals()))',
    ]


def _imports(table: Sequence[Command]) -> list[str]:
    """The generated module's imports: what its defaults need at run time, and the names its
    annotations use only for the type checker (so that ``import solver`` stays quick)."""
    text = "\n".join(line for c in table for line in function(c))
    needed: dict[str, set[str]] = {"typing": {"TYPE_CHECKING", "Unpack", "cast"}}
    if "@overload" in text:
        needed["typing"] |= {"Literal", "overload"}
    typing: dict[str, set[str]] = {}
    for name, module in NAMES.items():
        if re.search(rf"= [^\n]*\b{name}\b", text):
            needed.setdefault(module, set()).add(name)
        elif re.search(rf"(?<!\")\b{name}\b", text.replace('cast("', "cast(")):
            typing.setdefault(module, set()).add(name)
    needed["solver.api.call"] = {"call"}
    lines = ["from __future__ import annotations", ""]
    for found, indent in ((needed, ""), (typing, "    ")):
        if indent:
            lines.append("if TYPE_CHECKING:")
        for ours in (False, True):
            group = sorted(m for m in found if m.startswith("solver") == ours)
            lines += [indent + line for m in group for line in import_lines(m, found[m])]
            lines.append("")
        lines.pop()
        lines.append("")
    return [*lines, ""]


def functions_module(table: Sequence[Command] = COMMANDS) -> str:
    """The text of ``solver/api/functions.py`` for ``table``."""
    names = sorted(c.function for c in table)
    lines = [
        '"""The library\'s commands: one function per row of the command table.',
        "",
        f"Written from :data:`~solver.api.table.COMMANDS` by ``{SCRIPT}``: do",
        "not edit (``tests/test_commands.py`` fails when this file differs from what the script",
        "writes).  Each function reads its arguments by the parameter catalogue and runs its",
        "row's computation (:func:`~solver.api.call.call`); each is a name of :mod:`solver`.",
        '"""',
        "",
        *_imports(table),
        "__all__ = [",
        *(f'    "{name}",' for name in names),
        "]",
    ]
    for command in table:
        lines += ["", "", *function(command)]
    return "\n".join([*lines, ""])


def homes_block(table: Sequence[Command] = COMMANDS) -> list[str]:
    """The line of ``solver/__init__.py``'s ``_HOMES`` that exports every API function."""
    words = sorted(c.function for c in table)
    chunks, line = [], ""
    for word in words:
        if len(line) + len(word) > 80:
            chunks.append(line)
            line = ""
        line += word + " "
    chunks.append(line.rstrip())
    return ['    "solver.api.functions": (', *(f'        "{c}"' for c in chunks), "    ),"]


def stub_block(table: Sequence[Command] = COMMANDS) -> list[str]:
    """The lines of ``solver/__init__.pyi`` that give each API function its type."""
    return [
        line
        for name in sorted(c.function for c in table)
        for line in ("from solver.api.functions import (", f"    {name} as {name},", ")")
    ] + [""]


def written(name: str, text: str, table: Sequence[Command] = COMMANDS) -> str:
    """File ``name`` (one of :data:`WRITTEN`) as the command table writes it, from ``text``
    (a function for each row that has one)."""
    table = [c for c in table if c.api]
    if name == FUNCTIONS_MODULE:
        return functions_module(table)
    block = homes_block(table) if name == "__init__.py" else stub_block(table)
    return with_block(text, block, name, BEGIN, END)


def stale(package: Path = PACKAGE, table: Sequence[Command] = COMMANDS) -> list[str]:
    """The files under ``package`` that differ from what ``table`` writes."""
    found = []
    for name in WRITTEN:
        path = package / name
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        if written(name, text, table) != text:
            found.append(f"solver/{name}")
    return found
