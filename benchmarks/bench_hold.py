"""Time ``cbj hold`` as a casino runs it, up to 10^8 table-rounds, and check its methods
against each other where both run: wall and CPU seconds, peak memory, each tail's agreement.

Run from the project folder with the package installed:

    python benchmarks/bench_hold.py [--repeat 3]

Prints Markdown tables for docs/performance.md (the commands, with the load average before
and after each) and docs/protection.md (the saddlepoint's largest relative difference from
the FFT beyond the FFT's own error bound, tails from 1 to 6 SDs out, 1 and 5 seats, 10^4 to
10^8 table-rounds).  The commands
share one cache folder, warmed first by one check (the exact solve is timed in
bench_solve.py).  A 30-day file of a 5-seat table is written to a temporary folder for the
series.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import tempfile
from fractions import Fraction
from pathlib import Path

from command_timing import run_command

MIX = "10% optimal, 60% chart, 30% mimic-dealer"
#: (label, arguments).
CASES = [
    ("1 seat, 10^4 rounds", ["--rounds", "10000", "--result", "200"]),
    ("5 seats, mix, 10^6 rounds", ["--rounds", "1000000", "--seats", "5", "--strategy", MIX,
                                   "--hold", "14%", "--drop-to-handle", "0.2"]),
    ("5 seats, mix, 10^8 rounds", ["--rounds", "100000000", "--seats", "5", "--strategy", MIX,
                                   "--hold", "14%", "--drop-to-handle", "0.2"]),
    ("5 seats, 10^8 rounds, FFT", ["--rounds", "100000000", "--seats", "5", "--method", "fft",
                                   "--result", "9000000"]),
]  # fmt: skip


def daily_file(folder: Path) -> Path:
    """30 days of a 5-seat table, 1,800 table-rounds a day, as a pit's books give them."""
    path = folder / "daily.csv"
    lines = ["date,rounds,win,drop"]
    for day in range(1, 31):
        lines.append(f"2026-01-{day:02d},1800,{400 + 37 * (day % 7) - 20 * (day % 5)},13500")
    path.write_text("\n".join(lines) + "\n")
    return path


def agreement() -> None:
    """The saddlepoint against the FFT, tails 1 to 6 SDs out, as the module states it."""
    import solver
    from solver.exact.hold import session_law
    from solver.exact.strategies import optimal_policy
    from solver.exact.table_round import seat_law, table_round

    rules = solver.Rules()
    game = solver.solve(exact=True)
    law = seat_law(rules, optimal_policy(game))
    print(
        "| seats | table-rounds | largest relative difference, beyond the FFT's bound | "
        "FFT's error bound |"
    )
    print("|---|---|---|---|")
    for seats in (1, 5):
        table = table_round(rules, [(Fraction(1), law)], seats)
        for rounds in (10**4, 10**6, 10**8):
            fft, saddle = (
                session_law(table, rounds, "fft"),
                session_law(table, rounds, "saddlepoint"),
            )
            mean, sd = rounds * table.mean, math.sqrt(rounds * table.variance)
            worst = 0.0
            for z in (-6, -3, -1, 1, 3, 6):
                net = table.step * round((mean + z * sd) / float(table.step))
                for a, b in zip(fft.tails(net), saddle.tails(net), strict=True):
                    beyond = max(abs(b - a) - (fft.error_bound or 0.0), 0.0)  # the FFT's own
                    worst = max(worst, beyond / a)
            print(f"| {seats} | {rounds:,} | {worst:.1e} | {fft.error_bound:.1e} |")


def main() -> None:
    """Run every case ``--repeat`` times and print one table row each, then the agreement."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print()
    print(
        "| command | median wall (s) | median CPU (s) | peak memory (MiB) | load before / after |"
    )
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as cache:
        run_command(["hold", "--rounds", "10", "--result", "1"], cache)  # warm the cache
        cases = [
            *CASES,
            (
                "30 days, 5 seats, mix",
                ["--from", str(daily_file(Path(cache))), "--seats", "5", "--strategy", MIX],
            ),
        ]
        for label, argv in cases:
            load_before = os.getloadavg()[0]
            runs = [run_command(["hold", *argv], cache) for _ in range(args.repeat)]
            print(
                f"| `cbj hold` {label} | {statistics.median(r.wall for r in runs):.2f} | "
                f"{statistics.median(r.cpu for r in runs):.2f} | "
                f"{max(r.peak_kib for r in runs) / 1024:.0f} | "
                f"{load_before:.1f} / {os.getloadavg()[0]:.1f} |"
            )
        os.environ["CBJ_CACHE_DIR"] = cache
        print()
        agreement()


if __name__ == "__main__":
    main()
