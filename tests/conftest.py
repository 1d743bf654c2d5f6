"""Shared test helpers: physical card lists for brute-force enumeration, the PAR report."""

from __future__ import annotations

import pytest

from solver.cache import MemoryCache
from solver.cli import main
from solver.model.cards import RANKS, SUITS, Card, Shoe
from solver.model.rules import Rules
from solver.present.report import Report, build_report


@pytest.fixture(scope="session")
def games() -> MemoryCache:
    """One in-memory store of solved games shared by the whole test session."""
    return MemoryCache()


def physical_cards(shoe: Shoe) -> list[Card]:
    """Every card left in a shoe whose removed cards all had suits, one entry per card."""
    assert shoe.suits_known
    return [Card(r, s) for r in RANKS for s in SUITS for _ in range(shoe.count(r, s))]


@pytest.fixture(autouse=True)
def private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keep the solver's disk cache out of the user's home during tests."""
    monkeypatch.setenv("CBJ_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cbj-cache"))


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``cbj`` with ``argv``; its exit status, stdout and stderr."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    out, err = capsys.readouterr()
    return int(stop.value.code or 0), out, err


#: The date every report built in the tests carries (2026-01-02), for reproducible PDFs.
EPOCH = "1767312000"


@pytest.fixture(scope="session")
def par_report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    """The PAR report of a 2-deck game, built once per test session (it takes seconds)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CBJ_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cbj-cache"))
        patch.setenv("SOURCE_DATE_EPOCH", EPOCH)
        return build_report(Rules(decks=2))
