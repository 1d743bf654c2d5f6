"""A round's net results on their lattice, and convolution: exact integers, and floats by FFT.

A round's nets are rationals; they all lie on the lattice ``step * Z`` where ``step`` is the
gcd of the nets (:func:`lattice_step`), so a session's net is ``step`` times an integer.
:func:`fft_convolve` gives the product of two distributions by FFT with a bound on its error
(docs/session.md says how the bound is found), :func:`float_power` the N-fold product by
repeated squaring with the bound carried through.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from solver.model.errors import SessionError
from solver.model.process import check_stop
from solver.results.session import RoundTable

Floats = npt.NDArray[np.float64]
Number = Fraction | float

#: Float entries below this at either end of a distribution are dropped (mass counted).
TRIM = 1e-18
#: The unit roundoff of a double.
UNIT_ROUNDOFF = 2.0**-53
#: The most lattice points one convolution may hold (2**24 floats: 128 MiB a vector, a few
#: times that while the FFT runs); a session wider than that is refused, not swapped to disk.
MAX_POINTS = 1 << 24
_SAFETY = 10.0  # factor on the textbook FFT error constant (numpy's FFT is not radix-2 only)


# --- The one-round table on its lattice -------------------------------------------------------


def floats(table: RoundTable) -> Floats:
    """A round table's probabilities as a float array."""
    return np.array([float(table.probability(i)) for i in range(len(table.weights))])


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
    _check_span(highest - lowest + 1, step)  # before the lattice is walked
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
    gamma4 = 4 * UNIT_ROUNDOFF / (1 - 4 * UNIT_ROUNDOFF)
    eta = UNIT_ROUNDOFF + gamma4 * (math.sqrt(2) + UNIT_ROUNDOFF)
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
    em = math.sqrt(2) * 2 * UNIT_ROUNDOFF / (1 - 2 * UNIT_ROUNDOFF)
    a1, b1 = float(a.sum()), float(b.sum())
    a2, b2 = float(np.sqrt(np.dot(a, a))), float(np.sqrt(np.dot(b, b)))
    root = math.sqrt(n)
    d = e * a2 * b1 + (a1 + e * root * a2) * e * b2 + em * (1 + e) * a2 * (b1 + e * root * b2)
    return c, math.sqrt(m) * (d + e * (a1 * b2 + d))


def trim_ends(v: Floats, offset: int) -> tuple[Floats, int, float]:
    """``v`` (entry 0 at lattice ``offset``) without the entries below :data:`TRIM` at its
    ends: the trimmed vector, its offset and the mass dropped."""
    kept = np.flatnonzero(v >= TRIM)
    if len(kept) == 0:
        return v[:1] * 0.0, offset, float(v.sum())
    first, last = int(kept[0]), int(kept[-1])
    dropped = float(v[:first].sum() + v[last + 1 :].sum())
    return v[first : last + 1].copy(), offset + first, dropped


def _check_span(points: int, step: Fraction) -> None:
    """Refuse a round whose nets span more than :data:`MAX_POINTS` points of their lattice.

    >>> _check_span(10**12, Fraction(1, 988_946_617_599_199))
    Traceback (most recent call last):
    ...
    solver.model.errors.SessionError: the round's results lie on a lattice of 1,000,000,000,000 points (step 1/988946617599199): more than 16,777,216, too fine for a session's distribution; use pays with smaller denominators (e.g. 1/20 rather than 1/9973)
    >>> _check_span(10**300, Fraction(1, 10**300))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.model.errors.SessionError: ... lattice of about 10^300 points (step about 1e-300): ...
    """  # noqa: E501
    if points > MAX_POINTS:
        shown = str(step) if len(str(step)) <= 40 else f"about {float(step):.3g}"
        many = f"{points:,}" if points < 10**15 else f"about 10^{points.bit_length() * 0.30103:.0f}"
        raise SessionError(
            f"the round's results lie on a lattice of {many} points (step {shown}): more "
            f"than {MAX_POINTS:,}, too fine for a session's distribution; use pays with "
            "smaller denominators (e.g. 1/20 rather than 1/9973)"
        )


def check_points(points: int, rounds: int) -> None:
    """Refuse a convolution of more than :data:`MAX_POINTS` lattice points."""
    if points > MAX_POINTS:
        raise SessionError(
            f"a session of {rounds:,} rounds spans more than {MAX_POINTS:,} possible results "
            "(the pays or the Bonus ratio are too large for its exact distribution): "
            "use fewer rounds"
        )


def float_power(table: RoundTable, rounds: int) -> tuple[Floats, int, float]:
    """The ``rounds``-fold convolution of ``table`` in floats by repeated squaring: the
    vector, the lattice index of its first entry and the 1-norm error bound."""
    base, base_at, base_error = floats(table), table.lowest, 0.0
    result: Floats | None = None
    at, error = 0, 0.0
    n = rounds
    while n:
        check_stop()  # a stopped job stops between two convolutions
        if n & 1:
            if result is None:
                result, at, error = base.copy(), base_at, base_error
            else:
                check_points(len(result) + len(base) - 1, rounds)
                product, rounding = fft_convolve(result, base)
                error = error + base_error + error * base_error + rounding
                result, at, dropped = trim_ends(product, at + base_at)
                error += dropped
        n >>= 1
        if n:
            check_points(2 * len(base) - 1, rounds)
            square, rounding = fft_convolve(base, base)
            base_error = 2 * base_error + base_error**2 + rounding
            base, base_at, dropped = trim_ends(square, 2 * base_at)
            base_error += dropped
    assert result is not None
    return result, at, error
