"""One way to spread work over workers: an ordered parallel map through joblib.

Callers choose threads (numpy work that releases the GIL) or processes (pure Python
work); the number of workers never exceeds the tasks or the machine's cores.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Literal, TypeVar

from solver.model.errors import CbjError

T = TypeVar("T")
R = TypeVar("R")

Backend = Literal["threads", "processes"]


def check_jobs(jobs: int, error: type[CbjError] = CbjError) -> int:
    """Validate a ``jobs`` value: a positive number of workers, or -1 for every core.

    Raises ``error`` (the caller's kind of :class:`CbjError`) otherwise.

    >>> check_jobs(2)
    2
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or (jobs < 1 and jobs != -1):
        raise error(f"jobs {jobs!r} is invalid: use 1 or more workers, or -1 for every core")
    return jobs


def effective_jobs(jobs: int, tasks: int) -> int:
    """Workers actually started: at most one per task and one per core.

    >>> effective_jobs(1000, 4) <= 4
    True
    """
    cores = os.cpu_count() or 1
    wanted = cores if check_jobs(jobs) == -1 else jobs
    return max(1, min(wanted, tasks, cores))


def parallel_map(
    function: Callable[[T], R],
    items: Sequence[T],
    jobs: int = 1,
    backend: Backend = "processes",
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[R]:
    """``function`` over ``items`` in order, on up to ``jobs`` workers.

    ``progress(done, total)`` is called as each result arrives.

    >>> list(parallel_map(abs, [-1, 2, -3]))
    [1, 2, 3]
    """
    workers = effective_jobs(jobs, len(items))
    results: Iterable[R]
    if workers == 1:
        results = (function(item) for item in items)
    else:
        from joblib import Parallel, delayed

        prefer = "threads" if backend == "threads" else "processes"
        try:
            parallel = Parallel(n_jobs=workers, prefer=prefer, return_as="generator")
        except ValueError:  # a backend chosen by the caller that cannot stream results
            parallel = Parallel(n_jobs=workers, prefer=prefer)
        results = parallel(delayed(function)(item) for item in items)
    for done, result in enumerate(results, start=1):
        if progress is not None:
            progress(done, len(items))
        yield result
