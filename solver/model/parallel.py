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
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Literal, TypeVar

from solver.model.checks import whole_in
from solver.model.errors import BackendError, CbjError

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
CONNECT_TIMEOUT = "10s"


def check_jobs(jobs: int, error: type[CbjError] = CbjError) -> int:
    """Validate a ``jobs`` value: a positive number of workers, or -1 for every core.

    Raises ``error`` (the caller's kind of :class:`CbjError`) otherwise.

    >>> check_jobs(2)
    2
    """
    if not (whole_in(jobs, 1) or jobs == -1):
        raise error(f"jobs {jobs!r} is invalid: use 1 or more workers, or -1 for every core")
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


def _dask_results(function: Callable[[T], R], items: Sequence[T], address: str) -> Iterator[R]:
    """``function`` over ``items`` on the Dask cluster at ``address``, in order.

    Every item is its own task, so the scheduler spreads them over all the cluster's
    worker threads (no cap at this machine's cores).
    """
    try:
        from distributed import Client
    except ImportError:
        raise BackendError(
            "the dask backend needs Dask: pip install 'community-blackjack[dask]'"
        ) from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)  # type: ignore[no-untyped-call]
    except Exception as error:  # any failure to connect is the user's address or network
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise BackendError(f"cannot reach the Dask scheduler at {address}: {reason}") from None
    with client:
        futures = client.map(function, list(items), pure=False)
        for future in futures:
            yield future.result()


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
        raise BackendError(f"backend {backend!r} is unknown: use threads, processes or dask")
    elif (workers := effective_jobs(jobs, len(items))) == 1:
        results = (function(item) for item in items)
    else:
        from joblib import Parallel, delayed  # slow to load: only shared work needs it

        prefer = "threads" if backend == "threads" else "processes"
        try:
            parallel = Parallel(n_jobs=workers, prefer=prefer, return_as="generator")
        except ValueError:  # a backend chosen by the caller that cannot stream results
            parallel = Parallel(n_jobs=workers, prefer=prefer)
        results = parallel(delayed(function)(item) for item in items)
    return _reported(results, len(items), progress)


def _reported(
    results: Iterable[R], total: int, progress: Callable[[int, int], None] | None
) -> Iterator[R]:
    """``results`` passed on one by one, calling ``progress(done, total)`` after each."""
    for done, result in enumerate(results, start=1):
        if progress is not None:
            progress(done, total)
        yield result
