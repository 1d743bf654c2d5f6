"""The kernel switch both sides read: ``CBJ_KERNEL`` and ``CBJ_REQUIRE_COMPILED``.

The exact solver (``solver/exact/kernel.py``) and the simulator (``solver/sim/kernel.py``)
each have their own compiled extension and their own numpy twin, and neither imports the
other; this module is the one reading of the environment they share:

* ``CBJ_KERNEL=numpy`` runs numpy even where an extension is built;
* ``CBJ_KERNEL=compiled`` (or unset, the default) runs an extension where it is built;
* ``CBJ_REQUIRE_COMPILED=1`` makes a missing extension an error instead of a fallback.
"""

from __future__ import annotations

import os
from typing import Literal

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


def requested() -> KernelName:
    """The kernel ``CBJ_KERNEL`` asks for now (``compiled`` when unset)."""
    return checked(os.environ.get("CBJ_KERNEL") or "compiled")


def required() -> bool:
    """Whether ``CBJ_REQUIRE_COMPILED`` makes a missing extension an error."""
    return bool(os.environ.get("CBJ_REQUIRE_COMPILED"))


def not_built(what: str) -> KernelError:
    """The error for a required extension that is not built (``what``: whose kernel)."""
    return KernelError(
        f"CBJ_REQUIRE_COMPILED is set but {what} compiled kernel is not built: "
        "install with a working C compiler (pip install .)"
    )
