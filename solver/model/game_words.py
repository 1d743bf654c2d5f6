"""The game's words: what each means here, the rule clause it comes from, and what others call it.

The figure catalogue (:mod:`solver.results.figures`) defines every number the project
reports; this table defines the words of the game those numbers are about, as players,
dealers and labs use them.  ``docs/glossary.md`` lists both (:mod:`solver.present.glossary`).

>>> [w.word for w in GAME_WORDS][:3]
['main wager', 'Bonus wager', 'Bonus ratio']
>>> WORDS_BY_NAME["Bonus card"].clause
3
"""

from __future__ import annotations

from typing import NamedTuple


class GameWord(NamedTuple):
    """One word of the game, as this project uses it."""

    word: str
    meaning: str
    clause: int | None = None
    """The clause of the rule text it comes from, if one."""
    elsewhere: str = ""
    """What the rule text, a casino or a lab calls it where that differs, or how the same word
    differs in standard blackjack."""


#: The game's words, in the order a round meets them.
GAME_WORDS: tuple[GameWord, ...] = (
    GameWord(
        "main wager",
        "The player's first mandatory bet, settled against the dealer's hand.",
        2,
        "The Ante in clause 5 of the rule text; a base bet on other tables.",
    ),
    GameWord(
        "Bonus wager",
        "The player's second mandatory bet, settled at once on the player's card against the "
        "Bonus card by the paytable.",
        2,
        "A side bet in most games, but here it cannot be declined.",
    ),
    GameWord(
        "Bonus ratio",
        "The Bonus wager as a share of the main wager: at least 1/2 (the default).",
        2,
    ),
    GameWord(
        "shoe",
        "The decks shuffled together that the cards are dealt from: 6 by default.",
        1,
    ),
    GameWord(
        "player's card",
        "The one card each player is dealt before any decision.",
        3,
        "Standard blackjack deals each player two cards.",
    ),
    GameWord(
        "Bonus card",
        "The one community card dealt face up for the whole table. A player may count it in "
        "the total when standing; the dealer counts it too, by default when it helps.",
        3,
        "The community card; it plays the part of standard blackjack's second player card and "
        "of the dealer's up card at once.",
    ),
    GameWord(
        "community card",
        "A card that belongs to every hand at the table: here, the Bonus card.",
        3,
        "Poker's word, for the same idea.",
    ),
    GameWord(
        "ten-value card",
        "A 10, jack, queen or king: each counts 10 in a total.",
        5,
    ),
    GameWord(
        "blackjack",
        "The player's card and the Bonus card make 21 (an ace and a ten-value card): the main "
        "wager wins at once, paid 3:2 by default, whatever the dealer holds.",
        5,
        "In standard blackjack, the player's own first two cards.",
    ),
    GameWord(
        "hit",
        "Draw another card to the hand.",
        6,
    ),
    GameWord(
        "stand",
        "Take no more cards; the hand's best total, with or without the Bonus card, is played.",
        6,
    ),
    GameWord(
        "bust",
        "A hand whose own cards total more than 21 (by default the Bonus card never makes a "
        "bust): the player's main wager loses; a dealer bust pays every hand still standing.",
        6,
    ),
    GameWord(
        "hard total, soft total",
        "A total with no ace counted as 11, and one with an ace counted as 11; the chart's "
        "rows are hard and soft totals of the player's own cards.",
    ),
    GameWord(
        "dealer stands on 18",
        "The dealer draws until its total is at least 18, with or without the Bonus card, or "
        "it busts.",
        7,
        "Standard blackjack's dealer stands on 17.",
    ),
    GameWord(
        "push",
        "A tie between the player's and the dealer's best totals: the main wager is returned.",
        8,
    ),
    GameWord(
        "natural",
        "A two-card dealer 21, which beats a player 21 of three or more cards; by default one "
        "dealer card with the Bonus card, or two dealer cards (docs/rules.md lists the "
        "readings).",
        9,
        "A natural blackjack; in standard blackjack, either side's first two cards making 21.",
    ),
    GameWord(
        "suited match",
        "The player's card and the Bonus card are the same rank and the same suit: the Bonus "
        "wager's top tier.",
        4,
    ),
    GameWord(
        "rank match",
        "The same rank in different suits. Ranks are exact: a jack does not match a king.",
        4,
    ),
    GameWord(
        "adjacent",
        "The two cards are one rank apart, the ace next to both the two and the king.",
        4,
        "Within one rank, in the rule text.",
    ),
    GameWord(
        "paytable",
        "The Bonus wager's pays, each so many to 1, written S:R:A for suited match, rank match "
        "and adjacent (15:4:1 by default: the rule text prints no pays), or as a list of named "
        "tiers best first.",
        4,
    ),
    GameWord(
        "optimal play",
        "Each decision made for the best expected value given the exact cards the hand holds "
        "and the Bonus card (composition-dependent play).",
        None,
        "Perfect play, in trainers' words.",
    ),
    GameWord(
        "chart",
        "The best play by total against each Bonus card, printable on one page; it gives up "
        "a little against optimal play.",
        None,
        "Basic strategy, in players' words.",
    ),
    GameWord(
        "penetration",
        "The share of the shoe dealt before it is shuffled again (at the cut card).",
    ),
    GameWord(
        "true count",
        "A card counter's running count per deck left in the shoe.",
    ),
)

#: The words by name.
WORDS_BY_NAME: dict[str, GameWord] = {w.word: w for w in GAME_WORDS}
