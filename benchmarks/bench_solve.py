"""Time whole `cbj` commands as a user runs them: wall time and peak memory.

Run from the project folder with the package installed:

    python benchmarks/bench_solve.py [--repeat 5]

Prints a Markdown table for docs/performance.md.  Every cold run uses a fresh, empty
cache folder; the cached run reads back what a first run stored.
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

CASES = [
    ("float solve, cold, no cache", ["solve", "--no-cache"], 0.5),
    ("float solve, cold, no cache, --jobs 2", ["solve", "--no-cache", "--jobs", "2"], 0.5),
    ("exact solve, cold, no cache", ["solve", "--no-cache", "--exact"], 20.0),
    (
        "exact solve, cold, no cache, --jobs 2",
        ["solve", "--no-cache", "--exact", "--jobs", "2"],
        20.0,
    ),
    ("float solve, repeated (cache hit)", ["solve"], 0.5),
    ("dealer tables, JSON", ["dealer", "--format", "json"], 1.0),
]


def run_once(argv: list[str], cache: str) -> tuple[float, int]:
    """Wall seconds and peak resident memory (KiB) of one command, as its own process."""
    env = dict(os.environ, CBJ_CACHE_DIR=cache)
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "solver", *argv], env=env, stdout=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"cbj {' '.join(argv)} failed")
    return elapsed, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print()
    print("| command | median wall (s) | best wall (s) | peak memory (MiB) | target (s) | met |")
    print("|---|---|---|---|---|---|")
    for label, argv, target in CASES:
        times, peaks = [], []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory() as cache:
                if argv == ["solve"]:
                    run_once(argv, cache)  # fill the cache first
                seconds, peak = run_once(argv, cache)
            times.append(seconds)
            peaks.append(peak)
        median = statistics.median(times)
        print(
            f"| `cbj {' '.join(argv)}` ({label}) | {median:.3f} | {min(times):.3f} | "
            f"{max(peaks) / 1024:.0f} | {target} | {'yes' if median <= target else 'NO'} |"
        )


if __name__ == "__main__":
    main()
