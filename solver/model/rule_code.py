"""The code written from the rule table, where a type checker must read the rules as code.

``Rules``' fields, the API's keyword options and ``solver``'s export of each rule's kind
cannot be made from :data:`~solver.model.rule_table.RULE_TABLE` at run time without losing
their static types (``mypy --strict``, ``solver/__init__.pyi``), so ``python
scripts/rules_code.py`` writes them: ``solver/model/rule_fields.py`` whole, and one marked
block in each of ``solver/__init__.py`` and ``solver/__init__.pyi``.  ``tests/test_rule_table.py``
fails, naming the file and the script, when a committed file differs from what this writes.

>>> print(homes_block(RULE_TABLE)[0].strip())
"solver.model.rule_table": "DealerBonus DealerNatural NaturalBeats",
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from enum import Enum
from fractions import Fraction
from pathlib import Path

from solver.model.paytable import Paytable
from solver.model.rule_table import RULE_TABLE, Rule

#: The package folder, whose files this writes.
PACKAGE = Path(__file__).resolve().parent.parent
#: The script that writes them, as the marks and the stale test name it.
SCRIPT = "python scripts/rules_code.py"
#: The generated module, written whole.
FIELDS_MODULE = "model/rule_fields.py"
#: The files holding one marked block each, and the block's first line.
MARKED = ("__init__.py", "__init__.pyi")
BEGIN = f"# each rule's kind, written from the rule table by `{SCRIPT}`; do not edit"
END = "# end of what scripts/rules_code.py writes"
#: Every file the rule table writes, relative to :data:`PACKAGE`.
WRITTEN = (FIELDS_MODULE, *MARKED)

LINE = 100

#: The kinds an option takes in more forms than a value or its text (a ratio's pair, a
#: paytable's list of pays): the type alias that names them all, and its module.
_LIKE: dict[type, tuple[str, str]] = {
    Fraction: ("RatioLike", "solver.model.checks"),
    Paytable: ("PaytableLike", "solver.model.paytable"),
}


def _kind(rule: Rule) -> str:
    return rule.kind.__name__


def _takes(rule: Rule) -> str:
    """The types a keyword option of ``rule`` takes (a value or its text, or the alias of
    every form it takes)."""
    like = _LIKE.get(rule.kind)
    return like[0] if like is not None else f"{_kind(rule)} | str"


def exported(table: Sequence[Rule]) -> dict[str, tuple[str, ...]]:
    """Each rule's kind that is a closed vocabulary (an enum), by the module it lives in.

    >>> exported(RULE_TABLE)
    {'solver.model.rule_table': ('DealerBonus', 'DealerNatural', 'NaturalBeats')}
    """
    homes: dict[str, list[str]] = {}
    for rule in table:
        if issubclass(rule.kind, Enum) and rule.kind.__name__ not in homes.get(
            rule.kind.__module__, []
        ):
            homes.setdefault(rule.kind.__module__, []).append(rule.kind.__name__)
    return {module: tuple(sorted(names)) for module, names in sorted(homes.items())}


def _sorted_names(names: set[str]) -> list[str]:
    """Names in the order an import lists them: constants, then classes, then the rest."""
    return sorted(names, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n))


def import_lines(module: str, names: set[str]) -> list[str]:
    """``from module import names``, on one line if it fits, else one name a line."""
    listed = _sorted_names(names)
    line = f"from {module} import {', '.join(listed)}"
    if len(line) <= LINE:
        return [line]
    return [f"from {module} import (", *(f"    {name}," for name in listed), ")"]


def _imports(table: Sequence[Rule]) -> list[str]:
    """The imports of the generated module: the standard library's, then the package's."""
    needed: dict[str, set[str]] = {
        "dataclasses": {"dataclass"},
        "typing": {"TypedDict"},
        "solver.model.rule_table": {"RULES_BY_NAME"},
    }
    if any(rule.common for rule in table):
        needed["collections.abc"] = {"Sequence"}
    for rule in table:
        if rule.kind in _LIKE:
            alias, module = _LIKE[rule.kind]
            needed.setdefault(module, set()).add(alias)
        if rule.kind.__module__ != "builtins":
            needed.setdefault(rule.kind.__module__, set()).add(rule.kind.__name__)
        if rule.kind is Fraction:
            needed.setdefault("fractions", set()).add("Fraction")
    ours = sorted(m for m in needed if m.split(".")[0] == "solver")
    standard = sorted(m for m in needed if m not in ours)
    lines = ["from __future__ import annotations", ""]
    for group in (standard, ours):
        for module in group:
            lines += import_lines(module, needed[module])
        lines.append("")
    return lines


def fields_module(table: Sequence[Rule]) -> str:
    """The text of ``solver/model/rule_fields.py`` for ``table``."""
    lines = [
        '"""The rule table as types: one field and one keyword option per rule, in its order.',
        "",
        f"Written from :data:`~solver.model.rule_table.RULE_TABLE` by ``{SCRIPT}``:",
        "do not edit (``tests/test_rule_table.py`` fails when this file differs from what the",
        "script writes).",
        '"""',
        "",
        *_imports(table),
        '__all__ = ["RuleFields", "RuleLists", "RuleValues"]',
        "",
        "",
        "@dataclass(frozen=True, kw_only=True, slots=True)",
        "class RuleFields:",
        '    """Every rule as a field, with its row\'s default (``Rules`` checks them)."""',
        "",
        *(f'    {r.name}: {_kind(r)} = RULES_BY_NAME["{r.name}"].default' for r in table),
        "",
        "",
        "class RuleValues(TypedDict, total=False):",
        '    """Every rule as a keyword option: a value or its text (None: not given); a ratio',
        "    also as its pair ``(p, q)`` and a paytable as its pays ``(S, R, A)`` or by tier",
        "    name (:data:`~solver.model.checks.RatioLike`,",
        '    :data:`~solver.model.paytable.PaytableLike`)."""',
        "",
        *(f"    {r.name}: {_takes(r)} | None" for r in table),
        "",
        "",
        "class RuleLists(TypedDict, total=False):",
        '    """Every rule as a keyword option of ``variants``: several values (a sequence, or',
        "    text separated by commas) of each rule with common values, one of any other (a",
        '    ratio\'s pair is one value among several: ``blackjack_pays=[(3, 2), (6, 5)]``)."""',
        "",
        *(
            f"    {r.name}: Sequence[{_takes(r)}] | str | None"
            if r.common
            else f"    {r.name}: {_takes(r)} | None"
            for r in table
        ),
        "",
    ]
    return "\n".join(lines)


def homes_block(table: Sequence[Rule]) -> list[str]:
    """The lines of ``solver/__init__.py``'s ``_HOMES`` that export each rule's kind."""
    return [f'    "{module}": "{" ".join(names)}",' for module, names in exported(table).items()]


def stub_block(table: Sequence[Rule]) -> list[str]:
    """The lines of ``solver/__init__.pyi`` that give each exported kind its type."""
    return [
        line
        for module, names in exported(table).items()
        for name in names
        for line in (f"from {module} import (", f"    {name} as {name},", ")")
    ] + [""]


def with_block(text: str, block: list[str], where: str, begin: str = BEGIN, end: str = END) -> str:
    """``text`` with the lines between its marks replaced by ``block`` (the marks kept)."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.strip() == begin]
    ends = [i for i, line in enumerate(lines) if line.strip() == end]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise ValueError(f"{where} must hold the marks {begin!r} and {end!r} once, in order")
    return "\n".join([*lines[: starts[0] + 1], *block, *lines[ends[0] :]])


def written(name: str, text: str, table: Sequence[Rule] = RULE_TABLE) -> str:
    """File ``name`` (one of :data:`WRITTEN`) as the rule table writes it, from its ``text``."""
    if name == FIELDS_MODULE:
        return fields_module(table)
    block = homes_block(table) if name == "__init__.py" else stub_block(table)
    return with_block(text, block, name)


def stale(package: Path = PACKAGE, table: Sequence[Rule] = RULE_TABLE) -> list[str]:
    """The files under ``package`` that differ from what ``table`` writes.

    >>> stale()
    []
    """
    found = []
    for name in WRITTEN:
        path = package / name
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        if written(name, text, table) != text:
            found.append(f"solver/{name}")
    return found


def rewrite(names: Sequence[str], write: Callable[[str, str], str], argv: Sequence[str]) -> int:
    """The scripts' one step: rewrite each file of ``names`` (under :data:`PACKAGE`) that
    ``write(name, text)`` makes differ, or with ``--check`` in ``argv`` only name it; 1 if
    any was stale when checking.  A file is written to a temporary name and renamed."""
    check = "--check" in argv
    stale = 0
    for name in names:
        path = PACKAGE / name
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        fresh = write(name, text)
        if fresh == text:
            continue
        stale += 1
        print(f"{'stale' if check else 'wrote'}: solver/{name}", file=sys.stderr)
        if not check:
            temporary = path.with_name(path.name + ".tmp")
            temporary.write_text(fresh, encoding="utf-8")
            os.replace(temporary, path)
    return 1 if check and stale else 0
