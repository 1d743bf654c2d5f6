"""Index plays: the true count at which each chart decision flips, and what each is worth."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from solver.model.cards import value_label
from solver.model.cells import cell_name
from solver.model.counts import Tags
from solver.model.errors import CountError
from solver.model.numbers import float_json
from solver.model.rules import Rules
from solver.results.dealt_shoes import Decision, decision_name
from solver.results.frames import Tabular

#: The largest true count, in size, at which an index is played (beyond it: never).
PLAYED_WITHIN = 20.0


def _optional(value: float | None) -> dict[str, Any] | None:
    return None if value is None else float_json(value)


@dataclass(frozen=True, slots=True)
class IndexRule:
    """One index play: in the chart cell ``(soft, total)`` against a Bonus card of value
    ``bonus``, hit (``hit``) or stand when the true count is at least ``index``
    (``at_least``) or at most ``index``; elsewhere the counter plays its strategy.

    >>> IndexRule(False, 16, 10, 0.5, True, False).describe()
    'hard 16 v 10: stand at true count 0.5 and above'
    """

    soft: bool
    total: int
    bonus: int
    index: float
    at_least: bool
    hit: bool

    def __post_init__(self) -> None:
        if not (4 <= self.total <= 20 and 1 <= self.bonus <= 10 and math.isfinite(self.index)):
            raise CountError(f"index play {self!r} names no chart cell and true count")

    def describe(self) -> str:
        """The play in words."""
        cell = f"{cell_name((self.soft, self.total))} v {value_label(self.bonus)}"
        side = "and above" if self.at_least else "and below"
        return f"{cell}: {'hit' if self.hit else 'stand'} at true count {self.index:g} {side}"

    def to_json(self) -> dict[str, object]:
        """The play as plain JSON values."""
        return {
            "soft": self.soft,
            "total": self.total,
            "bonus": self.bonus,
            "index": self.index,
            "side": ">=" if self.at_least else "<=",
            "play": "hit" if self.hit else "stand",
        }


@dataclass(frozen=True, slots=True)
class IndexPlay:
    """One decision's index: deviate from the chart when the true count passes ``index``.

    ``at_least`` says which side: deviate at true counts of ``index`` and above (else at
    ``index`` and below).  ``low``/``high`` is the 95% bootstrap interval of the index;
    ``linear`` the index the decision's effects of removal predict.  Values are main-wager
    EV gained per 100 rounds: by playing the index, and by deviating exactly when it pays.
    """

    decision: Decision
    chart_hits: bool
    index: float | None
    at_least: bool
    low: float | None
    high: float | None
    linear: float | None
    value: float
    perfect: float

    @property
    def played(self) -> bool:
        """Whether a counter plays this index: it gains in the sample and lies within
        :data:`PLAYED_WITHIN` true counts."""
        return self.index is not None and abs(self.index) <= PLAYED_WITHIN and self.value > 0

    def rule(self) -> IndexRule:
        """The play as the simulated counter takes it."""
        if self.index is None:
            raise ValueError(f"{self.name} has no index")
        (soft, total), bonus = self.decision
        return IndexRule(
            soft, total, bonus, round(self.index, 1), self.at_least, not self.chart_hits
        )

    @property
    def name(self) -> str:
        """The decision in words, e.g. ``hard 16 v 10``."""
        return decision_name(self.decision)

    @property
    def deviation(self) -> str:
        """What the index plays instead of the chart."""
        return "stand" if self.chart_hits else "hit"

    def to_json(self) -> dict[str, Any]:
        """The index as one entry of ``indices``."""
        (soft, total), bonus = self.decision
        return {
            "decision": self.name,
            "cell": {"soft": soft, "total": total, "bonus": bonus},
            "chart": "hit" if self.chart_hits else "stand",
            "deviation": self.deviation,
            "index": _optional(self.index),
            "side": ">=" if self.at_least else "<=",
            "interval_95": {"low": _optional(self.low), "high": _optional(self.high)},
            "linear_estimate": _optional(self.linear),
            "value_per_100_rounds": float_json(self.value),
            "perfect_value_per_100_rounds": float_json(self.perfect),
        }


@dataclass(frozen=True, slots=True, repr=False)
class IndicesResult(Tabular):
    """``cbj indices``: the index of each followed decision, ranked by value."""

    rules: Rules
    system: str
    tags: Tags
    samples: int
    seed: int
    penetration: float
    plays: tuple[IndexPlay, ...]
    gain: float
    """Main-wager EV per 100 rounds of playing every played index (:attr:`IndexPlay.played`)
    together, over the chart, in the dealt shoes."""
    gain_se: float
    """Its standard error over the dealt shoes."""

    def rules_played(self) -> tuple[IndexRule, ...]:
        """The played indices, as the simulated counter takes them."""
        return tuple(p.rule() for p in self.plays if p.played)

    @property
    def efficiency(self) -> float | None:
        """Playing efficiency: the indices' value over deviating exactly when it pays."""
        perfect = sum(p.perfect for p in self.plays)
        return None if perfect <= 0 else sum(p.value for p in self.plays) / perfect

    def to_json(self) -> dict[str, Any]:
        """The document ``cbj indices --format json`` prints."""
        return {
            "rules": self.rules.to_json(),
            "count": {"name": self.system, "tags": dict(self.tags)},
            "samples": self.samples,
            "seed": self.seed,
            "penetration": self.penetration,
            "playing_efficiency": _optional(self.efficiency),
            "gain_of_played_indices_per_100_rounds": {
                "float": self.gain,
                "standard_error": self.gain_se,
            },
            "indices": [p.to_json() for p in self.plays],
        }
