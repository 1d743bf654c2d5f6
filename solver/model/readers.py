"""The catalogue's readers of values given as values rather than text (the generic ones
are :mod:`solver.model.params`): each checks one parameter's value and says what is wrong.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from os import PathLike
from typing import Any

from solver.model.cards import Card, parse_cards
from solver.model.checks import fraction_bits, shown
from solver.model.counts import system_tags
from solver.model.errors import CardError, DesignError, ReportError
from solver.model.params import of_kinds, sequence_of
from solver.model.paytable import Paytable, check_edge, parse_band, parse_edge

#: The letters of the paytables one report compares, in order (the rules' own is A).
PAYTABLE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def read_card(text: str) -> Card:
    """Exactly one card (the Bonus card): a :class:`CardError` for none or several.

    >>> read_card(" 7h ")
    Card.parse('7h')
    """
    found = parse_cards(text)
    if len(found) != 1:
        raise CardError(f"the Bonus card is exactly one card, got {shown(text)}")
    return found[0]


def read_hand(text: str) -> tuple[Card, ...]:
    """A hand to start a decision graph from: cards, at least one (leave it out for all).

    >>> read_hand("9 3")
    (Card.parse('9'), Card.parse('3'))
    """
    found = parse_cards(text)
    if not found:
        raise CardError("the hand is empty: give cards, e.g. '9 3', or leave it out for all")
    return found


def read_paytables(value: Any) -> tuple[Paytable, ...]:
    """Further paytables (B, C, ...): a sequence of paytables or their texts (a text of
    several: separated by spaces or semicolons)."""
    listed = sequence_of("paytables", "Paytable or str", Paytable, str)(value)
    if len(listed) + 1 > len(PAYTABLE_LETTERS):
        raise ReportError(f"a report compares at most {len(PAYTABLE_LETTERS)} paytables")
    return tuple(p if isinstance(p, Paytable) else Paytable.parse(p) for p in listed if p)


def read_player(value: Any) -> Any:
    """A strategy already read (a :class:`~solver.results.report.PlayerStrategy`)."""
    if not (isinstance(getattr(value, "name", None), str) and hasattr(value, "chart")):
        raise TypeError(f"strategy must be str or a PlayerStrategy, not {type(value).__name__}")
    return value


def read_practice_chart(value: Any) -> Any:
    """The chart a practice session learns: a file's name, or a chart read already."""
    if not isinstance(value, str | PathLike) and not callable(getattr(value, "action", None)):
        raise TypeError(f"chart must be str, Path or a ChartGrid, not {type(value).__name__}")
    return value


def read_target(text: str) -> Fraction:
    return parse_edge(text, "target")


def edge_reader(name: str, what: str) -> Callable[[Any], Fraction]:
    """A house edge given as a number (a fraction of the amount wagered), checked."""
    numbers = of_kinds(name, "a number or its text", int, Fraction, float)

    def check(value: Any) -> Fraction:
        number = numbers(value)
        if isinstance(number, float) and not math.isfinite(number):
            raise DesignError(f"{what} {shown(number)} is not a finite number")
        edge = check_edge(Fraction(number), what)
        if fraction_bits(edge) > 200:  # a house edge has no 60-digit denominator
            raise DesignError(f"{what} {shown(edge)} is too long: write it more shortly")
        return edge

    return check


def read_tier(value: Any) -> str:
    """A tier given as itself (a :class:`~solver.model.paytable.Tier`): its name."""
    name = getattr(value, "name", None)
    if not isinstance(name, str):
        raise TypeError(f"solve_for must be a Tier or str, not {type(value).__name__}")
    return name


def read_band(text: str) -> str:
    parse_band(text)
    return text


def read_system(text: str) -> str:
    system_tags(text)
    return text
