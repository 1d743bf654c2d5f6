"""Timing one ``cbj`` command as its own process, for the benchmarks that run whole commands.

The command is started by a small Python process of its own, not by the benchmark: Linux
starts a child's peak resident memory at the memory of the process that started it (the
child borrows its parent's pages until it runs the new program), so a benchmark holding
its own arrays would add them to the peak of every command it times.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple


class CommandRun(NamedTuple):
    """What one run of a command cost: wall and CPU seconds, peak resident memory (KiB)."""

    wall: float
    cpu: float
    peak_kib: int


#: Runs ``argv[1:]`` with its standard output discarded, waits for it and prints its wall
#: seconds, exit status, CPU seconds (its own and its waited-for children's, user and
#: system) and peak resident memory in KiB.
LAUNCHER = """
import os, sys, time
start = time.perf_counter()
discard = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)]
pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ, file_actions=discard)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
code = os.waitstatus_to_exitcode(status)
print(wall, code, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
"""


def run_command(
    argv: list[str],
    cache: str,
    env: dict[str, str] | None = None,
    python: str | Path = sys.executable,
    cwd: str | Path | None = None,
) -> CommandRun:
    """Run ``cbj ARGV`` with ``cache`` as its cache folder; exit if it fails.

    ``env`` (else this process's environment) is the command's environment, ``python``
    the interpreter that runs ``python -m solver``, ``cwd`` its working folder.
    """
    environment = dict(os.environ if env is None else env, CBJ_CACHE_DIR=cache)
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", LAUNCHER, str(python), "-m", "solver", *argv],
        env=environment,
        cwd=cwd,
        stdout=subprocess.PIPE,
        text=True,
        check=True,
    )
    wall, status, cpu, peak = done.stdout.split()
    if int(status) != 0:
        raise SystemExit(f"cbj {' '.join(argv)} failed (status {status})")
    return CommandRun(float(wall), float(cpu), int(peak))
