"""Timing one ``cbj`` command as its own process, for the benchmarks that run whole commands."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import NamedTuple


class CommandRun(NamedTuple):
    """What one run of a command cost: wall and CPU seconds, peak resident memory (KiB)."""

    wall: float
    cpu: float
    peak_kib: int


def run_command(argv: list[str], cache: str) -> CommandRun:
    """Run ``cbj ARGV`` with ``cache`` as its cache folder; exit if it fails."""
    env = dict(os.environ, CBJ_CACHE_DIR=cache)
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "solver", *argv], env=env, stdout=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"cbj {' '.join(argv)} failed")
    return CommandRun(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
