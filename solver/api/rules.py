"""The rules as the API's keyword options: the one group of options every command takes.

One key per row of the rule table (:class:`~solver.model.rule_fields.RuleValues`, written
from it), the preset they start from and the old alias.  This module imports nothing
heavy, so ``cbj rules`` starts quickly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypedDict

from solver.model.cards import Card
from solver.model.checks import shown
from solver.model.errors import RulesError
from solver.model.rule_fields import RuleLists, RuleValues
from solver.model.rules import RULE_ALIASES, RULE_TABLE, Rules

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


def _listed(values: Sequence[Any] | str, parse: Callable[[str], Any], what: str) -> tuple[Any, ...]:
    """A comma-separated text or a sequence of values, each parsed."""
    if not isinstance(values, str):
        if isinstance(values, bytes | bytearray | Mapping) or not isinstance(values, Sequence):
            raise TypeError(f"{what} must be str or a sequence, not {type(values).__name__}")
        return tuple(parse(str(v)) if isinstance(v, str) else v for v in values)
    if not values.strip():
        return ()
    items = [item.strip() for item in values.split(",")]
    if not all(items):
        raise RulesError(f"{what} {shown(values)} has an empty item: separate values with commas")
    return tuple(parse(item) for item in items)


def variant_rules(
    rules: Rules | None, options: Mapping[str, Any]
) -> tuple[Rules, dict[str, tuple[Any, ...]]]:
    """``variants``' options read: the base rules, and the values listed of each rule with
    common values in the rule table (a sequence, or text separated by commas).

    >>> variant_rules(None, {"decks": "1,2"})[1]
    {'decks': (1, 2)}
    """
    given: dict[str, Any] = dict(options)
    listed = {
        rule.name: _listed(() if (v := given.pop(rule.name)) is None else v, rule.parse, rule.what)
        for rule in RULE_TABLE
        if rule.common and rule.name in given
    }
    return make_rules(rules, given), listed
