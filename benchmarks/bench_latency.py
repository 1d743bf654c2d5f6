"""Issue 49's latencies on this checkout beside a baseline revision, in one run.

Run from the project folder with the package installed (the extensions built):

    python benchmarks/bench_latency.py [--baseline main] [--repeat 3] [--after 3]
                                       [--only solve,command,report,workbench]

The baseline revision is exported from git into a scratch folder with its extensions built
in place (as ``bench_baseline.py`` does); every case runs alternately from either folder
(``PYTHONPATH``, same interpreter), so both sides see the same load, which is printed
beside each case (the load average before and after it).  The cases:

* ``solve``: a new game (rules not solved before in the process) through ``solver.solve``
  against the game alone (``solve_game``), alternating in one process after a warm-up:
  the ratio of the medians of CPU time (15 of each);
* ``command``: ``cbj solve --no-cache`` as its own process (bytecode compiled, as an
  install leaves it): CPU seconds;
* ``report``: ``cbj report -o report.pdf`` and ``-o report.html`` in an empty cache folder
  (each its own cache): CPU seconds of the PDF's run; the two sides' HTML must be the same
  bytes once the commit named in it is left out (it includes the figures hash);
* ``workbench``: ``cbj serve`` on a free port with an empty cache folder, a fresh server
  for each figure, timed by the wall clock from the moment the server says it is ready
  (its "the workbench is at" line) to the answer a page's script waits for: the Game
  page's figures (``POST /api/game`` until ``ready``), a practice session's first hand
  (``POST /api/practice`` with ``play=start``), a paytable solve's pay (``POST /paytable``,
  then its page until the pay shows) and the chart's PNG (``POST /chart/chart.png``, then
  its address until the PNG comes).  Each figure is asked at once and, on another fresh
  server, ``--after`` seconds later (a visitor reading the first page); the time to the
  ready line from the command's start is given too.

Every table gives medians of ``--repeat`` runs a side, and the ratio this / baseline.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx2 as httpx
from bench_baseline import export, run_probe
from command_timing import run_command

ROOT = Path(__file__).resolve().parent.parent
#: The date every report here prints, so that both sides write the same bytes.
EPOCH = "1767225600"
CASES = ("solve", "command", "report", "workbench")

#: Times, in one process, new games through solver.solve and solve_game, alternately.
SOLVE_PROBE = """
import itertools, json, statistics, time
import solver
from solver.exact.game import solve_game
from solver.model.rules import Paytable, Rules
pays = itertools.count(30)
def fresh():  # a paytable not solved before: a new game to every cache
    return Rules(paytable=Paytable.parse(f"{next(pays)}:5:1"))
def cpu(work):
    start = time.process_time()
    work()
    return time.process_time() - start
solve_game(fresh()); solver.solve(rules=fresh())
alone, through = [], []
for _ in range(15):
    alone.append(cpu(lambda: solve_game(fresh())))
    through.append(cpu(lambda: solver.solve(rules=fresh())))
print(json.dumps({"file": solver.__file__, "solve_game": statistics.median(alone),
                  "solver.solve": statistics.median(through)}))
"""


def exported(revision: str, folder: Path) -> None:
    """``revision`` in ``folder`` as ``bench_baseline.py`` exports it (extensions built in
    place), its bytecode compiled as an install leaves it."""
    export(revision, folder)
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(folder / "solver")],
        capture_output=True,
        check=True,
    )


def environment(folder: Path, cache: str | None = None) -> dict[str, str]:
    """An environment with ``folder``'s package first on the path, bytecode kept (as an
    install leaves it), a fixed date, and ``cache`` as the cache folder."""
    env = dict(os.environ, PYTHONPATH=str(folder), CBJ_KERNEL="compiled", SOURCE_DATE_EPOCH=EPOCH)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if cache is not None:
        env["CBJ_CACHE_DIR"] = cache
    return env


def load() -> float:
    """The one-minute load average."""
    return os.getloadavg()[0]


def solve_ratio(folder: Path) -> float:
    """``solver.solve`` of a new game over ``solve_game`` of one, from ``folder``."""
    found = run_probe(folder, SOLVE_PROBE)
    return found["solver.solve"] / found["solve_game"]


def solve_command(folder: Path) -> float:
    """CPU seconds of a cold ``cbj solve --no-cache`` from ``folder``."""
    with tempfile.TemporaryDirectory() as cache:
        return run_command(["solve", "--no-cache"], cache, environment(folder), cwd=folder).cpu


#: What differs between two checkouts' reports of the same figures: the commit named.
COMMIT = re.compile(r",? ?commit [0-9a-f]{7,40}(-dirty)?")


def report(folder: Path, kept: Path) -> float:
    """CPU seconds of a cold ``cbj report -o report.pdf`` from ``folder``; the HTML of a
    cold run is left in ``kept`` (its commit left out)."""
    with tempfile.TemporaryDirectory() as cache:
        output = str(Path(cache, "report.pdf"))
        cpu = run_command(["report", "-o", output], cache, environment(folder), cwd=folder).cpu
    with tempfile.TemporaryDirectory() as cache:
        page = Path(cache, "report.html")
        run_command(["report", "-o", str(page)], cache, environment(folder), cwd=folder)
        kept.write_text(COMMIT.sub("", page.read_text(encoding="utf-8")), encoding="utf-8")
    return cpu


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def server(folder: Path) -> Iterator[tuple[str, float, float]]:
    """``cbj serve`` from ``folder`` in an empty cache folder: its address, the seconds
    from its start to its ready line and the moment (``perf_counter``) of that line."""
    port = free_port()
    with tempfile.TemporaryDirectory() as cache:
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "solver", "serve", "--port", str(port)],
            env=environment(folder, cache),
            cwd=folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert process.stderr is not None
            said = ""
            while "the workbench is at" not in said:
                ready, _, _ = select.select([process.stderr], [], [], 60)
                if not ready or process.poll() is not None:
                    raise SystemExit(f"cbj serve from {folder} did not start: {said!r}")
                said += process.stderr.readline()
            at = time.perf_counter()
            yield f"http://127.0.0.1:{port}", at - started, at
        finally:
            process.terminate()
            process.wait(timeout=30)


def until(ask: Callable[[], bool], seconds: float = 120) -> None:
    """Ask again every 10 ms until ``ask()`` says yes (at most ``seconds``)."""
    deadline = time.perf_counter() + seconds
    while not ask():
        if time.perf_counter() > deadline:
            raise SystemExit("no answer in time")
        time.sleep(0.01)


def first_figures(client: httpx.Client) -> None:
    """The Game page's figures, as its script asks for them."""
    until(lambda: client.post("/api/game").json()["status"] == "ready")


def practice_start(client: httpx.Client) -> None:
    """A practice session's first hand, as the Start button asks for it."""
    until(lambda: client.post("/api/practice", data={"play": "start"}).json()["status"] == "ready")


def paytable_solve(client: httpx.Client) -> None:
    """A paytable solve's pay: the form's POST, then its page until the pay shows."""
    fields = {"mode": "solve", "solve_for": "adjacent", "kind": "round", "target": "3%"}
    page = client.post("/paytable", data=fields).headers["location"]
    until(lambda: 'data-figure="pay"' in client.get(page).text)


def chart_png(client: httpx.Client) -> None:
    """The chart's PNG: the download button's POST, then its address until the PNG comes."""
    answer = client.post("/chart/chart.png")
    until(
        lambda: (
            answer.headers.get("content-type") == "image/png"
            or client.get("/chart/chart.png").headers.get("content-type") == "image/png"
        )
    )


FIGURES: dict[str, Callable[[httpx.Client], None]] = {
    "first figures (Game page)": first_figures,
    "practice start": practice_start,
    "first paytable solve": paytable_solve,
    "chart PNG": chart_png,
}


def workbench(folder: Path, after: float) -> dict[str, float]:
    """Each figure's seconds on a fresh server of ``folder``, asked ``after`` seconds after
    its ready line, and the seconds from the command's start to that line."""
    found: dict[str, float] = {}
    for name, figure in FIGURES.items():
        with server(folder) as (url, start_up, ready_at):
            found.setdefault("start-up: command to ready line", start_up)
            headers = {"origin": url}
            with httpx.Client(base_url=url, headers=headers, timeout=120) as client:
                time.sleep(max(0.0, ready_at + after - time.perf_counter()))
                asked = time.perf_counter()
                figure(client)
                found[f"{name}, asked {after:g} s after ready"] = time.perf_counter() - asked
    return found


def table(title: str, unit: str, runs: dict[str, list[dict[str, float]]], names: list[str]) -> None:
    """Medians a side and the ratio, as a Markdown table."""
    base, mine = names
    print(f"\n{title}\n")
    print(f"| case ({unit}) | {base} | this checkout | ratio |")
    print("|---|---:|---:|---:|")
    for case in runs[mine][0]:
        theirs, ours = (statistics.median(r[case] for r in runs[n]) for n in names)
        print(f"| {case} | {theirs:.3f} | {ours:.3f} | {ours / theirs:.2f}x |")


def measure(case: str, folder: Path, html: Path, after: float) -> dict[str, float]:
    """One run of ``case`` from ``folder`` (a report's HTML left in ``html``)."""
    if case == "solve":
        return {"solver.solve / solve_game, new game": solve_ratio(folder)}
    if case == "command":
        return {"`cbj solve --no-cache`, CPU": solve_command(folder)}
    if case == "report":
        return {"`cbj report -o report.pdf`, cold, CPU": report(folder, html)}
    return workbench(folder, 0.0) | workbench(folder, after)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="main", help="git revision to compare with")
    parser.add_argument("--repeat", type=int, default=3, help="runs a side of each case")
    parser.add_argument("--after", type=float, default=3.0, help="the later ask's delay (s)")
    parser.add_argument("--only", default=",".join(CASES), help="cases to run, by name")
    args = parser.parse_args()
    chosen = [c.strip() for c in args.only.split(",")]
    unknown = set(chosen) - set(CASES)
    if unknown:
        raise SystemExit(f"unknown case(s) {sorted(unknown)}: use {', '.join(CASES)}")
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch, "baseline")
        base.mkdir()
        exported(args.baseline, base)
        sides = {args.baseline: base, "this checkout": ROOT}
        pages = {name: Path(scratch, f"report-{i}.html") for i, name in enumerate(sides)}
        for case in chosen:
            before = load()
            runs: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
            for _ in range(args.repeat):
                for name, folder in sides.items():
                    runs[name].append(measure(case, folder, pages[name], args.after))
            unit = "seconds of wall clock" if case == "workbench" else "ratio or CPU seconds"
            said = f"{case}: load average {before:.1f} before, {load():.1f} after"
            table(said, unit, runs, list(sides))
            if case == "report":
                same = len({page.read_bytes() for page in pages.values()}) == 1
                print(f"\nThe two sides' HTML reports: {'the same bytes' if same else 'DIFFER'}")


if __name__ == "__main__":
    main()
