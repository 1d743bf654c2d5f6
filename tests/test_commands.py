"""The command table: the code written from it is fresh, every surface reads a parameter's
text one way, and a new command needs nothing else by hand.

``python scripts/commands_code.py`` writes each command's typed API function
(:mod:`solver.api.command_code`); the CLI, the workbench's forms, the command guide and
the API's fuzz tests read the table at run time.  The slow test plants a command with two
new parameters in a copy of the package, sees the stale check name the files to write
again, runs the script there, and finds the command in every place with no other edit.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

import solver
from solver.api.call import files_reader, load
from solver.api.command_code import WRITTEN, stale, written
from solver.api.command_doc import PAGES as DOC_PAGES
from solver.api.command_doc import written as doc_written
from solver.api.table import COMMANDS, COMMANDS_BY_NAME, Command
from solver.model import catalogue
from solver.model.catalogue import CATALOGUE
from solver.model.params import Kind, Param
from solver.model.rule_code import PACKAGE
from solver.web.forms import PAGE_FORMS, read_fields
from tests.planting import planted_copy

ROOT = PACKAGE.parent
#: The test files, one a command (``tests/test_<function>.py``).
TESTS = Path(__file__).parent


def test_the_committed_code_is_what_the_command_table_writes() -> None:
    assert stale() == [], "stale: run python scripts/commands_code.py"


@pytest.mark.parametrize("page", DOC_PAGES)
def test_the_docs_blocks_are_what_the_command_table_writes(page: str) -> None:
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    assert doc_written(page, text) == text, "stale: run python scripts/commands_doc.py"
    planted = COMMANDS[1]._replace(name="planted")
    assert "planted" in doc_written(page, text, (*COMMANDS, planted))


def test_a_new_row_makes_every_written_file_stale_by_name() -> None:
    planted = COMMANDS[0]._replace(name="planted")
    assert stale(table=(*COMMANDS, planted)) == [f"solver/{name}" for name in WRITTEN]
    module = written("api/functions.py", "", (*COMMANDS, planted))
    assert "\ndef planted(\n" in module and '"planted"' in module


def test_every_row_is_a_public_function_named_by_its_words() -> None:
    """Every row but a terminal's own (``cbj practice``, played through other rows'
    functions) is a function of :mod:`solver`."""
    assert [c.name for c in COMMANDS if not c.api] == ["practice"]
    assert "practice" not in solver.__all__
    for command in (c for c in COMMANDS if c.api):
        assert command.function in solver.__all__, command.name
        assert getattr(solver, command.function).__module__ == "solver.api.functions"


def _disagreeing_names(command: Command, api_page: str, tests: Path = TESTS) -> list[str]:
    """Where a row's name is not the word its result type, doc anchor and test file use
    (its API function is named from it by :attr:`Command.function`); a terminal's own
    command (``cbj practice``) has no function, result or anchor, but has its tests."""
    words = command.name.replace("-", " ").split()
    stem = "".join(word.capitalize() for word in words)
    result = command.returns.split("[")[0]
    anchor = "{#" + "-".join(words) + "}"
    test_file = f"test_{command.function}.py"
    wrong = []
    if command.api and (result not in (stem, stem + "Result") or not hasattr(solver, result)):
        wrong.append(f"result {result}")
    if command.api and anchor not in api_page:
        wrong.append(f"anchor {anchor}")
    if not (tests / test_file).is_file():
        wrong.append(f"test file tests/{test_file}")
    return wrong


def test_every_command_s_name_agrees_across_function_result_doc_anchor_and_test_file() -> None:
    """``cbj hold`` is ``solver.hold``, gives a ``HoldResult``, is ``api.md#hold`` and is
    tested in ``tests/test_hold.py``."""
    api_page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    disagree = {c.name: w for c in COMMANDS if (w := _disagreeing_names(c, api_page))}
    assert disagree == {}
    planted = COMMANDS[1]._replace(name="planted", returns="Elsewhere")
    assert _disagreeing_names(planted, api_page) == [
        "result Elsewhere",
        "anchor {#planted}",
        "test file tests/test_planted.py",
    ]
    terminal = planted._replace(api=False)  # a terminal's own: only its tests to find
    assert _disagreeing_names(terminal, api_page) == ["test file tests/test_planted.py"]


def test_each_parameter_a_row_names_is_an_entry_of_the_catalogue() -> None:
    """Rows name their parameters from the catalogue (a command's own wording of one is
    the same entry with another help: the same name, kind and reader)."""
    kinds = {(p.name, p.kind, p.parse, p.low, p.high) for p in CATALOGUE}
    for command in COMMANDS:
        for param in command.params:
            assert (param.name, param.kind, param.parse, param.low, param.high) in kinds, (
                command.name,
                param.name,
            )


@pytest.mark.parametrize(
    ("text", "expected"),
    [("12,000", 12_000), ("12_000", 12_000), ("1e4", 10_000), (" 7 ", 7), ("1.5e3", 1500)],
)
def test_a_whole_number_reads_as_people_write_it(text: str, expected: int) -> None:
    assert catalogue.SESSION_ROUNDS.read(text) == expected


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("3/4", "rounds '3/4' is not a whole number, e.g. 10,000"),
        ("75%", "rounds '75%' is not a whole number, e.g. 10,000"),
        ("1,5", "rounds '1,5' is not a whole number, e.g. 10,000"),
        ("0", "rounds 0 is out of range: use 1 to 100,000"),
        ("1e6", "rounds 1e6 is out of range: use 1 to 100,000"),
        ("\u0661\u0662", "rounds '\u0661\u0662' is not a whole number, e.g. 10,000"),
    ],
)
def test_a_bad_whole_number_is_refused_with_one_message(text: str, said: str) -> None:
    with pytest.raises(solver.CbjError) as refused:
        catalogue.SESSION_ROUNDS.read(text)
    assert str(refused.value) == said


@pytest.mark.parametrize("text", ["0.75", "3/4", "75%", "7.5e-1"])
def test_a_share_reads_the_same_in_every_form(text: str) -> None:
    assert catalogue.PRACTICE_PENETRATION.read(text) == catalogue.PRACTICE_PENETRATION.read("3/4")


def test_a_wrong_type_names_the_parameter() -> None:
    for param in CATALOGUE:
        if param.kind in (Kind.WHOLE, Kind.NUMBER, Kind.FLAG, Kind.CHOICE, Kind.PATH):
            with pytest.raises(TypeError, match=f"^{param.name} must be "):
                param.read(object())


# --- One text, one reading: the API and the CLI ------------------------------------------------


class Reached(Exception):
    """Raised by a command's computation, stubbed: the arguments it was given."""

    def __init__(self, given: dict[str, Any]) -> None:
        super().__init__("reached")
        self.given = given


#: Texts tried on every number-like parameter: every form a number takes, and some no number.
TEXTS = ("12,000", "1e4", "3/4", "75%", "0.5", "-2", "x", "1,5")
#: Required parameters' values, so that a command gets past them to the one tried.
REQUIRED = {
    "bonus": "7",
    "hand": "9 7",
    "rounds": "100",
    "samples": "4",
    "solve_for": "adjacent",
    "vary": "suited-match",
    "start": "10",
    "stop": "20",
    "output": "-",
}


def _stubbed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every computation and writer stubbed: it raises :class:`Reached` with its arguments."""

    def reached(*args: Any, **kwargs: Any) -> Any:
        if args:  # a writer: (command, values, rules, run)
            kwargs = {**args[1], "run": args[3]}
        run = kwargs.pop("run", None)
        settings = {f.name: getattr(run, f.name) for f in fields(run)} if run else {}
        raise Reached({**settings, **{k: v for k, v in kwargs.items() if k != "rules"}})

    for command in COMMANDS:
        for reference in (command.compute, command.write):
            if reference:
                module, _, name = reference.partition(":")
                monkeypatch.setattr(f"{module}.{name}", reached)


def _outcome(call: Any) -> tuple[str, Any]:
    try:
        call()
    except Reached as reached:
        return "read", reached.given
    except solver.CbjError as error:
        return "refused", str(error)
    raise AssertionError("the stub was not reached")


def _tried(command: Command) -> list[Param]:
    return [
        p
        for p in command.api_params
        if p.kind in (Kind.WHOLE, Kind.NUMBER, Kind.CHOICE) or (p.kind is Kind.TEXT and p.parse)
    ]


def _flag(command: Command, name: str) -> str:
    """The CLI's option of parameter ``name`` (``--from`` for ``start``)."""
    param = next(p for p in command.params if p.name == name)
    return (param.flag or "--" + name.replace("_", "-")).split("/")[-1]


CASES = [(c, p.name) for c in COMMANDS if c.cli and c.api and c.name != "chart" for p in _tried(c)]


@pytest.mark.parametrize(("command", "name"), CASES, ids=[f"{c.name}:{n}" for c, n in CASES])
def test_the_cli_and_the_api_read_a_text_alike(
    command: Command, name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cbj hold --rounds 12,000`` is ``solver.hold(rounds="12,000")``: the same value
    reaches the computation, or both refuse the text with one message."""
    from tests.conftest import run_cli

    _stubbed(monkeypatch)
    flag = _flag(command, name)
    needed = {p.name: REQUIRED[p.name] for p in command.params if p.required and p.name != name}
    function = getattr(solver, command.function)
    for text in TEXTS:
        api = _outcome(lambda: function(**needed, **{name: text}))  # noqa: B023
        cli_needed = {**needed, **{k: REQUIRED[k] for k in command.required}}
        words = command.name.split()
        argv = [*words, *(f"{_flag(command, k)}={v}" for k, v in cli_needed.items())]
        try:
            status, _, err = run_cli([*argv, f"{flag}={text}"], capsys)
        except Reached as reached:
            cli: tuple[str, Any] = ("read", reached.given[name])
        else:
            assert status == 2, (text, err)
            cli = ("refused", err.removeprefix("cbj: error: ").rstrip("\n"))
        if api[0] == "read":
            api = ("read", api[1][name])
        assert api == cli, (command.name, name, text)


# --- A planted command ---------------------------------------------------------------------

#: The planted command's two parameters, at the catalogue's end.
PLANTED_PARAMS = """
PLANTED_DECKS = Param("planted_decks", W, "Decks of the planted game.", required=True, low=1,
                      high=8, example="2", label="Planted decks")
PLANTED_NOTE = Param("planted_note", T, "A note the planted command keeps.", default="",
                     label="Planted note")
"""
#: Its row, at the table's end.
PLANTED_ROW = """    Command("planted", "A command planted by a test: the rules with other decks.",
            (P.PLANTED_DECKS, P.PLANTED_NOTE, P.FORMAT), "solver.studies.planted:planted",
            "RulesResult", tables="solver.present.presets:rules_tables", cli_only=("format",)),
"""
#: Its compute function, a module of its own.
PLANTED_COMPUTE = '''"""A command planted by a test."""

from dataclasses import replace

from solver.model.rules import Rules
from solver.results.rules import RulesResult


def planted(*, rules: Rules, planted_decks: int, planted_note: str) -> RulesResult:
    """The rules with ``planted_decks`` decks (a command planted by a test)."""
    return RulesResult(replace(rules, decks=planted_decks))
'''
#: Run in the copy: where the planted command is found, as JSON (each place: True if found).
PROBE = r"""
import json, sys
from click.testing import CliRunner
import solver
from solver.cli import cli
from solver.api.table import COMMANDS_BY_NAME
found = {"solver imported from": solver.__file__}
found["API"] = solver.planted(planted_decks="2", decks=6).rules.decks == 2
run = CliRunner().invoke
listed = run(cli, ["--help"]).output
helped = run(cli, ["planted", "--help"]).output
shown = run(cli, ["planted", "--planted-decks", "3", "--format", "json"])
found["CLI"] = (
    "planted" in listed and "--planted-decks" in helped and "--planted-note" in helped
    and json.loads(shown.output)["rules"]["decks"] == 3
)
refused = run(cli, ["planted", "--planted-decks", "9"])
found["CLI refuses"] = "planted decks 9 is out of range: use 1 to 8" in str(refused.exception)
from solver.api.command_doc import api_signatures, guide_table
found["command guide"] = "`cbj planted`" in guide_table() and "### planted" in api_signatures()
from solver.web.forms import PageForm, fields_html
form = PageForm("/planted", ("planted",), ("planted_decks", "planted_note"), {})
built = fields_html(form, {}, {}, form.fields)
found["form builder"] = 'name="planted_decks"' in built and "Planted decks" in built
sys.path.insert(0, ".")
import tests.test_api_fuzz as fuzz
found["fuzz tests"] = "planted" in fuzz.FUNCTIONS
print(json.dumps(found))
"""


@pytest.mark.slow
def test_a_command_planted_in_a_copy_reaches_every_place_once_the_script_runs(
    tmp_path: Path,
) -> None:
    copy, run = planted_copy(tmp_path, "commands_code.py")
    shutil.copytree(
        ROOT / "tests", tmp_path / "tests", ignore=shutil.ignore_patterns("__pycache__")
    )
    catalogue_file = copy / "model" / "catalogue.py"
    text = catalogue_file.read_text(encoding="utf-8")
    at = "# fmt: on\n\n#: Every entry, in the order above."
    assert text.count(at) == 1
    catalogue_file.write_text(
        text.replace(at, "# fmt: off" + PLANTED_PARAMS + at), encoding="utf-8"
    )
    table = copy / "api" / "table.py"
    text = table.read_text(encoding="utf-8")
    end = "\n)\n# fmt: on\n\n#: Every command by its words."
    assert text.count(end) == 1
    table.write_text(text.replace(end, "\n" + PLANTED_ROW.rstrip("\n") + end), encoding="utf-8")
    (copy / "studies" / "planted.py").write_text(PLANTED_COMPUTE, encoding="utf-8")
    checked = run("scripts/commands_code.py", "--check")
    assert checked.returncode == 1, checked.stderr
    assert checked.stderr.split() == [w for n in WRITTEN for w in ("stale:", f"solver/{n}")]
    assert run("scripts/commands_code.py").returncode == 0
    assert run("scripts/commands_code.py", "--check").returncode == 0
    probe = run("-c", PROBE)
    assert probe.returncode == 0, probe.stderr
    found = json.loads(probe.stdout)
    assert found.pop("solver imported from") == str(copy / "__init__.py")
    assert found == dict.fromkeys(found, True) and len(found) == 6
    edited = {
        str(path.relative_to(copy))
        for path in copy.rglob("*.py")
        if "__pycache__" not in path.parts
        and (
            not (PACKAGE / path.relative_to(copy)).exists()
            or path.read_bytes() != (PACKAGE / path.relative_to(copy)).read_bytes()
        )
    }
    assert edited == {"model/catalogue.py", "api/table.py", "studies/planted.py", *WRITTEN} - {
        "__init__.pyi"
    }


# --- ... and the workbench ---------------------------------------------------------------------

WEB = [
    (path, name)
    for path, form in sorted(PAGE_FORMS.items())
    for name in form.fields
    # a chart file is sent as its text, read as cbj chart --check reads one; the history is
    # the JSON the page keeps, read by solver.results.practice_history (tests/test_web_pages.py)
    if name not in ("chart", "history")
]


@pytest.mark.parametrize(("path", "name"), WEB, ids=[f"{p}:{n}" for p, n in WEB])
def test_the_workbench_reads_a_text_as_the_api_does(
    path: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A field of a page (12,000 rounds on the Hold page) is read as the API reads the same
    text (``solver.hold(rounds="12,000")``, itself as ``cbj hold --rounds 12,000``): the
    same value, or the same message beside the field."""
    _stubbed(monkeypatch)
    form = PAGE_FORMS[path]
    param = form.param(name)
    command = next(
        COMMANDS_BY_NAME[c] for c in form.commands if param in COMMANDS_BY_NAME[c].api_params
    )
    needed = {p.name: REQUIRED[p.name] for p in command.params if p.required and p != param}
    function = getattr(solver, command.function)
    for text in (*TEXTS, "stand-on:17", "fft", "pdf", "1%:2%", "rank-match"):
        api = _outcome(lambda: function(**needed, **{param.name: text}))  # noqa: B023
        values, errors = read_fields(form, {name: text}, names=(name,))
        if api[0] == "refused":
            assert errors == {name: api[1]}, (path, name, text)
            continue
        read = values[param.name]  # and a file it names read as the API reads it
        shown = load(files_reader(param))(read) if files_reader(param) else read
        assert errors == {} and shown == api[1][param.name], (path, name, text)
