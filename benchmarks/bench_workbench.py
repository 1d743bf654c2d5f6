"""Time the workbench's answers on the server side: a paytable change, a cached rule change
and an uncached one (``cbj serve``'s app, in this process, through Starlette's TestClient).

Run from the project folder with the package installed:

    python benchmarks/bench_workbench.py [--repeat 20]

Prints a Markdown table for docs/performance.md, with the load average before and after
(the machine may be shared).  Nothing is read from or written to the disk cache: the app's
store is memory only, so the uncached case solves afresh each time (a different rule set
each time, never seen before by the store).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
import warnings
from collections.abc import Callable

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note on its test client's HTTP library
    from starlette.testclient import TestClient

from solver.web.app import make_app
from solver.web.work import WorkbenchStore
from solver.web.workbench import Workbench

BASE = "http://127.0.0.1:8021"


def answered(client: TestClient, query: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (of this whole process: the app's worker threads too) until
    ``/api/game`` answers ``query`` with its figures, polling while it works."""
    start, cpu = time.perf_counter(), time.process_time()
    while True:
        response = client.post("/api/game", params=query, headers={"origin": BASE})
        if response.status_code == 200:
            return time.perf_counter() - start, time.process_time() - cpu
        assert response.status_code == 202, response.text


def cases(client: TestClient) -> list[tuple[str, Callable[[int], dict[str, str]], int]]:
    """(label, the query of run ``i``, runs) for each case; the first runs warm the store."""
    decks = iter(range(1, 9))
    totals = iter(range(12, 22))
    for query in ({}, {"decks": "2"}, {"exact": "1"}):  # solved once, before timing
        answered(client, query)
    return [
        ("paytable change (float game)", lambda i: {"paytable": f"{20 + i}:5:1"}, 1),
        (
            "paytable change (exact fractions)",
            lambda i: {"paytable": f"{20 + i}:5:1", "exact": "1"},
            1,
        ),
        ("Bonus ratio change", lambda i: {"bonus_ratio": f"{1 + i}/2"}, 1),
        (
            "cached rule change (decks 6 -> 2)",
            lambda i: {"decks": "2", "paytable": f"{30 + i}:4:1"},
            1,
        ),
        (
            "uncached rule change (float solve)",
            lambda i: {"dealer_stands_on": str(next(totals)), "decks": str(next(decks) % 8 + 1)},
            0,
        ),
    ]


def main() -> None:
    """Time every case ``--repeat`` times (uncached: as many new rule sets as there are)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    bench = Workbench(WorkbenchStore())
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print()
    print(
        "| answer | median wall (ms) | best wall (ms) | median CPU (ms) | runs "
        "| load before / after |"
    )
    print("|---|---:|---:|---:|---:|---|")
    with TestClient(make_app(bench), base_url=BASE) as client:
        for label, query, cached in cases(client):
            load = os.getloadavg()[0]
            runs = args.repeat if cached else min(args.repeat, 5)
            timed = [answered(client, query(i)) for i in range(runs)]
            walls = [wall * 1000 for wall, _ in timed]
            cpus = [cpu * 1000 for _, cpu in timed]
            print(
                f"| {label} | {statistics.median(walls):.1f} | {min(walls):.1f} "
                f"| {statistics.median(cpus):.1f} | {runs} "
                f"| {load:.1f} / {os.getloadavg()[0]:.1f} |"
            )
    bench.close()


if __name__ == "__main__":
    main()
