"""The one choice of kernel, for the exact solver and the simulator alike.

Each side has a compiled extension and a numpy twin with exactly its functions and
signatures (``solver/exact/_native.c`` and ``solver/exact/_numpy.py``, ``solver/sim/_deal.c``
and ``solver/sim/_deal_numpy.py``), as CPython's ``_heapq`` and ``heapq``.  Each side's
``kernel`` module hands its namespace to :func:`bind`, which fills it with the chosen twin's
functions; callers call ``kernel.name(...)`` and never ask which twin they got.  The
environment is read once, at import:

* ``CBJ_KERNEL=numpy`` runs numpy even where an extension is built;
* ``CBJ_KERNEL=compiled`` (or unset, the default) runs an extension where it is built,
  its numpy twin where not;
* ``CBJ_REQUIRE_COMPILED=1`` makes a missing extension an error instead of a fallback.

:func:`use` changes the choice for the rest of the process (every side bound) and, through
``CBJ_KERNEL``, for the worker processes it starts later.  Standard library only: the
twins come in through :func:`bind`, so this module imports neither side.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal

from solver.model.errors import CbjError

KernelName = Literal["compiled", "numpy"]
KERNELS: tuple[KernelName, ...] = ("compiled", "numpy")


class KernelError(CbjError):
    """An unknown kernel was asked for, or the compiled one is required and not built."""


def checked(name: str) -> KernelName:
    """``name`` if it names a kernel, else :class:`KernelError`.

    >>> checked("numpy")
    'numpy'
    """
    if name == "compiled":
        return "compiled"
    if name == "numpy":
        return "numpy"
    raise KernelError(f"unknown kernel {name!r}: choose compiled or numpy")


_requested: KernelName = checked(os.environ.get("CBJ_KERNEL") or "compiled")
_required = bool(os.environ.get("CBJ_REQUIRE_COMPILED"))


@dataclass(frozen=True)
class _Side:
    """One side's twins and the namespace their functions are bound into."""

    namespace: MutableMapping[str, Any]
    twin: ModuleType
    compiled: ModuleType | None
    whose: str

    def chosen(self) -> ModuleType:
        """The twin the current choice runs on this side."""
        if self.compiled is None and _required:
            raise KernelError(
                f"CBJ_REQUIRE_COMPILED is set but {self.whose} compiled kernel is not built: "
                "install with a working C compiler (pip install .)"
            )
        return self.compiled if _requested == "compiled" and self.compiled else self.twin

    def rebind(self) -> None:
        """Point every kernel function of the namespace at the chosen twin."""
        chosen = self.chosen()
        self.namespace.update({name: getattr(chosen, name) for name in names(self.twin)})


_sides: dict[str, _Side] = {}


def names(twin: ModuleType) -> tuple[str, ...]:
    """The kernel functions of a twin module: its ``__all__``."""
    return tuple(twin.__all__)


def bind(
    namespace: MutableMapping[str, Any], twin: ModuleType, compiled: ModuleType | None, whose: str
) -> None:
    """Fill ``namespace`` (a side's ``kernel`` module's globals) with the chosen twin's
    functions, now and at every :func:`use`; ``whose`` names the side in errors."""
    side = _Side(namespace, twin, compiled, whose)
    _sides[whose] = side
    side.rebind()


def use(name: str) -> KernelName:
    """Run ``name`` (``compiled`` or ``numpy``) from now on, on every side; return it.

    ``compiled`` where an extension is not built runs its numpy twin there, unless
    ``CBJ_REQUIRE_COMPILED`` is set, when it raises :class:`KernelError`.  Worker processes
    started later choose the same (``CBJ_KERNEL`` is set to ``name``).
    """
    global _requested
    _requested = checked(name)
    os.environ["CBJ_KERNEL"] = _requested
    for side in _sides.values():
        side.rebind()
    return _requested


def requested() -> KernelName:
    """The kernel asked for (``CBJ_KERNEL`` at import, then :func:`use`)."""
    return _requested


def current(namespace: MutableMapping[str, Any]) -> KernelName:
    """The kernel a bound namespace runs now: ``compiled`` or ``numpy``."""
    for side in _sides.values():
        if side.namespace is namespace:
            return "compiled" if side.chosen() is side.compiled else "numpy"
    raise KernelError("that namespace was never bound to a kernel")
