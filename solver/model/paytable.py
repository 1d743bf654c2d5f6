"""The Bonus wager's paytable as data: named tiers, each a condition on two cards (clause 4).

A tier pays when the player's card and the Bonus card are a given rank distance apart
(0: the same rank; 1: adjacent, the ace touching both the 2 and the king), with the same
suit, a different suit, or either, and optionally when one of the two cards is a named
rank.  Only the best tier reached pays: the tiers are listed best first, and the first
that holds is the one paid.  The clause's own three tiers are :data:`BONUS_TIERS`; any
other list is spelt ``suited-match=15,rank-match=4,suited-adjacent=2,adjacent=1`` over
the vocabulary of :func:`tier_named`.

>>> [tier.name for tier in BONUS_TIERS]
['suited_match', 'rank_match', 'adjacent']
>>> str(Paytable.parse("suited-match=15,rank-match=4,suited-adjacent=2,adjacent=1"))
'suited-match=15,rank-match=4,suited-adjacent=2,adjacent=1'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import islice
from typing import Any, NamedTuple

from solver.model.cards import Card
from solver.model.checks import (
    MAX_NUMBER_TEXT,
    RatioLike,
    parse_ratio,
    plain_number,
    share_of,
    short_number,
    shown,
)
from solver.model.errors import DesignError, RulesError, ShoeError

#: A Bonus pay is 0 to ``MAX_PAY`` to 1.
MAX_PAY = Fraction(10_000)
#: The most tiers a paytable may list.
MAX_TIERS = 16
#: The Bonus outcome of a pair of cards that reaches no tier.
LOSE = "loss"
#: Rank words of the tier vocabulary, by rank index (0 = ace .. 12 = king).
RANK_WORDS = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)


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
    """The tier's name in JSON (``suited_match``); options spell it with hyphens."""
    words: str
    """The tier in plain words (``suited match``)."""
    distance: int
    """Rank distance of the two cards: 0 for the same rank, 1 for adjacent ranks."""
    suited: bool | None
    """True: the same suit; False: different suits; None: either."""
    rank: int | None = None
    """A rank index (0 = ace .. 12 = king) one of the two cards must have; None: any."""

    @property
    def option(self) -> str:
        """The tier as options and tier lists spell it (``suited-match``)."""
        return self.name.replace("_", "-")

    def holds_ranks(self, first: int, second: int, suited: bool) -> bool:
        """The tier holds for two cards of rank indices ``first``, ``second``, suited or not.

        >>> tier_named("ace-adjacent").holds_ranks(12, 0, False)
        True
        """
        if rank_distance(first, second) != self.distance:
            return False
        if self.rank is not None and self.rank not in (first, second):
            return False
        return self.suited is None or self.suited is suited

    def holds(self, player: Card, bonus: Card) -> bool:
        """The two cards reach this tier (suits needed only when the tier asks for them).

        >>> BONUS_TIERS[2].holds(Card.parse("K"), Card.parse("A"))
        True
        """
        if rank_distance(player.rank.order, bonus.rank.order) != self.distance:
            return False
        if self.rank is not None and self.rank not in (player.rank.order, bonus.rank.order):
            return False
        if self.suited is None:
            return True
        if player.suit is None or bonus.suit is None:
            raise ShoeError("a rank match needs both suits to tell suited from unsuited")
        return (player.suit == bonus.suit) is self.suited


#: The Bonus wager's paying tiers of clause 4, best first.
BONUS_TIERS: tuple[Tier, ...] = (
    Tier("suited_match", "suited match", 0, True),
    Tier("rank_match", "rank match", 0, False),
    Tier("adjacent", "adjacent", 1, None),
)
#: Their pays in the default paytable; the rule text prints no pays, so they are an illustration.
DEFAULT_PAYS: tuple[Fraction, ...] = (Fraction(15), Fraction(4), Fraction(1))
_TIER_NAMES = tuple(tier.name for tier in BONUS_TIERS)
_VOCABULARY = (
    "[suited-|unsuited-][RANK-](match|adjacent), or rank-match (a match in rank, not in "
    "suit); RANK is ace, two, ..., ten, jack, queen or king"
)


@cache
def tier_named(text: str) -> Tier:
    """The tier a name of the vocabulary spells: ``[suited-|unsuited-][RANK-](match|adjacent)``.

    ``rank-match`` (clause 4b: the same rank, not the same suit) is ``unsuited-match``; a
    named rank asks one of the two cards to be of that rank (both, for a match).

    >>> tier_named("suited-ace-match")
    Tier(name='suited_ace_match', words='suited ace match', distance=0, suited=True, rank=0)
    >>> tier_named("unsuited-match") == BONUS_TIERS[1]
    True
    """
    cleaned = text.strip().lower().replace("_", "-")
    cleaned = {"rank-match": "unsuited-match"}.get(cleaned, cleaned)
    ranks = "|".join(RANK_WORDS)
    match = re.fullmatch(rf"(?:(suited|unsuited)-)?(?:({ranks})-)?(match|adjacent)", cleaned)
    if match is None:
        raise RulesError(f"Bonus tier {text.strip()[:40]!r} is unknown: use {_VOCABULARY}")
    suit, rank, kind = match.groups()
    if (suit, rank, kind) == ("unsuited", None, "match"):
        return BONUS_TIERS[1]
    words = " ".join(w for w in (suit, rank, kind) if w)
    return Tier(
        words.replace(" ", "_"),
        words,
        0 if kind == "match" else 1,
        None if suit is None else suit == "suited",
        None if rank is None else RANK_WORDS.index(rank),
    )


@cache
def tier_classes(tiers: tuple[Tier, ...]) -> dict[tuple[int, int, bool], str]:
    """The outcome of every (rank index, rank index, suited) class of card pairs.

    The first tier that holds names the outcome; :data:`LOSE` when none does.

    >>> tier_classes(BONUS_TIERS)[(0, 12, True)]
    'adjacent'
    """
    return {
        (i, j, suited): next((t.name for t in tiers if t.holds_ranks(i, j, suited)), LOSE)
        for i in range(13)
        for j in range(13)
        for suited in (True, False)
    }


def check_tiers(tiers: tuple[Tier, ...]) -> tuple[Tier, ...]:
    """``tiers`` if each can be reached, else :class:`RulesError` naming the one that cannot.

    >>> check_tiers((tier_named("adjacent"), tier_named("suited-adjacent")))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.model.errors.RulesError: Bonus tier suited-adjacent is never paid: ... adjacent first...
    """
    if not 1 <= len(tiers) <= MAX_TIERS:
        raise RulesError(f"a paytable has 1 to {MAX_TIERS} tiers, not {len(tiers)}")
    names = [t.name for t in tiers]
    for k, tier in enumerate(tiers):
        if tier.name in names[:k]:
            raise RulesError(f"Bonus tier {tier.option} is listed twice")
        paid = tier_classes(tiers[: k + 1])
        if tier.name not in paid.values():
            earlier = {
                paid_by
                for (i, j, s), paid_by in paid.items()
                if tier.holds_ranks(i, j, s) and paid_by != LOSE
            }
            first = next(t.option for t in tiers if t.name in earlier)
            raise RulesError(
                f"Bonus tier {tier.option} is never paid: every pair it holds for reaches "
                f"{first} first; list the tiers best first"
            )
    return tiers


def tier_letters(tiers: tuple[Tier, ...]) -> list[str]:
    """Clause 4's three tiers as ``S``, ``R``, ``A``; any other tiers by their names.

    >>> tier_letters(BONUS_TIERS), tier_letters((tier_named("suited-adjacent"),))
    (['S', 'R', 'A'], ['suited-adjacent'])
    """
    return [t.name[0].upper() if tiers == BONUS_TIERS else t.option for t in tiers]


def tier_reached(player: Card, bonus: Card, tiers: tuple[Tier, ...] = BONUS_TIERS) -> Tier | None:
    """The best tier of ``tiers`` the two cards reach, or None when the Bonus wager loses.

    >>> tier_reached(Card.parse("Ks"), Card.parse("Kh")).name
    'rank_match'
    """
    return next((tier for tier in tiers if tier.holds(player, bonus)), None)


@dataclass(frozen=True, slots=True, init=False, repr=False)
class Paytable:
    """Pays of the Bonus wager, each "to 1", one for each of its ``tiers`` (best first).

    Given by tier name (``Paytable(suited_match=15, rank_match=4, adjacent=1)``; a tier
    left out keeps its pay) or whole as ``pays``; ``tiers`` defaults to the clause's own
    :data:`BONUS_TIERS` at :data:`DEFAULT_PAYS`.  Each tier's pay reads as an attribute
    (``paytable.rank_match``).

    >>> Paytable(rank_match=5)
    Paytable(suited_match=Fraction(15, 1), rank_match=Fraction(5, 1), adjacent=Fraction(1, 1))
    >>> Paytable([2, 1], tiers=(tier_named("match"), tier_named("adjacent"))).as_dict()
    {'match': Fraction(2, 1), 'adjacent': Fraction(1, 1)}
    """

    pays: tuple[Fraction, ...]
    tiers: tuple[Tier, ...]

    def __init__(
        self,
        pays: Iterable[RatioLike] | None = None,
        tiers: Iterable[Tier] | None = None,
        **by_tier: RatioLike,
    ) -> None:
        given_tiers = None if tiers is None else tuple(_listed(tiers, "tiers"))
        if given_tiers is not None and not all(isinstance(t, Tier) for t in given_tiers):
            raise TypeError("Paytable's tiers must be Tier values, e.g. tier_named('match')")
        listed = BONUS_TIERS if given_tiers is None else check_tiers(given_tiers)
        given: list[RatioLike]
        if pays is not None:
            given = _listed(pays, "pays")
        elif listed == BONUS_TIERS:
            given = list(DEFAULT_PAYS)
        else:
            raise RulesError("a paytable of named tiers needs a pay for each tier")
        if len(given) != len(listed):
            raise RulesError(
                f"a paytable of {len(listed)} tiers has {len(listed)} pays, not {len(given)}"
            )
        names = [t.name for t in listed]
        unknown = sorted(set(by_tier) - set(names))
        if unknown:
            raise TypeError(
                f"Paytable has no tier {shown(unknown[0])}: use one of {', '.join(names)}"
            )
        for name, pay in by_tier.items():
            given[names.index(name)] = pay
        checked = tuple(_checked_pay(t.name, p) for t, p in zip(listed, given, strict=True))
        object.__setattr__(self, "pays", checked)
        object.__setattr__(self, "tiers", listed)

    def __getattr__(self, name: str) -> Fraction:
        """The pay of the tier called ``name``."""
        if not name.startswith("_"):
            for tier, pay in zip(self.tiers, self.pays, strict=True):
                if tier.name == name:
                    return pay
        raise AttributeError(name)

    def __repr__(self) -> str:
        if not self.standard:
            return f"Paytable.parse({str(self)!r})"
        named = ", ".join(f"{name}={pay!r}" for name, pay in self.as_dict().items())
        return f"Paytable({named})"

    @property
    def standard(self) -> bool:
        """The paytable has the clause's own three tiers (and so the ``S:R:A`` form)."""
        return self.tiers == BONUS_TIERS

    @property
    def outcomes(self) -> tuple[str, ...]:
        """Every Bonus outcome: each tier's name, best first, then :data:`LOSE`."""
        return (*(t.name for t in self.tiers), LOSE)

    @classmethod
    def parse(cls, text: str) -> Paytable:
        """Parse ``S:R:A`` (suited match, rank match, adjacent, each "to 1") or a tier list.

        A tier list is ``tier=pay`` items separated by commas, best tier first.

        >>> Paytable.parse("15:4:1") == Paytable()
        True
        >>> Paytable.parse("suited-match=15, rank-match=4, adjacent=1") == Paytable()
        True
        """
        if not isinstance(text, str):
            raise TypeError(f"Paytable.parse takes its text as a str, not {type(text).__name__}")
        if "=" in text:
            return cls._parse_tiers(text)
        parts = text.split(":")
        if len(parts) != len(BONUS_TIERS) or not all(p.strip() for p in parts):
            letters = ":".join(tier.name[0].upper() for tier in BONUS_TIERS)
            words = " : ".join(tier.words for tier in BONUS_TIERS)
            raise RulesError(
                f"paytable {shown(text)} is malformed: expected {letters}, e.g. {cls()} "
                f"({words}, each to 1), or tiers best first, e.g. "
                "suited-match=15,rank-match=4,suited-adjacent=2,adjacent=1"
            )
        return cls(parse_ratio(p, f"{t.name} pay") for t, p in zip(BONUS_TIERS, parts, strict=True))

    @classmethod
    def _parse_tiers(cls, text: str) -> Paytable:
        items = [item.strip() for item in text.split(",")]
        if len(items) > MAX_TIERS:
            raise RulesError(
                f"paytable lists {len(items)} tiers: a paytable has at most {MAX_TIERS}"
            )
        tiers, pays = [], []
        for item in items:
            name, equals, pay = item.partition("=")
            if not equals or not name.strip() or not pay.strip():
                raise RulesError(
                    f"paytable item {item[:40]!r} is malformed: write tier=pay, e.g. "
                    "suited-adjacent=2, items separated by commas"
                )
            tier = tier_named(name)
            tiers.append(tier)
            pays.append(parse_ratio(pay, f"{tier.option} pay"))
        return cls(pays, tiers)

    def __str__(self) -> str:
        if self.standard:
            return ":".join(plain_number(p) for p in self.pays)
        return ",".join(
            f"{t.option}={plain_number(p)}" for t, p in zip(self.tiers, self.pays, strict=True)
        )

    def as_dict(self) -> dict[str, Fraction]:
        """The pays by tier name."""
        return {t.name: p for t, p in zip(self.tiers, self.pays, strict=True)}

    def tier(self, name: str) -> Tier:
        """This paytable's tier called ``name`` (either spelling), or :class:`RulesError`."""
        wanted = tier_named(name)
        if wanted not in self.tiers:
            listed = [t.option for t in self.tiers]
            choices = listed[0] if len(listed) == 1 else "one of " + ", ".join(listed)
            raise RulesError(
                f"Bonus tier {wanted.option} is not in paytable {self}, whose tiers are its "
                f"own: use {choices}"
            )
        return wanted

    def pay(self, tier: Tier | str) -> Fraction:
        """The pay of one tier, given as a :class:`Tier` or by name."""
        wanted = tier if isinstance(tier, str) else tier.name
        return self.pays[self.tiers.index(self.tier(wanted))]

    def net(self, outcome: str) -> Fraction:
        """Net result of one unit on the Bonus wager for ``outcome`` (-1 when it loses)."""
        return Fraction(-1) if outcome == LOSE else self.pay(outcome)

    def outcome(self, player: Card, bonus: Card) -> str:
        """The outcome (best tier's name, or :data:`LOSE`) of the player's card and the Bonus card.

        >>> Paytable().outcome(Card.parse("Qs"), Card.parse("Ks"))
        'adjacent'
        """
        reached = tier_reached(player, bonus, self.tiers)
        return LOSE if reached is None else reached.name

    def with_pay(self, tier: Tier | str, pay: Fraction) -> Paytable:
        """This paytable with one tier's pay replaced."""
        name = self.tier(tier if isinstance(tier, str) else tier.name).name
        return Paytable(self.pays, self.tiers, **{name: pay})


#: A paytable as the API takes it: itself, its text (``15:4:1``, or a tier list), its three
#: pays ``(S, R, A)`` as a tuple or a list, or its pays by tier name in a mapping, best
#: tier first (``{"suited-match": 15, "suited-adjacent": 2, "adjacent": 1}``).
PaytableLike = Paytable | str | Sequence[RatioLike] | Mapping[str, RatioLike]


def read_paytable(value: PaytableLike) -> Paytable:
    """A paytable given in any of its forms (:data:`PaytableLike`), parsed and checked.

    >>> read_paytable((15, 4, 1)) == read_paytable([15, 4, 1]) == read_paytable("15:4:1")
    True
    >>> str(read_paytable({"suited-match": 15, "suited-adjacent": 2, "adjacent": 1}))
    'suited-match=15,suited-adjacent=2,adjacent=1'
    """
    if isinstance(value, Paytable):
        return value
    if isinstance(value, str):
        return Paytable.parse(value)
    try:  # a pay of the wrong type is named as the paytable's
        if isinstance(value, Mapping):
            names = tuple(n if isinstance(n, str) else shown(n) for n in value)
            return Paytable(tuple(value.values()), tiers=tuple(map(tier_named, names)))
        if isinstance(value, tuple | list):
            return Paytable(value)
    except TypeError as error:
        raise TypeError(f"paytable: {error}") from None
    raise RulesError(
        f"paytable {shown(value)} must be a Paytable, its text (15:4:1), its pays (S, R, A) "
        "as a tuple or a list, or its pays by tier name in a mapping"
    )


def _listed(given: Any, name: str) -> list[Any]:
    """The items of ``pays`` or ``tiers`` (a sequence, or an iterator read once), at most
    :data:`MAX_TIERS` of them; ``TypeError`` naming ``name`` for anything else."""
    if isinstance(given, str | bytes | bytearray):
        raise TypeError(
            f"Paytable takes pays and tiers as sequences, not {name} as text "
            "(a text is Paytable.parse's)"
        )
    try:
        items = list(islice(given, MAX_TIERS + 1))
    except TypeError:  # not iterable, or a 0-d array
        raise TypeError(
            f"Paytable's {name} must be a sequence, not {type(given).__name__}"
        ) from None
    if len(items) > MAX_TIERS:
        raise RulesError(f"a paytable has 1 to {MAX_TIERS} tiers: its {name} list more")
    return items


def _checked_pay(name: str, value: RatioLike) -> Fraction:
    """One tier's pay, parsed and checked: 0 to :data:`MAX_PAY` to 1."""
    value = parse_ratio(value, f"{name} pay")
    if value > MAX_PAY:
        raise RulesError(
            f"{name} pay {short_number(value)} is out of range: use 0 to {MAX_PAY} (to 1)"
        )
    return value


#: The largest pay a search may enumerate up to.
MAX_SEARCH_PAY = 1000
#: The most paytables a search may list.
MAX_TOP = 1000
#: House edges (targets and bands) lie in this range: a player edge of up to 100,000%
#: (pays up to 10,000 to 1 allow it), and at most 100% (the whole stake).
MIN_EDGE = Fraction(-1000)
MAX_EDGE = Fraction(1)


def parse_edge(text: str, what: str = "edge") -> Fraction:
    """Parse a house edge given as a decimal, a fraction or a percentage.

    >>> parse_edge("0.02"), parse_edge("1/50"), parse_edge("2%"), parse_edge("-0.5%")
    (Fraction(1, 50), Fraction(1, 50), Fraction(1, 50), Fraction(-1, 200))
    """
    cleaned = text.strip().replace(" ", "")
    if len(cleaned) > MAX_NUMBER_TEXT:
        raise DesignError(
            f"{what} {cleaned[:12]}... is {len(cleaned)} characters long: "
            f"write it in at most {MAX_NUMBER_TEXT}"
        )
    value = share_of(cleaned)
    if value is None:
        if re.fullmatch(r"[+-]?[\d.]+/0*\.?0*%?", cleaned, flags=re.ASCII):
            raise DesignError(f"{what} {shown(text)} divides by zero")
        raise DesignError(
            f"{what} {shown(text)} is not a house edge: write a decimal (0.02), "
            "a fraction (1/50) or a percentage (2%)"
        )
    return check_edge(value, what, repr(text.strip()[:24]))


def check_edge(value: Fraction, what: str = "edge", said: str | None = None) -> Fraction:
    """``value`` if it can be a house edge; a :class:`DesignError` saying ``said`` if not.

    >>> check_edge(Fraction(1, 50))
    Fraction(1, 50)
    """
    if not MIN_EDGE <= value <= MAX_EDGE:
        raise DesignError(
            f"{what} {said or short_number(value)} is out of range: a house edge lies between "
            f"{int(MIN_EDGE * 100):,}% (a player edge) and {int(MAX_EDGE * 100)}%"
        )
    return value


def parse_band(text: str, what: str = "edge range") -> tuple[Fraction, Fraction]:
    """Parse ``LO:HI``, two house edges with ``LO <= HI``.

    >>> parse_band("1%:2%")
    (Fraction(1, 100), Fraction(1, 50))
    """
    parts = text.split(":")
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise DesignError(
            f"{what} {shown(text)} is malformed: expected LO:HI, e.g. 1%:2% or 0.01:0.02"
        )
    low, high = (parse_edge(p, what) for p in parts)
    if low > high:
        raise DesignError(f"{what} {shown(text)} is empty: its low end {low} is above its high end")
    return low, high


def parse_tiers(text: str | Sequence[Tier | str]) -> tuple[Tier, ...]:
    """Tiers named in a comma list (``suited-match,rank-match,suited-adjacent,adjacent``),
    or given as a sequence of tiers or their names.

    >>> [t.name for t in parse_tiers("suited-match, adjacent")]
    ['suited_match', 'adjacent']
    """
    if not isinstance(text, str) and (
        not isinstance(text, Sequence) or not all(isinstance(i, str | Tier) for i in text)
    ):
        raise TypeError("tiers must be str or a sequence of Tier or str")
    items = text.split(",") if isinstance(text, str) else list(text)
    if (
        not items
        or len(items) > MAX_TIERS
        or any(isinstance(i, str) and not i.strip() for i in items)
    ):
        raise DesignError(
            f"tiers {shown(text)}: name 1 to {MAX_TIERS} tiers separated by commas, best "
            "first, e.g. suited-match,rank-match,suited-adjacent,adjacent"
        )
    tiers = tuple(tier_named(i) if isinstance(i, str) else i for i in items)
    Paytable([0] * len(tiers), tiers)  # each tier listed once and reachable
    return tiers
