"""The one store protocol: both stores implement all of it, and every consumer's part of it
(checked by mypy on the assignments below, and at run time); ``cbj count`` after ``cbj eor``
finds the effects of removal in the disk store."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import pytest

import solver
import solver.api.protection as api_protection
import solver.exact.protection as protection
from solver.exact.chart import ChartStore, GameChartStore
from solver.exact.game import GameStore
from solver.exact.protection import EffectsStore
from solver.store.disk import DiskCache
from solver.store.memory import MemoryCache
from solver.store.protocol import Store
from solver.studies.report import ReportStore, SimulationStore, StudyStore

from .conftest import run_cli
from .test_protection import REMOVED as TINY_REMOVED

#: Every consumer's protocol, smallest first.
CONSUMERS = (
    GameStore,
    ChartStore,
    EffectsStore,
    SimulationStore,
    StudyStore,
    GameChartStore,
    ReportStore,
    Store,
)


def test_both_stores_are_every_consumers_store(tmp_path: Path) -> None:
    """The assignments are what mypy checks: each names one consumer's protocol."""
    stores: list[Store] = [DiskCache(tmp_path / "c"), MemoryCache()]
    for store in stores:
        game_store: GameStore = store
        chart_store: ChartStore = store
        effects_store: EffectsStore = store
        both: GameChartStore = store
        simulations: SimulationStore = store
        report: ReportStore = store
        seen: list[object] = [game_store, chart_store, effects_store, both, simulations, report]
        assert all(s is store for s in seen)


def protocol_methods(protocol: type) -> dict[str, inspect.Signature]:
    """The methods a protocol asks for, with their signatures."""
    return {
        name: inspect.signature(member)
        for name, member in vars(protocol).items()
        if inspect.isfunction(member) and not name.startswith("_")
    }


@pytest.mark.parametrize("store", [DiskCache, MemoryCache], ids=lambda s: s.__name__)
def test_each_store_implements_the_whole_protocol(store: type) -> None:
    """Every method of :class:`Store` (and of each consumer's protocol), with the same
    parameters: no store type is ever asked which one it is."""
    asked: dict[str, inspect.Signature] = {}
    for protocol in CONSUMERS:
        for klass in protocol.__mro__:
            asked |= protocol_methods(klass) if klass.__module__.startswith("solver") else {}
    assert set(asked) == {"game", "chart", "effects_of_removal", "simulation", "study"}
    assert set(asked) == set(protocol_methods(Store))
    for name, signature in asked.items():
        mine = inspect.signature(getattr(store, name))
        assert list(mine.parameters) == list(signature.parameters), name


#: ``isinstance`` asking which store, or which kind of store, a value is.
ASKS_WHICH_STORE = re.compile(r"isinstance\([^)]*\b(MemoryCache|DiskCache|Cache|\w*Store)\b")


def test_no_code_asks_which_store_it_has() -> None:
    assert ASKS_WHICH_STORE.search("if isinstance(cache, MemoryCache):")  # as api.py did
    assert ASKS_WHICH_STORE.search("isinstance(x, (int, DiskCache))")
    assert not ASKS_WHICH_STORE.search("isinstance(found, GameResult)")
    package = Path(solver.__file__).parent
    asking = [p for p in package.rglob("*.py") if ASKS_WHICH_STORE.search(p.read_text())]
    assert asking == []


def test_the_public_names_are_the_stores() -> None:
    assert solver.MemoryCache is MemoryCache
    assert solver.DiskCache is DiskCache and solver.Cache is DiskCache
    assert solver.Store is Store
    assert solver.CacheInfo.__module__ == solver.CacheCleared.__module__ == "solver.store.disk"


def test_count_after_eor_reads_the_effects_from_the_disk_store(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    games: MemoryCache,
) -> None:
    """As a MemoryCache does within one process, the disk store does across runs: ``cbj
    count`` finds what ``cbj eor`` stored, and prints what it prints uncached."""
    real = protection.effects_of_removal
    calls: list[tuple[Any, ...]] = []

    def counted(rules: Any, removed: Any = (), exact: bool = False, **options: Any) -> Any:
        calls.append((rules, removed, exact))
        return real(rules, removed, exact, cache=games)  # the session's games, not solved again

    # patched where the command calls it (the API module binds the name when it loads)
    monkeypatch.setattr(api_protection, "effects_of_removal", counted)
    monkeypatch.setenv("CBJ_CACHE_DIR", str(tmp_path / "c"))
    # test_protection's 14-card shoe: its effects, exact ones included, take a fraction of a
    # second (a 1-deck shoe's exact effects took 5 s of CPU and proved nothing more here)
    tiny = " ".join(map(str, TINY_REMOVED))
    options = ["--decks", "1", "--bonus-ratio", "3/4", "--removed", tiny, "--format", "json"]
    assert run_cli(["eor", *options], capsys)[0] == 0
    assert len(calls) == 1
    status, out, err = run_cli(["count", *options], capsys)
    assert (status, err) == (0, "") and len(calls) == 1
    assert run_cli(["count", *options, "--no-cache"], capsys) == (0, out, "")
    assert len(calls) == 2
    status, out, err = run_cli(["count", *options, "--exact"], capsys)
    assert len(calls) == 3  # exact effects are another entry
