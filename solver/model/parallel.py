"""Parallel work: how many workers a map may start.

:func:`effective_jobs` caps a requested worker count at the number of tasks and at the
cores this process may use, so ``--jobs 1000`` for four tasks starts at most four
workers, and never more than the machine has cores.
"""

from __future__ import annotations

import os

from solver.model.errors import CbjError


class JobsError(CbjError):
    """A worker count that is not a whole number, or is zero."""


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity where the system reports one)."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        return max(1, len(affinity(0)))
    return max(1, os.cpu_count() or 1)


def effective_jobs(jobs: int, tasks: int, cores: int | None = None) -> int:
    """Workers to start for ``tasks`` tasks when ``jobs`` are asked for.

    ``jobs`` follows joblib: a positive count, or ``-1`` for every core, ``-2`` for all
    but one, and so on.  The answer is at least 1 and at most ``tasks`` and ``cores``.

    >>> effective_jobs(1000, 4, cores=8), effective_jobs(-1, 100, cores=8)
    (4, 8)
    >>> effective_jobs(-2, 100, cores=8), effective_jobs(3, 0, cores=8)
    (7, 1)
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs == 0:
        raise JobsError(f"jobs {jobs!r} is invalid: use 1, a number of workers, or -1 for all")
    cores = available_cores() if cores is None else cores
    wanted = jobs if jobs > 0 else max(1, cores + 1 + jobs)
    return max(1, min(wanted, tasks, cores))
