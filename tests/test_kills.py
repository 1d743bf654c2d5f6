"""Commands killed outright (SIGKILL) at random moments leave the old output or the new one.

Each test plants an old output, starts the command a few times and kills it at a random
moment of its run, keeping what the output path held after each kill; then one complete
run makes the new output.  Every kept state must be the old output or the new one, whole,
and after the complete run nothing but the output may be left in the folder (the killed
runs' temporary files are gone).  The moments are drawn from a seeded generator, so a
failure repeats.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import EPOCH, REPORT_SIZE_OPTIONS

#: Every test here starts, times and kills real processes: seconds each, so they run with
#: the soak tests (``pytest -m soak``, in CI), not in the default suite.
pytestmark = [pytest.mark.soak, pytest.mark.xdist_group("kills")]

GRAPH = ["graph", "--decks", "1", "--bonus", "7"]
REPORT = ["report", "--decks", "2", *REPORT_SIZE_OPTIONS]
#: Each command and the output it writes (a file, or the tables' folder).
COMMANDS = {
    "chart": (["chart", "--decks", "1", "-o", "out.pdf"], "out.pdf"),
    "graph": ([*GRAPH, "-o", "out.graphml"], "out.graphml"),
    "report": ([*REPORT, "-o", "out.html"], "out.html"),
    "tables": (["tables", "--output-dir", "out"], "out"),
}
KILLS = {"chart": 3, "graph": 3, "report": 2, "tables": 2}


def snapshot(path: Path) -> dict[str, bytes] | None:
    """What ``path`` holds: a file's bytes, or every file of a folder by relative name."""
    if path.is_file():
        return {"": path.read_bytes()}
    if path.is_dir():
        return {
            str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()
        }
    return None


def plant_old(path: Path) -> dict[str, bytes] | None:
    """An old output the new one cannot be mistaken for."""
    if path.suffix:
        path.write_bytes(b"the old output\n")
    else:
        path.mkdir()
        (path / "README.md").write_text("# Strategy tables\n\nthe old collection\n")
        (path / "old-only.txt").write_text("kept until the new collection is whole\n")
    return snapshot(path)


def run(arguments: list[str], folder: Path, kill_after: float | None) -> float:
    """Run ``cbj``; kill it after ``kill_after`` seconds (None: to the end); its duration."""
    environment = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH}
    started = time.monotonic()
    command = subprocess.Popen(
        [sys.executable, "-m", "solver", *arguments],
        cwd=folder,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        _, stderr = command.communicate(timeout=kill_after if kill_after is not None else 600)
    except subprocess.TimeoutExpired:
        command.kill()
        command.communicate()
    else:
        assert kill_after is not None or command.returncode == 0, stderr.decode()
    return time.monotonic() - started


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_killed_command_leaves_the_old_output_or_the_new_one(name: str, tmp_path: Path) -> None:
    arguments, output = COMMANDS[name]
    target = tmp_path / output
    old = plant_old(target)
    duration = run(arguments, tmp_path, None)  # the first run also fills the session's cache
    new = snapshot(target)
    assert new is not None and new != old
    generator = random.Random(f"kills-{name}")
    kept = []
    for _ in range(KILLS[name]):
        # Start each killed run from the old output, so each may catch the switch.
        if target.is_dir():
            shutil.rmtree(target)
        else:
            target.unlink()
        assert plant_old(target) == old
        run(arguments, tmp_path, generator.uniform(0.2, duration * 1.1))
        kept.append(snapshot(target))
    assert all(state in (old, new) for state in kept), [state == old for state in kept]
    run(arguments, tmp_path, None)
    assert snapshot(target) == new
    assert [p.name for p in tmp_path.iterdir()] == [output]
