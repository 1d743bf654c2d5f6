"""The Bonus wager's paytable as data: named tiers, each a condition on two cards (clause 4).

A tier pays when the player's card and the Bonus card are a given rank distance apart
(0: the same rank; 1: adjacent, the ace touching both the 2 and the king), with the same
suit, a different suit, or either.  Only the best tier reached pays, so the tiers are
listed best first.  A paytable with more tiers is a longer :data:`BONUS_TIERS`.

>>> [tier.name for tier in BONUS_TIERS]
['suited_match', 'rank_match', 'adjacent']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from solver.model.cards import Card
from solver.model.checks import parse_ratio, plain_number, short_number
from solver.model.errors import RulesError, ShoeError

#: A Bonus pay is 0 to ``MAX_PAY`` to 1.
MAX_PAY = Fraction(10_000)


def rank_distance(first: int, second: int) -> int:
    """Steps between two rank indices (0 = ace .. 12 = king) on the circle the ace closes.

    >>> rank_distance(0, 12), rank_distance(9, 10), rank_distance(10, 12)
    (1, 1, 2)
    """
    step = (first - second) % 13
    return min(step, 13 - step)


class Tier(NamedTuple):
    """One paying tier of the Bonus wager: a condition on the player's card and the Bonus card."""

    name: str
    """The tier's name in options and JSON (``suited_match``)."""
    words: str
    """The tier in plain words (``suited match``)."""
    distance: int
    """Rank distance of the two cards: 0 for the same rank, 1 for adjacent ranks."""
    suited: bool | None
    """True: the same suit; False: different suits; None: either."""
    default: Fraction
    """Its pay (to 1) in the default, illustrative paytable."""

    def holds(self, player: Card, bonus: Card) -> bool:
        """The two cards reach this tier (suits needed only when the tier asks for them).

        >>> BONUS_TIERS[2].holds(Card.parse("K"), Card.parse("A"))
        True
        """
        if rank_distance(player.rank.order, bonus.rank.order) != self.distance:
            return False
        if self.suited is None:
            return True
        if player.suit is None or bonus.suit is None:
            raise ShoeError("a rank match needs both suits to tell suited from unsuited")
        return (player.suit == bonus.suit) is self.suited


#: The Bonus wager's paying tiers, best first (clause 4); the rule text prints no pays, so
#: the defaults are an illustration.
BONUS_TIERS: tuple[Tier, ...] = (
    Tier("suited_match", "suited match", 0, True, Fraction(15)),
    Tier("rank_match", "rank match", 0, False, Fraction(4)),
    Tier("adjacent", "adjacent", 1, None, Fraction(1)),
)
_TIER_NAMES = tuple(tier.name for tier in BONUS_TIERS)


def tier_reached(player: Card, bonus: Card) -> Tier | None:
    """The best tier the two cards reach, or None when the Bonus wager loses.

    >>> tier_reached(Card.parse("Ks"), Card.parse("Kh")).name
    'rank_match'
    """
    return next((tier for tier in BONUS_TIERS if tier.holds(player, bonus)), None)


@dataclass(frozen=True, slots=True, init=False, repr=False)
class Paytable:
    """Pays of the Bonus wager, each "to 1", one for each of :data:`BONUS_TIERS`.

    Given by tier name (``Paytable(suited_match=15, rank_match=4, adjacent=1)``; a tier
    left out keeps its default pay) or whole as ``pays``, best tier first; each tier's pay
    reads as an attribute (``paytable.rank_match``).

    >>> Paytable(rank_match=5)
    Paytable(suited_match=Fraction(15, 1), rank_match=Fraction(5, 1), adjacent=Fraction(1, 1))
    """

    pays: tuple[Fraction, ...]

    def __init__(
        self, pays: Iterable[Fraction | int | str] | None = None, **by_tier: Fraction | int | str
    ) -> None:
        given: list[Fraction | int | str] = [tier.default for tier in BONUS_TIERS]
        if pays is not None:
            given = list(pays)
        if len(given) != len(BONUS_TIERS):
            raise RulesError(f"a paytable has {len(BONUS_TIERS)} pays, not {len(given)}")
        unknown = sorted(set(by_tier) - set(_TIER_NAMES))
        if unknown:
            raise TypeError(
                f"Paytable has no tier {unknown[0]!r}: use one of {', '.join(_TIER_NAMES)}"
            )
        for name, pay in by_tier.items():
            given[_TIER_NAMES.index(name)] = pay
        checked = tuple(_checked_pay(t.name, p) for t, p in zip(BONUS_TIERS, given, strict=True))
        object.__setattr__(self, "pays", checked)

    def __getattr__(self, name: str) -> Fraction:
        """The pay of the tier called ``name``."""
        if name in _TIER_NAMES:
            return self.pays[_TIER_NAMES.index(name)]
        raise AttributeError(name)

    def __repr__(self) -> str:
        named = ", ".join(f"{name}={pay!r}" for name, pay in self.as_dict().items())
        return f"Paytable({named})"

    @classmethod
    def parse(cls, text: str) -> Paytable:
        """Parse ``S:R:A`` (suited match, rank match, adjacent, each "to 1").

        >>> Paytable.parse("15:4:1") == Paytable()
        True
        """
        parts = text.split(":")
        if len(parts) != len(BONUS_TIERS) or not all(p.strip() for p in parts):
            letters = ":".join(tier.name[0].upper() for tier in BONUS_TIERS)
            words = " : ".join(tier.words for tier in BONUS_TIERS)
            raise RulesError(
                f"paytable {text!r} is malformed: expected {letters}, e.g. {cls()} "
                f"({words}, each to 1)"
            )
        return cls(parse_ratio(p, f"{t.name} pay") for t, p in zip(BONUS_TIERS, parts, strict=True))

    def __str__(self) -> str:
        return ":".join(plain_number(p) for p in self.pays)

    def as_dict(self) -> dict[str, Fraction]:
        """The pays by tier name."""
        return dict(zip(_TIER_NAMES, self.pays, strict=True))

    def pay(self, tier: Tier | str) -> Fraction:
        """The pay of one tier, given as a :class:`Tier` or by name."""
        return self.pays[_TIER_NAMES.index(tier if isinstance(tier, str) else tier.name)]


def _checked_pay(name: str, value: Fraction | int | str) -> Fraction:
    """One tier's pay, parsed and checked: 0 to :data:`MAX_PAY` to 1."""
    if not isinstance(value, Fraction):
        value = parse_ratio(value, f"{name} pay")
    elif value < 0:
        raise RulesError(f"{name} pay {value} is negative; pays must be 0 or more")
    if value > MAX_PAY:
        raise RulesError(
            f"{name} pay {short_number(value)} is out of range: use 0 to {MAX_PAY} (to 1)"
        )
    return value
