"""Issue 37's solve targets on this checkout beside a baseline revision, in one run.

Run from the project folder with the package installed (the extensions built):

    python benchmarks/bench_baseline.py [--baseline main] [--repeat 5] [--samples 0]
                                        [--instructions]

The baseline revision is exported from git into a scratch folder and its extensions built
there in place (``setup.py build_ext --inplace``, the same flags as an install).  Each run
is a fresh process started alternately from the baseline's folder and from this checkout
(the folder first on ``sys.path``), so that both see the same machine load; each process
times, by its own CPU time (``time.process_time``), after its imports:

* the first float solve of the default game (six decks) in the process: the dealer's and
  the player's set-up included (``solve_game``: the game alone, without the session
  figures ``solver.solve`` adds from it);
* a later float solve (the median of five);
* a later exact solve (the median of three, after one);
* float solves of depleted six-deck shoes as a shoe-state study deals them (eight states
  no earlier call dealt, after eight as a warm-up), per state.

The table gives each figure's median over the runs on both sides and the ratio this /
baseline (below 1: faster).  ``--samples N`` also runs ``cbj shoe-states --samples N --jobs
2 --seed 1`` once a side (empty cache) and gives its CPU time per state.  ``--instructions``
counts instead the instructions of the first float solve and of a later one under
valgrind's callgrind (three probes a side, stopping after the imports, after the first
solve and after five more): a figure that the machine's load leaves alone.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from command_timing import run_command

ROOT = Path(__file__).resolve().parent.parent

#: What one probe process times (run with the side's folder first on sys.path).
PROBE = """
import itertools, json, statistics, sys, time
import solver.exact.player  # the solve's own imports, done before the clock starts
from solver.exact import shoe_states
from solver.exact.game import solve_game
from solver.model.rules import Rules

def cpu(work):
    start = time.process_time()
    work()
    return time.process_time() - start

def game(exact=False):
    return solve_game(Rules(), (), exact=exact)

found = {"first float solve": cpu(game) if sys.argv[1] != "imports" else 0.0}
if sys.argv[1] in ("float", "all"):
    found["later float solve"] = statistics.median(cpu(game) for _ in range(5))
if sys.argv[1] == "all":
    game(exact=True)
    found["later exact solve"] = statistics.median(
        cpu(lambda: game(exact=True)) for _ in range(3))
    rules = Rules()
    dealt = [shoe_states.cards_dealt(rules, d) for d in (0.25, 0.5, 0.75, 0.83)]
    counter = itertools.count()

    def states():
        for _ in range(8):
            n = next(counter)
            removed = shoe_states.deal_state(rules.decks, 1, n % 4, n // 4, dealt[n % 4])
            solve_game(rules, removed, exact=False)

    states()
    found["shoe state, per state"] = cpu(states) / 8
print(json.dumps({"file": solver.exact.player.__file__, **found}))
"""


def export(revision: str, folder: Path) -> None:
    """``revision`` of this repository in ``folder``, its extensions built in place."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
        cwd=folder,
        capture_output=True,
        check=True,
    )


def environment(folder: Path) -> dict[str, str]:
    """This process's environment with ``folder``'s package first on the path."""
    return dict(os.environ, PYTHONPATH=str(folder), CBJ_KERNEL="compiled")


def run_probe(folder: Path, script: str, *argv: str) -> dict[str, float]:
    """What a probe ``script`` (run with ``argv`` in a fresh process from ``folder``) prints
    last: a JSON object of timings, with the ``file`` of the solver it imported, which must
    be ``folder``'s."""
    done = subprocess.run(
        [sys.executable, "-c", script, *argv],
        env=environment(folder),
        cwd=folder,
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    if not found.pop("file").startswith(str(folder)):
        raise SystemExit(f"the probe in {folder} imported another checkout's solver")
    return {name: float(value) for name, value in found.items()}


def probe(folder: Path, which: str) -> dict[str, float]:
    """One fresh process's timings from ``folder`` (``which``: ``all`` or ``float``)."""
    return run_probe(folder, PROBE, which)


def instructions(folder: Path, which: str) -> int:
    """Instructions one probe process runs from ``folder`` under callgrind: ``imports``
    only, the ``first`` float solve after them, or ``float`` (that and five later)."""
    python_probe = [sys.executable, "-c", PROBE, which]
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch, "callgrind.out")
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *python_probe],
            env=dict(environment(folder), OPENBLAS_NUM_THREADS="1"),
            cwd=folder,
            capture_output=True,
            check=True,
        )
        for line in out.read_text().splitlines():
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise SystemExit("callgrind gave no total")


def solve_instructions(folder: Path) -> dict[str, float]:
    """Instructions (millions) of the first float solve and of a later one from ``folder``:
    the differences between probes that stop after the imports, the first solve and five
    more."""
    imports, first, five = (instructions(folder, w) for w in ("imports", "first", "float"))
    return {"first float solve": (first - imports) / 1e6, "later float solve": (five - first) / 5e6}


def shoe_state_command(folder: Path, samples: int) -> float:
    """CPU seconds per state of ``cbj shoe-states --samples N --jobs 2`` from ``folder``."""
    argv = ["shoe-states", "--samples", str(samples), "--jobs", "2", "--seed", "1"]
    with tempfile.TemporaryDirectory() as cache:
        env = environment(folder)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        done = run_command(argv, cache, env=env, cwd=cache)
    return done.cpu / (4 * samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="main", help="git revision to compare with")
    parser.add_argument("--repeat", type=int, default=5, help="processes a side")
    parser.add_argument("--samples", type=int, default=0, help="shoe-states command's size")
    parser.add_argument("--instructions", action="store_true", help="count instructions")
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        export(args.baseline, base)
        sides = {args.baseline: base, "this checkout": ROOT}
        if args.instructions:
            counts = {name: solve_instructions(folder) for name, folder in sides.items()}
            print(f"| case (instructions, millions) | {args.baseline} | this checkout | ratio |")
            print("|---|---|---|---|")
            for case, base_count in counts[args.baseline].items():
                mine = counts["this checkout"][case]
                print(f"| {case} | {base_count:.1f} | {mine:.1f} | {mine / base_count:.2f}x |")
            return
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
        for _ in range(args.repeat):
            for name, folder in sides.items():
                runs[name].append(probe(folder, "all"))
        if args.samples:
            for name, folder in sides.items():
                runs[name][0][f"`cbj shoe-states --samples {args.samples}`, per state"] = (
                    shoe_state_command(folder, args.samples)
                )
    print(f"| case (CPU ms, medians of {args.repeat}) | {args.baseline} | this checkout | ratio |")
    print("|---|---|---|---|")
    for case in runs["this checkout"][0]:
        theirs, ours = (
            statistics.median(run[case] for run in runs[name] if case in run) * 1e3
            for name in sides
        )
        print(f"| {case} | {theirs:.1f} | {ours:.1f} | {ours / theirs:.2f}x |")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}", file=sys.stderr)


if __name__ == "__main__":
    main()
