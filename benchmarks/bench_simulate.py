"""Rounds per second of ``solver.sim`` on both kernels (default rules, one seat).

Run from the project folder: ``python benchmarks/bench_simulate.py [--rounds N]
[--command-rounds N] [--counter-rounds N] [--repeat N] [--only-counter]``.  In-process
figures are the best of ``--repeat`` runs after one warm-up run per job count, so worker
start-up is left out (it is timed separately, as "cold"), timed by the wall clock and by
this process's CPU time (``jobs 1`` only: a worker's CPU is not this process's).  The
whole command ``cbj simulate --rounds N --jobs 1`` (issue 26's target: 100 M rounds,
optimal play, a cut card at 0.75) then runs as its own process on each kernel, its rounds
per second by the wall clock and by its CPU time (start-up and the exact solve included).
Compiling a strategy into its lookup array, which every simulation does once, is timed on
its own too.  The load average is printed beside each table: on a loaded machine the CPU
figures are the ones to compare.

Last, a counter playing index plays: ``cbj simulate --counter best-level-2 --indices
--strategy chart --seed 1`` at 200,000 rounds and at ``--counter-rounds`` on each kernel,
the dealt-shoe study that finds the plays stored first (so neither run pays for it).  It
checks that both kernels print the same JSON at 200,000 rounds and prints the whole
command's CPU and the dealing's own rate (the extra rounds over the extra CPU seconds).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from command_timing import run_command

from solver.exact import kernel
from solver.model.rules import Rules
from solver.sim import StandOn, Strategy, TableStrategy, simulate
from solver.sim import kernel as sim_kernel
from solver.sim.hands import hand_space
from solver.sim.strategies import compile_strategy

KERNELS = ("numpy", "compiled")


def rate(
    strategy: Strategy, rounds: int, jobs: int, penetration: float | None, repeat: int
) -> tuple[float, float]:
    """Best rounds per second over ``repeat`` runs, by the wall clock and by CPU time."""
    best_wall = best_cpu = 0.0
    for i in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        simulate(Rules(), strategy, rounds, seed=i, penetration=penetration, jobs=jobs)
        best_wall = max(best_wall, rounds / (time.perf_counter() - start))
        best_cpu = max(best_cpu, rounds / (time.process_time() - cpu))
    return best_wall, best_cpu


def compile_time(strategy: Strategy, repeat: int) -> float:
    """Best seconds to compile ``strategy`` for a full 6-deck shoe."""
    shoe = (24,) * 9 + (96,)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        compile_strategy(strategy, shoe)
        best = min(best, time.perf_counter() - start)
    return best


def load() -> str:
    """The 1-minute load average, for the record beside a figure."""
    return f"{os.getloadavg()[0]:.2f}"


#: The counter playing index plays, as the command's options (rounds added per run).
COUNTER = ["simulate", "--counter", "best-level-2", "--indices", "--strategy", "chart"]
COUNTER += ["--seed", "1", "--format", "json"]


def counter_with_indices(rounds: int, repeat: int) -> None:
    """Print the index-playing counter's cost on each kernel; check their JSON is the same."""
    few = 200_000
    print(f"\n`cbj {' '.join(COUNTER)} --rounds N`, whole command, best of {repeat}")
    with tempfile.TemporaryDirectory() as cache:
        study = run_command([*COUNTER, "--rounds", "1000"], cache)  # stores the dealt shoes
        print(f"the dealt-shoe study, stored first: {study.cpu:.1f} s CPU (load {load()})")
        printed = {}
        for name in KERNELS:
            env = dict(os.environ, CBJ_KERNEL=name, CBJ_CACHE_DIR=cache)
            argv = [sys.executable, "-m", "solver", *COUNTER, "--rounds", str(few)]
            printed[name] = subprocess.run(
                argv, env=env, capture_output=True, text=True, check=True
            ).stdout
        same = printed["numpy"] == printed["compiled"]
        print(f"JSON at {few:,} rounds: {'the same' if same else 'DIFFERENT'} on both kernels")
        for name in KERNELS:
            env = dict(os.environ, CBJ_KERNEL=name)
            before = load()
            cpu = {
                n: min(
                    run_command([*COUNTER, "--rounds", str(n)], cache, env).cpu
                    for _ in range(repeat)
                )
                for n in (few, rounds)
            }
            dealing = (rounds - few) / (cpu[rounds] - cpu[few])
            print(
                f"{name:9}  {few:,} rounds {cpu[few]:5.2f} s CPU, {rounds:,} rounds "
                f"{cpu[rounds]:6.2f} s CPU: {dealing / 1e6:5.2f} M rounds/s dealt (CPU)  "
                f"load {before} before, {load()} after",
                flush=True,
            )


def main() -> None:
    """Print tables of rounds per second by kernel, strategy, shoe and job count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--command-rounds", type=int, default=100_000_000)
    parser.add_argument("--counter-rounds", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--only-counter", action="store_true", help="only the counter playing index plays"
    )
    args = parser.parse_args()
    if args.only_counter:
        counter_with_indices(args.counter_rounds, args.repeat)
        return
    started = kernel.current()

    start = time.perf_counter()
    simulate(Rules(), StandOn(18), 200_000, seed=0, jobs=2)
    cold = time.perf_counter() - start
    strategies: list[tuple[str, Strategy]] = [
        ("table (stand-on:18 as a table)", TableStrategy.of(StandOn(18))),
        ("stand-on:18", StandOn(18)),
    ]
    print(
        f"rounds per second, {args.rounds:,} rounds, default rules, one seat, best of "
        f"{args.repeat}; load {load()} at the start"
    )
    print(
        f"{'kernel':9}  {'strategy':32}  {'shoe':16}  {'jobs 1 wall':>12}  {'jobs 1 CPU':>12}"
        f"  {'jobs 2 wall':>12}"
    )
    for label, strategy in strategies:
        for shoe, penetration in (("fresh", None), ("penetration 0.75", 0.75)):
            for name in KERNELS:
                kernel.use(name)
                one = rate(strategy, args.rounds, 1, penetration, args.repeat)
                two = rate(strategy, args.rounds, 2, penetration, args.repeat)
                print(
                    f"{sim_kernel.current():9}  {label:32}  {shoe:16}  {one[0]:>12,.0f}  "
                    f"{one[1]:>12,.0f}  {two[0]:>12,.0f}",
                    flush=True,
                )
    print(f"load {load()} at the end")
    kernel.use(started)
    print(f"cold start of 2 workers plus 200,000 rounds: {cold:.2f} s")
    start = time.perf_counter()
    hand_space.cache_clear()
    hand_space()
    print(f"hand space (numbered hands and their tables): {time.perf_counter() - start:.3f} s")
    for label, strategy in strategies:
        seconds = compile_time(strategy, args.repeat)
        print(f"compiling {label} for 6 decks: {seconds * 1000:.1f} ms")

    rounds = args.command_rounds
    argv = ["simulate", "--rounds", str(rounds), "--jobs", "1", "--seed", "1"]
    print(f"\n`cbj {' '.join(argv)}`, whole command, once per kernel")
    figures = {}
    for name in KERNELS:
        os.environ["CBJ_KERNEL"] = name
        before = load()
        with tempfile.TemporaryDirectory() as cache:
            run = run_command(argv, cache)
        figures[name] = run
        print(
            f"{name:9}  {run.wall:8.1f} s wall  {run.cpu:8.1f} s CPU  "
            f"{rounds / run.wall / 1e6:6.2f} M rounds/s wall  "
            f"{rounds / run.cpu / 1e6:6.2f} M rounds/s CPU  peak {run.peak_kib / 1024:.0f} MiB  "
            f"load {before} before, {load()} after",
            flush=True,
        )
    kernel.use(started)
    slow, fast = figures["numpy"], figures["compiled"]
    print(f"compiled / numpy: {slow.wall / fast.wall:.2f}x wall, {slow.cpu / fast.cpu:.2f}x CPU")
    counter_with_indices(args.counter_rounds, args.repeat)


if __name__ == "__main__":
    main()
