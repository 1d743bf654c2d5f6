"""The rules as keyword options, the cards as text, and ``cbj rules``: what every command takes.

This module imports nothing heavy, so ``cbj rules`` starts quickly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypedDict, Unpack

from solver.model.cards import Card, parse_cards
from solver.model.checks import checked
from solver.model.errors import RulesError
from solver.model.rule_fields import RuleLists, RuleValues
from solver.model.rules import RULE_ALIASES, RulePreset, Rules, preset_named
from solver.results.frames import Shown

#: Cards as text (``"As 10h K"``) or as values.
Cards = str | Iterable[Card | str]


class _Start(TypedDict, total=False):
    """The options beside the rules': the preset they start from, and the old alias."""

    preset: str | None
    natural_beats_multi_card_21: bool | None


class RuleOptions(RuleValues, _Start, total=False):
    """The rules as keyword options, named like the CLI's; text or values.

    One key per row of the rule table (:class:`~solver.model.rule_fields.RuleValues`,
    written from it), and the old alias.  ``preset`` names a set of rules to start from
    (``casino-edition``, ``vegas-21``); the other options override it.
    """


class VariantOptions(RuleLists, _Start, total=False):
    """The rules as ``variants``' keyword options: a rule with common values in the table
    takes several (:class:`~solver.model.rule_fields.RuleLists`), any other one value."""


def make_rules(rules: Rules | None, options: Mapping[str, Any]) -> Rules:
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
    return parse_cards(cards)


@dataclass(frozen=True, slots=True, repr=False)
class RulesResult(Shown):
    """The rules in force (``cbj rules``), and the preset they started from if one was named.

    Its ``repr`` is a summary, as every result's (:class:`~solver.results.frames.Shown`).
    """

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
