"""Every command's ``--format json`` output, for the default rules and one variant each,
held to the golden files recorded in ``tests/golden/`` before the code was re-layered.

A re-layering moves code and must not change what a user sees: each case runs ``cbj`` in
this process and compares its standard output with its file, byte for byte. The files were
written by this module (``python -m tests.test_golden``) from main at 6fc57de, before any
module moved; write them again only for a change that means to alter an output, and say so
in its commit. ``cache info`` (it prints the cache's own path and size), ``tables``,
``report`` and ``graph`` (files, not JSON) are held by their own tests instead.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import solver.store.disk as disk
from solver.cli import main
from solver.store.memory import MemoryCache

GOLDEN = Path(__file__).parent / "golden"

#: Case name → the command line after ``cbj`` (``--format json`` is added).
CASES: dict[str, list[str]] = {
    "rules": ["rules"],
    "rules-vegas-21": ["rules", "--preset", "vegas-21"],
    "bonus": ["bonus"],
    "bonus-variant": ["bonus", "--paytable", "20:5:2", "--removed", "As Ah 7d"],
    "dealer": ["dealer"],
    "dealer-variant": ["dealer", "--bonus", "7", "--dealer-stands-on", "17", "--decks", "2"],
    "dealer-must-use": [
        "dealer",
        "--decks",
        "1",
        "--dealer-stands-on",
        "17",
        "--dealer-bonus",
        "must_use",
        "--dealer-natural",
        "bonus_card",
    ],
    "solve": ["solve"],
    "solve-variant": ["solve", "--decks", "1", "--exact", "--dealer-natural", "own_cards"],
    "advise": ["advise", "--bonus", "7", "--hand", "9 4"],
    "advise-variant": ["advise", "--bonus", "A", "--hand", "5 5", "--exact", "--decks", "1"],
    "chart": ["chart"],
    "chart-variant": ["chart", "--preset", "vegas-21", "--decks", "1"],
    "strategies": ["strategies"],
    "strategies-variant": [
        "strategies",
        "--decks",
        "1",
        "--strategies",
        "optimal,stand-on:17,never-bust",
        "--bonus-ratios",
        "1,2",
    ],
    "seats": ["seats", "--rounds", "2000", "--seed", "1", "--seats", "1-2"],
    "seats-variant": [
        "seats",
        "--decks",
        "1",
        "--rounds",
        "1000",
        "--seed",
        "5",
        "--seats",
        "3",
        "--strategy",
        "stand-on:17",
    ],
    "simulate": ["simulate", "--rounds", "20000", "--seed", "1"],
    "simulate-variant": [
        "simulate",
        "--decks",
        "2",
        "--rounds",
        "5000",
        "--seed",
        "2",
        "--strategy",
        "stand-on:17",
        "--fresh-shoe",
    ],
    "paytable-solve": [
        "paytable",
        "solve",
        "--solve-for",
        "suited_match",
        "--target-bonus-edge",
        "5%",
    ],
    "paytable-solve-variant": [
        "paytable",
        "solve",
        "--decks",
        "1",
        "--solve-for",
        "adjacent",
        "--target-round-edge",
        "2%",
    ],
    "paytable-search": ["paytable", "search", "--max-pay", "20", "--top", "3"],
    "paytable-search-variant": [
        "paytable",
        "search",
        "--decks",
        "1",
        "--bonus-edge-range",
        "5%:10%",
        "--max-pay",
        "15",
        "--top",
        "2",
    ],
    "variants": ["variants", "--decks", "1,2"],
    "variants-variant": ["variants", "--decks", "1", "--dealer-stands-on", "17,18"],
    "eor": ["eor"],
    "eor-variant": ["eor", "--decks", "1"],
    "count": ["count"],
    "count-variant": ["count", "--decks", "1", "--system", "hi-lo"],
    "shoe-states": ["shoe-states", "--samples", "3", "--seed", "1", "--depths", "0.5"],
    "shoe-states-variant": [
        "shoe-states",
        "--decks",
        "1",
        "--samples",
        "2",
        "--seed",
        "2",
        "--depths",
        "0.25,0.5",
        "--system",
        "hi-lo",
    ],
}


@pytest.fixture(autouse=True)
def session_store(games: MemoryCache, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every case's command uses the session's store: the games, charts and effects of
    removal one case (or any other test in this worker) solved serve the next ones from
    memory, exact games and charts through the session's disk cache, as ``cbj`` would read
    them from its own."""
    monkeypatch.setattr(disk, "default_cache", lambda warn=None: games)


def json_output(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What ``cbj ARGV --format json`` prints on standard output (it must exit 0)."""
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--format", "json"])
    out, err = capsys.readouterr()
    assert int(stop.value.code or 0) == 0, err
    return out


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_json_output_matches_its_golden_file(case: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert json_output(CASES[case], capsys) == (GOLDEN / f"{case}.json").read_text()


def test_every_case_has_its_file_and_every_file_its_case() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == sorted(CASES)


def _write_all() -> None:
    """Record every case's output in its golden file (``python -m tests.test_golden``)."""
    import os
    import subprocess
    import tempfile

    GOLDEN.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as cache:
        for case, argv in CASES.items():
            done = subprocess.run(
                [sys.executable, "-m", "solver", *argv, "--format", "json"],
                check=True,
                capture_output=True,
                text=True,
                env=os.environ | {"CBJ_CACHE_DIR": cache},
            )
            (GOLDEN / f"{case}.json").write_text(done.stdout)
            print(f"wrote {case}", file=sys.stderr)


if __name__ == "__main__":
    _write_all()
