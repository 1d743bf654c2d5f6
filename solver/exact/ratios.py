"""How a round's result depends on the Bonus ratio: exact moments, polynomials in the ratio.

A round pays ``M + r B``: the main wager's net ``M`` on one unit and the Bonus wager's net
``B`` on ``r`` units (clause 2: ``r`` at least 1/2).  Play does not depend on ``r``, so the
round's mean and variance are exact polynomials in ``r``::

    EV(r) = E[M] + r E[B]
    Var(r) = Var(M) + 2 r Cov(M, B) + r^2 Var(B)

and the house edge per unit wagered is ``-EV(r) / (1 + r)``.  The five coefficients come
from the exact joint distribution of ``(M, B)`` (:func:`solver.exact.game.round_outcomes`).
The volatility over sessions at a ratio is :mod:`solver.results.volatility`'s.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.exact.game import round_outcomes
from solver.exact.volatility import check_ratio
from solver.model.errors import RulesError
from solver.model.numbers import exact_json
from solver.model.outcomes import bonus_pay, main_payoffs
from solver.model.rules import TABULATED_RATIOS
from solver.results.game import GameResult
from solver.results.volatility import RatioRow


@dataclass(frozen=True, slots=True)
class RoundMoments:
    """Exact first and second moments of the main and Bonus nets of one round."""

    main_mean: Fraction
    bonus_mean: Fraction
    main_variance: Fraction
    bonus_variance: Fraction
    covariance: Fraction

    def expected_value(self, ratio: Fraction) -> Fraction:
        """Expected net result of a round with ``ratio`` units on the Bonus wager."""
        return self.main_mean + ratio * self.bonus_mean

    def variance(self, ratio: Fraction) -> Fraction:
        """Variance of a round's net result with ``ratio`` units on the Bonus wager."""
        return self.main_variance + 2 * ratio * self.covariance + ratio**2 * self.bonus_variance

    def house_edge(self, ratio: Fraction) -> Fraction:
        """Expected loss per unit of the total amount wagered (1 + ``ratio``)."""
        return -self.expected_value(ratio) / (1 + ratio)

    def standard_deviation(self, ratio: Fraction) -> float:
        """Standard deviation of a round's net result."""
        return math.sqrt(self.variance(ratio))

    def to_json(self) -> dict[str, Any]:
        """The coefficients of ``EV(r) = a + b r`` and ``Var(r) = c + d r + e r^2``."""
        return {
            "ev": {"constant": exact_json(self.main_mean), "per_r": exact_json(self.bonus_mean)},
            "variance": {
                "constant": exact_json(self.main_variance),
                "per_r": exact_json(2 * self.covariance),
                "per_r2": exact_json(self.bonus_variance),
            },
        }


def round_moments(game: GameResult[Fraction]) -> RoundMoments:
    """The exact moments of ``game``'s main and Bonus nets (the play ``game`` describes)."""
    if not game.exact:
        raise RulesError("the Bonus ratio functions need an exactly solved game")
    joint = round_outcomes(game)
    main_pay = main_payoffs(game.rules)
    terms = [
        (main_pay[k], bonus_pay(game.rules.paytable, outcome), Fraction(p))
        for (k, outcome), p in joint.items()
    ]
    em = sum((m * p for m, _, p in terms), Fraction(0))
    eb = sum((b * p for _, b, p in terms), Fraction(0))
    emm = sum((m * m * p for m, _, p in terms), Fraction(0))
    ebb = sum((b * b * p for _, b, p in terms), Fraction(0))
    emb = sum((m * b * p for m, b, p in terms), Fraction(0))
    return RoundMoments(em, eb, emm - em**2, ebb - eb**2, emb - em * eb)


def ratio_table(
    moments: RoundMoments, ratios: Iterable[Fraction | int | str] = TABULATED_RATIOS
) -> tuple[RatioRow, ...]:
    """The round's EV, house edge and variance at each Bonus ratio (each at least 1/2)."""
    rows = []
    for given in ratios:
        r = check_ratio(given)
        rows.append(
            RatioRow(r, moments.expected_value(r), moments.house_edge(r), moments.variance(r))
        )
    return tuple(rows)
