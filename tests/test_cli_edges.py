"""The edges a user touches at the command line: help, Ctrl-C, files, the cache, cards."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest

import solver.api.functions
from solver.cli import cli, quiet_resource_tracker
from solver.store.disk import Cache

from .conftest import run_cli
from .test_fuzz import commands

ONE_DECK = ["--decks", "1"]


def test_bare_cbj_prints_multi_line_help_and_succeeds(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli([], capsys)
    assert status == 0 and err == ""
    assert out.startswith("Usage: cbj") and "Commands:" in out and out.count("\n") > 10


def test_bare_paytable_and_cache_print_their_help(capsys: pytest.CaptureFixture[str]) -> None:
    for group in ("paytable", "cache"):
        status, out, _ = run_cli([group], capsys)
        assert status == 0 and out.startswith(f"Usage: cbj {group}") and "Commands:" in out


def test_ctrl_c_exits_130_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupt(**_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(solver.api.functions, "bonus", interrupt)
    status, out, err = run_cli(["bonus"], capsys)
    assert status == 130 and out == ""
    # click ends the terminal's ^C line with a newline of its own before our one line.
    assert err.strip() == "cbj: interrupted"


def test_an_interrupted_chart_leaves_no_partial_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "chart.md"
    target.write_text("the old chart")

    def interrupt(*_: object, **__: object) -> bytes:
        raise KeyboardInterrupt

    monkeypatch.setattr("solver.present.charts.render", interrupt)
    status, _, _ = run_cli(["chart", *ONE_DECK, "-o", str(target)], capsys)
    assert status == 130
    assert target.read_text() == "the old chart"
    assert [p.name for p in tmp_path.iterdir()] == ["chart.md"]


# ``cbj chart -o x.pdf``: tests/test_chart.py, where the PDF it writes is compared with the
# module's drawing of the same chart (one PDF drawing for both checks).


def test_chart_into_a_missing_folder_fails_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    start = time.perf_counter()
    status, out, err = run_cli(["chart", "-o", "/missing/dir/x.md"], capsys)
    assert time.perf_counter() - start < 1
    assert status == 2 and out == "" and err.count("\n") == 1 and "does not exist" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["chart", "-o", "x.pdf", "--format", "md"], "contradicts"),
        (["chart", "-o", "x.txt"], "give --format"),
        (["report", "-o", "r.docx"], "give --format"),
        (["report", "-o", "r.pdf", "--format", "html"], "contradicts"),
        (["report", "-o", "r.pdf", "--shoe-samples", "1"], "samples 1 is out of range"),
        (["report", "-o", "r.pdf", "--counter-rounds", "0"], "counter rounds 0 is out of range"),
        (["tables", "--output-dir", ""], "empty"),
    ],
)
def test_output_mistakes_are_one_line_before_any_work(
    argv: list[str],
    words: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    start = time.perf_counter()
    status, _, err = run_cli(argv, capsys)
    assert time.perf_counter() - start < 1
    assert status == 2 and err.count("\n") == 1 and words in err
    assert list(tmp_path.iterdir()) == []


def test_tables_refuses_a_folder_of_other_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "README.md").write_text("my project")
    for folder in (".", str(tmp_path)):
        status, _, err = run_cli(["tables", "--output-dir", folder], capsys)
        assert status == 2 and "not a collection" in err
    assert (tmp_path / "README.md").read_text() == "my project"


def test_every_command_that_solves_has_no_cache() -> None:
    solving = {"solve", "chart", "tables", "simulate", "search", "variants", "report"}
    found = {path[-1] for path, _ in commands(cli)} | {"tables", "report"}
    context = click.Context(cli)
    paytable = cli.get_command(context, "paytable")
    assert isinstance(paytable, click.Group)
    for name in solving & found:
        command = cli.get_command(context, name) or paytable.get_command(context, name)
        assert command is not None and any(p.name == "no_cache" for p in command.params), name


def test_cache_info_and_clear(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CBJ_CACHE_DIR", str(tmp_path / "c"))
    run_cli(["solve", *ONE_DECK], capsys)  # keeps the game and its volatility
    status, out, _ = run_cli(["cache", "info", "--format", "json"], capsys)
    assert status == 0 and '"entries": 2' in out and str(tmp_path / "c") in out
    status, _, err = run_cli(["cache", "clear"], capsys)
    assert status == 0 and "removed 2" in err
    status, out, _ = run_cli(["cache", "info", "--format", "json"], capsys)
    assert '"entries": 0' in out
    run_cli(["solve", *ONE_DECK, "--no-cache"], capsys)
    assert '"entries": 0' in run_cli(["cache", "info", "--format", "json"], capsys)[1]


def test_an_unusable_cache_folder_warns_once_and_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("CBJ_CACHE_DIR", str(tmp_path / "file"))
    status, out, err = run_cli(["solve", *ONE_DECK], capsys)
    assert status == 0 and out
    assert err.count("\n") == 1 and err.startswith("cbj: warning: cache not used")


@pytest.mark.parametrize(
    "argv",
    [
        ["bonus", "--removed", "\u212ad"],
        ["dealer", "--bonus", "\u212a"],
        ["advise", "--bonus", "7", "--hand", "\u212a 4"],
        ["advise", "--bonus", "\u212a", "--hand", "9 4", "--seen", "\u212as"],
    ],
)
def test_the_kelvin_sign_reads_as_a_king(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli([*argv, *ONE_DECK], capsys)
    plain = run_cli([a.replace("\u212a", "K") for a in argv] + ONE_DECK, capsys)
    assert (status, out, err) == plain and status == 0


@pytest.mark.parametrize("fmt", ["csv", "md"])
def test_exact_solves_show_fractions_in_csv_and_markdown(
    fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(["solve", *ONE_DECK, "--exact", "--format", fmt], capsys)
    # The library reads the game the command left in the session's disk cache.
    exact = solver.api.functions.solve(decks=1, exact=True, cache=Cache())
    assert status == 0 and "exact" in out
    assert str(exact.expected_value) in out and str(exact.outcomes["blackjack"]) in out
    status, out, _ = run_cli(["solve", *ONE_DECK, "--format", fmt], capsys)
    assert str(exact.expected_value) not in out


def test_exact_advice_shows_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["advise", "--bonus", "7", "--hand", "9 4", *ONE_DECK]
    advice = solver.api.functions.advise(bonus="7", hand="9 4", decks=1, exact=True)
    assert str(advice.stand) in run_cli([*argv, "--exact"], capsys)[1]
    assert str(advice.stand) not in run_cli(argv, capsys)[1]


def test_the_solve_screen_says_who_holds_the_edge(capsys: pytest.CaptureFixture[str]) -> None:
    game = solver.api.functions.solve(decks=1, cache=Cache())
    out = run_cli(["solve", *ONE_DECK], capsys)[1]
    side = "player" if game.expected_value > 0 else "house"
    assert f"The {side} holds the edge on the main wager" in out
    assert "with_bonus" not in out.split("\n", 3)[1]  # plain words before the rules line


def test_exact_variants_show_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    exact = solver.api.functions.solve(decks=1, exact=True, cache=Cache()).expected_value
    out = run_cli(["variants", "--decks", "1", "--exact", "--format", "csv"], capsys)[1]
    assert "exact" in out.splitlines()[0] and str(exact) in out
    assert str(exact) not in run_cli(["variants", "--decks", "1", "--format", "csv"], capsys)[1]


@pytest.mark.parametrize("ratios", ["101", "1/2,1000", "100.5"])
def test_bonus_ratios_above_the_maximum_of_100_are_refused(
    ratios: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["strategies", *ONE_DECK, "--bonus-ratios", ratios], capsys)
    assert status == 2 and out == "" and "above 100" in err and err.count("\n") == 1


def test_a_bonus_ratio_of_exactly_100_is_accepted() -> None:
    from solver.exact.volatility import check_ratio

    assert check_ratio("100") == 100


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", *ONE_DECK, "--rounds", "\u0661\u0660"],  # Arabic-Indic 10
        ["simulate", *ONE_DECK, "--rounds", "10", "--seed", "\uff11"],  # fullwidth 1
        ["solve", *ONE_DECK, "--jobs", "\u0662"],
        ["paytable", "search", "--top", "\u0661"],
        ["count", *ONE_DECK, "--tags", "A=-\u0661,2=1,3=1,4=1,5=1,6=1,7=0,8=0,9=0,T=-1"],
        ["variants", "--decks", "\u0662"],
    ],
    ids=["rounds", "seed", "jobs", "top", "tags", "variants"],
)
def test_unicode_digits_are_refused_where_ascii_digits_are_documented(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(argv, capsys)
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("cbj: error: ")


#: A process that registers a folder with joblib's resource tracker and ends without
#: unregistering it, as an interrupted worker pool does.
LEAK = """
import os, sys, tempfile
from joblib.externals.loky.backend import resource_tracker
folder = tempfile.mkdtemp(dir=sys.argv[1])
resource_tracker.register(folder, "folder")
os._exit(0)
"""


@pytest.mark.parametrize("quiet", [False, True])
def test_the_resource_tracker_cleans_up_after_an_interruption_without_a_warning(
    quiet: bool, tmp_path: Path
) -> None:
    """The unquieted run is the control: the same leak warns there, so the test can fail."""
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    if quiet:
        quiet_resource_tracker(environ)
    # The tracker's stderr is this pipe too: reading it to the end waits for the tracker.
    done = subprocess.run(
        [sys.executable, "-c", LEAK, str(tmp_path)], env=environ, capture_output=True, timeout=60
    )
    assert done.returncode == 0
    assert list(tmp_path.iterdir()) == []  # removed by the tracker either way
    warned = b"leaked folder objects" in done.stderr
    assert warned != quiet, done.stderr.decode()


def test_every_command_quiets_the_resource_tracker_of_its_workers(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONWARNINGS", "default")
    assert run_cli(["rules"], capsys)[0] == 0
    assert os.environ["PYTHONWARNINGS"] == "default,ignore:resource_tracker:UserWarning"
