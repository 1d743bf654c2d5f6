"""Optimal betting by true count: the Kelly ramp and the figures a counter is judged by."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from solver.model.counts import Tags
from solver.model.numbers import float_json
from solver.model.rules import Rules
from solver.results.frames import Tabular


def _optional(value: float | None) -> dict[str, Any] | None:
    return None if value is None else float_json(value)


@dataclass(frozen=True, slots=True)
class CountBin:
    """The rounds whose true count falls in ``[low, low + 1)`` (the ends take the rest):
    their share, the round's mean EV and variance per main unit, the bet in units, and the
    EV the fitted line gives the bin (which sets the bet)."""

    low: int
    share: float
    mean: float
    variance: float
    units: int
    fitted: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The bin as one entry of ``ramp``."""
        return {
            "true_count": self.low,
            "share": float_json(self.share),
            "ev": float_json(self.mean),
            "fitted_ev": float_json(self.fitted),
            "variance": float_json(self.variance),
            "units": self.units,
        }


@dataclass(frozen=True, slots=True, repr=False)
class BetResult(Tabular):
    """``cbj bet``: the growth-optimal ramp within a spread, and what it wins.

    Per round (in main units): ``win`` the mean result, ``sd`` its standard deviation.
    DI is ``1000 * win / sd``, SCORE its square (the win per 100 rounds of a bankroll of
    10,000 units bet at full Kelly), N0 ``(sd / win) ** 2`` rounds; ``bankroll`` the units
    for a risk of ruin of ``target_ruin`` by the diffusion formula
    ``-sd**2 * ln(target) / (2 * win)``.
    """

    rules: Rules
    system: str
    tags: Tags
    samples: int
    penetration: float
    spread: tuple[int, int]
    kelly_bankroll: float
    kelly_fraction: float
    rounds_per_hour: int
    target_ruin: float
    bins: tuple[CountBin, ...]
    win: float
    sd: float
    win_se: float
    """Standard error of ``win`` from the sample of dealt shoes."""
    play: str = "chart"
    """How the counter plays its hands: ``chart`` or ``chart and index plays``."""

    @property
    def di(self) -> float:
        """Desirability index: 1000 times the win over the SD per round."""
        return 1000 * self.win / self.sd if self.sd > 0 else 0.0

    @property
    def score(self) -> float:
        """SCORE: the win per 100 rounds of a 10,000-unit bankroll at full Kelly (DI squared)."""
        return self.di**2 if self.win > 0 else 0.0

    @property
    def n0(self) -> float | None:
        """Rounds for the expected win to equal one SD (``None`` without an edge)."""
        return (self.sd / self.win) ** 2 if self.win > 0 else None

    @property
    def bankroll(self) -> float | None:
        """Units for a risk of ruin of ``target_ruin`` (``None`` without an edge)."""
        return -(self.sd**2) * math.log(self.target_ruin) / (2 * self.win) if self.win > 0 else None

    @property
    def ramp(self) -> tuple[tuple[float, int], ...]:
        """The ramp as the simulated counter takes it: ``(true count, units)`` at each whole
        true count where the bet changes (the spread's smallest bet below the first)."""
        steps, last = [], self.spread[0]
        for b in self.bins:
            if b.units != last:
                steps.append((float(b.low), b.units))
                last = b.units
        return tuple(steps)

    @property
    def ramp_text(self) -> str:
        """The ramp as ``cbj simulate --ramp`` takes it: each step where the bet changes."""
        steps = ",".join(f"{t:g}:{u}" for t, u in self.ramp)
        return steps or f"{self.bins[0].low}:{self.spread[0]}"

    def to_json(self) -> dict[str, Any]:
        """The document ``cbj bet --format json`` prints."""
        return {
            "rules": self.rules.to_json(),
            "count": {"name": self.system, "tags": dict(self.tags)},
            "samples": self.samples,
            "penetration": self.penetration,
            "spread": list(self.spread),
            "play": self.play,
            "kelly": {"bankroll": self.kelly_bankroll, "fraction": self.kelly_fraction},
            "ramp": [b.to_json() for b in self.bins],
            "ramp_text": self.ramp_text,
            "win_per_round": float_json(self.win),
            "win_per_100_rounds": {
                "float": 100 * self.win,
                "interval_95": [
                    100 * (self.win - 1.96 * self.win_se),
                    100 * (self.win + 1.96 * self.win_se),
                ],
            },
            "win_per_hour": float_json(self.win * self.rounds_per_hour),
            "rounds_per_hour": self.rounds_per_hour,
            "sd_per_round": float_json(self.sd),
            "di": float_json(self.di),
            "score": float_json(self.score),
            "n0": _optional(self.n0),
            "target_ruin": self.target_ruin,
            "bankroll_for_target_ruin_by_diffusion": _optional(self.bankroll),
        }
