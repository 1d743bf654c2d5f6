"""Every command and option fed arbitrary text and numbers: exit 0 or 2, never a traceback.

Commands run in-process through :func:`solver.cli.main`.  Valid numbers are kept tiny
(0, 1, 2), the shoe is a 14-card one unless the example fuzzes ``--removed``, and the heavy
switches (``--exact``, ``--jobs``) are left alone so that an example that happens to be
valid still finishes in moments; ``tables`` and ``report`` (minutes of work when valid)
have their own targeted tests, and ``cache clear`` would only empty the session's cache.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.cli import cli, main
from solver.model.cards import Shoe

from .conftest import physical_cards

SKIPPED_COMMANDS = {"tables", "report", "clear", "serve"}  # serve: runs until stopped
HEAVY_OPTIONS = {"--exact", "--jobs", "--help", "--version"}
#: The cards left in the shoe of a command that takes ``--removed``: one deck cut down to
#: 14 cards holding every rank (so that ``eor`` can remove each) and two kings (so that the
#: Bonus can match). A valid ``eor`` or ``count`` solves a dozen games: 0.4 s on this shoe,
#: 0.8 s on a whole deck whose games another test left in the session's cache and about
#: 6 s on one whose games no test has solved yet, which made this test's cost swing.
LEFT = "As 2h 3s 4d 5s 6h 7s 8c 9s 10h Js Qd Kh Kd"
REMOVED = " ".join(str(c) for c in physical_cards(Shoe.full(1)) if str(c) not in LEFT.split())
#: Options given to keep a valid run short, unless the example fuzzes them: one deck
#: (an exact solve in a second or two), few rounds, one shoe per depth, the small shoe
#: above and one cheap policy for ``strategies`` (its default fifteen take about 3 s of
#: exact work per run).
FAST = {
    "rounds": ["--rounds", "20"],
    "decks": ["--decks", "1"],
    "samples": ["--samples", "1"],
    "removed": ["--removed", REMOVED],
    "names": ["--strategies", "always-stand"],
}


def commands(
    group: click.Group, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every leaf command under ``group`` with its path of names."""
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None, name
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))
        elif name not in SKIPPED_COMMANDS:
            yield (*path, name), command


COMMANDS = list(commands(cli))


def options(command: click.Command) -> list[click.Option]:
    return [
        p for p in command.params if isinstance(p, click.Option) and not set(p.opts) & HEAVY_OPTIONS
    ]


NUMBERS = st.sampled_from(
    [
        "0",
        "1",
        "2",
        "-1",
        "1e400",
        "nan",
        "-inf",
        "1/0",
        "3:0",
        "0.5",
        "9" * 400,
        "9" * 5000,
        "-" + "9" * 5000,
        "1/" + "9" * 400,
        "1." + "0" * 4000 + "1",
        "\u0661\u0662",
        "\uff11",
    ]
)
TEXT = st.text(
    st.characters(codec="utf-8", exclude_characters="\0"),
    max_size=30,
)
NASTY = st.one_of(
    NUMBERS,
    TEXT,
    st.sampled_from(
        [
            "\u212a",
            "\u212as",
            "As \u212ad",
            "stand-on:\u0661\u0667",
            "stand-on:1" + "0" * 5000,
            "",
            " ",
            "-",
            "--",
            "1%:2%",
            "-100:100",
            "all",
            "optimal",
            "chart",
        ]
    ),
)


#: Output paths no command can write (or must not), relative to the test's folder, where
#: :func:`special_files` makes the loop, the dangling link, the pipe and the device.
PATHS = st.sampled_from(
    [
        "missing/x.md",
        "x" * 300 + ".md",
        "d/" * 2100 + "x.md",
        "/proc/1/x.dot",
        "/sys",
        "/sys/x.pdf",
        "loop.md",
        "dangling.md",
        "fifo.md",
        "device.md",
        "file.md/x.md",
        ".",
        "..",
        "/",
        "x.md/",
        "x.graphml",
        "x.svg",
        "x.txt",
    ]
)
OUTPUT_OPTIONS = {"output", "output_dir"}


def special_files(folder: Path) -> bool:
    """Make the odd files :data:`PATHS` names in ``folder``; whether the device was made."""
    (folder / "file.md").write_text("a file, not a folder")
    for name, target in (("loop.md", "loop.md"), ("dangling.md", "missing/x.md")):
        if not (folder / name).is_symlink():  # a link an earlier example replaced: again
            (folder / name).unlink(missing_ok=True)
            (folder / name).symlink_to(target)
    if not (folder / "fifo.md").exists():
        os.mkfifo(folder / "fifo.md")
    if (folder / "device.md").exists():
        return True
    try:  # a private null device (root only): never the real /dev/null
        os.mknod(folder / "device.md", 0o600 | stat.S_IFCHR, os.makedev(1, 3))
    except (OSError, AttributeError):
        return False
    return True


@st.composite
def invocations(draw: st.DrawFn) -> list[str]:
    path, command = draw(st.sampled_from(COMMANDS))
    chosen = draw(
        st.lists(st.sampled_from(options(command)), max_size=3, unique_by=lambda o: o.name)
    )
    argv = list(path)
    for option in chosen:
        if option.is_flag:
            argv.append(draw(st.sampled_from(option.opts + option.secondary_opts)))
        else:
            values = st.one_of(PATHS, NASTY) if option.name in OUTPUT_OPTIONS else NASTY
            argv += [draw(st.sampled_from(option.opts)), draw(values)]
    named = {o.name for o in chosen}
    for name, extra in FAST.items():
        takes = any(p.name == name for p in command.params)
        if takes and name not in named:
            argv += extra
    for param in command.params:
        required = isinstance(param, click.Option) and param.required
        if required and param.name not in named and param.name not in FAST:
            argv += [param.opts[0], draw(NASTY)]
    return argv


def run(argv: list[str]) -> tuple[int, str, str]:
    """``cbj argv`` in-process: exit status, stdout, stderr."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="replace")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="replace")
    status = 0
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(argv)
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    out.flush()
    err.flush()
    return (
        status,
        out.buffer.getvalue().decode("utf-8", "replace"),
        err.buffer.getvalue().decode("utf-8", "replace"),
    )


def fuzzing_the_cli(max_examples: int) -> Callable[..., None]:
    """A test that runs ``max_examples`` arbitrary invocations: no traceback, status 0 or 2
    (then one line on stderr), and no special file of the working folder replaced."""

    @settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(argv=invocations())
    def test(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(tmp_path)
        device = special_files(tmp_path)
        status, _, err = run(argv)
        if device:
            assert stat.S_ISCHR(os.lstat(tmp_path / "device.md").st_mode), argv
        assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo.md").st_mode), argv
        assert "Traceback" not in err, (argv, err)
        assert status in (0, 2), (argv, status, err)
        if status == 2:
            assert err.count("\n") == 1 and err.endswith("\n"), (argv, err)

    return test


#: 20 invocations in the default run (3 s of CPU for 40); the soak run tries 400.
test_no_input_makes_a_traceback = pytest.mark.slow(fuzzing_the_cli(20))
test_no_input_makes_a_traceback_at_length = pytest.mark.soak(fuzzing_the_cli(400))


def test_the_fuzzer_reaches_every_command() -> None:
    names = {path for path, _ in COMMANDS}
    assert {("solve",), ("chart",), ("simulate",), ("paytable", "search")} <= names
    assert sys.version_info >= (3, 11)


@pytest.mark.soak  # 30 commands that draw charts and graphs: about half a minute
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    argv=st.sampled_from([["chart", "--decks", "1"], ["graph", "--decks", "1", "--bonus", "7"]]),
    path=st.one_of(PATHS, TEXT),
)
def test_no_output_path_makes_a_traceback_or_replaces_a_special_file(
    argv: list[str], path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    device = special_files(tmp_path)
    status, _, err = run([*argv, "-o", path])
    assert "Traceback" not in err, (argv, path, err)
    assert status in (0, 2) and err.count("\n") == 1, (argv, path, err)
    if device:
        assert stat.S_ISCHR(os.lstat(tmp_path / "device.md").st_mode)
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo.md").st_mode)
    for link in ("loop.md", "dangling.md"):  # a link is replaced by the file, or left alone
        assert (tmp_path / link).is_symlink() or stat.S_ISREG(os.lstat(tmp_path / link).st_mode)
    assert not (tmp_path / "missing").exists()  # and never written through


#: A valid value of every option whose value is written with digits (None: no digits are
#: documented for it, e.g. a path); a new option of a command must be listed here.
DIGIT_OPTIONS: dict[str, str | None] = {
    "--game": None,  # a file's name
    "--from": "10",
    "--to": "30",
    "--step": "5",
    "--vary": None,  # names, no digits
    "--drill": None,
    "--plot": None,  # files
    "--chart": None,
    "--history": None,
    "--decks": "2",
    "--bonus-ratio": "3/2",
    "--paytable": "15:4:1",
    "--blackjack-pays": "3:2",
    "--dealer-stands-on": "17",
    "--bonus": "2",
    "--hand": "9 3",
    "--seen": "2 3",
    "--removed": "2s 3h",
    "--tags": "A=-1,2=1,3=1,4=1,5=1,6=1,7=0,8=0,9=0,10=-1",
    "--max-pay": "5",
    "--round-edge-range": "0.01-0.02",
    "--bonus-edge-range": "0.01-0.02",
    "--top": "3",
    "--suited-match": "15",
    "--rank-match": "4",
    "--adjacent": "2",
    "--target-bonus-edge": "0.05",
    "--target-round-edge": "0.02",
    "--seats": "1-3",
    "--rounds": "10",
    "--seed": "7",
    "--strategy": "stand-on:15",
    "--strategies": "stand-on:15",
    "--jobs": "1",
    "--bankroll": "10",
    "--result": "3",
    "--hold": "1%",
    "--bonus-multiple": "2",
    "--kelly-fraction": "0.5",
    "--rounds-per-hour": "100",
    "--target-ruin": "0.05",
    "--count": None,
    "--depths": "0.5",
    "--samples": "2",
    "--index-samples": "2",
    "--penetration": "0.5",
    "--counter": "best-level-1",
    "--spread": "1-8",
    "--ramp": "1:2,2:4",
    "--wong-out": "-1",
    "--bonus-ratios": "1,2",
    "--check": None,  # a file's name
    "--solve-for": None,  # a tier's name, no digits
    "--tiers": None,
    "--prepared-by": None,  # free text
    "--prepared-for": None,
    "--revision-note": None,
    "--table-limits": None,  # free text
    "--procedures": None,
    "--shoe-samples": "2",
    "--counter-rounds": "10",
    "--buffer": "20",
    "--csm": "20",
    "--drop": "40",
    "--drop-to-handle": "0.2",
    "--paths": "2",
    "--unit": "25",
    "--win-over-handle": "2%",
    "--table-rounds": "10",
    "--simulation-rounds": "10",
    "--system": None,
    "--dealer-natural": None,
    "--output": None,
    "--output-dir": None,
    "--scheduler": None,
    "--preset": None,  # names, no digits
    "--dealer-bonus": None,
    "--natural-beats": None,
    "--method": None,
    "--backend": None,
    "--format": None,
}
#: Each ASCII digit's twin in Arabic-Indic digits, which Python's ``int()`` reads too.
ARABIC_INDIC = str.maketrans(
    "0123456789", "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669"
)


def value_options() -> Iterator[tuple[tuple[str, ...], str]]:
    """Every command (``report`` and ``tables`` too) with each option that takes text."""
    every = [*commands(cli), *((("report",), cli.get_command(click.Context(cli), "report")),)]
    for path, command in every:
        assert command is not None
        for option in command.params:
            takes_text = isinstance(option, click.Option) and not option.is_flag
            if takes_text and not isinstance(option.type, click.Choice):
                yield path, next(o for o in option.opts if o.startswith("--"))


def digit_invocations() -> Iterator[list[str]]:
    """Each command with one of its number options written in Arabic-Indic digits."""
    for path, flag in value_options():
        value = DIGIT_OPTIONS.get(flag)
        if value is not None:
            yield [*path, flag, value.translate(ARABIC_INDIC)]


def test_every_option_with_digits_is_listed() -> None:
    unlisted = {flag for _, flag in value_options()} - set(DIGIT_OPTIONS)
    assert not unlisted, f"give DIGIT_OPTIONS a valid value of {sorted(unlisted)}"


@pytest.mark.parametrize("argv", list(digit_invocations()), ids=" ".join)
def test_digits_of_other_scripts_are_refused(argv: list[str]) -> None:
    """``cbj rules --decks \u0662`` and the like: one line, exit 2, before any work."""
    status, out, err = run(argv)
    assert status == 2 and err.count("\n") == 1 and out == "", (argv, status, err)
