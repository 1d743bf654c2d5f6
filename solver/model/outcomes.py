"""What a round can end in, and what each result pays: the main wager and the Bonus wager."""

from __future__ import annotations

import re
from enum import StrEnum
from fractions import Fraction

from solver.model.cards import Card
from solver.model.checks import ascii_digits, shown
from solver.model.errors import StrategyError
from solver.model.paytable import BONUS_TIERS, LOSE, Paytable
from solver.model.rules import Rules


class MainOutcome(StrEnum):
    """How the main wager ends for one player."""

    BLACKJACK = "blackjack"
    WIN = "win"
    PUSH = "push"
    LOSE = "loss"


#: The main wager's results, in the order every table lists them.
MAIN_OUTCOMES: tuple[MainOutcome, ...] = tuple(MainOutcome)


def main_payoffs(rules: Rules) -> dict[str, Fraction]:
    """Net result of one unit on the main wager for each of :data:`MAIN_OUTCOMES`.

    >>> main_payoffs(Rules())["blackjack"]
    Fraction(3, 2)
    """
    return {
        MainOutcome.BLACKJACK: rules.blackjack_pays,
        MainOutcome.WIN: Fraction(1),
        MainOutcome.PUSH: Fraction(0),
        MainOutcome.LOSE: Fraction(-1),
    }


class BonusOutcome(StrEnum):
    """Result of the Bonus wager: the tier reached (one per :data:`BONUS_TIERS`), or lose.

    Only the highest tier reached pays.
    """

    SUITED_MATCH = "suited_match"
    RANK_MATCH = "rank_match"
    ADJACENT = "adjacent"
    LOSE = "loss"


BONUS_OUTCOMES: tuple[BonusOutcome, ...] = tuple(BonusOutcome)


_CLAUSE_OUTCOMES = {o.value: o for o in BonusOutcome}


def as_outcome(name: str) -> str:
    """A Bonus outcome's name, as a :class:`BonusOutcome` when it is one of clause 4's.

    >>> as_outcome("loss") is BonusOutcome.LOSE, as_outcome("suited_adjacent")
    (True, 'suited_adjacent')
    """
    return _CLAUSE_OUTCOMES.get(name, name)


def bonus_outcome(player: Card, bonus: Card, paytable: Paytable | None = None) -> str:
    """Outcome of the Bonus wager for the player's card against the Bonus card.

    The best tier of ``paytable`` (clause 4's own three when not given) reached, or lose.

    >>> bonus_outcome(Card.parse("Ks"), Card.parse("As")).value
    'adjacent'
    """
    return as_outcome((paytable or _CLAUSE_PAYTABLE).outcome(player, bonus))


def bonus_pay(paytable: Paytable, outcome: str) -> Fraction:
    """Net result of one unit on the Bonus wager for ``outcome`` (-1 when it loses)."""
    if outcome == LOSE:
        return Fraction(-1)
    return paytable.pay(outcome)


_CLAUSE_PAYTABLE = Paytable()


#: The Bonus wager's paying tiers, best first, as named in :data:`BONUS_TIERS`.
PAY_TIERS: tuple[BonusOutcome, ...] = tuple(BonusOutcome(tier.name) for tier in BONUS_TIERS)

#: The totals a ``stand-on:K`` player of ``cbj strategies`` may stand on.
STAND_ON_TOTALS = tuple(range(12, 22))
#: Every way of playing ``cbj strategies`` reports, in its order.
POLICY_NAMES: tuple[str, ...] = (
    "optimal",
    "chart",
    *(f"stand-on:{k}" for k in STAND_ON_TOTALS),
    "never-bust",
    "mimic-dealer",
    "always-stand",
)

#: The named policies besides ``stand-on:K`` and a chart file's ``chart:FILE``.
NAMED_POLICIES = ("optimal", "chart", "never-bust", "mimic-dealer", "always-stand")


def strategy_name(text: str) -> str:
    """``text`` itself once it names a strategy: ``optimal``, ``chart``, ``chart:FILE``,
    ``stand-on:K`` (K a total from 2 to 22), ``never-bust``, ``mimic-dealer`` or
    ``always-stand``; a :class:`StrategyError` naming the valid ones if it does not.

    >>> strategy_name("Stand-On:17")
    'Stand-On:17'
    >>> strategy_name("stand-on:30")
    Traceback (most recent call last):
    ...
    solver.model.errors.StrategyError: strategy 'stand-on:30': K in stand-on:K must be a total from 2 to 22
    """  # noqa: E501
    cleaned = text.strip().lower()
    if cleaned in NAMED_POLICIES or cleaned.startswith("chart:"):
        return text
    total = cleaned.removeprefix("stand-on:")
    if cleaned.startswith("stand-on:") and ascii_digits(total) and 2 <= int(total) <= 22:
        return text
    if cleaned.startswith("stand-on:"):
        raise StrategyError(f"strategy {text[:40]!r}: K in stand-on:K must be a total from 2 to 22")
    raise StrategyError(
        f"unknown strategy {text[:40]!r}: use optimal, chart, chart:FILE, stand-on:K, never-bust, "
        "mimic-dealer or always-stand"
    )


#: The round house-edge band ``cbj paytable search`` looks in when given none.
DEFAULT_ROUND_BAND = "1%:2%"


#: The most strategies a mix may hold.
MOST_PLAYERS = 10

_ITEM = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,6})?)\s*%\s+(\S.*?)\s*$", re.ASCII)


def parse_mix(text: str) -> tuple[tuple[Fraction, str], ...]:
    """A mix of strategies with shares, ``10% optimal, 60% chart, 30% mimic-dealer``: each
    share a percentage, together exactly 100%; a single name is the whole table.

    >>> parse_mix("25% chart, 75% mimic-dealer")
    ((Fraction(1, 4), 'chart'), (Fraction(3, 4), 'mimic-dealer'))
    >>> parse_mix("optimal")
    ((Fraction(1, 1), 'optimal'),)
    """
    if not isinstance(text, str) or len(text) > 400:
        raise StrategyError(
            f"strategy mix {shown(text)} is not a list like '40% chart, 60% optimal'"
        )
    items = text.split(",")
    if len(items) == 1 and "%" not in text:
        return ((Fraction(1), text.strip()),)
    found: dict[str, Fraction] = {}
    for item in items:
        match = _ITEM.match(item)
        if match is None:
            raise StrategyError(
                f"strategy mix item {item.strip()[:40]!r} is not SHARE% NAME, e.g. "
                "'10% optimal, 60% chart, 30% mimic-dealer'"
            )
        share = Fraction(match.group(1)) / 100
        name = match.group(2)
        if share <= 0:
            raise StrategyError(f"strategy mix item {item.strip()!r}: a share must be above 0%")
        if name in found:
            raise StrategyError(f"strategy mix {text.strip()[:60]!r} names {name!r} twice")
        found[name] = share
    if len(found) > MOST_PLAYERS:
        raise StrategyError(f"a strategy mix holds at most {MOST_PLAYERS} strategies")
    total = sum(found.values(), Fraction(0))
    if total != 1:
        raise StrategyError(
            f"strategy mix {text.strip()[:60]!r}: the shares add up to "
            f"{float(100 * total):g}%, not 100%"
        )
    return tuple((share, name) for name, share in found.items())
