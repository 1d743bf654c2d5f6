"""How far a round's results wander over a session: the volatility index and session ranges.

Over ``n`` independent rounds the net result has mean ``n EV`` and standard deviation
``SD sqrt(n)``, exactly.  The ranges and the chance of being ahead are read off the
session's own distribution, the n-fold convolution of the round's exact return table
(:mod:`solver.exact.volatility` convolves it): exact fractions for short sessions, by FFT
with a stated error bound beyond.  Only where the pays make that distribution too wide to
hold (:class:`SessionRange`'s ``method`` is ``normal`` then) do they fall back on the normal
approximation, and say so.  Rounds dealt from one shoe are very weakly dependent; the
figures treat each round as dealt from a full shoe.

The types here are pure data; how the round depends on the Bonus ratio is
:mod:`solver.exact.ratios`'s, and the rows it gives (:class:`RatioRow`) are here.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from solver.model.checks import whole_in
from solver.model.errors import RulesError
from solver.model.normal import Z90 as Z90
from solver.model.normal import Z95 as Z95
from solver.model.numbers import exact_json, float_json, number_json
from solver.results.kinds import Kind

#: Session lengths, in rounds, the volatility figures are given for.
SESSION_LENGTHS: tuple[int, ...] = (100, 1_000, 10_000, 100_000)
#: The levels of the 90% and 95% ranges: from the 5% to the 95% point, and from 2.5% to 97.5%.
RANGE90 = (Fraction(5, 100), Fraction(95, 100))
RANGE95 = (Fraction(25, 1000), Fraction(975, 1000))
#: How a session's ranges and chance of being ahead were found.
SessionMethod = Literal["exact", "fft", "normal"]
METHOD_WORDS: dict[str, str] = {
    "exact": "exact convolution of the round's return table, in fractions",
    "fft": "convolution of the round's exact return table by FFT, within the error bound",
    "normal": "normal approximation (the pays make the exact distribution too wide to hold)",
}


@dataclass(frozen=True, slots=True)
class SessionRange:
    """The net result after ``rounds`` rounds: mean and SD (exact), the 90% and 95% ranges
    and the chance of being ahead (from the session's distribution, by ``method``).

    The mean is a ``Fraction`` when the round was solved exactly, a ``float`` otherwise;
    ``error_bound`` bounds the error of any probability read from an FFT's distribution.
    """

    rounds: int
    mean: Fraction | float
    standard_deviation: float
    range90: tuple[float, float]
    range95: tuple[float, float]
    probability_ahead: float
    method: SessionMethod
    error_bound: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The session's figures as JSON."""
        return {
            "rounds": self.rounds,
            "mean": number_json(self.mean),
            "sd": float_json(self.standard_deviation),
            "range90": list(self.range90),
            "range95": list(self.range95),
            "probability_ahead": self.probability_ahead,
            "method": self.method,
            "error_bound": self.error_bound,
        }


def normal_session(rounds: int, mean: Fraction | float, variance: Fraction | float) -> SessionRange:
    """The session of ``rounds`` rounds by the normal approximation (mean and SD exact).

    The fallback for a round whose exact session distribution is too wide to hold.

    >>> s = normal_session(100, Fraction(0), Fraction(1))
    >>> s.range90 == (-Z90 * 10, Z90 * 10), s.probability_ahead
    (True, 0.5)
    """
    if not whole_in(rounds, 1):
        raise RulesError(f"session length {rounds!r} must be a whole number of rounds, 1 or more")
    centre, sd = rounds * mean, math.sqrt(rounds * variance)

    def interval(z: float) -> tuple[float, float]:
        return (float(centre) - z * sd, float(centre) + z * sd)

    if sd == 0:
        ahead = 1.0 if centre > 0 else 0.0
    else:  # erfc keeps the far tail that 1 - cdf would round to 0 (long sessions)
        ahead = 0.5 * math.erfc(-float(centre) / sd / math.sqrt(2))
    return SessionRange(rounds, centre, sd, interval(Z90), interval(Z95), ahead, "normal")


@dataclass(frozen=True, slots=True)
class Volatility:
    """A round's volatility: the index SD x z90, and the player's net result over sessions.

    Mean and variance are ``Fraction`` from an exact solve, ``float`` from a float one.
    """

    ratio: Fraction
    mean: Fraction | float
    variance: Fraction | float
    sessions: tuple[SessionRange, ...]

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of one round's net result."""
        return math.sqrt(self.variance)

    @property
    def index(self) -> float:
        """The volatility index: SD x z for 90% confidence (z = :data:`Z90`)."""
        return self.standard_deviation * Z90

    @property
    def error_bound(self) -> float:
        """The largest error bound of any session's probabilities (0 when all are exact)."""
        return max((s.error_bound for s in self.sessions), default=0.0)

    @property
    def methods(self) -> tuple[str, ...]:
        """The methods of the sessions, each once, in order."""
        return tuple(dict.fromkeys(s.method for s in self.sessions))

    def to_json(self) -> dict[str, Any]:
        """The ``volatility`` document of ``cbj solve`` and ``cbj strategies``."""
        return {
            "bonus_ratio": exact_json(self.ratio),
            "round_ev": number_json(self.mean),
            "round_variance": number_json(self.variance),
            "round_sd": float_json(self.standard_deviation),
            "index": float_json(self.index) | {"z": Z90, "confidence": 0.90},
            "method": "; ".join(METHOD_WORDS[m] for m in self.methods),
            "sessions": [s.to_json() for s in self.sessions],
        }


class PendingVolatility:
    """A game's volatility, convolved when first read and then kept: a caller that never
    reads the session figures never pays for them (``solver.solve`` of a new game).

    >>> pending = PendingVolatility(lambda: Volatility(Fraction(1), 0.0, 1.0, ()))
    >>> pending.get().index == pending.get().index
    True
    """

    __slots__ = ("_compute", "_lock", "_value")

    def __init__(self, compute: Callable[[], Volatility]) -> None:
        self._compute: Callable[[], Volatility] | None = compute
        self._value: Volatility | None = None
        self._lock = threading.Lock()

    def get(self) -> Volatility:
        """The volatility, computed on the first call (once, whichever thread asks)."""
        with self._lock:
            if self._value is None:
                assert self._compute is not None
                self._value = self._compute()
                self._compute = None
            return self._value


#: A solved game's volatility, kept by its rules, removed cards and arithmetic: a repeated
#: ``cbj solve`` reads it back without convolving (or loading numpy) again.
VOLATILITY: Kind[Volatility] = Kind("volatility", Volatility)


@dataclass(frozen=True, slots=True)
class RatioRow:
    """The round at one Bonus ratio."""

    ratio: Fraction
    expected_value: Fraction
    house_edge: Fraction
    variance: Fraction

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of a round's net result."""
        return math.sqrt(self.variance)

    def to_json(self) -> dict[str, Any]:
        """The row as JSON (the SD as a float: it is a square root)."""
        return {
            "ratio": exact_json(self.ratio),
            "round_ev": exact_json(self.expected_value),
            "round_house_edge": exact_json(self.house_edge),
            "round_variance": exact_json(self.variance),
            "round_sd": float_json(self.standard_deviation),
        }
