"""The computing code's fingerprint: a hash of the source every stored result depends on.

Part of every key of the disk store (:mod:`solver.store.disk`), so that results computed
by other code are never returned.  Hashing the source is a tenth of a cache hit, so the
disk store remembers the fingerprint beside the state of the files
(:func:`remembered_fingerprint`) and hashes again only when that state changes.
"""

from __future__ import annotations

import os
import sqlite3
import time
from contextlib import suppress
from functools import cache

from solver.store.digest import sha256

#: Bump when the payload layout changes; part of every key.
SCHEMA_VERSION = 4
#: The package's folder (``solver/``).
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
#: Folders (under the package) whose source decides every stored result: the computing
#: code (the exact solver, the simulator and the studies that drive them: shoe paths, dealt
#: shoes, the report's studies and ``cbj attack`` are stored whole), and the store's own
#: codecs and payload format.
COMPUTING_CODE = ("model", "exact", "sim", "studies", "store")
#: A source file changed less than this many seconds ago may change again within the same
#: tick of the file system's clock (2 s on FAT), unseen by its times: its state is not
#: remembered (see :func:`remembered_fingerprint`).
SETTLED_SECONDS = 5


def computing_files(root: str) -> list[str]:
    """The computing code's files, relative to the package root, in the order hashed."""
    names = [
        (folder, entry.name)
        for folder in COMPUTING_CODE
        for entry in os.scandir(os.path.join(root, folder))
        if entry.name.endswith(".py")
    ]
    return [f"{folder}/{name}" for folder, name in sorted(names)]


def hash_code(root: str) -> str:
    """The computing code's hash, read afresh from its files (see :func:`code_fingerprint`)."""
    parts = [f"{SCHEMA_VERSION}\0".encode()]
    for name in computing_files(root):
        with open(os.path.join(root, name), "rb") as file:
            parts += [name.encode(), b"\0", file.read(), b"\0"]
    return sha256(b"".join(parts))


@cache
def code_fingerprint(root: str | os.PathLike[str] = PACKAGE_ROOT) -> str:
    """A hash of the schema and the source of the computing code.

    Editing any file of :data:`COMPUTING_CODE` (``solver/exact``, say) changes it,
    so results computed by other code are never returned.  The package's version number
    is left out: the source it would stand for is hashed itself, and reading the version
    (``importlib.metadata``) cost a cache hit a tenth of its time.
    """
    return hash_code(os.fspath(root))


def code_state(root: str) -> tuple[str, bool]:
    """The computing files' names, sizes, inodes and modification and change times, as
    text, and whether every file has settled (changed :data:`SETTLED_SECONDS` ago or more).

    Writing a file sets its change time to the clock's present (programs cannot set it,
    short of changing the system clock), so a file edited after its state was taken has
    another state.  (On Windows ``st_ctime`` is the creation time: there an edit is seen
    by the file's size and modification time.)
    """
    lines = []
    newest = 0
    for name in computing_files(root):
        info = os.stat(os.path.join(root, name))
        newest = max(newest, info.st_mtime_ns, info.st_ctime_ns)
        lines.append(f"{name} {info.st_size} {info.st_ino} {info.st_mtime_ns} {info.st_ctime_ns}")
    settled = newest < time.time_ns() - SETTLED_SECONDS * 1_000_000_000
    return "\n".join(lines), settled


def remembered_fingerprint(db: sqlite3.Connection, root: str = PACKAGE_ROOT) -> str:
    """The code's fingerprint, remembered in the store's ``code`` table beside the state of
    its files (:func:`code_state`) and used again while that state is unchanged.

    Hashing the 270 KB of source was a tenth of a cache hit; reading the files' states
    costs a fortieth of that.  A fingerprint is remembered only when the files have settled
    and kept the same state while they were hashed.
    """
    state, settled = code_state(root)
    try:
        row = db.execute("SELECT state, fingerprint FROM code WHERE root = ?", (root,)).fetchone()
    except sqlite3.Error:  # the entry's read reports a database that does not work
        row = None
    if row is not None and row[0] == state:
        return str(row[1])
    fingerprint = hash_code(root)
    if settled and code_state(root)[0] == state:
        with suppress(sqlite3.Error):  # only a memo: the store works without it
            db.execute("INSERT OR REPLACE INTO code VALUES (?, ?, ?)", (root, state, fingerprint))
    return fingerprint
