"""Paytable design's results: a solved pay, a search of an edge band, and rule variants.

:mod:`solver.exact.paytable` finds them (``cbj paytable solve``, ``cbj paytable search``,
``cbj variants``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from solver.model.numbers import exact_json, float_json, number_json
from solver.model.paytable import BONUS_TIERS, Paytable, Tier
from solver.model.rules import Rules
from solver.results.frames import Tabular
from solver.results.game import Number
from solver.results.kinds import Kind


class EdgeKind(StrEnum):
    """Which house edge a target or band is about."""

    BONUS = "bonus"
    """The Bonus wager's edge per unit on it."""
    ROUND = "round"
    """The whole round's edge per unit of the total amount wagered (main + Bonus)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A practical paytable near a solved pay, with its exact house edges."""

    paytable: Paytable
    pay: Fraction
    bonus_edge: Fraction
    round_edge: Fraction


@dataclass(frozen=True, slots=True, repr=False)
class PaySolution(Tabular):
    """The exact pay of one tier that meets a target edge, and practical pays around it."""

    rules: Rules
    tier: str
    """The name of the tier solved for."""
    kind: EdgeKind
    target: Fraction
    pay: Fraction
    candidates: tuple[Candidate, ...]

    @property
    def paytable(self) -> Paytable:
        """The paytable with the exact solved pay."""
        return self.rules.paytable

    def to_json(self) -> dict[str, Any]:
        """The solution as the document ``cbj paytable solve --format json`` prints."""
        return {
            "rules": self.rules.to_json(),
            "solve_for": str(self.tier),
            "target": {"kind": self.kind.value, "house_edge": exact_json(self.target)},
            "pay": exact_json(self.pay),
            "candidates": [
                {
                    "pay": exact_json(c.pay),
                    "paytable": str(c.paytable),
                    "bonus_house_edge": exact_json(c.bonus_edge),
                    "round_house_edge": exact_json(c.round_edge),
                }
                for c in self.candidates
            ],
        }


@dataclass(frozen=True, slots=True)
class SearchHit:
    """A whole-unit paytable whose edge lies in the band, with the round's spread."""

    paytable: Paytable
    bonus_edge: Fraction
    round_edge: Fraction
    round_hit_frequency: Fraction
    round_standard_deviation: float


@dataclass(frozen=True, slots=True, repr=False)
class SearchResult(Tabular):
    """Paytables in an edge band, closest to the band's middle first."""

    rules: Rules
    kind: EdgeKind
    band: tuple[Fraction, Fraction]
    max_pay: int
    matches: int
    hits: tuple[SearchHit, ...]
    tiers: tuple[Tier, ...] = BONUS_TIERS
    """The tiers searched, best first."""

    def to_json(self) -> dict[str, Any]:
        """The search as the document ``cbj paytable search --format json`` prints."""
        rules = self.rules.to_json()
        del rules["paytable"]  # the search varies it
        named = {} if self.tiers == BONUS_TIERS else {"tiers": [t.option for t in self.tiers]}
        return {
            "rules": rules,
            **named,
            "band": {
                "kind": self.kind.value,
                "low": exact_json(self.band[0]),
                "high": exact_json(self.band[1]),
            },
            "max_pay": self.max_pay,
            "matches": self.matches,
            "paytables": [
                {
                    "paytable": str(h.paytable),
                    "pays": {k: exact_json(v) for k, v in h.paytable.as_dict().items()},
                    "bonus_house_edge": exact_json(h.bonus_edge),
                    "round_house_edge": exact_json(h.round_edge),
                    "round_hit_frequency": exact_json(h.round_hit_frequency),
                    "round_sd": float_json(h.round_standard_deviation),
                }
                for h in self.hits
            ],
        }


@dataclass(frozen=True, slots=True)
class Variant:
    """The headline numbers of one set of rules."""

    rules: Rules
    main_expected_value: Number
    bonus_expected_value: Fraction
    round_house_edge: Number


@dataclass(frozen=True, slots=True, repr=False)
class Variants(Tabular):
    """Headline numbers of several rule sets, each a change from ``rules``."""

    rules: Rules
    variants: tuple[Variant, ...]

    def to_json(self) -> dict[str, Any]:
        """The variants as the document ``cbj variants --format json`` prints."""
        return {
            "rules": self.rules.to_json(),
            "variants": [
                {
                    "rules": v.rules.to_json(),
                    "main_expected_value": number_json(v.main_expected_value),
                    "bonus_expected_value": exact_json(v.bonus_expected_value),
                    "round_house_edge": number_json(v.round_house_edge),
                }
                for v in self.variants
            ],
        }


#: The report's rule variants (one rule changed at a time), kept by their rules.
VARIANTS: Kind[tuple[Variant, ...]] = Kind("variants", tuple[Variant, ...])
