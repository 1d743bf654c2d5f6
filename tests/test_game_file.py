"""A game file (``--game FILE``) gives the same rules as the options it holds, and a bad or
hostile one is refused with one line naming the file."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.api.game_file import MAX_GAME_BYTES, read_game, read_game_text
from solver.api.table import COMMANDS, Command
from solver.model.errors import RulesError
from solver.model.rules import PRESETS, RULE_TABLE, Rules

from .conftest import run_cli
from .test_commands import REQUIRED, Reached, _flag


def toml_of(options: dict[str, Any]) -> str:
    """``options`` (as ``Rules.to_json`` writes them) as a TOML document, written by hand
    so that the test does not trust a TOML writer the project does not use."""
    lines, tables = [], []
    for key, value in options.items():
        if isinstance(value, dict):
            tables += [f"[{key}]", *(f"{k} = {json.dumps(v)}" for k, v in value.items())]
        else:
            lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join([*lines, *tables]) + "\n"


@settings(max_examples=25, deadline=None)
@given(
    data=st.fixed_dictionaries(
        {},
        optional={
            rule.name: st.sampled_from([rule.to_json(v) for v in (rule.default, *rule.common)])
            for rule in RULE_TABLE
        },
    ),
    preset=st.sampled_from([None, *map(str, PRESETS)]),
)
def test_a_game_file_gives_the_rules_its_options_give(
    data: dict[str, Any], preset: str | None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    options = data if preset is None else {"preset": preset, **data}
    path = tmp_path_factory.mktemp("game") / "game.toml"
    path.write_text(toml_of(options))
    assert Rules.from_options(**read_game(path)) == Rules.from_options(**options)


def test_the_rules_json_written_as_toml_reads_back_as_the_same_rules(tmp_path: Path) -> None:
    rules = Rules.from_preset("vegas-21", decks=2)
    path = tmp_path / "vegas.toml"
    path.write_text(toml_of(rules.to_json()))
    assert Rules.from_options(**read_game(path)) == rules
    assert read_game_text(path.read_text(), "vegas.toml") == read_game(path)  # an import's


@settings(max_examples=25, deadline=None)
@given(
    preset=st.sampled_from(list(PRESETS)),
    decks=st.integers(1, 8),
    stands=st.sampled_from([17, 18]),
)
def test_the_rules_json_as_a_json_file_reads_back_as_the_same_rules(
    preset: str, decks: int, stands: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A ``.json`` game file is read as JSON: ``Rules.to_json()`` written out (what the
    workbench's saved games export) gives the same rules, and the same text read from a
    string (an import in the workbench) gives the same options."""
    rules = Rules.from_preset(preset, decks=decks, dealer_stands_on=stands)
    text = json.dumps(rules.to_json())
    path = tmp_path_factory.mktemp("game") / "saved.json"
    path.write_text(text)
    assert Rules.from_options(**read_game(path)) == rules
    assert read_game_text(text, "saved.json") == read_game(path)


def test_a_json_game_file_takes_the_keys_a_toml_one_takes(tmp_path: Path) -> None:
    toml, same = tmp_path / "g.toml", tmp_path / "g.JSON"
    toml.write_text('preset = "vegas-21"\n' + GAME)
    same.write_text(json.dumps(read_game(toml)))
    assert read_game(same) == read_game(toml) and read_game(same)["preset"] == "vegas-21"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"decks": "many"}', "decks 'many' is not a whole number"),
        ('{"decks": 2.0}', "decks must be an int"),
        ('{"decks": true}', "decks must be an int"),
        ('{"decks": NaN}', "NaN is not a JSON number"),
        ('{"decks": 9}', "use 1 to 8"),
        ('{"decks": 2, "colour": 1}', "unknown key colour"),
        ('{"decks": 2, "exact": true}', "unknown key exact"),
        ('{"decks": 2,}', "is not JSON"),
        ("decks = 2\n", "is not JSON"),
        ('[{"decks": 2}]', "holds a list, not an object of rules"),
        ('"decks"', "holds a string, not an object of rules"),
        ("null", "holds a single value, not an object of rules"),
        ('{"a": ' + "[" * 100000 + "]" * 100000 + "}", "is over"),
        ('{"a": ' + "[" * 20000 + "]" * 20000 + "}", "nests its values too deeply"),
        ('{"paytable": {"suited_match": "x"}}', "suited_match pay 'x' is not a number"),
    ],
)
def test_a_bad_json_game_file_is_one_line_naming_the_file(
    tmp_path: Path, text: str, says: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    for by_text in (False, True):
        with pytest.raises(RulesError) as caught:
            read_game_text(text, str(path)) if by_text else read_game(path)
        message = str(caught.value)
        assert "\n" not in message and len(message) <= 300
        assert f"game file {path}" in message and says in message


def test_dashes_and_underscores_name_the_same_rule(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    path.write_text("dealer-stands-on = 17\n")
    assert read_game(path) == {"dealer_stands_on": 17}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('decks = "many"\n', "decks 'many' is not a whole number"),
        ("decks = [1, 2]\n", "decks must be an int"),
        ("decks = 1979-05-27\n", "decks must be an int"),
        ("decks = 9\n", "use 1 to 8"),
        ("decks = 2\ncolour = 1\n", "unknown key colour"),
        ("decks =\n", "is not TOML"),
        ("a = " + "[" * 3000 + "]" * 3000 + "\n", "nests its values too deeply"),
        ('preset = "atlantic"\n', "preset 'atlantic' is unknown"),
    ],
)
def test_a_bad_game_file_is_one_line_naming_the_file(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RulesError) as caught:
        read_game(path)
    message = str(caught.value)
    assert "\n" not in message and len(message) <= 300
    assert f"game file {path}" in message and says in message


def test_a_huge_a_binary_a_missing_and_a_fifo_game_file_are_refused(tmp_path: Path) -> None:
    huge = tmp_path / "huge.toml"
    huge.write_text("#" * (10 * 1024 * 1024))
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)  # no writer: reading must not wait for one
    for path, says in [
        (huge, f"is over {MAX_GAME_BYTES:,} bytes"),
        (binary, "is not UTF-8 text"),
        (tmp_path / "none.toml", "no such file"),
        (fifo, "is not a regular file"),
    ]:
        with pytest.raises(RulesError, match=says):
            read_game(path)


# --- Every command: --game FILE is the options it holds -----------------------------------

#: A game unlike the default in every kind of rule: a number, a ratio, the paytable, a choice.
GAME = """\
decks = 2
bonus_ratio = "1"
dealer_stands_on = 17
dealer_natural = "bonus_card"

[paytable]
suited_match = 20
rank_match = 5
adjacent = 1
"""
#: The same game as the options typed on the command line.
TYPED = [
    "--decks=2",
    "--bonus-ratio=1",
    "--dealer-stands-on=17",
    "--dealer-natural=bonus-card",
    "--paytable=20:5:1",
]
#: Every command that takes the rules (a terminal session and the server read them the same
#: way but run until stopped).
RULED = [c for c in COMMANDS if c.cli and c.rules and c.name not in ("practice", "serve")]


def _reached(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every computation and writer stubbed: it raises :class:`Reached` with all it was given,
    the rules included."""

    def reached(*args: Any, **kwargs: Any) -> Any:
        given = {"args": args, **kwargs}
        raise Reached({k: re.sub(" at 0x[0-9a-f]+", "", repr(v)) for k, v in given.items()})

    for command in COMMANDS:
        for reference in (command.compute, command.write):
            if reference:
                module, _, name = reference.partition(":")
                monkeypatch.setattr(f"{module}.{name}", reached)


def _given(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    try:
        status, _, err = run_cli(argv, capsys)
    except Reached as reached:
        return reached.given
    raise AssertionError(f"{argv} was not reached: exit {status}, {err}")


@pytest.mark.parametrize("command", RULED, ids=[c.name for c in RULED])
def test_every_command_reads_a_game_file_as_the_options_it_holds(
    command: Command,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _reached(monkeypatch)
    game = tmp_path / "game.toml"
    game.write_text(GAME)
    needed = {p.name: REQUIRED[p.name] for p in command.params if p.required}
    needed |= {k: REQUIRED[k] for k in command.required}
    argv = [*command.name.split(), *(f"{_flag(command, k)}={v}" for k, v in needed.items())]
    typed = [t for t in TYPED if command.rules != "but-paytable" or "paytable" not in t]
    by_file = _given([*argv, f"--game={game}"], capsys)
    assert by_file == _given([*argv, *typed], capsys)
    assert by_file != _given(argv, capsys)  # the file did change the rules


def test_an_option_typed_beside_the_game_file_overrides_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _reached(monkeypatch)
    game = tmp_path / "game.toml"
    game.write_text(GAME)
    assert _given(["solve", f"--game={game}", "--decks=6"], capsys) == _given(
        ["solve", *TYPED[1:]], capsys
    )


@pytest.mark.parametrize("text", ["decks = 9\n", "colour = 1\n", "decks =\n"])
def test_a_bad_game_file_is_one_line_and_exit_2(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "game.toml"
    game.write_text(text)
    status, out, err = run_cli(["solve", f"--game={game}"], capsys)
    assert (status, out, err.count("\n")) == (2, "", 1) and "game file" in err
    status, out, err = run_cli(["rules", "--game", str(tmp_path)], capsys)  # a folder
    assert (status, out, err.count("\n")) == (2, "", 1) and "not a regular file" in err


def test_the_docs_game_in_toml_and_in_json_are_the_same_game(tmp_path: Path) -> None:
    """docs/rules.md's two examples of a game file read as one game."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text()
    section = doc.split("## A game in a file", 1)[1].split("\n## ", 1)[0]
    games = {}
    for kind in ("toml", "json"):
        path = tmp_path / f"two-decks.{kind}"
        path.write_text(section.split(f"```{kind}\n", 1)[1].split("```", 1)[0])
        games[kind] = Rules.from_options(**read_game(path))
    two_decks = Rules.from_options(decks=2, dealer_stands_on=17, paytable="20:4:1")
    assert games["toml"] == games["json"] == two_decks
