"""How a command's work runs: the one :class:`Run` value every long computation is handed.

Kept apart from :mod:`solver.results.kinds` (which encodes keys as JSON) so that a
command that runs nothing long loads nothing for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.model.params import ProgressCallback

if TYPE_CHECKING:
    from solver.results.kinds import Store


@dataclass(frozen=True, slots=True)
class Run:
    """How a command's work runs: its workers, where (``local`` processes or a ``dask``
    cluster at ``scheduler``), the store it keeps results in, and whom it tells how far it
    has got.  None of it changes a result; every command that runs long takes one.

    >>> Run(jobs=2).jobs, Run().cache is None
    (2, True)
    """

    jobs: int = 1
    backend: str = "local"
    scheduler: str | None = None
    cache: Store | None = None
    progress: ProgressCallback | None = None
