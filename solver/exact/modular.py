"""Exact integers kept as residues modulo primes below 2**29, and rebuilt from them.

The dealer's and the player's exact counts are carried modulo several primes so that numpy
can vectorise them, then rebuilt by the Chinese remainder theorem (Garner's mixed radix);
enough primes make the reconstruction exact (see ``docs/dealer.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from solver.exact import kernel
from solver.exact._numpy_modular import garner_digits

IntArray = npt.NDArray[np.int64]


def _is_probable_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n below 3.2e9 (bases 2, 3, 5, 7)."""
    if n < 2 or n % 2 == 0:
        return n == 2
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@cache
def moduli(count: int) -> tuple[int, ...]:
    """The ``count`` largest primes below 2**29.

    Products of two residues stay below 2**58, so up to 32 of them add up within int64
    before they must be reduced.
    """
    primes: list[int] = []
    candidate = 2**29 - 1
    while len(primes) < count:
        if _is_probable_prime(candidate):
            primes.append(candidate)
        candidate -= 2
    return tuple(primes)


def padded_falling(n: int, k: int) -> int:
    """``n * (n - 1) * ... `` over ``k`` factors, each factor below 1 taken as 1.

    For ``k <= n`` this is the falling factorial: the number of ordered ways to deal ``k``
    cards from ``n``.  Padding keeps it positive for shoes smaller than a tree's depth,
    whose deeper levels carry no probability.
    """
    result = 1
    for i in range(k):
        result *= max(n - i, 1)
    return result


def primes_above(bound: int) -> list[int]:
    """The fewest of :func:`moduli` whose product exceeds ``2 * bound``."""
    primes: list[int] = []
    product = 1
    for prime in moduli(64):
        if product > 2 * bound:
            break
        primes.append(prime)
        product *= prime
    return primes


def rebuild(residues: IntArray, primes: Sequence[int]) -> npt.NDArray[np.object_]:
    """Integers (as Python ints) from their residues, one prime each along the first axis.

    Garner's mixed radix: the result is the one integer in ``[0, prod(primes))``.

    ``x = a_0 + p_0 (a_1 + p_1 (a_2 + ...))`` with digits ``a_i < p_i``; the digits are
    found in int64 arithmetic and only the final Horner sum uses Python integers.
    """
    digits = garner_digits(residues, primes)
    # Pairs of digits still fit in int64: halve the steps done in Python integers.
    radices: list[int] = []
    pairs: list[IntArray] = []
    for i in range(0, len(primes), 2):
        if i + 1 < len(primes):
            pairs.append(digits[i] + primes[i] * digits[i + 1])
            radices.append(primes[i] * primes[i + 1])
        else:
            pairs.append(digits[i])
            radices.append(primes[i])
    value = pairs[-1].astype(object)
    for i in range(len(pairs) - 2, -1, -1):
        value = value * radices[i] + pairs[i]
    return value


@cache
def _garner_inverses(primes: tuple[int, ...]) -> tuple[int, ...]:
    """``(p_0 ... p_{k-1})^-1 mod p_k`` for each ``k``: the steps of :func:`rebuild_one`."""
    inverses: list[int] = []
    product = 1
    for prime in primes:
        inverses.append(pow(product % prime, -1, prime))
        product *= prime
    return tuple(inverses)


def rebuild_one(residues: Sequence[int], primes: tuple[int, ...]) -> int:
    """:func:`rebuild` for one integer, in Python integers (cheaper for a few values).

    Adds one prime at a time: ``x`` keeps its residues so far and takes the next one.
    """
    value, product = 0, 1
    for residue, prime, inverse in zip(residues, primes, _garner_inverses(primes), strict=True):
        value += product * ((residue - value) * inverse % prime)
        product *= prime
    return value


@cache
def padded_falling_cached(n: int, k: int) -> int:
    """:func:`padded_falling`, remembered (a solve asks for few distinct shoe sizes)."""
    return padded_falling(n, k)


def extend(residues: IntArray, primes: Sequence[int], more: Sequence[int]) -> IntArray:
    """The integers of :func:`rebuild` modulo other primes, without building them.

    Each integer is ``a_0 + p_0 (a_1 + p_1 (a_2 + ...))`` in Garner's digits, which are
    then summed modulo each new prime.
    """
    out = np.empty((len(more), *residues.shape[1:]), dtype=np.int64)
    if not len(more):
        return out
    kernel.extend(
        out,
        np.ascontiguousarray(residues, dtype=np.int64),
        np.array(primes, dtype=np.int64),
        np.array(more, dtype=np.int64),
    )
    return out
