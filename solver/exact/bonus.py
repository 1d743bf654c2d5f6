"""The mandatory Bonus wager (rule clause 4): outcomes, exact return table and moments.

Combinations count ordered pairs of physical cards (player's card, Bonus card) dealt
from the shoe, so the probabilities are exact integers over ``N * (N - 1)``.  Any list of
tiers (:class:`solver.model.paytable.Paytable`) is counted the same way: each pair of
ranks, suited or not, reaches one outcome, the first tier that holds.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from solver.model.cards import RANKS, Card, Shoe
from solver.model.errors import ShoeError
from solver.model.outcomes import as_outcome, bonus_pay
from solver.model.paytable import Paytable, tier_classes
from solver.model.rules import Rules
from solver.results.bonus import BonusAnalysis, BonusLine

if TYPE_CHECKING:
    pass


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
    outcomes, plan = _pair_plan(paytable or Paytable())
    ranks = shoe.rank_counts()
    counts = shoe.counts  # rank-major: a rank's four suits side by side
    table: ValuePairCounts = {}
    for values, i, j, suited_kind, unsuited_kind in plan:
        cell = table.get(values)
        if cell is None:
            cell = table[values] = dict.fromkeys(outcomes, 0)
        same = int(i == j)  # a card cannot pair with itself
        pairs = ranks[i] * (ranks[j] - same)
        if suited_kind == unsuited_kind:  # the suits settle nothing here
            cell[suited_kind] += pairs
            continue
        suits_i, suits_j = counts[4 * i : 4 * i + 4], counts[4 * j : 4 * j + 4]
        suited = sum(a * (b - same) for a, b in zip(suits_i, suits_j, strict=True))
        cell[suited_kind] += suited
        cell[unsuited_kind] += pairs - suited
    return table


@lru_cache(maxsize=64)
def _pair_plan(
    paytable: Paytable,
) -> tuple[tuple[str, ...], tuple[tuple[tuple[int, int], int, int, str, str], ...]]:
    """``paytable``'s outcomes, and for each ordered pair of ranks (by index) their values
    and the outcomes of the pair suited and unsuited: what :func:`combinations_by_values`
    reads of the paytable, kept per paytable."""
    classes = tier_classes(paytable.tiers)
    plan = tuple(
        (
            (first.points, second.points),
            i,
            j,
            as_outcome(classes[i, j, True]),
            as_outcome(classes[i, j, False]),
        )
        for i, first in enumerate(RANKS)
        for j, second in enumerate(RANKS)
    )
    return tuple(as_outcome(o) for o in paytable.outcomes), plan


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
