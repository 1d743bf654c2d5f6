"""The edge against one parameter (``cbj sweep``): each wager's house edge, the round's edge
and SD at each value of one rule or one Bonus pay over a range, the game in force marked.

What can be varied is every numeric rule of the rule table (``decks``, ``bonus-ratio``,
``blackjack-pays``, ``dealer-stands-on``) and the pay of each tier of the paytable in
force (``suited-match``, ``rank-match``, ``adjacent``, or a named tier's); :func:`varied`
reads the name and :func:`sweep_values` the range, both cheaply (no solve), so a client
checks its input before any work.

>>> " ".join(v.name for v in variables(Rules()))
'decks bonus-ratio blackjack-pays dealer-stands-on suited-match rank-match adjacent'
>>> [str(x) for x in sweep_values(varied("suited-match", Rules()), Rules(), "10", "30", "5")]
['10', '15', '20', '25', '30']
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, NamedTuple

from solver.model.checks import parse_ratio, short_number
from solver.model.errors import CbjError, DesignError
from solver.model.numbers import exact_json, float_json, number_json
from solver.model.paytable import Paytable
from solver.model.rule_table import RULES_BY_NAME
from solver.model.rules import Rules
from solver.results.frames import Tabular

#: The rules of the rule table that take a number, in its order.
NUMERIC_RULES = ("decks", "bonus_ratio", "blackjack_pays", "dealer_stands_on")
#: The unit of a rule's value where its name does not say it.
UNITS = {"bonus_ratio": " (times the main wager)", "blackjack_pays": " (to 1)"}
#: The most values a sweep solves.
MAX_POINTS = 101
#: Values in a sweep of a parameter that is not a whole number, when no step is given.
DEFAULT_STEPS = 10

#: A number as the API takes it: a value or its text (``3:2``, ``1.5``, ``15``).
Number = int | float | Fraction | str


class Varied(NamedTuple):
    """A parameter a sweep can vary: a numeric rule, or one tier's pay."""

    name: str
    """As the CLI spells it (``dealer-stands-on``, ``suited-match``)."""
    label: str
    """In plain words, for a table's column and a plot's axis."""
    whole: bool
    """Its values are whole numbers."""
    rule: str | None = None
    """The rule's field of :class:`Rules`, or None for a pay."""
    tier: int | None = None
    """The tier's place in the paytable in force, or None for a rule."""


def variables(rules: Rules) -> tuple[Varied, ...]:
    """Every parameter a sweep under ``rules`` can vary: the numeric rules, then the pay of
    each tier of the paytable in force."""
    found = [
        Varied(rule.flag.removeprefix("--"), rule.what + UNITS.get(name, ""), rule.kind is int,
               rule=name)
        for name in NUMERIC_RULES
        if (rule := RULES_BY_NAME[name])
    ]  # fmt: skip
    found += [
        Varied(tier.option, f"{tier.words} pay (to 1)", False, tier=i)
        for i, tier in enumerate(rules.paytable.tiers)
    ]
    return tuple(found)


def varied(text: str, rules: Rules) -> Varied:
    """The parameter called ``text`` (dashes or underscores, any case) under ``rules``.

    >>> varied("Dealer_Stands_On", Rules()).rule
    'dealer_stands_on'
    """
    name = text.strip().lower().replace("_", "-")
    for candidate in variables(rules):
        if candidate.name == name:
            return candidate
    names = ", ".join(v.name for v in variables(rules))
    raise DesignError(f"cannot vary {text.strip()[:40]!r}: vary one of {names}")


def value_in(rules: Rules, what: Varied) -> Fraction:
    """The parameter's value in the game ``rules`` describe."""
    if what.tier is not None:
        return rules.paytable.pays[what.tier]
    return Fraction(getattr(rules, what.rule or ""))


def with_value(rules: Rules, what: Varied, value: Fraction) -> Rules:
    """``rules`` with the parameter set to ``value`` (checked as the rule table checks it)."""
    if what.tier is not None:
        paytable = rules.paytable
        pays = [value if i == what.tier else pay for i, pay in enumerate(paytable.pays)]
        return replace(rules, paytable=Paytable(pays, tiers=paytable.tiers))
    assert what.rule is not None
    changed: dict[str, Any] = {what.rule: int(value) if what.whole else value}
    return replace(rules, **changed)


def sweep_number(text: Number, what: Varied, role: str) -> Fraction:
    """A value of the sweep (``role``: its start, stop or step) read and checked alone.

    >>> sweep_number("3:2", varied("blackjack-pays", Rules()), "start")
    Fraction(3, 2)
    """
    value = parse_ratio(text, f"{what.name} {role}")
    if what.whole and value.denominator != 1:
        raise DesignError(f"{what.name} {role} {short_number(value)} must be a whole number")
    return value


def sweep_values(
    what: Varied, rules: Rules, start: Number, stop: Number, step: Number | None = None
) -> tuple[Fraction, ...]:
    """The values a sweep solves: ``start`` to ``stop`` by ``step`` (1 for a whole-number
    parameter, a tenth of the range otherwise), ``stop`` always among them, and the value
    in force where it falls inside the range; each checked as the rule table checks it.
    """
    low, high = sweep_number(start, what, "start"), sweep_number(stop, what, "stop")
    if low >= high:
        raise DesignError(
            f"a sweep of {what.name} from {short_number(low)} to {short_number(high)} is empty: "
            "start below stop"
        )
    by = (
        (Fraction(1) if what.whole else (high - low) / DEFAULT_STEPS)
        if step is None
        else sweep_number(step, what, "step")
    )
    if by <= 0:
        raise DesignError(f"{what.name} step must be more than 0")
    if (high - low) / by + 1 > MAX_POINTS:
        raise DesignError(
            f"{what.name} from {short_number(low)} to {short_number(high)} by "
            f"{short_number(by)} is more than {MAX_POINTS} values: take a larger step"
        )
    count = int((high - low) / by)
    values = {low + k * by for k in range(count + 1)} | {high}
    in_force = value_in(rules, what)
    if low <= in_force <= high:
        values.add(in_force)
    found = tuple(sorted(values))
    for value in (found[0], found[-1]):
        try:
            with_value(rules, what, value)
        except CbjError as error:
            raise DesignError(
                f"cannot sweep {what.name} to {short_number(value)}: {error}"
            ) from None
    return found


@dataclass(frozen=True, slots=True)
class SweepPoint:
    """The game at one value of the parameter: each wager's house edge, the round's SD."""

    value: Fraction
    in_force: bool
    """This is the value in force."""
    main_house_edge: Fraction | float
    bonus_house_edge: Fraction
    round_house_edge: Fraction | float
    round_sd: float

    def to_json(self) -> dict[str, Any]:
        """The point as JSON (keys the figure catalogue's)."""
        return {
            "value": exact_json(self.value),
            "in_force": self.in_force,
            "main_house_edge": number_json(self.main_house_edge),
            "bonus_house_edge": exact_json(self.bonus_house_edge),
            "round_house_edge": number_json(self.round_house_edge),
            "round_sd": float_json(self.round_sd),
        }


@dataclass(frozen=True, slots=True, repr=False)
class SweepResult(Tabular):
    """The edge against one parameter: a point per value, the game in force marked."""

    rules: Rules
    """The game in force (the parameter's value in it marked among the points)."""
    varied: Varied
    exact: bool
    """Main-wager figures as exact fractions (else the float solver's)."""
    points: tuple[SweepPoint, ...]

    @property
    def marked(self) -> SweepPoint | None:
        """The point of the game in force (None when its value is outside the range)."""
        return next((p for p in self.points if p.in_force), None)

    def to_json(self) -> dict[str, Any]:
        """The document ``cbj sweep --format json`` prints."""
        return {
            "rules": self.rules.to_json(),
            "vary": self.varied.name,
            "label": self.varied.label,
            "exact": self.exact,
            "in_force": exact_json(value_in(self.rules, self.varied)),
            "points": [p.to_json() for p in self.points],
        }
