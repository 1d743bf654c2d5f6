"""A session's result: the exact distribution of the net after N rounds, and the risk of ruin.

:func:`solver.exact.session.session_figures` convolves the round's table on its lattice
(:mod:`solver.exact.lattice`) and walks the bankroll (:mod:`solver.exact.ruin`); the types
here hold what those find and read every figure of ``cbj session`` off them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from solver.model.normal import QUANTILE_LEVELS
from solver.model.numbers import exact_json, float_json, number_json
from solver.model.rules import Rules
from solver.results.frames import Tabular

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    #: An FFT's float weights.
    Floats = npt.NDArray[np.float64]

#: A probability: exact, or a float from an FFT.
Number = Fraction | float
#: How a session's distribution was found.
Method = Literal["exact", "fft"]


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

    def to_pairs(self) -> tuple[tuple[Fraction, Number], ...]:
        """The table as (net, probability) pairs, nets with a nonzero probability only."""
        return tuple(
            (self.step * (self.lowest + i), self.probability(i))
            for i, w in enumerate(self.weights)
            if w
        )


#: The largest likely loss is the loss that is exceeded with probability below this.
LIKELY_LEVEL = Fraction(1, 100)


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
        import numpy as np  # only an FFT's float weights need it: numpy's own sums, bit for bit

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
        import numpy as np  # only an FFT's float weights need it: numpy's own sums, bit for bit

        cumulative = np.cumsum(np.asarray(self.weights, dtype=np.float64))
        i = int(np.searchsorted(cumulative, float(level) * float(cumulative[-1]), side="left"))
        return self.net(min(i, len(self.weights) - 1))


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


def _number(value: Number) -> dict[str, Any]:
    return number_json(value)


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


@dataclass(frozen=True, slots=True, repr=False)
class SessionResult(Tabular):
    """``cbj session``: the session figures of a strategy under some rules."""

    rules: Rules
    strategy: str
    figures: SessionFigures

    def to_json(self) -> dict[str, Any]:
        """The document ``cbj session --format json`` prints."""
        return {"rules": self.rules.to_json(), "strategy": self.strategy, **self.figures.to_json()}


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
            "within_rounds": number_json(self.within),
            "within_rounds_error_bound": self.within_error,
            "unlimited": self.unlimited.to_json(),
        }
