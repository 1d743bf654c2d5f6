"""The rule table as types: one field and one keyword option per rule, in its order.

Written from :data:`~solver.model.rule_table.RULE_TABLE` by ``python scripts/rules_code.py``:
do not edit (``tests/test_rule_table.py`` fails when this file differs from what the
script writes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypedDict

from solver.model.checks import RatioLike
from solver.model.paytable import Paytable, PaytableLike
from solver.model.rule_table import RULES_BY_NAME, DealerBonus, DealerNatural, NaturalBeats

__all__ = ["RuleFields", "RuleLists", "RuleValues"]


@dataclass(frozen=True, kw_only=True, slots=True)
class RuleFields:
    """Every rule as a field, with its row's default (``Rules`` checks them)."""

    decks: int = RULES_BY_NAME["decks"].default
    bonus_ratio: Fraction = RULES_BY_NAME["bonus_ratio"].default
    paytable: Paytable = RULES_BY_NAME["paytable"].default
    blackjack_pays: Fraction = RULES_BY_NAME["blackjack_pays"].default
    dealer_stands_on: int = RULES_BY_NAME["dealer_stands_on"].default
    dealer_bonus: DealerBonus = RULES_BY_NAME["dealer_bonus"].default
    dealer_natural: DealerNatural = RULES_BY_NAME["dealer_natural"].default
    natural_beats: NaturalBeats = RULES_BY_NAME["natural_beats"].default


class RuleValues(TypedDict, total=False):
    """Every rule as a keyword option: a value or its text (None: not given); a ratio
    also as its pair ``(p, q)`` and a paytable as its pays ``(S, R, A)`` or by tier
    name (:data:`~solver.model.checks.RatioLike`,
    :data:`~solver.model.paytable.PaytableLike`)."""

    decks: int | str | None
    bonus_ratio: RatioLike | None
    paytable: PaytableLike | None
    blackjack_pays: RatioLike | None
    dealer_stands_on: int | str | None
    dealer_bonus: DealerBonus | str | None
    dealer_natural: DealerNatural | str | None
    natural_beats: NaturalBeats | str | None


class RuleLists(TypedDict, total=False):
    """Every rule as a keyword option of ``variants``: several values (a sequence, or
    text separated by commas) of each rule with common values, one of any other (a
    ratio's pair is one value among several: ``blackjack_pays=[(3, 2), (6, 5)]``)."""

    decks: Sequence[int | str] | str | None
    bonus_ratio: RatioLike | None
    paytable: PaytableLike | None
    blackjack_pays: Sequence[RatioLike] | str | None
    dealer_stands_on: Sequence[int | str] | str | None
    dealer_bonus: DealerBonus | str | None
    dealer_natural: Sequence[DealerNatural | str] | str | None
    natural_beats: NaturalBeats | str | None
