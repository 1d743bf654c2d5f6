"""The exact side's kernels: the compiled extension or its numpy twin, chosen once.

``solver/exact/_native.c`` (built at install where a C compiler works) and
``solver/exact/_numpy.py`` have the same functions with the same signatures, as
``_heapq`` and ``heapq``.  This module holds the chosen twin's functions under their own
names: callers call ``kernel.fold(...)`` and never ask which twin runs.  The choice is
:mod:`solver.model.kernels`' (``CBJ_KERNEL``, ``CBJ_REQUIRE_COMPILED``, read once), shared
with the simulator; :func:`use` changes it for both.  Importing this module loads numpy.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from solver.exact import _numpy
from solver.exact._numpy import *  # noqa: F403  (rebound to the chosen twin below)
from solver.model import kernels
from solver.model.kernels import KERNELS, KernelError, KernelName, use


def _load() -> ModuleType | None:
    """The compiled extension, or None where it was not built."""
    try:
        return importlib.import_module("solver.exact._native")
    except ImportError:
        return None


COMPILED = _load()

__all__ = [*_numpy.__all__, "COMPILED", "KERNELS", "KernelError", "KernelName", "available"]
__all__ += ["current", "use"]


def available() -> bool:
    """Whether the compiled extension was built and loads."""
    return COMPILED is not None


def current() -> KernelName:
    """The twin the exact side runs now: ``compiled`` or ``numpy``."""
    return kernels.current(globals())


kernels.bind(globals(), _numpy, COMPILED, "the solver's")
