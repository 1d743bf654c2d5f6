"""The casino's hold check: an observed result set against the exact session distribution."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.model.numbers import exact_json, float_json
from solver.model.rules import Rules
from solver.results.frames import Tabular

#: The confidence levels of the hold bands.
BAND_LEVELS = (Fraction(90, 100), Fraction(95, 100), Fraction(99, 100))


@dataclass(frozen=True, slots=True)
class HoldBand:
    """The central ``level`` of the casino's hold over the rounds: from ``low`` to ``high``
    (shares of the total wagered), and the casino's net win at each end in main units."""

    level: Fraction
    low: float
    high: float
    low_win: Fraction
    high_win: Fraction

    def to_json(self) -> dict[str, Any]:
        """The band as one entry of ``bands``."""
        return {
            "level": float_json(float(self.level)),
            "hold": {"low": float_json(self.low), "high": float_json(self.high)},
            "casino_win": {"low": exact_json(self.low_win), "high": exact_json(self.high_win)},
        }


@dataclass(frozen=True, slots=True, repr=False)
class HoldCheck(Tabular):
    """``cbj hold``: how unusual an observed result is over ``rounds`` rounds.

    The casino's net win is the players' loss; its hold is the win over the total wagered
    (``rounds * (1 + bonus ratio)`` main units).  ``p_value`` is the exact probability of a
    result at least as far from the expectation as the one observed, either side (within
    ``error_bound`` when the distribution is the FFT's); ``normal_p_value`` is the normal
    approximation's, a reference only.
    """

    rules: Rules
    strategy: str
    rounds: int
    observed_win: Fraction
    expected_win: Fraction
    standard_deviation: float
    p_value: float
    error_bound: float
    method: str
    normal_p_value: float
    bands: tuple[HoldBand, ...]

    @property
    def wagered(self) -> Fraction:
        """Total wagered over the rounds, in main units."""
        return self.rounds * (1 + self.rules.bonus_ratio)

    @property
    def observed_hold(self) -> Fraction:
        """The observed win over the total wagered."""
        return self.observed_win / self.wagered

    @property
    def expected_hold(self) -> Fraction:
        """The expected win over the total wagered: the round's house edge."""
        return self.expected_win / self.wagered

    @property
    def verdict(self) -> str:
        """The check in words (95% two-sided, as Maryland's COMAR 36.05.03.25 asks)."""
        side = "above" if self.observed_win > self.expected_win else "below"
        if self.p_value >= 0.05:
            return "within the 95% band: an ordinary fluctuation, nothing to investigate"
        strength = "far outside the 99% band" if self.p_value < 0.01 else "outside the 95% band"
        return f"{strength} ({side} expectation): investigate"

    def to_json(self) -> dict[str, Any]:
        """The document ``cbj hold --format json`` prints."""
        return {
            "rules": self.rules.to_json(),
            "strategy": self.strategy,
            "rounds": self.rounds,
            "wagered": exact_json(self.wagered),
            "observed": {
                "casino_win": exact_json(self.observed_win),
                "hold": float_json(float(self.observed_hold)),
            },
            "expected": {
                "casino_win": exact_json(self.expected_win),
                "hold": float_json(float(self.expected_hold)),
            },
            "standard_deviation": float_json(self.standard_deviation),
            "p_value": float_json(self.p_value),
            "error_bound": self.error_bound,
            "method": self.method,
            "normal_p_value": float_json(self.normal_p_value),
            "bands": [b.to_json() for b in self.bands],
            "verdict": self.verdict,
        }
