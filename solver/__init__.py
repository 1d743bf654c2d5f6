"""Exact probability and optimal-strategy solver for Community Blackjack (Casino Edition)."""

from solver.bonus import BonusAnalysis, BonusOutcome, analyse_bonus, bonus_outcome
from solver.cards import Card, Rank, Shoe, Suit, parse_cards
from solver.errors import CardError, CbjError, HandError, RulesError, ShoeError
from solver.rules import DealerNatural, Paytable, Rules

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
