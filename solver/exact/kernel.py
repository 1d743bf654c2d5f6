"""Which kernel runs the exact side's hot loops: the compiled extension or numpy.

The compiled kernels (``solver/exact/_native.c``) are built at install when a C compiler
works; numpy stays as their twin and the fallback.  The choice is made once, at import,
from the switch the simulator reads too (:mod:`solver.model.kernels`):

* ``CBJ_KERNEL=numpy`` runs numpy even where the extension is built;
* ``CBJ_KERNEL=compiled`` (or unset, the default) runs the extension where it is built,
  numpy where not;
* ``CBJ_REQUIRE_COMPILED=1`` makes a missing extension an error instead of a fallback.

:func:`use` changes the choice for the rest of the process and for the worker processes it
starts later (through ``CBJ_KERNEL``); the tests run both paths this way.
This module is the one dispatch point: the solver asks :func:`native` for the extension
and runs its numpy loop when it gets None.  Importing it loads no numpy.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from solver.model.kernels import KERNELS, KernelError, KernelName, checked, not_built, required

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    FloatArray = npt.NDArray[np.float64]
    BoolArray = npt.NDArray[np.bool_]

#: An int64 or a float64 array (``dealer.NumberArray``; this module imports nothing of the
#: solver's, so that the solver's modules can import it).
NumberArray = TypeVar("NumberArray", "IntArray", "FloatArray")

__all__ = [
    "KERNELS",
    "KernelError",
    "KernelName",
    "NumberArray",
    "available",
    "current",
    "dealer_float",
    "dealer_residues",
    "distinct_sizes",
    "extend",
    "fold",
    "hand_space",
    "native",
    "player_exact",
    "rows",
    "shoe_groups",
    "shoe_summary",
    "solve_hands",
    "stand_modular",
    "use",
]


def _load() -> ModuleType | None:
    """The compiled extension, or None where it was not built."""
    try:
        return importlib.import_module("solver.exact._native")
    except ImportError:
        return None


_BUILT = _load()
_active: ModuleType | None = None


def available() -> bool:
    """Whether the compiled extension was built and loads."""
    return _BUILT is not None


def use(name: str) -> KernelName:
    """Run ``name`` (``compiled`` or ``numpy``) from now on; return the kernel now in use.

    ``compiled`` where the extension is not built falls back to numpy, unless
    ``CBJ_REQUIRE_COMPILED`` is set, when it raises :class:`KernelError`.  Worker processes
    started later choose the same (``CBJ_KERNEL`` is set to ``name``).
    """
    chosen = _choose(name)
    os.environ["CBJ_KERNEL"] = name
    return chosen


def _choose(name: str) -> KernelName:
    """:func:`use` for this process only."""
    global _active
    name = checked(name)
    if _BUILT is None and required():
        raise not_built("the solver's")
    _active = _BUILT if name == "compiled" else None
    return current()


def current() -> KernelName:
    """The kernel in use: ``compiled`` or ``numpy``."""
    return "compiled" if _active is not None else "numpy"


def native() -> ModuleType | None:
    """The compiled extension when it is the kernel in use, else None (run numpy)."""
    return _active


def fold(
    module: ModuleType,
    ends: Any,
    groups: Any,
    table: NumberArray,
    prime: int | None,
    out: NumberArray | None = None,
) -> NumberArray:
    """The dealer's fold (``dealer._fold``), every card value's step in ``module``.

    ``ends`` and ``groups`` are the dealer's ``DealerEnds`` and ``ShoeGroups``; the sums go
    into ``out`` (groups, results) when it is given, a new array otherwise.
    """
    import numpy as np

    ways = (ends.ways if prime is None else ends.ways % prime).astype(table.dtype)
    if out is None:
        rows = groups.bounds[-1][-1] if groups.bounds else 1
        out = np.empty((rows, len(ends.final)), dtype=table.dtype)
    module.fold(
        out, ways, _steps(ends, groups), np.ascontiguousarray(table), ends.final, prime or 0
    )
    return out


def _steps(ends: Any, groups: Any) -> tuple[tuple[Any, ...], ...]:
    """The fold's steps as the extension takes them (see ``_native.c``, take_step)."""
    import numpy as np

    return tuple(
        (
            step.order,
            step.drawn,
            np.array(step.starts, dtype=np.int64),
            np.array(step.widths, dtype=np.int64),
            parent,
            held,
            np.array(bounds, dtype=np.int64),
            step.size,
        )
        for step, parent, held, bounds in zip(
            ends.folds, groups.parents, groups.held, groups.bounds, strict=True
        )
    )


def dealer_float(
    module: ModuleType,
    fold: tuple[Any, Any, FloatArray],
    shape: tuple[int, int],
    tail: tuple[IntArray, FloatArray, IntArray],
    pairs: IntArray,
) -> FloatArray:
    """``dealer.dealer_probabilities`` in ``module``: the fold, each last row priced for its
    shoes as it is made.  Returns (shoes, outcomes).

    ``fold`` is the ``DealerEnds``, the ``ShoeGroups`` and the ``fall(n, d)`` table of
    :func:`fold`; ``tail`` holds each shoe's group, the falling factorials by length and
    distinct shoe size, and each shoe's size column; ``pairs`` the codes ``32 * result +
    length`` of every pair the dealer can end on (those no shoe reaches add zeros, as on
    numpy).
    """
    import numpy as np

    ends, groups, table = fold
    final, falling, column = tail
    codes = ends.results * 32 + ends.lengths
    wide = np.searchsorted(pairs, codes) if len(pairs) > len(codes) else np.arange(len(codes))
    results = pairs // 32
    first = np.ones(len(results), dtype=bool)
    first[1:] = results[1:] != results[:-1]
    out = np.empty(shape)
    module.dealer_float(
        ends.ways.astype(np.float64),
        _steps(ends, groups),
        np.ascontiguousarray(table, dtype=np.float64),
        ends.final,
        out,
        np.ascontiguousarray(final, dtype=np.int64),
        np.ascontiguousarray(ends.lengths, dtype=np.int64),
        np.ascontiguousarray(wide, dtype=np.int64),
        np.ascontiguousarray(falling, dtype=np.float64),
        np.ascontiguousarray(column, dtype=np.int64),
        np.flatnonzero(first).astype(np.int64),
        np.ascontiguousarray(results[first], dtype=np.int64),
        len(pairs),
    )
    return out


def distinct_sizes(module: ModuleType, sizes: IntArray) -> tuple[IntArray, IntArray]:
    """``dealer._distinct_sizes`` in ``module``: the distinct sizes, each size's place."""
    import numpy as np

    distinct, column = np.empty(len(sizes), dtype=np.int64), np.empty(len(sizes), dtype=np.int64)
    count = module.distinct_sizes(np.ascontiguousarray(sizes, dtype=np.int64), distinct, column)
    return distinct[:count], column


def shoe_groups(
    module: ModuleType, counts: IntArray
) -> tuple[list[IntArray], list[IntArray], list[list[int]], IntArray]:
    """``dealer._groups_of`` in ``module``: each fold's parents, held counts and bounds, and
    each shoe's last group.  ``counts`` (shoes, 10), every entry in [0, 2**15)."""
    import numpy as np

    n = len(counts)
    parents, held = np.empty((10, n), dtype=np.int64), np.empty((10, n), dtype=np.int64)
    bounds, final = np.empty((10, n + 1), dtype=np.int64), np.empty(n, dtype=np.int64)
    sizes = np.empty((10, 2), dtype=np.int64)
    module.shoe_groups(
        np.ascontiguousarray(counts, dtype=np.int64), parents, held, bounds, final, sizes
    )
    found = sizes.tolist()
    return (
        [parents[f, :groups].copy() for f, (groups, _) in enumerate(found)],
        [held[f, :distinct].copy() for f, (_, distinct) in enumerate(found)],
        [bounds[f, : distinct + 1].tolist() for f, (_, distinct) in enumerate(found)],
        final,
    )


#: A hand space's arrays: hands, keys, children, draws, sizes (``player_hands.HandSpace``).
SpaceArrays = tuple["IntArray", "IntArray", "IntArray", "IntArray", "IntArray"]


def hand_space(
    module: ModuleType,
    universe: tuple[IntArray, IntArray, IntArray, IntArray],
    limit: IntArray,
    roots: IntArray,
) -> SpaceArrays:
    """``player_hands.hand_space`` after its checks, in ``module``.

    ``universe`` is every hand, its children, keys and sizes (``player_hands.all_hands``
    and its tables); ``limit`` the shoe, ``roots`` the root hands (rows of ten counts).
    """
    import numpy as np

    def ints(array: IntArray) -> IntArray:
        return np.ascontiguousarray(array, dtype=np.int64)

    hands, children, keys, sizes = universe
    u = len(keys)
    out = [np.empty((u, 10), dtype=np.int64), np.empty(u, dtype=np.int64)]
    out += [np.empty((u, 10), dtype=np.int64), np.empty((u, 10), dtype=np.int64)]
    out += [np.empty(u, dtype=np.int64), np.empty(u + 1, dtype=np.int64)]
    n = module.hand_space(
        ints(hands), ints(children), ints(keys), ints(sizes), ints(limit), ints(roots), *out
    )
    found = tuple(array[:n] for array in out[:5])
    return found  # type: ignore[return-value]


def shoe_summary(module: ModuleType, counts: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """Each shoe's size and the fewest and the most of each value (at least one shoe)."""
    import numpy as np

    sizes = np.empty(len(counts), dtype=np.int64)
    least, most = np.empty(10, dtype=np.int64), np.empty(10, dtype=np.int64)
    module.shoe_summary(np.ascontiguousarray(counts, dtype=np.int64), sizes, least, most)
    return sizes, least, most


#: What :func:`solve_hands` gives: standing's (win, push, lose) and value, hitting's value,
#: whether each hand hits, and the (win, push, lose) of optimal play (the busted hand last).
HandValues = tuple["FloatArray", "FloatArray", "FloatArray", "BoolArray", "FloatArray"]


def solve_hands(
    module: ModuleType,
    space: Any,
    dealer: FloatArray,
    tables: tuple[IntArray, IntArray, IntArray, IntArray],
) -> HandValues:
    """``player.solve_float`` after the dealer's distributions, in ``module``, in one call.

    ``space`` is the ``HandSpace``, ``dealer`` its hands' distributions of the dealer's
    result and ``tables`` ``player_hands.showdown_tables``; arrays are in the space's order.
    """
    import numpy as np

    def ints(array: IntArray) -> IntArray:
        return np.ascontiguousarray(array, dtype=np.int64)

    n = len(space.sizes)
    stand_vec, stand, hit = np.empty((n, 3)), np.empty(n), np.empty(n)
    hitting = np.empty(n, dtype=np.int64)
    played, value = np.empty((n + 1, 3)), np.empty(n + 1)
    module.solve_hands(
        np.ascontiguousarray(dealer, dtype=np.float64),
        ints(space.hands),
        ints(space.children),
        ints(space.draws),
        ints(space.sizes),
        *(ints(table) for table in tables),
        sum(space.shoe),
        stand_vec,
        stand,
        hit,
        hitting,
        played,
        value,
    )
    return stand_vec, stand, hit, hitting.astype(bool), played


def rows(module: ModuleType, array: FloatArray, order: IntArray) -> tuple[tuple[Any, ...], ...]:
    """``tuple(map(tuple, array[order].tolist()))`` in ``module``: tuples of floats."""
    import numpy as np

    found: tuple[tuple[Any, ...], ...] = module.rows(
        np.ascontiguousarray(array, dtype=np.float64), np.ascontiguousarray(order, dtype=np.int64)
    )
    return found


def dealer_residues(
    module: ModuleType,
    shape: tuple[int, int, int],
    sums: IntArray,
    final: IntArray,
    ends: Any,
    sizes: tuple[IntArray, IntArray],
    primes: IntArray,
) -> IntArray:
    """``dealer.dealer_residues`` after the modular folds, in ``module``: (prime, result, shoe).

    ``sums`` are the folds' sums (prime, shoe group, pair of ``ends``, the ``DealerEnds``
    folded), ``final`` each shoe's group, ``sizes`` the distinct shoe sizes and each
    shoe's column among them.
    """
    import numpy as np

    distinct, column = sizes
    out = np.empty(shape, dtype=np.int64)
    module.dealer_residues(
        out,
        np.ascontiguousarray(sums, dtype=np.int64),
        np.ascontiguousarray(final, dtype=np.int64),
        np.ascontiguousarray(ends.lengths, dtype=np.int64),
        np.ascontiguousarray(ends.results, dtype=np.int64),
        np.ascontiguousarray(distinct, dtype=np.int64),
        np.ascontiguousarray(column, dtype=np.int64),
        np.ascontiguousarray(primes, dtype=np.int64),
        ends.depth,
    )
    return out


def extend(module: ModuleType, residues: IntArray, primes: IntArray, more: IntArray) -> IntArray:
    """``modular.extend`` in ``module``: the residues' integers modulo the primes ``more``."""
    import numpy as np

    out = np.empty((len(more), *residues.shape[1:]), dtype=np.int64)
    module.extend(
        out,
        np.ascontiguousarray(residues, dtype=np.int64),
        np.ascontiguousarray(primes, dtype=np.int64),
        np.ascontiguousarray(more, dtype=np.int64),
    )
    return out


def stand_modular(
    module: ModuleType, dealer: IntArray, classes: IntArray, lift: IntArray, primes: IntArray
) -> IntArray:
    """Standing's numerators (``player.solve_exact_modular``) in ``module``: (prime, hand, 3).

    ``dealer`` holds the dealer's residues (prime, result, hand), ``lift`` each hand's
    residues of the factor that lifts them to its denominator (prime, hand).
    """
    import numpy as np

    out = np.empty((len(primes), len(classes), 3), dtype=np.int64)
    module.stand_modular(
        out,
        np.ascontiguousarray(dealer, dtype=np.int64),
        np.ascontiguousarray(classes, dtype=np.int64),
        np.ascontiguousarray(lift, dtype=np.int64),
        np.ascontiguousarray(primes, dtype=np.int64),
    )
    return out


def player_exact(
    module: ModuleType,
    space: Any,
    standing: tuple[IntArray, IntArray, FloatArray],
    bust: IntArray,
    primes: IntArray,
    tolerance: float,
) -> tuple[IntArray, BoolArray]:
    """``player.solve_exact_modular``'s whole backward pass in ``module``.

    ``space`` is the ``HandSpace``; ``standing`` holds the dealer's residues summed by
    showdown class (prime, hand, w/p/l), each hand's lift to its denominator (prime,
    hand) and each ``D(m)`` as a float; ``bust`` each ``D(m)`` modulo each prime
    (prime, m).  Returns the numerators (prime, hand, (standing's net, hitting's net,
    played win, push, lose)) and whether each hand hits; float values within
    ``tolerance`` are decided exactly.
    """
    import numpy as np

    def ints(array: IntArray) -> IntArray:
        return np.ascontiguousarray(array, dtype=np.int64)

    sums, lift, scale = standing
    n = len(space.sizes)
    numerators = np.empty((len(primes), n, 5), dtype=np.int64)
    hitting = np.empty(n, dtype=np.int64)
    module.player_exact(
        numerators,
        hitting,
        ints(space.sizes),
        ints(space.draws),
        ints(space.children),
        ints(sum(space.shoe) - space.sizes),
        ints(sums),
        ints(lift),
        ints(bust),
        np.ascontiguousarray(scale, dtype=np.float64),
        ints(primes),
        tolerance,
    )
    return numerators, hitting.astype(bool)


_choose(os.environ.get("CBJ_KERNEL") or "compiled")
