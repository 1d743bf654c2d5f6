"""The most a player could win: the perfect-information bound and the Bonus wager's attack."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.model.numbers import exact_json, float_json
from solver.model.rules import Rules
from solver.results.frames import Tabular


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean per 100 rounds over dealt shoes, with its 95% interval (mean +- 1.96 SE)."""

    mean: float
    se: float

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval."""
        return (self.mean - 1.96 * self.se, self.mean + 1.96 * self.se)

    def to_json(self) -> dict[str, Any]:
        """The mean and its interval."""
        low, high = self.interval
        return {"float": self.mean, "interval_95": [low, high]}


@dataclass(frozen=True, slots=True)
class BoundRow:
    """The perfect-information player at one penetration."""

    penetration: float
    states: int
    positive_share: float
    """Share of rounds whose round EV (the Bonus at its best size) is above zero."""
    win: Estimate
    """Win per 100 rounds, in main units."""

    def to_json(self) -> dict[str, Any]:
        """One entry of ``bound``."""
        return {
            "penetration": self.penetration,
            "states": self.states,
            "positive_share": float_json(self.positive_share),
            "win_per_100_rounds": self.win.to_json(),
        }


@dataclass(frozen=True, slots=True)
class BonusPlayer:
    """One way of raising the Bonus wager (Jacobson's side-bet format).

    ``trigger`` says when the player raises the Bonus from the rules' ratio to
    ``multiple`` times the main wager; ``share`` is the share of rounds raised, ``edge``
    the Bonus wager's mean EV per Bonus unit when raised, ``win`` the gain per 100 rounds
    over keeping the Bonus at the rules' ratio, in main units.
    """

    name: str
    trigger: str
    share: float
    edge: float | None
    win: Estimate

    def to_json(self) -> dict[str, Any]:
        """One entry of ``bonus_attack.players``."""
        return {
            "name": self.name,
            "trigger": self.trigger,
            "share_of_rounds_raised": float_json(self.share),
            "edge_when_raised": None if self.edge is None else float_json(self.edge),
            "win_per_100_rounds": self.win.to_json(),
        }


@dataclass(frozen=True, slots=True, repr=False)
class AttackResult(Tabular):
    """``cbj attack``: the perfect-information bound and the Bonus wager's attack."""

    rules: Rules
    samples: int
    seed: int
    spread: tuple[int, int]
    bonus_multiple: Fraction
    bound: tuple[BoundRow, ...]
    bonus_mean: float
    bonus_percentiles: dict[int, float]
    bonus_positive_share: float
    tracker_correlation: float | None
    players: tuple[BonusPlayer, ...]

    def to_json(self) -> dict[str, Any]:
        """The document ``cbj attack --format json`` prints."""
        return {
            "rules": self.rules.to_json(),
            "samples": self.samples,
            "seed": self.seed,
            "spread": list(self.spread),
            "bonus_multiple": exact_json(self.bonus_multiple),
            "bound": [row.to_json() for row in self.bound],
            "bonus_attack": {
                "bonus_ev": {
                    "mean": float_json(self.bonus_mean),
                    "percentiles": {
                        str(p): float_json(v) for p, v in self.bonus_percentiles.items()
                    },
                    "positive_share": float_json(self.bonus_positive_share),
                },
                "tracker_correlation": (
                    None
                    if self.tracker_correlation is None
                    else float_json(self.tracker_correlation)
                ),
                "players": [p.to_json() for p in self.players],
            },
        }
