"""The workbench's memory: one least-recently-used store of results with a stated cap.

Every result the server keeps (solved games, charts, drawn files, reports) is held by one
:class:`Memory`, which knows the size of each (:func:`deep_size`, the bytes Python holds for
it) and drops the least recently used once their sum passes its cap.  The cap is what
``cbj serve --memory-mb`` leaves once the server's own start-up size and the room running
jobs need are set aside (:func:`kept_budget`).  Python does not always hand freed memory back
to the system, so :meth:`Memory.fit` also looks at the process's resident size and drops
more while it is over the whole cap.

>>> memory = Memory(100)
>>> memory.put("a", b"x" * 60); memory.put("b", b"y" * 60)
>>> memory.get("a") is None, memory.get("b") is not None
(True, True)
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import sys
import threading
import types
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

#: What a kept result never refers to on its own: its classes, modules and functions.
_SHARED = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
)


def deep_size(value: object) -> int:
    """The bytes Python holds for ``value`` and everything it refers to (shared classes,
    modules and functions left out; a numpy array counts its data).

    >>> deep_size(b"") < deep_size(b"x" * 1000)
    True
    """
    seen: set[int] = set()
    total = 0
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, _SHARED):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        stack.extend(gc.get_referents(item))
    return total


def resident_bytes() -> int:
    """This process's resident memory (0 where the system does not say)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def give_back() -> None:
    """Collect garbage and ask the C library to return freed memory to the system."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # not glibc: reused, not returned
        ctypes.CDLL(None).malloc_trim(0)


#: The share of ``--memory-mb`` kept for the jobs that run (their working memory).
RUNNING_SHARE = 0.25
#: The least room kept results get, however large the server is at start.
LEAST_KEPT = 32 * 2**20
#: The share of the cap past which :meth:`Memory.fit` drops what is kept.
NEAR_CAP = 0.85


def kept_budget(cap: int, start: int) -> int:
    """Bytes of results kept under a cap of ``cap`` bytes for a server of ``start`` bytes.

    >>> kept_budget(1024 * 2**20, 200 * 2**20) // 2**20
    568
    """
    return max(LEAST_KEPT, int(cap * (1 - RUNNING_SHARE)) - start)


class Memory:
    """Kept results, least recently used dropped first once their sizes pass ``budget``.

    ``cap`` (if given) is the whole process's resident size that :meth:`fit` keeps under
    by dropping more, and by calling ``releasers`` (other memories of the process that
    can be emptied: the disk store's decoded entries).  Thread-safe.
    """

    def __init__(
        self,
        budget: int,
        cap: int | None = None,
        releasers: tuple[Callable[[], None], ...] = (),
    ) -> None:
        self.budget = budget
        self.cap = cap
        self.releasers = releasers
        self.used = 0
        self._values: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._values)

    def get(self, key: Hashable) -> Any:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            found = self._values.get(key)
            if found is None:
                return None
            self._values.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` for ``key``; drop the least recently used beyond the budget."""
        size = deep_size(value)
        with self._lock:
            old = self._values.pop(key, None)
            if old is not None:
                self.used -= old[1]
            self._values[key] = (value, size)
            self.used += size
            self._drop(self.budget)

    def forget(self, key: Hashable) -> None:
        """Drop what is kept for ``key``, if anything."""
        with self._lock:
            old = self._values.pop(key, None)
            if old is not None:
                self.used -= old[1]

    def _drop(self, budget: int) -> int:
        dropped = 0
        while self.used > budget and len(self._values) > 1:
            _, (_, size) = self._values.popitem(last=False)
            self.used -= size
            dropped += 1
        return dropped

    def fit(self) -> None:
        """While the process is near its cap (:data:`NEAR_CAP` of it), drop the older half
        of what is kept and empty the other memories (``releasers``)."""
        if self.cap is None:
            return
        for _ in range(8):
            if resident_bytes() <= self.cap * NEAR_CAP:
                return
            with self._lock:
                dropped = self._drop(self.used // 2)
            for release in self.releasers:
                release()
            give_back()
            if not dropped:
                return
