"""The Bonus wager's exact return table and its moments (rule clause 4), as a result.

:func:`solver.exact.bonus.analyse_bonus` counts the ordered pairs of physical cards that
reach each tier; :class:`BonusAnalysis` holds the table it finds and derives every
figure of ``cbj bonus`` from it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.model.cards import Card
from solver.model.numbers import exact_json, float_json
from solver.model.paytable import LOSE, Paytable
from solver.model.rules import Rules
from solver.results.frames import Tabular

if TYPE_CHECKING:
    import sympy


@dataclass(frozen=True, slots=True)
class BonusLine:
    """One row of the Bonus wager's return table."""

    outcome: str
    """The tier reached (its name), or ``lose``."""
    pays: Fraction
    combinations: int
    probability: Fraction

    @property
    def return_(self) -> Fraction:
        """Contribution of this row to the expected value (pays times probability)."""
        return self.pays * self.probability


@dataclass(frozen=True, slots=True, repr=False)
class BonusAnalysis(Tabular):
    """Exact analysis of one unit on the Bonus wager under ``rules`` from a given shoe."""

    rules: Rules
    removed: tuple[Card, ...]
    lines: tuple[BonusLine, ...]

    @property
    def total_combinations(self) -> int:
        """All ordered card pairs the player's card and the Bonus card can be."""
        return sum(line.combinations for line in self.lines)

    @property
    def expected_value(self) -> Fraction:
        """Expected net result per unit wagered."""
        return sum((line.return_ for line in self.lines), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        """Expected loss per unit wagered."""
        return -self.expected_value

    @property
    def return_to_player(self) -> Fraction:
        """What the wager pays back per unit staked on average: 1 plus its EV."""
        return 1 + self.expected_value

    @property
    def hit_frequency(self) -> Fraction:
        """Probability that the wager wins (a pay above zero)."""
        return sum((ln.probability for ln in self.lines if ln.pays > 0), Fraction(0))

    @property
    def variance(self) -> Fraction:
        """Variance of the net result per unit wagered."""
        second = sum((ln.pays**2 * ln.probability for ln in self.lines), Fraction(0))
        return second - self.expected_value**2

    @property
    def standard_deviation(self) -> float:
        """Standard deviation per unit wagered."""
        return math.sqrt(self.variance)

    def symbolic_expected_value(self) -> sympy.Expr:
        """Expected value as a sympy expression in the pays: ``S``, ``R``, ``A`` for clause 4's
        three tiers, else one symbol per tier, named as the tier is."""
        import sympy  # slow to load: only the symbolic forms need it

        symbols = pay_symbols(self.rules.paytable)
        total = self.total_combinations
        return sympy.expand(
            sum(
                sympy.Rational(ln.combinations, total)
                * (sympy.Integer(-1) if ln.outcome == LOSE else symbols[ln.outcome])
                for ln in self.lines
            )
        )

    def to_json(self) -> dict[str, Any]:
        """The analysis as a JSON document (``cbj bonus --format json``)."""
        rules = self.rules.to_json()
        return {
            "rules": rules,
            "paytable": rules["paytable"],
            "removed": [str(c) for c in self.removed],
            "outcomes": [
                {
                    "outcome": str(line.outcome),
                    "pays": exact_json(line.pays),
                    "combinations": exact_json(line.combinations),
                    "probability": exact_json(line.probability),
                    "return": exact_json(line.return_),
                }
                for line in self.lines
            ],
            "expected_value": exact_json(self.expected_value),
            "house_edge": exact_json(self.house_edge),
            "rtp": exact_json(self.return_to_player),
            "hit_frequency": exact_json(self.hit_frequency),
            "variance": exact_json(self.variance),
            "standard_deviation": float_json(self.standard_deviation),
        }


def pay_symbols(paytable: Paytable) -> dict[str, sympy.Symbol]:
    """The sympy symbol of each tier's pay: ``S``, ``R``, ``A`` for clause 4's three tiers."""
    import sympy  # slow to load: only the symbolic forms need it

    if paytable.standard:
        return {t.name: sympy.Symbol(t.name[0].upper()) for t in paytable.tiers}
    return {t.name: sympy.Symbol(t.name) for t in paytable.tiers}


@dataclass(frozen=True, slots=True, repr=False)
class BonusResult(Tabular):
    """The Bonus wager's exact analysis, with its EV as an expression of the pays if asked."""

    analysis: BonusAnalysis
    symbolic_expected_value: str | None = None

    @property
    def rules(self) -> Rules:
        """The rules the analysis was computed under."""
        return self.analysis.rules

    @property
    def expected_value(self) -> Fraction:
        """Expected net result per unit on the Bonus wager."""
        return self.analysis.expected_value

    def to_json(self) -> dict[str, Any]:
        """The analysis as ``cbj bonus --format json`` prints it."""
        document = self.analysis.to_json()
        if self.symbolic_expected_value is not None:
            document["symbolic_expected_value"] = self.symbolic_expected_value
        return document
