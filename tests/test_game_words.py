"""The game's words (solver/model/game_words.py): the model's own vocabulary is defined there."""

from __future__ import annotations

from solver.model.game_words import GAME_WORDS, WORDS_BY_NAME
from solver.model.outcomes import MAIN_OUTCOMES
from solver.model.paytable import BONUS_TIERS
from solver.model.rule_table import RULE_TABLE
from solver.present.glossary import glossary


def test_every_bonus_tier_and_main_outcome_the_model_names_is_defined() -> None:
    named = {tier.words for tier in BONUS_TIERS} | {"blackjack", "push"}
    assert named <= set(WORDS_BY_NAME), named - set(WORDS_BY_NAME)
    assert {"blackjack", "push"} <= set(MAIN_OUTCOMES)


def test_each_word_cites_a_clause_of_the_rules_the_rule_table_reads() -> None:
    clauses = {rule.clause for rule in RULE_TABLE} | set(range(1, 10))
    assert all(w.clause is None or w.clause in clauses for w in GAME_WORDS)
    assert len(WORDS_BY_NAME) == len(GAME_WORDS)  # each word once


def test_the_glossary_lists_the_games_words_before_the_figures() -> None:
    page = glossary()
    words, figures = page.index("## The game's words"), page.index("## The figures")
    assert words < figures
    for word in GAME_WORDS:
        assert f"| {word.word} | " in page[words:figures]
