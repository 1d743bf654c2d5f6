"""Exact probability and optimal-strategy solver for Community Blackjack (Casino Edition)."""

from solver.exact.bonus import BonusAnalysis, analyse_bonus
from solver.model.cards import Card, Rank, Shoe, Suit, parse_cards
from solver.model.errors import CardError, CbjError, HandError, RulesError, ShoeError
from solver.model.outcomes import BonusOutcome, bonus_outcome
from solver.model.rules import DealerNatural, Paytable, Rules

__all__ = [
    "BonusAnalysis",
    "BonusOutcome",
    "Card",
    "CardError",
    "CbjError",
    "DealerNatural",
    "HandError",
    "Paytable",
    "Rank",
    "Rules",
    "RulesError",
    "Shoe",
    "ShoeError",
    "Suit",
    "analyse_bonus",
    "bonus_outcome",
    "parse_cards",
]
