"""Rounds per second of ``solver.sim`` (default rules, one seat, 10**6 rounds).

Run from the project folder: ``python benchmarks/bench_simulate.py [--rounds N]``.
Each figure is the best of ``--repeat`` runs after one warm-up run per job count, so
worker start-up is left out (it is timed separately, as "cold").  Compiling a strategy
into its lookup array, which every simulation does once, is timed on its own too.
"""

from __future__ import annotations

import argparse
import time

from solver.model.rules import Rules
from solver.sim import StandOn, Strategy, TableStrategy, simulate
from solver.sim.hands import hand_space
from solver.sim.strategies import compile_strategy


def rate(
    strategy: Strategy, rounds: int, jobs: int, penetration: float | None, repeat: int
) -> float:
    """Best rounds per second over ``repeat`` runs."""
    best = 0.0
    for i in range(repeat):
        start = time.perf_counter()
        simulate(Rules(), strategy, rounds, seed=i, penetration=penetration, jobs=jobs)
        best = max(best, rounds / (time.perf_counter() - start))
    return best


def compile_time(strategy: Strategy, repeat: int) -> float:
    """Best seconds to compile ``strategy`` for a full 6-deck shoe."""
    shoe = (24,) * 9 + (96,)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        compile_strategy(strategy, shoe)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    """Print a table of rounds per second by strategy, shoe and job count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    start = time.perf_counter()
    simulate(Rules(), StandOn(18), 200_000, seed=0, jobs=2)
    cold = time.perf_counter() - start
    strategies: list[tuple[str, Strategy]] = [
        ("table (stand-on:18 as a table)", TableStrategy.of(StandOn(18))),
        ("stand-on:18", StandOn(18)),
    ]
    print(
        f"rounds per second, {args.rounds:,} rounds, default rules, one seat, best of {args.repeat}"
    )
    print(f"{'strategy':32}  {'shoe':16}  {'jobs 1':>12}  {'jobs 2':>12}")
    for label, strategy in strategies:
        for shoe, penetration in (("fresh", None), ("penetration 0.75", 0.75)):
            rates = [rate(strategy, args.rounds, jobs, penetration, args.repeat) for jobs in (1, 2)]
            print(f"{label:32}  {shoe:16}  {rates[0]:>12,.0f}  {rates[1]:>12,.0f}")
    print(f"cold start of 2 workers plus 200,000 rounds: {cold:.2f} s")
    start = time.perf_counter()
    hand_space.cache_clear()
    hand_space()
    print(f"hand space (numbered hands and their tables): {time.perf_counter() - start:.3f} s")
    for label, strategy in strategies:
        seconds = compile_time(strategy, args.repeat)
        print(f"compiling {label} for 6 decks: {seconds * 1000:.1f} ms")


if __name__ == "__main__":
    main()
