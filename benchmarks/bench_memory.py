"""Peak memory of the shoe-states study against its number of samples (issue 27).

Run from the project folder with the package installed:

    python benchmarks/bench_memory.py [--samples 10000,100000,1000000,10000000] [--depths 4]

Each size runs in its own process, which reports its peak resident memory.  Solving 10^7
shoes would take weeks, so each state's solve is replaced by a stand-in that returns
figures made from the state's place alone (a few microseconds): what is measured is
everything around the solves (the tasks, the results and the summaries), the part whose
memory could grow with the samples.  Prints a Markdown table for docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import time


def stand_in(plan: object, depth_index: int, sample: int, dealt: int) -> tuple[float, ...]:
    """Figures for one state without solving it: fixed by its place, spread like real ones."""
    mixed = (sample * 2_654_435_761 + depth_index * 40_503 + dealt) % 1_000_003
    count = mixed / 100_000 - 5
    main = -0.05 + count / 200 + (mixed % 97) / 10_000
    return (count, main, main + 0.1, main + 0.1 + (mixed % 13 - 6) / 10_000)


def child(samples: int, depths: int) -> None:
    """Run one study with the stand-in solve; print its peak memory (KiB) and seconds."""
    from solver.exact import shoe_states
    from solver.exact.protection import RoundEffects
    from solver.model.counts import system_tags
    from solver.model.rules import Rules

    shoe_states.solve_state = stand_in  # type: ignore[assignment]
    effects = RoundEffects(
        Rules(decks=6), -0.01, -0.05, dict.fromkeys(("A", *"23456789", "T", "J", "Q", "K"), 0.0)
    )
    start = time.perf_counter()
    study = shoe_states.study_shoe_states(
        effects,
        shoe_states.DEFAULT_DEPTHS[:depths],
        samples,
        7,
        "hi-lo",
        system_tags("hi-lo"),
    )
    elapsed = time.perf_counter() - start
    assert len(study.depths) == depths
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(peak, f"{elapsed:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", default="10000,100000,1000000,10000000")
    parser.add_argument("--depths", type=int, default=4)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child is not None:
        child(arguments.child, arguments.depths)
        return
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load {os.getloadavg()}")
    print(f"\n| samples per depth | states ({arguments.depths} depths) | peak RSS | time |")
    print("|---:|---:|---:|---:|")
    for samples in (int(n) for n in arguments.samples.split(",")):
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(samples), "--depths", str(arguments.depths)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        peak, seconds = int(out[0]), out[1]
        states = samples * arguments.depths
        print(f"| {samples:,} | {states:,} | {peak / 1024:.0f} MiB | {seconds} s |", flush=True)


if __name__ == "__main__":
    main()
