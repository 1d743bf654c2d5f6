"""Plain words for the rules in a title: which rules differ from another set of rules.

Both the chart's title (:mod:`solver.exact.strategy`) and the report's variants name the
rules that differ from the default ones in these words, so they live below both.
"""

from __future__ import annotations

from collections.abc import Callable

from solver.model.rules import Rules, format_ratio

#: How each rule is named in a title, from the rules in force.
_NAMES: dict[str, Callable[[Rules], str]] = {
    "decks": lambda r: f"{r.decks} deck{'s' if r.decks > 1 else ''}",
    "dealer_stands_on": lambda r: f"dealer stands on {r.dealer_stands_on}",
    "blackjack_pays": lambda r: f"blackjack pays {format_ratio(r.blackjack_pays)}",
    "dealer_natural": lambda r: f"dealer natural {r.dealer_natural.value}",
    "natural_beats": lambda r: f"natural beats {r.natural_beats.value}",
    "paytable": lambda r: f"paytable {r.paytable}",
    "bonus_ratio": lambda r: f"bonus ratio {r.bonus_ratio}",
}


def rule_differences(rules: Rules, base: Rules) -> str:
    """The rules in which ``rules`` differs from ``base``, e.g. ``decks 1; stands on 17``.

    >>> rule_differences(Rules(decks=1), Rules())
    '1 deck'
    >>> rule_differences(Rules(), Rules())
    'as in force'
    """
    changed = [show(rules) for show in _NAMES.values() if show(rules) != show(base)]
    return "; ".join(changed) or "as in force"
