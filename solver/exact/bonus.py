"""The mandatory Bonus wager (rule clause 4): outcomes, exact return table and moments.

Combinations count ordered pairs of physical cards (player's card, Bonus card) dealt
from the shoe, so the probabilities are exact integers over ``N * (N - 1)``.  Any list of
tiers (:class:`solver.model.paytable.Paytable`) is counted the same way: each pair of
ranks, suited or not, reaches one outcome, the first tier that holds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.model.cards import RANKS, SUITS, Card, Shoe
from solver.model.errors import ShoeError
from solver.model.numbers import exact_json, float_json
from solver.model.outcomes import as_outcome, bonus_pay
from solver.model.paytable import LOSE, Paytable, tier_classes
from solver.model.rules import Rules

if TYPE_CHECKING:
    import sympy


#: Ordered-pair counts keyed by (player card value, Bonus card value), then by outcome.
ValuePairCounts = dict[tuple[int, int], dict[str, int]]


def combinations_by_values(shoe: Shoe, paytable: Paytable | None = None) -> ValuePairCounts:
    """Count ordered card pairs from ``shoe`` by both cards' blackjack values and outcome.

    The outcomes are ``paytable``'s (clause 4's three tiers when not given), best tier
    first, then lose.  The main game sees values and the Bonus wager sees ranks and
    suits; this joint count is what ties the two wagers of a round together.
    """
    if not shoe.suits_known:
        raise ShoeError(
            "the Bonus wager depends on suits: give every removed card with its suit, e.g. Ks"
        )
    paytable = paytable or Paytable()
    outcomes = [as_outcome(o) for o in paytable.outcomes]
    classes = tier_classes(paytable.tiers)
    ranks = shoe.rank_counts()
    suits: list[list[int]] | None = None
    table: ValuePairCounts = {}
    for i, first in enumerate(RANKS):
        for j, second in enumerate(RANKS):
            cell = table.setdefault((first.points, second.points), dict.fromkeys(outcomes, 0))
            same = int(i == j)  # a card cannot pair with itself
            pairs = ranks[i] * (ranks[j] - same)
            suited_kind, unsuited_kind = classes[i, j, True], classes[i, j, False]
            if suited_kind == unsuited_kind:  # the suits settle nothing here
                cell[as_outcome(suited_kind)] += pairs
                continue
            if suits is None:
                suits = [[shoe.count(rank, suit) for suit in SUITS] for rank in RANKS]
            suited = sum(a * (b - same) for a, b in zip(suits[i], suits[j], strict=True))
            cell[as_outcome(suited_kind)] += suited
            cell[as_outcome(unsuited_kind)] += pairs - suited
    return table


def bonus_combinations(
    shoe: Shoe, paytable: Paytable | None = None, pairs: ValuePairCounts | None = None
) -> dict[str, int]:
    """Count ordered pairs (player card, Bonus card) from ``shoe`` by outcome.

    ``pairs``, when given, is ``combinations_by_values(shoe, paytable)``, counted already.
    """
    outcomes = (paytable or Paytable()).outcomes
    totals = {as_outcome(o): 0 for o in outcomes}
    if pairs is None:
        pairs = combinations_by_values(shoe, paytable)
    for cell in pairs.values():
        for outcome, n in cell.items():
            totals[outcome] += n
    return totals


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


@dataclass(frozen=True, slots=True)
class BonusAnalysis:
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
            "hit_frequency": exact_json(self.hit_frequency),
            "variance": exact_json(self.variance),
            "standard_deviation": float_json(self.standard_deviation),
        }


def analyse_bonus(
    rules: Rules | None = None,
    removed: Iterable[Card] = (),
    pairs: ValuePairCounts | None = None,
) -> BonusAnalysis:
    """Exact return table of the Bonus wager from a full shoe less ``removed`` cards.

    ``pairs``, when given, is that shoe's :func:`combinations_by_values`, counted already
    (a game counts them once for the Bonus wager and the round).

    >>> analyse_bonus().expected_value
    Fraction(-45, 311)
    """
    rules = rules or Rules()
    removed = tuple(removed)
    shoe = Shoe.full(rules.decks).remove(removed)
    if shoe.total < 2:
        raise ShoeError(f"a shoe of {shoe.total} card(s) cannot deal the player and Bonus cards")
    counts = bonus_combinations(shoe, rules.paytable, pairs)
    total = shoe.total * (shoe.total - 1)
    lines = tuple(
        BonusLine(o, bonus_pay(rules.paytable, o), n, Fraction(n, total)) for o, n in counts.items()
    )
    return BonusAnalysis(rules, removed, lines)


def pay_symbols(paytable: Paytable) -> dict[str, sympy.Symbol]:
    """The sympy symbol of each tier's pay: ``S``, ``R``, ``A`` for clause 4's three tiers."""
    import sympy  # slow to load: only the symbolic forms need it

    if paytable.standard:
        return {t.name: sympy.Symbol(t.name[0].upper()) for t in paytable.tiers}
    return {t.name: sympy.Symbol(t.name) for t in paytable.tiers}


@dataclass(frozen=True, slots=True)
class BonusResult:
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
