"""Time whole `cbj` commands as a user runs them: wall time, CPU time and peak memory.

Run from the project folder with the package installed:

    python benchmarks/bench_solve.py [--repeat 5] [--baseline /path/to/old/checkout]

Prints Markdown tables for docs/performance.md.  Every command runs as its own process
(Python start-up and imports included), timed by the wall clock and by the CPU time (user
+ system) the operating system reports for it, which other processes on a shared machine
disturb much less than the wall time.  Every cold run uses a fresh, empty cache folder,
and the cached run reads back what a first run stored.  With ``--baseline`` the same
commands are also run from another checkout of the project (``python -m solver`` with that
folder first on the path), interleaved with this one's runs so that both see the same
machine load.  Bytecode is written and reused as in a normal installation (the variable
``PYTHONDONTWRITEBYTECODE`` is removed for the timed commands).  A last table times the
solver alone, in-process, per player hand composition, for 1, 6 and 8 decks.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent

CASES = [
    ("float solve, cold", ["solve", "--no-cache"], 0.30),
    ("float solve, cold, --jobs 2", ["solve", "--no-cache", "--jobs", "2"], None),
    ("exact solve, cold", ["solve", "--no-cache", "--exact"], 1.2),
    ("exact solve, cold, --jobs 2", ["solve", "--no-cache", "--exact", "--jobs", "2"], None),
    ("float solve, repeated (cache hit)", ["solve"], 0.15),
    ("rules table", ["rules"], 0.12),
    ("help", ["--help"], None),
    ("dealer tables, JSON", ["dealer", "--format", "json"], None),
]
MEMORY_TARGET_MIB = 200


class Timing(NamedTuple):
    """One command's wall seconds, CPU seconds (user + system) and peak memory (KiB)."""

    wall: float
    cpu: float
    peak: int


def run_once(argv: list[str], cache: str, checkout: Path) -> Timing:
    """The timing of one command, as its own process."""
    env = dict(os.environ, CBJ_CACHE_DIR=cache, PYTHONPATH=str(checkout))
    # A user's Python keeps compiled bytecode: without it every run recompiles the package.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "solver", *argv],
        env=env,
        cwd=checkout,
        stdout=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"cbj {' '.join(argv)} failed in {checkout}")
    return Timing(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)


def time_command(argv: list[str], checkout: Path) -> Timing:
    """One timed run in a fresh cache folder (filled first when timing a cache hit)."""
    with tempfile.TemporaryDirectory() as cache:
        if argv == ["solve"]:
            run_once(argv, cache, checkout)
        return run_once(argv, cache, checkout)


def commands(repeat: int, baseline: Path | None) -> None:
    """The whole-command table, with the baseline's figures beside when given."""
    head = (
        "| command | median wall (s) | best (s) | median CPU (s) | peak memory (MiB) "
        "| target (s) | met |"
    )
    rule = "|---|---|---|---|---|---|---|"
    if baseline is not None:
        head += " before: median wall (s) | before: CPU (s) | before: peak (MiB) | speed-up |"
        rule += "---|---|---|---|"
    print(head)
    print(rule)
    for checkout in [ROOT] if baseline is None else [ROOT, baseline]:
        time_command(["rules"], checkout)  # compile and store the bytecode first
    for label, argv, target in CASES:
        runs: list[Timing] = []
        old_runs: list[Timing] = []
        for _ in range(repeat):
            runs.append(time_command(argv, ROOT))
            if baseline is not None:
                old_runs.append(time_command(argv, baseline))
        median = statistics.median(t.wall for t in runs)
        met = "" if target is None else ("yes" if median <= target else "NO")
        mib = max(t.peak for t in runs) / 1024
        if mib > MEMORY_TARGET_MIB:
            met += f" (memory over {MEMORY_TARGET_MIB} MiB)"
        line = (
            f"| `cbj {' '.join(argv)}` ({label}) | {median:.3f} | "
            f"{min(t.wall for t in runs):.3f} | {statistics.median(t.cpu for t in runs):.3f} | "
            f"{mib:.0f} | {'-' if target is None else target} | {met or '-'} |"
        )
        if baseline is not None:
            old = statistics.median(t.wall for t in old_runs)
            line += (
                f" {old:.3f} | {statistics.median(t.cpu for t in old_runs):.3f} | "
                f"{max(t.peak for t in old_runs) / 1024:.0f} | {old / median:.1f}x |"
            )
        print(line, flush=True)


def per_composition(repeat: int) -> None:
    """Solver time alone (imports excluded, first run included) per hand composition."""
    script = """
import statistics, sys, time
from solver.exact.game import solve_game
from solver.model.rules import Rules
decks, exact, repeat = int(sys.argv[1]), sys.argv[2] == "exact", int(sys.argv[3])
times, cpu = [], []
for _ in range(repeat):
    start, start_cpu = time.perf_counter(), time.process_time()
    game = solve_game(Rules(decks=decks), exact=exact)
    times.append(time.perf_counter() - start)
    cpu.append(time.process_time() - start_cpu)
hands = sum(len(s.space.hands) for s in game.solutions.values())
later = statistics.median(times[1:]) if repeat > 1 else times[0]
print(times[0], later, cpu[0], hands)
"""
    print(
        "| game | arithmetic | first solve (s) | later, median (s) | first solve, CPU (s) "
        "| hands | µs per hand |"
    )
    print("|---|---|---|---|---|---|---|")
    for decks in (1, 6, 8):
        for arithmetic in ("float", "exact"):
            output = subprocess.run(
                [sys.executable, "-c", script, str(decks), arithmetic, str(repeat)],
                capture_output=True,
                text=True,
                check=True,
                cwd=ROOT,
            ).stdout.split()
            first, later, cpu, hands = map(float, output)
            print(
                f"| {decks} deck{'s' if decks > 1 else ''} | {arithmetic} | {first:.3f} | "
                f"{later:.3f} | {cpu:.3f} | {hands:.0f} | {first / hands * 1e6:.0f} |",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another checkout to time alongside")
    args = parser.parse_args()
    load = os.getloadavg()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; load average at start {load[0]:.2f}"
    )
    print()
    commands(args.repeat, args.baseline)
    print()
    per_composition(args.repeat)
    print()
    print(f"load average at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
