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
#: Bonus ratios tabulated by default.
TABULATED_RATIOS: tuple[Fraction, ...] = (
    Fraction(1, 2),
    Fraction(3, 4),
    Fraction(1),
    Fraction(3, 2),
    Fraction(2),
)
#: Documented ranges, checked before any arithmetic: a Bonus pay is 0 to ``MAX_PAY`` to 1,
#: blackjack pays more than 0 and at most ``MAX_BLACKJACK_PAY`` to 1, the bonus ratio is
#: ``MIN_BONUS_RATIO`` to ``MAX_BONUS_RATIO``, and a number is written in at most
#: ``MAX_NUMBER_TEXT`` characters (so no pay can overflow a float or stall a conversion).
MAX_PAY = Fraction(10_000)
MAX_BLACKJACK_PAY = Fraction(100)
MAX_BONUS_RATIO = Fraction(100)
MAX_NUMBER_TEXT = 40


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


def natural_strength_of_alias(beats_multi_card_21: bool) -> NaturalBeats:
    """The :class:`NaturalBeats` reading the old yes/no option names.

    ``True`` (the natural beats a player 21 of three or more cards) is ``multi_card_21``;
    ``False`` (a natural ties every player 21) is ``nothing``.

    >>> natural_strength_of_alias(False).value
    'nothing'
    """
    return NaturalBeats.MULTI_CARD_21 if beats_multi_card_21 else NaturalBeats.NOTHING


def parse_ratio(text: str | int | Fraction, what: str = "ratio") -> Fraction:
    """Parse ``3:2``, ``3/2``, ``1.5`` or ``2`` into an exact non-negative fraction.

    >>> parse_ratio("6:5"), parse_ratio("0.5"), parse_ratio("1/2")
    (Fraction(6, 5), Fraction(1, 2), Fraction(1, 2))
    """
    if isinstance(text, int | Fraction):
        value = Fraction(text)
    else:
        cleaned = text.strip()
        if len(cleaned) > MAX_NUMBER_TEXT:
            raise RulesError(
                f"{what} {cleaned[:12]}... is {len(cleaned)} characters long: "
                f"write it in at most {MAX_NUMBER_TEXT}"
            )
        match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*[:/]\s*(\d+(?:\.\d+)?)", cleaned, flags=re.ASCII)
        try:
            if match:
                value = Fraction(match.group(1)) / Fraction(match.group(2))
            elif re.fullmatch(r"-?\d+(?:\.\d+)?", cleaned, flags=re.ASCII):
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
            if getattr(self, f.name) > MAX_PAY:
                raise RulesError(
                    f"{f.name} pay {_short(getattr(self, f.name))} is out of range: "
                    f"use 0 to {MAX_PAY} (to 1)"
                )

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


def _short(value: Fraction) -> str:
    """A number for an error message, cut short if it is long."""
    text = str(value)
    return text if len(text) <= 24 else f"{text[:20]}..."


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
    natural_beats: NaturalBeats = NaturalBeats.MULTI_CARD_21
    natural_beats_multi_card_21: bool | None = field(default=None, compare=False, repr=False)
    """Old yes/no spelling of ``natural_beats``, accepted on construction only.

    ``True`` keeps a reading under which a natural beats a player 21 of three or more
    cards (``multi_card_21``, or ``non_blackjack`` if that is given too); ``False`` means
    ``nothing``.  It is folded into ``natural_beats`` and then reset to None.
    """

    def __post_init__(self) -> None:
        if isinstance(self.decks, bool) or not isinstance(self.decks, int):
            raise RulesError(f"decks {self.decks!r} must be a whole number from 1 to 8")
        if not 1 <= self.decks <= 8:
            raise RulesError(f"decks {self.decks} is out of range: use 1 to 8")
        ratio = parse_ratio(self.bonus_ratio, "bonus ratio")
        if ratio > MAX_BONUS_RATIO:
            raise RulesError(
                f"bonus ratio {_short(ratio)} is out of range: use {MIN_BONUS_RATIO} "
                f"to {MAX_BONUS_RATIO}"
            )
        if ratio < MIN_BONUS_RATIO:
            raise RulesError(
                f"bonus ratio {ratio} is below 1/2: the rules require a Bonus wager "
                "of at least half the main wager"
            )
        object.__setattr__(self, "bonus_ratio", ratio)
        pays = parse_ratio(self.blackjack_pays, "blackjack pays")
        if pays <= 0:
            raise RulesError("blackjack pays must be more than 0, e.g. 3:2 or 6:5")
        if pays > MAX_BLACKJACK_PAY:
            raise RulesError(
                f"blackjack pays {_short(pays)} is out of range: use at most "
                f"{MAX_BLACKJACK_PAY}:1, e.g. 3:2 or 6:5"
            )
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
        try:
            beats = NaturalBeats(self.natural_beats)
        except ValueError:
            choices = ", ".join(b.value for b in NaturalBeats)
            raise RulesError(
                f"natural beats {self.natural_beats!r} is unknown: use one of {choices}"
            ) from None
        object.__setattr__(
            self, "natural_beats", _fold_alias(beats, self.natural_beats_multi_card_21)
        )
        object.__setattr__(self, "natural_beats_multi_card_21", None)
        if not isinstance(self.paytable, Paytable):
            raise RulesError(f"paytable {self.paytable!r} must be a Paytable")

    @classmethod
    def from_preset(cls, name: str, **overrides: Any) -> Rules:
        """The rules of preset ``name`` (see :data:`PRESETS`), with ``overrides`` on top.

        An override of None counts as not given, so that unset command-line options leave
        the preset alone.  The old ``natural_beats_multi_card_21`` option, given without
        ``natural_beats``, replaces the preset's natural strength.

        >>> Rules.from_preset("vegas-21").dealer_natural.value
        'bonus_card'
        >>> Rules.from_preset("vegas-21", decks=2, dealer_stands_on=None).decks
        2
        """
        preset = preset_named(name)
        given = {k: v for k, v in overrides.items() if v is not None}
        values = {rule.name: rule.value for rule in preset.rules}
        if "natural_beats_multi_card_21" in given and "natural_beats" not in given:
            del values["natural_beats"]
        unknown = sorted(set(given) - {f.name for f in fields(cls)})
        if unknown:
            raise RulesError(f"unknown rule(s) {', '.join(unknown)} given with preset {name!r}")
        return cls(**(values | given))

    @classmethod
    def from_options(cls, preset: str | None = None, **options: Any) -> Rules:
        """Rules from options named like the CLI's, each a value or its text.

        Options left out (or ``None``) keep the value of ``preset`` (see :data:`PRESETS`),
        or the default reading when no preset is named.

        >>> Rules.from_options(decks="2", blackjack_pays="6:5").blackjack_pays
        Fraction(6, 5)
        >>> Rules.from_options(preset="vegas-21", decks="2").dealer_natural.value
        'bonus_card'
        """
        unknown = set(options) - set(_OPTION_PARSERS)
        if unknown:
            raise RulesError(
                f"unknown rule option {sorted(unknown)[0]!r}: use one of "
                + ", ".join(_OPTION_PARSERS)
            )
        given = {
            name: _OPTION_PARSERS[name](value)
            for name, value in options.items()
            if value is not None
        }
        return cls.from_preset(preset or PresetName.CASINO_EDITION, **given)

    def to_json(self) -> dict[str, Any]:
        """The rules as plain JSON values (ratios written ``p:q``)."""
        return {
            "decks": self.decks,
            "bonus_ratio": f"{self.bonus_ratio.numerator}/{self.bonus_ratio.denominator}",
            "paytable": {k: _plain(v) for k, v in self.paytable.as_dict().items()},
            "blackjack_pays": format_ratio(self.blackjack_pays),
            "dealer_stands_on": self.dealer_stands_on,
            "dealer_natural": self.dealer_natural.value,
            "natural_beats": self.natural_beats.value,
        }

    def summary(self) -> str:
        """One line naming every rule in force."""
        return (
            f"{self.decks} decks, dealer stands on {self.dealer_stands_on}, "
            f"blackjack pays {format_ratio(self.blackjack_pays)}, "
            f"dealer natural {self.dealer_natural.value}, "
            f"natural beats {NATURAL_BEATS_WORDS[self.natural_beats]}, "
            f"paytable {self.paytable}, bonus ratio {self.bonus_ratio}"
        )


#: The natural's strength in words, for :meth:`Rules.summary`.
NATURAL_BEATS_WORDS: dict[NaturalBeats, str] = {
    NaturalBeats.MULTI_CARD_21: "player 21 of 3+ cards",
    NaturalBeats.NON_BLACKJACK: "every non-blackjack hand",
    NaturalBeats.NOTHING: "no player 21",
}


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
    "natural_beats": lambda v: v,  # validated by Rules itself
    "natural_beats_multi_card_21": _yes_no,
    "paytable": _paytable,
    "bonus_ratio": lambda v: parse_ratio(v, "bonus ratio"),
}


#: What each rule means, for ``cbj rules`` and the docs.
RULE_MEANINGS: dict[str, str] = {
    "decks": "standard 52-card decks shuffled together in the shoe (clause 1)",
    "bonus_ratio": "Bonus wager as a multiple of the main wager, 1/2 to 100 (clause 2)",
    "paytable": "Bonus pays to 1, each 0 to 10000: suited match : rank match : adjacent (cl. 4)",
    "blackjack_pays": "pay of own card + Bonus card = 21, won at once, up to 100:1 (clause 5)",
    "dealer_stands_on": "dealer stops at this best total, with or without the Bonus card (cl. 7)",
    "dealer_natural": (
        "two-card dealer 21s that are naturals: with_bonus, own_cards, bonus_card, none (cl. 9)"
    ),
    "natural_beats": (
        "what a dealer natural beats besides totals below 21: multi_card_21 (player 21s of "
        "3+ cards), non_blackjack (every player 21), nothing (ties every 21) (cl. 9)"
    ),
}


def _fold_alias(beats: NaturalBeats, alias: bool | None) -> NaturalBeats:
    """``natural_beats`` once the old yes/no option, if given, is folded in."""
    if alias is None:
        return beats
    if not isinstance(alias, bool):
        raise RulesError(f"natural beats multi-card 21 {alias!r} must be True or False")
    if alias:
        if beats is NaturalBeats.NOTHING:
            raise RulesError(
                "natural beats multi-card 21 = yes contradicts natural beats = nothing"
            )
        return beats
    if beats is NaturalBeats.NON_BLACKJACK:
        raise RulesError(
            "natural beats multi-card 21 = no contradicts natural beats = non_blackjack"
        )
    return NaturalBeats.NOTHING


class PresetName(StrEnum):
    """The named sets of rules a user can start from (``--preset``)."""

    CASINO_EDITION = "casino-edition"
    """The rule text in ``shared/game-rules.txt`` as this project reads it: the defaults."""
    VEGAS_21 = "vegas-21"
    """Vegas 21 (Community Blackjack), as its maker's rule card reads clauses 5 and 9."""


@dataclass(frozen=True, slots=True)
class PresetRule:
    """One rule a preset sets: its value and where that value comes from."""

    name: str
    """The :class:`Rules` field."""
    value: Any
    source: str
    """The quoted text the value rests on and its citation, or why no text gives it."""


@dataclass(frozen=True, slots=True)
class RulePreset:
    """A named set of rules, every value with its source."""

    name: PresetName
    title: str
    rules: tuple[PresetRule, ...]
    notes: tuple[str, ...] = ()

    def to_rules(self) -> Rules:
        """The preset's rules, validated."""
        return Rules(**{rule.name: rule.value for rule in self.rules})

    def to_json(self) -> dict[str, Any]:
        """The preset as plain JSON values: each rule's JSON value and its source."""
        values = self.to_rules().to_json()
        return {
            "preset": self.name.value,
            "title": self.title,
            "rules": [
                {"rule": rule.name, "value": values[rule.name], "source": rule.source}
                for rule in self.rules
            ],
            "notes": list(self.notes),
        }


_RULE_TEXT = "Community Blackjack - Casino Edition rule text (shared/game-rules.txt)"
_VEGAS_CARD = "Vegas 21 (Community Blackjack) rule card, playvegas21.com, as quoted in issue 14"
_NOT_ON_CARD = (
    "not among the clauses of the Vegas 21 card quoted in issue 14; kept from casino-edition"
)

_CASINO_EDITION_RULES: tuple[PresetRule, ...] = (
    PresetRule(
        "decks", 6, f'clause 1: "played with 6 standard decks of playing cards" ({_RULE_TEXT})'
    ),
    PresetRule(
        "bonus_ratio",
        MIN_BONUS_RATIO,
        f'clause 2: "the Bonus wager must be at least half of the main wager" ({_RULE_TEXT}); '
        "the smallest allowed Bonus wager",
    ),
    PresetRule(
        "paytable",
        Paytable(),
        "the rule text prints no Bonus pays (clause 4): an illustrative paytable, 15:4:1",
    ),
    PresetRule(
        "blackjack_pays",
        Fraction(3, 2),
        f'clause 5: "their Ante will win immediately and be paid at a rate of 3:2" ({_RULE_TEXT})',
    ),
    PresetRule(
        "dealer_stands_on",
        18,
        f'clause 7: "They have a total of at least eighteen, either with or without use of the '
        f'Bonus card" ({_RULE_TEXT})',
    ),
    PresetRule(
        "dealer_natural",
        DealerNatural.WITH_BONUS,
        f'clause 9: "a two-card dealer total of twenty-one is counted as a natural blackjack" '
        f"({_RULE_TEXT}); read as either two own cards or one own card and the Bonus card",
    ),
    PresetRule(
        "natural_beats",
        NaturalBeats.MULTI_CARD_21,
        f'clause 9: "beats any player total of 21 with three or more cards" ({_RULE_TEXT})',
    ),
)


def _kept(name: str) -> PresetRule:
    """A casino-edition rule that the quoted Vegas 21 clauses leave as it is."""
    base = next(rule for rule in _CASINO_EDITION_RULES if rule.name == name)
    return PresetRule(name, base.value, _NOT_ON_CARD)


#: Every preset by name.
PRESETS: dict[PresetName, RulePreset] = {
    PresetName.CASINO_EDITION: RulePreset(
        PresetName.CASINO_EDITION,
        "Community Blackjack - Casino Edition, as this project reads its rule text",
        _CASINO_EDITION_RULES,
        ("The same as giving no preset: these are the defaults (docs/rules.md).",),
    ),
    PresetName.VEGAS_21: RulePreset(
        PresetName.VEGAS_21,
        "Vegas 21 (Community Blackjack), as its maker's rule card reads clauses 5 and 9",
        (
            _kept("decks"),
            _kept("bonus_ratio"),
            PresetRule(
                "paytable",
                Paytable(),
                "the Vegas 21 card does not print its Bonus paytable: the illustrative "
                "15:4:1 is kept, so Bonus and round figures are illustrations",
            ),
            _kept("blackjack_pays"),
            _kept("dealer_stands_on"),
            PresetRule(
                "dealer_natural",
                DealerNatural.BONUS_CARD,
                f'"a natural is a two-card 21 that must include the community card" '
                f"({_VEGAS_CARD}); two own cards making 21 are an ordinary 21",
            ),
            PresetRule(
                "natural_beats",
                NaturalBeats.NON_BLACKJACK,
                f'"if the dealer has blackjack and the player does not, the main wager loses" '
                f"({_VEGAS_CARD}); a player 21 of two own cards included",
            ),
        ),
        (
            "The player's blackjack (clause 5) is own card plus the Bonus card making 21, "
            "so it already includes the community card as the Vegas 21 card requires.",
            "The Vegas 21 card does not print its Bonus paytable: the illustrative 15:4:1 is kept.",
        ),
    ),
}


def preset_named(name: str) -> RulePreset:
    """The preset called ``name``; :class:`RulesError` naming the choices if none is.

    >>> preset_named("vegas-21").name.value
    'vegas-21'
    """
    try:
        return PRESETS[PresetName(name.strip().lower() if isinstance(name, str) else name)]
    except ValueError:
        choices = ", ".join(p.value for p in PresetName)
        raise RulesError(f"preset {name!r} is unknown: use one of {choices}") from None
