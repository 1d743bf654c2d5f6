"""The command line as a user runs it: output formats, and one-line errors with exit 2."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest

import solver
from solver.cli import COMMANDS, cli
from solver.exact.game import solve_game
from solver.model.rules import Rules
from solver.results.game import GAME
from solver.results.kinds import Key
from solver.store.disk import Cache
from solver.store.memory import MemoryCache

from .conftest import run_cli


def test_bonus_json_carries_exact_numbers_and_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["bonus", "--format", "json"], capsys)
    assert status == 0
    doc = json.loads(out)
    assert doc["rules"]["decks"] == 6 and doc["paytable"]["suited_match"] == "15"
    assert [o["outcome"] for o in doc["outcomes"]] == [
        "suited_match",
        "rank_match",
        "adjacent",
        "loss",
    ]
    assert doc["expected_value"]["exact"] == "-45/311"
    assert doc["outcomes"][0]["combinations"] == {"exact": "1560", "float": 1560.0}


@pytest.mark.parametrize("fmt", ["table", "csv", "md"])
def test_bonus_text_formats_name_the_paytable(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["bonus", "--format", fmt, "--paytable", "20:5:1"], capsys)
    assert status == 0 and "20:5:1" in out and "suited match" in out and "_" not in out


def test_rules_command_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["rules", "--format", "json", "--decks", "2"], capsys)
    assert status == 0 and json.loads(out)["rules"]["decks"] == 2


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["bonus", "--paytable", "15:4"], "15:4"),
        (["bonus", "--paytable", "-15:4:1"], "negative"),
        (["bonus", "--decks", "0"], "decks 0"),
        (["bonus", "--removed", "Zq"], "Zq"),
        (["bonus", "--bonus-ratio", "1/3"], "1/3"),
        (["bonus", "--decks", "many"], "many"),
        (["bonus", "--removed", "As As", "--decks", "1"], "As"),
        (["bonus", "--format", "xml"], "xml"),
    ],
)
def test_bad_input_is_one_line_on_stderr_with_status_2(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(argv, capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and named in err and "Traceback" not in err


def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "solver", "bonus", "--format", "csv"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.startswith("table,outcome,pays,combinations")


def test_start_up_and_commands_that_solve_nothing_load_no_heavy_library() -> None:
    """Not a timing test: which modules ``cbj`` loads, step by step in one fresh process.

    Importing the CLI loads none of matplotlib, reportlab and sympy; ``cbj rules`` (with and
    without a preset) and ``cbj --help`` load neither numpy nor the solver; ``cbj rules``
    builds its command and imports its own compute module and no other, and ``cbj --help``
    neither. Modules are never
    unloaded, so one missing after a step was loaded by none of the steps before it; each
    step prints what it found, so a failure names the step.
    """
    code = (
        "import sys, contextlib, io\n"
        "def loaded(names):\n"
        "    return sorted(m for m in names if m in sys.modules)\n"
        "import solver.cli as c\n"
        "print('start-up', loaded(('matplotlib', 'reportlab', 'sympy')))\n"
        "from solver.api.table import COMMANDS as table\n"
        "computes = {r.compute.split(':')[0] for r in table if r.compute}\n"
        "modules = sorted({'solver.cli.commands', *computes})\n"
        "heavy = ('numpy', 'solver.exact.game', 'solver.sim', 'statistics', 'csv', 'json')\n"
        "for argv in (['--help'], ['rules'], ['rules', '--preset', 'vegas-21']):\n"
        "    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "        c.main(argv)\n"
        "    print(' '.join(argv), loaded(heavy), loaded(modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [
        "start-up []",
        "--help [] []",
        "rules [] ['solver.cli.commands', 'solver.studies.rules']",
        "rules --preset vegas-21 [] ['solver.cli.commands', 'solver.studies.rules']",
    ]


def test_the_command_list_shows_each_command_s_own_help() -> None:
    """``cbj --help`` lists the commands from :data:`solver.cli.COMMANDS` without building
    them: each line there is the help of the command built from its row."""
    context = click.Context(cli)
    assert sorted(COMMANDS) == cli.list_commands(context)
    for name, help_line in COMMANDS.items():
        command = cli.get_command(context, name)
        assert command is not None and command.name == name
        assert command.help == help_line, name
    assert cli.get_command(context, "nosuch") is None


def test_a_cache_hit_loads_neither_numpy_nor_the_solver(tmp_path: Path, games: MemoryCache) -> None:
    # Not a timing test: a repeated `cbj solve` reads the figures it prints, nothing more
    # (the game and its volatility, both kept by the first solve).
    rules = Rules(decks=1)
    Cache(tmp_path).fetch(GAME, Key(rules), lambda: solve_game(rules, cache=games))
    # As a first `cbj solve` does, read the volatility: that keeps it beside the game.
    assert solver.solve(rules=rules, cache=Cache(tmp_path)).volatility is not None
    code = (
        "import sys, contextlib, io\n"
        "from solver.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['solve', '--decks', '1'])\n"
        "heavy = ('numpy', 'solver.exact.player', 'solver.exact.dealer', 'importlib.metadata')\n"
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, CBJ_CACHE_DIR=str(tmp_path)),
    )
    assert done.stdout.strip() == "[]" and done.stderr == ""


def test_the_command_list_gives_each_description_whole(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``cbj --help`` wraps a long description, never cuts it short."""
    status, out, _ = run_cli(["--help"], capsys)
    listed = " ".join(out.split("Commands:", 1)[1].split())
    assert status == 0 and "..." not in listed and "\u2026" not in listed
    for name, help_line in COMMANDS.items():
        assert f"{name} {help_line}" in listed, name


def test_defaults_are_shown_as_values(capsys: pytest.CaptureFixture[str]) -> None:
    for name in COMMANDS:
        out = run_cli([name, "--help"], capsys)[1]
        assert "[default: (" not in " ".join(out.split()), name
    shown = " ".join(run_cli(["solve", "--help"], capsys)[1].split())
    assert "[default: 6]" in shown and "[default: casino-edition]" in shown
    assert "[default: with-bonus]" in shown and "[default: 3:2]" in shown


@pytest.mark.parametrize(
    ("argv", "suggested"),
    [
        (["sovle"], "Did you mean 'solve'?"),
        (["varients"], "Did you mean 'variants'?"),
        (["paytable", "serach"], "Did you mean 'search'?"),
        (["solve", "--deks", "2"], "Did you mean '--decks'?"),
        (["xyzzy"], "'cbj --help' lists the commands."),
    ],
)
def test_a_mistyped_command_or_option_names_the_closest(
    argv: list[str], suggested: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(argv, capsys)
    assert status == 2 and out == "" and err.count("\n") == 1 and suggested in err


@pytest.mark.parametrize("hand", [["9 7"], ["9,7"], ["9", "7"], ["97"], ["9,", "7"]])
def test_a_hand_is_taken_as_people_type_it(
    hand: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["advise", "--decks", "1", "--bonus", "10", "--format", "json", "--hand", *hand]
    status, out, err = run_cli(argv, capsys)
    assert status == 0, err
    assert json.loads(out)["hand"] == ["9", "7"]


@pytest.mark.parametrize("command", ["advise", "graph"])
def test_a_stray_word_after_the_hand_says_how_to_write_one(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [command, "--bonus", "10", "--hand", "9", "seven", "-o", "-"][
        : 6 + 2 * (command == "graph")
    ]
    status, out, err = run_cli(argv, capsys)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "'seven'" in err and "--hand '9 7'" in err and "--hand 97" in err


@pytest.mark.parametrize("hand", [["9", "3"], ["93"], ["9,3"]])
def test_the_graph_takes_a_hand_as_advise_does(
    hand: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The same graph as the quoted hand's, and a smaller one than every hand's."""
    drawn = {}
    for name, given in (("typed", hand), ("quoted", ["9 3"]), ("every", [])):
        argv = ["graph", "--decks", "1", "--bonus", "K", "-o", "-"]
        status, out, err = run_cli(argv + (["--hand", *given] if given else []), capsys)
        assert status == 0, err
        drawn[name] = out
    assert drawn["typed"] == drawn["quoted"] and len(drawn["quoted"]) < len(drawn["every"])


def test_the_readme_s_advise_example_is_what_cbj_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("```console\n$ cbj advise ", 1)[1].split("```", 1)[0]
    command, shown = block.split("\n", 1)
    status, out, _ = run_cli(shlex.split(f"advise {command}"), capsys)
    assert status == 0 and out == shown
