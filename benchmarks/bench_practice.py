"""Time the practice table's answer to one decision: the API's (``solver.practice_play``) and
the workbench's (``POST /api/practice`` through ``cbj serve``'s app in this process).

Run from the project folder with the package installed:

    python benchmarks/bench_practice.py [--decisions 200] [--decks 6] [--drill dealt] [--api-only]

A session of the given rules is played by the printed chart (every third decision the other
way), from a memory store that holds the exact solve and the chart's costs (solved once,
first, and timed apart).  A decision's grade is one exact ``advise`` of the hand in the
depleted shoe plus the printed chart's cost of the cell; each play is timed from the state
the page sends to the new state and the page's parts.  Prints a Markdown table for
docs/performance.md with the load average before and after (the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
import warnings
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's note on its test client's HTTP library
    from starlette.testclient import TestClient

import solver
from solver.model.cells import Action, cell_of
from solver.model.hands import hand_of
from solver.results.practice_state import read_state
from solver.web.app import make_app
from solver.web.workbench import Workbench

BASE = "http://127.0.0.1:8021"


def _play(state: Any, costs: Any, made: int) -> str:
    if state.hand is None:
        return "deal"
    key = (cell_of(hand_of(state.hand.values)), state.hand.bonus.points)
    hit = costs.chart.action(*key) is Action.HIT
    return ("stand" if hit else "hit") if made % 3 == 2 else ("hit" if hit else "stand")


def api_times(decisions: int, decks: int, store: Any, drill: str) -> dict[str, list[float]]:
    """Seconds of each API call by kind (a graded decision, a deal)."""
    costs = solver.chart_costs(decks=decks, cache=store)
    turn = solver.practice_start(seed=1, decks=decks, drill=drill, cache=store)
    found: dict[str, list[float]] = {"decision": [], "deal": []}
    made = 0
    while made < decisions:
        play = _play(turn.state, costs, made)
        sent = json.loads(json.dumps(turn.to_json()["state"]))  # as the page sends it
        start = time.perf_counter()
        turn = solver.practice_play(sent, play, cache=store)
        found["deal" if play == "deal" else "decision"].append(time.perf_counter() - start)
        made += play != "deal"
    return found


def page_times(decisions: int, decks: int) -> tuple[float, list[float]]:
    """Seconds until the workbench's first answer (its solve and chart costs), then of each
    play's answer."""
    bench = Workbench()
    try:
        with TestClient(make_app(bench), base_url=BASE) as client:
            start = time.perf_counter()
            while True:
                answer = client.post(
                    "/api/practice",
                    data={"play": "start", "seed": "1", "decks": str(decks)},
                    headers={"origin": BASE},
                ).json()
                if answer["status"] == "ready":
                    break
                time.sleep(0.02)
            first = time.perf_counter() - start
            costs = solver.chart_costs(decks=decks, cache=bench.store)
            times, made = [], 0
            while made < decisions:
                play = _play(read_state(answer["state"]), costs, made)
                start = time.perf_counter()
                answer = client.post(
                    "/api/practice",
                    data={"play": play, "state": json.dumps(answer["state"])},
                    headers={"origin": BASE},
                ).json()
                times.append(time.perf_counter() - start)
                made += play != "deal"
            return first, times
    finally:
        bench.close()


def _row(label: str, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"| {label} | {statistics.median(seconds) * 1000:.1f} | {p95 * 1000:.1f} | "
        f"{max(seconds) * 1000:.1f} | {len(seconds)} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--decks", type=int, default=6)
    parser.add_argument("--drill", default="dealt", help="the session's drill (the API's)")
    parser.add_argument("--api-only", action="store_true", help="leave the workbench out")
    options = parser.parse_args()
    load = os.getloadavg()[0]
    store = solver.MemoryCache()
    start = time.perf_counter()
    solver.chart_costs(decks=options.decks, cache=store)
    solved = time.perf_counter() - start
    api = api_times(options.decisions, options.decks, store, options.drill)
    first, page = (0.0, []) if options.api_only else page_times(options.decisions, options.decks)
    print(f"{options.decks} decks, drill {options.drill}; load average {load:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after")  # fmt: skip
    print(f"exact solve, best chart and its cells' costs (once per rule set): {solved:.2f} s")
    if page:
        print(f"the workbench's first answer (that solve, as a job): {first:.2f} s")
    print("\n| answer | median (ms) | 95th percentile (ms) | slowest (ms) | plays |")
    print("|---|---:|---:|---:|---:|")
    print(_row("API: a decision graded (`solver.practice_play`)", api["decision"]))
    print(_row("API: the next round dealt", api["deal"]))
    if page:
        print(_row("workbench: a play answered (`POST /api/practice`)", page))


if __name__ == "__main__":
    main()
