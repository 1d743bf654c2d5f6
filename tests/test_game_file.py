"""A game file (``--game FILE``) gives the same rules as the options it holds, and a bad or
hostile one is refused with one line naming the file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.api.game_file import MAX_GAME_BYTES, read_game
from solver.model.errors import RulesError
from solver.model.rules import PRESETS, RULE_TABLE, Rules


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
