"""The rule table reaches every place derived from it, and the checks can see a gap.

:func:`missing_places` asks each place that must know every rule (``Rules``, the CLI's
options, the API's options, ``cbj rules``, the JSON, the canonical key, the titles and
summaries, ``docs/rules.md``, the dealer's projection) whether it knows a rule; the real
table has no gap, and a table with a planted extra row is caught in every place.
:func:`dealer_misses` compares the dealer's play under whole rules with its play under
the projection, for a change of each rule: a dealer-relevant rule left out is caught.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable, Sequence
from dataclasses import fields
from fractions import Fraction
from pathlib import Path
from typing import Any, get_type_hints

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.api.rules import RuleOptions
from solver.cli.commands import RULE_OPTIONS, hyphens, rule_options, with_default
from solver.exact.dealer_hands import _final, dealer_rules, outcome_labels
from solver.model.errors import RulesError
from solver.model.paytable import Paytable
from solver.model.rule_table import DEALER_RULE_NAMES, RULE_TABLE, Rule
from solver.model.rules import RULE_ALIASES, Rules
from solver.present.formats import rule_cell
from solver.present.tables import rules_table
from solver.present.wording import (
    differences_in_words,
    rule_lines,
    rules_doc_table,
    rules_sentence,
    with_rules_doc_table,
)

from .conftest import run_cli

RULES_DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def other_value(rule: Rule) -> Any:
    """A valid value of ``rule`` other than its default, found from the row alone."""
    default = rule.default
    if rule.choices:
        candidates: list[Any] = [c for c in rule.choices if c != default.value]
    elif isinstance(default, Paytable):
        candidates = [Paytable([pay + 1 for pay in default.pays])]
    else:
        candidates = [default + 1, default - 1, default * 2]
    for candidate in candidates:
        try:
            return rule.check(candidate)
        except RulesError:
            continue
    raise AssertionError(f"no other value of {rule.name} found")


def varied(rule: Rule) -> Rules:
    """The default rules with ``rule`` alone changed."""
    return Rules(**{rule.name: other_value(rule)})


def option_text(rule: Rule, value: Any) -> str:
    """A value as a user types it: its JSON value as ``cbj rules`` shows it."""
    return rule_cell(rule.to_json(value))


def _cli_options() -> dict[str, dict[str, Any]]:
    """Every rules option a command gets, by flag, with its settings (choices, help)."""

    return {p.opts[0]: {"metavar": p.metavar, "help": p.help} for p in rule_options("rules")}


def _cli_knows(rule: Rule) -> bool:
    settings = _cli_options().get(rule.flag)
    if settings is None or rule.name not in RULE_OPTIONS:
        return False
    listed = f"[{'|'.join(hyphens(c) for c in rule.choices)}]" if rule.choices else "TEXT"
    shown = with_default(rule.help, hyphens(rule_cell(rule.to_json(rule.default))))
    return bool(settings["metavar"] == listed and settings["help"] == shown)


def _shown_by_cbj_rules(rule: Rule, capsys: pytest.CaptureFixture[str]) -> bool:
    value = other_value(rule)
    code, out, _ = run_cli(
        ["rules", rule.flag, option_text(rule, value), "--format", "json"], capsys
    )
    return code == 0 and json.loads(out)["rules"].get(rule.name) == rule.to_json(value)


def _titled(rule: Rule) -> bool:
    rules, value = varied(rule), other_value(rule)
    return (
        rules.differences(Rules()) == rule.tag(value)
        and differences_in_words(rules, Rules()) == rule.phrase(value)
        and rule.phrase(rule.default) in Rules().summary()
        and rule.sentence(value) in rules_sentence(rules)
        and (rule.label, rule.words(value)) in rule_lines(rules)
    )


def _projected(rule: Rule) -> bool:
    rules = varied(rule)
    kept = getattr(dealer_rules(rules), rule.name) == getattr(rules, rule.name)
    return kept if rule.dealer else not kept


def places(capsys: pytest.CaptureFixture[str]) -> dict[str, Callable[[Rule], bool]]:
    """Each place that must know every rule, as a test of whether it knows one."""
    hints = get_type_hints(Rules)
    doc = RULES_DOC.read_text(encoding="utf-8")
    return {
        "Rules": lambda r: hints.get(r.name) is r.kind and getattr(Rules(), r.name) == r.default,
        "CLI options": _cli_knows,
        "API options": lambda r: r.name in RuleOptions.__optional_keys__,
        "cbj rules": lambda r: (
            r.flag in {row[1] for row in rules_table(Rules()).rows}
            and _shown_by_cbj_rules(r, capsys)
        ),
        "JSON": lambda r: r.name in Rules().to_json(),
        "canonical key": lambda r: (
            r.name in Rules().canonical()
            and Rules.from_canonical(varied(r).canonical()) == varied(r)
        ),
        "titles": _titled,
        "docs/rules.md": lambda r: f"| `{r.name}` | `{r.flag}` |" in doc,
        "dealer projection": _projected,
    }


def missing_places(
    table: Sequence[Rule], capsys: pytest.CaptureFixture[str]
) -> dict[str, list[str]]:
    """For each rule of ``table``, the places that do not know it (a failing check counts)."""
    missing: dict[str, list[str]] = {}
    for rule in table:
        for place, knows in places(capsys).items():
            try:
                known = knows(rule)
            except (TypeError, KeyError, AttributeError, RulesError, ValueError):
                known = False
            if not known:
                missing.setdefault(rule.name, []).append(place)
    return missing


def test_every_rule_reaches_every_place(capsys: pytest.CaptureFixture[str]) -> None:
    assert missing_places(RULE_TABLE, capsys) == {}


def test_a_planted_extra_row_is_missing_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    planted = RULE_TABLE[0]._replace(name="surrender", default=0, dealer=True)
    missing = missing_places((*RULE_TABLE, planted), capsys)
    assert list(missing) == ["surrender"]
    assert set(missing["surrender"]) == set(places(capsys))


def test_rules_has_one_field_per_row_in_the_tables_order() -> None:
    names = [f.name for f in fields(Rules) if f.init and f.name not in RULE_ALIASES]
    assert names == [rule.name for rule in RULE_TABLE]
    assert [f.name for f in fields(Rules) if not f.init] == ["_hash"]  # kept, never given
    assert list(Rules().to_json()) == names == list(Rules().canonical())


def test_api_options_are_the_rules_the_preset_and_the_aliases() -> None:
    expected = {rule.name for rule in RULE_TABLE} | {"preset"} | set(RULE_ALIASES)
    assert RuleOptions.__optional_keys__ == expected
    assert set(RULE_OPTIONS) == expected


@pytest.mark.parametrize("rule", RULE_TABLE, ids=lambda r: r.name)
def test_a_value_typed_as_text_reads_back(rule: Rule) -> None:
    value = other_value(rule)
    assert rule.check(rule.parse(option_text(rule, value))) == value
    assert getattr(Rules.from_options(**{rule.name: option_text(rule, value)}), rule.name) == (
        value
    )


@pytest.mark.parametrize("rule", RULE_TABLE, ids=lambda r: r.name)
def test_a_bad_value_is_refused_naming_the_rule(rule: Rule) -> None:
    with pytest.raises(RulesError, match=rule.what):
        rule.check("nonsense")


def test_the_canonical_key_keeps_the_stores_old_encoding() -> None:
    # The store's own encoder before the rule table (solver/cache.py's encode_rules at
    # 6fc57de), written out by hand for the default rules: the key's format is unchanged.
    assert Rules().canonical() == {
        "decks": 6,
        "bonus_ratio": [1, 2],
        "paytable": [[15, 1], [4, 1], [1, 1]],
        "blackjack_pays": [3, 2],
        "dealer_stands_on": 18,
        "dealer_bonus": "chooses",
        "dealer_natural": "with_bonus",
        "natural_beats": "multi_card_21",
    }
    for rules in (Rules(), *(varied(rule) for rule in RULE_TABLE), Rules.from_preset("vegas-21")):
        assert Rules.from_canonical(json.loads(json.dumps(rules.canonical()))) == rules


def test_docs_rules_table_is_the_one_the_table_writes() -> None:
    doc = RULES_DOC.read_text(encoding="utf-8")
    assert with_rules_doc_table(doc) == doc, "docs/rules.md is stale: run scripts/rules_doc.py"
    assert rules_doc_table() in doc


def test_a_stale_docs_table_is_seen() -> None:
    doc = RULES_DOC.read_text(encoding="utf-8")
    stale = doc.replace("| `decks` | `--decks` | 1 |", "| `decks` | `--decks` | 2 |")
    assert stale != doc
    assert with_rules_doc_table(stale) != stale
    assert with_rules_doc_table(stale) == doc


def candidates(rule: Rule) -> st.SearchStrategy[Any]:
    """Values of the rule's type, valid or not, from the row alone."""
    if rule.choices:
        return st.sampled_from(rule.choices)
    if rule.kind is int:
        return st.integers(-2, 30)
    fractions = st.fractions(min_value=0, max_value=120, max_denominator=64)
    if rule.kind is Paytable:
        return st.lists(fractions, min_size=3, max_size=3).map(Paytable)
    return fractions


def valid_values(rule: Rule) -> st.SearchStrategy[Any]:
    """The candidates that the rule's own check accepts."""

    def valid(value: Any) -> bool:
        try:
            rule.check(value)
        except RulesError:
            return False
        return True

    return candidates(rule).filter(valid)


RANDOM_RULES = st.fixed_dictionaries({rule.name: valid_values(rule) for rule in RULE_TABLE}).map(
    lambda values: Rules(**values)
)


# Each example is cheap to check but its rule set is drawn by filtering (a third of the
# candidates pass): 40 examples cover every rule's values, and a loaded machine must not
# fail the draw's health check.
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(RANDOM_RULES)
def test_every_encoding_reads_back(rules: Rules) -> None:
    assert Rules.from_canonical(json.loads(json.dumps(rules.canonical()))) == rules
    as_text = {name: rule_cell(value) for name, value in rules.to_json().items()}
    assert Rules.from_options(**as_text) == rules
    assert Rules.from_options(**as_text).to_json() == rules.to_json()


# --- The dealer's projection against the dealer's play itself -------------------------

#: Dealer hand summaries (hard total, an ace among them, own cards) and Bonus cards.
STATES = [
    (hard, ace, cards, bonus)
    for hard in range(1, 31)
    for ace in (False, True)
    for cards in range(1, 8)
    for bonus in range(1, 11)
    if cards <= hard
]


def dealer_play(rules: Rules) -> list[str | None]:
    """The dealer's result for every state under ``rules`` (None while it draws)."""
    labels = outcome_labels(rules)
    results = (_final(rules, bonus, hard, ace, cards) for hard, ace, cards, bonus in STATES)
    return [None if r is None else labels[r] for r in results]


def dealer_misses(project: Callable[[Rules], Rules]) -> list[str]:
    """The rules whose change alters the dealer's play but not the projected rules' play."""
    return [
        rule.name
        for rule in RULE_TABLE
        if dealer_play(varied(rule)) != dealer_play(project(varied(rule)))
    ]


def test_the_projection_keeps_every_rule_the_dealers_play_reads() -> None:
    assert dealer_misses(dealer_rules) == []


def test_a_projection_that_forgets_a_rule_is_caught() -> None:
    def forgetful(rules: Rules) -> Rules:
        return Rules(dealer_stands_on=rules.dealer_stands_on)

    assert dealer_misses(forgetful) == ["dealer_bonus", "dealer_natural"]


def test_the_dealer_flag_marks_exactly_the_rules_the_dealers_play_reads() -> None:
    reads = [r.name for r in RULE_TABLE if dealer_play(varied(r)) != dealer_play(Rules())]
    assert reads == list(DEALER_RULE_NAMES)


def test_the_paytable_tiers_are_data() -> None:
    pays = Paytable(suited_match=Fraction(30), rank_match=Fraction(6), adjacent=Fraction(2))
    assert pays.pays == (Fraction(30), Fraction(6), Fraction(2)) and pays.rank_match == 6
    assert Paytable(pays.pays, adjacent=3) == Paytable.parse("30:6:3")
    assert eval(repr(pays)) == pays  # the repr pastes back as code
    rules = Rules(paytable=pays)  # rules cross to worker processes pickled
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert pickle.loads(pickle.dumps(rules)).paytable.adjacent == 2
