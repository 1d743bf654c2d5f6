"""The game's rules and every interpretation choice, as validated immutable data.

The defaults are the project's reading of the rule text (see ``docs/rules.md``);
every other reading is an option here rather than a change in the code.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from fractions import Fraction
from typing import Any

from solver.model.errors import RulesError

MIN_BONUS_RATIO = Fraction(1, 2)


class DealerNatural(StrEnum):
    """Which two-card dealer 21s count as a natural (rule clause 9)."""

    WITH_BONUS = "with_bonus"
    """One own card plus the Bonus card, or two own cards without it."""
    OWN_CARDS = "own_cards"
    """Only two own cards make a natural."""
    NONE = "none"
    """The dealer never has a natural; every 21 is just 21."""


def parse_ratio(text: str | int | Fraction, what: str = "ratio") -> Fraction:
    """Parse ``3:2``, ``3/2``, ``1.5`` or ``2`` into an exact non-negative fraction.

    >>> parse_ratio("6:5"), parse_ratio("0.5"), parse_ratio("1/2")
    (Fraction(6, 5), Fraction(1, 2), Fraction(1, 2))
    """
    if isinstance(text, int | Fraction):
        value = Fraction(text)
    else:
        cleaned = text.strip()
        match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*[:/]\s*(\d+(?:\.\d+)?)", cleaned)
        try:
            if match:
                value = Fraction(match.group(1)) / Fraction(match.group(2))
            elif re.fullmatch(r"-?\d+(?:\.\d+)?", cleaned):
                value = Fraction(cleaned)
            else:
                raise ValueError(cleaned)
        except (ValueError, ZeroDivisionError):
            raise RulesError(
                f"{what} {text!r} is not a number, a fraction p/q or a ratio p:q"
            ) from None
    if value < 0:
        raise RulesError(f"{what} {text!r} is negative; it must be 0 or more")
    return value


def format_ratio(value: Fraction) -> str:
    """Write a pay as ``p:q`` (``3:2``, ``15:1``)."""
    return f"{value.numerator}:{value.denominator}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Paytable:
    """Pays of the Bonus wager, each "to 1", for its three winning tiers."""

    suited_match: Fraction = Fraction(15)
    rank_match: Fraction = Fraction(4)
    adjacent: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, Fraction):
                object.__setattr__(self, f.name, parse_ratio(value, f"{f.name} pay"))
            elif value < 0:
                raise RulesError(f"{f.name} pay {value} is negative; pays must be 0 or more")

    @classmethod
    def parse(cls, text: str) -> Paytable:
        """Parse ``S:R:A`` (suited match, rank match, adjacent, each "to 1").

        >>> Paytable.parse("15:4:1") == Paytable()
        True
        """
        parts = text.split(":")
        if len(parts) != 3 or not all(p.strip() for p in parts):
            raise RulesError(
                f"paytable {text!r} is malformed: expected S:R:A, e.g. 15:4:1 "
                "(suited match : rank match : adjacent, each to 1)"
            )
        names = ("suited_match", "rank_match", "adjacent")
        pays = {n: parse_ratio(p, f"{n} pay") for n, p in zip(names, parts, strict=True)}
        return cls(**pays)

    def __str__(self) -> str:
        return ":".join(_plain(p) for p in (self.suited_match, self.rank_match, self.adjacent))

    def as_dict(self) -> dict[str, Fraction]:
        """The pays by tier name."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _plain(value: Fraction) -> str:
    """A pay written as an integer, a short decimal or a fraction."""
    if value.denominator == 1:
        return str(value.numerator)
    as_float = float(value)
    if Fraction(repr(as_float)) == value:
        return repr(as_float)
    return f"{value.numerator}/{value.denominator}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """Every rule and interpretation choice of the game; defaults follow ``docs/rules.md``."""

    decks: int = 6
    bonus_ratio: Fraction = MIN_BONUS_RATIO
    paytable: Paytable = field(default_factory=Paytable)
    blackjack_pays: Fraction = Fraction(3, 2)
    dealer_stands_on: int = 18
    dealer_natural: DealerNatural = DealerNatural.WITH_BONUS
    natural_beats_multi_card_21: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.decks, bool) or not isinstance(self.decks, int):
            raise RulesError(f"decks {self.decks!r} must be a whole number from 1 to 8")
        if not 1 <= self.decks <= 8:
            raise RulesError(f"decks {self.decks} is out of range: use 1 to 8")
        ratio = parse_ratio(self.bonus_ratio, "bonus ratio")
        if ratio < MIN_BONUS_RATIO:
            raise RulesError(
                f"bonus ratio {ratio} is below 1/2: the rules require a Bonus wager "
                "of at least half the main wager"
            )
        object.__setattr__(self, "bonus_ratio", ratio)
        pays = parse_ratio(self.blackjack_pays, "blackjack pays")
        if pays <= 0:
            raise RulesError("blackjack pays must be more than 0, e.g. 3:2 or 6:5")
        object.__setattr__(self, "blackjack_pays", pays)
        if not isinstance(self.dealer_stands_on, int) or not 12 <= self.dealer_stands_on <= 21:
            raise RulesError(
                f"dealer stands on {self.dealer_stands_on!r} is out of range: use 12 to 21"
            )
        try:
            object.__setattr__(self, "dealer_natural", DealerNatural(self.dealer_natural))
        except ValueError:
            choices = ", ".join(d.value for d in DealerNatural)
            raise RulesError(
                f"dealer natural {self.dealer_natural!r} is unknown: use one of {choices}"
            ) from None
        if not isinstance(self.paytable, Paytable):
            raise RulesError(f"paytable {self.paytable!r} must be a Paytable")

    @classmethod
    def from_options(cls, **options: Any) -> Rules:
        """Rules from options named like the CLI's, each a value or its text.

        Options left out (or ``None``) keep their defaults.

        >>> Rules.from_options(decks="2", blackjack_pays="6:5").blackjack_pays
        Fraction(6, 5)
        """
        unknown = set(options) - set(_OPTION_PARSERS)
        if unknown:
            raise RulesError(
                f"unknown rule option {sorted(unknown)[0]!r}: use one of "
                + ", ".join(_OPTION_PARSERS)
            )
        return cls(
            **{
                name: _OPTION_PARSERS[name](value)
                for name, value in options.items()
                if value is not None
            }
        )

    def to_json(self) -> dict[str, Any]:
        """The rules as plain JSON values (ratios written ``p:q``)."""
        return {
            "decks": self.decks,
            "bonus_ratio": f"{self.bonus_ratio.numerator}/{self.bonus_ratio.denominator}",
            "paytable": {k: _plain(v) for k, v in self.paytable.as_dict().items()},
            "blackjack_pays": format_ratio(self.blackjack_pays),
            "dealer_stands_on": self.dealer_stands_on,
            "dealer_natural": self.dealer_natural.value,
            "natural_beats_multi_card_21": self.natural_beats_multi_card_21,
        }

    def summary(self) -> str:
        """One line naming every rule in force."""
        return (
            f"{self.decks} decks, dealer stands on {self.dealer_stands_on}, "
            f"blackjack pays {format_ratio(self.blackjack_pays)}, "
            f"dealer natural {self.dealer_natural.value}, "
            f"natural beats multi-card 21: {'yes' if self.natural_beats_multi_card_21 else 'no'}, "
            f"paytable {self.paytable}, bonus ratio {self.bonus_ratio}"
        )


def _whole_number(what: str) -> Callable[[Any], int]:
    """A parser of a whole-number option given as an int or its text."""

    def parse(value: Any) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        if not re.fullmatch(r"[+-]?\d{1,6}", text):
            raise RulesError(f"{what} {value!r} is not a whole number")
        return int(text)

    return parse


def _yes_no(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise RulesError(f"{value!r} is not true or false")


def _paytable(value: Any) -> Paytable:
    return value if isinstance(value, Paytable) else Paytable.parse(str(value))


#: How each rule option is read from a value or its text (``Rules.from_options``).
_OPTION_PARSERS: dict[str, Callable[[Any], Any]] = {
    "decks": _whole_number("decks"),
    "dealer_stands_on": _whole_number("dealer stands on"),
    "blackjack_pays": lambda v: parse_ratio(v, "blackjack pays"),
    "dealer_natural": lambda v: v,  # validated by Rules itself
    "natural_beats_multi_card_21": _yes_no,
    "paytable": _paytable,
    "bonus_ratio": lambda v: parse_ratio(v, "bonus ratio"),
}


#: What each rule means, for ``cbj rules`` and the docs.
RULE_MEANINGS: dict[str, str] = {
    "decks": "standard 52-card decks shuffled together in the shoe (clause 1)",
    "bonus_ratio": "Bonus wager as a multiple of the main wager, at least 1/2 (clause 2)",
    "paytable": "Bonus pays to 1: suited match : rank match : adjacent (clause 4)",
    "blackjack_pays": "pay of own card + Bonus card = 21, won at once (clause 5)",
    "dealer_stands_on": "dealer stops at this best total, with or without the Bonus card (cl. 7)",
    "dealer_natural": "two-card dealer 21s that are naturals: with_bonus, own_cards, none (cl. 9)",
    "natural_beats_multi_card_21": "a dealer natural beats a player 21 of 3 or more cards (cl. 9)",
}
