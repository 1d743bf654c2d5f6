"""The compiled kernels against numpy in one run: issue 26's targets as ratios.

Run from the project folder with the package installed (the extension built):

    python benchmarks/bench_kernels.py [--repeat 5] [--quick]

Each case runs on both kernels, alternately (numpy, compiled, numpy, ...) so that both
see the same machine load, and prints a Markdown table of the medians and of the ratio
numpy / compiled (how many times faster the compiled path is).  In-process cases (the
dealer's fold, a later float solve) are timed by the process's CPU time, which a shared
machine disturbs less than the wall clock; whole commands run as their own processes
(``python -m solver``, start-up included, each in an empty cache folder) and are timed by
the wall clock, with their CPU time (the command and the workers it waited for) and
peak resident memory beside (the CPU time of ``--jobs 2`` counts the workers the command
waited for).  ``--quick`` leaves out ``cbj report`` (20-30 s a run); ``--rounds`` sets the
simulated rounds (5 M by default) and ``--samples`` the shoe states per depth (25, four
depths, by default).  The targets of those two are at 100 M rounds and 1,000 samples (about
30 s and 250 s on numpy); at the defaults, start-up, the workers' and the first solves,
the same on both kernels, hold the ratios down, so the target column shows the target
only at its own size.  The three heavy commands run once per kernel.
"""

from __future__ import annotations

import argparse
import inspect
import itertools
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from typing import NamedTuple

from command_timing import run_command

from solver.api import functions as api
from solver.exact import dealer, dealer_hands, kernel, shoe_states
from solver.exact.game import solve_game
from solver.exact.player_hands import hand_space
from solver.model.cards import VALUES, Shoe
from solver.model.rules import Rules

KERNELS = ("numpy", "compiled")
#: The sizes issue 26's shoe-state and simulation targets are set at.
SHOE_STATE_SAMPLES, SIMULATED_ROUNDS = 1_000, 100_000_000


class Run(NamedTuple):
    """One timed run: wall and CPU seconds, peak resident memory in MiB (0 in-process)."""

    wall: float
    cpu: float
    mib: float


def dealer_shoes() -> list[tuple[int, dealer_hands.IntArray]]:
    """Each Bonus card and the shoes the six-deck solve's dealer draws from with it."""
    counts = Shoe.full(6).value_counts()
    found = []
    for bonus in VALUES:
        base = tuple(n - (v == bonus) for v, n in enumerate(counts, start=1))
        roots = [tuple(int(v == p) for v in VALUES) for p in VALUES]
        found.append((bonus, hand_space(bonus, base, roots).draws))
    return found


def fold_inputs(
    shoes_by_bonus: list[tuple[int, dealer_hands.IntArray]],
) -> list[tuple[dealer_hands.DealerEnds, dealer.ShoeGroups, dealer_hands.FloatArray]]:
    """The six-deck solve's float folds: one per Bonus card, on its :func:`dealer_shoes`."""
    rules = Rules()
    inputs = []
    for bonus, shoes in shoes_by_bonus:
        ends = dealer_hands.dealer_ends(rules, bonus)
        groups = dealer._shoe_groups(shoes)
        rows = max(int(f.drawn.max(initial=0)) for f in ends.folds) + 1
        inputs.append((ends, groups, dealer._falling_floats(rows, int(shoes.max()))))
    return inputs


def shoe_state_solves(per_call: int = 8) -> Callable[[], object]:
    """Float solves of depleted six-deck shoes as a shoe-state study deals them, at its
    default depths: each call solves ``per_call`` states no call has dealt before, so that
    nothing kept for one shoe (its shoe groups, its hand spaces) is warm."""
    rules = Rules()
    depths = inspect.signature(api.shoe_states).parameters["depths"].default
    dealt = [shoe_states.cards_dealt(rules, d) for d in shoe_states.parse_depths(depths)]
    counter = itertools.count()

    def work() -> None:
        for _ in range(per_call):
            n = next(counter)
            depth = n % len(dealt)
            removed = shoe_states.deal_state(rules.decks, 1, depth, n // len(dealt), dealt[depth])
            solve_game(rules, removed, exact=False)

    return work


def in_process(work: Callable[[], object]) -> Callable[[], Run]:
    """A case timed by this process's CPU time (best of three calls, after a warm-up)."""

    def run() -> Run:
        work()
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            work()
            best = min(best, time.process_time() - start)
        return Run(best, best, 0.0)

    return run


def command(argv: list[str]) -> Callable[[], Run]:
    """A ``cbj`` command timed as its own process, in an empty cache folder."""

    def run() -> Run:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, CBJ_KERNEL=kernel.current())
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            done = run_command(argv, cache, env=env, cwd=cache)
        return Run(done.wall, done.cpu, done.peak_kib / 1024)

    return run


def cases(
    quick: bool, rounds: int, samples: int
) -> list[tuple[str, str, Callable[[], Run], float]]:
    """(name, what the ratio is of, the timed run, the target ratio) for each case."""
    shoes, rules = dealer_shoes(), Rules()
    folds = fold_inputs(shoes)
    found: list[tuple[str, str, Callable[[], Run], float]] = [
        (
            "the dealer's fold (10 Bonus cards, six decks, in-process)",
            "cpu",
            in_process(lambda: [dealer._fold(e, g, t, None) for e, g, t in folds]),
            8.0,
        ),
        (
            "the dealer's distributions as the solve computes them (fold and pricing, in-process)",
            "cpu",
            in_process(lambda: [dealer.dealer_probabilities(rules, b, s) for b, s in shoes]),
            0.0,
        ),
        ("later float solve, six decks (in-process)", "cpu", in_process(api.solve), 4.0),
        (
            "8 shoe states' solves, fresh depleted shoes (in-process)",
            "cpu",
            in_process(shoe_state_solves()),
            0.0,
        ),
        ("`cbj solve --no-cache`", "wall", command(["solve", "--no-cache"]), 0.0),
        ("`cbj solve --exact --no-cache`", "wall", command(["solve", "--exact", "--no-cache"]), 2),
        (
            f"`cbj shoe-states --samples {samples} --jobs 2 --seed 1`",
            "wall",
            command(["shoe-states", "--samples", str(samples), "--jobs", "2", "--seed", "1"]),
            4.0 if samples == SHOE_STATE_SAMPLES else 0.0,
        ),
        (
            f"`cbj simulate --rounds {rounds:,} --jobs 1`",
            "wall",
            command(["simulate", "--rounds", str(rounds), "--jobs", "1", "--seed", "1"]),
            5.0 if rounds == SIMULATED_ROUNDS else 0.0,
        ),
    ]
    if not quick:
        found.append(("`cbj report` (default sizes)", "wall", command(["report"]), 2.5))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each case per kernel")
    parser.add_argument("--quick", action="store_true", help="leave out cbj report")
    parser.add_argument("--rounds", type=int, default=5_000_000, help="simulated rounds")
    parser.add_argument("--samples", type=int, default=25, help="shoe states per depth")
    args = parser.parse_args()
    if not kernel.available():
        raise SystemExit("the compiled kernel is not built: pip install . with a C compiler")
    started = kernel.current()
    print(f"load average at the start: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    print(
        "| case | numpy: wall / CPU (s) | compiled: wall / CPU (s) | peak MiB numpy / "
        "compiled | numpy / compiled | target |"
    )
    print("|---|---|---|---|---|---|")
    for name, measure, run, target in cases(args.quick, args.rounds, args.samples):
        runs: dict[str, list[Run]] = {k: [] for k in KERNELS}
        heavy = name.startswith(("`cbj shoe", "`cbj sim", "`cbj rep"))
        for _ in range(1 if heavy else args.repeat):
            for name_of in KERNELS:
                kernel.use(name_of)
                runs[name_of].append(run())
        medians = {
            k: Run(*(statistics.median(getattr(r, f) for r in runs[k]) for f in Run._fields))
            for k in KERNELS
        }
        wall, cpu = (
            getattr(medians["numpy"], f) / getattr(medians["compiled"], f) for f in Run._fields[:2]
        )
        cells = [f"{medians[k].wall:.3f} / {medians[k].cpu:.3f}" for k in KERNELS]
        memory = " / ".join(f"{medians[k].mib:.0f}" for k in KERNELS)
        wanted = f"{target:g}x" if target else "-"
        ratios = f"{cpu:.2f}x" if measure == "cpu" else f"{wall:.2f}x / {cpu:.2f}x"
        print(f"| {name} | {cells[0]} | {cells[1]} | {memory} | {ratios} | {wanted} |", flush=True)
    kernel.use(started)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}", file=sys.stderr)


if __name__ == "__main__":
    main()
