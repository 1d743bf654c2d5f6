"""The tail of a long session by the saddlepoint (Lugannani-Rice), where no lattice of its
results fits in memory: very long sessions, or a round whose pays lie on a very fine lattice.

For ``S``, the sum of ``n`` independent copies of a round ``X`` with cumulant generating
function ``K(t) = log E exp(tX)``, the saddlepoint ``t`` of a target ``s`` solves
``n K'(t) = s`` and

    P(S >= s) ~ 1 - Phi(w) - phi(w) (1/w - 1/u),  w = sign(t) sqrt(2 (t s - n K(t))),

with ``u = (1 - exp(-t h)) / h * sqrt(n K''(t))`` for a round on a lattice of step ``h``
(Daniels 1987, the first continuity correction; ``s`` a lattice point) and ``u = t
sqrt(n K''(t))`` otherwise.  Its relative error shrinks as ``1/n``; the hold check states
how far it was from the FFT's distribution where both run (``docs/protection.md``; the
tests hold it to that).  Near the mean (``|w|`` below 1e-6) the normal approximation with
a continuity correction takes over: there the tail is about a half, far from any band.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver.model.errors import SessionError

Floats = npt.NDArray[np.float64]

#: Below this ``|w|`` the normal approximation with a continuity correction is used.
NEAR_MEAN = 1e-6


def _phi(z: float) -> float:
    return math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)


def _upper_normal(z: float) -> float:
    """P(Z >= z) for a standard normal Z, accurate in the far tails."""
    return 0.5 * math.erfc(z / math.sqrt(2))


@dataclass(frozen=True, slots=True)
class Saddlepoint:
    """Tails and quantiles of the sum of ``rounds`` rounds of the law (``values``,
    ``probabilities``); ``step`` is the values' lattice step (0: none)."""

    values: Floats
    probabilities: Floats
    rounds: int
    step: float

    @classmethod
    def of(
        cls, values: npt.ArrayLike, probabilities: npt.ArrayLike, rounds: int, step: float
    ) -> Saddlepoint:
        """The law's values with a nonzero probability, checked."""
        v = np.asarray(values, dtype=np.float64)
        p = np.asarray(probabilities, dtype=np.float64)
        kept = p > 0
        if not kept.any() or not math.isclose(float(p.sum()), 1.0, abs_tol=1e-9):
            raise SessionError("a round's probabilities must be positive and sum to 1")
        return cls(v[kept], p[kept] / p[kept].sum(), rounds, step)

    @property
    def mean(self) -> float:
        """The session's expected total."""
        return self.rounds * float(self.values @ self.probabilities)

    @property
    def variance(self) -> float:
        """The session's variance."""
        m = float(self.values @ self.probabilities)
        return self.rounds * float(((self.values - m) ** 2) @ self.probabilities)

    def _cumulants(self, t: float) -> tuple[float, float, float]:
        """``K(t)``, ``K'(t)`` and ``K''(t)`` of one round."""
        exponents = t * self.values
        top = float(exponents.max())
        weights = self.probabilities * np.exp(exponents - top)
        total = float(weights.sum())
        first = float(weights @ self.values) / total
        second = float(weights @ self.values**2) / total - first * first
        return top + math.log(total), first, max(second, 0.0)

    def _solve(self, target: float) -> float:
        """The saddlepoint ``t`` with ``n K'(t) = target`` (Newton, kept inside a bracket)."""
        per_round = target / self.rounds
        low, high = float(self.values.min()), float(self.values.max())
        if not low < per_round < high:
            raise SessionError("a tail beyond every possible result has no saddlepoint")
        lo, hi = -1.0, 1.0
        while self._cumulants(lo)[1] > per_round:
            lo *= 2
        while self._cumulants(hi)[1] < per_round:
            hi *= 2
        t = 0.0
        for _ in range(200):
            _, first, second = self._cumulants(t)
            if abs(first - per_round) <= 1e-15 * max(1.0, abs(per_round)) or hi - lo < 1e-15:
                return t
            if first > per_round:
                hi = t
            else:
                lo = t
            step = (first - per_round) / second if second > 0 else math.inf
            guess = t - step
            t = guess if lo < guess < hi else (lo + hi) / 2  # Newton, or halve the bracket
        return t

    def upper(self, target: float) -> float:
        """P(S >= target) for ``target`` above the mean (a lattice point, on a lattice)."""
        n = self.rounds
        if target <= float(self.values.min()) * n:
            return 1.0
        if target > float(self.values.max()) * n:
            return 0.0
        if target == float(self.values.max()) * n:
            return float(self.probabilities[self.values.argmax()]) ** n
        t = self._solve(target)
        k, _, second = self._cumulants(t)
        w = math.copysign(math.sqrt(max(2 * (t * target - n * k), 0.0)), t)
        if abs(w) < NEAR_MEAN:
            sd = math.sqrt(self.variance)
            return _upper_normal((target - self.step / 2 - self.mean) / sd)
        h = self.step
        u = ((1 - math.exp(-t * h)) / h if h > 0 else t) * math.sqrt(n * second)
        found = _upper_normal(w) - _phi(w) * (1 / w - 1 / u)
        return min(max(found, 0.0), 1.0)

    def lower(self, target: float) -> float:
        """P(S <= target) for ``target`` below the mean: the upper tail of ``-S``."""
        mirror = Saddlepoint(-self.values, self.probabilities, self.rounds, self.step)
        return mirror.upper(-target)

    def cdf(self, target: float) -> float:
        """P(S <= target), from whichever tail is the smaller."""
        if target < self.mean:
            return self.lower(target)
        return 1 - self.upper(target + (self.step if self.step > 0 else 0.0))
