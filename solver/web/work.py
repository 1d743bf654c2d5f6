"""The API's store for the workbench: solved games kept by their paytable-free rules.

:class:`WorkbenchStore` is the store handed to the API: it keeps each solved game by its rules
*less the paytable and the Bonus ratio*, and answers any other paytable or ratio by
re-pricing that game (:func:`~solver.studies.pricing.repriced`: the main wager's play does
not depend on them), in milliseconds.  What it keeps is held by the server's one
:class:`~solver.web.memory.Memory` when it is given one (its cap: ``cbj serve --memory-mb``).
The jobs that fill it are :mod:`solver.web.jobs`'.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from solver.model.rules import Rules
from solver.results.charts import CHART, CHART_COSTS
from solver.results.game import GAME, GameResult
from solver.results.kinds import Key, Kind, Store
from solver.results.volatility import VOLATILITY
from solver.studies.pricing import neutral, repriced
from solver.web.memory import Memory

if TYPE_CHECKING:
    from solver.model.cards import Card

T = TypeVar("T")
V = TypeVar("V")


class _Kept(Generic[V]):
    """A small thread-safe memory of the latest values, oldest dropped first (or the
    server's :class:`Memory`, under ``name``, when given one)."""

    def __init__(self, size: int, memory: Memory | None = None, name: str = "") -> None:
        self.size = size
        self.memory = memory
        self.name = name
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        if self.memory is not None:
            found: V | None = self.memory.get((self.name, key))
            return found
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> None:
        if self.memory is not None:
            self.memory.put((self.name, key), value)
            return
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.size:
                self._values.popitem(last=False)


class WorkbenchStore:
    """The API's store for the workbench: games by their paytable-free rules, re-priced.

    A :class:`~solver.results.kinds.Store` over ``inner`` (the disk cache, or None): a
    game asked for under a paytable or ratio not solved before is the game solved under
    another, re-priced; charts, their cells' costs and each game's session figures
    (convolved once per game, when first shown) are kept in memory too; every other kind
    of result is ``inner``'s (or computed, without one).  What one job is solving another
    waits for (:meth:`_once`): jobs of different kinds need the same exact game.
    """

    def __init__(
        self, inner: Store | None = None, size: int = 64, memory: Memory | None = None
    ) -> None:
        self.inner = inner
        self._games: _Kept[GameResult[Any]] = _Kept(size, memory, "games")
        self._kept: dict[str, _Kept[Any]] = {
            kind.name: _Kept(size, memory, kind.name) for kind in (CHART, CHART_COSTS, VOLATILITY)
        }
        self._making: dict[Hashable, tuple[int, threading.Event]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def _key(rules: Rules, removed: tuple[Card, ...], exact: bool) -> Hashable:
        return (neutral(rules), tuple(sorted(str(c) for c in removed)), exact)

    def has_game(self, rules: Rules, exact: bool) -> bool:
        """A game under these rules (any paytable and ratio) is at hand: no solve needed."""
        return self._games.get(self._key(rules, (), exact)) is not None

    def fetch(self, kind: Kind[T], key: Key, compute: Callable[[], T]) -> T:
        """The result of ``kind`` under ``key``: a game re-priced from one kept, a chart or
        its costs kept, else ``inner``'s (each computed and kept when there is none)."""
        if kind == GAME:
            return cast(T, self._game(key, cast(Callable[[], GameResult[Any]], compute)))
        kept = self._kept.get(kind.name)
        if kept is None:
            return self._inner(kind, key, compute)
        place = self._place(key)

        def make() -> Any:
            found = self._inner(kind, key, compute)
            kept.put(place, found)
            return found

        return cast(T, self._once((kind.name, place), lambda: kept.get(place), make))

    def _once(self, place: Hashable, find: Callable[[], V | None], make: Callable[[], V]) -> V:
        """``find()``, else ``make()``, made by one thread at a time: a job asking for what
        another job is making (a paytable's solve, the warm-up's exact solve of the same
        game) waits for it rather than making it again.  If the maker fails or is stopped,
        the next one to ask makes it; a maker asking again for its own place makes it."""
        me = threading.get_ident()
        while True:
            found = find()
            if found is not None:
                return found
            with self._lock:
                making = self._making.get(place)
                if making is None or making[0] == me:
                    done = threading.Event()
                    self._making[place] = (me, done)
            if making is not None and making[0] != me:
                making[1].wait()
                continue
            try:
                return make()
            finally:
                with self._lock:
                    self._making.pop(place, None)
                done.set()

    @staticmethod
    def _place(key: Key) -> Hashable:
        """Where a result kept in memory lies: by its rules alone for the exact full shoe's
        (a chart, its costs), else by the whole key."""
        if key.exact and not key.removed:
            return key.rules
        return (key.rules, tuple(sorted(str(c) for c in key.removed)), key.exact)

    def has(self, kind: Kind[Any], rules: Rules) -> bool:
        """A chart or chart costs under ``rules`` is kept in memory: no work needed."""
        kept = self._kept.get(kind.name)
        return kept is not None and kept.get(rules) is not None

    def _inner(self, kind: Kind[T], key: Key, compute: Callable[[], T]) -> T:
        """What ``inner`` holds (it calls ``compute`` when it has nothing stored), or
        ``compute()`` when there is no ``inner``."""
        return compute() if self.inner is None else self.inner.fetch(kind, key, compute)

    def _game(self, key: Key, compute: Callable[[], GameResult[Any]]) -> GameResult[Any]:
        """The game under ``key``: re-priced from one kept, else solved (and kept)."""
        rules, removed = key.rules, key.removed
        kept = self._key(rules, removed, key.exact)

        def make() -> GameResult[Any]:
            found = self._inner(GAME, key, compute)
            self._games.put(kept, found)
            return found

        base = self._once((GAME.name, kept), lambda: self._games.get(kept), make)
        return repriced(base, rules, removed)
