"""The computing code's fingerprint: part of every key, remembered until a source file
changes, and a cache hit that loads only what it reads."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

import solver
from solver.exact.game import solve_game
from solver.model.rules import Rules
from solver.results.game import GAME
from solver.results.kinds import Key
from solver.store import fingerprint
from solver.store.disk import DATABASE_NAME, DiskCache
from solver.store.fingerprint import code_fingerprint, remembered_fingerprint
from solver.store.memory import MemoryCache

from .stores import Counter, collect, fetch, remembered

#: The disk store's earlier name, which these tests used (``solver.Cache`` still is).
Cache = DiskCache
PACKAGE = Path(fingerprint.PACKAGE_ROOT)


def copy_code(root: Path) -> Path:
    for folder in fingerprint.COMPUTING_CODE:
        shutil.copytree(PACKAGE / folder, root / folder)
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


def test_the_fingerprint_is_remembered_until_a_source_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Edited in place, with its size and even its modification time kept: the change time
    still moves, so the fingerprint is hashed again."""
    root = str(copy_code(tmp_path / "code"))
    monkeypatch.setattr(fingerprint, "SETTLED_SECONDS", -3600)  # as if an hour had passed
    with closing(Cache(tmp_path / "c")._open()) as db:
        first = remembered_fingerprint(db, root)
        assert first == code_fingerprint(root)
        assert remembered(db) == [(root, first)]
        with monkeypatch.context() as hashing:
            hashing.setattr(fingerprint, "hash_code", lambda root: pytest.fail("hashed"))
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
        assert second == fingerprint.hash_code(root)
        assert remembered(db) == [(root, second)]


def test_source_changed_moments_ago_is_hashed_but_not_remembered(tmp_path: Path) -> None:
    root = str(copy_code(tmp_path / "code"))  # every file written just now
    with closing(Cache(tmp_path / "c")._open()) as db:
        assert remembered_fingerprint(db, root) == code_fingerprint(root)
        assert remembered(db) == []


def test_a_cache_takes_the_remembered_fingerprint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fingerprint, "SETTLED_SECONDS", -3600)  # however new the checkout
    counter = Counter()
    fetch(Cache(tmp_path / "c", warn=collect()[1]), counter)
    with closing(sqlite3.connect(tmp_path / "c" / DATABASE_NAME)) as db:
        assert remembered(db) == [(fingerprint.PACKAGE_ROOT, code_fingerprint())]
    monkeypatch.setattr(fingerprint, "hash_code", lambda root: pytest.fail("hashed"))
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
    monkeypatch.setattr(fingerprint, "SETTLED_SECONDS", -3600)  # however new the checkout
    rules = Rules(decks=1)
    Cache(tmp_path).fetch(GAME, Key(rules), lambda: solve_game(rules, cache=games))
    # As a first `cbj solve` does, read the volatility: that keeps it beside the game.
    assert solver.solve(rules=rules, cache=Cache(tmp_path)).volatility is not None
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
    for folder in ("model", "exact", "sim", "studies", "store"):
        assert folder in fingerprint.COMPUTING_CODE
        assert list((PACKAGE / folder).glob("*.py"))
