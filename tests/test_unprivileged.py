"""Permissions as an unprivileged user sees them: read-only folders, folders it cannot
enter, an unwritable home.  Under root (as in CI) each test runs ``cbj`` as ``nobody``
(see :mod:`tests.unprivileged`), so none of them is skipped there."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .unprivileged import run_cbj, shared_folder, unprivileged


@pytest.fixture
def shared() -> Iterator[Path]:
    with shared_folder() as folder:
        yield folder


def read_only(folder: Path) -> Path:
    folder.mkdir()
    folder.chmod(0o555)
    return folder


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert len(lines) == 1 and lines[0].startswith("cbj: error: "), done.stderr
    return lines[0]


@pytest.mark.parametrize(
    "arguments",
    [
        ["chart", "--decks", "1", "-o", "ro/x.md"],
        ["graph", "--decks", "1", "--bonus", "7", "-o", "ro/x.dot"],
        ["report", "--decks", "1", "-o", "ro/x.html"],
        ["tables", "--output-dir", "ro/tables"],
    ],
    ids=["chart", "graph", "report", "tables"],
)
def test_a_read_only_folder_is_one_line_before_any_work(arguments: list[str], shared: Path) -> None:
    folder = read_only(shared / "ro")
    line = one_line_error(run_cbj(arguments, shared))
    assert "permission denied" in line
    assert list(folder.iterdir()) == []


def test_a_report_into_a_folder_it_cannot_enter_is_one_line(shared: Path) -> None:
    private = shared / "private"
    private.mkdir()
    private.chmod(0o700 if os.geteuid() == 0 else 0o000)  # root owns it, or no one enters
    try:
        line = one_line_error(run_cbj(["report", "-o", str(private / "x.pdf")], shared))
    finally:
        private.chmod(0o700)
    assert "permission denied" in line


def test_an_unwritable_home_gives_no_matplotlib_warnings(shared: Path) -> None:
    home = read_only(shared / "home")
    environment = {"HOME": str(home), "XDG_CONFIG_HOME": "", "XDG_CACHE_HOME": ""}
    # a session's plot: matplotlib at its lightest (a chart's PNG took 6 s of CPU here)
    argv = ["session", "--decks", "1", "--rounds", "3", "--format", "png", "-o", "session.png"]
    done = run_cbj(argv, shared, environment)
    assert done.returncode == 0 and done.stderr == "cbj: wrote session.png\n", done.stderr
    assert (shared / "session.png").read_bytes().startswith(b"\x89PNG")
    assert list(home.iterdir()) == []


def test_the_check_of_a_read_only_folder_runs_unprivileged(shared: Path) -> None:
    folder = read_only(shared / "ro")
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from solver.present.files import check_writable\n"
        "from solver.model.errors import OutputError\n"
        "try:\n"
        f"    check_writable(Path({str(folder / 'x.md')!r}))\n"
        "except OutputError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run(
        unprivileged([sys.executable, "-c", code]), capture_output=True, text=True, check=True
    )
    assert done.stdout.startswith("cannot write") and "permission denied" in done.stdout


def test_tables_over_a_folder_it_cannot_empty_is_refused_before_the_swap(shared: Path) -> None:
    """Another user's collection in a folder this user may write: the swap would succeed and
    the old collection could not be removed after it, so nothing is swapped at all."""
    theirs = shared / "tables"
    shutil.copytree(Path(__file__).resolve().parents[1] / "strategy_tables", theirs)
    if os.geteuid() != 0:  # as anyone but root: a collection whose folders are read-only
        for folder, _, _ in os.walk(theirs):
            Path(folder).chmod(0o555)
    before = sorted(p.relative_to(theirs) for p in theirs.rglob("*"))
    try:
        line = one_line_error(run_cbj(["tables", "--output-dir", "tables"], shared))
    finally:
        for folder, _, _ in os.walk(theirs):
            Path(folder).chmod(0o755)
    assert line == (
        "cbj: error: cannot replace folder 'tables': permission denied to remove what 'tables' "
        "holds: name a folder of your own"
    )
    assert sorted(p.relative_to(theirs) for p in theirs.rglob("*")) == before
    assert sorted(p.name for p in shared.iterdir()) == ["tables"]  # nothing beside it
