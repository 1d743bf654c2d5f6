"""Every output path a user can give: refused in one line before any work, never a device
replaced, a half-written file or a killed run's leftovers; standard output that fails."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from solver.model.errors import OutputError
from solver.model.rules import Rules
from solver.present.files import (
    check_output_dir,
    check_writable,
    folder_swap,
    leftovers,
    recover_folder,
    write_atomic,
)
from solver.present.report import Report, write_report
from solver.present.report.blocks import Section, Text, TitleBlock

from .conftest import run_cli

ONE_DECK = ["--decks", "1"]
GRAPH = ["graph", *ONE_DECK, "--bonus", "7", "--hand", "10 2"]


def dead_pid() -> int:
    """The number of a process that has ended (a leftover's owner)."""
    child = subprocess.Popen([sys.executable, "-c", ""])
    child.wait()
    return child.pid


def one_line_error(status: int, out: str, err: str) -> str:
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cbj: error: "), err
    return lines[0]


def can_mknod(tmp_path: Path) -> bool:
    try:
        os.mknod(tmp_path / "probe", 0o600 | stat.S_IFCHR, os.makedev(1, 3))
    except (OSError, AttributeError):
        return False
    (tmp_path / "probe").unlink()
    return True


@pytest.mark.parametrize(
    "argv",
    [["chart", *ONE_DECK, "-o"], [*GRAPH, "-o"], ["report", *ONE_DECK, "-o"]],
    ids=["chart", "graph", "report"],
)
@pytest.mark.parametrize("kind", ["device", "fifo", "socket"])
def test_an_output_that_is_not_a_regular_file_is_refused_and_kept(
    argv: list[str], kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suffix = {"chart": ".md", "graph": ".dot", "report": ".html"}[argv[0]]
    target = tmp_path / f"out{suffix}"
    if kind == "device":
        if not can_mknod(tmp_path):
            pytest.skip("making a device node needs root")
        os.mknod(target, 0o600 | stat.S_IFCHR, os.makedev(1, 3))  # a private /dev/null
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(target))
        server.close()
    before = os.lstat(target)
    line = one_line_error(*run_cli([*argv, str(target)], capsys))
    assert "not a regular file" in line
    after = os.lstat(target)
    assert (after.st_mode, after.st_ino, after.st_rdev) == (
        before.st_mode,
        before.st_ino,
        before.st_rdev,
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


GRAPH_FAILURES = [
    "missing folder",
    "a file as folder",
    "proc",
    "sys",
    "sys file",
    "long name",
    "long path",
    "wrong suffix",
]


def graph_failures(tmp_path: Path) -> dict[str, str]:
    """Output paths ``cbj graph`` cannot write, made in ``tmp_path``, by name."""
    (tmp_path / "file").write_text("")
    return {
        "missing folder": str(tmp_path / "missing" / "x.dot"),
        "a file as folder": str(tmp_path / "file" / "x.dot"),
        "proc": "/proc/1/x.dot",
        "sys": "/sys",
        "sys file": "/sys/x.dot",
        "long name": str(tmp_path / ("x" * 300 + ".dot")),
        "long path": str(tmp_path / "/".join(["d" * 200] * 30) / "x.dot"),
        "wrong suffix": str(tmp_path / "x.txt"),
    }


@pytest.mark.parametrize("case", GRAPH_FAILURES)
def test_every_graph_output_failure_is_one_line(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one_line_error(*run_cli([*GRAPH, "-o", graph_failures(tmp_path)[case]], capsys))


@pytest.mark.parametrize("command", ["chart", "report", "tables"])
def test_a_name_over_255_bytes_is_one_line_before_any_work(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = str(tmp_path / ("x" * 256))
    argv = {
        "chart": ["chart", "-o", long + ".md"],
        "report": ["report", "-o", long + ".html"],
        "tables": ["tables", "--output-dir", long],
    }[command]
    assert "longer than 255" in one_line_error(*run_cli(argv, capsys))


def test_an_empty_hand_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["graph", "--bonus", "7", "--hand", "", "-o", str(tmp_path / "x.dot")]
    assert "hand is empty" in one_line_error(*run_cli(argv, capsys))
    assert list(tmp_path.iterdir()) == []


def test_graph_has_no_format_to_contradict_its_suffix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*GRAPH, "-o", str(tmp_path / "x.svg"), "--format", "dot"]
    one_line_error(*run_cli(argv, capsys))
    assert list(tmp_path.iterdir()) == []


#: Every command that writes a file given by ``-o``, with a valid call and the file's suffix.
WRITERS = {
    "graph": (GRAPH, ".dot"),
    "chart": (["chart", "--decks", "1"], ".md"),
    "session": (["session", "--rounds", "3", "--decks", "1"], ".csv"),
}


@pytest.mark.parametrize("link", ["to a file", "loop", "dangling"])
@pytest.mark.parametrize("command", ["graph", "chart", "session"])
def test_a_symlink_given_as_the_output_is_replaced_never_written_through(
    command: str, link: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 50: ``cbj graph -o LINK`` wrote the file the link named; every writer now
    replaces the link itself with the file, so a link cannot send a write elsewhere."""
    argv, suffix = WRITERS[command]
    real = tmp_path / f"real{suffix}"
    real.write_text("old")
    out = tmp_path / f"out{suffix}"
    out.symlink_to(
        {"to a file": real, "loop": out, "dangling": tmp_path / "missing" / f"x{suffix}"}[link]
    )
    status, _, err = run_cli([*argv, "-o", str(out)], capsys)
    assert status == 0, err
    assert not out.is_symlink() and out.is_file() and out.read_bytes() != b"old"
    assert real.read_text() == "old" and not (tmp_path / "missing").exists()


def test_a_report_replaces_a_symlink_too(tmp_path: Path) -> None:
    """The report's writer (a small report: the real one takes seconds to build)."""
    block = TitleBlock("A game", ("decks: 6",), "15:4:1", "0.1.0", "0123456789ab", "2026-01-02")
    report = Report(Rules(), block, (Section("Only", (Text("x"),)),))
    real = tmp_path / "real.html"
    real.write_text("old")
    out = tmp_path / "out.html"
    out.symlink_to(real)
    write_report(report, out)
    assert not out.is_symlink() and out.read_text().startswith("<!DOCTYPE html>")
    assert real.read_text() == "old"


def test_a_write_removes_only_dead_runs_leftovers(tmp_path: Path) -> None:
    target = tmp_path / "x.md"
    dead = tmp_path / f".x.md.cbj-{dead_pid()}.abc123.tmp"
    live = tmp_path / f".x.md.cbj-{os.getppid()}.abc123.tmp"
    other = tmp_path / f".y.md.cbj-{dead_pid()}.abc123.tmp"
    for path in (dead, live, other):
        path.write_text("half")
    assert leftovers(target) == [dead]
    write_atomic(target, "new")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["x.md", live.name, other.name])


def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "x.md"
    target.write_text("old")

    def full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OutputError, match="no space left"):
        write_atomic(target, "new")
    assert [p.name for p in tmp_path.iterdir()] == ["x.md"] and target.read_text() == "old"


def test_the_check_refuses_a_path_that_became_a_device_before_the_write(
    tmp_path: Path,
) -> None:
    target = tmp_path / "x.md"
    check_writable(target)
    os.mkfifo(target)
    with pytest.raises(OutputError, match="named pipe"):
        write_atomic(target, "new")
    assert stat.S_ISFIFO(os.lstat(target).st_mode)


def collection(path: Path, text: str) -> None:
    path.mkdir()
    (path / "README.md").write_text(f"# Strategy tables\n{text}\n")


def is_collection(path: Path) -> bool:
    return (path / "README.md").is_file()


def test_a_collection_a_killed_swap_left_aside_is_put_back(tmp_path: Path) -> None:
    target = tmp_path / "tables"
    aside = tmp_path / f".tables.cbj-{dead_pid()}.abc.old"
    aside.mkdir()
    collection(aside / "previous", "old")
    half = tmp_path / f".tables.cbj-{dead_pid()}.def.new"
    half.mkdir()
    (half / "README.md").write_text("# Strategy tables\nhalf\n")
    check_output_dir(str(target), is_collection)
    assert (target / "README.md").read_text() == "# Strategy tables\nold\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tables"]


def test_without_an_atomic_exchange_the_swap_still_ends_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("solver.present.files._exchange", lambda *_: False)
    target = tmp_path / "tables"
    collection(target, "old")
    with folder_swap(target) as building:
        (building / "README.md").write_text("# Strategy tables\nnew\n")
    assert (target / "README.md").read_text() == "# Strategy tables\nnew\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tables"]
    recover_folder(target)  # nothing to recover: a no-op
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tables"]


def test_the_swap_exchanges_the_folders_in_one_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "tables"
    collection(target, "old")
    calls = []

    def replace(source: object, destination: object) -> None:
        calls.append((source, destination))
        raise AssertionError("the swap renamed instead of exchanging")

    with folder_swap(target) as building:
        (building / "README.md").write_text("# Strategy tables\nnew\n")
        if sys.platform.startswith("linux"):
            monkeypatch.setattr(os, "replace", replace)
    monkeypatch.undo()
    assert calls == []
    assert (target / "README.md").read_text() == "# Strategy tables\nnew\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tables"]


def cbj(shell: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``cbj`` run by the shell (for redirections), from ``tmp_path``."""
    command = shell.replace("cbj", f"{sys.executable} -m solver", 1)
    return subprocess.run(
        ["sh", "-c", command], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )


#: A table before any work (click's text stream), a solve's JSON (the same, after work) and
#: a session's JSON (bytes through ``sys.stdout.buffer``, the path a chart's PDF takes). The
#: PDF itself costs a drawing in a process of its own (3 to 6 s of CPU): a soak test.
STDOUT_CASES = [
    "rules",
    "solve --decks 1 --format json",
    "session --decks 1 --rounds 3 --format json",
    pytest.param("chart --decks 1 --format pdf", marks=pytest.mark.soak),
]


@pytest.mark.parametrize("argv", STDOUT_CASES)
@pytest.mark.parametrize("redirect", [">/dev/full", ">&-"], ids=["full", "closed"])
def test_a_standard_output_that_cannot_be_written_is_one_line(
    argv: str, redirect: str, tmp_path: Path
) -> None:
    if redirect == ">/dev/full" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    done = cbj(f"cbj {argv} {redirect}", tmp_path)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and "standard output" in lines[0]


def test_a_closed_standard_output_is_no_error_for_a_command_that_prints_nothing(
    tmp_path: Path,
) -> None:
    done = cbj("cbj chart --decks 1 -o chart.md >&-", tmp_path)
    assert done.returncode == 0 and done.stderr == "cbj: wrote chart.md\n"


@pytest.mark.parametrize(
    "argv",
    [
        "rules --format json",
        "session --decks 1 --rounds 1000 --format json",  # 250 kB: past the pipe's buffer
        pytest.param("chart --decks 1 --format png", marks=pytest.mark.soak),  # 170 kB
    ],
)
def test_a_reader_that_goes_away_ends_the_command_quietly(argv: str, tmp_path: Path) -> None:
    """``cbj ... | head -c 10``: the command's own status is 0 and it says nothing."""
    command = subprocess.Popen(
        [sys.executable, "-m", "solver", *argv.split()],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert command.stdout is not None and command.stderr is not None
    command.stdout.read(10)
    command.stdout.close()  # the reader goes away
    err = command.stderr.read()
    assert command.wait(timeout=120) == 0 and err == b""
