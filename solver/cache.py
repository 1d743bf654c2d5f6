"""Where solved games are kept between runs of ``cbj``: a cache the CLI passes in.

The library never caches on its own: functions take ``cache=`` (a
:class:`~solver.exact.game.GameStore`).  :func:`default_cache` is the disk cache ``cbj``
uses, :class:`MemoryCache` keeps games for the life of one object (a notebook, a test
session).

The disk cache cannot run code or lie quietly.  Storage is one SQLite database (standard
library) in a private folder.  SQLite gives atomic writes that several ``cbj`` processes
can share, and least-recently-used eviction is one ``ORDER BY``.  Each entry's payload is
zlib-compressed JSON: plain data only, so loading an entry can never execute code
(nothing here uses pickle), and exact numbers keep their full precision as integers
(JSON integers have no size limit); a float game's columns are the Base64 text of their
doubles, bit for bit, and ten times faster to write than decimals.  Only what outputs
need is stored, compactly: exact values as integer numerators over one denominator per
hand size, columns that an identity recovers left out, hand spaces rebuilt from their
smallest hands; about 2.4 MB for a six-deck exact game and 1.2 MB for a float one (zlib
with run-length matches only: see :func:`_compressed`).
A game's per-hand solutions, nearly all of it, are compressed apart from the rest
(:func:`pack`), and read from the database and decoded only when first used: a repeated
``cbj solve`` reads a few kilobytes (the entry's head) and loads neither numpy nor the
solver.  Solutions wanted after their entry was evicted or replaced are solved again,
silently.  Within one process, the last few entries decoded or stored are kept
(:data:`RECENT_ENTRIES`): reading one again still reads and verifies its head, but does
not decode it again.

Safety rules:

* the key is a hash of everything that changes a result, in canonical form (rules,
  sorted removed cards, exact or float, kind of result) and of the computing code
  (:func:`code_fingerprint`: :data:`SCHEMA_VERSION` and the source of ``solver/model``,
  ``solver/exact`` and this module), remembered in the database beside its files' sizes,
  inodes and modification and change times and hashed again when any of them changes;
* every entry carries a SHA-256 checksum of its key and head, and the head holds the
  SHA-256 of each part decoded later (the solutions), checked when that part is first
  used: a hit hashes a few kilobytes, not the whole entry.  An entry that fails a
  checksum or does not decode (its solutions too, when first used) is recomputed with
  one line of warning;
* the folder is created private (0700); a folder or database owned by another user or
  writable by group or others is not read (one line of warning, the command runs
  uncached); any other problem with the folder (a file in its place, read-only, full
  disk, locked database) also gives one line of warning and no caching, never a failure.

Warnings go to ``warn`` (a callable taking one line), by default :func:`warnings.warn`
with :class:`CacheWarning`.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import stat
import time
import warnings
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, partial
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from solver.exact.bonus import BonusAnalysis, BonusLine
from solver.exact.game import GameResult, RoundLine, Start
from solver.model.cards import Card, parse_cards
from solver.model.outcomes import BonusOutcome
from solver.model.rules import DealerNatural, NaturalBeats, Paytable, Rules

if TYPE_CHECKING:  # numpy and the solver load only to encode or decode what needs them
    from pathlib import Path  # a cache hit works on the folder's name alone

    import numpy as np

    from solver.exact.player import Number, PlayerSolution
    from solver.exact.protection import EffectsOfRemoval
    from solver.exact.strategy import Chart

try:  # CPython's own SHA-256 (absent from some builds; named _sha2 from Python 3.12 on)
    from _sha256 import sha256 as _small_sha256  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the build
    try:
        from _sha2 import sha256 as _small_sha256  # type: ignore[import-not-found]
    except ImportError:
        _small_sha256 = None

#: Bump when the payload layout changes; part of every key (a test checks the layouts).
SCHEMA_VERSION = 4
#: Default size cap of the cache, in bytes of stored payload.
DEFAULT_MAX_BYTES = 500 * 1024 * 1024
#: Environment variables: the folder, and the cap in megabytes.
DIR_VARIABLE = "CBJ_CACHE_DIR"
MAX_MB_VARIABLE = "CBJ_CACHE_MAX_MB"
DATABASE_NAME = "cache.sqlite3"

#: Above this many bytes :func:`_sha256` hashes with OpenSSL.
SMALL_HASH_BYTES = 64 * 1024

Kind = Literal["game", "chart"]
T = TypeVar("T")
Json = Any


class CacheWarning(UserWarning):
    """The cache could not be used, or an entry was bad and has been recomputed."""


def default_directory() -> Path:
    """Where the cache lives: ``$CBJ_CACHE_DIR``, else ``~/.cache/community-blackjack``."""
    from pathlib import Path

    return Path(_default_folder())


def _default_folder() -> str:
    """:func:`default_directory` as text, without loading pathlib (a cache hit does not)."""
    configured = os.environ.get(DIR_VARIABLE)
    if configured:
        return configured
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        home = os.path.expanduser("~")
        if home.startswith("~"):
            raise RuntimeError("Could not determine home directory.")
        base = os.path.join(home, ".cache")
    return os.path.join(base, "community-blackjack")


def default_max_bytes() -> int:
    """The size cap: ``$CBJ_CACHE_MAX_MB`` megabytes if set to a whole number, else 500 MB."""
    configured = os.environ.get(MAX_MB_VARIABLE, "").strip()
    if configured.isascii() and configured.isdigit() and len(configured) <= 9:
        return int(configured) * 1024 * 1024
    return DEFAULT_MAX_BYTES


PACKAGE_ROOT = os.path.dirname(os.path.realpath(__file__))
#: Folders (under the package) whose source decides every cached result.
COMPUTING_CODE = ("model", "exact")
#: A source file changed less than this many seconds ago may change again within the same
#: tick of the file system's clock (2 s on FAT), unseen by its times: its state is not
#: remembered (see :func:`remembered_fingerprint`).
SETTLED_SECONDS = 5


def _computing_files(root: str) -> list[str]:
    """The computing code's files, relative to the package root, in the order hashed."""
    names = [
        (folder, entry.name)
        for folder in COMPUTING_CODE
        for entry in os.scandir(os.path.join(root, folder))
        if entry.name.endswith(".py")
    ]
    return [*(f"{folder}/{name}" for folder, name in sorted(names)), "cache.py"]


def _hash_code(root: str) -> str:
    """The computing code's hash, read afresh from its files (see :func:`code_fingerprint`)."""
    parts = [f"{SCHEMA_VERSION}\0".encode()]
    for name in _computing_files(root):
        with open(os.path.join(root, name), "rb") as file:
            parts += [name.encode(), b"\0", file.read(), b"\0"]
    return _sha256(b"".join(parts))


@cache
def code_fingerprint(root: str | os.PathLike[str] = PACKAGE_ROOT) -> str:
    """A hash of the schema and the source of the computing code.

    Editing any file of ``solver/model``, ``solver/exact`` or this module changes it, so
    results computed by other code are never returned.  The package's version number is
    left out: the source it would stand for is hashed itself, and reading the version
    (``importlib.metadata``) cost a cache hit a tenth of its time.
    """
    return _hash_code(os.fspath(root))


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
    for name in _computing_files(root):
        info = os.stat(os.path.join(root, name))
        newest = max(newest, info.st_mtime_ns, info.st_ctime_ns)
        lines.append(f"{name} {info.st_size} {info.st_ino} {info.st_mtime_ns} {info.st_ctime_ns}")
    settled = newest < time.time_ns() - SETTLED_SECONDS * 1_000_000_000
    return "\n".join(lines), settled


def remembered_fingerprint(db: sqlite3.Connection, root: str = PACKAGE_ROOT) -> str:
    """The code's fingerprint, remembered in the cache's ``code`` table beside the state of
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
    fingerprint = _hash_code(root)
    if settled and code_state(root)[0] == state:
        with suppress(sqlite3.Error):  # only a memo: the cache works without it
            db.execute("INSERT OR REPLACE INTO code VALUES (?, ?, ?)", (root, state, fingerprint))
    return fingerprint


def _sha256(data: bytes) -> str:
    """SHA-256 of ``data`` in hex: a few kilobytes by CPython's own code, more by OpenSSL.

    OpenSSL (``hashlib``) hashes about 7 times faster here, but loading it costs a cache
    hit, which hashes only its key and the entry's head, about 10 million instructions.
    """
    if len(data) > SMALL_HASH_BYTES or _small_sha256 is None:
        import hashlib

        return hashlib.sha256(data).hexdigest()
    return str(_small_sha256(data).hexdigest())


# Encoding: plain JSON values only, exact numbers as [numerator, denominator].


def _q(value: Fraction) -> list[int]:
    return [value.numerator, value.denominator]


def _number(value: Number) -> Json:
    """A Fraction as ``[n, d]``, a float as itself (JSON keeps floats exactly)."""
    if isinstance(value, Fraction):
        return _q(value)
    return float(value)


def _unnumber(doc: Json) -> Any:
    if isinstance(doc, list):
        return Fraction(doc[0], doc[1])
    return float(doc)


def encode_rules(rules: Rules) -> dict[str, Json]:
    """The rules as canonical JSON values, every ratio an exact pair."""
    return {
        "decks": rules.decks,
        "bonus_ratio": _q(rules.bonus_ratio),
        "paytable": [_q(p) for p in rules.paytable.as_dict().values()],
        "blackjack_pays": _q(rules.blackjack_pays),
        "dealer_stands_on": rules.dealer_stands_on,
        "dealer_natural": rules.dealer_natural.value,
        "natural_beats": rules.natural_beats.value,
    }


def decode_rules(doc: dict[str, Json]) -> Rules:
    """Inverse of :func:`encode_rules`."""
    s, r, a = (Fraction(n, d) for n, d in doc["paytable"])
    return Rules(
        decks=doc["decks"],
        bonus_ratio=Fraction(*doc["bonus_ratio"]),
        paytable=Paytable(suited_match=s, rank_match=r, adjacent=a),
        blackjack_pays=Fraction(*doc["blackjack_pays"]),
        dealer_stands_on=doc["dealer_stands_on"],
        dealer_natural=DealerNatural(doc["dealer_natural"]),
        natural_beats=NaturalBeats(doc["natural_beats"]),
    )


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _keys_digest(keys: np.ndarray[Any, Any]) -> str:
    return _sha256(keys.astype("<i8").tobytes())


def _encode_solution(solution: PlayerSolution) -> dict[str, Json]:
    """One Bonus card's solution; the hand space is rebuilt from its minimal hands.

    Exact values share one denominator per hand size and are stored as integer
    numerators over it; a column that an identity recovers (push = 1 - win - lose, the
    chosen action's value = win - lose) is left out when the identity holds for every hand.
    """
    import numpy as np

    from solver.exact.player import RADIX

    space = solution.space
    keys, hands = space.keys, space.hands
    # A hand is minimal when no hand one card smaller is in the space: those are the roots.
    # Keys are sorted, so a parent's key is found by binary search.
    has_parent = np.zeros(len(keys), dtype=bool)
    for v in range(10):
        parent = keys - RADIX[v]
        at = np.minimum(np.searchsorted(keys, parent), len(keys) - 1)
        has_parent |= (hands[:, v] > 0) & (keys[at] == parent)
    roots = hands[~has_parent].tolist()
    doc: dict[str, Json] = {
        "bonus": space.bonus,
        "shoe": list(space.shoe),
        "roots": roots,
        "hands": len(keys),
        "keys": _keys_digest(keys),
        "hitting": "".join("1" if h else "0" for h in solution.hitting),
    }
    held = _held_numerators(solution)
    if held is not None:
        doc["exact"] = True
        (stand_n, hit_n, win_n, push_n, lose_n), by_size = held
        sizes = space.sizes.tolist()
        doc["denominators"] = {str(m): d for m, d in by_size.items()}
        rows = list(zip(stand_n, hit_n, solution.hitting, strict=True))
        chosen_n = [h if hit else s for s, h, hit in rows]
        doc["win"], doc["lose"] = win_n, lose_n
        doc["other"] = [s if hit else h for s, h, hit in rows]
        wpl = zip(win_n, push_n, lose_n, sizes, strict=True)
        if not all(w + p + lo == by_size[m] for w, p, lo, m in wpl):
            doc["push"] = push_n
        if not all(c == w - lo for c, w, lo in zip(chosen_n, win_n, lose_n, strict=True)):
            doc["chosen"] = chosen_n
        return doc
    win = [o[0] for o in solution.outcomes]
    push = [o[1] for o in solution.outcomes]
    lose = [o[2] for o in solution.outcomes]
    chosen = [
        h if hit else s
        for s, h, hit in zip(solution.stand, solution.hit, solution.hitting, strict=True)
    ]
    other = [
        s if hit else h
        for s, h, hit in zip(solution.stand, solution.hit, solution.hitting, strict=True)
    ]
    values = [*solution.stand, *solution.hit, *win, *push, *lose]
    if all(isinstance(v, Fraction) for v in values):
        doc["exact"] = True
        sizes = space.sizes.tolist()
        denominators: dict[int, int] = {}
        for i, size in enumerate(sizes):
            row = (solution.stand[i], solution.hit[i], win[i], push[i], lose[i])
            dens = (Fraction(v).denominator for v in row)
            denominators[size] = math.lcm(denominators.get(size, 1), *dens)
        doc["denominators"] = {str(m): d for m, d in denominators.items()}

        def column(values: list[Number]) -> list[int]:
            return [int(Fraction(v) * denominators[m]) for v, m in zip(values, sizes, strict=True)]

        drop_push = all(w + p + lo == 1 for w, p, lo in zip(win, push, lose, strict=True))
        drop_chosen = all(c == w - lo for c, w, lo in zip(chosen, win, lose, strict=True))
        doc["win"], doc["lose"], doc["other"] = column(win), column(lose), column(other)
        if not drop_push:
            doc["push"] = column(push)
        if not drop_chosen:
            doc["chosen"] = column(chosen)
    else:
        doc["exact"] = False
        columns = {"win": win, "push": push, "lose": lose, "chosen": chosen, "other": other}
        for name, col in columns.items():
            doc[name] = encode_floats(col)
    return doc


def encode_floats(values: Sequence[Number]) -> str:
    """Floats as the Base64 text of their IEEE 754 doubles (little-endian): exact, and many
    times faster to write and read than their decimal forms."""
    import base64

    import numpy as np

    return base64.b64encode(np.asarray(values, dtype="<f8").tobytes()).decode("ascii")


def decode_floats(text: Json) -> list[float]:
    """Inverse of :func:`encode_floats`; ``ValueError`` on anything else, or a non-finite value."""
    import base64
    import binascii

    import numpy as np

    if not isinstance(text, str):
        raise ValueError("a float column is not text")
    try:
        data = base64.b64decode(text, validate=True)
    except binascii.Error as error:
        raise ValueError(f"a float column is not Base64: {error}") from None
    if len(data) % 8:
        raise ValueError("a float column's length is not a whole number of doubles")
    values = np.frombuffer(data, dtype="<f8")
    if not np.isfinite(values).all():
        raise ValueError("a float column holds a value that is not finite")
    return list(values.tolist())


def _held_numerators(
    solution: PlayerSolution,
) -> tuple[list[list[int]], dict[int, int]] | None:
    """An exact solve's values as integer numerators over one denominator per hand size,
    read as the solver holds them (no fraction made); None when they are not held so."""
    from solver.exact.player import ExactOutcomes, ExactValues

    stand, hit, outcomes = solution.stand, solution.hit, solution.outcomes
    if not (
        isinstance(stand, ExactValues)
        and isinstance(hit, ExactValues)
        and isinstance(outcomes, ExactOutcomes)
    ):
        return None
    parts = [stand.raw(), hit.raw(), outcomes.raw()]
    dens = parts[0][1]
    if any(p[1] != dens for p in parts):
        return None
    by_size: dict[int, int] = {}
    for m, d in zip(solution.space.sizes.tolist(), dens, strict=True):
        if by_size.setdefault(m, d) != d:
            return None
    columns = [parts[0][0][0], parts[1][0][0], *parts[2][0]]
    return columns, by_size


def _decode_solution(rules: Rules, doc: dict[str, Json]) -> PlayerSolution:
    """Inverse of :func:`_encode_solution`; exact values stay integer numerators over their
    denominators until read, as the solver holds them."""
    from solver.exact.player import ExactOutcomes, ExactValues, PlayerSolution, hand_space

    space = hand_space(doc["bonus"], tuple(doc["shoe"]), [tuple(r) for r in doc["roots"]])
    if len(space.keys) != doc["hands"] or _keys_digest(space.keys) != doc["keys"]:
        raise ValueError("the stored hands do not match the rebuilt hand space")
    hitting = tuple(c == "1" for c in doc["hitting"])
    n = len(hitting)
    columns: dict[str, list[Any]]
    if doc["exact"]:
        columns = {name: list(doc[name]) for name in _SOLUTION_COLUMNS if name in doc}
        dens = [int(doc["denominators"][str(m)]) for m in space.sizes.tolist()]
        win, lose = columns["win"], columns["lose"]
        if "push" not in columns:
            columns["push"] = [d - w - lo for w, lo, d in zip(win, lose, dens, strict=True)]
        if "chosen" not in columns:
            columns["chosen"] = [w - lo for w, lo in zip(win, lose, strict=True)]
    else:
        columns = {name: decode_floats(doc[name]) for name in _SOLUTION_COLUMNS}
    if any(len(col) != n for col in columns.values()):
        raise ValueError("a stored column has the wrong length")
    rows = list(zip(columns["chosen"], columns["other"], hitting, strict=True))
    stand = [o if h else c for c, o, h in rows]
    hit = [c if h else o for c, o, h in rows]
    if doc["exact"]:
        outcomes = [columns["win"], columns["push"], columns["lose"]]
        return PlayerSolution(
            rules,
            space,
            ExactValues(stand, dens),
            ExactValues(hit, dens),
            hitting,
            ExactOutcomes(outcomes, dens),
        )
    triples = tuple(zip(columns["win"], columns["push"], columns["lose"], strict=True))
    return PlayerSolution(rules, space, tuple(stand), tuple(hit), hitting, triples)


_SOLUTION_COLUMNS = ("win", "push", "lose", "chosen", "other")


def encode_game(game: GameResult[Any]) -> dict[str, Json]:
    """A solved game as plain JSON values (see :func:`decode_game`)."""
    bonus = None
    if game.bonus is not None:
        bonus = {
            "removed": _cards(game.bonus.removed),
            "lines": [
                [ln.outcome.value, _q(ln.pays), ln.combinations, _q(ln.probability)]
                for ln in game.bonus.lines
            ],
        }
    return {
        "rules": encode_rules(game.rules),
        "removed": _cards(game.removed),
        "exact": game.exact,
        "starts": [
            [
                s.player,
                s.bonus,
                _number(s.probability),
                s.hits,
                {k: _number(v) for k, v in s.outcomes.items()},
            ]
            for s in game.starts
        ],
        "solutions": [_encode_solution(game.solutions[c]) for c in game.solutions],
        "bonus": bonus,
        "round_lines": [[_q(line.net), _number(line.probability)] for line in game.round_lines],
    }


def decode_game(doc: dict[str, Json]) -> GameResult[Any]:
    """Inverse of :func:`encode_game`; raises on any malformed document.

    The solutions (most of the document) are decoded when first used: a repeated ``cbj
    solve`` prints figures of the starting pairs and the round only.
    """
    rules = decode_rules(doc["rules"])
    bonus = None
    if doc["bonus"] is not None:
        lines = tuple(
            BonusLine(BonusOutcome(o), Fraction(*pays), int(n), Fraction(*p))
            for o, pays, n, p in doc["bonus"]["lines"]
        )
        bonus = BonusAnalysis(rules, parse_cards(doc["bonus"]["removed"]), lines)
    starts = tuple(
        Start(p, c, _unnumber(prob), bool(hits), {k: _unnumber(v) for k, v in outcomes.items()})
        for p, c, prob, hits, outcomes in doc["starts"]
    )
    round_lines = tuple(RoundLine(Fraction(*net), _unnumber(p)) for net, p in doc["round_lines"])
    return GameResult(
        rules,
        parse_cards(doc["removed"]),
        bool(doc["exact"]),
        starts,
        StoredSolutions(rules, doc["solutions"]),
        bonus,
        round_lines,
    )


class Section:
    """A part of a stored document kept compressed until :meth:`load` is called.

    ``compressed`` is the part's bytes, or a function that reads them (from the database,
    when the part is first used).
    """

    def __init__(self, compressed: bytes | Callable[[], bytes], digest: str) -> None:
        self.compressed = compressed
        self.digest = digest

    def load(self) -> Json:
        """The part's JSON value; ``ValueError`` if it is not the part the head names."""
        compressed = self.compressed if isinstance(self.compressed, bytes) else self.compressed()
        if _sha256(compressed) != self.digest:
            raise ValueError("checksum mismatch")
        return _json_of(compressed)


class StoredSolutions(Mapping[int, "PlayerSolution"]):
    """A cached game's solutions by Bonus card value, decoded on first use.

    ``source`` is the encoded list (or a :class:`Section` holding it).  ``recover``, when
    set, receives a decoding error and returns solutions computed afresh instead.
    """

    def __init__(self, rules: Rules, source: Json | Section) -> None:
        self.rules = rules
        self.source = source
        self.recover: Callable[[Exception], Mapping[int, PlayerSolution]] | None = None
        self._decoded: Mapping[int, PlayerSolution] | None = None

    def _solutions(self) -> Mapping[int, PlayerSolution]:
        if self._decoded is None:
            try:
                docs = self.source.load() if isinstance(self.source, Section) else self.source
                self._decoded = {s["bonus"]: _decode_solution(self.rules, s) for s in docs}
            except Exception as error:  # a bad entry is recomputed when a caller can
                if self.recover is None:
                    raise ValueError(f"the cached solutions do not decode: {error}") from None
                self._decoded = self.recover(error)
            self.source = None
        return self._decoded

    def __getitem__(self, bonus: int) -> PlayerSolution:
        return self._solutions()[bonus]

    def __iter__(self) -> Iterator[int]:
        return iter(self._solutions())

    def __len__(self) -> int:
        return len(self._solutions())

    def __reduce__(self) -> tuple[type[dict[int, PlayerSolution]], tuple[Any, ...]]:
        """Pickled (for worker processes) as the plain dictionary, decoded."""
        return dict, (dict(self._solutions()),)


def encode_chart(chart: Chart) -> dict[str, Json]:
    """A best chart as plain JSON values (see :func:`decode_chart`)."""
    return {
        "rules": encode_rules(chart.rules),
        "actions": [
            [soft, total, bonus, action.value]
            for ((soft, total), bonus), action in chart.actions.items()
        ],
        "expected_value": _q(chart.expected_value),
        "optimal_expected_value": _q(chart.optimal_expected_value),
        "exceptions": [
            [e.bonus, list(e.hand), e.chart_action.value, _q(e.frequency), _q(e.gain)]
            for e in chart.exceptions
        ],
    }


def decode_chart(doc: dict[str, Json]) -> Chart:
    """Inverse of :func:`encode_chart`."""
    from solver.exact.strategy import Action, Chart, ExceptionHand

    return Chart(
        decode_rules(doc["rules"]),
        {((bool(s), int(t)), int(b)): Action(a) for s, t, b, a in doc["actions"]},
        Fraction(*doc["expected_value"]),
        Fraction(*doc["optimal_expected_value"]),
        tuple(
            ExceptionHand(int(b), tuple(hand), Action(a), Fraction(*f), Fraction(*g))
            for b, hand, a, f, g in doc["exceptions"]
        ),
    )


#: Top-level parts of a document stored apart, so that reading an entry leaves them packed.
DEFERRED = ("solutions",)


def pack(doc: dict[str, Json]) -> bytes:
    """A document as compressed bytes: the head, then each :data:`DEFERRED` part it has.

    Each section is a 4-byte big-endian length and zlib-compressed JSON; the head lists
    the deferred parts that follow it under ``"deferred"``, and their SHA-256 digests
    under ``"digests"``.
    """
    deferred = [name for name in DEFERRED if name in doc]
    parts = [_compressed(doc[name]) for name in deferred]
    digests = [_sha256(part) for part in parts]
    head = {k: v for k, v in doc.items() if k not in deferred}
    sections = [_compressed(head | {"deferred": deferred, "digests": digests}), *parts]
    return b"".join(len(z).to_bytes(4, "big") + z for z in sections)


def head_of(payload: bytes) -> bytes:
    """The first section of a packed document, length included (all of it if malformed)."""
    size = int.from_bytes(payload[:4], "big")
    return payload[: 4 + size] if 4 + size <= len(payload) else payload


def unpack(payload: bytes, whole: Callable[[], bytes] | None = None) -> dict[str, Json]:
    """Inverse of :func:`pack`, deferred parts left as :class:`Section`s.

    With ``whole``, ``payload`` is the head alone (:func:`head_of`) and ``whole()`` returns
    the entire payload, called when a deferred part is first used.  Raises ``ValueError``
    on anything but a packed document.
    """
    sections = _sections(payload)
    doc = _json_of(sections[0])
    if not isinstance(doc, dict):
        raise ValueError("not a cache document")
    deferred = doc.pop("deferred", None)
    digests = doc.pop("digests", None)
    parts = len(sections) - 1 if whole is None else None
    if not (isinstance(deferred, list) and isinstance(digests, list)) or not (
        len(deferred) == len(digests) == (len(deferred) if parts is None else parts)
    ):
        raise ValueError("not a cache document: its sections do not match its head")
    for at, (name, digest) in enumerate(zip(deferred, digests, strict=True), 1):
        part = sections[at] if whole is None else partial(_section, whole, at, len(deferred))
        doc[name] = Section(part, digest)
    return doc


def _sections(payload: bytes) -> list[bytes]:
    """The sections of a packed document; ``ValueError`` if it is not one."""
    sections: list[bytes] = []
    at = 0
    while at < len(payload):
        size = int.from_bytes(payload[at : at + 4], "big")
        if at + 4 + size > len(payload):
            raise ValueError("not a cache document: a section runs past the end")
        sections.append(payload[at + 4 : at + 4 + size])
        at += 4 + size
    if not sections:
        raise ValueError("not a cache document: empty")
    return sections


def _section(whole: Callable[[], bytes], at: int, parts: int) -> bytes:
    """Section ``at`` of the payload ``whole()`` returns, which has ``parts`` after its head."""
    sections = _sections(whole())
    if len(sections) != parts + 1:
        raise ValueError("not a cache document: its sections do not match its head")
    return sections[at]


def _compressed(value: Json) -> bytes:
    """``value`` as compact JSON, deflated with run-length matches only (``Z_RLE``).

    Most of an entry is Base64 text or long decimal numerators, where zlib's usual search
    for repeated strings finds little: run-length matches and Huffman codes alone give
    float entries within 4% of the fastest level's size (exact ones smaller) in less than
    half the time.  Any zlib stream reads back the same way.
    """
    text = json.dumps(value, separators=(",", ":"), sort_keys=True, allow_nan=False)
    packer = zlib.compressobj(1, zlib.DEFLATED, zlib.MAX_WBITS, 8, zlib.Z_RLE)
    return packer.compress(text.encode()) + packer.flush()


def _json_of(compressed: bytes) -> Json:
    try:
        return json.loads(zlib.decompress(compressed))
    except (zlib.error, UnicodeDecodeError, RecursionError) as error:
        raise ValueError(f"not a cache document: {error}") from None


_CODECS: dict[str, tuple[Callable[[Any], dict[str, Json]], Callable[[dict[str, Json]], Any]]] = {
    "game": (encode_game, decode_game),
    "chart": (encode_chart, decode_chart),
}


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


class _Unusable(Exception):
    """The cache folder or database cannot be used safely."""


class _EntryGone(LookupError):
    """An entry's deferred parts were wanted after the entry left the cache."""


def _check_owned_private(path: str, what: str, shown: Callable[[], Path]) -> None:
    """Refuse ``path`` unless it is ours and not writable by group or others; the message
    names it as ``shown()`` does."""
    info = os.lstat(path)
    problem = None
    getuid = getattr(os, "getuid", None)
    if stat.S_ISLNK(info.st_mode):
        problem = "is a symbolic link"
    elif getuid is not None and info.st_uid != getuid():
        problem = "is owned by another user"
    elif info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        problem = "is writable by other users"
    if problem is not None:
        raise _Unusable(f"{what} {shown()} {problem}")


class Cache:
    """The disk cache of solved games and charts (see the module docstring).

    Args:
        directory: The cache folder; ``None`` for :func:`default_directory`.
        max_bytes: Size cap of the stored payloads; least recently used entries go first.
        warn: Receives each one-line warning; ``None`` for :func:`warnings.warn`.
        fingerprint: The computing code's hash; ``None`` for :func:`code_fingerprint`.
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
        # the folder is shown as a Path (:attr:`directory`, :attr:`path`, warnings).
        folder = os.fspath(directory) if directory is not None else _default_folder()
        self._folder = folder or "."  # as Path("") is
        self._file = os.path.join(self._folder, DATABASE_NAME)
        self.max_bytes = default_max_bytes() if max_bytes is None else max_bytes
        self._warn = warn
        self._fingerprint = fingerprint
        self._disabled = False

    @property
    def directory(self) -> Path:
        """The cache folder."""
        from pathlib import Path

        return Path(self._folder)

    @property
    def path(self) -> Path:
        """The database file."""
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

    def _open(self, create: bool = True) -> sqlite3.Connection:
        """Connect to the database after checking the folder and file are ours alone."""
        if create:
            os.makedirs(self._folder, mode=0o700, exist_ok=True)
        if not os.path.isdir(self._folder):
            raise _Unusable(f"{self.directory} is not a folder")
        _check_owned_private(self._folder, "cache folder", lambda: self.directory)
        path = self._file
        if not os.path.lexists(path):
            if not create:
                raise FileNotFoundError(path)
            flags = os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0)
            with suppress(FileExistsError):  # another process may create it first
                os.close(os.open(path, flags, 0o600))
        _check_owned_private(path, "cache file", lambda: self.path)
        connection = sqlite3.connect(path, timeout=30, isolation_level=None)
        try:
            # Setting auto_vacuum writes to the file (a journal and four syncs, 10-20 ms on
            # the development machine) even when it is already on: asked first, a cache hit
            # writes nothing.
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
        except _Unusable as problem:
            self._give_up(str(problem))
            yield None
            return
        except (OSError, sqlite3.Error) as error:
            self._give_up(f"{self.directory}: {_describe(error)}")
            yield None
            return
        with closing(connection):
            yield connection

    def key(self, kind: Kind, rules: Rules, removed: Iterable[Card], exact: bool) -> str:
        """The entry's key: a hash of the canonical inputs and of the computing code."""
        canonical = {
            "kind": kind,
            "rules": encode_rules(rules),
            "removed": sorted(_cards(removed)),
            "exact": exact,
            "code": self.fingerprint,
        }
        text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
        return _sha256(text.encode())

    @staticmethod
    def _checksum(key: str, payload: bytes) -> str:
        """SHA-256 of the key and the entry's head (which holds its parts' digests)."""
        return _sha256(key.encode() + b"\0" + head_of(payload))

    def load(self, kind: Kind, key: str) -> Any | None:
        """The decoded entry under ``key``, or ``None`` if missing, bad or unreadable."""
        with self._connection() as db:
            return None if db is None else self._load(db, kind, key)

    def _load(self, db: sqlite3.Connection, kind: Kind, key: str) -> Any | None:
        """:meth:`load` on an open database."""
        try:
            row = db.execute(
                "SELECT kind, typeof(payload), rowid, checksum,"
                " used = (SELECT MAX(used) FROM entries) FROM entries WHERE key = ?",
                (key,),
            ).fetchone()
        except sqlite3.Error as error:
            self._give_up(f"{self.path}: {_describe(error)}")
            return None
        if row is None:
            return None
        stored_kind, payload_type, rowid, checksum, latest = row
        try:
            if stored_kind != kind or payload_type != "blob":
                raise ValueError("wrong kind of entry")
            # The head alone: SQLite reads the rest (0.8 MB or more) when it is first used.
            with db.blobopen("entries", "payload", rowid, readonly=True) as blob:
                start = blob.read(4)
                head = start + blob.read(int.from_bytes(start, "big"))
            if self._checksum(key, head) != checksum:
                raise ValueError("checksum mismatch")
            value = _recall(self._file, key, checksum)
            if value is None:
                whole = partial(self._payload, key, checksum)
                value = _CODECS[kind][1](unpack(head, whole))
                _remember(self._file, key, checksum, value)
        except Exception as error:  # any malformed entry is recomputed, never trusted
            self.warn(f"cache entry {key[:12]} is corrupt ({error}); recomputing it")
            self._execute(db, "DELETE FROM entries WHERE key = ?", (key,))
            return None
        if not latest:  # the most recently used entry needs no write to stay so
            self._execute(
                db,
                "UPDATE entries SET used = (SELECT COALESCE(MAX(used), 0) + 1 FROM entries)"
                " WHERE key = ?",
                (key,),
            )
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
                    self._give_up(f"{self.path}: {_describe(error)}")
        if row is None or not isinstance(row[0], bytes):
            raise _EntryGone("the entry has left the cache since its head was read")
        return row[0]

    def _execute(self, db: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> bool:
        try:
            db.execute(sql, args)
        except sqlite3.Error as error:
            self._give_up(f"{self.path}: {_describe(error)}")
            return False
        return True

    def store(self, kind: Kind, key: str, value: Any) -> None:
        """Encode and store ``value`` under ``key``, then evict down to the size cap."""
        payload = pack(_CODECS[kind][0](value))
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
                    (
                        key,
                        kind,
                        self.fingerprint,
                        payload,
                        checksum,
                        len(payload),
                    ),
                )
                self._evict(db)
                db.execute("COMMIT")
            except sqlite3.Error as error:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                self._give_up(f"{self.path}: {_describe(error)}")

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

    def fetch(
        self,
        kind: Kind,
        rules: Rules,
        removed: Iterable[Card],
        exact: bool,
        compute: Callable[[], T],
    ) -> T:
        """The cached result for these inputs, else ``compute()`` stored for next time."""
        removed = tuple(removed)
        with self._connection() as db:
            self._remember_fingerprint(db)
            key = self.key(kind, rules, removed, exact)
            found = None if db is None else self._load(db, kind, key)
        if found is not None:
            if isinstance(found, GameResult) and isinstance(found.solutions, StoredSolutions):
                found.solutions.recover = lambda error: self._recompute(key, compute, error)
            return _with_removed(found, removed)  # type: ignore[no-any-return]
        value = compute()
        self.store(kind, key, value)
        return value

    def _recompute(self, key: str, compute: Callable[[], Any], error: Exception) -> Any:
        """Solutions of an entry whose head decoded but whose solutions do not (or that was
        evicted or replaced since): solved again."""
        if not isinstance(error, _EntryGone):
            self.warn(f"cache entry {key[:12]} is corrupt ({error}); recomputing it")
        value = compute()
        self.store("game", key, value)
        return value.solutions

    def game(
        self,
        rules: Rules,
        removed: tuple[Card, ...],
        exact: bool,
        compute: Callable[[], GameResult[Any]],
    ) -> GameResult[Any]:
        """The stored game for these inputs, or ``compute()`` (then stored)."""
        return self.fetch("game", rules, removed, exact, compute)

    def chart(self, rules: Rules, compute: Callable[[], Chart]) -> Chart:
        """The stored best chart under ``rules`` (a full shoe), or ``compute()`` (then stored)."""
        return self.fetch("chart", rules, (), True, compute)

    def info(self) -> CacheInfo:
        """Where the cache is, its size on disk and its number of entries."""
        entries = size = 0
        usable = not self._disabled
        if os.path.exists(self._file) and not self._disabled:
            usable = False
            try:
                with closing(self._open(create=False)) as db:
                    (entries,) = db.execute("SELECT COUNT(*) FROM entries").fetchone()
                size = os.stat(self._file).st_size
                usable = True
            except (_Unusable, OSError, sqlite3.Error) as error:
                self._give_up(_describe(error) if not isinstance(error, _Unusable) else str(error))
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
                self._give_up(f"{self.path}: {_describe(error)}")
                return 0
            return int(entries)


#: The name the disk cache had before it moved to SQLite.
DiskCache = Cache


class NoCache(Cache):
    """The same interface with nothing stored or read: ``--no-cache``."""

    def __init__(self) -> None:
        super().__init__(os.devnull, warn=lambda _: None)
        self._disabled = True

    def info(self) -> CacheInfo:
        """An empty, unusable cache."""
        return CacheInfo(self.directory, 0, 0, 0, False)


class MemoryCache:
    """Solved games and charts kept in memory for the life of the object (a notebook, a test
    session), and the effects of removal found from them (``eor`` then ``count`` find them
    once)."""

    def __init__(self) -> None:
        self.games: dict[tuple[Rules, tuple[str, ...], bool], GameResult[Any]] = {}
        self.charts: dict[Rules, Chart] = {}
        self.effects: dict[tuple[Rules, tuple[str, ...], bool], EffectsOfRemoval[Any]] = {}

    def effects_of_removal(
        self,
        rules: Rules,
        removed: tuple[Card, ...],
        exact: bool,
        compute: Callable[[], EffectsOfRemoval[Any]],
    ) -> EffectsOfRemoval[Any]:
        """The effects of removal found before for these inputs, or ``compute()`` (then kept).

        Keyed by the removed cards in the caller's order, which the result carries.
        """
        key = (rules, tuple(str(c) for c in removed), exact)
        if key not in self.effects:
            self.effects[key] = compute()
        return self.effects[key]

    def chart(self, rules: Rules, compute: Callable[[], Chart]) -> Chart:
        """The best chart found before under ``rules``, or ``compute()`` (then kept)."""
        if rules not in self.charts:
            self.charts[rules] = compute()
        return self.charts[rules]

    def game(
        self,
        rules: Rules,
        removed: tuple[Card, ...],
        exact: bool,
        compute: Callable[[], GameResult[Any]],
    ) -> GameResult[Any]:
        """The game solved before for these inputs, or ``compute()`` (then kept)."""
        key = (rules, tuple(sorted(str(c) for c in removed)), exact)
        if key not in self.games:
            self.games[key] = compute()
        return _with_removed(self.games[key], removed)  # type: ignore[no-any-return]


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


def _remember(path: str, key: str, checksum: str, value: Any) -> None:
    _RECENT[(path, key)] = (checksum, value)
    _RECENT.move_to_end((path, key))
    while len(_RECENT) > RECENT_ENTRIES:
        _RECENT.popitem(last=False)


def forget_recent() -> None:
    """Forget every entry kept in memory, as a new process starts."""
    _RECENT.clear()


def default_cache(warn: Callable[[str], None] | None = None) -> Cache:
    """The cache ``cbj`` uses unless told ``--no-cache``; ``warn`` receives its warnings."""
    return Cache(warn=warn)


def _with_removed(value: Any, removed: tuple[Card, ...]) -> Any:
    """A cached game with the caller's removed cards, in the caller's order."""
    if isinstance(value, GameResult):
        bonus = value.bonus
        if bonus is not None:
            bonus = replace(bonus, removed=removed)
        return replace(value, removed=removed, bonus=bonus)
    return value


def _describe(error: BaseException) -> str:
    """An OS or database error in a few words."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error).splitlines()[0] if str(error) else type(error).__name__
