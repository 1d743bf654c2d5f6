"""``cbj rules``' result: the rules in force, and the preset they started from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.model.rules import RulePreset, Rules
from solver.results.frames import Shown


@dataclass(frozen=True, slots=True, repr=False)
class RulesResult(Shown):
    """The rules in force (``cbj rules``), and the preset they started from if one was named.

    Its ``repr`` is a summary, as every result's (:class:`~solver.results.frames.Shown`).
    """

    rules: Rules
    preset: RulePreset | None = None

    def to_json(self) -> dict[str, Any]:
        """The rules as ``cbj rules --format json`` prints them (with the preset's sources)."""
        document: dict[str, Any] = {"rules": self.rules.to_json()}
        if self.preset is not None:
            document["preset"] = self.preset.to_json()
        return document
