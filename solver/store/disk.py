"""The disk store: results of every kind kept between runs of ``cbj``.

The library never stores on its own: functions take ``cache=`` (a
:class:`~solver.results.kinds.Store`): one :meth:`DiskCache.fetch` of a kind of result
(:class:`~solver.results.kinds.Kind`: games, charts, effects of removal, the report's
studies, any other) by its :class:`~solver.results.kinds.Key`.  :func:`default_cache` is the
disk store ``cbj`` uses.  Storage is one SQLite database (standard library) in a private
folder.  SQLite gives atomic writes that several ``cbj`` processes can share, and
least-recently-used eviction is one ``ORDER BY``.  Each entry's payload is the sectioned,
zlib-compressed JSON of :mod:`solver.store.payload`, encoded by :mod:`solver.store.codecs`:
plain data only, so loading an entry can never execute code (nothing here uses pickle);
about 2.4 MB for a six-deck exact game and 1.2 MB for a float one.  A game's per-hand
solutions, nearly all of it, are read from the database and decoded only when first used: a
repeated ``cbj solve`` reads a few kilobytes (the entry's head) and loads neither numpy nor
the solver.  Solutions wanted after their entry was evicted or replaced are solved again,
silently.  Within one process, the last few entries decoded or stored are kept
(:data:`RECENT_ENTRIES`): reading one again still reads and verifies its head, but does not
decode it again.

Safety rules:

* the key is a hash of everything that changes a result, in canonical form (rules,
  sorted removed cards, exact or float, kind of result, any settings) and of the computing
  code (:func:`~solver.store.fingerprint.code_fingerprint`);
* every entry carries a SHA-256 checksum of its key and head, and the head holds the
  SHA-256 of each part decoded later (the solutions), checked when that part is first
  used.  The checksums guard against damage, not against a writer: whoever can write
  the database can write an entry and its checksum, which is why no one but its owner may;
* a hit is still checked for what cannot be right: each section inflates to at most
  :data:`~solver.store.payload.MAX_SECTION_BYTES` (so a "zlib bomb" cannot take the memory),
  every number in it is finite, and the result it decodes to names the rules, removed
  cards and arithmetic its key does (:meth:`~solver.results.kinds.Key.refuses`);
* an entry that fails any of these, or does not decode, is recomputed with one line of
  warning;
* the folder is resolved once (symbolic links followed), and what it resolves to is
  checked: created private (0700), a folder or database owned by another user or writable
  by group or others is not read, nor a database that is a symbolic link (one line of
  warning, the command runs uncached); any other problem with the folder (a path too long
  for the system, a file in its place, read-only, full disk, locked database) also gives
  one line of warning and no caching, never a failure.

Warnings go to ``warn`` (a callable taking one line), by default :func:`warnings.warn`
with :class:`CacheWarning`.
"""

from __future__ import annotations

import json
import os
import sqlite3
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar, cast

from solver.model.checks import whole_number
from solver.model.errors import CbjError
from solver.results.kinds import Key, Kind
from solver.store.codecs import StoredSolutions, codec_of, with_removed
from solver.store.digest import sha256
from solver.store.fingerprint import code_fingerprint, remembered_fingerprint
from solver.store.folder import Unusable, check_owned_private, describe, shortened, too_long
from solver.store.payload import head_of, pack, unpack

if TYPE_CHECKING:  # a cache hit works on the folder's name alone, without pathlib
    from pathlib import Path


#: Default size cap of the cache, in bytes of stored payload.
DEFAULT_MAX_BYTES = 500 * 1024 * 1024
#: Environment variables: the folder, and the cap in megabytes.
DIR_VARIABLE = "CBJ_CACHE_DIR"
MAX_MB_VARIABLE = "CBJ_CACHE_MAX_MB"
DATABASE_NAME = "cache.sqlite3"
#: The cache's folder under the user's cache folder.
APP_FOLDER = "community-blackjack"

T = TypeVar("T")


class CacheWarning(UserWarning):
    """The cache could not be used, or an entry was bad and has been recomputed."""


def default_directory() -> Path:
    """Where the cache lives: ``$CBJ_CACHE_DIR``, else the user's cache folder as platformdirs
    finds it (``$XDG_CACHE_HOME/community-blackjack``, by default
    ``~/.cache/community-blackjack``, on Linux; ``~/Library/Caches/community-blackjack`` on
    macOS; ``%LOCALAPPDATA%\\community-blackjack\\Cache`` on Windows)."""
    from pathlib import Path  # only where the folder is shown: a cache hit does not

    return Path(_default_folder())


def _default_folder() -> str:
    """:func:`default_directory` as text, without loading pathlib (a cache hit does not)."""
    configured = os.environ.get(DIR_VARIABLE)
    if configured:
        return configured
    # Only where no folder is given (--cache-dir, CBJ_CACHE_DIR): those never load it.
    import platformdirs

    folder = platformdirs.user_cache_dir(APP_FOLDER, appauthor=False)
    if folder.startswith("~"):  # no home folder to expand: never a folder named "~" here
        raise RuntimeError("Could not determine home directory.")
    return folder


def default_max_bytes() -> int:
    """The size cap: ``$CBJ_CACHE_MAX_MB`` megabytes if set to a whole number, else 500 MB."""
    configured = os.environ.get(MAX_MB_VARIABLE, "").strip()
    if configured.isascii() and configured.isdigit() and len(configured) <= 9:
        return int(configured) * 1024 * 1024
    return DEFAULT_MAX_BYTES


#: The largest size cap: SQLite's largest integer (and a number every output writes whole).
MAX_CAP = 2**63 - 1


def _cap(max_bytes: object) -> int:
    """A size cap given to :class:`DiskCache`: a whole number of bytes, 0 to :data:`MAX_CAP`."""
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int):
        kind = type(max_bytes).__name__
        raise TypeError(f"max_bytes must be a whole number of bytes (an int), not {kind}")
    return whole_number(max_bytes, "max_bytes", 0, MAX_CAP, CbjError)


def _folder_named(directory: object) -> str:
    """The cache folder given to :class:`DiskCache` as text (a ``str`` or a path)."""
    folder = os.fspath(directory) if isinstance(directory, str | os.PathLike) else None
    if not isinstance(folder, str):
        kind = type(directory).__name__
        raise TypeError(f"directory must be a str or a path (pathlib.Path), not {kind}")
    return folder


@dataclass(frozen=True, slots=True)
class CacheInfo:
    """Where the cache is, how many bytes it takes on disk and how many entries it holds."""

    path: Path
    bytes: int
    entries: int
    max_bytes: int
    usable: bool

    def to_json(self) -> dict[str, Any]:
        """The figures as plain JSON values."""
        return {
            "path": str(self.path),
            "bytes": self.bytes,
            "entries": self.entries,
            "max_bytes": self.max_bytes,
            "usable": self.usable,
        }


@dataclass(frozen=True, slots=True)
class CacheCleared:
    """What ``cbj cache clear`` removed."""

    path: Path
    entries: int

    def to_json(self) -> dict[str, Any]:
        """The document ``cbj cache clear --format json`` prints."""
        return {"path": str(self.path), "entries_removed": self.entries}


class _EntryGone(LookupError):
    """An entry's deferred parts were wanted after the entry left the cache."""


class DiskCache:
    """The disk store of solved games, charts and effects of removal (see the module
    docstring): a :class:`~solver.results.kinds.Store`.

    Args:
        directory: The cache folder; ``None`` for :func:`default_directory`.
        max_bytes: Size cap of the stored payloads; least recently used entries go first.
        warn: Receives each one-line warning; ``None`` for :func:`warnings.warn`.
        fingerprint: The computing code's hash; ``None`` for
            :func:`~solver.store.fingerprint.code_fingerprint`.
    """

    def __init__(
        self,
        directory: Path | str | None = None,
        *,
        max_bytes: int | None = None,
        warn: Callable[[str], None] | None = None,
        fingerprint: str | None = None,
    ) -> None:
        # The folder's name as given; pathlib (18 million instructions) loads only when
        # the folder is shown as a Path (:attr:`directory`, :attr:`path`).
        folder = _folder_named(directory) if directory is not None else _default_folder()
        self._folder = folder or "."  # as Path("") is
        self._real: str | None = None  # the folder resolved, once (:meth:`_resolved`)
        self._file = ""  # the database in the resolved folder
        self.max_bytes = default_max_bytes() if max_bytes is None else _cap(max_bytes)
        self._warn = warn
        self._fingerprint = fingerprint
        self._disabled = False

    @property
    def directory(self) -> Path:
        """The cache folder, as given."""
        from pathlib import Path  # only where the folder is shown: a cache hit does not

        return Path(self._folder)

    @property
    def path(self) -> Path:
        """The database file, in the folder as given."""
        return self.directory / DATABASE_NAME

    @property
    def fingerprint(self) -> str:
        """The computing code's hash, part of every key."""
        if self._fingerprint is None:
            self._fingerprint = code_fingerprint()
        return self._fingerprint

    def _remember_fingerprint(self, db: sqlite3.Connection | None) -> None:
        """Take the fingerprint from the database's memo (:func:`remembered_fingerprint`)
        rather than hashing the source, unless it is known already."""
        if self._fingerprint is None and db is not None:
            self._fingerprint = remembered_fingerprint(db)

    def warn(self, message: str) -> None:
        """Pass one line of warning on."""
        line = " ".join(message.split())
        if self._warn is not None:
            self._warn(line)
        else:
            warnings.warn(line, CacheWarning, stacklevel=3)

    def _give_up(self, problem: str) -> None:
        if not self._disabled:
            self._disabled = True
            self.warn(f"cache not used: {problem}; running without it")

    def _shown(self) -> str:
        """The folder for a warning: as given, and what it resolves to when that differs."""
        given = shortened(os.path.normpath(self._folder))
        if self._real is None or self._real == os.path.abspath(self._folder):
            return given
        return f"{given} (that is, {shortened(self._real)})"

    def _resolved(self) -> str:
        """The folder with every symbolic link resolved, found once: the checks and every
        read and write apply to it, whatever the links point to later."""
        if self._real is None:
            try:
                real = os.path.realpath(self._folder)
            except (OSError, ValueError) as error:  # a loop of links, a NUL in the name
                raise Unusable(f"{shortened(self._folder)}: {describe(error)}") from None
            problem = too_long(real, DATABASE_NAME)
            if problem is not None:
                raise Unusable(f"cache folder {shortened(self._folder)} {problem}")
            self._real, self._file = real, os.path.join(real, DATABASE_NAME)
        return self._real

    def _open(self, create: bool = True) -> sqlite3.Connection:
        """Connect to the database after checking the folder and file are ours alone."""
        folder = self._resolved()
        if create:
            os.makedirs(folder, mode=0o700, exist_ok=True)
        if not os.path.isdir(folder):
            raise Unusable(f"{self._shown()} is not a folder")
        check_owned_private(folder, "cache folder", self._shown)
        path = self._file
        if not os.path.lexists(path):
            if not create:
                raise FileNotFoundError(path)
            flags = os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0)
            with suppress(FileExistsError):  # another process may create it first
                os.close(os.open(path, flags, 0o600))
        check_owned_private(path, "cache file", lambda: str(self.path))
        connection = sqlite3.connect(path, timeout=30, isolation_level=None)
        try:
            _prepare(connection)
        except BaseException:
            connection.close()
            raise
        return connection

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection | None]:
        """The open database, or ``None`` (after one warning) when it cannot be used."""
        if self._disabled:
            yield None
            return
        try:
            connection = self._open()
        except Unusable as problem:
            self._give_up(str(problem))
            yield None
            return
        except (OSError, sqlite3.Error) as error:
            self._give_up(f"{self._shown()}: {describe(error)}")
            yield None
            return
        with closing(connection):
            yield connection

    def digest(self, kind: Kind[Any], key: Key) -> str:
        """The entry's key in the database: a hash of the kind, the key in canonical form
        and the computing code."""
        canonical = {"kind": kind.name, **key.canonical(), "code": self.fingerprint}
        text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
        return sha256(text.encode())

    @staticmethod
    def _checksum(key: str, payload: bytes) -> str:
        """SHA-256 of the key and the entry's head (which holds its parts' digests)."""
        return sha256(key.encode() + b"\0" + head_of(payload))

    def load(self, kind: Kind[T], digest: str, key: Key | None = None) -> T | None:
        """The decoded entry ``digest`` (its :meth:`digest`), or ``None`` if missing, bad,
        unreadable or (given its ``key``) not a result for that key."""
        with self._connection() as db:
            return None if db is None else self._load(db, kind, digest, key)

    def _load(
        self, db: sqlite3.Connection, kind: Kind[T], digest: str, key: Key | None
    ) -> T | None:
        """:meth:`load` on an open database."""
        try:
            row = db.execute(
                "SELECT kind, typeof(payload), rowid, checksum,"
                " used = (SELECT MAX(used) FROM entries) FROM entries WHERE key = ?",
                (digest,),
            ).fetchone()
        except sqlite3.Error as error:
            self._give_up(f"{self.path}: {describe(error)}")
            return None
        if row is None:
            return None
        stored_kind, payload_type, rowid, checksum, latest = row
        try:
            if stored_kind != kind.name or payload_type != "blob":
                raise ValueError("wrong kind of entry")
            value: T = self._decoded(db, kind, digest, rowid, checksum)
            refused = None if key is None else key.refuses(value)
            if refused is not None:
                raise ValueError(refused)
        except Exception as error:  # any malformed entry is recomputed, never trusted
            self.warn(f"cache entry {digest[:12]} is corrupt ({error}); recomputing it")
            _forget(self._file, digest)
            self._execute(db, "DELETE FROM entries WHERE key = ?", (digest,))
            return None
        if not latest:  # the most recently used entry needs no write to stay so
            self._execute(
                db,
                "UPDATE entries SET used = (SELECT COALESCE(MAX(used), 0) + 1 FROM entries)"
                " WHERE key = ?",
                (digest,),
            )
        return value

    def _decoded(
        self, db: sqlite3.Connection, kind: Kind[Any], key: str, rowid: int, checksum: str
    ) -> Any:
        """The entry at ``rowid``, its head read and checked (its deferred parts are read
        when first used); raises if it is not the entry ``checksum`` names."""
        # The head alone: SQLite reads the rest (0.8 MB or more) when it is first used.
        with db.blobopen("entries", "payload", rowid, readonly=True) as blob:
            start = blob.read(4)
            head = start + blob.read(int.from_bytes(start, "big"))
        if self._checksum(key, head) != checksum:
            raise ValueError("checksum mismatch")
        value = _recall(self._file, key, checksum)
        if value is None:
            whole = partial(self._payload, key, checksum)
            value = codec_of(kind)[1](unpack(head, whole))
            _remember(self._file, key, checksum, value)
        return value

    def _payload(self, key: str, checksum: str) -> bytes:
        """The whole payload of the entry whose head was read under ``checksum``."""
        row = None
        with self._connection() as db:
            if db is not None:
                try:
                    row = db.execute(
                        "SELECT payload FROM entries WHERE key = ? AND checksum = ?",
                        (key, checksum),
                    ).fetchone()
                except sqlite3.Error as error:
                    self._give_up(f"{self.path}: {describe(error)}")
        if row is None or not isinstance(row[0], bytes):
            raise _EntryGone("the entry has left the cache since its head was read")
        return row[0]

    def _execute(self, db: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> bool:
        try:
            db.execute(sql, args)
        except sqlite3.Error as error:
            self._give_up(f"{self.path}: {describe(error)}")
            return False
        return True

    def store(self, kind: Kind[T], key: str, value: T) -> None:
        """Encode and store ``value`` under ``key`` (its :meth:`digest`), then evict down to
        the size cap."""
        try:
            payload = pack(codec_of(kind)[0](value))
        except ValueError as error:  # a figure JSON cannot hold (not finite): kept unstored
            self.warn(f"cache entry {key[:12]} not stored ({error})")
            return
        checksum = self._checksum(key, payload)
        with self._connection() as db:
            if db is None:
                return
            _remember(self._file, key, checksum, value)
            try:
                db.execute("BEGIN IMMEDIATE")
                db.execute(
                    "INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?,"
                    " (SELECT COALESCE(MAX(used), 0) + 1 FROM entries))",
                    (key, kind.name, self.fingerprint, payload, checksum, len(payload)),
                )
                self._evict(db)
                db.execute("COMMIT")
            except sqlite3.Error as error:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                self._give_up(f"{self.path}: {describe(error)}")

    def _evict(self, db: sqlite3.Connection) -> None:
        """Delete entries, other code's and least recently used first, down to the cap."""
        (total,) = db.execute("SELECT COALESCE(SUM(size), 0) FROM entries").fetchone()
        if total <= self.max_bytes:
            return
        rows = db.execute(
            "SELECT key, size FROM entries ORDER BY fingerprint = ?, used", (self.fingerprint,)
        ).fetchall()
        for key, size in rows:
            if total <= self.max_bytes:
                break
            db.execute("DELETE FROM entries WHERE key = ?", (key,))
            total -= size

    def fetch(self, kind: Kind[T], key: Key, compute: Callable[[], T]) -> T:
        """The result of ``kind`` stored under ``key``, else ``compute()`` stored for next
        time.  A stored entry is returned only if it is whole and is a result for ``key``
        (its rules, removed cards and arithmetic); else it is recomputed after one line of
        warning."""
        with self._connection() as db:
            self._remember_fingerprint(db)
            digest = self.digest(kind, key)
            found = None if db is None else self._load(db, kind, digest, key)
        if found is not None:
            solutions = getattr(found, "solutions", None)
            if isinstance(solutions, StoredSolutions):
                solutions.recover = lambda error: self._recompute(kind, digest, compute, error)
            return with_removed(found, key.removed)
        value = compute()
        self.store(kind, digest, value)
        return value

    def _recompute(
        self, kind: Kind[T], digest: str, compute: Callable[[], T], error: Exception
    ) -> Any:
        """Solutions of an entry whose head decoded but whose solutions do not (or that was
        evicted or replaced since): solved again."""
        if not isinstance(error, _EntryGone):
            self.warn(f"cache entry {digest[:12]} is corrupt ({error}); recomputing it")
        value = compute()
        self.store(kind, digest, value)
        return cast(Any, value).solutions

    def info(self) -> CacheInfo:
        """Where the cache is, its size on disk and its number of entries."""
        entries = size = 0
        usable = not self._disabled
        try:
            if usable and os.path.exists(os.path.join(self._resolved(), DATABASE_NAME)):
                usable = False
                with closing(self._open(create=False)) as db:
                    (entries,) = db.execute("SELECT COUNT(*) FROM entries").fetchone()
                size = os.stat(self._file).st_size
                usable = True
        except (Unusable, OSError, sqlite3.Error) as error:
            usable = False
            self._give_up(describe(error) if not isinstance(error, Unusable) else str(error))
        return CacheInfo(self.directory, size, entries, self.max_bytes, usable)

    def clear(self) -> int:
        """Delete every entry (ours only: a folder we may not use is left alone)."""
        with self._connection() as db:
            if db is None:
                return 0
            try:
                (entries,) = db.execute("SELECT COUNT(*) FROM entries").fetchone()
                db.execute("DELETE FROM entries")
                db.execute("DELETE FROM code")
                db.execute("VACUUM")
            except sqlite3.Error as error:
                self._give_up(f"{self.path}: {describe(error)}")
                return 0
            return int(entries)


#: The disk store's earlier name, kept as the public ``solver.Cache``.
Cache = DiskCache


def _prepare(connection: sqlite3.Connection) -> None:
    """Give a newly opened database its tables (and full auto-vacuum), writing only if
    they are missing."""
    # Setting auto_vacuum writes to the file (a journal and four syncs, 10-20 ms on the
    # development machine) even when it is already on: asked first, a cache hit writes
    # nothing.
    if connection.execute("PRAGMA auto_vacuum").fetchone() != (1,):  # 1 is FULL
        connection.execute("PRAGMA auto_vacuum = FULL")
    connection.execute(
        "CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, kind TEXT NOT NULL,"
        " fingerprint TEXT NOT NULL, payload BLOB NOT NULL, checksum TEXT NOT NULL,"
        " size INTEGER NOT NULL, used INTEGER NOT NULL)"
    )
    with suppress(sqlite3.Error):  # only a memo: a read-only database works without it
        connection.execute(
            "CREATE TABLE IF NOT EXISTS code (root TEXT PRIMARY KEY, state TEXT NOT NULL,"
            " fingerprint TEXT NOT NULL)"
        )


#: Entries this process decoded or stored last, by database and key, with their checksum.
_RECENT: OrderedDict[tuple[str, str], tuple[str, Any]] = OrderedDict()
#: How many :data:`_RECENT` keeps: a report or an EOR table reads a few games many times.
RECENT_ENTRIES = 16


def _recall(path: str, key: str, checksum: str) -> Any | None:
    """The value this process already decoded for an entry with this checksum, if any.

    The entry is still read and its checksum verified: only decoding is saved, so a
    changed or corrupt entry is noticed as before.
    """
    found = _RECENT.get((path, key))
    if found is None or found[0] != checksum:
        return None
    _RECENT.move_to_end((path, key))
    return found[1]


def forget_recent() -> None:
    """Drop the decoded entries kept by :data:`_RECENT` (a server short of memory asks)."""
    _RECENT.clear()


def _forget(path: str, key: str) -> None:
    """Drop what this process decoded for an entry (it was refused)."""
    _RECENT.pop((path, key), None)


def _remember(path: str, key: str, checksum: str, value: Any) -> None:
    _RECENT[(path, key)] = (checksum, value)
    _RECENT.move_to_end((path, key))
    while len(_RECENT) > RECENT_ENTRIES:
        _RECENT.popitem(last=False)


def default_cache(warn: Callable[[str], None] | None = None) -> DiskCache:
    """The store ``cbj`` uses unless told ``--no-cache``; ``warn`` receives its warnings."""
    return DiskCache(warn=warn)
