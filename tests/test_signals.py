"""Signals: SIGTERM and SIGHUP stop a command as Ctrl-C does, and no worker outlives it.

Each test starts ``cbj`` in its own process group with ``--jobs 2``, waits until its
worker processes run, signals the main process only (not the group: that is what a
supervisor such as systemd's ``KillMode=process`` or a ``kill PID`` does) and then looks
for any process left over from the command's whole tree.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: Real processes signalled at timed moments: seconds each, so the soak tests
#: (``pytest -m soak``, in CI), not the default suite.
pytestmark = [
    pytest.mark.soak,
    pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc"),
    pytest.mark.xdist_group("signals"),
]

#: Long ``--jobs 2`` runs of every command with process workers (killed long before done).
COMMANDS = {
    "eor": ["eor", "--exact", "--jobs", "2", "--decks", "2", "--no-cache"],
    "shoe-states": ["shoe-states", "--jobs", "2", "--samples", "100000", "--no-cache"],
    "simulate": ["simulate", "--jobs", "2", "--rounds", "100000000", "--no-cache"],
}


def parents() -> dict[int, int]:
    """Every process's parent, read from ``/proc``."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":  # a zombie has ended; only its parent's wait is missing
            found[int(entry.name)] = int(fields[1])
    return found


def descendants(root: int) -> set[int]:
    """The processes below ``root`` (children, their children, ...)."""
    tree = parents()
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in tree.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (not ended, not zombies)."""
    return pids & set(parents())


def _default_stop_signals() -> None:
    """In the child: SIGINT and SIGHUP as a terminal's command has them, whatever the suite
    inherited (``nohup`` ignores SIGHUP, and a shell's ``&`` ignores SIGINT, for every
    process below: a command rightly runs on through a signal it was started ignoring)."""
    for signum in (signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


def start(arguments: list[str], tmp_path: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "solver", *arguments],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_default_stop_signals,
    )


def wait_for_workers(command: subprocess.Popen[bytes], count: int) -> set[int]:
    """The command's descendants once at least ``count`` of them run (60 s at most)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        workers = descendants(command.pid)
        if len(workers) >= count and command.poll() is None:
            time.sleep(1)  # let the pool hand out its first tasks
            return descendants(command.pid)
        time.sleep(0.2)
    command.kill()
    raise AssertionError("the command started no workers")


def gone_within(pids: set[int], seconds: float) -> set[int]:
    """Those of ``pids`` still running after waiting up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive(pids)


def clean_up(command: subprocess.Popen[bytes], pids: set[int]) -> None:
    """Kill whatever the test left (so a failure does not load the machine)."""
    for pid in alive(pids):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    if command.poll() is None:
        command.kill()
    command.wait()


@pytest.mark.parametrize("name", sorted(COMMANDS))
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_to_the_main_process_stops_every_worker(
    name: str, signum: int, tmp_path: Path
) -> None:
    """Ctrl-C's SIGINT too, sent to the main process alone (not the terminal's group).

    (Started from a script as ``cbj ... &``, a command inherits SIGINT ignored, as POSIX
    shells do for background jobs, and rightly runs on: that is not this case.)
    """
    if signum == signal.SIGHUP and name != "eor":
        pytest.skip("SIGHUP takes the same path as SIGTERM: one command shows it")
    command = start(COMMANDS[name], tmp_path)
    workers = wait_for_workers(command, 2)
    try:
        os.kill(command.pid, signum)
        status = command.wait(timeout=30)
        _, stderr = command.communicate()
        assert status == 128 + signum
        said = stderr.decode()
        assert said.strip().splitlines()[-1] == "cbj: interrupted", said
        assert "Traceback" not in said
        assert gone_within(workers, 10) == set()
    finally:
        clean_up(command, workers)


def _ended(pid: int) -> bool:
    """Whether process ``pid`` has exited (a zombie: its parent has not read its status)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_no_worker_is_alive_when_the_main_process_exits(name: str, tmp_path: Path) -> None:
    """SIGTERM: the main process waits (briefly) for the workers it stopped, and for the
    pools' resource trackers, before it exits."""
    command = start(COMMANDS[name], tmp_path)
    workers = wait_for_workers(command, 2)
    try:
        os.kill(command.pid, signal.SIGTERM)
        deadline = time.monotonic() + 30
        while not _ended(command.pid):  # the moment it exits, before the test reaps it
            assert time.monotonic() < deadline
            time.sleep(0.002)
        assert alive(workers) == set()
        assert command.wait(timeout=30) == 128 + signal.SIGTERM
    finally:
        clean_up(command, workers)


def test_workers_end_soon_after_their_command_is_killed_outright(tmp_path: Path) -> None:
    command = start(COMMANDS["eor"], tmp_path)
    workers = wait_for_workers(command, 2)
    try:
        os.kill(command.pid, signal.SIGKILL)
        command.wait(timeout=30)
        assert gone_within(workers, 10) == set()
    finally:
        clean_up(command, workers)


def test_a_killed_worker_is_one_line(tmp_path: Path) -> None:
    command = start(COMMANDS["simulate"], tmp_path)
    workers = wait_for_workers(command, 2)
    try:
        loky = [
            pid
            for pid in workers
            if b"loky" in Path(f"/proc/{pid}/cmdline").read_bytes()
            and b"resource_tracker" not in Path(f"/proc/{pid}/cmdline").read_bytes()
        ]
        os.kill(loky[0], signal.SIGKILL)
        status = command.wait(timeout=60)
        _, stderr = command.communicate()
        lines = stderr.decode().strip().splitlines()
        assert status == 2
        assert lines == [lines[-1]] and "worker process" in lines[-1]
        assert gone_within(workers, 10) == set()
    finally:
        clean_up(command, workers)


@pytest.mark.parametrize("moment", [0.3, 0.6, 0.9])
def test_sigterm_while_writing_leaves_no_temporary_file(moment: float, tmp_path: Path) -> None:
    # A run to its end measures the command; then SIGTERM at a share of that time.
    # One hand's graph: drawn in about a second, so the three moments cost little.
    arguments = ["graph", "--decks", "1", "--bonus", "7", "--hand", "9 4", "-o", "graph.svg"]
    started = time.monotonic()
    first = start(arguments, tmp_path)
    assert first.wait(timeout=120) == 0
    duration = time.monotonic() - started
    (tmp_path / "graph.svg").unlink()
    command = start(arguments, tmp_path)
    time.sleep(duration * moment)
    command.send_signal(signal.SIGTERM)
    _, stderr = command.communicate(timeout=60)
    status = command.returncode
    assert status in (0, 128 + signal.SIGTERM), stderr.decode()  # what stopped it, if not that
    left = [p.name for p in tmp_path.iterdir()]  # the graph (if written in time), no more
    assert left == ["graph.svg"] if status == 0 else left in ([], ["graph.svg"]), left


def test_a_stop_signal_after_the_work_is_ignored(tmp_path: Path) -> None:
    # The interpreter's shutdown puts the default action back for a Python handler, so a
    # SIGTERM then would kill a command that has done its work (status -15): the command
    # ignores stop signals once it is done, which the shutdown leaves as they are.
    seen = tmp_path / "seen"
    script = (
        "import atexit, signal, sys\n"
        "from solver.cli import main\n"
        f"atexit.register(lambda: open({str(seen)!r}, 'w').write("
        "str(signal.getsignal(signal.SIGTERM) is signal.SIG_IGN)))\n"
        "sys.argv = ['cbj', 'rules']\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert seen.read_text() == "True"
