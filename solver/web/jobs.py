"""Long work off the request path: one worker per kind of job, bounded queues, time limits.

A request never computes: a POST asks :class:`Work` for the job of its inputs
(:meth:`Work.submit`), which is the one already queued, running or finished for the same key
if there is one (fifty requests for one uncached game share one solve); a GET only looks a
job up (:meth:`Work.find`).  Each :class:`Kind` of job has its own worker thread and a queue
of bounded length, so a long report never holds up a chart's drawing, and cheap pages never
wait for either.  Some kinds are *superseded*: a newer job joining their full queue drops
the oldest one waiting (a designer typing fast is answered for what was typed last); the
others refuse a job past their queue (:class:`Refused`, "busy").  One client may have at most
:data:`CLIENT_JOBS` jobs queued or running at once.

Every job has a time limit and can be stopped (:meth:`Work.stop`): its waiters are told at
once, and the work itself stops at its next check of the job's stop flag
(:func:`~solver.model.process.check_stop`, which every long step of the solver calls at a
bounded interval, and every progress report: :class:`Stopped` is raised there), so its worker
and its queue's lane are free for the next job within a second or two whatever the job's
sizes.  The time limit sets the same flag.  Work that never checks (a bug, or a library
call that does not return) is left to finish on its own thread, unread, once it has run
:data:`GRACE` seconds past its stop, and its kind gets a fresh worker (at most
:data:`SPARE_WORKERS` such threads at once: past that the kind waits for its stuck job, and
its queue, once full, refuses more).
Finished results are kept in the server's :class:`~solver.web.memory.Memory` (least recently
used dropped first).
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import CancelledError, Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, TypeVar

from solver.model.process import StopFlag, Stopped, stoppable
from solver.web.memory import Memory

T = TypeVar("T")


class Kind(StrEnum):
    """What a job does; each kind has its own worker and queue."""

    GAME = "game"
    """A game solved in floats: well under a second."""
    EXACT = "exact"
    """A game solved in exact fractions: seconds."""
    CHART = "chart"
    """An exact solve, then the best chart's search."""
    FILE = "file"
    """A chart drawn as a PDF, PNG or CSV file."""
    PAYTABLE = "paytable"
    """A paytable solve or search."""
    HOLD = "hold"
    """A hold check: an exact solve, then the session's distribution."""
    REPORT = "report"
    """The PAR report: minutes."""
    SWEEP = "sweep"
    """A sweep of one rule or pay: a solve at each value (re-priced where it can), and
    its plot drawn."""


@dataclass(frozen=True, slots=True)
class Limits:
    """A kind's queue length, whether newer jobs supersede older ones, and its time limit."""

    queue: int
    supersede: bool
    seconds: float
    counted: bool = True
    """Counted against a client's :data:`CLIENT_JOBS` (not for the quick float solves)."""


LIMITS = {
    Kind.GAME: Limits(queue=8, supersede=True, seconds=60, counted=False),
    Kind.EXACT: Limits(queue=2, supersede=True, seconds=600),
    Kind.CHART: Limits(queue=4, supersede=False, seconds=600),
    Kind.FILE: Limits(queue=4, supersede=False, seconds=300),
    Kind.PAYTABLE: Limits(queue=4, supersede=False, seconds=600),
    Kind.HOLD: Limits(queue=4, supersede=False, seconds=600),
    Kind.REPORT: Limits(queue=2, supersede=False, seconds=3600),
    Kind.SWEEP: Limits(queue=4, supersede=False, seconds=600),
}
#: The most jobs one client may have queued or running at once (quick solves not counted).
CLIENT_JOBS = 6
#: Worker threads left running work that outlived its limit without a progress report.
SPARE_WORKERS = 2
#: How often the time limits are checked (seconds).
WATCH_EVERY = 0.25
#: How long a stopped job may go on without checking its stop flag before its worker is
#: replaced (seconds).
GRACE = 5.0

__all__ = ["CLIENT_JOBS", "LIMITS", "Job", "Kind", "Limits", "Refused", "Stopped", "Work"]


class Refused(Exception):
    """A job not taken: its kind's queue is full, or the client has too many running."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class Job(Generic[T]):
    """One piece of work: its result when done, and how far it has got meanwhile."""

    def __init__(
        self, key: Hashable, compute: Callable[[Job[T]], T], kind: Kind, client: str = ""
    ) -> None:
        self.key = key
        self.compute = compute
        self.kind = kind
        self.client = client
        self.id = secrets.token_urlsafe(9)
        self.future: Future[T] = Future()
        self.done = 0
        self.total = 0
        self.queued_at = time.monotonic()
        self.started_at: float | None = None
        self.flag = StopFlag()
        """Set when the job is stopped: its work checks it (:func:`stoppable`)."""
        self.stopped_at: float | None = None

    @property
    def stop_reason(self) -> str:
        """Why the job was stopped ("" while it is not)."""
        return self.flag.reason

    def progress(self, done: int, total: int) -> None:
        """Record progress (the solver's callback); raises :class:`Stopped` once stopped."""
        if self.flag.reason:
            raise Stopped(self.flag.reason)
        self.done, self.total = done, total

    @property
    def superseded(self) -> bool:
        """Dropped from its queue for newer work before it started."""
        return self.future.cancelled()

    @property
    def finished(self) -> bool:
        """Done, failed, stopped or superseded."""
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

    def stop(self, reason: str) -> None:
        """Stop the job: its waiters get :class:`Stopped` now, its work at its next check."""
        if self.stopped_at is None:
            self.stopped_at = time.monotonic()
        self.flag.set(reason)
        if self.future.cancel():  # still waiting: it never starts
            return
        with contextlib.suppress(Exception):  # finished meanwhile: nothing to stop
            self.future.set_exception(Stopped(reason))

    def run(self, keep: Callable[[Hashable, Any], None] | None = None) -> None:
        """Do the work in this thread (a worker's), unless it was superseded meanwhile;
        ``keep(key, result)`` is called before the result is handed to the waiters."""
        if not self.future.set_running_or_notify_cancel():
            return
        self.started_at = time.monotonic()
        try:
            with stoppable(self.flag):
                value = self.compute(self)
            if keep is not None and not self.future.done():
                keep(self.key, value)
        except BaseException as error:  # the page reports it; the worker goes on
            if not self.future.done():
                self.future.set_exception(error)
        else:
            if not self.future.done():  # not stopped meanwhile
                self.future.set_result(value)


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:g} minutes" if seconds >= 60 else f"{seconds:g} s"


class Work:
    """A worker thread per kind of job, their queues, and the jobs known by key.

    ``memory`` keeps finished jobs' results (a job whose result was dropped is done again
    when asked for); ``start=False`` starts no worker (the tests' jobs only queue).
    """

    def __init__(self, memory: Memory | None = None, start: bool = True) -> None:
        self.memory = memory if memory is not None else Memory(256 * 2**20)
        self.started = 0
        """How many jobs were submitted afresh (not shared): the tests count solves by it."""
        self.spares = 0
        """Worker threads still running work that outlived its limit."""
        self._lock = threading.Condition()
        self._jobs: dict[Hashable, Job[Any]] = {}
        self._by_id: dict[str, Job[Any]] = {}
        self._queues: dict[Kind, deque[Job[Any]]] = {kind: deque() for kind in Kind}
        self._running: dict[Kind, Job[Any] | None] = dict.fromkeys(Kind)
        self._closed = False
        self._start = start
        if start:
            for kind in Kind:
                self._spawn(kind)
            threading.Thread(target=self._watch, name="cbj-watch", daemon=True).start()

    def _spawn(self, kind: Kind) -> None:
        thread = threading.Thread(target=self._serve, args=(kind,), name=f"cbj-{kind}")
        thread.daemon = True  # a stopped server does not wait for work nobody will read
        thread.start()

    # --- asking for jobs --------------------------------------------------------------------

    def submit(
        self, key: Hashable, compute: Callable[[Job[T]], T], kind: Kind, client: str = ""
    ) -> Job[T]:
        """The job for ``key``: the one there is, or a new one queued for its ``kind``.

        Raises :class:`Refused` when a new job is not taken.
        """
        with self._lock:
            job = self._live(key)
            if job is not None and not job.stop_reason:
                return job
            self._check_room(kind, client)
            job = Job(key, compute, kind, client)
            self.started += 1
            self._jobs[key] = job
            self._by_id[job.id] = job
            queue = self._queues[kind]
            queue.append(job)
            while len(queue) > LIMITS[kind].queue:  # only superseded kinds get here
                old = queue.popleft()
                old.future.cancel()
                self._jobs.pop(old.key, None)
            self._lock.notify_all()
            return job

    def _live(self, key: Hashable) -> Job[Any] | None:
        """The job for ``key``, unless superseded or its result was dropped."""
        job = self._jobs.get(key)
        if job is None or job.superseded:
            return None
        if job.finished and job.future.exception() is None and self.memory.get(key) is None:
            return None  # its result was dropped for memory: do it again
        return job

    def _check_room(self, kind: Kind, client: str) -> None:
        limits = LIMITS[kind]
        if not limits.supersede and len(self._queues[kind]) >= limits.queue:
            raise Refused(
                f"{limits.queue} {kind} jobs are waiting already: try again in a minute", 503
            )
        if limits.counted and client:
            mine = sum(
                1
                for job in self._jobs.values()
                if job.client == client and not job.finished and LIMITS[job.kind].counted
            )
            if mine >= CLIENT_JOBS:
                raise Refused(
                    f"you have {mine} jobs queued or running, the most at once: wait for one "
                    "to finish or stop one",
                    429,
                )

    def find(self, key: Hashable) -> Job[Any] | None:
        """The job for ``key`` if there is one (a GET's look-up: nothing is started)."""
        with self._lock:
            return self._live(key)

    def forget(self, key: Hashable) -> None:
        """Forget the finished job for ``key`` (its result is needed again)."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and job.finished:
                del self._jobs[key]
                self._by_id.pop(job.id, None)
        self.memory.forget(key)

    def position(self, job: Job[Any]) -> int:
        """The job's place in its queue (1 is next), 0 once it runs or is done."""
        with self._lock:
            try:
                return self._queues[job.kind].index(job) + 1
            except ValueError:
                return 0

    def running(self, kind: Kind) -> Job[Any] | None:
        """The job ``kind``'s worker is doing now (None when it is idle)."""
        with self._lock:
            return self._running[kind]

    def stop(self, job_id: str, reason: str = "stopped at your request") -> bool:
        """Stop the job with this id; whether there was one still to stop."""
        with self._lock:
            job = self._by_id.get(job_id)
            if job is None or job.finished:
                return False
            with contextlib.suppress(ValueError):
                self._queues[job.kind].remove(job)
        job.stop(reason)
        return True

    # --- the workers ------------------------------------------------------------------------

    def _serve(self, kind: Kind) -> None:
        queue = self._queues[kind]
        while True:
            with self._lock:
                while not queue and not self._closed:
                    self._lock.wait()
                if self._closed:
                    return
                job = queue.popleft()
                self._running[kind] = job
            job.run(self.memory.put)
            with self._lock:
                if self._running[kind] is not job:  # replaced while it ran past its limit
                    self.spares -= 1
                    return
                self._running[kind] = None
                self._forget_finished()
            self.memory.fit()

    def _forget_finished(self) -> None:
        """Forget finished jobs whose results are no longer kept (and failed ones past 64)."""
        finished = [k for k, j in self._jobs.items() if j.finished]
        failed = 0
        for key in reversed(finished):
            job = self._jobs[key]
            gone = job.superseded or job.future.exception() is not None
            failed += gone
            if (gone and failed > 64) or (not gone and self.memory.get(key) is None):
                del self._jobs[key]
                self._by_id.pop(job.id, None)

    def _watch(self) -> None:
        """Stop jobs past their time limit; give a kind whose stopped job does not end (its
        work never checks its flag) a fresh worker."""
        while not self._closed:
            time.sleep(WATCH_EVERY)
            with self._lock:
                running = [(k, job) for k, job in self._running.items() if job is not None]
            for kind, job in running:
                if job.stopped_at is None:
                    if job.elapsed() > LIMITS[kind].seconds:
                        limit = _minutes(LIMITS[kind].seconds)
                        job.stop(f"stopped: it ran past its time limit of {limit}")
                elif time.monotonic() - job.stopped_at > GRACE:  # no check since: stuck
                    self._replace(kind, job)

    def _replace(self, kind: Kind, job: Job[Any]) -> None:
        """Leave ``job`` to its thread and start a fresh worker for ``kind`` (if allowed)."""
        with self._lock:
            if self._running[kind] is job and not self._closed and self.spares < SPARE_WORKERS:
                self._running[kind] = None
                self.spares += 1
                self._spawn(kind)

    def close(self) -> None:
        """Stop the workers once their current job is over; queued jobs are dropped."""
        with self._lock:
            self._closed = True
            for queue in self._queues.values():
                while queue:
                    queue.popleft().future.cancel()
            running = [job for job in self._running.values() if job is not None]
            self._lock.notify_all()
        for job in running:
            job.stop("the server is stopping")
