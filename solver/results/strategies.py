"""Realistic play's result: the exact figures of each policy beside optimal play.

:mod:`solver.exact.strategies` plays each policy exactly (``cbj strategies``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.model.errors import StrategyError
from solver.model.numbers import exact_json
from solver.model.rules import Rules
from solver.results.frames import Tabular
from solver.results.game import GameResult
from solver.results.volatility import RatioRow, Volatility


@dataclass(frozen=True, slots=True)
class PolicyResult:
    """One policy's exact main wager and round, as a :class:`GameResult` of its own play.

    ``game.solutions`` is empty: the starts and round lines are the policy's, not optimal.
    """

    name: str
    game: GameResult[Fraction]

    @property
    def main_ev(self) -> Fraction:
        """Expected net result of one unit on the main wager."""
        return Fraction(self.game.expected_value)

    @property
    def round_ev(self) -> Fraction:
        """Expected net result of a round (main wager 1, Bonus wager ``bonus_ratio``)."""
        return Fraction(self.game.round_expected_value)

    @property
    def round_house_edge(self) -> Fraction:
        """Expected loss per unit of the total amount wagered in a round."""
        return Fraction(self.game.round_house_edge)


@dataclass(frozen=True, slots=True, repr=False)
class StrategiesResult(Tabular):
    """Exact figures of every policy asked for, and the optimum they are compared with."""

    rules: Rules
    optimal_main_ev: Fraction
    policies: tuple[PolicyResult, ...]
    ratios: tuple[RatioRow, ...] = ()
    """Optimal play's round at other Bonus ratios, when asked for."""
    volatility: Volatility | None = None
    """Optimal play's volatility at the rules' Bonus ratio, when asked for."""

    def cost(self, policy: PolicyResult) -> Fraction:
        """What the policy gives up per round against optimal play (main and round alike)."""
        return self.optimal_main_ev - policy.main_ev

    def by_name(self, name: str) -> PolicyResult:
        """The policy called ``name``; :class:`StrategyError` if it was not evaluated."""
        for policy in self.policies:
            if policy.name == name:
                return policy
        raise StrategyError(f"strategy {name!r} was not evaluated")

    def to_json(self) -> dict[str, Any]:
        """``{"rules": ..., "strategies": [{name, main_ev, round_ev, round_house_edge, cost}]}``.

        With ``bonus_ratios`` and ``volatility`` too when they were computed.
        """
        document: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "strategies": [
                {
                    "name": p.name,
                    "main_ev": exact_json(p.main_ev),
                    "round_ev": exact_json(p.round_ev),
                    "round_house_edge": exact_json(p.round_house_edge),
                    "cost": exact_json(self.cost(p)),
                }
                for p in self.policies
            ],
        }
        if self.ratios:
            document["bonus_ratios"] = [row.to_json() for row in self.ratios]
        if self.volatility is not None:
            document["volatility"] = self.volatility.to_json()
        return document
