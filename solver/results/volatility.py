"""How far a round's results wander over a session: the volatility index and session ranges.

Over ``n`` independent rounds the net result has mean ``n EV`` and standard deviation
``SD sqrt(n)``.  The ranges and the chance of being ahead below use the **normal
approximation** to that sum (the central limit theorem); they are approximations, unlike
the mean and SD, which are exact.  Rounds dealt from one shoe are very weakly dependent;
the figures treat each round as dealt from a full shoe.

Everything here is a pure function of a round's mean and variance, so that a game's
result (:class:`~solver.results.game.GameResult`) can give its volatility itself; how the
round depends on the Bonus ratio is :mod:`solver.exact.ratios`'s, and the rows it gives
(:class:`RatioRow`) are here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from solver.model.checks import whole_in
from solver.model.errors import RulesError
from solver.model.numbers import exact_json, float_json, number_json
from solver.model.rules import Rules
from solver.results.bonus import BonusAnalysis

# The z values are ``statistics.NormalDist().inv_cdf`` of 0.95 and 0.975 written out, so
# that a cache hit need not import statistics and random (about 5 million instructions);
# a test checks them against NormalDist, bit for bit.
#: z of a two-sided 90% normal interval (the volatility index's z).
Z90 = 1.6448536269514715
#: z of a two-sided 95% normal interval.
Z95 = 1.9599639845400536
#: Session lengths, in rounds, the volatility figures are given for.
SESSION_LENGTHS: tuple[int, ...] = (100, 1_000, 10_000, 100_000)
APPROXIMATION = (
    "normal approximation to the sum of independent rounds: exact mean n*EV and SD "
    "SD*sqrt(n), ranges mean -/+ z*SD*sqrt(n), P(ahead) = Phi(n*EV / (SD*sqrt(n)))"
)


@dataclass(frozen=True, slots=True)
class SessionRange:
    """The net result after ``rounds`` rounds: mean and SD, normal ranges and P(ahead).

    The mean is a ``Fraction`` when the round was solved exactly, a ``float`` otherwise.
    """

    rounds: int
    mean: Fraction | float
    standard_deviation: float

    def interval(self, z: float) -> tuple[float, float]:
        """Mean -/+ ``z`` SD: the normal approximation's central range."""
        centre = float(self.mean)
        return (centre - z * self.standard_deviation, centre + z * self.standard_deviation)

    @property
    def range90(self) -> tuple[float, float]:
        """The central 90% range of the net result (normal approximation)."""
        return self.interval(Z90)

    @property
    def range95(self) -> tuple[float, float]:
        """The central 95% range of the net result (normal approximation)."""
        return self.interval(Z95)

    @property
    def probability_ahead(self) -> float:
        """Probability that the net result is above 0 (normal approximation)."""
        if self.standard_deviation == 0:
            return 1.0 if self.mean > 0 else 0.0
        # erfc keeps the far tail that 1 - cdf would round to 0 (long sessions).
        z = float(self.mean) / self.standard_deviation
        return 0.5 * math.erfc(-z / math.sqrt(2))

    def to_json(self) -> dict[str, Any]:
        """The session's figures as JSON."""
        return {
            "rounds": self.rounds,
            "mean": number_json(self.mean),
            "sd": float_json(self.standard_deviation),
            "range90": list(self.range90),
            "range95": list(self.range95),
            "probability_ahead": self.probability_ahead,
        }


@dataclass(frozen=True, slots=True)
class Volatility:
    """A round's volatility: the index SD x z90 and session ranges (normal approximation).

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

    def to_json(self) -> dict[str, Any]:
        """The ``volatility`` document of ``cbj solve`` and ``cbj strategies``."""
        return {
            "bonus_ratio": exact_json(self.ratio),
            "round_ev": number_json(self.mean),
            "round_variance": number_json(self.variance),
            "round_sd": float_json(self.standard_deviation),
            "index": float_json(self.index) | {"z": Z90, "confidence": 0.90},
            "method": APPROXIMATION,
            "sessions": [s.to_json() for s in self.sessions],
        }


def round_volatility(
    ratio: Fraction,
    mean: Fraction | float,
    variance: Fraction | float,
    lengths: Iterable[int] = SESSION_LENGTHS,
) -> Volatility:
    """Volatility of a round with net ``mean`` and ``variance``, over sessions of ``lengths``."""
    sessions = []
    for n in lengths:
        if not whole_in(n, 1):
            raise RulesError(f"session length {n!r} must be a whole number of rounds, 1 or more")
        sessions.append(SessionRange(n, n * mean, math.sqrt(n * variance)))
    return Volatility(ratio, mean, variance, tuple(sessions))


class RoundFigures(Protocol):
    """What the volatility of a solved game needs: its rules, Bonus and round moments."""

    @property
    def rules(self) -> Rules: ...
    @property
    def bonus(self) -> BonusAnalysis | None: ...
    @property
    def round_expected_value(self) -> Fraction | float: ...
    @property
    def round_variance(self) -> Fraction | float: ...


def game_volatility(
    game: RoundFigures, lengths: Iterable[int] = SESSION_LENGTHS
) -> Volatility | None:
    """Volatility of ``game``'s round at its own Bonus ratio, exact or float as ``game`` is.

    None when the game has no round (cards were removed without their suits).
    """
    if game.bonus is None:
        return None
    return round_volatility(
        game.rules.bonus_ratio, game.round_expected_value, game.round_variance, lengths
    )


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
