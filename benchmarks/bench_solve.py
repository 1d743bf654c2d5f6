"""Time whole `cbj` commands as a user runs them: wall time, CPU time and peak memory.

Run from the project folder with the package installed:

    python benchmarks/bench_solve.py [--repeat 5] [--baseline /path/to/old/checkout]

Prints Markdown tables for docs/performance.md.  Every command runs as its own process
(Python start-up and imports included), timed by the wall clock and by the CPU time (user
+ system) the operating system reports for it, which other processes on a shared machine
disturb much less than the wall time.  Every cold run uses a fresh, empty cache folder,
and the cached run reads back what a first run stored.  With ``--baseline`` the same
commands are also run from another checkout of the project (``python -m solver`` with that
folder first on the path), interleaved with this one's runs so that both see the same
machine load.  Bytecode is written and reused as in a normal installation (the variable
``PYTHONDONTWRITEBYTECODE`` is removed for the timed commands).  A last table times the
solver alone, in-process, per player hand composition, for 1, 6 and 8 decks.

The commands run in a throwaway virtual environment that sees this interpreter's
packages (a ``.pth`` line naming its site-packages) but not the import hook of an
editable install (``pip install -e .`` adds one that loads pathlib, fnmatch and
urllib.parse at every start, about a tenth of ``cbj rules``; a user's ``pip install .``
has none).  ``--editable`` times this interpreter as it is instead.  ``--startup`` times
only the start-up cases (a cache hit, ``cbj rules``, ``cbj --help``) and skips the
per-composition table.  ``--instructions`` counts the instructions each command executes
under valgrind's cachegrind instead of timing it: a figure that a loaded machine leaves
alone, though it weighs a file read or an OpenSSL hash differently from the clock.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import NamedTuple

from command_timing import run_command

ROOT = Path(__file__).resolve().parent.parent

CASES = [
    ("float solve, cold", ["solve", "--no-cache"], 0.30),
    ("float solve, cold, --jobs 2", ["solve", "--no-cache", "--jobs", "2"], None),
    ("exact solve, cold", ["solve", "--no-cache", "--exact"], 1.2),
    ("exact solve, cold, --jobs 2", ["solve", "--no-cache", "--exact", "--jobs", "2"], None),
    ("float solve, repeated (cache hit)", ["solve"], 0.15),
    ("rules table", ["rules"], 0.12),
    ("help", ["--help"], None),
    ("dealer tables, JSON", ["dealer", "--format", "json"], None),
]
STARTUP_CASES = {"float solve, repeated (cache hit)", "rules table", "help"}
MEMORY_TARGET_MIB = 200


class Timing(NamedTuple):
    """One command's wall seconds, CPU seconds (user + system) and peak memory (KiB)."""

    wall: float
    cpu: float
    peak: int


def installed_python(folder: Path) -> Path:
    """The interpreter of a new virtual environment in ``folder`` that sees this one's
    packages but none of its ``.pth`` files (so no editable install's import hook)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    query = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    purelib = subprocess.run(
        [python, "-c", query], capture_output=True, text=True, check=True
    ).stdout.strip()
    ours = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    Path(purelib, "borrowed-packages.pth").write_text("".join(f"{p}\n" for p in ours))
    return python


def command_env(cache: str, checkout: Path) -> dict[str, str]:
    """The environment of a timed command: its cache folder and checkout."""
    env = dict(os.environ, CBJ_CACHE_DIR=cache, PYTHONPATH=str(checkout))
    # A user's Python keeps compiled bytecode: without it every run recompiles the package.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_once(argv: list[str], cache: str, checkout: Path, python: Path) -> Timing:
    """The timing of one command, as its own process."""
    done = run_command(argv, cache, env=command_env(cache, checkout), python=python, cwd=checkout)
    return Timing(*done)


def time_command(argv: list[str], checkout: Path, python: Path) -> Timing:
    """One timed run in a fresh cache folder (filled first when timing a cache hit)."""
    with tempfile.TemporaryDirectory() as cache:
        if argv == ["solve"]:
            run_once(argv, cache, checkout, python)
        return run_once(argv, cache, checkout, python)


def instructions(argv: list[str], checkout: Path, python: Path) -> int:
    """Instructions one command executes, counted by valgrind (a busy machine changes
    them little: string hashing is seeded alike, bytecode is compiled beforehand)."""
    valgrind = ["valgrind", "--tool=cachegrind", "--cache-sim=no"]
    valgrind.append("--cachegrind-out-file=/dev/null")
    with tempfile.TemporaryDirectory() as cache:
        run_once(argv, cache, checkout, python)  # bytecode, and the entry a cache hit reads
        done = subprocess.run(
            [*valgrind, str(python), "-m", "solver", *argv],
            env=dict(command_env(cache, checkout), PYTHONHASHSEED="0"),
            cwd=checkout,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=True,
        )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count from valgrind: {done.stderr[-300:]}")
    return int(found[1].replace(",", ""))


def instruction_counts(baseline: Path | None, python: Path, startup: bool) -> None:
    """The table of instructions per command, with the baseline's beside when given."""
    print("| command | instructions (millions) |" + (" before | change |" if baseline else ""))
    print("|---|---|" + ("---|---|" if baseline else ""))
    for label, argv, _ in CASES:
        if startup and label not in STARTUP_CASES:
            continue
        count = instructions(argv, ROOT, python)
        line = f"| `cbj {' '.join(argv)}` ({label}) | {count / 1e6:.1f} |"
        if baseline is not None:
            old = instructions(argv, baseline, python)
            line += f" {old / 1e6:.1f} | {100 * (count - old) / old:+.1f}% |"
        print(line, flush=True)


def commands(repeat: int, baseline: Path | None, python: Path, startup: bool) -> None:
    """The whole-command table, with the baseline's figures beside when given."""
    head = (
        "| command | median wall (s) | best (s) | median CPU (s) | peak memory (MiB) "
        "| target (s) | met |"
    )
    rule = "|---|---|---|---|---|---|---|"
    if baseline is not None:
        head += " before: median wall (s) | before: CPU (s) | before: peak (MiB) | speed-up |"
        rule += "---|---|---|---|"
    print(head)
    print(rule)
    for checkout in [ROOT] if baseline is None else [ROOT, baseline]:
        for argv in (["rules"], ["solve"]):  # compile and store the bytecode first
            time_command(argv, checkout, python)
    for label, argv, target in CASES:
        if startup and label not in STARTUP_CASES:
            continue
        runs: list[Timing] = []
        old_runs: list[Timing] = []
        for _ in range(repeat):
            runs.append(time_command(argv, ROOT, python))
            if baseline is not None:
                old_runs.append(time_command(argv, baseline, python))
        median = statistics.median(t.wall for t in runs)
        met = "" if target is None else ("yes" if median <= target else "NO")
        mib = max(t.peak for t in runs) / 1024
        if mib > MEMORY_TARGET_MIB:
            met += f" (memory over {MEMORY_TARGET_MIB} MiB)"
        line = (
            f"| `cbj {' '.join(argv)}` ({label}) | {median:.3f} | "
            f"{min(t.wall for t in runs):.3f} | {statistics.median(t.cpu for t in runs):.3f} | "
            f"{mib:.0f} | {'-' if target is None else target} | {met or '-'} |"
        )
        if baseline is not None:
            old = statistics.median(t.wall for t in old_runs)
            line += (
                f" {old:.3f} | {statistics.median(t.cpu for t in old_runs):.3f} | "
                f"{max(t.peak for t in old_runs) / 1024:.0f} | {old / median:.1f}x |"
            )
        print(line, flush=True)


def per_composition(repeat: int) -> None:
    """Solver time alone (imports excluded, first run included) per hand composition."""
    script = """
import statistics, sys, time
import solver.exact.player  # the solver's lazily imported modules and numpy: not timed
from solver.exact.game import solve_game
from solver.model.rules import Rules
decks, exact, repeat = int(sys.argv[1]), sys.argv[2] == "exact", int(sys.argv[3])
times, cpu = [], []
for _ in range(repeat):
    start, start_cpu = time.perf_counter(), time.process_time()
    game = solve_game(Rules(decks=decks), exact=exact)
    times.append(time.perf_counter() - start)
    cpu.append(time.process_time() - start_cpu)
hands = sum(len(s.space.hands) for s in game.solutions.values())
later = statistics.median(times[1:]) if repeat > 1 else times[0]
print(times[0], later, cpu[0], hands)
"""
    print(
        "| game | arithmetic | first solve (s) | later, median (s) | first solve, CPU (s) "
        "| hands | µs per hand |"
    )
    print("|---|---|---|---|---|---|---|")
    for decks in (1, 6, 8):
        for arithmetic in ("float", "exact"):
            output = subprocess.run(
                [sys.executable, "-c", script, str(decks), arithmetic, str(repeat)],
                capture_output=True,
                text=True,
                check=True,
                cwd=ROOT,
                env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},  # as `cbj` sets it
            ).stdout.split()
            first, later, cpu, hands = map(float, output)
            print(
                f"| {decks} deck{'s' if decks > 1 else ''} | {arithmetic} | {first:.3f} | "
                f"{later:.3f} | {cpu:.3f} | {hands:.0f} | {first / hands * 1e6:.0f} |",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another checkout to time alongside")
    parser.add_argument(
        "--editable",
        action="store_true",
        help="run the commands with this interpreter as it is (an editable install's hook "
        "included) instead of a throwaway environment without one",
    )
    parser.add_argument(
        "--startup",
        action="store_true",
        help="only the start-up cases (cache hit, rules, help); no per-composition table",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count each command's instructions under valgrind instead of timing it",
    )
    args = parser.parse_args()
    load = os.getloadavg()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; load average at start {load[0]:.2f}; "
        f"{'this interpreter' if args.editable else 'an environment without the editable hook'}"
    )
    print()
    with tempfile.TemporaryDirectory() as folder:
        python = Path(sys.executable) if args.editable else installed_python(Path(folder))
        if args.instructions:
            instruction_counts(args.baseline, python, args.startup)
        else:
            commands(args.repeat, args.baseline, python, args.startup)
    if not args.startup and not args.instructions:
        print()
        per_composition(args.repeat)
    print()
    print(f"load average at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
