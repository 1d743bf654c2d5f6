"""The rule table: every rule of the game as one row of data (STYLE.md point 1).

Each :class:`Rule` holds a rule's name, type, default, range or choices, how it is read
from a value or its text, how it is checked, written to JSON and to the exact canonical
key, its meaning, its CLI help, its plain words for titles and summaries, and whether the
dealer's play depends on it.  :class:`~solver.model.rules.Rules`, its validation and
encodings, the CLI's and the API's options, ``cbj rules``, every title and the rules table
of ``docs/rules.md`` are derived from :data:`RULE_TABLE`: adding a rule is one row here,
``python scripts/rules_code.py`` and ``scripts/rules_doc.py`` (which write the code a type
checker reads and the docs' table), and the code that gives it meaning.

>>> [rule.name for rule in RULE_TABLE if rule.dealer]
['dealer_stands_on', 'dealer_bonus', 'dealer_natural']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from fractions import Fraction
from typing import Any, NamedTuple

from solver.model.cards import MAX_DECKS
from solver.model.checks import (
    format_ratio,
    is_whole,
    parse_ratio,
    plain_number,
    short_number,
    shown,
    whole_number,
    whole_text,
)
from solver.model.errors import RulesError
from solver.model.paytable import MAX_PAY, Paytable, read_paytable, tier_named

MIN_BONUS_RATIO = Fraction(1, 2)
#: Documented ranges, checked before any arithmetic: blackjack pays more than 0 and at most
#: ``MAX_BLACKJACK_PAY`` to 1, the bonus ratio is ``MIN_BONUS_RATIO`` to ``MAX_BONUS_RATIO``
#: (a Bonus pay is 0 to ``MAX_PAY`` to 1: see :mod:`solver.model.paytable`).
MAX_BLACKJACK_PAY = Fraction(100)
MAX_BONUS_RATIO = Fraction(100)
#: The rule text the defaults read, as the rows' sources cite it.
RULE_TEXT = "Community Blackjack - Casino Edition rule text (shared/game-rules.txt)"


class DealerBonus(StrEnum):
    """How the dealer counts the Bonus card in its totals (rule clauses 7 and 8)."""

    CHOOSES = "chooses"
    """With or without it, whichever makes the better total (the rule text's reading)."""
    MUST_USE = "must_use"
    """In every total, as a standard dealer counts its up card: own cards plus the Bonus
    card over 21 bust."""


class DealerNatural(StrEnum):
    """Which two-card dealer 21s count as a natural (rule clause 9)."""

    WITH_BONUS = "with_bonus"
    """One own card plus the Bonus card, or two own cards without it."""
    OWN_CARDS = "own_cards"
    """Only two own cards make a natural."""
    BONUS_CARD = "bonus_card"
    """Only one own card plus the Bonus card; two own cards making 21 are an ordinary 21."""
    NONE = "none"
    """The dealer never has a natural; every 21 is just 21."""


class NaturalBeats(StrEnum):
    """Which standing player hands a dealer natural beats (rule clause 9).

    Every player hand below 21 loses to a natural whatever the reading; the readings
    differ on player 21s.  A player blackjack (clause 5) is settled before the dealer
    plays, so no reading reaches it.
    """

    MULTI_CARD_21 = "multi_card_21"
    """A player 21 of three or more cards loses; a 21 of two own cards ties."""
    NON_BLACKJACK = "non_blackjack"
    """Every player hand that is not a blackjack loses, a 21 of two own cards included."""
    NOTHING = "nothing"
    """A natural is just 21: it ties every player 21."""


def _same(value: Any) -> Any:
    return value


class Rule(NamedTuple):
    """One rule of the game: everything the code and the docs say about it, as data.

    A named tuple rather than a dataclass: the table is read at every start of ``cbj``,
    and a dataclass of this many fields costs more to make than the rest of this module.
    """

    name: str
    """The field of ``Rules``, the API's keyword and (with dashes) the CLI's option."""
    kind: type
    """The type of its value once checked."""
    default: Any
    clause: int
    """The clause of the rule text it reads."""
    source: str
    """Where its default comes from: the words of the rule text it rests on, quoted with
    their citation, or why no text gives it (the ``casino-edition`` preset's source)."""
    limits: str
    """Its range or choices in words (``1 to 8``)."""
    meaning: str
    """What it means, for ``cbj rules`` and the docs."""
    help: str
    """The CLI's help text of its option."""
    label: str
    """Its name in plain words, heading a line of the rules in force (``Dealer stands``)."""
    check: Callable[[Any], Any]
    """A value of it, checked (and parsed if given as text): :class:`RulesError` if bad."""
    parse: Callable[[Any], Any]
    """A value or its text (an option's), read into a value for :attr:`check`."""
    words: Callable[[Any], str]
    """A value in plain words, the setting on its line of the rules in force."""
    sentence: Callable[[Any], str]
    """A value as a clause of the one-line rules sentence of charts and reports."""
    phrase: Callable[[Any], str]
    """A value in a few plain words, for summaries and titles (``dealer stands on 17``)."""
    tag: Callable[[Any], str]
    """A value in the terse form the chart's JSON title has always used (kept as it is:
    the golden files and ``strategy_tables/`` hold it)."""
    to_json: Callable[[Any], Any] = _same
    """A value as the JSON of ``Rules.to_json``."""
    canonical: Callable[[Any], Any] = _same
    """A value as exact canonical JSON, for keys (ratios as ``[p, q]``)."""
    from_canonical: Callable[[Any], Any] = _same
    """The inverse of :attr:`canonical`."""
    choices: tuple[str, ...] = ()
    """The values it can take, where they are a closed list."""
    common: tuple[Any, ...] = ()
    """Values worth comparing, checked: ``cbj variants`` takes a list of values of a rule
    that has some (these are its help's example), and the report's sweep tries each alone."""
    dealer: bool = False
    """The dealer's play depends on it (so the dealer's structures are shared only by rule
    sets that agree on it)."""

    @property
    def what(self) -> str:
        """The rule's name in words, as error messages say it (``dealer stands on``)."""
        return self.name.replace("_", " ")

    @property
    def flag(self) -> str:
        """The CLI's option (``--dealer-stands-on``)."""
        return "--" + self.name.replace("_", "-")


def to_one(pay: Fraction) -> str:
    """A pay as ``3 to 2``.

    >>> to_one(Fraction(3, 2))
    '3 to 2'
    """
    return format_ratio(pay).replace(":", " to ")


def _pair(value: Fraction) -> list[int]:
    return [value.numerator, value.denominator]


def _unpair(pair: Any) -> Fraction:
    """A ratio written as ``[p, q]`` (:func:`_pair`), checked: two whole numbers, q > 0."""
    if not (isinstance(pair, list | tuple) and len(pair) == 2 and all(map(is_whole, pair))):
        raise RulesError(f"ratio {shown(pair)} is not a pair [p, q] of whole numbers")
    if pair[1] <= 0:
        raise RulesError(f"ratio {shown(pair)} has a denominator that is not positive")
    return Fraction(pair[0], pair[1])


def _decks(n: int) -> str:
    return f"{n} deck{'s' if n > 1 else ''}"


def _check_bonus_ratio(value: Any) -> Fraction:
    ratio = parse_ratio(value, "bonus ratio")
    if ratio > MAX_BONUS_RATIO:
        raise RulesError(
            f"bonus ratio {short_number(ratio)} is out of range: use {MIN_BONUS_RATIO} "
            f"to {MAX_BONUS_RATIO}"
        )
    if ratio < MIN_BONUS_RATIO:
        raise RulesError(
            f"bonus ratio {short_number(ratio)} is below 1/2: the rules require a Bonus wager "
            "of at least half the main wager"
        )
    return ratio


def _check_blackjack_pays(value: Any) -> Fraction:
    pays = parse_ratio(value, "blackjack pays")
    if pays <= 0:
        raise RulesError("blackjack pays must be more than 0, e.g. 3:2 or 6:5")
    if pays > MAX_BLACKJACK_PAY:
        raise RulesError(
            f"blackjack pays {short_number(pays)} is out of range: use at most "
            f"{MAX_BLACKJACK_PAY}:1, e.g. 3:2 or 6:5"
        )
    return pays


def _check_paytable(value: Any) -> Paytable:
    if isinstance(value, str):  # the text every surface reads, e.g. "15:4:1"
        return Paytable.parse(value)
    if not isinstance(value, Paytable):
        raise RulesError(f"paytable {shown(value)} must be a Paytable or its text, e.g. 15:4:1")
    return value


def _pays_words(paytable: Paytable) -> str:
    return ", ".join(
        f"{tier.words} {to_one(pay)}"
        for tier, pay in zip(paytable.tiers, paytable.pays, strict=True)
    )


def _pays_sentence(paytable: Paytable) -> str:
    pays = " / ".join(str(pay) for pay in paytable.pays)
    return f"Bonus pays {pays} to 1 ({' / '.join(tier.words for tier in paytable.tiers)})"


def _paytable_canonical(paytable: Paytable) -> Any:
    """Clause 4's three pays as a list of pairs; named tiers as ``[tier, pair]`` items."""
    if paytable.standard:
        return [_pair(pay) for pay in paytable.pays]
    return [
        [tier.option, _pair(pay)] for tier, pay in zip(paytable.tiers, paytable.pays, strict=True)
    ]


def _paytable_from_canonical(items: Any) -> Paytable:
    if not isinstance(items, list | tuple) or not all(isinstance(i, list | tuple) for i in items):
        raise RulesError("a paytable's canonical form is a list of pays (or of tier and pay)")
    if items and items[0] and isinstance(items[0][0], str):
        return Paytable(
            (_unpair(pair) for _, pair in items), tiers=(tier_named(name) for name, _ in items)
        )
    return Paytable(_unpair(pair) for pair in items)


def _whole_rule(name: str, low: int, high: int, **row: Any) -> Rule:
    """A rule whose value is a whole number from ``low`` to ``high``."""
    what = name.replace("_", " ")
    return Rule(
        name,
        int,
        limits=f"{low} to {high}",
        check=lambda value: whole_number(value, what, low, high),
        parse=lambda value: whole_text(value, what),
        **row,
    )


def _choice_rule(
    name: str,
    choices: type[StrEnum],
    words: Mapping[Any, tuple[str, str]],
    heads: tuple[str, str],
    **row: Any,
) -> Rule:
    """A rule whose value is one of ``choices``; ``words`` gives each its long and short
    plain words, ``heads`` what the sentence and the phrase put before the short words."""
    what = name.replace("_", " ")
    values = tuple(choice.value for choice in choices)

    def check(value: Any) -> StrEnum:
        """A choice by its value, written with hyphens or (its old spelling) underscores."""
        if isinstance(value, str):  # a member is a str too
            try:
                return choices(value.replace("-", "_"))
            except ValueError:
                pass
        written = ", ".join(v.replace("_", "-") for v in values)
        raise RulesError(f"{what} {shown(value)} is unknown: use one of {written}")

    return Rule(
        name,
        choices,
        limits=", ".join(values),
        check=check,
        parse=check,
        words=lambda value: words[value][0],
        sentence=lambda value: heads[0] + words[value][1],
        phrase=lambda value: heads[1] + words[value][1],
        tag=lambda value: f"{what} {value.value}",
        to_json=lambda value: value.value,
        canonical=lambda value: value.value,
        from_canonical=check,
        choices=values,
        **row,
    )


_BONUS_WORDS: dict[DealerBonus, tuple[str, str]] = {
    DealerBonus.CHOOSES: ("with or without it, whichever makes the better total", ""),
    DealerBonus.MUST_USE: (
        "always counted, as a standard dealer's up card (own cards plus it over 21 bust)",
        "dealer must use the Bonus card",
    ),
}


def _unless_default(rule: Rule) -> Rule:
    """``rule`` saying nothing in the one-line sentence and the summaries at its default.

    For rules added after those lines were published (charts, reports, ``strategy_tables/``):
    the default game's lines stay as they were, and a change still names itself.
    """
    return rule._replace(
        sentence=lambda value: "" if value == rule.default else rule.sentence(value),
        phrase=lambda value: "" if value == rule.default else rule.phrase(value),
    )


_NATURAL_WORDS: dict[DealerNatural, tuple[str, str]] = {
    DealerNatural.WITH_BONUS: ("one dealer card with the Bonus card, or two dealer cards",) * 2,
    DealerNatural.OWN_CARDS: ("two dealer cards only",) * 2,
    DealerNatural.BONUS_CARD: ("one dealer card with the Bonus card only",) * 2,
    DealerNatural.NONE: ("none (every dealer 21 is just 21)", "none"),
}
_BEATS_WORDS: dict[NaturalBeats, tuple[str, str]] = {
    NaturalBeats.MULTI_CARD_21: (
        "player 21s of three or more cards (a two-card 21 ties)",
        "player 21s of three or more cards",
    ),
    NaturalBeats.NON_BLACKJACK: ("every player hand but a blackjack",) * 2,
    NaturalBeats.NOTHING: (
        "nothing beyond totals below 21 (it ties every player 21)",
        "nothing beyond totals below 21",
    ),
}

#: Every rule of the game, in the order of ``Rules``' fields and of its JSON.
RULE_TABLE: tuple[Rule, ...] = (
    _whole_rule(
        "decks",
        1,
        MAX_DECKS,
        default=6,
        clause=1,
        source=f'clause 1: "played with 6 standard decks of playing cards" ({RULE_TEXT})',
        common=(1, 2, 6, 8),
        meaning="standard 52-card decks shuffled together in the shoe (clause 1)",
        help="Decks in the shoe (1-8).",
        label="Decks",
        words=lambda n: f"{n} standard 52-card deck{'s' if n > 1 else ''}",
        sentence=_decks,
        phrase=_decks,
        tag=_decks,
    ),
    Rule(
        "bonus_ratio",
        Fraction,
        MIN_BONUS_RATIO,
        clause=2,
        source=f'clause 2: "the Bonus wager must be at least half of the main wager" '
        f"({RULE_TEXT}); the smallest allowed Bonus wager",
        limits=f"{MIN_BONUS_RATIO} to {MAX_BONUS_RATIO}",
        meaning="Bonus wager as a multiple of the main wager, 1/2 to 100 (clause 2)",
        help="Bonus wager per unit of main wager (at least 1/2).",
        label="Bonus wager",
        check=_check_bonus_ratio,
        parse=lambda value: parse_ratio(value, "bonus ratio"),
        words=lambda r: f"{r} of the main wager (at least 1/2)",
        sentence=lambda r: f"Bonus wager {r} of the main wager",
        phrase=lambda r: f"Bonus wager {r} of the main wager",
        tag=lambda r: f"bonus ratio {r}",
        to_json=lambda r: f"{r.numerator}/{r.denominator}",
        canonical=_pair,
        from_canonical=_unpair,
    ),
    Rule(
        "paytable",
        Paytable,
        Paytable(),
        clause=4,
        source="the rule text prints no Bonus pays (clause 4): an illustrative paytable, 15:4:1",
        limits=f"each 0 to {MAX_PAY}",
        meaning="Bonus pays to 1, each 0 to 10000: suited match : rank match : adjacent, or "
        "named tiers best first (cl. 4; docs/designer.md)",
        help="Bonus pays S:R:A (suited match : rank match : adjacent), each to 1, or tiers "
        "best first, e.g. suited-match=15,rank-match=4,suited-adjacent=2,adjacent=1.",
        label="Bonus pays",
        check=_check_paytable,
        parse=read_paytable,
        words=_pays_words,
        sentence=_pays_sentence,
        phrase=lambda p: f"Bonus pays {p}",
        tag=lambda p: f"paytable {p}",
        to_json=lambda p: {k: plain_number(v) for k, v in p.as_dict().items()},
        canonical=_paytable_canonical,
        from_canonical=_paytable_from_canonical,
    ),
    Rule(
        "blackjack_pays",
        Fraction,
        Fraction(3, 2),
        clause=5,
        source=f'clause 5: "their Ante will win immediately and be paid at a rate of 3:2" '
        f"({RULE_TEXT})",
        common=(Fraction(3, 2), Fraction(6, 5)),
        limits=f"more than 0, at most {MAX_BLACKJACK_PAY}:1",
        meaning="pay of own card + Bonus card = 21, won at once, up to 100:1 (clause 5)",
        help="Pay of own card + Bonus card = 21, e.g. 3:2, 6:5, 2:1, 1:1.",
        label="Blackjack pays",
        check=_check_blackjack_pays,
        parse=lambda value: parse_ratio(value, "blackjack pays"),
        words=lambda p: f"{to_one(p)} (own card + Bonus card = 21)",
        sentence=lambda p: f"blackjack pays {to_one(p)}",
        phrase=lambda p: f"blackjack pays {format_ratio(p)}",
        tag=lambda p: f"blackjack pays {format_ratio(p)}",
        to_json=format_ratio,
        canonical=_pair,
        from_canonical=_unpair,
    ),
    _whole_rule(
        "dealer_stands_on",
        12,
        21,
        default=18,
        clause=7,
        source=f'clause 7: "They have a total of at least eighteen, either with or without use '
        f'of the Bonus card" ({RULE_TEXT})',
        common=(17, 18),
        meaning="dealer stops at this best total, with or without the Bonus card (cl. 7)",
        help="Dealer stops at this best total, with or without the Bonus card (12-21).",
        label="Dealer stands",
        words=lambda n: f"at a best total of {n} or more, with or without the Bonus card",
        sentence=lambda n: f"dealer stands on {n} or more",
        phrase=lambda n: f"dealer stands on {n}",
        tag=lambda n: f"dealer stands on {n}",
        dealer=True,
    ),
    _unless_default(
        _choice_rule(
            "dealer_bonus",
            DealerBonus,
            _BONUS_WORDS,
            ("", ""),
            default=DealerBonus.CHOOSES,
            clause=7,
            source=f'clause 7: "either with or without use of the Bonus card" ({RULE_TEXT}); '
            "the dealer, like the player (clause 8), takes whichever total is better",
            meaning="how the dealer counts the Bonus card: chooses (with or without it, the "
            "better total), must-use (in every total, as an up card; over 21 busts) (cl. 7)",
            help="How the dealer counts the Bonus card: chooses (with or without it) or "
            "must-use (always, as a standard dealer's up card).",
            label="Dealer's Bonus card",
            dealer=True,
        )
    ),
    _choice_rule(
        "dealer_natural",
        DealerNatural,
        _NATURAL_WORDS,
        ("dealer naturals: ", "dealer naturals: "),
        default=DealerNatural.WITH_BONUS,
        clause=9,
        source=f'clause 9: "a two-card dealer total of twenty-one is counted as a natural '
        f'blackjack" ({RULE_TEXT}); read as either two own cards or one own card and the '
        "Bonus card",
        common=tuple(DealerNatural),
        meaning="two-card dealer 21s that are naturals: with-bonus, own-cards, bonus-card, "
        "none (cl. 9)",
        help="Which two-card dealer 21s are naturals.",
        label="Dealer naturals",
        dealer=True,
    ),
    _choice_rule(
        "natural_beats",
        NaturalBeats,
        _BEATS_WORDS,
        ("a dealer natural beats ", "a natural beats "),
        default=NaturalBeats.MULTI_CARD_21,
        clause=9,
        source=f'clause 9: "beats any player total of 21 with three or more cards" ({RULE_TEXT})',
        meaning="what a dealer natural beats besides totals below 21: multi-card-21 (player "
        "21s of 3+ cards), non-blackjack (every player 21), nothing (ties every 21) (cl. 9)",
        help="Which player hands a dealer natural beats: 21s of 3+ cards, every "
        "non-blackjack hand, or none (ties every 21).",
        label="A dealer natural beats",
    ),
)

#: Every rule by name.
RULE_NAMES: tuple[str, ...] = tuple(rule.name for rule in RULE_TABLE)
RULES_BY_NAME: dict[str, Rule] = {rule.name: rule for rule in RULE_TABLE}
#: The rules the dealer's play reads (clauses 7 and 9): the dealer's projection keeps these.
DEALER_RULE_NAMES: tuple[str, ...] = tuple(rule.name for rule in RULE_TABLE if rule.dealer)
