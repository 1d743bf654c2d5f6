"""The numpy twin's exact kernels (see :mod:`solver.exact._numpy`): the dealer's residues,
their extension to more primes by Garner's digits, standing's numerators and the player's
modular pass, as ``_modular.c`` computes them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
#: Standing's classes: win, push, lose.
WIN, PUSH, LOSE = 0, 1, 2


def _tails(sizes: Sequence[int], depth: int, q: int) -> IntArray:
    """``tail[L, c] = padded_falling(sizes[c] - L, depth - L) mod q``: lifts counts of
    L-card dealer hands to the common denominator ``padded_falling(N, depth)``."""
    n = np.array(sizes, dtype=np.int64)
    tail = np.ones((depth + 1, len(n)), dtype=np.int64)
    for cards in range(depth - 1, -1, -1):
        tail[cards] = tail[cards + 1] * (np.maximum(n - cards, 1) % q) % q
    return tail


def dealer_residues(
    out: Any,
    sums: Any,
    final: Any,
    lengths: Any,
    results: Any,
    sizes: Any,
    column: Any,
    primes: Any,
    depth: int,
    /,
) -> None:
    """The dealer's residues (prime, result, shoe) from the modular folds' sums (prime,
    group, pair): each pair lifted to the common denominator and added by result, bust as
    the denominator less the rest."""
    first = np.ones(len(results), dtype=bool)
    first[1:] = results[1:] != results[:-1]
    starts = np.flatnonzero(first)
    for k, q in enumerate(primes.tolist()):  # a scalar modulus: numpy reduces by it faster
        tails = _tails(sizes.tolist(), depth, q)
        lifted = np.take(sums[k], final, axis=0).T * np.take(tails[lengths], column, axis=1) % q
        by_result = np.zeros(out.shape[1:], dtype=np.int64)
        if len(starts):
            by_result[results[starts]] += np.add.reduceat(lifted, starts, axis=0)
        by_result %= q
        # Every hand ends, so bust is the denominator less the rest.
        by_result[0] = (tails[0, column] - by_result[1:].sum(axis=0)) % q
        out[k] = by_result


def garner_digits(residues: IntArray, primes: Sequence[int]) -> list[IntArray]:
    """Mixed-radix digits ``a_i < p_i`` of the integers with these residues (first axis)."""
    digits: list[IntArray] = []
    for i, prime in enumerate(primes):
        digit = residues[i] % prime
        for j in range(i):
            inverse = pow(primes[j], -1, prime)
            digit = (digit - digits[j]) % prime * inverse % prime
        digits.append(digit)
    return digits


def extend(out: Any, residues: Any, primes: Any, more: Any, /) -> None:
    """The integers given by their residues (``residues[i]`` modulo ``primes[i]``) modulo
    each of ``more`` into ``out[k]``, by Garner's digits, without building them."""
    if not len(primes):
        raise ValueError("residues must be (primes, ...) and out (more, ...), of 1 to 64")
    listed = primes.tolist()
    digits = garner_digits(residues, listed)
    for k, prime in enumerate(more.tolist()):
        value = digits[-1] % prime
        for i in range(len(listed) - 2, -1, -1):
            value = (value * (listed[i] % prime) + digits[i]) % prime
        out[k] = value


def stand_modular(out: Any, dealer: Any, classes: Any, lift: Any, primes: Any, /) -> None:
    """Standing's numerators (prime, hand, w/p/l): the dealer's residues (prime, result,
    hand) summed by each hand's class, times ``lift`` (prime, hand), modulo each prime."""
    pk = primes[:, None]
    for k in (WIN, PUSH, LOSE):
        summed = (dealer * np.equal(classes.T, k)[None]).sum(axis=1)
        out[:, :, k] = summed % pk * (lift % pk) % pk


def _stand_floats(
    stand: IntArray, shift: IntArray, scale: FloatArray, primes: Sequence[int]
) -> FloatArray:
    """Standing's values as floats from its exact numerators: ``(x - D) / D`` for ``x`` the
    net shifted by ``D`` (given by its residues), in doubles from Garner's digits."""
    pk = np.array(primes, dtype=np.int64)[:, None]
    digits = garner_digits((stand[:, :, WIN] - stand[:, :, LOSE] + shift) % pk, primes)
    radix = np.cumprod([1.0, *map(float, primes[:-1])])
    whole = np.zeros(stand.shape[1])
    for i in range(len(primes) - 1, -1, -1):
        whole += digits[i] * radix[i]
    return whole / scale - 1.0


def player_exact(
    numerators: Any,
    hitting: Any,
    sizes: Any,
    draws: Any,
    kids: Any,
    left: Any,
    sums: Any,
    lift: Any,
    bust: Any,
    scale: Any,
    primes: Any,
    tolerance: float,
    /,
) -> None:
    """The player's exact backward pass modulo each prime, a hand size at a time: the
    numerators (prime, hand, (standing's net, hitting's net, played win, push, lose), the
    nets shifted by ``D(m)``) and whether each hand hits, decided by float values except
    within ``tolerance``, where the numerators decide exactly."""
    listed = primes.tolist()
    n = len(sizes)
    pk = primes[:, None]
    stand = sums % pk[:, :, None] * (lift % pk)[:, :, None] % pk[:, :, None]
    shift = np.take(bust, sizes, axis=1)
    stand_float = _stand_floats(stand, shift, scale[sizes], listed)
    played = np.zeros((len(listed), n + 1, 3), dtype=np.int64)
    hit = np.zeros((len(listed), n, 3), dtype=np.int64)
    value = np.zeros(n + 1)
    value[n] = -1.0
    chosen = np.zeros(n, dtype=bool)
    for size in range(int(sizes.max(initial=0)), 0, -1):
        at = np.flatnonzero(sizes == size)
        played[:, n] = 0
        played[:, n, LOSE] = bust[:, size + 1]  # a busted hand loses, over D(size + 1)
        kid, weights = kids[at], draws[at]
        hit[:, at] = np.einsum("rv,prvk->prk", weights, played[:, kid]) % pk[:, :, None]
        hit_float = (weights * value[kid]).sum(axis=1) / left[at]
        choose = hit_float > stand_float[at]
        for j in np.flatnonzero(np.abs(hit_float - stand_float[at]) < tolerance).tolist():
            choose[j] = _beats(hit[:, at[j]], stand[:, at[j]], listed)
        chosen[at] = choose
        played[:, at] = np.where(choose[None, :, None], hit[:, at], stand[:, at])
        value[at] = np.where(choose, hit_float, stand_float[at])
    nets = [(v[:, :, WIN] - v[:, :, LOSE] + shift) % pk for v in (stand, hit)]
    numerators[...] = np.stack([*nets, *np.moveaxis(played[:, :n], 2, 0)], axis=2)
    hitting[...] = chosen


def _beats(hit: IntArray, stand: IntArray, primes: Sequence[int]) -> bool:
    """Whether hitting's numerators (prime, w/p/l) beat standing's, compared exactly."""
    margins = np.stack([hit[:, WIN] + stand[:, LOSE], hit[:, LOSE] + stand[:, WIN]], axis=1)
    digits = garner_digits(margins % np.array(primes, dtype=np.int64)[:, None], primes)
    return [int(d[0]) for d in reversed(digits)] > [int(d[1]) for d in reversed(digits)]
