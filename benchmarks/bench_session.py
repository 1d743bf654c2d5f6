"""Time ``cbj session`` as a user runs it, and its maths alone: wall and CPU seconds.

Run from the project folder with the package installed:

    python benchmarks/bench_session.py [--repeat 3]

Prints a Markdown table for docs/performance.md, with the load average before and after
each case (the machine may be shared).  The commands share one cache folder, warmed first
by ``cbj solve --exact`` (the session convolves a solved game's round; the solve itself is
timed in bench_solve.py).  The "maths only" rows time :func:`solver.exact.session.session_figures`
on the solved round, in this process.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import tempfile
import time
from fractions import Fraction

from command_timing import run_command

#: (label, arguments, target seconds) - the target from issue 28.
CASES = [
    ("100,000 rounds", ["session", "--rounds", "100000", "--format", "json"], 5.0),
    ("100 rounds, bankroll 50", ["session", "--rounds", "100", "--bankroll", "50"], 5.0),
    ("20 rounds, exact", ["session", "--rounds", "20", "--bankroll", "10"], 5.0),
    (
        "100,000 rounds, bankroll 3000",
        ["session", "--rounds", "100000", "--bankroll", "3000"],
        None,
    ),
]


def maths_only(repeat: int) -> None:
    """Time the convolution and the ruin walk alone on the default game's round."""
    import solver
    from solver.exact.session import session_figures

    game = solver.solve(exact=True)
    lines = [(line.net, line.probability) for line in game.round_lines]
    for label, rounds, bankroll in (
        ("distribution, 100,000 rounds", 100_000, None),
        ("with ruin, bankroll 100", 100_000, Fraction(100)),
    ):
        walls, cpus = [], []
        for _ in range(repeat):
            before = resource.getrusage(resource.RUSAGE_SELF)
            start = time.perf_counter()
            figures = session_figures(lines, rounds, bankroll)
            walls.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_SELF)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        print(
            f"| maths only: {label} | {statistics.median(walls):.3f} | "
            f"{statistics.median(cpus):.3f} | - | - | error bound "
            f"{figures.distribution.error_bound:.1e} |"
        )


def main() -> None:
    """Run every case ``--repeat`` times and print one table row each."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print()
    print("| command | median wall (s) | median CPU (s) | target (s) | met | load before / after |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as cache:
        run_command(["solve", "--exact", "--format", "json"], cache)  # warm the cache
        for label, argv, target in CASES:
            load_before = os.getloadavg()[0]
            walls, cpus = [], []
            for _ in range(args.repeat):
                wall, cpu, _ = run_command(argv, cache)
                walls.append(wall)
                cpus.append(cpu)
            median = statistics.median(walls)
            met = "-" if target is None else "yes" if median <= target else "NO"
            print(
                f"| `cbj {' '.join(argv)}` ({label}) | {median:.3f} | "
                f"{statistics.median(cpus):.3f} | {target or '-'} | {met} | "
                f"{load_before:.1f} / {os.getloadavg()[0]:.1f} |"
            )
        os.environ["CBJ_CACHE_DIR"] = cache
        maths_only(args.repeat)


if __name__ == "__main__":
    main()
