"""The command line as a user runs it: output formats, and one-line errors with exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

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
        "lose",
    ]
    assert doc["expected_value"]["exact"] == "-45/311"
    assert doc["outcomes"][0]["combinations"] == {"exact": "1560", "float": 1560.0}


@pytest.mark.parametrize("fmt", ["table", "csv", "md"])
def test_bonus_text_formats_name_the_paytable(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["bonus", "--format", fmt, "--paytable", "20:5:1"], capsys)
    assert status == 0 and "20:5:1" in out and "suited_match" in out


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
    assert done.stdout.startswith("# Bonus wager")


def test_start_up_and_commands_that_solve_nothing_load_no_heavy_library() -> None:
    """Not a timing test: which modules ``cbj`` loads, step by step in one fresh process.

    Importing the CLI loads none of matplotlib, reportlab and sympy; ``cbj rules`` (with and
    without a preset) and ``cbj --help`` load neither numpy nor the solver; ``cbj rules``
    imports its own command module and no other, and ``cbj --help`` none. Modules are never
    unloaded, so one missing after a step was loaded by none of the steps before it; each
    step prints what it found, so a failure names the step.
    """
    code = (
        "import sys, contextlib, io\n"
        "def loaded(names):\n"
        "    return sorted(m for m in names if m in sys.modules)\n"
        "import solver.cli as c\n"
        "print('start-up', loaded(('matplotlib', 'reportlab', 'sympy')))\n"
        "modules = sorted({module for module, _, _ in c.COMMANDS.values()})\n"
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
        "rules [] ['solver.cli.rules']",
        "rules --preset vegas-21 [] ['solver.cli.rules']",
    ]


def test_the_command_list_shows_each_command_s_own_help() -> None:
    """``cbj --help`` lists the commands from :data:`solver.cli.COMMANDS` without loading them:
    each line there is the command's docstring, and names the command it loads."""
    context = click.Context(cli)
    assert sorted(COMMANDS) == cli.list_commands(context)
    for name, (_, _, help_line) in COMMANDS.items():
        command = cli.get_command(context, name)
        assert command is not None and command.name == name
        assert command.help == help_line, name
    assert cli.get_command(context, "nosuch") is None


def test_a_cache_hit_loads_neither_numpy_nor_the_solver(tmp_path: Path, games: MemoryCache) -> None:
    # Not a timing test: a repeated `cbj solve` reads the figures it prints, nothing more.
    rules = Rules(decks=1)
    Cache(tmp_path).fetch(GAME, Key(rules), lambda: solve_game(rules, cache=games))
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
