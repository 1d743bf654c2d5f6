"""The rules as keyword options, the cards as text, and ``cbj rules``: what every command takes.

This module imports nothing heavy, so ``cbj rules`` starts quickly.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, TypedDict, Unpack

from solver.model.cards import Card, parse_cards
from solver.model.checks import checked
from solver.model.errors import RulesError
from solver.model.rules import (
    RULE_ALIASES,
    DealerBonus,
    DealerNatural,
    NaturalBeats,
    Paytable,
    RulePreset,
    Rules,
    preset_named,
)

#: Cards as text (``"As 10h K"``) or as values.
Cards = str | Iterable[Card | str]


class RuleOptions(TypedDict, total=False):
    """The rules as keyword options, named like the CLI's; text or values.

    One key per row of the rule table (a test holds them together), and the old alias.
    ``preset`` names a set of rules to start from (``casino-edition``, ``vegas-21``);
    the other options override it.
    """

    preset: str | None
    decks: int | str | None
    dealer_stands_on: int | str | None
    dealer_bonus: DealerBonus | str | None
    blackjack_pays: Fraction | int | float | str | None
    dealer_natural: DealerNatural | str | None
    natural_beats: NaturalBeats | str | None
    natural_beats_multi_card_21: bool | None
    paytable: Paytable | str | None
    bonus_ratio: Fraction | int | float | str | None


def make_rules(rules: Rules | None, options: RuleOptions) -> Rules:
    """``rules`` with any options given applied on top (the preset, or the defaults, when
    ``rules`` is None).

    >>> make_rules(None, {"preset": "vegas-21", "decks": "2"}).dealer_natural.value
    'bonus_card'
    """
    given = Rules.from_options(**options)
    if rules is None:
        return given
    if options.get("preset") is not None:
        raise RulesError("give either rules= or a preset, not both")
    changed = {name: getattr(given, name) for name, value in options.items() if value is not None}
    for alias, name in RULE_ALIASES.items():  # an alias is folded into the rule it sets
        if alias in changed:
            del changed[alias]
            changed[name] = getattr(given, name)
    return replace(rules, **changed)


def given_cards(cards: Cards) -> tuple[Card, ...]:
    """Cards given as text or as values, parsed."""
    if isinstance(cards, str):
        return parse_cards(cards)
    return tuple(c if isinstance(c, Card) else Card.parse(c) for c in cards)


@dataclass(frozen=True, slots=True)
class RulesResult:
    """The rules in force (``cbj rules``), and the preset they started from if one was named."""

    rules: Rules
    preset: RulePreset | None = None

    def to_json(self) -> dict[str, Any]:
        """The rules as ``cbj rules --format json`` prints them (with the preset's sources)."""
        document: dict[str, Any] = {"rules": self.rules.to_json()}
        if self.preset is not None:
            document["preset"] = self.preset.to_json()
        return document


@checked
def rules(*, rules: Rules | None = None, **options: Unpack[RuleOptions]) -> RulesResult:
    """The rules in force, each validated; with ``preset=``, which rules it sets and why.

    >>> rules(decks=1).rules.decks
    1
    >>> rules(preset="vegas-21").preset.rules[-1].name
    'natural_beats'
    """
    named = options.get("preset")
    return RulesResult(make_rules(rules, options), None if named is None else preset_named(named))
