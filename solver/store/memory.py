"""The memory store: results of every kind kept for the life of an object."""

from __future__ import annotations

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
