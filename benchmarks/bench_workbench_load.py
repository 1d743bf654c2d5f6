"""The workbench under load: a cheap page's answer while long jobs run, and the server's
memory while exact games are explored (``cbj serve`` as its own process on 127.0.0.1).

Run from the project folder with the package installed:

    python benchmarks/bench_workbench_load.py [--memory-mb 400]

Two cases, each on a fresh server with an empty cache folder of its own (every solve is
done afresh): (1) a report building with 10^7-round studies and 45 clients downloading one
chart PDF not drawn yet, while the Game page is asked for 20 times, 0.5 s apart; (2) 20
distinct exact games (decks 1, 2, 4, 6, 8 by the dealer standing on 17 to 20) solved one
after the other under ``--memory-mb``, the server's resident size read after each.  Prints
Markdown for docs/performance.md, with the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2 as httpx


def _resident_mb(pid: int) -> float:
    pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def started_workbench(
    seconds: float, options: list[str] | None, environment: dict[str, str]
) -> tuple[subprocess.Popen[str], str]:
    """``cbj serve`` on a free port of 127.0.0.1 once it answers: the process, its address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "solver", "serve", "--port", str(port), *(options or [])],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **environment},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            httpx.get(url, timeout=5)
            return process, url
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"cbj serve did not start: {process.communicate()[1]}")


def cheap_page_under_load() -> list[float]:
    """Seconds the Game page took, each time asked while the long jobs ran."""
    with tempfile.TemporaryDirectory() as cache:
        process, url = started_workbench(60, None, {"CBJ_CACHE_DIR": cache})
        ours = {"origin": url}
        try:
            sizes = {"decks": "2", "simulation_rounds": "10000000", "table_rounds": "10000000"}
            httpx.post(f"{url}/report", data=sizes, headers=ours, timeout=30)
            query = {"decks": "3", "paytable": "17:4:1"}

            def download(_: int) -> int:
                answer = httpx.post(
                    f"{url}/chart/chart.pdf", params=query, headers=ours, timeout=300
                )
                return answer.status_code

            with ThreadPoolExecutor(max_workers=45) as pool:
                downloads = [pool.submit(download, n) for n in range(45)]
                time.sleep(1)
                waits = []
                for _ in range(20):
                    start = time.monotonic()
                    httpx.get(f"{url}/?decks=5", timeout=30)
                    waits.append(time.monotonic() - start)
                    time.sleep(0.5)
                assert {d.result() for d in downloads} == {200}
        finally:
            process.terminate()
            process.communicate(timeout=30)
    return waits


def memory_while_exploring(memory_mb: int) -> list[tuple[str, float, float]]:
    """(game, resident MB after it, seconds) for 20 exact games solved in turn."""
    found = []
    with tempfile.TemporaryDirectory() as cache:
        process, url = started_workbench(
            60, ["--memory-mb", str(memory_mb)], {"CBJ_CACHE_DIR": cache}
        )
        ours = {"origin": url}
        try:
            found.append(("(started)", _resident_mb(process.pid), 0.0))
            for decks in (1, 2, 4, 6, 8):
                for stands in (17, 18, 19, 20):
                    query = {"decks": str(decks), "dealer_stands_on": str(stands), "exact": "1"}
                    start = time.monotonic()
                    while (
                        httpx.post(f"{url}/api/game", params=query, headers=ours, timeout=60)
                        .json()
                        .get("status")
                        != "ready"
                    ):
                        time.sleep(0.1)
                    label = f"{decks} decks, stands on {stands}"
                    found.append((label, _resident_mb(process.pid), time.monotonic() - start))
        finally:
            process.terminate()
            process.communicate(timeout=30)
    return found


def main() -> None:
    """Run both cases and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memory-mb", type=int, default=400)
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    load = os.getloadavg()[0]
    waits = cheap_page_under_load()
    print(f"\nGame page under load (load {load:.1f} / {os.getloadavg()[0]:.1f}):\n")
    print("| answers | median (ms) | slowest (ms) |")
    print("|---:|---:|---:|")
    print(f"| {len(waits)} | {statistics.median(waits) * 1000:.0f} | {max(waits) * 1000:.0f} |")
    load = os.getloadavg()[0]
    rows = memory_while_exploring(args.memory_mb)
    print(
        f"\nResident size, --memory-mb {args.memory_mb} "
        f"(load {load:.1f} / {os.getloadavg()[0]:.1f}):\n"
    )
    print("| after | resident (MB) | solve (s) |")
    print("|---|---:|---:|")
    for label, resident, seconds in rows:
        print(f"| {label} | {resident:.0f} | {seconds:.1f} |")
    print(f"\npeak after a game: {max(r for _, r, _ in rows):.0f} MB")


if __name__ == "__main__":
    main()
