"""The one store protocol: every store is one generic fetch-or-compute by kind and key (checked
by mypy on the assignments below, and at run time); a kind of result defined here is kept by
both stores with no change to either; ``cbj count`` after ``cbj eor`` finds the effects of
removal in the disk store."""

from __future__ import annotations

import inspect
import re
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import solver
import solver.exact.protection as protection
import solver.studies.counting as api_protection
from solver.model.cards import Card, parse_cards
from solver.model.rules import Rules
from solver.results.kinds import Key, Kind, Store
from solver.store.disk import DATABASE_NAME, DiskCache
from solver.store.memory import MemoryCache
from solver.web.work import WorkbenchStore

from .conftest import run_cli
from .stores import Counter, as_another_process, collect
from .test_eor import REMOVED as TINY_REMOVED

#: Every store of the package.
STORES = (DiskCache, MemoryCache, WorkbenchStore)
#: The per-kind methods the stores once repeated, each by hand.
PER_KIND = ("game", "chart", "effects_of_removal", "simulation", "study")


def test_every_store_is_a_store(tmp_path: Path) -> None:
    """The assignments are what mypy checks."""
    stores: list[Store] = [DiskCache(tmp_path / "c"), MemoryCache(), WorkbenchStore()]
    assert len(stores) == len(STORES)


def protocol_methods(protocol: type) -> dict[str, inspect.Signature]:
    """The public methods a class defines, with their signatures."""
    return {
        name: inspect.signature(member)
        for name, member in vars(protocol).items()
        if inspect.isfunction(member) and not name.startswith("_")
    }


@pytest.mark.parametrize("store", STORES, ids=lambda s: s.__name__)
def test_each_store_is_one_fetch_and_no_method_per_kind(store: type) -> None:
    """The one method of :class:`Store`, with the same parameters, and no method of its own
    for any kind of result: no store type is ever asked which one it is, nor edited for a
    new kind."""
    asked = protocol_methods(Store)
    assert list(asked) == ["fetch"]
    mine = inspect.signature(vars(store)["fetch"])
    assert list(mine.parameters) == list(asked["fetch"].parameters)
    assert [name for name in PER_KIND if hasattr(store, name)] == []


# --- A new kind of result, kept with no change to any store --------------------------------


class Suit(StrEnum):
    """A closed vocabulary of the new kind's own."""

    RED = "red"
    BLACK = "black"


@dataclass(frozen=True, slots=True)
class Share:
    """A part of the new kind: a share of the shoe and where it came from."""

    colour: Suit
    share: Fraction
    spread: float


@dataclass(frozen=True, slots=True)
class Tally:
    """A kind of result no store has heard of."""

    rules: Rules
    removed: tuple[Card, ...]
    shares: tuple[Share, ...]
    by_rank: dict[str, Fraction]
    note: str | None = None


TALLY: Kind[Tally] = Kind("test-tally", Tally)


def tally(rules: Rules, removed: tuple[Card, ...]) -> Tally:
    """What a new study would compute."""
    return Tally(
        rules,
        removed,
        (Share(Suit.RED, Fraction(1, 3), 0.25), Share(Suit.BLACK, Fraction(2, 3), float("inf"))),
        {"A": Fraction(-1, 7), "10": Fraction(4, 13)},
    )


@pytest.mark.parametrize("store", ["memory", "disk"])
def test_a_new_kind_of_result_is_kept_by_both_stores_with_no_store_edit(
    tmp_path: Path, store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines, warn = collect()
    rules, removed = Rules(decks=2), parse_cards("Kd As 7h")
    counter = Counter()

    def opened() -> Store:
        return MemoryCache() if store == "memory" else DiskCache(tmp_path / "c", warn=warn)

    kept = opened() if store == "memory" else None  # a disk store is opened afresh each time
    compute = counter.wrap(lambda: tally(rules, removed))
    first = (kept or opened()).fetch(TALLY, Key(rules, removed), compute)
    as_another_process(monkeypatch)
    backwards = tuple(reversed(removed))
    again = (kept or opened()).fetch(TALLY, Key(rules, backwards), compute)
    assert counter.calls == 1 and lines == []
    assert again == tally(rules, backwards) and again.removed == backwards
    assert again.shares[0].colour is Suit.RED and again.shares[1].spread == float("inf")
    other = (kept or opened()).fetch(TALLY, Key(rules, removed, exact=True), compute)
    assert other == first and counter.calls == 2  # another key, another entry
    if store == "disk":
        with closing(sqlite3.connect(tmp_path / "c" / DATABASE_NAME)) as db:
            kinds = db.execute("SELECT kind FROM entries").fetchall()
        assert kinds == [("test-tally",), ("test-tally",)]


def test_a_stored_entry_naming_a_class_its_kind_does_not_hold_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The field-by-field codec reads back only the classes the kind's type names: an entry
    that names another (written by someone else, checksum and all) is recomputed."""
    from solver.store.payload import pack

    lines, warn = collect()
    rules, removed = Rules(decks=2), parse_cards("Kd")
    cache = DiskCache(tmp_path / "c", warn=warn)
    cache.fetch(TALLY, Key(rules, removed), lambda: tally(rules, removed))
    digest = cache.digest(TALLY, Key(rules, removed))
    planted = {"fields": {"data": "subprocess.Popen", "fields": {"args": ["true"]}}}
    payload = pack(planted)
    with sqlite3.connect(tmp_path / "c" / DATABASE_NAME) as db:
        db.execute(
            "UPDATE entries SET payload = ?, checksum = ? WHERE key = ?",
            (payload, DiskCache._checksum(digest, payload), digest),
        )
    as_another_process(monkeypatch)
    found = DiskCache(tmp_path / "c", warn=warn).fetch(
        TALLY, Key(rules, removed), lambda: tally(rules, removed)
    )
    assert found == tally(rules, removed)
    assert len(lines) == 1 and "not a class this kind of result holds" in lines[0]


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
    assert (solver.Store, solver.Kind, solver.Key) == (Store, Kind, Key)
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
    # test_eor's 14-card shoe: its effects, exact ones included, take a fraction of a
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
