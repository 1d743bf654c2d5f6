"""The disk cache: exact round trips, keys, integrity, permissions, eviction, fallbacks."""

from __future__ import annotations

import ast
import functools
import hashlib
import math
import os
import pickle
import shutil
import sqlite3
import subprocess
import sys
import time
import zlib
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, fields
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import solver.cache as cache_module
from solver.cache import (
    DATABASE_NAME,
    Cache,
    CacheWarning,
    MemoryCache,
    NoCache,
    Section,
    StoredSolutions,
    code_fingerprint,
    decode_chart,
    decode_floats,
    decode_game,
    decode_rules,
    encode_chart,
    encode_floats,
    encode_game,
    encode_rules,
    forget_recent,
    head_of,
    pack,
    remembered_fingerprint,
    unpack,
)
from solver.exact.game import GameResult, solve_game
from solver.exact.player import PlayerSolution
from solver.exact.strategy import Chart, best_chart, stored_chart
from solver.model.cards import Card, Shoe, parse_cards
from solver.model.errors import ShoeError
from solver.model.rules import DealerNatural, NaturalBeats, Rules

from .conftest import physical_cards

ONE_DECK = physical_cards(Shoe.full(1))


def same_solution(a: PlayerSolution, b: PlayerSolution) -> None:
    """Two solutions equal value for value and type for type (floats stay floats)."""
    assert a.rules == b.rules
    for name in ("hands", "keys", "children", "draws", "sizes"):
        assert np.array_equal(getattr(a.space, name), getattr(b.space, name)), name
    assert (a.space.bonus, a.space.shoe) == (b.space.bonus, b.space.shoe)
    assert a.hitting == b.hitting
    for name in ("stand", "hit", "outcomes"):
        left, right = getattr(a, name), getattr(b, name)
        assert left == right, name
        assert [type(x) for x in np.ravel(np.array(left, dtype=object))] == [
            type(x) for x in np.ravel(np.array(right, dtype=object))
        ], name


def same_game(a: GameResult[Any], b: GameResult[Any]) -> None:
    """Two solved games equal in every field (hand spaces compared array by array)."""
    assert (a.rules, a.removed, a.exact) == (b.rules, b.removed, b.exact)
    assert a.starts == b.starts
    assert [type(s.probability) for s in a.starts] == [type(s.probability) for s in b.starts]
    assert a.bonus == b.bonus
    assert a.round_lines == b.round_lines
    assert list(a.solutions) == list(b.solutions)
    for c in a.solutions:
        same_solution(a.solutions[c], b.solutions[c])


@st.composite
def small_games(draw: st.DrawFn) -> tuple[Rules, tuple[Card, ...], bool]:
    """One-deck rules and a shoe of 8 to 14 cards, exact or float."""
    keep = draw(st.sets(st.sampled_from(range(52)), min_size=8, max_size=14))
    removed = tuple(c for i, c in enumerate(ONE_DECK) if i not in keep)
    rules = Rules(
        decks=1,
        dealer_stands_on=draw(st.integers(15, 19)),
        dealer_natural=draw(st.sampled_from(list(DealerNatural))),
        blackjack_pays=draw(st.sampled_from([Fraction(3, 2), Fraction(6, 5)])),
    )
    return rules, removed, draw(st.booleans())


def solve_or_reject(rules: Rules, removed: tuple[Card, ...], exact: bool) -> GameResult[Any]:
    """The solved game, or the example rejected when the shoe can run dry mid-round."""
    try:
        return solve_game(rules, removed, exact=exact)
    except ShoeError:
        reject()


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_games())
def test_a_game_and_its_chart_survive_encoding_exactly(
    case: tuple[Rules, tuple[Card, ...], bool],
) -> None:
    """Every game; the chart of every exact one (about half the examples), searched on the
    game just solved rather than on a second solve of another shoe."""
    rules, removed, exact = case
    game = solve_or_reject(rules, removed, exact)
    same_game(decode_game(unpack(pack(encode_game(game)))), game)
    if exact:
        chart = best_chart(rules, game)
        assert decode_chart(unpack(pack(encode_chart(chart)))) == chart


@dataclass
class Counter:
    """Counts how often a computation really ran."""

    calls: int = 0

    def wrap(self, compute: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            self.calls += 1
            return compute()

        return run


SMALL = Rules(decks=1)
KEPT = {str(c) for c in parse_cards("As 2h 5d 9c 10s Kh 7c 10h Jd Qc Ks 9h 8d 10c Jh Qs")}
REMOVED = tuple(c for c in ONE_DECK if str(c) not in KEPT)


@functools.cache
def solved(removed: tuple[Card, ...]) -> GameResult[Any]:
    """The small game without these cards, solved once per process: a cache's computation
    returns it (each call still counted), so that a test of the cache solves nothing."""
    return solve_game(SMALL, removed, True)


def fetch(cache: Cache, counter: Counter, removed: tuple[Card, ...] = REMOVED) -> GameResult[Any]:
    result: GameResult[Any] = cache.fetch(
        "game", SMALL, removed, True, counter.wrap(lambda: solved(removed))
    )
    return result


def collect() -> tuple[list[str], Callable[[str], None]]:
    lines: list[str] = []
    return lines, lines.append


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
    *(Rules(dealer_natural=n) for n in DealerNatural if n is not Rules().dealer_natural),
    *(Rules(natural_beats=b) for b in NaturalBeats if b is not Rules().natural_beats),
]


def test_every_rule_is_in_the_key_and_survives_encoding(tmp_path: Path) -> None:
    compared = {f.name for f in fields(Rules) if f.compare}
    changed = {f for r in ONE_CHANGE for f in compared if getattr(r, f) != getattr(Rules(), f)}
    assert changed == compared  # the list above covers every rule
    cache = Cache(tmp_path / "c", warn=collect()[1])
    keys = {cache.key("game", r, (), False) for r in [Rules(), *ONE_CHANGE]}
    assert len(keys) == len(ONE_CHANGE) + 1
    for rules in ONE_CHANGE:
        assert decode_rules(encode_rules(rules)) == rules


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
    key = cache.key("game", SMALL, REMOVED, True)
    with sqlite3.connect(folder / DATABASE_NAME) as db:
        db.execute(
            "UPDATE entries SET payload = ?, checksum = ? WHERE key = ?",
            (evil, Cache._checksum(key, evil), key),
        )
    fetch(cache, counter)
    assert not marker.exists()
    assert counter.calls == 2
    assert len(lines) == 1 and "corrupt" in lines[0]


def test_the_cache_module_cannot_unpickle() -> None:
    tree = ast.parse(Path(cache_module.__file__).read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    } | {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not imported & {"pickle", "joblib", "marshal", "shelve", "dill", "cloudpickle"}


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


def test_a_cached_game_leaves_its_solutions_packed_until_used(tmp_path: Path) -> None:
    cache, counter = Cache(tmp_path / "c", warn=collect()[1]), Counter()
    expected = fetch(cache, counter)
    assert fetch(cache, counter).solutions is expected.solutions  # kept by this process
    forget_recent()  # as another process would, read it from disk
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
    tmp_path: Path, part: bytes
) -> None:
    """A payload whose head and its checksum hold but whose solutions section is not the
    one the head names: not JSON, or JSON that would decode (an empty list)."""
    folder = tmp_path / "c"
    lines, warn = collect()
    cache, counter = Cache(folder, warn=warn), Counter()
    expected = fetch(cache, counter)
    key = cache.key("game", SMALL, REMOVED, True)
    with sqlite3.connect(folder / DATABASE_NAME) as db:
        (payload,) = db.execute("SELECT payload FROM entries").fetchone()
        head = payload[: 4 + int.from_bytes(payload[:4], "big")]
        broken = head + len(part).to_bytes(4, "big") + part
        db.execute(
            "UPDATE entries SET payload = ?, checksum = ?", (broken, Cache._checksum(key, broken))
        )
    forget_recent()  # as another process would, read it from disk
    game = fetch(cache, counter)
    assert counter.calls == 1 and lines == []  # the head alone decodes
    same_game(game, expected)
    assert counter.calls == 2 and len(lines) == 1 and "corrupt" in lines[0]
    same_game(fetch(cache, counter), expected)  # stored again, whole
    assert counter.calls == 2 and len(lines) == 1


@pytest.mark.parametrize("change", ["DELETE FROM entries", "UPDATE entries SET checksum = 'x'"])
def test_solutions_of_an_entry_gone_since_its_head_was_read_are_recomputed_silently(
    tmp_path: Path, change: str
) -> None:
    """Evicted, or replaced by another process, between reading the head and the solutions."""
    folder = tmp_path / "c"
    lines, warn = collect()
    cache, counter = Cache(folder, warn=warn), Counter()
    expected = fetch(cache, counter)
    forget_recent()
    game = fetch(cache, counter)
    with closing(sqlite3.connect(folder / DATABASE_NAME)) as db:
        db.execute(change)
        db.commit()
    same_game(game, expected)
    assert counter.calls == 2 and lines == []


@pytest.mark.parametrize("payload", [b"", b"\0\0\0\x09abc", b"\0\0\0\x03abc"])
def test_a_payload_with_bad_sections_is_not_a_document(payload: bytes) -> None:
    with pytest.raises(ValueError, match="not a cache document"):
        unpack(payload)


def test_a_head_unpacked_alone_reads_its_parts_when_first_used() -> None:
    doc = {"rules": [1, 2], "solutions": [{"bonus": 3}]}
    payload = pack(doc)
    reads: list[bytes] = []

    def whole() -> bytes:
        reads.append(payload)
        return payload

    unpacked = unpack(head_of(payload), whole)
    assert unpacked["rules"] == [1, 2] and reads == []
    assert unpacked["solutions"].load() == doc["solutions"] and len(reads) == 1
    cut = unpack(head_of(payload), lambda: head_of(payload))  # the parts went missing
    with pytest.raises(ValueError, match="sections do not match"):
        cut["solutions"].load()


def test_small_and_large_inputs_hash_as_hashlib_does() -> None:
    limit = cache_module.SMALL_HASH_BYTES
    for size in (0, 1, 100, limit, limit + 1, 3 * limit):
        data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
        assert cache_module._sha256(data) == hashlib.sha256(data).hexdigest()


def test_a_document_without_deferred_parts_packs_as_one_section() -> None:
    doc = {"rules": [1, 2], "text": "x"}
    assert unpack(pack(doc)) == doc


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=40))
def test_float_columns_keep_every_bit(values: list[float]) -> None:
    back = decode_floats(encode_floats(values))
    assert [v.hex() for v in back] == [v.hex() for v in values]  # -0.0 too


@pytest.mark.parametrize(
    "text",
    [None, [0.5], "not base64!", "AAAA", encode_floats([math.nan]), encode_floats([-math.inf])],
    ids=["null", "list", "not-base64", "short", "nan", "infinity"],
)
def test_a_float_column_that_is_not_finite_doubles_does_not_decode(text: object) -> None:
    with pytest.raises(ValueError, match="float column"):
        decode_floats(text)


def test_an_entry_decoding_to_a_different_game_is_not_returned(tmp_path: Path) -> None:
    """A well-formed payload moved to another key fails the checksum, which covers the key."""
    folder = tmp_path / "c"
    lines, warn = collect()
    cache, counter = Cache(folder, warn=warn), Counter()
    fetch(cache, counter)
    other = REMOVED[1:]
    fetch(cache, counter, other)
    key, key_other = (cache.key("game", SMALL, r, True) for r in (REMOVED, other))
    with sqlite3.connect(folder / DATABASE_NAME) as db:
        (payload,) = db.execute("SELECT payload FROM entries WHERE key = ?", (key_other,))
        db.execute("UPDATE entries SET payload = ? WHERE key = ?", (payload[0], key))
    assert fetch(cache, counter).removed == REMOVED
    assert counter.calls == 3 and len(lines) == 1


def copy_code(root: Path) -> Path:
    package = Path(cache_module.__file__).parent
    for folder in ("model", "exact"):
        shutil.copytree(package / folder, root / folder)
    shutil.copy(package / "cache.py", root / "cache.py")
    return root


def test_changing_a_solver_source_file_invalidates_entries(tmp_path: Path) -> None:
    root = copy_code(tmp_path / "code")
    before = code_fingerprint(root)
    dealer = root / "exact" / "dealer.py"
    dealer.write_text(dealer.read_text() + "\n# a change\n")
    code_fingerprint.cache_clear()
    after = code_fingerprint(root)
    assert before != after
    counter = Counter()
    fetch(Cache(tmp_path / "c", fingerprint=before), counter)
    fetch(Cache(tmp_path / "c", fingerprint=before), counter)
    assert counter.calls == 1
    fetch(Cache(tmp_path / "c", fingerprint=after), counter)
    assert counter.calls == 2


def remembered(db: sqlite3.Connection) -> list[tuple[str, str]]:
    return db.execute("SELECT root, fingerprint FROM code").fetchall()


def test_the_fingerprint_is_remembered_until_a_source_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Edited in place, with its size and even its modification time kept: the change time
    still moves, so the fingerprint is hashed again."""
    root = str(copy_code(tmp_path / "code"))
    monkeypatch.setattr(cache_module, "SETTLED_SECONDS", -3600)  # as if an hour had passed
    with closing(Cache(tmp_path / "c")._open()) as db:
        first = remembered_fingerprint(db, root)
        assert first == code_fingerprint(root)
        assert remembered(db) == [(root, first)]
        with monkeypatch.context() as hashing:
            hashing.setattr(cache_module, "_hash_code", lambda root: pytest.fail("hashed"))
            assert remembered_fingerprint(db, root) == first  # the files were not read
        dealer = Path(root, "exact", "dealer.py")
        before = dealer.stat()
        text = dealer.read_bytes()
        edited = text.replace(b"dealer", b"Dealer", 1)
        assert edited != text and len(edited) == len(text)
        time.sleep(0.05)  # a coarse file system clock ticks every few milliseconds
        dealer.write_bytes(edited)
        os.utime(dealer, ns=(before.st_atime_ns, before.st_mtime_ns))
        after = dealer.stat()
        assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
        assert after.st_ctime_ns != before.st_ctime_ns
        second = remembered_fingerprint(db, root)
        assert second != first
        assert second == cache_module._hash_code(root)
        assert remembered(db) == [(root, second)]


def test_source_changed_moments_ago_is_hashed_but_not_remembered(tmp_path: Path) -> None:
    root = str(copy_code(tmp_path / "code"))  # every file written just now
    with closing(Cache(tmp_path / "c")._open()) as db:
        assert remembered_fingerprint(db, root) == code_fingerprint(root)
        assert remembered(db) == []


def test_a_cache_takes_the_remembered_fingerprint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_module, "SETTLED_SECONDS", -3600)  # however new the checkout
    counter = Counter()
    fetch(Cache(tmp_path / "c", warn=collect()[1]), counter)
    with closing(sqlite3.connect(tmp_path / "c" / DATABASE_NAME)) as db:
        assert remembered(db) == [(cache_module.PACKAGE_ROOT, code_fingerprint())]
    monkeypatch.setattr(cache_module, "_hash_code", lambda root: pytest.fail("hashed"))
    cache = Cache(tmp_path / "c", warn=collect()[1])
    fetch(cache, counter)
    assert cache.fingerprint == code_fingerprint()
    assert counter.calls == 1


def loaded(code: str, env: dict[str, str]) -> set[str]:
    """The modules a Python process running ``code`` has loaded at its end."""
    script = f"import sys\n{code}\nprint(' '.join(sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env
    )
    assert done.stderr == ""
    return set(done.stdout.split())


def test_a_cache_hit_loads_only_what_it_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, games: MemoryCache
) -> None:
    # Not a timing test: a repeated `cbj solve` needs no file paths, no statistics, no
    # OpenSSL (it hashes a few kilobytes) and not the Bonus ratio's tables.
    monkeypatch.setattr(cache_module, "SETTLED_SECONDS", -3600)  # however new the checkout
    rules = Rules(decks=1)
    Cache(tmp_path).game(rules, (), False, lambda: solve_game(rules, cache=games))
    env = dict(os.environ, CBJ_CACHE_DIR=str(tmp_path))
    hit = (
        "import contextlib, io\n"
        "from solver.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['solve', '--decks', '1'])"
    )
    at_start = loaded("", env)  # an editable install's import hook loads pathlib itself
    unwanted = {"pathlib", "statistics", "hashlib", "_hashlib", "solver.exact.ratios", "numpy"}
    assert loaded(hit, env) & unwanted <= at_start


def test_a_database_from_before_the_memo_is_read_and_given_it(tmp_path: Path) -> None:
    counter = Counter()
    fetch(Cache(tmp_path / "c", warn=collect()[1]), counter)
    with closing(sqlite3.connect(tmp_path / "c" / DATABASE_NAME)) as db:
        db.execute("DROP TABLE code")
        db.commit()
    lines, warn = collect()
    fetch(Cache(tmp_path / "c", warn=warn), counter)
    assert counter.calls == 1 and lines == []
    with closing(sqlite3.connect(tmp_path / "c" / DATABASE_NAME)) as db:
        assert db.execute("SELECT COUNT(*) FROM code").fetchone() is not None


def test_the_fingerprint_covers_every_computing_module() -> None:
    package = Path(cache_module.__file__).parent
    for folder in ("model", "exact"):
        assert folder in cache_module.COMPUTING_CODE
        assert list((package / folder).glob("*.py"))


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
    keys = [cache.key("game", SMALL, r, True) for r in shoes]
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
    assert after[cache.key("game", SMALL, REMOVED[1:], True)] > max(before.values())
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


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_a_read_only_folder_falls_back(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir(mode=0o500)
    lines, warn = collect()
    refused(Cache(folder, warn=warn), lines, "cache not used")


def test_warnings_default_to_the_warnings_module(tmp_path: Path) -> None:
    (tmp_path / "c").write_text("")
    with pytest.warns(CacheWarning, match="cache not used"):
        fetch(Cache(tmp_path / "c"), Counter())


def test_no_cache_computes_every_time_silently() -> None:
    counter = Counter()
    fetch(NoCache(), counter)
    fetch(NoCache(), counter)
    assert counter.calls == 2
    assert NoCache().info().entries == 0


def test_the_size_cap_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CBJ_CACHE_MAX_MB", "7")
    assert Cache().max_bytes == 7 * 1024 * 1024
    monkeypatch.setenv("CBJ_CACHE_MAX_MB", "lots")
    assert Cache().max_bytes == cache_module.DEFAULT_MAX_BYTES


def test_the_chart_is_cached_with_its_game(tmp_path: Path, games: MemoryCache) -> None:
    rules = Rules(decks=1)
    lines, warn = collect()
    cache = Cache(tmp_path / "c", warn=warn)
    counter = Counter()

    def compute() -> Chart:
        # What ``best_chart(rules, solve_game(rules, exact=True, cache=cache))`` does,
        # with the game and the chart taken from the session's store (where `cbj chart
        # --decks 1` finds them too) rather than solved and searched again.
        game = cache.game(rules, (), True, lambda: solve_game(rules, exact=True, cache=games))
        return stored_chart(rules, game, games)

    chart = cache.chart(rules, counter.wrap(compute))
    assert cache.info().entries == 2  # the exact game and the chart
    assert cache.chart(rules, counter.wrap(compute)) == chart
    assert counter.calls == 1
    assert lines == []


def test_parse_cards_order_gives_one_key() -> None:
    cache = Cache(Path("/nonexistent"), fingerprint="x")
    a = cache.key("game", SMALL, parse_cards("As Kd"), False)
    assert a == cache.key("game", SMALL, parse_cards("Kd As"), False)
    assert a != cache.key("game", SMALL, parse_cards("Kd As"), True)
    assert a != cache.key("chart", SMALL, parse_cards("Kd As"), False)
