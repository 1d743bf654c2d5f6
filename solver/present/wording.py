"""Words for people: the rules in force in plain language, for charts and reports alike.

Every word comes from the rule table (:data:`~solver.model.rule_table.RULE_TABLE`): each
rule's label, its setting in plain words, its clause of the rules sentence and its short
phrase for titles.

>>> differences_in_words(Rules(decks=1), Rules())
'1 deck'
"""

from __future__ import annotations

from solver.model.rule_table import RULE_TABLE, to_one
from solver.model.rules import Rules

__all__ = ["differences_in_words", "rule_lines", "rules_sentence", "to_one"]


def rule_lines(rules: Rules) -> tuple[tuple[str, str], ...]:
    """Every rule in force in plain words, as (rule, setting) pairs."""
    return tuple((rule.label, rule.words(getattr(rules, rule.name))) for rule in RULE_TABLE)


def rules_sentence(rules: Rules) -> str:
    """Every rule in force in one line of plain words.

    >>> rules_sentence(Rules())[:43]
    'Rules: 6 decks; Bonus wager 1/2 of the main'
    """
    clauses = (rule.sentence(getattr(rules, rule.name)) for rule in RULE_TABLE)
    return f"Rules: {'; '.join(clauses)}."


def differences_in_words(rules: Rules, base: Rules, same: str = "rules in force") -> str:
    """The rules in which ``rules`` differs from ``base``, in plain words (``same`` if none).

    >>> differences_in_words(Rules(dealer_stands_on=17), Rules(), same="default rules")
    'dealer stands on 17'
    """
    changed = rules.changed(base)
    return "; ".join(rule.phrase(getattr(rules, rule.name)) for rule in changed) or same
