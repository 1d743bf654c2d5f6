"""The risk of ruin: a walk with an absorbing barrier, exact or in floats by blocks of rounds.

Ruin is the running total reaching ``-B`` or below after some round (:func:`ruin_within`).
The float walk moves blocks of ``K`` rounds at once: mass more than ``K`` largest losses
above the barrier cannot reach it within the block and is convolved with the K-round
table by FFT; the rest goes through a precomputed K-round killed transition matrix; a
super-block sets aside the mass that a whole super-block cannot ruin.  Over an unlimited
session (:func:`ruin_unlimited`) ruin is certain unless the round's EV is positive; then
the walk is iterated until Lundberg's bound on the ruin still to come is below a tolerance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from solver.exact.lattice import TRIM, UNIT_ROUNDOFF, Floats, Number, fft_convolve, floats
from solver.results.session import Method, RoundTable, Unlimited

#: Tolerance on the unlimited session's ruin probability (on top of rounding).
UNLIMITED_TOLERANCE = 1e-10
#: Rounds iterated at most for the unlimited session before falling back to bounds.
UNLIMITED_MAX_ROUNDS = 2_000_000


def barrier(bankroll: Fraction, step: Fraction) -> int:
    """The lattice distance ``b`` of the ruin barrier: the running total ``step * s`` is at
    ``-bankroll`` or below exactly when ``s <= -b``.

    >>> barrier(Fraction(5, 4), Fraction(1, 2))
    3
    """
    return math.ceil(bankroll / step)


def _exact_ruin(table: RoundTable, b: int, rounds: int) -> Fraction:
    """Probability of ruin within ``rounds`` rounds from ``b`` lattice units above the
    barrier, by the exact integer walk (positions ``x >= 1`` alive, ``x <= 0`` ruined)."""
    denominator = int(table.denominator)
    taps = [(table.lowest + i, int(w)) for i, w in enumerate(table.weights) if w]
    alive: dict[int, int] = {b: 1}
    ruined = 0
    for _ in range(rounds):
        moved: dict[int, int] = {}
        lost = 0
        for x, v in alive.items():
            for d, w in taps:
                if x + d <= 0:
                    lost += v * w
                else:
                    moved[x + d] = moved.get(x + d, 0) + v * w
        ruined = ruined * denominator + lost
        alive = moved
    return Fraction(ruined, denominator**rounds)


@dataclass(frozen=True, slots=True)
class _Block:
    """What ``k`` rounds do: the k-round table and the killed walk of the near zone.

    ``kernel`` is the k-fold round table (index 0 at lattice ``k * lowest``); ``near`` has
    a row per start ``x = 1 .. k * loss`` and a column per end ``x = 1 ..``; ``killed[i]``
    is the probability of ruin within ``k`` rounds from ``x = i + 1``; ``error`` bounds
    the 1-norm error of each row of ``kernel``, ``near`` + ``killed`` per unit of mass.
    """

    rounds: int
    kernel: Floats
    near: Floats
    killed: Floats
    error: float
    spectra: dict[int, npt.NDArray[np.complex128]] = field(
        default_factory=dict, compare=False, repr=False
    )


def _block(table: RoundTable, k: int) -> _Block:
    """The block of ``k`` rounds, by direct sums of nonnegative terms (tiny relative error)."""
    p = floats(table)
    loss, gain = -table.lowest, table.highest
    kernel = np.ones(1)
    for _ in range(k):
        kernel = np.convolve(kernel, p)
    rows, up = loss * k, max(gain, 0)
    columns = rows + up * k
    near = np.zeros((rows, columns))
    near[np.arange(rows), np.arange(rows)] = 1.0
    moved = np.empty_like(near)
    scratch = np.empty_like(near)
    taps = [(table.lowest + i, float(w)) for i, w in enumerate(p) if w]
    for t in range(k):
        # Only the first `width` columns can hold mass after t rounds, `wider` after t + 1.
        width, wider = rows + up * t, rows + up * (t + 1)
        moved[:, :wider] = 0.0
        for d, w in taps:
            source = near[:, max(0, -d) : min(width, wider - d)]
            start = max(0, d)
            out = scratch[:, : source.shape[1]]
            np.multiply(source, w, out=out)
            moved[:, start : start + source.shape[1]] += out
        near, moved = moved, near
    near[:, rows + up * k :] = 0.0
    killed = np.maximum(1.0 - near.sum(axis=1), 0.0)
    # Each step sums at most len(taps) + 1 nonnegative products (relative error each), and
    # the killed mass is 1 minus a row sum of `columns` terms.
    error = 2 * k * (len(taps) + 1) * UNIT_ROUNDOFF * 1.01 + 2 * (columns + 2) * UNIT_ROUNDOFF
    return _Block(k, kernel, near, killed, error)


def _block_size(table: RoundTable, rounds: int) -> int:
    """Rounds per block: the near zone's matrix work (taps x loss x span x K**3) kept small."""
    loss, span = -table.lowest, table.highest - table.lowest
    taps = sum(1 for w in table.weights if w)
    k = int((4e7 / max(1, taps * loss * max(span, 1))) ** (1 / 3))
    return max(1, min(rounds, k, 256))


@dataclass(frozen=True, slots=True)
class _Walk:
    """The state of the killed walk after some rounds: alive mass by position, ruin so far."""

    alive: Floats  # entry i is position x = i + 1
    ruined: float
    safe: float  # mass moved out of the walk: it cannot be ruined (or is bounded)
    error: float


def _advance(walk: _Walk, block: _Block, table: RoundTable) -> _Walk:
    """``walk`` moved on by one block of rounds."""
    loss = -table.lowest
    reach = loss * block.rounds
    near, far = walk.alive[:reach], walk.alive[reach:]
    ruined = walk.ruined + float(near @ block.killed[: len(near)])
    mass = float(walk.alive.sum())
    error = walk.error + block.error * mass
    parts: list[Floats] = []
    if len(near):
        parts.append(near @ block.near[: len(near)])
    starts: list[int] = [0] if len(near) else []
    occupied = np.flatnonzero(far)
    if len(occupied):
        first = int(occupied[0])  # the zeros below the far mass need no transform
        moved, rounding = fft_convolve(far[first:], block.kernel, block.spectra)
        parts.append(moved)  # index i + j is position x = 1 + i + j (see _Block)
        starts.append(first)
        error += rounding
    size = max((s + len(q) for s, q in zip(starts, parts, strict=True)), default=1)
    alive = np.zeros(size)
    for s, q in zip(starts, parts, strict=True):
        alive[s : s + len(q)] += q
    return _Walk(alive, ruined, walk.safe, error)


def _drop_top(walk: _Walk, level: int) -> tuple[_Walk, float]:
    """Mass above position ``level`` moved to ``safe``, and the amount moved."""
    if len(walk.alive) <= level:
        return walk, 0.0
    top = walk.alive[max(level, 0) :]
    moved = float(top.sum())
    kept = walk.alive[: max(level, 0)].copy() if level > 0 else np.zeros(1)
    return _Walk(kept, walk.ruined, walk.safe + moved, walk.error), moved


def _trim_top(walk: _Walk) -> _Walk:
    """The alive vector without its tail below :data:`TRIM` (its mass added to the error)."""
    kept = np.flatnonzero(walk.alive >= TRIM)
    last = int(kept[-1]) if len(kept) else 0
    dropped = float(walk.alive[last + 1 :].sum())
    return _Walk(walk.alive[: last + 1].copy(), walk.ruined, walk.safe, walk.error + dropped)


#: Blocks per super-block: mass that no super-block can ruin waits and is moved at once.
SUPER_BLOCKS = 16


def _deferred(
    walk: _Walk, level: int, kernel: Floats, kernel_error: float
) -> tuple[_Walk, Floats | None, int]:
    """``walk`` split at position ``level``: the walk below, and the mass above (none if
    empty) with the index of its first entry; the mass above cannot be ruined while it
    waits, so it is later moved by ``kernel`` in one convolution."""
    high = walk.alive[level:]
    occupied = np.flatnonzero(high)
    if len(occupied) == 0:
        return walk, None, 0
    first = int(occupied[0])
    low = walk.alive[:level].copy() if level > 0 else np.zeros(1)
    return _Walk(low, walk.ruined, walk.safe, walk.error), high[first:].copy(), first


def _rejoin(walk: _Walk, high: Floats, first: int, kernel: Floats, kernel_error: float) -> _Walk:
    """The waiting mass ``high`` moved by ``kernel`` and added back to ``walk``.

    Entry ``i`` of ``high`` is position ``level + 1 + first + i``, entry ``j`` of the kernel
    a move of ``j - level``: the sum lands at index ``first + i + j``.
    """
    moved, rounding = fft_convolve(high, kernel)
    size = max(len(walk.alive), first + len(moved))
    alive = np.zeros(size)
    alive[: len(walk.alive)] += walk.alive
    alive[first : first + len(moved)] += moved
    error = walk.error + rounding + kernel_error * float(high.sum())
    return _Walk(alive, walk.ruined, walk.safe, error)


def _float_ruin(table: RoundTable, b: int, rounds: int) -> tuple[float, float]:
    """Probability of ruin within ``rounds`` rounds (floats) and a bound on its error.

    Rounds go by blocks of ``k`` (:func:`_advance`).  A super-block of
    :data:`SUPER_BLOCKS` blocks first sets aside the mass so far above the barrier that
    the whole super-block cannot ruin it, walks the rest block by block (short vectors),
    and then moves the set-aside mass by the super-block's table in one convolution.
    """
    loss = -table.lowest
    k = _block_size(table, rounds)
    blocks = {k: _block(table, k)}
    long = k * SUPER_BLOCKS
    kernel, kernel_error = np.ones(1), 0.0
    if rounds >= long:
        for _ in range(SUPER_BLOCKS):  # direct sums of nonnegative terms
            kernel = np.convolve(kernel, blocks[k].kernel)
            kernel_error += (len(blocks[k].kernel) + 1) * UNIT_ROUNDOFF * 1.01
    alive = np.zeros(b)
    alive[b - 1] = 1.0
    walk = _Walk(alive, 0.0, 0.0, 0.0)
    done = 0
    while done < rounds:
        if rounds - done >= long:
            walk, high, first = _deferred(walk, loss * long, kernel, kernel_error)
            for _ in range(SUPER_BLOCKS):
                walk = _trim_top(_advance(walk, blocks[k], table))
            if high is not None:
                walk = _trim_top(_rejoin(walk, high, first, kernel, kernel_error))
            done += long
        else:
            size = min(k, rounds - done)
            if size not in blocks:
                blocks[size] = _block(table, size)
            walk = _trim_top(_advance(walk, blocks[size], table))
            done += size
        # Positions above loss * (rounds left) cannot be ruined any more: exactly safe.
        walk, _ = _drop_top(walk, loss * (rounds - done))
        if float(walk.alive.sum()) <= 1e-300:
            break
    return walk.ruined, walk.error


def ruin_within(
    table: RoundTable, bankroll: Fraction, rounds: int, method: Method
) -> tuple[Number, float]:
    """Probability that the running total reaches ``-bankroll`` or below within ``rounds``
    rounds, and a bound on its error (0 when exact).

    >>> from solver.exact.lattice import round_table
    >>> coin = round_table([(Fraction(-1), Fraction(1, 2)), (Fraction(1), Fraction(1, 2))])
    >>> ruin_within(coin, Fraction(1), 3, "exact")
    (Fraction(5, 8), 0.0)
    """
    b = barrier(bankroll, table.step)
    if table.lowest >= 0 or b > -table.lowest * rounds:
        return (Fraction(0) if method == "exact" else 0.0), 0.0  # no loss can get there
    if method == "exact":
        return _exact_ruin(table, b, rounds), 0.0
    return _float_ruin(table, b, rounds)


def adjustment_coefficient(table: RoundTable) -> tuple[float, float] | None:
    """Bounds ``(r_lo, r_hi)`` on Lundberg's adjustment coefficient ``r > 0`` (per lattice
    unit) with ``E[exp(-r X)] = 1``: ``f(r_lo) <= 0 <= f(r_hi)``; None unless the round has a
    positive mean and a possible loss."""
    if table.lowest >= 0 or float(table.mean) <= 0:
        return None
    p = floats(table)
    d = np.arange(table.lowest, table.highest + 1, dtype=np.float64)

    def f(r: float) -> float:
        return float(np.dot(p, np.exp(-r * d))) - 1.0

    lo, hi = 0.0, 1.0 / max(1.0, -table.lowest)
    while f(hi) <= 0:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        middle = (lo + hi) / 2
        if middle in (lo, hi):
            break
        if f(middle) <= 0:
            lo = middle
        else:
            hi = middle
    return lo, hi


def ruin_unlimited(table: RoundTable, bankroll: Fraction) -> Unlimited:
    """Probability that the running total ever reaches ``-bankroll`` or below.

    A round with EV <= 0 (and some spread) drifts down or recurs: ruin is certain.  With
    EV > 0 the killed walk is iterated, mass far above the barrier set aside with its
    Lundberg bound, until the bound on the ruin still to come is below
    :data:`UNLIMITED_TOLERANCE`.

    >>> from solver.exact.lattice import round_table
    >>> coin = round_table([(Fraction(-1), Fraction(1, 2)), (Fraction(1), Fraction(1, 2))])
    >>> ruin_unlimited(coin, Fraction(10)).value
    Fraction(1, 1)
    """
    if table.lowest >= 0:
        return Unlimited(Fraction(0), Fraction(0), Fraction(0), "impossible: no round loses")
    mean = table.mean
    if mean <= 0:
        one = Fraction(1)
        return Unlimited(
            one,
            one,
            one,
            "certain: the round's EV is not positive, so the walk goes below "
            "any barrier with probability 1",
        )
    coefficient = adjustment_coefficient(table)
    assert coefficient is not None
    r_lo, r_hi = coefficient
    b = barrier(bankroll, table.step)
    loss = -table.lowest
    slack = 1e-12  # for the rounding of the exponentials
    low = math.exp(-r_hi * (b + loss - 1)) * (1 - slack)
    high = min(1.0, math.exp(-r_lo * b) * (1 + slack))
    # Mass above `level` has remaining ruin at most exp(-r_lo * level) per unit.
    level = b + math.ceil(math.log(1 / UNLIMITED_TOLERANCE) / r_lo) + loss
    if level > 2_000_000:
        return Unlimited(
            (low + high) / 2,
            low,
            high,
            "Lundberg bounds only (the edge is too small to iterate)",
            0,
            r_lo / float(table.step),
        )
    k = _block_size(table, UNLIMITED_MAX_ROUNDS)
    block = _block(table, k)
    alive = np.zeros(b)
    alive[b - 1] = 1.0
    walk = _Walk(alive, 0.0, 0.0, 0.0)
    set_aside = 0.0  # bound on the ruin of the mass moved above `level`
    done = 0
    while done < UNLIMITED_MAX_ROUNDS:
        walk = _trim_top(_advance(walk, block, table))
        done += k
        walk, moved = _drop_top(walk, level)
        set_aside += moved * math.exp(-r_lo * level)
        x = np.arange(1, len(walk.alive) + 1, dtype=np.float64)
        rest = float(np.dot(walk.alive, np.exp(-r_lo * x)))
        if rest + set_aside <= UNLIMITED_TOLERANCE:
            upper = walk.ruined + rest + set_aside + walk.error
            return Unlimited(
                walk.ruined,
                max(low, walk.ruined - walk.error),
                min(high, upper),
                f"killed walk iterated {done:,} rounds; the ruin still to come bounded by "
                f"Lundberg's exp(-r x) summed over the mass left, below {UNLIMITED_TOLERANCE:g}",
                done,
                r_lo / float(table.step),
            )
    return Unlimited(
        (low + high) / 2,
        low,
        high,
        "Lundberg bounds only (the walk did not converge)",
        done,
        r_lo / float(table.step),
    )
