"""The code written from the rule table is fresh, and a new row needs nothing else by hand.

``python scripts/rules_code.py`` writes ``Rules``' fields, the API's keyword options and
``solver``'s export of each rule's kind (:mod:`solver.model.rule_code`); everything else
that knows the rules reads the table at run time.  The last test plants a rule in a copy of
the package, sees the stale check name the files to write again, runs the script there,
and finds the rule in every place (``Rules``, ``RuleOptions``, every API function's
keywords, the CLI, the web form, the exports, ``variants`` and the report's sweep) with no
other edit.
"""

from __future__ import annotations

import json
from enum import Enum, StrEnum
from pathlib import Path

import pytest

import solver
from solver.model.rule_code import PACKAGE, WRITTEN, stale, with_block, written
from solver.model.rule_table import RULE_TABLE
from solver.model.rules import Rules
from tests.planting import planted_copy

ROOT = PACKAGE.parent


def test_the_committed_code_is_what_the_rule_table_writes() -> None:
    assert stale() == [], "stale: run python scripts/rules_code.py"


class Planted(StrEnum):
    """A kind for a rule planted beside the table's own."""

    NO = "no"
    YES = "yes"


def test_a_new_row_makes_every_written_file_stale_by_name() -> None:
    planted = RULE_TABLE[-1]._replace(name="planted", kind=Planted, default=Planted.NO)
    assert stale(table=(*RULE_TABLE, planted)) == [f"solver/{name}" for name in WRITTEN]
    fields = written("model/rule_fields.py", "", (*RULE_TABLE, planted))
    assert "    planted: Planted = " in fields and "    planted: Planted | str | None" in fields


def test_an_edit_inside_the_marks_is_undone_and_missing_marks_are_named() -> None:
    init = (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    edited = init.replace('"DealerBonus DealerNatural', '"DealerNatural')
    assert edited != init and written("__init__.py", edited) == init
    with pytest.raises(ValueError, match="must hold the marks"):
        with_block("no marks here", [], "__init__.py")


def test_each_rules_closed_vocabulary_is_exported() -> None:
    kinds = [rule.kind for rule in RULE_TABLE if issubclass(rule.kind, Enum)]
    assert [k.__name__ for k in kinds] == ["DealerBonus", "DealerNatural", "NaturalBeats"]
    for kind in kinds:
        assert getattr(solver, kind.__name__) is kind and kind.__name__ in solver.__all__


def test_the_sweep_changes_each_rule_alone_through_its_common_values() -> None:
    from solver.exact.paytable import one_rule_at_a_time

    swept = one_rule_at_a_time(Rules())
    assert swept[0] == Rules()
    expected = {Rules(**{r.name: v}) for r in RULE_TABLE for v in r.common} | {Rules()}
    assert set(swept) == expected and len(swept) == len(expected)


#: A rule planted in the copy: its kind before the row helpers, its row at the table's end.
PLANTED_KIND = '''

class Surrender(StrEnum):
    """Whether the player may give up half the main wager (a rule planted by a test)."""

    NONE = "none"
    LATE = "late"
'''
PLANTED_ROW = """    _choice_rule(
        "surrender",
        Surrender,
        {Surrender.NONE: ("none", "none"), Surrender.LATE: ("late", "late")},
        ("surrender ", "surrender "),
        default=Surrender.NONE,
        clause=6,
        source="planted by tests/test_rule_code.py",
        meaning="whether the player may surrender",
        help="Whether the player may surrender half the main wager.",
        label="Surrender",
        common=tuple(Surrender),
    ),
"""

#: Run in the copy: where the planted rule is found, as JSON (each place: True if found).
PROBE = r"""
import inspect, json, sys, typing
from pathlib import Path
from click.testing import CliRunner
import solver
from solver.cli import cli
from solver.api.rules import RuleOptions, VariantOptions
import solver.studies.paytable as paytable
from solver.api.table import COMMANDS
from solver.exact.paytable import one_rule_at_a_time, variant_rules
from solver.model.rule_table import Surrender
from solver.model.rules import Rules, preset_named
from solver.present.fields import rules_fields
from solver.web.form import RULE_FIELDS, read_rules

def takes(command):
    typed = VariantOptions if command.rules == "variants" else RuleOptions
    options = inspect.signature(getattr(solver, command.function)).parameters.get("options")
    return None if options is None else "surrender" in typed.__optional_keys__

run = CliRunner().invoke
found = {"solver imported from": solver.__file__}
found["Rules"] = (
    typing.get_type_hints(Rules)["surrender"] is Surrender
    and Rules().surrender is Surrender.NONE
    and Rules.from_options(surrender="late").surrender is Surrender.LATE
    and Rules.from_canonical(Rules(surrender="late").canonical()) == Rules(surrender="late")
)
keys = RuleOptions.__optional_keys__ & VariantOptions.__optional_keys__
found["RuleOptions"] = "surrender" in keys
api = {c.function: takes(c) for c in COMMANDS if c.api}  # cbj practice has no function
# Every function that takes rule options takes the new one (and most functions take them).
found["API keywords"] = False not in api.values() and list(api.values()).count(True) > 15
found["API call"] = solver.rules(surrender="late").rules.surrender is Surrender.LATE
def helps(command):
    return " ".join(run(cli, [command, "--help"]).output.split())

shown = run(cli, ["rules", "--surrender", "late", "--format", "json"])
found["CLI"] = (
    json.loads(shown.output)["rules"]["surrender"] == "late"
    and all("--surrender" in helps(c) for c in ("solve", "advise", "report", "simulate"))
    and "e.g. none,late" in helps("variants")
)
form = read_rules({"surrender": "late"})
found["web form"] = (
    "surrender" in RULE_FIELDS and form.rules is not None and form.rules.surrender is Surrender.LATE
    and 'name="surrender"' in rules_fields({}, {}, Rules())
)
stub = (Path(solver.__file__).parent / "__init__.pyi").read_text()
found["exports"] = (
    solver.Surrender is Surrender
    and "Surrender" in solver.__all__
    and "Surrender as Surrender" in stub
)
asked = []
paytable.solve_variants = lambda rules, **kw: asked.extend(rules) or ()
solver.variants(surrender="none,late", decks="1,2")
found["variants"] = (
    [(r.decks, r.surrender.value) for r in asked]
    == [(1, "none"), (1, "late"), (2, "none"), (2, "late")]
    and len(variant_rules(Rules(), {"surrender": tuple(Surrender)})) == 2
    and Rules(surrender="late") in one_rule_at_a_time(Rules())
)
found["presets"] = all(
    "surrender" in {r.name for r in preset_named(p).rules} for p in ("casino-edition", "vegas-21")
)
print(json.dumps(found))
"""


@pytest.mark.slow
def test_a_rule_planted_in_a_copy_reaches_every_place_once_the_script_runs(
    tmp_path: Path,
) -> None:
    copy, run = planted_copy(tmp_path, "rules_code.py")
    table = copy / "model" / "rule_table.py"
    text = table.read_text(encoding="utf-8")
    kind_at, row_at = "\n\ndef _same(", "\n)\n\n#: Every rule by name."
    assert text.count(kind_at) == 1 and text.count(row_at) == 1
    text = text.replace(kind_at, PLANTED_KIND + kind_at).replace(
        row_at, "\n" + PLANTED_ROW + ")\n\n#: Every rule by name."
    )
    table.write_text(text, encoding="utf-8")
    checked = run("scripts/rules_code.py", "--check")
    assert checked.returncode == 1
    assert checked.stderr.split() == [w for n in WRITTEN for w in ("stale:", f"solver/{n}")]
    assert run("scripts/rules_code.py").returncode == 0
    assert run("scripts/rules_code.py", "--check").returncode == 0
    probe = run("-c", PROBE)
    assert probe.returncode == 0, probe.stderr
    found = json.loads(probe.stdout)
    assert found.pop("solver imported from") == str(copy / "__init__.py")
    assert found == dict.fromkeys(found, True) and len(found) == 9
    edited = {
        str(path.relative_to(copy))
        for path in copy.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and path.read_bytes() != (PACKAGE / path.relative_to(copy)).read_bytes()
    }
    assert edited == {"model/rule_table.py", *WRITTEN}
