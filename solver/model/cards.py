"""Cards, ranks, suits and the shoe as an immutable composition.

The main game only sees blackjack *values* (1 for an ace, 10 for tens and faces);
the Bonus wager sees ranks and suits.  A :class:`Shoe` keeps the full rank-and-suit
composition and hands out the value composition the main game needs.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from solver.model.checks import shown, whole_in
from solver.model.errors import CardError, ShoeError

#: The most decks a shoe holds (the rule table's range of ``decks`` is 1 to this).
MAX_DECKS = 8
#: The most cards a list of cards may name: every card of a shoe of :data:`MAX_DECKS`.
MAX_CARDS = 52 * MAX_DECKS

#: A composition by blackjack value: ``counts[v - 1]`` cards of value ``v`` (ace = 1).
ValueCounts = tuple[int, ...]

VALUES = tuple(range(1, 11))


class Rank(StrEnum):
    """The thirteen ranks, in order from ace to king."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def order(self) -> int:
        """Position from 0 (ace) to 12 (king)."""
        return RANKS.index(self)

    @property
    def points(self) -> int:
        """Blackjack value: ace 1, two to ten at face, faces 10."""
        return min(self.order + 1, 10)


class Suit(StrEnum):
    """The four suits, by their one-letter names."""

    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"


RANKS: tuple[Rank, ...] = tuple(Rank)
SUITS: tuple[Suit, ...] = tuple(Suit)

_CARD_PATTERN = re.compile(r"(10|[2-9]|[atjqk])([shdc])?", re.IGNORECASE | re.ASCII)


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card; ``suit`` is ``None`` where only the rank is known."""

    rank: Rank
    suit: Suit | None = None

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``A``, ``2``..``9``, ``T``/``10``, ``J``, ``Q``, ``K`` with an optional suit.

        Text is NFKC-normalised first, so compatibility forms of these ASCII letters
        (fullwidth letters, the Kelvin sign U+212A) read as the letters; anything else is a
        :class:`CardError`.

        >>> Card.parse("10h"), Card.parse("as"), Card.parse("T")
        (Card.parse('10h'), Card.parse('As'), Card.parse('10'))
        """
        if not isinstance(text, str):
            raise CardError(f"a card is text such as As, 10h or T, not {type(text).__name__}")
        match = _CARD_PATTERN.fullmatch(unicodedata.normalize("NFKC", text.strip()[:40]).strip())
        if match is None:
            raise CardError(
                f"unknown card {shown(text)}: expected a rank A 2-9 T 10 J Q K "
                "with an optional suit s h d c, e.g. As, 10h, T"
            )
        rank_text, suit_text = match.groups()
        rank_text = rank_text.upper()
        rank = Rank.TEN if rank_text == "T" else Rank(rank_text)
        return cls(rank, Suit(suit_text.lower()) if suit_text else None)

    @property
    def points(self) -> int:
        """Blackjack value of the card."""
        return self.rank.points

    def __str__(self) -> str:
        return f"{self.rank}{self.suit or ''}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def parse_cards(text: str | Iterable[str | Card], what: str = "cards") -> tuple[Card, ...]:
    """Parse cards separated by commas or spaces (or given as a list of strings or cards).

    ``what`` names the parameter in the :class:`CardError` a value of another kind raises.

    Cards may also be written together (``97``, ``AsKd``, ``1010``): such a run reads one
    way only, since no rank is a suit letter and 1 and 0 occur only in 10.

    >>> parse_cards("As, 10h K")
    (Card.parse('As'), Card.parse('10h'), Card.parse('K'))
    >>> parse_cards("97") == parse_cards("9 7") == parse_cards(["9", "7"])
    True
    """
    if isinstance(text, str):
        items = re.split(r"[\s,]+", unicodedata.normalize("NFKC", text))
    elif not isinstance(text, list | tuple):  # not bytes, an array or an iterator
        raise CardError(f"{what} must be a str or a list of strs, not {type(text).__name__}")
    else:
        items = list(text)
    if len(items) > MAX_CARDS:
        raise CardError(f"{what} name {len(items):,} cards: a shoe of 8 decks has {MAX_CARDS}")
    wrong = [type(item).__name__ for item in items if not isinstance(item, str | Card)]
    if wrong:
        raise CardError(f"each of the {what} must be a str or a Card, not {wrong[0]}")
    return tuple(
        card
        for item in items
        for card in ((item,) if isinstance(item, Card) else _cards_in(item) if item.strip() else ())
    )


_RUN_PATTERN = re.compile(f"(?:{_CARD_PATTERN.pattern})+", re.IGNORECASE | re.ASCII)


def _cards_in(item: str) -> tuple[Card, ...]:
    """One card, or the cards of a run written together; :class:`CardError` if neither."""
    text = unicodedata.normalize("NFKC", item).strip()
    if _CARD_PATTERN.fullmatch(text) or not _RUN_PATTERN.fullmatch(text):
        return (Card.parse(item),)
    return tuple(Card.parse(found.group()) for found in _CARD_PATTERN.finditer(text))


def parse_value(text: str) -> int:
    """Parse a card for its blackjack value only (any suit given is ignored).

    >>> parse_value("K"), parse_value("a")
    (10, 1)
    """
    return Card.parse(text).points


def value_label(value: int) -> str:
    """Short label of a blackjack value: ``A`` for 1, digits otherwise."""
    return "A" if value == 1 else str(value)


def check_decks(decks: object) -> int:
    """``decks`` if it is a whole number of decks a shoe can hold; :class:`ShoeError` if not.

    >>> check_decks(10**5000)
    Traceback (most recent call last):
    ...
    solver.model.errors.ShoeError: decks (a 5,001-digit number) must be a whole number from 1 to 8
    """
    if not whole_in(decks, 1, MAX_DECKS):
        raise ShoeError(f"decks {shown(decks)} must be a whole number from 1 to {MAX_DECKS}")
    return decks


@dataclass(frozen=True, slots=True)
class Shoe:
    """An immutable shoe composition.

    ``counts`` holds 52 counts, rank-major (``counts[4 * rank.order + suit index]``).
    Cards removed without a suit are tallied in ``unknown_suit`` (13 counts, one per
    rank): their rank is gone from the shoe but which suit left is not known.
    """

    decks: int
    counts: tuple[int, ...]
    unknown_suit: tuple[int, ...] = (0,) * 13

    def __post_init__(self) -> None:
        if not whole_in(self.decks, 1, MAX_DECKS):
            raise ShoeError(
                f"decks {shown(self.decks)} must be a whole number from 1 to {MAX_DECKS}"
            )
        for name, size in (("counts", 52), ("unknown_suit", 13)):
            given = getattr(self, name)
            if not (isinstance(given, tuple) and len(given) == size):
                raise ShoeError(f"a shoe's {name} must be a tuple of {size} whole numbers")
            if not all(type(n) is int and 0 <= n <= MAX_DECKS for n in given):
                raise ShoeError(f"a shoe's {name} must be whole numbers from 0 to {MAX_DECKS}")
        if any(r < 0 for r in self.rank_counts()):
            raise ShoeError("a shoe cannot hold a negative number of cards")

    @classmethod
    def full(cls, decks: int) -> Shoe:
        """A freshly shuffled shoe of ``decks`` standard 52-card decks."""
        return cls(check_decks(decks), (decks,) * 52)

    def count(self, rank: Rank, suit: Suit) -> int:
        """Cards of this exact rank and suit still in the shoe (known suits only)."""
        return self.counts[4 * rank.order + SUITS.index(suit)]

    def rank_counts(self) -> tuple[int, ...]:
        """Cards left of each rank, ace to king."""
        return tuple(sum(self.counts[4 * i : 4 * i + 4]) - self.unknown_suit[i] for i in range(13))

    def value_counts(self) -> ValueCounts:
        """Cards left of each blackjack value 1..10 (the main game's view)."""
        ranks = self.rank_counts()
        return (*ranks[:9], sum(ranks[9:]))

    @property
    def total(self) -> int:
        """Number of cards left."""
        return sum(self.rank_counts())

    @property
    def suits_known(self) -> bool:
        """True when every removed card was given with its suit."""
        return not any(self.unknown_suit)

    def remove(self, cards: Iterable[Card]) -> Shoe:
        """The shoe after taking ``cards`` out; raises :class:`ShoeError` if it lacks one."""
        counts = list(self.counts)
        unknown = list(self.unknown_suit)
        for card in cards:
            i = card.rank.order
            if card.suit is None:
                unknown[i] += 1
            else:
                counts[4 * i + SUITS.index(card.suit)] -= 1
            if (card.suit is not None and counts[4 * i + SUITS.index(card.suit)] < 0) or (
                sum(counts[4 * i : 4 * i + 4]) - unknown[i] < 0
            ):
                raise ShoeError(
                    f"cannot remove {card}: the {self.decks}-deck shoe has no more of it left"
                )
        return Shoe(self.decks, tuple(counts), tuple(unknown))
