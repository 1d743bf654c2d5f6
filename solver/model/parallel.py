"""One way to spread work over workers: an ordered parallel map.

Callers choose threads (numpy work that releases the GIL) or processes (pure Python
work), both through joblib on this machine, where the number of workers never exceeds
the tasks or the machine's cores; or ``dask``, a Dask cluster reached through a
scheduler address, where every worker thread of the cluster may take a task.  The
results come back in the order of the items whichever way they were computed.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from solver.model.checks import shown, whole_in
from solver.model.errors import BackendError, CbjError
from solver.model.process import check_stop

T = TypeVar("T")
R = TypeVar("R")

Backend = Literal["threads", "processes", "dask"]

#: Where the address of a Dask scheduler is read when none is given.
SCHEDULER_VARIABLE = "DASK_SCHEDULER_ADDRESS"

#: A scheduler address: ``[tcp:// or tls://]HOST:PORT``, the host a name, IPv4 or [IPv6].
_ADDRESS = re.compile(
    r"(?:(?:tcp|tls)://)?(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])"
    r":(\d{1,5})",
    re.ASCII,
)
#: The address of a cluster inside this process (``LocalCluster(processes=False)``).
_IN_PROCESS = re.compile(r"inproc://[\w./-]+", re.ASCII)

#: How long to wait for a Dask scheduler to answer before giving up.
CONNECT_SECONDS = 10
CONNECT_TIMEOUT = f"{CONNECT_SECONDS}s"


def check_jobs(jobs: int, error: type[CbjError] = CbjError) -> int:
    """Validate a ``jobs`` value: a positive number of workers, or -1 for every core.

    Raises ``error`` (the caller's kind of :class:`CbjError`) otherwise.

    >>> check_jobs(2)
    2
    """
    if not (whole_in(jobs, 1) or jobs == -1):
        raise error(f"jobs {shown(jobs)} is invalid: use 1 or more workers, or -1 for every core")
    return jobs


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity where the system reports one)."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        return max(1, len(affinity(0)))
    return max(1, os.cpu_count() or 1)


def effective_jobs(jobs: int, tasks: int, cores: int | None = None) -> int:
    """Workers actually started: at most one per task and one per core.

    ``cores`` defaults to :func:`available_cores`.

    >>> effective_jobs(1000, 4) <= 4
    True
    >>> effective_jobs(1000, 4, cores=2), effective_jobs(-1, 100, cores=8)
    (2, 8)
    """
    cores = available_cores() if cores is None else cores
    wanted = cores if check_jobs(jobs) == -1 else jobs
    return max(1, min(wanted, tasks, cores))


def scheduler_address(scheduler: str | None) -> str:
    """The Dask scheduler to use: ``scheduler``, else ``$DASK_SCHEDULER_ADDRESS``.

    Raises :class:`BackendError` when neither names one.

    >>> scheduler_address("tcp://10.0.0.5:8786")
    'tcp://10.0.0.5:8786'
    """
    address = (scheduler or os.environ.get(SCHEDULER_VARIABLE) or "").strip()
    if not address:
        raise BackendError(
            "the dask backend needs a scheduler address: give --scheduler tcp://HOST:8786 "
            f"or set {SCHEDULER_VARIABLE}"
        )
    if _IN_PROCESS.fullmatch(address):
        return address
    match = _ADDRESS.fullmatch(address)
    if match is None or not 1 <= int(match.group(1)) <= 65535:
        raise BackendError(
            f"scheduler address {address[:60]!r} is not HOST:PORT, tcp://HOST:PORT or "
            "tls://HOST:PORT (port 1-65535), e.g. tcp://10.0.0.5:8786"
        )
    return address


#: How long a Dask run waits for a lost scheduler or for a worker (any) before giving up.
LOST_TIMEOUT = 30.0
#: How often a Dask run looks at the cluster while it waits for a result.
POLL_INTERVAL = 1.0


def _check_dask_address(address: str) -> Any:
    """The ``security`` a Client needs for ``address`` (None for tcp); a
    :class:`BackendError` for an address that cannot work here, before connecting."""
    if address.startswith("inproc://"):
        from distributed.comm.inproc import global_manager

        if address.removeprefix("inproc://") not in global_manager.listeners and (
            address not in global_manager.listeners
        ):
            raise BackendError(
                f"no Dask cluster in this process listens at {address}: an inproc:// address "
                "names a cluster started in the same Python process; give tcp://HOST:PORT"
            )
        return None
    if not address.startswith("tls://"):
        return None
    from distributed.security import Security

    security = Security()  # type: ignore[no-untyped-call]
    if security.get_connection_args("client").get("ssl_context") is None:  # type: ignore[no-untyped-call]
        raise BackendError(
            f"{address} needs Dask's TLS settings (distributed.comm.tls.ca-file, "
            "distributed.comm.tls.client.cert and .key, e.g. as DASK_DISTRIBUTED__COMM__TLS__"
            "CA_FILE): none are set"
        )
    return security


def _quiet_dask_logs() -> None:
    """Keep Dask's own log lines off stderr, unless Dask's logging configuration asks."""
    import logging

    if any(name.startswith("DASK_LOGGING") for name in os.environ):
        return
    silent = logging.CRITICAL + 1
    for name in ("distributed", "tornado"):
        logger = logging.getLogger(name)
        logger.setLevel(silent)
        for handler in logger.handlers:  # Dask's own handler: its child loggers log there
            handler.setLevel(silent)
    for name in list(logging.root.manager.loggerDict):
        if name.startswith(("distributed.", "tornado.")):
            logging.getLogger(name).setLevel(silent)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _connect(address: str) -> Any:
    """A Dask client of the scheduler at ``address``; one :class:`BackendError` line if
    it cannot be reached within :data:`CONNECT_TIMEOUT`."""
    try:
        from distributed import Client
    except ImportError:
        raise BackendError(
            "the dask backend needs Dask: pip install 'dask[distributed]' "
            "(from the project folder: pip install '.[dask]')"
        ) from None
    _quiet_dask_logs()
    security = _check_dask_address(address)
    made: dict[str, Any] = {}

    def make() -> None:  # in a thread: Dask's own timeout does not cover a silent peer
        try:
            made["client"] = Client(  # type: ignore[no-untyped-call]
                address, timeout=CONNECT_TIMEOUT, set_as_default=False, security=security
            )
        except OSError as error:  # the address or the network: said as it is
            made["error"] = _first_line(error)
        except Exception:  # it answered, in no protocol Dask speaks (a huge length, say)
            made["error"] = "it answered, but not as a Dask scheduler (is the port its own?)"

    connecting = threading.Thread(target=make, name="cbj-dask-connect", daemon=True)
    connecting.start()
    connecting.join(CONNECT_SECONDS + 5)
    if "client" in made:
        return made["client"]
    if connecting.is_alive():
        raise BackendError(
            f"the Dask scheduler at {address} did not answer within {CONNECT_SECONDS} s "
            "(is it a Dask scheduler, and the port its own?)"
        )
    _collect_quietly()  # the half-made client, before its clean-up can print a traceback
    raise BackendError(f"cannot reach the Dask scheduler at {address}: {made['error']}")


def _collect_quietly() -> None:
    """Collect garbage with errors in finalisers silenced (a failed Client's ``__del__``)."""
    import gc
    import sys

    hook = sys.unraisablehook
    sys.unraisablehook = lambda _: None
    try:
        gc.collect()
    finally:
        sys.unraisablehook = hook


def _cluster_problem(client: Any) -> str | None:
    """What keeps the cluster from working now, in words (None when it can)."""
    if client.status not in ("running", "connecting"):
        return "the scheduler was lost"
    if client.status == "connecting":
        return "the scheduler could not be reached"
    workers = getattr(client, "_scheduler_identity", {}).get("n_workers")
    if workers == 0:
        return "the cluster had no worker"
    return None


def _dask_result(client: Any, future: Any, address: str) -> Any:
    """``future``'s result; :class:`BackendError` once the cluster has been unable to
    work for :data:`LOST_TIMEOUT` seconds (a lost scheduler, no worker left)."""
    from distributed import TimeoutError as DaskTimeout

    trouble_since: float | None = None
    while True:
        try:
            return future.result(timeout=POLL_INTERVAL)
        except (DaskTimeout, TimeoutError):
            pass
        except Exception as error:
            if future.status == "error":
                raise  # the task itself failed: its own error
            lost = "connection-lost" in str(error) or client.status != "running"
            reason = "the scheduler was lost" if lost else _first_line(error)
            raise BackendError(f"Dask at {address}: {reason}, so the run stopped") from None
        problem = _cluster_problem(client)
        now = time.monotonic()
        if problem is None:
            trouble_since = None
        elif trouble_since is None:
            trouble_since = now
        elif now - trouble_since > LOST_TIMEOUT:
            raise BackendError(
                f"Dask at {address}: {problem} for the last {LOST_TIMEOUT:.0f} s, so the run "
                "stopped"
            )


def _dask_results(function: Callable[[T], R], items: Sequence[T], address: str) -> Iterator[R]:
    """``function`` over ``items`` on the Dask cluster at ``address``, in order.

    Every item is its own task, so the scheduler spreads them over all the cluster's
    worker threads (no cap at this machine's cores).  A cluster that loses its
    scheduler or every worker ends the run with one line after :data:`LOST_TIMEOUT`.
    """
    client = _connect(address)
    try:
        futures = client.map(function, list(items), pure=False)
        for future in futures:
            yield _dask_result(client, future, address)
    finally:
        with suppress(Exception):  # closing a client of a lost scheduler: nothing to close
            client.close(timeout=5)


#: How often a worker process checks that the command that started it still runs.
WATCH_INTERVAL = 0.5
#: The parent this worker process watches (set once per process, on its first task).
_watched_parent: int | None = None


def _watch_parent(parent: int) -> None:
    """In a worker process, end it soon after the process ``parent`` that started it ends.

    A command killed outright (SIGKILL, or a crash) cannot stop its workers; each worker
    stops itself instead: a daemon thread polls the worker's parent process every
    :data:`WATCH_INTERVAL` seconds and ends the worker once it has changed (the orphan
    is handed to init or a subreaper).  Nothing happens in ``parent`` itself.
    """
    global _watched_parent
    if os.getpid() == parent or _watched_parent is not None:
        return
    _watched_parent = watched = os.getppid()
    if watched != parent and not _running(parent):
        os._exit(1)  # the command ended while this worker was starting
    # (a parent other than the command is a helper it started: that one is watched)

    def watch() -> None:
        while os.getppid() == watched:
            time.sleep(WATCH_INTERVAL)
        os._exit(1)  # the command is gone: no one will read this worker's results

    threading.Thread(target=watch, name="cbj-parent-watch", daemon=True).start()


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(frozen=True, slots=True)
class _Watched(Generic[T, R]):
    """``function``, run by a worker process that ends when the command ``parent`` ends."""

    function: Callable[[T], R]
    parent: int

    def __call__(self, item: T) -> R:
        _watch_parent(self.parent)
        return self.function(item)


def _joblib_results(
    function: Callable[[T], R], items: Sequence[T], workers: int, prefer: str
) -> Iterator[R]:
    """``function`` over ``items`` on ``workers`` joblib workers, in order.

    A worker process killed from outside is one :class:`BackendError`; a Ctrl-C (or the
    stop signals the CLI turns into one) stops every worker before it goes on.
    """
    from joblib import Parallel, delayed  # slow to load: only shared work needs it
    from joblib.externals.loky.process_executor import TerminatedWorkerError

    watching: dict[str, Any] = {}
    task: Callable[[T], R] = function
    if prefer == "processes":  # each worker watches this process from its start
        watching = {"initializer": _watch_parent, "initargs": (os.getpid(),)}
        task = _Watched(function, os.getpid())  # and on its first task, if started otherwise
    try:
        parallel = Parallel(n_jobs=workers, prefer=prefer, return_as="generator", **watching)
    except ValueError:  # a backend chosen by the caller that cannot stream results
        parallel = Parallel(n_jobs=workers, prefer=prefer, **watching)
    results = parallel(delayed(task)(item) for item in items)
    try:
        yield from results
    except TerminatedWorkerError:
        raise BackendError(
            "a worker process was stopped from outside (killed, or out of memory): "
            "run again, or with fewer --jobs"
        ) from None
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # an abandoned run (an error, Ctrl-C) stops its workers now


def parallel_map(
    function: Callable[[T], R],
    items: Sequence[T],
    jobs: int = 1,
    backend: Backend = "processes",
    progress: Callable[[int, int], None] | None = None,
    scheduler: str | None = None,
) -> Iterator[R]:
    """``function`` over ``items`` in order, on up to ``jobs`` workers (or a Dask cluster).

    ``progress(done, total)`` is called as each result arrives.  With ``backend="dask"``,
    ``jobs`` is ignored and ``scheduler`` (else ``$DASK_SCHEDULER_ADDRESS``) names the
    cluster; ``function`` and the items must be importable and picklable there.

    >>> list(parallel_map(abs, [-1, 2, -3]))
    [1, 2, 3]
    """
    results: Iterable[R]
    if backend == "dask":
        results = _dask_results(function, items, scheduler_address(scheduler))
    elif backend not in ("threads", "processes"):
        raise BackendError(f"backend {shown(backend)} is unknown: use threads, processes or dask")
    elif (workers := effective_jobs(jobs, len(items))) == 1:
        results = (function(item) for item in items)
    else:
        prefer = "threads" if backend == "threads" else "processes"
        results = _joblib_results(function, items, workers, prefer)
    return _reported(results, len(items), progress)


def _reported(
    results: Iterable[R], total: int, progress: Callable[[int, int], None] | None
) -> Iterator[R]:
    """``results`` passed on one by one, calling ``progress(done, total)`` after each; a
    stopped job (:func:`~solver.model.process.check_stop`) stops between two results, its
    workers with it."""
    try:
        check_stop()
        for done, result in enumerate(results, start=1):
            check_stop()
            if progress is not None:
                progress(done, total)
            yield result
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # the workers of a run left early stop now


#: How long a command waits, as it exits, for the worker processes it stopped.
END_WORKERS_SECONDS = 3.0


def child_processes() -> set[int]:
    """The processes this process started and that still run (read from ``/proc``)."""
    me, found = os.getpid(), set()
    with suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            with suppress(OSError, IndexError, ValueError):
                with open(f"/proc/{entry.name}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
                if int(fields[1]) == me and fields[0] != b"Z":
                    found.add(int(entry.name))
    return found


def _trackers() -> set[int]:
    """The resource trackers of this process's pools (multiprocessing's, loky's): helpers
    that clean up after the pools and end as soon as the command does, not workers."""
    found = set()
    for name in (
        "multiprocessing.resource_tracker",
        "joblib.externals.loky.backend.resource_tracker",
    ):
        module = sys.modules.get(name)  # only one a pool has loaded
        pid = getattr(getattr(module, "_resource_tracker", None), "_pid", None)
        if isinstance(pid, int):
            found.add(pid)
    return found


def end_workers(seconds: float = END_WORKERS_SECONDS) -> None:
    """End every worker process this command started before it exits (``seconds`` at most).

    Workers are asked to stop (SIGTERM) and waited for, killed if they outlast ``seconds``.
    The pools' resource trackers are left to end with the command (they remove what the
    pools left in ``/dev/shm`` once its last descriptor closes).
    """
    workers = child_processes() - _trackers()
    for pid in workers:
        with suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + seconds
    while workers and time.monotonic() < deadline:
        time.sleep(0.02)
        workers &= child_processes()  # an ended one is a zombie until its pool reaps it
    for pid in workers:
        with suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def stop_trackers() -> None:
    """Stop the pools' resource trackers and wait for them (``atexit``: registered first,
    it runs last, once every pool has said what it leaves behind)."""
    for name in (
        "multiprocessing.resource_tracker",
        "joblib.externals.loky.backend.resource_tracker",
    ):
        tracker = getattr(sys.modules.get(name), "_resource_tracker", None)
        if tracker is None or getattr(tracker, "_pid", None) is None:
            continue
        stopping = threading.Thread(target=tracker._stop, daemon=True)
        stopping.start()  # it closes the tracker's pipe and waits for it to end
        stopping.join(END_WORKERS_SECONDS)
