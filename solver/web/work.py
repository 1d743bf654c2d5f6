"""Long work off the request path: a few worker threads, one job per input, newest first.

A request never solves: it asks :class:`Work` for the job of its inputs (:meth:`Work.submit`),
which is the one already queued, running or finished for the same key if there is one
(fifty requests for one uncached game share one solve), and waits a moment for it.  Each
lane (quick solves; long searches and reports) has one worker thread and a short queue:
when a newer job joins a full queue the oldest waiting one is dropped (superseded), so a
designer typing fast is answered for what they typed last.  Workers are daemon threads: a
stopped server does not wait for a solve nobody will read.

:class:`WorkbenchStore` is the store handed to the API: it keeps each solved game by its
rules *less the paytable and the Bonus ratio*, and answers any other paytable or ratio by
re-pricing that game (:meth:`~solver.exact.paytable.EdgeModel.priced`: the main wager's play
does not depend on them), in milliseconds.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import CancelledError, Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from solver.exact.paytable import EdgeModel
from solver.model.rules import MIN_BONUS_RATIO, Paytable, Rules
from solver.results.charts import CHART, Chart
from solver.results.game import GAME, GameResult
from solver.results.kinds import Key, Kind, Store

if TYPE_CHECKING:
    from solver.model.cards import Card

T = TypeVar("T")
V = TypeVar("V")


class Lane(StrEnum):
    """Which worker a job waits for."""

    QUICK = "quick"
    """Solves and charts: seconds at most."""
    LONG = "long"
    """Paytable searches, reports and drawings: up to a minute or so."""


class Job(Generic[T]):
    """One piece of work: its result when done, and how far it has got meanwhile."""

    def __init__(self, key: Hashable, compute: Callable[[Job[T]], T]) -> None:
        self.key = key
        self.compute = compute
        self.future: Future[T] = Future()
        self.done = 0
        self.total = 0
        self.queued_at = time.monotonic()
        self.started_at: float | None = None

    def progress(self, done: int, total: int) -> None:
        """Record progress (the solver's callback): ``done`` of ``total`` steps."""
        self.done, self.total = done, total

    @property
    def superseded(self) -> bool:
        """Dropped from the queue for newer work before it started."""
        return self.future.cancelled()

    @property
    def finished(self) -> bool:
        """Done, failed or superseded."""
        return self.future.done()

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the job to finish; whether it has."""
        with contextlib.suppress(FutureTimeout, CancelledError):
            self.future.exception(timeout=seconds)
        return self.future.done()

    def result(self) -> T:
        """The result (or the exception the work raised)."""
        return self.future.result(timeout=0)

    def elapsed(self) -> float:
        """Seconds since the work started (0 while it waits)."""
        return 0.0 if self.started_at is None else time.monotonic() - self.started_at

    def run(self) -> None:
        """Do the work in this thread (a worker's), unless it was superseded meanwhile."""
        if not self.future.set_running_or_notify_cancel():
            return
        self.started_at = time.monotonic()
        try:
            value = self.compute(self)
        except BaseException as error:  # the page reports it; the worker goes on
            self.future.set_exception(error)
        else:
            self.future.set_result(value)


class Work:
    """Worker threads, one per lane, with the jobs they have done, are doing and will do."""

    def __init__(self, waiting: int = 2, kept: int = 256, start: bool = True) -> None:
        self.waiting = waiting
        self.kept = kept
        self.started = 0
        """How many jobs were submitted afresh (not shared): the tests count solves by it."""
        self._lock = threading.Condition()
        self._jobs: OrderedDict[Hashable, Job[Any]] = OrderedDict()
        self._queues: dict[Lane, deque[Job[Any]]] = {lane: deque() for lane in Lane}
        self._closed = False
        self._threads = [
            threading.Thread(target=self._serve, args=(lane,), name=f"cbj-{lane}", daemon=True)
            for lane in Lane
        ]
        for thread in self._threads if start else ():  # not started: jobs only queue (tests)
            thread.start()

    def submit(
        self, key: Hashable, compute: Callable[[Job[T]], T], lane: Lane = Lane.QUICK
    ) -> Job[T]:
        """The job for ``key``: the one there is, or a new one queued on ``lane``."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and not job.superseded:
                self._jobs.move_to_end(key)
                return job
            job = Job(key, compute)
            self.started += 1
            self._jobs[key] = job
            queue = self._queues[lane]
            queue.append(job)
            while len(queue) > self.waiting:
                old = queue.popleft()
                old.future.cancel()
                self._jobs.pop(old.key, None)
            self._forget_old()
            self._lock.notify_all()
            return job

    def find(self, key: Hashable) -> Job[Any] | None:
        """The job for ``key`` if there is one."""
        with self._lock:
            return self._jobs.get(key)

    def _forget_old(self) -> None:
        """Drop the oldest finished jobs beyond :attr:`kept` (their results go with them)."""
        finished = [k for k, j in self._jobs.items() if j.finished]
        for key in finished[: max(0, len(self._jobs) - self.kept)]:
            del self._jobs[key]

    def _serve(self, lane: Lane) -> None:
        queue = self._queues[lane]
        while True:
            with self._lock:
                while not queue and not self._closed:
                    self._lock.wait()
                if self._closed:
                    return
                job = queue.popleft()
            job.run()

    def close(self) -> None:
        """Stop the workers once their current job is over; queued jobs are dropped."""
        with self._lock:
            self._closed = True
            for queue in self._queues.values():
                while queue:
                    queue.popleft().future.cancel()
            self._lock.notify_all()


def neutral(rules: Rules) -> Rules:
    """The rules with the default paytable and the least Bonus ratio: what a solve depends on.

    >>> neutral(Rules(paytable=Paytable.parse("20:5:1"))) == Rules()
    True
    """
    return replace(rules, paytable=Paytable(), bonus_ratio=MIN_BONUS_RATIO)


class _Kept(Generic[V]):
    """A small thread-safe memory of the latest values, oldest dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> None:
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.size:
                self._values.popitem(last=False)


class WorkbenchStore:
    """The API's store for the workbench: games by their paytable-free rules, re-priced.

    A :class:`~solver.results.kinds.Store` over ``inner`` (the disk cache, or None): a
    game asked for under a paytable or ratio not solved before is the game solved under
    another, re-priced; charts are kept in memory too; every other kind of result is
    ``inner``'s (or computed, without one).
    """

    def __init__(self, inner: Store | None = None, size: int = 64) -> None:
        self.inner = inner
        self._games: _Kept[GameResult[Any]] = _Kept(size)
        self._charts: _Kept[Chart] = _Kept(size)

    @staticmethod
    def _key(rules: Rules, removed: tuple[Card, ...], exact: bool) -> Hashable:
        return (neutral(rules), tuple(sorted(str(c) for c in removed)), exact)

    def has_game(self, rules: Rules, exact: bool) -> bool:
        """A game under these rules (any paytable and ratio) is at hand: no solve needed."""
        return self._games.get(self._key(rules, (), exact)) is not None

    def fetch(self, kind: Kind[T], key: Key, compute: Callable[[], T]) -> T:
        """The result of ``kind`` under ``key``: a game re-priced from one kept, a chart
        kept, else ``inner``'s (each computed and kept when there is none)."""
        if kind == GAME:
            return cast(T, self._game(key, cast(Callable[[], GameResult[Any]], compute)))
        if kind == CHART:
            chart = self._charts.get(key.rules)
            if chart is None:
                chart = cast(Chart, self._inner(kind, key, compute))
                self._charts.put(key.rules, chart)
            return cast(T, chart)
        return self._inner(kind, key, compute)

    def _inner(self, kind: Kind[T], key: Key, compute: Callable[[], T]) -> T:
        """What ``inner`` holds (it calls ``compute`` when it has nothing stored), or
        ``compute()`` when there is no ``inner``."""
        return compute() if self.inner is None else self.inner.fetch(kind, key, compute)

    def _game(self, key: Key, compute: Callable[[], GameResult[Any]]) -> GameResult[Any]:
        """The game under ``key``: re-priced from one kept, else solved (and kept)."""
        rules, removed = key.rules, key.removed
        kept = self._key(rules, removed, key.exact)
        base = self._games.get(kept)
        if base is None:
            base = self._inner(GAME, key, compute)
            self._games.put(kept, base)
        if base.rules == rules and base.removed == removed:
            return base
        priced = EdgeModel(base).priced(rules.paytable, rules.bonus_ratio)
        return replace(priced, removed=removed)
