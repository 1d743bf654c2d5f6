"""Words for people: the rules in force in plain language, for charts and reports alike.

Every word comes from the rule table (:data:`~solver.model.rule_table.RULE_TABLE`): each
rule's label, its setting in plain words, its clause of the rules sentence and its short
phrase for titles.

>>> differences_in_words(Rules(decks=1), Rules())
'1 deck'
"""

from __future__ import annotations

from fractions import Fraction

from solver.model.paytable import Paytable
from solver.model.rule_table import RULE_TABLE, Rule, to_one
from solver.model.rules import Rules
from solver.present.formats import rule_cell

__all__ = [
    "RULES_DOC_BEGIN",
    "RULES_DOC_END",
    "differences_in_words",
    "rule_lines",
    "rules_doc_table",
    "rules_sentence",
    "to_one",
    "with_rules_doc_table",
]


def rule_lines(rules: Rules) -> tuple[tuple[str, str], ...]:
    """Every rule in force in plain words, as (rule, setting) pairs."""
    return tuple((rule.label, rule.words(getattr(rules, rule.name))) for rule in RULE_TABLE)


def rules_sentence(rules: Rules) -> str:
    """Every rule in force in one line of plain words.

    >>> rules_sentence(Rules())[:43]
    'Rules: 6 decks; Bonus wager 1/2 of the main'
    """
    clauses = (rule.sentence(getattr(rules, rule.name)) for rule in RULE_TABLE)
    return f"Rules: {'; '.join(clause for clause in clauses if clause)}."


def differences_in_words(rules: Rules, base: Rules, same: str = "rules in force") -> str:
    """The rules in which ``rules`` differs from ``base``, in plain words (``same`` if none).

    >>> differences_in_words(Rules(dealer_stands_on=17), Rules(), same="default rules")
    'dealer stands on 17'
    """
    changed = rules.changed(base)
    return "; ".join(rule.phrase(getattr(rules, rule.name)) for rule in changed) or same


#: The marks around the generated rules table in ``docs/rules.md``.
RULES_DOC_BEGIN = "<!-- rule table: written by `python scripts/rules_doc.py`; do not edit -->"
RULES_DOC_END = "<!-- end of the rule table -->"

_KIND_WORDS: dict[type, str] = {
    int: "whole number",
    Fraction: "ratio `p:q`, `p/q` or a decimal",
    Paytable: "pays `S:R:A` or `tier=pay,...`, each to 1",
}


def _kind_words(rule: Rule) -> str:
    """A rule's type in words ("choice" for a closed list of values)."""
    return "choice" if rule.choices else _KIND_WORDS[rule.kind]


def rules_doc_table() -> str:
    """The table of every rule, in Markdown, as ``docs/rules.md`` holds it.

    >>> rules_doc_table().splitlines()[2][:42]
    '| `decks` | `--decks` | 1 | whole number |'
    """
    default = Rules().to_json()
    lines = [
        "| rule | option | clause | type | range or choices | default | dealer's play | meaning |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines.extend(
        f"| `{rule.name}` | `{rule.flag}` | {rule.clause} | {_kind_words(rule)} | "
        f"{rule.limits} | {rule_cell(default[rule.name])} | "
        f"{'depends on it' if rule.dealer else '-'} | {rule.meaning} |"
        for rule in RULE_TABLE
    )
    return "\n".join(lines)


def with_rules_doc_table(document: str) -> str:
    """``document`` (the text of ``docs/rules.md``) with its rules table written afresh."""
    head, begin, rest = document.partition(RULES_DOC_BEGIN)
    _, end, tail = rest.partition(RULES_DOC_END)
    if not begin or not end:
        raise ValueError(f"the document has no {RULES_DOC_BEGIN!r} ... {RULES_DOC_END!r} block")
    return f"{head}{begin}\n{rules_doc_table()}\n{end}{tail}"
