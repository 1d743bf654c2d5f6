"""Session odds: the exact distribution of the net result over N rounds, and the risk of ruin.

A round's net result (main wager 1, Bonus wager at the ratio) takes a few rational values;
they all lie on a lattice of step ``h`` = the gcd of the nets, so the net after N
independent rounds is ``h`` times an integer and its distribution is the N-fold
convolution of the one-round table (:func:`round_table`).  Two methods compute it:

* ``exact``: integer weights over the common denominator ``D**N`` (``D`` the lcm of the
  round's denominators), convolved round by round; every figure is a ``Fraction``;
* ``fft``: floats, the N-fold convolution by repeated squaring, each product by FFT.  Each
  result carries ``error_bound``, a bound on the sum of the absolute errors of all the
  point probabilities (so on the error of any probability read from it); see
  :func:`fft_convolve` for the bound of one product.

The risk of ruin is a walk with an absorbing barrier at ``-B`` (:func:`ruin_within`): ruin
is the running total reaching ``-B`` or below after some round.  Its float form moves
blocks of ``K`` rounds at once: mass more than ``K`` largest losses above the barrier
cannot reach it within the block and is convolved with the K-round table by FFT; the rest
goes through a precomputed K-round killed transition matrix.  Over an unlimited session
(:func:`ruin_unlimited`) ruin is certain unless the round's EV is positive; then the walk
is iterated until Lundberg's bound on the remaining ruin is below a tolerance.

Rounds are independent and dealt from a full shoe, as the volatility figures assume.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from statistics import NormalDist
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from solver.model.errors import CbjError
from solver.model.numbers import exact_json, float_json, number_json
from solver.model.rules import Rules

Floats = npt.NDArray[np.float64]
Number = Fraction | float
Method = Literal["exact", "fft"]

#: The longest session, in rounds.
MAX_ROUNDS = 100_000
#: ``method="auto"`` uses exact fractions up to this many rounds, floats above.
EXACT_AUTO_ROUNDS = 20
#: ``method="exact"`` is refused above this many rounds (its weights grow as ``D**N``).
EXACT_MAX_ROUNDS = 100
#: The quantile levels reported.
QUANTILE_LEVELS: tuple[Fraction, ...] = tuple(Fraction(p, 100) for p in (1, 5, 25, 50, 75, 95, 99))
#: The largest likely loss is the loss that is exceeded with probability below this.
LIKELY_LEVEL = Fraction(1, 100)
#: Float entries below this at either end of a distribution are dropped (mass counted).
TRIM = 1e-18
#: Tolerance on the unlimited session's ruin probability (on top of rounding).
UNLIMITED_TOLERANCE = 1e-10
#: Rounds iterated at most for the unlimited session before falling back to bounds.
UNLIMITED_MAX_ROUNDS = 2_000_000
#: Largest bankroll accepted, in units of the main wager.
MAX_BANKROLL = 10**12

_U = 2.0**-53  # unit roundoff of a double
_SAFETY = 10.0  # factor on the textbook FFT error constant (numpy's FFT is not radix-2 only)


class SessionError(CbjError):
    """A session asked for with a number of rounds, bankroll or method it cannot use."""


def check_rounds(rounds: object) -> int:
    """A session length: a whole number of rounds from 1 to :data:`MAX_ROUNDS`.

    >>> check_rounds(100)
    100
    """
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise SessionError(f"rounds {rounds!r} must be a whole number from 1 to {MAX_ROUNDS:,}")
    return rounds


_NUMBER = re.compile(r"\s*\+?([0-9]{1,15})(?:(\.[0-9]{1,12})|/([0-9]{1,15}))?\s*")


def parse_bankroll(bankroll: object) -> Fraction:
    """A bankroll in units of the main wager: a positive number, e.g. ``100``, ``12.5``, ``25/2``.

    >>> parse_bankroll("12.5"), parse_bankroll(40)
    (Fraction(25, 2), Fraction(40, 1))
    """
    value: Fraction | None = None
    if isinstance(bankroll, int | Fraction) and not isinstance(bankroll, bool):
        value = Fraction(bankroll)
    elif isinstance(bankroll, str) and (found := _NUMBER.fullmatch(bankroll)):
        whole, decimals, denominator = found.groups()
        if denominator is not None:
            value = Fraction(int(whole), int(denominator)) if int(denominator) else None
        else:
            value = Fraction(whole + (decimals or ""))
    if value is None or not 0 < value <= MAX_BANKROLL:
        raise SessionError(
            f"bankroll {bankroll!r} must be a positive number of units up to {MAX_BANKROLL:,}, "
            "e.g. 100, 12.5 or 25/2"
        )
    return value


# --- The one-round table on its lattice -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundTable:
    """One round's net results on the lattice ``step * (lowest + i)``, with probabilities.

    ``weights[i] / denominator`` is the probability of net ``step * (lowest + i)``: integers
    over a common denominator for an exact table, floats over 1 otherwise.
    """

    step: Fraction
    lowest: int
    weights: tuple[int, ...] | tuple[float, ...]
    denominator: int
    exact: bool

    @property
    def highest(self) -> int:
        """The lattice index of the largest net."""
        return self.lowest + len(self.weights) - 1

    def probability(self, i: int) -> Number:
        """Probability of the ``i``-th lattice point from the lowest net."""
        w = self.weights[i]
        return Fraction(int(w), self.denominator) if self.exact else float(w)

    @property
    def mean(self) -> Number:
        """Expected net result of one round."""
        return self.step * sum(
            ((self.lowest + i) * self.probability(i) for i in range(len(self.weights))),
            Fraction(0) if self.exact else 0.0,
        )

    @property
    def variance(self) -> Number:
        """Variance of one round's net result."""
        zero: Number = Fraction(0) if self.exact else 0.0
        second = self.step**2 * sum(
            ((self.lowest + i) ** 2 * self.probability(i) for i in range(len(self.weights))), zero
        )
        return second - self.mean**2

    def floats(self) -> Floats:
        """The probabilities as a float array."""
        return np.array([float(self.probability(i)) for i in range(len(self.weights))])

    def to_pairs(self) -> tuple[tuple[Fraction, Number], ...]:
        """The table as (net, probability) pairs, nets with a nonzero probability only."""
        return tuple(
            (self.step * (self.lowest + i), self.probability(i))
            for i, w in enumerate(self.weights)
            if w
        )


def lattice_step(nets: Iterable[Fraction]) -> Fraction:
    """The largest step of which every net is a whole multiple (1 if every net is 0).

    >>> lattice_step([Fraction(-3, 2), Fraction(1, 2), Fraction(17, 2), Fraction(0)])
    Fraction(1, 2)
    """
    values = [Fraction(n) for n in nets if n]
    if not values:
        return Fraction(1)
    common = math.lcm(*(v.denominator for v in values))
    return Fraction(math.gcd(*(v.numerator * (common // v.denominator) for v in values)), common)


def round_table(lines: Iterable[tuple[Fraction, Number]]) -> RoundTable:
    """The one-round table of (net, probability) pairs on its lattice.

    Exact when every probability is a ``Fraction`` (they must sum to exactly 1), float
    otherwise (to within 1e-9).

    >>> table = round_table([(Fraction(-1), Fraction(1, 2)), (Fraction(3, 2), Fraction(1, 2))])
    >>> table.step, table.lowest, table.weights, table.denominator
    (Fraction(1, 2), -2, (1, 0, 0, 0, 0, 1), 2)
    """
    pairs = [(Fraction(net), p) for net, p in lines]
    if not pairs or any(p < 0 for _, p in pairs):
        raise SessionError("a round table needs nets with probabilities, none negative")
    exact = all(isinstance(p, Fraction | int) for _, p in pairs)
    step = lattice_step(net for net, _ in pairs)
    index: dict[int, Number] = {}
    for net, p in pairs:
        k = int(net / step)
        index[k] = index.get(k, 0) + p
    lowest, highest = min(index), max(index)
    total = sum(index.values())
    if exact:
        denominator = math.lcm(*(Fraction(p).denominator for p in index.values()))
        if total != 1:
            raise SessionError(f"the round's probabilities sum to {total}, not 1")
        weights: tuple[int, ...] | tuple[float, ...] = tuple(
            int(Fraction(index.get(k, 0)) * denominator) for k in range(lowest, highest + 1)
        )
        return RoundTable(step, lowest, weights, denominator, True)
    if abs(float(total) - 1) > 1e-9:
        raise SessionError(f"the round's probabilities sum to {float(total)}, not 1")
    floats = tuple(float(index.get(k, 0)) for k in range(lowest, highest + 1))
    return RoundTable(step, lowest, floats, 1, False)


# --- Convolution: exact integers, and floats by FFT with an error bound ------------------------


def convolve_integers(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The convolution of two integer sequences, exactly.

    >>> convolve_integers([1, 1], [1, 2, 1])
    [1, 3, 3, 1]
    """
    out = [0] * (len(a) + len(b) - 1)
    for j, w in enumerate(b):
        if w:
            for i, v in enumerate(a):
                out[i + j] += v * w
    return out


def fft_error_constant(n: int) -> float:
    """The relative 2-norm error bound of a length-``n`` FFT (Higham 2002, Thm 24.2), times
    a safety factor of 10: ``L eta / (1 - L eta)``, ``L = log2 n``, ``eta = u + g4 (sqrt 2 + u)``.
    """
    levels = max(1, math.ceil(math.log2(max(n, 2))))
    gamma4 = 4 * _U / (1 - 4 * _U)
    eta = _U + gamma4 * (math.sqrt(2) + _U)
    return _SAFETY * levels * eta / (1 - levels * eta)


def fft_convolve(
    a: Floats, b: Floats, spectra: dict[int, npt.NDArray[np.complex128]] | None = None
) -> tuple[Floats, float]:
    """The linear convolution of two nonnegative vectors by FFT, and a bound on the sum of
    the absolute errors of its entries.

    With ``e`` = :func:`fft_error_constant` of the padded length ``n``, ``m`` the output's
    length and ``x1``, ``x2`` the 1- and 2-norms, the 2-norm error is at most
    ``d + e (|a|1 |b|2 + d)`` where ``d = e |a|2 |b|1 + (|a|1 + e sqrt(n) |a|2) e |b|2 +
    em (1 + e) |a|2 (|b|1 + e sqrt(n) |b|2)`` and ``em = sqrt 2 gamma2`` bounds a complex
    product; the 1-norm error is at most ``sqrt(m)`` times that.  Negative entries (always
    rounding errors) are set to zero, which can only bring an entry closer.  ``spectra``
    keeps ``b``'s transforms by length, for a ``b`` convolved many times.

    >>> c, bound = fft_convolve(np.array([0.5, 0.5]), np.array([0.5, 0.5]))
    >>> [round(float(x), 12) for x in c], bound < 1e-13
    ([0.25, 0.5, 0.25], True)
    """
    m = len(a) + len(b) - 1
    n = 1 << max(1, (m - 1).bit_length())
    known = None if spectra is None else spectra.get(n)
    spectrum = np.fft.rfft(b, n) if known is None else known
    if spectra is not None:
        spectra[n] = spectrum
    c = np.fft.irfft(np.fft.rfft(a, n) * spectrum, n)[:m]
    np.maximum(c, 0.0, out=c)
    e = fft_error_constant(n)
    em = math.sqrt(2) * 2 * _U / (1 - 2 * _U)
    a1, b1 = float(a.sum()), float(b.sum())
    a2, b2 = float(np.sqrt(np.dot(a, a))), float(np.sqrt(np.dot(b, b)))
    root = math.sqrt(n)
    d = e * a2 * b1 + (a1 + e * root * a2) * e * b2 + em * (1 + e) * a2 * (b1 + e * root * b2)
    return c, math.sqrt(m) * (d + e * (a1 * b2 + d))


def _trim(v: Floats, offset: int) -> tuple[Floats, int, float]:
    """``v`` (entry 0 at lattice ``offset``) without the entries below :data:`TRIM` at its
    ends: the trimmed vector, its offset and the mass dropped."""
    kept = np.flatnonzero(v >= TRIM)
    if len(kept) == 0:
        return v[:1] * 0.0, offset, float(v.sum())
    first, last = int(kept[0]), int(kept[-1])
    dropped = float(v[:first].sum() + v[last + 1 :].sum())
    return v[first : last + 1].copy(), offset + first, dropped


def _float_power(table: RoundTable, rounds: int) -> tuple[Floats, int, float]:
    """The ``rounds``-fold convolution of ``table`` in floats by repeated squaring: the
    vector, the lattice index of its first entry and the 1-norm error bound."""
    base, base_at, base_error = table.floats(), table.lowest, 0.0
    result: Floats | None = None
    at, error = 0, 0.0
    n = rounds
    while n:
        if n & 1:
            if result is None:
                result, at, error = base.copy(), base_at, base_error
            else:
                product, rounding = fft_convolve(result, base)
                error = error + base_error + error * base_error + rounding
                result, at, dropped = _trim(product, at + base_at)
                error += dropped
        n >>= 1
        if n:
            square, rounding = fft_convolve(base, base)
            base_error = 2 * base_error + base_error**2 + rounding
            base, base_at, dropped = _trim(square, 2 * base_at)
            base_error += dropped
    assert result is not None
    return result, at, error


# --- The distribution after N rounds ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Distribution:
    """The net result after ``rounds`` rounds: probability ``weights[i] / denominator`` at
    net ``step * (lowest + i)``.

    ``method`` is ``exact`` (integer weights) or ``fft`` (float weights, denominator 1);
    ``error_bound`` bounds the sum of the absolute errors of the point probabilities
    (0 when exact), so the error of any probability read from it.
    """

    rounds: int
    step: Fraction
    lowest: int
    weights: Sequence[int] | Floats = field(repr=False, compare=False)
    denominator: int
    method: Method
    error_bound: float

    @property
    def exact(self) -> bool:
        """Whether the probabilities are exact fractions."""
        return self.method == "exact"

    def net(self, i: int) -> Fraction:
        """The net result of the ``i``-th entry."""
        return self.step * (self.lowest + i)

    def _mass(self, start: int, stop: int) -> Number:
        start, stop = max(start, 0), min(stop, len(self.weights))
        if start >= stop:
            return Fraction(0) if self.exact else 0.0
        if self.exact:
            return Fraction(sum(self.weights[start:stop]), self.denominator)
        return float(np.asarray(self.weights)[start:stop].sum())

    def probabilities(self) -> list[tuple[Fraction, Number]]:
        """Every (net, probability) pair with a nonzero weight, nets ascending."""
        return [
            (self.net(i), Fraction(w, self.denominator) if self.exact else float(w))
            for i, w in enumerate(self.weights)
            if w
        ]

    @property
    def total(self) -> Number:
        """The sum of the probabilities (1, or 1 within ``error_bound``)."""
        return self._mass(0, len(self.weights))

    @property
    def probability_ahead(self) -> Number:
        """Probability that the net result is above 0."""
        return self._mass(-self.lowest + 1, len(self.weights))

    @property
    def probability_even(self) -> Number:
        """Probability that the net result is exactly 0."""
        return self._mass(-self.lowest, -self.lowest + 1)

    @property
    def probability_behind(self) -> Number:
        """Probability that the net result is below 0."""
        return self._mass(0, -self.lowest)

    def quantile(self, level: Fraction) -> Fraction:
        """The smallest net ``x`` with P(net <= x) >= ``level`` (0 < level < 1)."""
        if self.exact:
            running = 0
            for i, w in enumerate(self.weights):
                running += int(w)
                if running * level.denominator >= level.numerator * self.denominator:
                    return self.net(i)
            return self.net(len(self.weights) - 1)
        cumulative = np.cumsum(np.asarray(self.weights, dtype=np.float64))
        i = int(np.searchsorted(cumulative, float(level) * float(cumulative[-1]), side="left"))
        return self.net(min(i, len(self.weights) - 1))


def distribution(table: RoundTable, rounds: int, method: Method = "fft") -> Distribution:
    """The net result after ``rounds`` rounds of ``table``, exactly or by FFT.

    >>> coin = round_table([(Fraction(-1), Fraction(1, 2)), (Fraction(1), Fraction(1, 2))])
    >>> d = distribution(coin, 2, "exact")
    >>> d.probabilities()
    [(Fraction(-2, 1), Fraction(1, 4)), (Fraction(0, 1), Fraction(1, 2)), (Fraction(2, 1), Fraction(1, 4))]
    """  # noqa: E501
    rounds = check_rounds(rounds)
    if method == "exact":
        if not table.exact:
            raise SessionError("exact session figures need the round solved exactly")
        if rounds > EXACT_MAX_ROUNDS:
            raise SessionError(
                f"exact fractions go up to {EXACT_MAX_ROUNDS} rounds, not {rounds:,}: "
                "use the float method"
            )
        one = list(table.weights)
        weights: list[int] = [1]
        for _ in range(rounds):
            weights = convolve_integers(weights, one)  # type: ignore[arg-type]
        return Distribution(
            rounds,
            table.step,
            table.lowest * rounds,
            tuple(weights),
            int(table.denominator) ** rounds,
            "exact",
            0.0,
        )
    floats, at, error = _float_power(table, rounds)
    return Distribution(rounds, table.step, at, floats, 1, "fft", error)


# --- The risk of ruin ---------------------------------------------------------------------------


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
    p = table.floats()
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
    error = 2 * k * (len(taps) + 1) * _U * 1.01 + 2 * (columns + 2) * _U
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
            kernel_error += (len(blocks[k].kernel) + 1) * _U * 1.01
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
    p = table.floats()
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


@dataclass(frozen=True, slots=True)
class Unlimited:
    """The probability of ruin over an unlimited session, with how it was found.

    ``value`` lies in ``[low, high]``; ``method`` says how (certain, impossible, the walk
    iterated until Lundberg's bound on the rest is below the tolerance, or the bounds
    ``exp(-r (x + loss - 1)) <= P <= exp(-r x)`` alone).
    """

    value: Number
    low: Number
    high: Number
    method: str
    rounds_iterated: int = 0
    adjustment_coefficient: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The unlimited session's ruin as JSON."""
        return {
            "probability": number_json(self.value),
            "low": number_json(self.low),
            "high": number_json(self.high),
            "method": self.method,
            "rounds_iterated": self.rounds_iterated,
            "adjustment_coefficient": None
            if self.adjustment_coefficient is None
            else float_json(self.adjustment_coefficient),
        }


def ruin_unlimited(table: RoundTable, bankroll: Fraction) -> Unlimited:
    """Probability that the running total ever reaches ``-bankroll`` or below.

    A round with EV <= 0 (and some spread) drifts down or recurs: ruin is certain.  With
    EV > 0 the killed walk is iterated, mass far above the barrier set aside with its
    Lundberg bound, until the bound on the ruin still to come is below
    :data:`UNLIMITED_TOLERANCE`.

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


# --- Figures, the normal approximation, and the result -----------------------------------------

_NORMAL = NormalDist()


def _phi(z: float) -> float:
    """The standard normal CDF, accurate in the far tails."""
    return 0.5 * math.erfc(-z / math.sqrt(2))


@dataclass(frozen=True, slots=True)
class Normal:
    """The normal approximation's figures for the same session (for comparison)."""

    mean: float
    standard_deviation: float
    probability_ahead: float
    probability_even: float
    quantiles: tuple[float, ...]
    largest_likely_loss: float
    ruin_within: float | None
    ruin_unlimited: float | None

    def to_json(self) -> dict[str, Any]:
        """The normal approximation's figures as JSON."""
        document: dict[str, Any] = {
            "mean": float_json(self.mean),
            "sd": float_json(self.standard_deviation),
            "probability_ahead": float_json(self.probability_ahead),
            "probability_even": float_json(self.probability_even),
            "quantiles": [
                {"level": exact_json(level), "net": float_json(q)}
                for level, q in zip(QUANTILE_LEVELS, self.quantiles, strict=True)
            ],
            "largest_likely_loss": float_json(self.largest_likely_loss),
        }
        if self.ruin_within is not None:
            document["ruin_within"] = float_json(self.ruin_within)
            document["ruin_unlimited"] = float_json(self.ruin_unlimited or 0.0)
        return document


def normal_figures(
    mean: float, variance: float, step: Fraction, rounds: int, bankroll: Fraction | None
) -> Normal:
    """The normal approximation of the session of ``rounds`` rounds of a round with
    ``mean`` and ``variance``; ruin by the Brownian motion with the same drift and variance.

    P(ahead) is ``Phi(n mean / sd)`` as in the volatility figures; P(even) the normal mass
    within half a lattice step of 0; ruin within n rounds ``Phi((-B - n m)/s) +
    exp(-2 m B / v) Phi((-B + n m)/s)`` (``s = sqrt(n v)``), unlimited ``exp(-2 m B / v)``
    when ``m > 0``, else 1.
    """
    centre = rounds * mean
    sd = math.sqrt(rounds * variance)
    half = float(step) / 2
    if sd == 0:
        ahead, even = float(centre > 0), float(abs(centre) < half)
        quantiles = tuple(centre for _ in QUANTILE_LEVELS)
    else:
        ahead = _phi(centre / sd)
        even = _phi((half - centre) / sd) - _phi((-half - centre) / sd)
        quantiles = tuple(centre + sd * _NORMAL.inv_cdf(float(p)) for p in QUANTILE_LEVELS)
    likely = max(0.0, -(centre + sd * _NORMAL.inv_cdf(float(LIKELY_LEVEL))))
    within = unlimited = None
    if bankroll is not None:
        b = float(bankroll)
        if sd == 0 or variance == 0:
            within = float(centre <= -b)
            unlimited = float(mean < 0)
        else:
            exponent = -2 * mean * b / variance
            second = _phi((-b + centre) / sd)
            term = math.exp(exponent + math.log(second)) if second > 0 and exponent < 700 else 0.0
            within = min(1.0, _phi((-b - centre) / sd) + term)
            unlimited = 1.0 if mean <= 0 else math.exp(exponent)
    return Normal(centre, sd, ahead, even, quantiles, likely, within, unlimited)


def _number(value: Number) -> dict[str, Any]:
    return number_json(value)


@dataclass(frozen=True, slots=True)
class Ruin:
    """The risk of ruin of a bankroll: within the session, and over an unlimited one."""

    bankroll: Fraction
    within: Number
    within_error: float
    unlimited: Unlimited

    def to_json(self) -> dict[str, Any]:
        """The ruin figures as JSON."""
        return {
            "bankroll": exact_json(self.bankroll),
            "within_rounds": _number(self.within),
            "within_rounds_error_bound": self.within_error,
            "unlimited": self.unlimited.to_json(),
        }


@dataclass(frozen=True, slots=True)
class SessionFigures:
    """The session's distribution, its figures, the ruin figures and the normal ones."""

    table: RoundTable
    distribution: Distribution
    ruin: Ruin | None
    normal: Normal

    @property
    def rounds(self) -> int:
        """Rounds in the session."""
        return self.distribution.rounds

    @property
    def mean(self) -> Number:
        """Expected net result of the session (exact: ``rounds`` x the round's EV)."""
        return self.rounds * self.table.mean

    @property
    def variance(self) -> Number:
        """Variance of the session's net result."""
        return self.rounds * self.table.variance

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of the session's net result."""
        return math.sqrt(self.variance)

    @property
    def quantiles(self) -> tuple[Fraction, ...]:
        """The nets at :data:`QUANTILE_LEVELS`."""
        return tuple(self.distribution.quantile(p) for p in QUANTILE_LEVELS)

    @property
    def largest_likely_loss(self) -> Fraction:
        """The loss exceeded with probability below 1%: ``max(0, -(1% quantile))``."""
        return max(Fraction(0), -self.distribution.quantile(LIKELY_LEVEL))

    def to_json(self) -> dict[str, Any]:
        """The session's figures as JSON (the distribution's points listed too)."""
        d = self.distribution
        document: dict[str, Any] = {
            "rounds": self.rounds,
            "lattice_step": exact_json(d.step),
            "method": d.method,
            "error_bound": d.error_bound,
            "round": [
                {"net": exact_json(net), "probability": _number(p)}
                for net, p in self.table.to_pairs()
            ],
            "mean": _number(self.mean),
            "variance": _number(self.variance),
            "sd": float_json(self.standard_deviation),
            "probability_ahead": _number(d.probability_ahead),
            "probability_even": _number(d.probability_even),
            "probability_behind": _number(d.probability_behind),
            "quantiles": [
                {"level": exact_json(level), "net": exact_json(q)}
                for level, q in zip(QUANTILE_LEVELS, self.quantiles, strict=True)
            ],
            "largest_likely_loss": exact_json(self.largest_likely_loss)
            | {"definition": "the loss exceeded with probability below 1%: -(1% quantile)"},
        }
        if self.ruin is not None:
            document["ruin"] = self.ruin.to_json()
        document["normal_approximation"] = self.normal.to_json()
        document["distribution"] = [
            {"net": exact_json(net), "probability": _number(p)} for net, p in d.probabilities()
        ]
        return document


def session_figures(
    lines: Iterable[tuple[Fraction, Number]],
    rounds: int,
    bankroll: Fraction | None = None,
    method: Literal["auto", "exact", "fft"] = "auto",
) -> SessionFigures:
    """Every session figure of ``rounds`` rounds of the round ``lines`` ((net, probability)).

    ``method="auto"`` is exact up to :data:`EXACT_AUTO_ROUNDS` rounds (when the round is
    exact), FFT above.

    >>> coin = [(Fraction(-1), Fraction(1, 2)), (Fraction(1), Fraction(1, 2))]
    >>> figures = session_figures(coin, 4, Fraction(2))
    >>> figures.distribution.probability_ahead, figures.ruin.within
    (Fraction(5, 16), Fraction(3, 8))
    """
    rounds = check_rounds(rounds)
    table = round_table(lines)
    if method not in ("auto", "exact", "fft"):
        raise SessionError(f"method {method!r} is unknown: use auto, exact or fft")
    chosen: Method = (
        method
        if method != "auto"
        else "exact"
        if table.exact and rounds <= EXACT_AUTO_ROUNDS
        else "fft"
    )
    found = distribution(table, rounds, chosen)
    ruin = None
    if bankroll is not None:
        bankroll = parse_bankroll(bankroll)
        within, error = ruin_within(table, bankroll, rounds, chosen)
        ruin = Ruin(bankroll, within, error, ruin_unlimited(table, bankroll))
    normal = normal_figures(float(table.mean), float(table.variance), table.step, rounds, bankroll)
    return SessionFigures(table, found, ruin, normal)


@dataclass(frozen=True, slots=True)
class SessionResult:
    """``cbj session``: the session figures of a strategy under some rules."""

    rules: Rules
    strategy: str
    figures: SessionFigures

    def to_json(self) -> dict[str, Any]:
        """The document ``cbj session --format json`` prints."""
        return {"rules": self.rules.to_json(), "strategy": self.strategy, **self.figures.to_json()}
