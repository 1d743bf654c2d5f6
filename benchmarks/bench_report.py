"""The PAR report's time: its rendering in-process, and `cbj report` warm and cold.

Run from the project folder with the package installed (the extensions built):

    python benchmarks/bench_report.py [--repeat 3] [--cold] [--baseline DIR [--baseline-python PY]]

Cases, each timed by CPU time (user + system), which a shared machine disturbs less than
the wall clock (printed beside):

* rendering the default report (six decks, default sizes) in a process that has built its
  figures from a filled cache: the first PDF (matplotlib and reportlab imported on the way,
  as a command imports them), a later PDF and a later HTML page, each from a freshly built
  report (nothing drawn for one rendering is reused by the next);
* `cbj report -o report.pdf` and `cbj report -o report.html` as their own processes with
  a filled cache (a first run fills it; "warm");
* with ``--cold``, `cbj report -o report.pdf` in an empty cache folder (20-60 s a run).

``--baseline DIR`` times another checkout alongside, run for run (``git worktree add DIR
main``, its extensions built in place with ``python setup.py build_ext --inplace``),
from its folder with ``PYTHONPATH=DIR``; ``--baseline-python`` is the interpreter for it
when its dependencies differ from this one's (a virtual environment of its own). The
ratio column is the baseline's median CPU time over this checkout's. Bytecode is written
and reused as by an installation (``PYTHONDONTWRITEBYTECODE`` is removed).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

from command_timing import run_command

ROOT = Path(__file__).resolve().parent.parent
#: The date every report here prints, so that the runs write the same bytes.
EPOCH = "1767225600"

#: Builds the default report's figures from the cache folder ``argv[1]`` and prints the
#: CPU and wall seconds of a first PDF, a later PDF and a later HTML rendering, each of a
#: freshly built report.
RENDER = """
import sys, time
from solver.model.rules import Rules
from solver.present.report import build_report, render_html, render_pdf
from solver.store.disk import DiskCache
from solver.studies.report import report_figures

figures = report_figures(Rules(), cache=DiskCache(sys.argv[1]))
for render in (render_pdf, render_pdf, render_html):
    report = build_report(figures)
    cpu, wall = time.process_time(), time.perf_counter()
    render(report)
    print(time.process_time() - cpu, time.perf_counter() - wall)
"""


class Timing(NamedTuple):
    """CPU and wall seconds of one run."""

    cpu: float
    wall: float


class Checkout(NamedTuple):
    """A checkout to time: its folder and the interpreter that runs it."""

    folder: Path
    python: Path


def environment(checkout: Checkout) -> dict[str, str]:
    """A timed process's environment: the checkout on the path, bytecode kept, a fixed date."""
    env = dict(os.environ, PYTHONPATH=str(checkout.folder), SOURCE_DATE_EPOCH=EPOCH)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def report(checkout: Checkout, cache: str, output: str) -> Timing:
    """One `cbj report -o OUTPUT` as its own process with ``cache`` as its cache folder."""
    done = run_command(
        ["report", "-o", output],
        cache,
        env=environment(checkout),
        python=checkout.python,
        cwd=checkout.folder,
    )
    return Timing(done.cpu, done.wall)


def renderings(checkout: Checkout, cache: str) -> list[Timing]:
    """The first PDF, a later PDF and a later HTML rendering, in one process."""
    done = subprocess.run(
        [str(checkout.python), "-c", RENDER, cache],
        env=environment(checkout),
        cwd=checkout.folder,
        capture_output=True,
        text=True,
        check=True,
    )
    return [Timing(*map(float, line.split())) for line in done.stdout.splitlines()]


CASES = (
    "rendering: first PDF in the process (imports included)",
    "rendering: a later PDF",
    "rendering: a later HTML page",
    "`cbj report -o report.pdf`, warm",
    "`cbj report -o report.html`, warm",
    "`cbj report -o report.pdf`, cold (empty cache)",
)


def one_round(checkout: Checkout, cold: bool) -> list[Timing]:
    """Every case once for ``checkout``, in the order of :data:`CASES`."""
    with tempfile.TemporaryDirectory() as folder:
        cache = str(Path(folder) / "cache")
        pdf, html = str(Path(folder) / "report.pdf"), str(Path(folder) / "report.html")
        first = report(checkout, cache, pdf)  # fills the cache: a cold run
        found = renderings(checkout, cache)
        found += [report(checkout, cache, pdf), report(checkout, cache, html)]
    return found + ([first] if cold else [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="rounds of every case")
    parser.add_argument("--cold", action="store_true", help="report the cold runs too")
    parser.add_argument("--baseline", type=Path, help="another checkout, timed alongside")
    parser.add_argument("--baseline-python", type=Path, default=Path(sys.executable))
    args = parser.parse_args()
    checkouts = [Checkout(ROOT, Path(sys.executable))]
    if args.baseline is not None:
        checkouts.append(Checkout(args.baseline.resolve(), args.baseline_python))
    runs: list[list[list[Timing]]] = [[] for _ in checkouts]
    load = os.getloadavg()[0]
    for _ in range(args.repeat):
        for n, checkout in enumerate(checkouts):
            runs[n].append(one_round(checkout, args.cold))
    print(f"load average {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end; "
          f"medians of {args.repeat} runs, CPU / wall seconds")  # fmt: skip
    print()
    both = len(runs) > 1
    print(
        "| case | CPU / wall (s) |"
        + (" baseline: CPU / wall (s) | baseline / this |" if both else "")
    )
    print("|---|---|" + ("---|---|" if both else ""))
    for c, case in enumerate(CASES[: len(runs[0][0])]):
        cpu = [statistics.median(r[c].cpu for r in checkout) for checkout in runs]
        wall = [statistics.median(r[c].wall for r in checkout) for checkout in runs]
        line = f"| {case} | {cpu[0]:.2f} / {wall[0]:.2f} |"
        if both:
            line += f" {cpu[1]:.2f} / {wall[1]:.2f} | {cpu[1] / cpu[0]:.2f}x |"
        print(line, flush=True)


if __name__ == "__main__":
    main()
