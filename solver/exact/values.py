"""A solution's values held compactly, made Python numbers only when read.

An exact solve holds its values as integer residues or numerators (:class:`Numerators`,
:class:`ExactValues`, :class:`ExactOutcomes`), a float solve as float64 arrays
(:class:`FloatValues`, :class:`FloatOutcomes`) and its decisions as a bool array
(:class:`Flags`): a solution holds thousands of values, and most callers read a few of
them (a game its one-card hands, a study of shoes none).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any, ClassVar, overload

import numpy as np
import numpy.typing as npt

from solver.exact import kernel
from solver.exact.modular import rebuild, rebuild_one

#: Rows a :class:`Numerators` rebuilds one by one before it rebuilds them all at once.
ROW_READS = 32


class Numerators:
    """Integer columns kept as residues and rebuilt when read.

    ``residues[k, i, c]`` is column ``c`` of row ``i`` modulo ``primes[k]``;
    ``offsets[c]`` (one integer per row, or ``None``) is subtracted once rebuilt.  A game
    reads a few rows of each solution (its one-card hands): those are rebuilt alone, and
    only a caller that reads more than :data:`ROW_READS` rows pays to rebuild every row
    (vectorised).
    """

    def __init__(
        self,
        residues: npt.NDArray[np.int64],
        primes: Sequence[int],
        offsets: Sequence[Sequence[int] | None],
    ) -> None:
        self._residues = residues
        self._primes = tuple(primes)
        self._offsets = tuple(offsets)
        self._rows: dict[int, tuple[int, ...]] = {}
        self._columns: list[list[int]] | None = None

    def __len__(self) -> int:
        return int(self._residues.shape[1])

    def _rebuild_all(self) -> list[list[int]]:
        """Every column, rebuilt at once (kept for later reads)."""
        if self._columns is None:
            whole: list[list[int]] = rebuild(self._residues, self._primes).T.tolist()
            for c, offset in enumerate(self._offsets):
                if offset is not None:
                    whole[c] = [v - d for v, d in zip(whole[c], offset, strict=True)]
            self._columns = whole
        return self._columns

    def whole_column(self, column: int) -> list[int]:
        """All of ``column``, as a new list."""
        return list(self._rebuild_all()[column])

    def value(self, column: int, row: int) -> int:
        """The integer in ``column`` of ``row``."""
        if self._columns is None and row not in self._rows and len(self._rows) >= ROW_READS:
            self._rebuild_all()
        if self._columns is not None:
            return self._columns[column][row]
        found = self._rows.get(row)
        if found is None:
            residues = self._residues[:, row, :].T.tolist()
            found = self._rows[row] = tuple(
                rebuild_one(r, self._primes) - (0 if offset is None else offset[row])
                for r, offset in zip(residues, self._offsets, strict=True)
            )
        return found[column]

    def column(self, column: int) -> NumeratorColumn:
        """One column as a sequence."""
        return NumeratorColumn(self, column)


class NumeratorColumn(Sequence[int]):
    """One column of :class:`Numerators`, rebuilt as read."""

    __slots__ = ("_column", "_source")

    def __init__(self, source: Numerators, column: int) -> None:
        self._source = source
        self._column = column

    def __len__(self) -> int:
        return len(self._source)

    def tolist(self) -> list[int]:
        """The whole column, rebuilt at once."""
        return self._source.whole_column(self._column)

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> list[int]: ...
    def __getitem__(self, index: int | slice) -> int | list[int]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return self._source.value(self._column, index % len(self))

    def __getstate__(self) -> tuple[Numerators, int]:
        return self._source, self._column

    def __setstate__(self, state: tuple[Numerators, int]) -> None:
        self._source, self._column = state


class _Exact:
    """Shared parts of :class:`ExactValues` and :class:`ExactOutcomes`."""

    __slots__ = ("_denominators", "_made", "_numerators")

    def __init__(self, numerators: Sequence[Sequence[int]], denominators: Sequence[int]) -> None:
        self._numerators = numerators
        self._denominators = denominators
        self._made: list[Any] = [None] * len(denominators)  # each value once made

    def __len__(self) -> int:
        return len(self._denominators)

    def raw(self) -> tuple[list[list[int]], list[int]]:
        """The numerator columns and each row's denominator, as held (not reduced)."""
        columns = [
            c.tolist() if isinstance(c, NumeratorColumn) else list(c) for c in self._numerators
        ]
        return columns, list(self._denominators)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str) or len(other) != len(self):
            return False
        return all(a == b for a, b in zip(self, other, strict=True))  # type: ignore[call-overload]

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> tuple[Sequence[Sequence[int]], Sequence[int]]:
        return self._numerators, self._denominators

    def __setstate__(self, state: tuple[Sequence[Sequence[int]], Sequence[int]]) -> None:
        self._numerators, self._denominators = state
        self._made = [None] * len(self._denominators)


class ExactValues(_Exact, Sequence[Fraction]):
    """Exact values ``numerators[i] / denominators[i]``, made Fractions only when read.

    An exact solution holds thousands of values and most callers read a few of them:
    normalising every one up front (a gcd of 200-bit integers each) took as long as the
    solve itself.
    """

    __slots__ = ()

    def __init__(self, numerators: Sequence[int], denominators: Sequence[int]) -> None:
        super().__init__([numerators], denominators)

    @overload
    def __getitem__(self, index: int) -> Fraction: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Fraction, ...]: ...
    def __getitem__(self, index: int | slice) -> Fraction | tuple[Fraction, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(len(self))[index])
        made: Fraction | None = self._made[index]
        if made is None:
            made = self._made[index] = Fraction(
                self._numerators[0][index], self._denominators[index]
            )
        return made

    def __iter__(self) -> Iterator[Fraction]:
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        return f"ExactValues({list(self._numerators[0])!r}, {list(self._denominators)!r})"


Outcome = tuple[Fraction, Fraction, Fraction]


class ExactOutcomes(_Exact, Sequence[Outcome]):
    """Exact (win, push, lose) probabilities over ``denominators[i]``, made when read."""

    __slots__ = ()

    @overload
    def __getitem__(self, index: int) -> Outcome: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Outcome, ...]: ...
    def __getitem__(self, index: int | slice) -> Outcome | tuple[Outcome, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(len(self))[index])
        made: Outcome | None = self._made[index]
        if made is None:
            w, p, lose = (column[index] for column in self._numerators)
            d = self._denominators[index]
            made = self._made[index] = (Fraction(w, d), Fraction(p, d), Fraction(lose, d))
        return made

    def __iter__(self) -> Iterator[Outcome]:
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        rows = [list(c) for c in self._numerators]
        return f"ExactOutcomes({rows!r}, {list(self._denominators)!r})"


class _Held:
    """Shared parts of :class:`FloatValues`, :class:`FloatOutcomes` and :class:`Flags`: an
    array (of ``_dtype``), read entry by entry, then whole after :data:`ROW_READS` reads or
    an iteration (the Python values kept in its place: a solution written to a store is
    read whole, and holding both took more memory than the tuples alone used to)."""

    __slots__ = ("_array", "_reads", "_whole")
    _dtype: ClassVar[type[np.generic]] = np.float64

    def __init__(self, array: npt.ArrayLike) -> None:
        # An array given is kept, not copied (made read-only: the solver hands over fresh
        # arrays); anything else is made one.
        self._array: npt.NDArray[Any] | None = np.asarray(array, dtype=self._dtype)
        self._array.flags.writeable = False
        self._reads = 0
        self._whole: tuple[Any, ...] | None = None

    def __len__(self) -> int:
        return len(self._array) if self._array is not None else len(self._whole or ())

    def _held(self) -> npt.NDArray[Any]:
        """The array, before the values are made whole."""
        assert self._array is not None
        return self._array

    def _made(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def _item(self, index: int) -> Any:
        raise NotImplementedError

    def _get(self, index: int | slice) -> Any:
        if self._whole is None and self._reads < ROW_READS and isinstance(index, int):
            if not -len(self) <= index < len(self):
                raise IndexError(index)
            self._reads += 1
            return self._item(index)
        if self._whole is None:
            self._whole, self._array = self._made(), None
        return self._whole[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._get(slice(None)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str) or len(other) != len(self):
            return False
        return all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> npt.NDArray[Any]:
        if self._array is not None and not copy and np.dtype(dtype or self._dtype) == self._dtype:
            return self._array  # np.asarray's: the read-only array itself
        held = self._whole if self._array is None else self._array
        return np.array(held, dtype=dtype or self._dtype)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({np.asarray(self).tolist()!r})"


class FloatValues(_Held, Sequence[float]):
    """Float values held as one array, made Python floats when read.

    A game reads a few hands of each solution, a study of shoes none: making every
    value a float object up front took a tenth of a later float solve.
    """

    __slots__ = ()

    def _made(self) -> tuple[float, ...]:
        return tuple(self._held().tolist())

    def _item(self, index: int) -> float:
        return float(self._held()[index])

    @overload
    def __getitem__(self, index: int) -> float: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[float, ...]: ...
    def __getitem__(self, index: int | slice) -> float | tuple[float, ...]:
        found: float | tuple[float, ...] = self._get(index)
        return found


FloatOutcome = tuple[float, float, float]


class FloatOutcomes(_Held, Sequence[FloatOutcome]):
    """Float (win, push, lose) rows held as one ``(hands, 3)`` array, made when read."""

    __slots__ = ()

    def _made(self) -> tuple[FloatOutcome, ...]:
        return kernel.rows(self._held(), np.arange(len(self)))

    def _item(self, index: int) -> FloatOutcome:
        w, p, lose = self._held()[index].tolist()
        return w, p, lose

    @overload
    def __getitem__(self, index: int) -> FloatOutcome: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[FloatOutcome, ...]: ...
    def __getitem__(self, index: int | slice) -> FloatOutcome | tuple[FloatOutcome, ...]:
        found: FloatOutcome | tuple[FloatOutcome, ...] = self._get(index)
        return found


class Flags(_Held, Sequence[bool]):
    """A yes or no per hand (whether it hits) held as one bool array, made Python bools
    when read: a tuple of every hand's made up front took a thirtieth of a later float
    solve, and a game reads ten of them."""

    __slots__ = ()
    _dtype = np.bool_

    def _made(self) -> tuple[bool, ...]:
        return tuple(self._held().tolist())

    def _item(self, index: int) -> bool:
        return bool(self._held()[index])

    @overload
    def __getitem__(self, index: int) -> bool: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[bool, ...]: ...
    def __getitem__(self, index: int | slice) -> bool | tuple[bool, ...]:
        found: bool | tuple[bool, ...] = self._get(index)
        return found
