"""``cbj rules`` as a computation: the rules in force, each checked, and their preset.

Apart from the game's other commands, so that ``cbj rules`` loads nothing heavy.
"""

from __future__ import annotations

from solver.model.rules import RulePreset, Rules
from solver.results.rules import RulesResult


def rules(*, rules: Rules, preset: RulePreset | None = None) -> RulesResult:
    """The rules in force, each validated; with ``preset=``, which rules it sets and why."""
    return RulesResult(rules, preset)
