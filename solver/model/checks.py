"""Checks of plain values: whole numbers in a range, and the simulator's rounds and seed.

``True`` is an ``int`` to Python but never a number of anything here, so every whole
number the library takes is checked by :func:`is_whole`; each check raises the caller's
kind of :class:`~solver.model.errors.CbjError`, naming the bad value and what would do.
"""

from __future__ import annotations

from typing import TypeGuard

from solver.model.errors import CbjError, SimulationError

#: The most rounds one simulation may deal.  Memory does not grow with ``rounds`` (chunk
#: seeds are derived one at a time), but time does: at a few million rounds a second per
#: core this is hours of work, and the counts stay far inside 64-bit integers.
MAX_ROUNDS = 10**11


def is_whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number: an ``int``, and not a ``bool``.

    >>> is_whole(3), is_whole(True), is_whole(3.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def whole_in(value: object, low: int, high: int | None = None) -> TypeGuard[int]:
    """Whether ``value`` is a whole number from ``low`` to ``high`` (no top when None).

    >>> whole_in(0, 1), whole_in(7, 1, 7), whole_in(8, 1, 7), whole_in(10**30, 1)
    (False, True, False, True)
    """
    return is_whole(value) and low <= value and (high is None or value <= high)


def check_rounds(
    rounds: object, what: str = "rounds", error: type[CbjError] = SimulationError
) -> int:
    """A number of rounds to deal: 1 to :data:`MAX_ROUNDS`.

    >>> check_rounds(1_000)
    1000
    >>> check_rounds(0, "table rounds")
    Traceback (most recent call last):
    ...
    solver.model.errors.SimulationError: table rounds 0 is invalid: give 1 to 100,000,000,000
    """
    if not whole_in(rounds, 1, MAX_ROUNDS):
        raise error(f"{what} {rounds!r} is invalid: give 1 to {MAX_ROUNDS:,}")
    return rounds


def check_seed(seed: object, error: type[CbjError] = SimulationError) -> int | None:
    """A seed for the simulator: None (a fresh one) or a whole number of 0 or more.

    >>> check_seed(None), check_seed(7)
    (None, 7)
    """
    if seed is not None and not whole_in(seed, 0):
        raise error(f"seed {seed!r} must be a whole number of 0 or more")
    return seed
