"""Words for people: the rules in force in plain language, for charts and reports alike.

>>> to_one(Fraction(3, 2))
'3 to 2'
"""

from __future__ import annotations

from fractions import Fraction

from solver.model.rules import DealerNatural, NaturalBeats, Rules, format_ratio

NATURAL_WORDS = {
    DealerNatural.WITH_BONUS: "one dealer card with the Bonus card, or two dealer cards",
    DealerNatural.OWN_CARDS: "two dealer cards only",
    DealerNatural.BONUS_CARD: "one dealer card with the Bonus card only",
    DealerNatural.NONE: "none (every dealer 21 is just 21)",
}


BEATS_WORDS = {
    NaturalBeats.MULTI_CARD_21: "player 21s of three or more cards (a two-card 21 ties)",
    NaturalBeats.NON_BLACKJACK: "every player hand but a blackjack",
    NaturalBeats.NOTHING: "nothing beyond totals below 21 (it ties every player 21)",
}


def to_one(pay: Fraction) -> str:
    """A pay as ``3 to 2``."""
    return format_ratio(pay).replace(":", " to ")


def rule_lines(rules: Rules) -> tuple[tuple[str, str], ...]:
    """Every rule in force in plain words, as (rule, setting) pairs."""
    return (
        ("Decks", f"{rules.decks} standard 52-card deck{'s' if rules.decks > 1 else ''}"),
        ("Bonus wager", f"{rules.bonus_ratio} of the main wager (at least 1/2)"),
        (
            "Bonus pays",
            f"suited match {to_one(rules.paytable.suited_match)}, rank match "
            f"{to_one(rules.paytable.rank_match)}, adjacent rank "
            f"{to_one(rules.paytable.adjacent)}",
        ),
        ("Blackjack pays", f"{to_one(rules.blackjack_pays)} (own card + Bonus card = 21)"),
        (
            "Dealer stands",
            f"at a best total of {rules.dealer_stands_on} or more, with or without the Bonus card",
        ),
        ("Dealer naturals", NATURAL_WORDS[rules.dealer_natural]),
        ("A dealer natural beats", BEATS_WORDS[rules.natural_beats]),
    )


def rules_sentence(rules: Rules) -> str:
    """Every rule in force in one line of plain words."""
    pays = rules.paytable
    decks = f"{rules.decks} deck{'s' if rules.decks > 1 else ''}"
    return (
        f"Rules: {decks}; Bonus wager {rules.bonus_ratio} of the main wager; Bonus pays "
        f"{pays.suited_match} / {pays.rank_match} / {pays.adjacent} to 1 (suited match / rank "
        f"match / adjacent); blackjack pays {to_one(rules.blackjack_pays)}; dealer stands on "
        f"{rules.dealer_stands_on} or more; dealer naturals: "
        f"{NATURAL_WORDS[rules.dealer_natural].split(' (')[0]}; a dealer natural beats "
        f"{BEATS_WORDS[rules.natural_beats].split(' (')[0]}."
    )


def plain_differences(differences: str) -> str:
    """Rule differences worded for people: no code identifiers."""
    for natural in DealerNatural:
        short = NATURAL_WORDS[natural].split(" (")[0]
        differences = differences.replace(
            f"dealer natural {natural.value}", f"dealer naturals: {short}"
        )
    for beats in NaturalBeats:
        short = BEATS_WORDS[beats].split(" (")[0]
        differences = differences.replace(
            f"natural beats {beats.value}", f"a natural beats {short}"
        )
    return differences.replace("as in force", "rules in force")
