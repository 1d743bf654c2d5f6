"""The memory stores: results of every kind kept for the life of an object, or only the
latest few."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from solver.results.kinds import Key, Kind
from solver.store.codecs import with_removed

T = TypeVar("T")


class MemoryCache:
    """Results kept in memory for the life of the object (a notebook, a test session): solved
    games, charts, the effects of removal found from them (``eor`` then ``count`` find them
    once), the report's studies, any kind: a :class:`~solver.results.kinds.Store`."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], Any] = {}

    def fetch(self, kind: Kind[T], key: Key, compute: Callable[[], T]) -> T:
        """The result of ``kind`` found before under ``key``, or ``compute()`` (then kept).

        Keyed by the removed cards as a set, as the disk store is; the result carries them
        in the caller's order.
        """
        place = (kind.name, key.text())
        if place not in self.kept:
            self.kept[place] = compute()
        found: T = self.kept[place]
        return with_removed(found, key.removed)


class LatestCache(MemoryCache):
    """The ``size`` results used last, of any kind, the one used longest ago dropped first:
    a :class:`~solver.results.kinds.Store` whose memory stays bounded however many rule sets
    pass through it (what the API keeps when no cache is given it).  Safe across threads.

    >>> from solver.model.rules import Rules
    >>> from solver.results.game import GAME
    >>> latest = LatestCache(size=1)
    >>> [latest.fetch(GAME, Key(Rules(decks=d)), lambda: d) for d in (1, 1, 2, 1)]
    [1, 1, 2, 1]
    >>> len(latest.kept)
    1
    """

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self.kept: OrderedDict[tuple[str, str], Any] = OrderedDict()
        self._lock = threading.Lock()

    def fetch(self, kind: Kind[T], key: Key, compute: Callable[[], T]) -> T:
        """The result of ``kind`` under ``key`` kept, else ``compute()`` (kept, and the
        oldest result dropped if there are more than ``size``)."""
        place = (kind.name, key.text())
        with self._lock:
            found = self.kept.get(place)
            if found is not None:
                self.kept.move_to_end(place)
        if found is None:
            found = compute()  # outside the lock: another thread's look-up does not wait
            with self._lock:
                self.kept[place] = found
                while len(self.kept) > self.size:
                    self.kept.popitem(last=False)
        kept: T = found
        return with_removed(kept, key.removed)
