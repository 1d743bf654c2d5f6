"""The disk store: exact round trips, keys, integrity, eviction, and the folder's trust:
resolved once (symbolic links and a trailing slash included), checked for its owner and its
permissions, refused with one line of warning when it is too long for the system."""

from __future__ import annotations

import json
import os
import pickle
import sqlite3
import subprocess
import sys
import tracemalloc
import zlib
from contextlib import closing
from dataclasses import fields
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import platformdirs
import pytest

import solver.store.disk as disk
from solver.cli.commands import chosen_cache
from solver.exact.chart import stored_chart
from solver.exact.game import solve_game
from solver.model.cards import parse_cards
from solver.model.rules import DealerBonus, DealerNatural, NaturalBeats, Rules
from solver.results.charts import CHART, Chart
from solver.results.game import GAME
from solver.results.kinds import Key
from solver.results.protection import EFFECTS
from solver.store.codecs import StoredSolutions
from solver.store.disk import DATABASE_NAME, CacheWarning, DiskCache, default_directory
from solver.store.memory import MemoryCache
from solver.store.payload import MAX_SECTION_BYTES, Section

from .conftest import run_cli
from .stores import (
    REMOVED,
    SMALL,
    TINY,
    TINY_REMOVED,
    Counter,
    as_another_process,
    collect,
    fetch,
    remembered,
    same_game,
)
from .unprivileged import shared_folder, unprivileged

#: The disk store's earlier name, which these tests used (``solver.Cache`` still is).
Cache = DiskCache


def test_a_second_fetch_reads_the_entry_back(tmp_path: Path) -> None:
    lines, warn = collect()
    cache, counter = Cache(tmp_path / "c", warn=warn), Counter()
    first = fetch(cache, counter)
    second = fetch(cache, counter)
    assert counter.calls == 1
    same_game(first, second)
    assert lines == []
    info = cache.info()
    assert (info.entries, info.usable) == (1, True) and info.bytes > 0


def test_the_key_ignores_card_order_and_keeps_the_callers(tmp_path: Path) -> None:
    cache, counter = Cache(tmp_path / "c", warn=collect()[1]), Counter()
    fetch(cache, counter, REMOVED)
    backwards = tuple(reversed(REMOVED))
    game = fetch(cache, counter, backwards)
    assert counter.calls == 1
    assert game.removed == backwards
    assert game.bonus is not None and game.bonus.removed == backwards
    assert cache.info().entries == 1


#: Rules that differ from the default in one field each (every field that compares).
ONE_CHANGE = [
    Rules(decks=2),
    Rules(bonus_ratio=Fraction(3, 4)),
    Rules.from_options(paytable="20:5:2"),
    Rules(blackjack_pays=Fraction(6, 5)),
    Rules(dealer_stands_on=17),
    Rules(dealer_bonus=DealerBonus.MUST_USE),
    *(Rules(dealer_natural=n) for n in DealerNatural if n is not Rules().dealer_natural),
    *(Rules(natural_beats=b) for b in NaturalBeats if b is not Rules().natural_beats),
]


def test_every_rule_is_in_the_key_and_survives_encoding(tmp_path: Path) -> None:
    compared = {f.name for f in fields(Rules) if f.compare}
    changed = {f for r in ONE_CHANGE for f in compared if getattr(r, f) != getattr(Rules(), f)}
    assert changed == compared  # the list above covers every rule
    cache = Cache(tmp_path / "c", warn=collect()[1])
    keys = {cache.digest(GAME, Key(r, (), False)) for r in [Rules(), *ONE_CHANGE]}
    assert len(keys) == len(ONE_CHANGE) + 1
    for rules in ONE_CHANGE:
        assert Rules.from_canonical(rules.canonical()) == rules


def test_the_folder_and_file_are_created_private(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c", warn=collect()[1])
    fetch(cache, Counter())
    assert (tmp_path / "c").stat().st_mode & 0o777 == 0o700
    assert (tmp_path / "c" / DATABASE_NAME).stat().st_mode & 0o077 == 0


class Planted:
    """Unpickling this creates a marker file: proof that a pickle was loaded."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path.touch, (self.marker,))


def test_a_planted_pickle_is_never_loaded(tmp_path: Path) -> None:
    folder, marker = tmp_path / "c", tmp_path / "loaded"
    lines, warn = collect()
    cache, counter = Cache(folder, warn=warn), Counter()
    fetch(cache, counter)
    evil = pickle.dumps(Planted(marker))
    # Pickles where the old joblib cache kept them, and one as the entry itself with a
    # checksum that matches: the cache must decode neither.
    (folder / "output.pkl").write_bytes(evil)
    key = cache.digest(GAME, Key(SMALL, REMOVED, True))
    with sqlite3.connect(folder / DATABASE_NAME) as db:
        db.execute(
            "UPDATE entries SET payload = ?, checksum = ? WHERE key = ?",
            (evil, Cache._checksum(key, evil), key),
        )
    fetch(cache, counter)
    assert not marker.exists()
    assert counter.calls == 2
    assert len(lines) == 1 and "corrupt" in lines[0]


def test_a_corrupt_entry_is_recomputed_with_one_warning(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    lines, warn = collect()
    cache, counter = Cache(folder, warn=warn), Counter()
    expected = fetch(cache, counter)
    with sqlite3.connect(folder / DATABASE_NAME) as db:
        (payload,) = db.execute("SELECT payload FROM entries").fetchone()
        flipped = bytes([payload[0], payload[1], payload[2] ^ 1]) + payload[3:]
        db.execute("UPDATE entries SET payload = ?", (flipped,))
    same_game(fetch(cache, counter), expected)
    assert counter.calls == 2
    assert len(lines) == 1 and "\n" not in lines[0] and "corrupt" in lines[0]
    fetch(cache, counter)  # the recomputed entry was stored again
    assert counter.calls == 2 and len(lines) == 1


def test_a_cached_game_leaves_its_solutions_packed_until_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache, counter = Cache(tmp_path / "c", warn=collect()[1]), Counter()
    expected = fetch(cache, counter)
    assert fetch(cache, counter).solutions is expected.solutions  # kept by this process
    as_another_process(monkeypatch)  # as another process would, read it from disk
    game = fetch(cache, counter)
    assert isinstance(game.solutions, StoredSolutions)
    assert isinstance(game.solutions.source, Section)
    assert not isinstance(game.solutions.source.compressed, bytes)  # only the head was read
    assert game.to_json() == expected.to_json()
    assert isinstance(game.solutions.source, Section)  # printing the figures did not decode
    same_game(game, expected)
    assert game.solutions.source is None
    assert fetch(cache, counter).solutions is game.solutions  # decoded once per process
    assert counter.calls == 1
    same_game(pickle.loads(pickle.dumps(fetch(cache, counter))), expected)  # for workers


@pytest.mark.parametrize("part", [b"junk", zlib.compress(b"[]")], ids=["not-json", "other-json"])
def test_solutions_that_do_not_decode_are_recomputed_with_one_warning(
    tmp_path: Path, part: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A payload whose head and its checksum hold but whose solutions section is not the
    one the head names: not JSON, or JSON that would decode (an empty list)."""
    folder = tmp_path / "c"
    lines, warn = collect()
    cache, counter = Cache(folder, warn=warn), Counter()
    expected = fetch(cache, counter)
    key = cache.digest(GAME, Key(SMALL, REMOVED, True))
    with sqlite3.connect(folder / DATABASE_NAME) as db:
        (payload,) = db.execute("SELECT payload FROM entries").fetchone()
        head = payload[: 4 + int.from_bytes(payload[:4], "big")]
        broken = head + len(part).to_bytes(4, "big") + part
        db.execute(
            "UPDATE entries SET payload = ?, checksum = ?", (broken, Cache._checksum(key, broken))
        )
    as_another_process(monkeypatch)  # as another process would, read it from disk
    game = fetch(cache, counter)
    assert counter.calls == 1 and lines == []  # the head alone decodes
    same_game(game, expected)
    assert counter.calls == 2 and len(lines) == 1 and "corrupt" in lines[0]
    same_game(fetch(cache, counter), expected)  # stored again, whole
    assert counter.calls == 2 and len(lines) == 1


@pytest.mark.parametrize("change", ["DELETE FROM entries", "UPDATE entries SET checksum = 'x'"])
def test_solutions_of_an_entry_gone_since_its_head_was_read_are_recomputed_silently(
    tmp_path: Path, change: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Evicted, or replaced by another process, between reading the head and the solutions."""
    folder = tmp_path / "c"
    lines, warn = collect()
    cache, counter = Cache(folder, warn=warn), Counter()
    expected = fetch(cache, counter)
    as_another_process(monkeypatch)
    game = fetch(cache, counter)
    with closing(sqlite3.connect(folder / DATABASE_NAME)) as db:
        db.execute(change)
        db.commit()
    same_game(game, expected)
    assert counter.calls == 2 and lines == []


def test_an_entry_decoding_to_a_different_game_is_not_returned(tmp_path: Path) -> None:
    """A well-formed payload moved to another key fails the checksum, which covers the key."""
    folder = tmp_path / "c"
    lines, warn = collect()
    cache, counter = Cache(folder, warn=warn), Counter()
    fetch(cache, counter)
    other = REMOVED[1:]
    fetch(cache, counter, other)
    key, key_other = (cache.digest(GAME, Key(SMALL, r, True)) for r in (REMOVED, other))
    with sqlite3.connect(folder / DATABASE_NAME) as db:
        (payload,) = db.execute("SELECT payload FROM entries WHERE key = ?", (key_other,))
        db.execute("UPDATE entries SET payload = ? WHERE key = ?", (payload[0], key))
    assert fetch(cache, counter).removed == REMOVED
    assert counter.calls == 3 and len(lines) == 1


def test_the_cap_evicts_the_least_recently_used(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c", warn=collect()[1])
    shoes = [REMOVED, REMOVED[1:], REMOVED[2:]]
    counter = Counter()
    for removed in shoes:
        fetch(cache, counter, removed)
    with sqlite3.connect(tmp_path / "c" / DATABASE_NAME) as db:
        sizes = dict(db.execute("SELECT key, size FROM entries").fetchall())
    assert len(sizes) == 3
    fetch(cache, counter, shoes[0])  # now the first is fresher than the second
    assert counter.calls == 3
    keys = [cache.digest(GAME, Key(SMALL, r, True)) for r in shoes]
    tight = Cache(tmp_path / "c", max_bytes=sizes[keys[0]] + sizes[keys[2]] + 1, warn=print)
    fetch(tight, counter, shoes[2])  # a hit: reading never evicts
    fetch(tight, counter, REMOVED[3:])  # a fourth entry: the cap now bites
    with sqlite3.connect(tmp_path / "c" / DATABASE_NAME) as db:
        left = {k for (k,) in db.execute("SELECT key FROM entries")}
    assert keys[1] not in left  # least recently used went first
    assert sum(sizes.get(k, 0) for k in left) <= tight.max_bytes or len(left) == 1


def test_reading_the_latest_entry_writes_nothing(tmp_path: Path) -> None:
    cache, counter = Cache(tmp_path / "c", warn=collect()[1]), Counter()
    fetch(cache, counter, REMOVED[1:])
    fetch(cache, counter)

    def used() -> dict[str, int]:
        with closing(sqlite3.connect(tmp_path / "c" / DATABASE_NAME)) as db:
            return dict(db.execute("SELECT key, used FROM entries").fetchall())

    database = tmp_path / "c" / DATABASE_NAME
    before, data = used(), database.read_bytes()
    fetch(Cache(tmp_path / "c", warn=collect()[1]), counter)  # the latest, as a new process
    assert used() == before
    assert database.read_bytes() == data  # no write at all: its header counts every one
    fetch(cache, counter, REMOVED[1:])  # the older one is marked used again
    after = used()
    assert after[cache.digest(GAME, Key(SMALL, REMOVED[1:], True))] > max(before.values())
    assert counter.calls == 2


def test_a_cap_of_zero_keeps_nothing(tmp_path: Path) -> None:
    cache, counter = Cache(tmp_path / "c", max_bytes=0, warn=collect()[1]), Counter()
    fetch(cache, counter)
    fetch(cache, counter)
    assert counter.calls == 2 and cache.info().entries == 0


def test_clear_empties_the_cache(tmp_path: Path) -> None:
    cache, counter = Cache(tmp_path / "c", warn=collect()[1]), Counter()
    fetch(cache, counter)
    assert cache.clear() == 1
    assert cache.info().entries == 0
    with closing(sqlite3.connect(tmp_path / "c" / DATABASE_NAME)) as db:
        assert remembered(db) == []
    fetch(cache, counter)
    assert counter.calls == 2


def refused(cache: Cache, lines: list[str], words: str) -> None:
    """The cache runs the computation every time, after exactly one line of warning."""
    counter = Counter()
    fetch(cache, counter)
    fetch(cache, counter)
    assert counter.calls == 2
    assert len(lines) == 1 and "\n" not in lines[0] and words in lines[0], lines


def test_a_folder_writable_by_others_is_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    fetch(Cache(folder, warn=collect()[1]), Counter())
    folder.chmod(0o777)
    lines, warn = collect()
    refused(Cache(folder, warn=warn), lines, "writable by other users")


def test_a_database_writable_by_group_is_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    fetch(Cache(folder, warn=collect()[1]), Counter())
    (folder / DATABASE_NAME).chmod(0o660)
    lines, warn = collect()
    refused(Cache(folder, warn=warn), lines, "writable by other users")


def test_a_folder_owned_by_another_user_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "c"
    fetch(Cache(folder, warn=collect()[1]), Counter())
    monkeypatch.setattr(os, "getuid", lambda: os.stat(folder).st_uid + 1)
    lines, warn = collect()
    refused(Cache(folder, warn=warn), lines, "owned by another user")


def test_a_symbolic_link_for_the_database_is_not_followed(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir(mode=0o700)
    (folder / DATABASE_NAME).symlink_to(tmp_path / "elsewhere.sqlite3")
    lines, warn = collect()
    refused(Cache(folder, warn=warn), lines, "symbolic link")
    assert not (tmp_path / "elsewhere.sqlite3").exists()


def test_a_file_in_place_of_the_folder_falls_back(tmp_path: Path) -> None:
    (tmp_path / "c").write_text("not a folder")
    lines, warn = collect()
    refused(Cache(tmp_path / "c", warn=warn), lines, "cache not used")


def test_a_folder_under_a_file_falls_back(tmp_path: Path) -> None:
    """An unusable home: the cache folder's parent is a file."""
    (tmp_path / "home").write_text("")
    lines, warn = collect()
    refused(Cache(tmp_path / "home" / ".cache" / "cbj", warn=warn), lines, "cache not used")


def test_a_database_that_is_not_a_database_falls_back(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir(mode=0o700)
    (folder / DATABASE_NAME).write_bytes(b"\0garbage" * 100)
    (folder / DATABASE_NAME).chmod(0o600)
    lines, warn = collect()
    refused(Cache(folder, warn=warn), lines, "cache not used")


#: Run as an unprivileged user (root writes to read-only folders): a read-only cache folder
#: of its own, then two fetches; prints the computes, the warnings and the first warning.
READ_ONLY_CHILD = """
import sys
from pathlib import Path
from solver.exact.game import solve_game
from solver.model.cards import RANKS, SUITS, Card
from solver.model.rules import Rules
from solver.results.game import GAME
from solver.results.kinds import Key
from solver.store.disk import Cache
folder = Path(sys.argv[1])
folder.mkdir(mode=0o700)
folder.chmod(0o500)
left = "As 2h 3s 4d 5s 6h 7s 8c 9s 10h Js Qd Kh Kd".split()
removed = tuple(c for c in (Card(r, s) for r in RANKS for s in SUITS) if str(c) not in left)
rules, lines, calls = Rules(decks=1), [], []
cache = Cache(folder, warn=lines.append)
def compute():
    calls.append(1)
    return solve_game(rules, removed, exact=True)
for _ in range(2):
    cache.fetch(GAME, Key(rules, removed, True), compute)
print(len(calls), len(lines), lines[0] if lines else "")
"""


def test_a_read_only_folder_falls_back() -> None:
    """Run unprivileged (as ``nobody`` under root, see tests/unprivileged.py), not skipped."""
    with shared_folder() as shared:
        done = subprocess.run(
            unprivileged([sys.executable, "-c", READ_ONLY_CHILD, str(shared / "c")]),
            capture_output=True,
            text=True,
            cwd=shared,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    computes, warnings, first = done.stdout.rstrip("\n").split(" ", 2)
    assert (computes, warnings) == ("2", "1") and "cache not used" in first, done.stdout


def test_warnings_default_to_the_warnings_module(tmp_path: Path) -> None:
    (tmp_path / "c").write_text("")
    with pytest.warns(CacheWarning, match="cache not used"):
        fetch(Cache(tmp_path / "c"), Counter())


def test_no_cache_computes_every_time_silently(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--no-cache`` passes no store (``NoCache``, a disabled disk store used only by
    tests, is gone): nothing is read or written, nor any warning given."""
    folder = tmp_path / "c"
    monkeypatch.setenv("CBJ_CACHE_DIR", str(folder))
    runs = [run_cli(["solve", "--decks", "1", "--no-cache"], capsys) for _ in range(2)]
    assert runs[0] == runs[1] and runs[0][0] == 0 and runs[0][2] == ""
    assert not folder.exists()
    assert chosen_cache(no_cache=True) is None
    assert DiskCache(folder).info().entries == 0


def test_the_size_cap_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CBJ_CACHE_MAX_MB", "7")
    assert Cache().max_bytes == 7 * 1024 * 1024
    monkeypatch.setenv("CBJ_CACHE_MAX_MB", "lots")
    assert Cache().max_bytes == disk.DEFAULT_MAX_BYTES


def test_the_chart_is_cached_with_its_game(tmp_path: Path, games: MemoryCache) -> None:
    rules = Rules(decks=1)
    lines, warn = collect()
    cache = Cache(tmp_path / "c", warn=warn)
    counter = Counter()

    def compute() -> Chart:
        # What ``best_chart(rules, solve_game(rules, exact=True, cache=cache))`` does,
        # with the game and the chart taken from the session's store (where `cbj chart
        # --decks 1` finds them too) rather than solved and searched again.
        key = Key(rules, exact=True)
        game = cache.fetch(GAME, key, lambda: solve_game(rules, exact=True, cache=games))
        return stored_chart(rules, game, games)

    chart = cache.fetch(CHART, Key(rules, exact=True), counter.wrap(compute))
    assert cache.info().entries == 2  # the exact game and the chart
    assert cache.fetch(CHART, Key(rules, exact=True), counter.wrap(compute)) == chart
    assert counter.calls == 1
    assert lines == []


def test_parse_cards_order_gives_one_key() -> None:
    cache = Cache(Path("/nonexistent"), fingerprint="x")
    a = cache.digest(GAME, Key(SMALL, parse_cards("As Kd"), False))
    assert a == cache.digest(GAME, Key(SMALL, parse_cards("Kd As"), False))
    assert a != cache.digest(GAME, Key(SMALL, parse_cards("Kd As"), True))
    assert a != cache.digest(CHART, Key(SMALL, parse_cards("Kd As"), False))


# --- Effects of removal on disk ---------------------------------------------------------------


def tiny_effects(games: MemoryCache) -> Any:
    """The float EORs of a 14-card shoe, from the session's store of games."""
    from solver.exact.protection import effects_of_removal

    return effects_of_removal(TINY, TINY_REMOVED, exact=False, cache=games)


def test_effects_of_removal_are_kept_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, games: MemoryCache
) -> None:
    """Stored as an entry of their own, read back equal (as another process would) and
    with the caller's order of the removed cards, which the key sorts."""
    lines, warn = collect()
    cache, counter = Cache(tmp_path / "c", warn=warn), Counter()
    computed = cache.fetch(
        EFFECTS, Key(TINY, TINY_REMOVED), counter.wrap(lambda: tiny_effects(games))
    )
    as_another_process(monkeypatch)
    again = Cache(tmp_path / "c", warn=warn)
    found = again.fetch(EFFECTS, Key(TINY, TINY_REMOVED), counter.wrap(lambda: computed))
    assert counter.calls == 1 and found is not computed
    assert found == computed and found.to_json() == computed.to_json()
    backwards = tuple(reversed(TINY_REMOVED))
    reordered = again.fetch(EFFECTS, Key(TINY, backwards), counter.wrap(lambda: computed))
    assert reordered.removed == backwards and reordered.effects == computed.effects
    assert counter.calls == 1 and lines == []
    with closing(sqlite3.connect(tmp_path / "c" / DATABASE_NAME)) as db:
        assert db.execute("SELECT kind FROM entries").fetchall() == [("eor",)]
    assert cache.digest(EFFECTS, Key(TINY, TINY_REMOVED, False)) != cache.digest(
        GAME, Key(TINY, TINY_REMOVED, False)
    )


# --- The folder's trust -----------------------------------------------------------------------


def planted(tmp_path: Path) -> tuple[Path, Path]:
    """A cache folder holding an entry, and a symbolic link to it."""
    folder, link = tmp_path / "real", tmp_path / "link"
    fetch(Cache(folder, warn=collect()[1]), Counter())
    link.symlink_to(folder, target_is_directory=True)
    return folder, link


@pytest.mark.parametrize("slash", ["", "/"], ids=["plain", "trailing-slash"])
def test_a_link_to_a_folder_writable_by_others_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slash: str
) -> None:
    """The checks apply to what the name resolves to, however it is written: the entry
    planted in a folder others can write is never read."""
    folder, link = planted(tmp_path)
    folder.chmod(0o777)
    as_another_process(monkeypatch)
    lines, warn = collect()
    refused(Cache(f"{link}{slash}", warn=warn), lines, "writable by other users")
    assert str(folder) in lines[0]  # named as it resolves


@pytest.mark.parametrize("slash", ["", "/"], ids=["plain", "trailing-slash"])
def test_a_link_to_a_folder_owned_by_another_user_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slash: str
) -> None:
    folder, link = planted(tmp_path)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(folder).st_uid + 1)
    lines, warn = collect()
    refused(Cache(f"{link}{slash}", warn=warn), lines, "owned by another user")


@pytest.mark.parametrize("slash", ["", "/"], ids=["plain", "trailing-slash"])
def test_a_link_to_our_private_folder_is_followed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slash: str
) -> None:
    """Resolved once: pointing the link elsewhere later does not move the store."""
    _, link = planted(tmp_path)
    as_another_process(monkeypatch)
    lines, warn = collect()
    cache, counter = Cache(f"{link}{slash}", warn=warn), Counter()
    fetch(cache, counter)
    assert counter.calls == 0 and lines == []
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o777)
    link.unlink()
    link.symlink_to(elsewhere, target_is_directory=True)
    as_another_process(monkeypatch)
    fetch(cache, counter, REMOVED[1:])
    assert counter.calls == 1 and lines == []
    assert list(elsewhere.iterdir()) == [] and cache.info().entries == 2
    assert str(cache.directory) == str(link)  # shown as given


@pytest.mark.parametrize(
    "name",
    [lambda root: root / ("abcdefghi/" * 500), lambda root: root / ("x" * 300)],
    ids=["path-of-5000-characters", "name-of-300-characters"],
)
def test_a_path_too_long_for_the_system_is_one_warning_and_no_folder(
    tmp_path: Path, name: Any
) -> None:
    lines, warn = collect()
    refused(Cache(name(tmp_path), warn=warn), lines, "cache not used")
    assert len(lines[0]) < 400  # the path shortened
    assert list(tmp_path.iterdir()) == []  # nothing created on the way
    info_lines, warn = collect()
    info = Cache(name(tmp_path), warn=warn).info()
    assert not info.usable and len(info_lines) == 1


def test_a_cache_dir_of_5000_characters_is_one_warning_and_an_uncached_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CBJ_CACHE_DIR", str(tmp_path / ("abcd/" * 1000)))
    expected = run_cli(["solve", "--decks", "1", "--no-cache"], capsys)
    for command in (["solve", "--decks", "1"], ["cache", "info"], ["cache", "clear"]):
        status, _, err = run_cli(command, capsys)
        assert status == 0 and "Traceback" not in err
        assert err.count("\n") <= 2 and "cache not used" in err, err
    assert run_cli(["solve", "--decks", "1"], capsys)[:2] == expected[:2]


def test_a_result_json_cannot_hold_is_not_stored_and_still_returned(tmp_path: Path) -> None:
    from solver.results.protection import WAGERS, EffectsOfRemoval, WholeDeck

    infinite = EffectsOfRemoval(
        SMALL, (), False, dict.fromkeys(WAGERS, float("inf")), {}, WholeDeck({}, None)
    )
    lines, warn = collect()
    cache = Cache(tmp_path / "c", warn=warn)
    assert cache.fetch(EFFECTS, Key(SMALL), lambda: infinite) is infinite
    assert len(lines) == 1 and "not stored" in lines[0]
    assert cache.info().entries == 0


# --- A hit checks what it returns (issue 41): planted entries, checksums recomputed ----------

ONE_DECK, SIX_DECKS = Rules(decks=1), Rules(decks=6)


def plant(folder: Path, digest: str, payload: bytes) -> None:
    """Put ``payload`` in the entry ``digest`` with its checksum recomputed, as a writer of
    the database could."""
    with closing(sqlite3.connect(folder / DATABASE_NAME)) as db, db:
        db.execute(
            "UPDATE entries SET payload = ?, checksum = ? WHERE key = ?",
            (payload, Cache._checksum(digest, payload), digest),
        )


def stored(folder: Path, digest: str) -> bytes:
    with closing(sqlite3.connect(folder / DATABASE_NAME)) as db:
        (payload,) = db.execute("SELECT payload FROM entries WHERE key = ?", (digest,)).fetchone()
    assert isinstance(payload, bytes)
    return payload


def one_deck_game(
    tmp_path: Path, games: MemoryCache, planting: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], Counter]:
    """The one-deck float game stored, its entry replaced by ``planting(cache, digest)``'s
    payload, and fetched again as another process would: what it warned, how often it
    solved."""
    lines, warn = collect()
    cache, counter = Cache(tmp_path / "c", warn=warn), Counter()
    compute = counter.wrap(lambda: solve_game(ONE_DECK, cache=games))
    expected = cache.fetch(GAME, Key(ONE_DECK), compute)
    digest = cache.digest(GAME, Key(ONE_DECK))
    plant(tmp_path / "c", digest, planting(cache, digest))
    as_another_process(monkeypatch)
    again = Cache(tmp_path / "c", warn=warn)
    assert again.fetch(GAME, Key(ONE_DECK), compute).to_json() == expected.to_json()
    assert again.fetch(GAME, Key(ONE_DECK), compute).rules == ONE_DECK  # stored right again
    return lines, counter


def test_a_hit_refuses_another_games_payload_under_its_key(
    tmp_path: Path, games: MemoryCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    def six_decks(cache: DiskCache, digest: str) -> bytes:
        cache.fetch(GAME, Key(SIX_DECKS), lambda: solve_game(SIX_DECKS, cache=games))
        return stored(tmp_path / "c", cache.digest(GAME, Key(SIX_DECKS)))

    lines, counter = one_deck_game(tmp_path, games, six_decks, monkeypatch)
    assert counter.calls == 2
    assert len(lines) == 1 and "corrupt (it holds a result for other rules)" in lines[0]


def test_a_hit_refuses_a_number_that_is_not_finite(
    tmp_path: Path, games: MemoryCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    def infinite(cache: DiskCache, digest: str) -> bytes:
        payload = stored(tmp_path / "c", digest)
        size = int.from_bytes(payload[:4], "big")
        head = json.loads(zlib.decompress(payload[4 : 4 + size]))
        head["round_lines"][0][1] = float("inf")  # written as Infinity, as JSON cannot
        text = zlib.compress(json.dumps(head).encode())
        assert b"Infinity" in zlib.decompress(text)
        return len(text).to_bytes(4, "big") + text + payload[4 + size :]

    lines, counter = one_deck_game(tmp_path, games, infinite, monkeypatch)
    assert counter.calls == 2
    assert len(lines) == 1 and "a number that is not finite (Infinity)" in lines[0]


def spaces_bomb(size: int = 1 << 30) -> bytes:
    """A zlib stream of ``size`` spaces (a multiple of 16 MiB; a GiB is about a megabyte of
    stream), made without holding them: one 16 MiB block repeated after a full flush, and
    the Adler-32 of the whole written out (for ``n`` bytes of value 32: ``A = 1 + 32 n`` and
    ``B = n + 32 n (n + 1) / 2``, both modulo 65521)."""
    first, again, last = _space_blocks()
    adler = ((size + 32 * size * (size + 1) // 2) % 65521) << 16 | (1 + 32 * size) % 65521
    return first + again * (size // CHUNK - 1) + last + adler.to_bytes(4, "big")


#: The bytes of spaces each block of :func:`spaces_bomb` inflates to.
CHUNK = 16 << 20


@cache
def _space_blocks() -> tuple[bytes, bytes, bytes]:
    """The bomb's first, repeated and last blocks, the same for every size: compressed once
    per process (each compression of 32 MiB took 0.1 s, and the tests make five bombs)."""
    chunk = b" " * CHUNK
    packer = zlib.compressobj(9)
    first = packer.compress(chunk) + packer.flush(zlib.Z_FULL_FLUSH)
    again = packer.compress(chunk) + packer.flush(zlib.Z_FULL_FLUSH)
    last = packer.flush()[:-4]  # the final block, less the Adler-32 of two chunks
    return first, again, last


def test_the_bomb_is_that_many_spaces() -> None:
    """The bomb planted below is what it says, checked at 1/16 of its size: zlib inflates it
    to exactly that many spaces and finds its Adler-32 right; the full one is 64 times the
    stream's repeated block longer."""
    size = 64 << 20
    assert zlib.decompress(spaces_bomb(size)) == b" " * size
    block = len(spaces_bomb(32 << 20)) - len(spaces_bomb(16 << 20))
    assert len(spaces_bomb(1 << 30)) == len(spaces_bomb(size)) + 60 * block


def test_a_hit_refuses_a_zlib_bomb_within_bounded_memory(
    tmp_path: Path, games: MemoryCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    spaces = spaces_bomb(1 << 30)
    payload = len(spaces).to_bytes(4, "big") + spaces

    def bomb(cache: DiskCache, digest: str) -> bytes:
        return payload

    tracemalloc.start()
    try:
        lines, counter = one_deck_game(tmp_path, games, bomb, monkeypatch)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert counter.calls == 2
    assert len(lines) == 1 and f"inflates to more than {MAX_SECTION_BYTES} bytes" in lines[0]
    assert peak < 3 * MAX_SECTION_BYTES  # the bound (and zlib's buffers), not the gibibyte


def test_the_default_folder_is_the_users_cache_folder_as_platformdirs_finds_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("CBJ_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_directory() == tmp_path / "xdg" / "community-blackjack"
    monkeypatch.setenv("XDG_CACHE_HOME", "")  # empty: the home folder's .cache
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_directory() == tmp_path / "home" / ".cache" / "community-blackjack"
    asked: list[object] = []

    def elsewhere(name: str, appauthor: object) -> str:  # another system's convention
        asked.append((name, appauthor))
        return str(tmp_path / "Library" / "Caches" / name)

    monkeypatch.setattr(platformdirs, "user_cache_dir", elsewhere)
    assert default_directory() == tmp_path / "Library" / "Caches" / "community-blackjack"
    assert asked == [("community-blackjack", False)]
    monkeypatch.setenv("CBJ_CACHE_DIR", str(tmp_path / "mine"))  # the override still wins
    assert default_directory() == tmp_path / "mine" and len(asked) == 1
