"""The game's rules and every interpretation choice, as validated immutable data.

The defaults are the project's reading of the rule text (see ``docs/rules.md``);
every other reading is an option here rather than a change in the code.  Each rule is a
row of :data:`~solver.model.rule_table.RULE_TABLE`: :class:`Rules` checks, reads, writes
and words its fields by going over that table.  The named presets are data beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from fractions import Fraction
from typing import Any, NamedTuple

from solver.model.checks import MAX_NUMBER_TEXT, format_ratio, parse_ratio, shown
from solver.model.errors import RulesError
from solver.model.paytable import MAX_PAY, Paytable
from solver.model.rule_fields import RuleFields
from solver.model.rule_table import (
    MAX_BLACKJACK_PAY,
    MAX_BONUS_RATIO,
    MIN_BONUS_RATIO,
    RULE_TABLE,
    DealerBonus,
    DealerNatural,
    NaturalBeats,
    Rule,
)

__all__ = [
    "MAX_BLACKJACK_PAY",
    "MAX_BONUS_RATIO",
    "MAX_NUMBER_TEXT",
    "MAX_PAY",
    "MIN_BONUS_RATIO",
    "PRESETS",
    "RULE_ALIASES",
    "RULE_TABLE",
    "TABULATED_RATIOS",
    "DealerBonus",
    "DealerNatural",
    "NaturalBeats",
    "Paytable",
    "PresetName",
    "PresetRule",
    "Rule",
    "RulePreset",
    "Rules",
    "format_ratio",
    "parse_ratio",
    "preset_named",
]

#: Bonus ratios tabulated by default.
TABULATED_RATIOS: tuple[Fraction, ...] = (
    Fraction(1, 2),
    Fraction(3, 4),
    Fraction(1),
    Fraction(3, 2),
    Fraction(2),
)


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules(RuleFields):
    """Every rule and interpretation choice of the game; defaults follow ``docs/rules.md``.

    One field per row of :data:`~solver.model.rule_table.RULE_TABLE`, in its order, with
    the row's default (:class:`~solver.model.rule_fields.RuleFields`, written from the table).
    """

    natural_beats_multi_card_21: bool | None = field(default=None, compare=False, repr=False)
    """Old yes/no spelling of ``natural_beats``, accepted on construction only.

    ``True`` keeps a reading under which a natural beats a player 21 of three or more
    cards (``multi_card_21``, or ``non_blackjack`` if that is given too); ``False`` means
    ``nothing``.  It is folded into ``natural_beats`` and then reset to None.
    """

    _hash: int = field(default=0, init=False, compare=False, repr=False)
    """The hash, made when first asked for: rules key every store and cache, and hashing
    their fractions again at each look-up cost a solve about 2% (0: not made yet)."""

    def __post_init__(self) -> None:
        for rule in RULE_TABLE:
            object.__setattr__(self, rule.name, rule.check(getattr(self, rule.name)))
        folded = _fold_alias(self.natural_beats, self.natural_beats_multi_card_21)
        object.__setattr__(self, "natural_beats", folded)
        object.__setattr__(self, "natural_beats_multi_card_21", None)

    def __hash__(self) -> int:
        """The hash of the rules' values (as the dataclass's own), kept once made."""
        found = self._hash
        if not found:
            found = hash(tuple(getattr(self, name) for name in _COMPARED))
            object.__setattr__(self, "_hash", found)
        return found

    def __getstate__(self) -> list[Any]:
        """The fields for pickling, the kept hash left out: a text's hash differs from one
        process to the next, so a worker makes its own."""
        return [0 if f.name == "_hash" else getattr(self, f.name) for f in fields(self)]

    def __setstate__(self, state: list[Any]) -> None:
        """Fields from :meth:`__getstate__`."""
        for f, value in zip(fields(self), state, strict=True):
            object.__setattr__(self, f.name, value)

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
        for alias, rule_name in RULE_ALIASES.items():
            if alias in given and rule_name not in given:
                del values[rule_name]
        unknown = sorted(set(given) - {f.name for f in fields(cls) if f.init})
        if unknown:
            raise RulesError(
                f"unknown rule(s) {shown(', '.join(unknown))} given with preset {shown(name)}"
            )
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
                f"unknown rule option {shown(sorted(unknown)[0])}: use one of "
                + ", ".join(_OPTION_PARSERS)
            )
        given = {
            name: _OPTION_PARSERS[name](value)
            for name, value in options.items()
            if value is not None
        }
        return cls.from_preset(PresetName.CASINO_EDITION if preset is None else preset, **given)

    def to_json(self) -> dict[str, Any]:
        """The rules as plain JSON values (ratios written ``p:q``).

        >>> Rules().to_json()["blackjack_pays"]
        '3:2'
        """
        return {rule.name: rule.to_json(getattr(self, rule.name)) for rule in RULE_TABLE}

    def canonical(self) -> dict[str, Any]:
        """The rules as canonical JSON values, every ratio an exact pair ``[p, q]`` (for keys).

        >>> Rules().canonical()["bonus_ratio"]
        [1, 2]
        """
        return {rule.name: rule.canonical(getattr(self, rule.name)) for rule in RULE_TABLE}

    @classmethod
    def from_canonical(cls, doc: dict[str, Any]) -> Rules:
        """The inverse of :meth:`canonical`.

        >>> Rules.from_canonical(Rules(decks=2).canonical()) == Rules(decks=2)
        True

        Every rule must be there, and nothing else: :class:`RulesError` names the first rule
        missing or the first key that is not a rule.
        """
        if not isinstance(doc, dict):
            raise RulesError(f"canonical rules are a dict of every rule, not {type(doc).__name__}")
        names = [rule.name for rule in RULE_TABLE]
        unknown = [key for key in doc if key not in names]
        if unknown:
            raise RulesError(f"{shown(unknown[0])} is not a rule: the rules are {', '.join(names)}")
        missing = [name for name in names if name not in doc]
        if missing:
            raise RulesError(f"the rules leave out {missing[0]}: every rule is given")
        return cls(**{rule.name: rule.from_canonical(doc[rule.name]) for rule in RULE_TABLE})

    def changed(self, base: Rules) -> tuple[Rule, ...]:
        """The rules whose value here differs from ``base``'s, in the table's order.

        >>> [rule.name for rule in Rules(decks=1).changed(Rules())]
        ['decks']
        """
        return tuple(
            rule for rule in RULE_TABLE if getattr(self, rule.name) != getattr(base, rule.name)
        )

    def differences(self, base: Rules) -> str:
        """The rules that differ from ``base``, tersely as chart titles name them ("" if none).

        >>> Rules(decks=1, dealer_natural="none").differences(Rules())
        '1 deck; dealer natural none'
        """
        changed = self.changed(base)
        return "; ".join(rule.tag(getattr(self, rule.name)) for rule in changed)

    def summary(self, omit: Iterable[str] = ()) -> str:
        """Every rule in force (but those named in ``omit``) in a few plain words each.

        A rule whose words are empty (a later rule at its default) is left out.

        >>> Rules(decks=1).summary(omit=("paytable", "bonus_ratio"))[:41]
        '1 deck; blackjack pays 3:2; dealer stands'
        """
        left_out = set(omit)
        phrases = (r.phrase(getattr(self, r.name)) for r in RULE_TABLE if r.name not in left_out)
        return "; ".join(phrase for phrase in phrases if phrase)


#: The fields equality compares, in order: what :meth:`Rules.__hash__` hashes.
_COMPARED = tuple(f.name for f in fields(Rules) if f.compare)


def _yes_no(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise RulesError(f"natural beats multi-card 21 {shown(value)} is not true or false")


#: Old option names kept as aliases, each with the rule it sets.
RULE_ALIASES: dict[str, str] = {"natural_beats_multi_card_21": "natural_beats"}

#: How each rule option is read from a value or its text (``Rules.from_options``).
_OPTION_PARSERS: dict[str, Callable[[Any], Any]] = {
    **{rule.name: rule.parse for rule in RULE_TABLE},
    "natural_beats_multi_card_21": _yes_no,
}


def _fold_alias(beats: NaturalBeats, alias: bool | None) -> NaturalBeats:
    """``natural_beats`` once the old yes/no option, if given, is folded in."""
    if alias is None:
        return beats
    if not isinstance(alias, bool):
        raise RulesError(f"natural beats multi-card 21 {shown(alias)} must be True or False")
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


class PresetRule(NamedTuple):
    """One rule a preset sets: its value and where that value comes from.

    Presets, like the rule table, are rows of data read at every start of ``cbj``: named
    tuples, which cost less to make than dataclasses.
    """

    name: str
    """The :class:`Rules` field."""
    value: Any
    source: str
    """The quoted text the value rests on and its citation, or why no text gives it."""


class RulePreset(NamedTuple):
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


_VEGAS_CARD = "Vegas 21 (Community Blackjack) rule card, playvegas21.com, as quoted in issue 14"
_NOT_ON_CARD = (
    "not among the clauses of the Vegas 21 card quoted in issue 14; kept from casino-edition"
)

#: The rule text's reading: each rule's default, with the words it rests on.
_CASINO_EDITION_RULES = tuple(PresetRule(r.name, r.default, r.source) for r in RULE_TABLE)


def _with_the_rest_kept(own: tuple[PresetRule, ...]) -> tuple[PresetRule, ...]:
    """Vegas 21's own rules, and every rule its quoted clauses leave as casino-edition's
    (each in the table's order)."""
    given = {rule.name: rule for rule in own}
    kept = (PresetRule(r.name, r.default, _NOT_ON_CARD) for r in RULE_TABLE)
    return tuple(given.get(rule.name, rule) for rule in kept)


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
        _with_the_rest_kept(
            (
                PresetRule(
                    "paytable",
                    Paytable(),
                    "the Vegas 21 card does not print its Bonus paytable: the illustrative "
                    "15:4:1 is kept, so Bonus and round figures are illustrations",
                ),
                PresetRule(
                    "dealer_natural",
                    DealerNatural.BONUS_CARD,
                    f'"a natural is a two-card 21 that must include the community card" '
                    f"({_VEGAS_CARD}); two own cards making 21 are an ordinary 21",
                ),
                PresetRule(
                    "natural_beats",
                    NaturalBeats.NON_BLACKJACK,
                    f'"if the dealer has blackjack and the player does not, the main wager '
                    f'loses" ({_VEGAS_CARD}); a player 21 of two own cards included',
                ),
            )
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
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in tuple(PresetName):
        choices = ", ".join(p.value for p in PresetName)
        raise RulesError(f"preset {shown(name)} is unknown: use one of {choices}")
    return PRESETS[PresetName(key)]
