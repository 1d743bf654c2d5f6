"""Time the game-protection commands as a user runs them: wall time and peak memory.

Run from the project folder with the package installed:

    python benchmarks/bench_protection.py [--repeat 3] [--only COMMAND]

(COMMAND: eor, count, shoe-states, attack, indices, simulate or hold.)

Prints a Markdown table for docs/performance.md, with the load average before and after
each case (the machine may be shared).  Every run uses a fresh, empty cache folder and
``--no-cache``, so each one solves all its shoes afresh.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile

from command_timing import run_command

#: (label, arguments, target seconds) - targets from issue 13.
CASES = [
    ("float", ["eor", "--no-cache"], 20.0),
    ("float, --jobs 2", ["eor", "--no-cache", "--jobs", "2"], 20.0),
    ("exact", ["eor", "--no-cache", "--exact"], 120.0),
    ("exact, --jobs 2", ["eor", "--no-cache", "--exact", "--jobs", "2"], 120.0),
    ("usual counts, float EORs", ["count", "--no-cache"], 20.0),
    (
        "1,000 states, --jobs 2",
        [
            *("shoe-states", "--no-cache", "--samples", "250", "--seed", "1", "--jobs", "2"),
            *("--depths", "0.25,0.5,0.75,0.83"),
        ],
        300.0,
    ),
    # Issue 39: the dealt-shoe study behind indices, bet and attack (no target was set).
    (
        "2,000 dealt shoes, --jobs 2",
        ["attack", "--no-cache", "--samples", "2000", "--jobs", "2"],
        float("inf"),
    ),
    (
        "200 dealt shoes, the level-2 playing search, --jobs 2",
        [
            *("indices", "--no-cache", "--samples", "200", "--count", "best-playing-2"),
            *("--jobs", "2"),
        ],
        float("inf"),
    ),
    (
        "2,000,000 rounds of a counter playing indices from 200 dealt shoes, --jobs 2",
        [
            *("simulate", "--no-cache", "--rounds", "2000000", "--seed", "1", "--jobs", "2"),
            *("--penetration", "0.83", "--strategy", "chart", "--counter", "best-level-2"),
            *("--indices", "--index-samples", "200"),
        ],
        float("inf"),
    ),
    (
        "cbj hold, 100,000 rounds",
        ["hold", "--no-cache", "--rounds", "100000", "--hold", "1%"],
        60.0,
    ),
]


def main() -> None:
    """Run every case ``--repeat`` times and print one table row each."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default=None, help="Run only the cases of this command.")
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print()
    print(
        "| command | median wall (s) | best wall (s) | peak memory (MiB) | target (s) | met "
        "| load before / after |"
    )
    print("|---|---|---|---|---|---|---|")
    for label, argv, target in CASES:
        if args.only is not None and argv[0] != args.only:
            continue
        load_before = os.getloadavg()[0]
        times, peaks = [], []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory() as cache:
                seconds, _, peak = run_command(argv, cache)
            times.append(seconds)
            peaks.append(peak)
        median = statistics.median(times)
        print(
            f"| `cbj {' '.join(argv)}` ({label}) | {median:.3f} | {min(times):.3f} | "
            f"{max(peaks) / 1024:.0f} | {target:g} | {'yes' if median <= target else 'NO'} | "
            f"{load_before:.1f} / {os.getloadavg()[0]:.1f} |"
        )


if __name__ == "__main__":
    main()
