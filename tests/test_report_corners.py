"""The report builds for every legal game: each corner of the rule table and each preset.

A corner is one rule at an end of its range (1 and 8 decks, the dealer standing on 12
and on 21, each way the dealer counts the Bonus card, every natural reading, every pay
at 0 and at its maximum, the largest Bonus ratio and blackjack pay) with the other rules
at their defaults; every report is built at the smallest sizes (two shoes a depth, a few
hundred rounds), laid out and rendered as HTML, and must say something sensible in every
section: no NaN or infinity in its text.  A report costs about 8 s of CPU (solves, the
variants, the game-protection study and four plots), so the sweep is a soak test; the
default suite builds one report whose rules sit at several corners at once.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest

from solver.model.paytable import MAX_PAY, Paytable
from solver.model.rule_table import MAX_BLACKJACK_PAY, MAX_BONUS_RATIO, DealerBonus
from solver.model.rules import DealerNatural, NaturalBeats, PresetName, Rules
from solver.present.report import build_report, render_html
from solver.store.memory import MemoryCache
from solver.studies.report import report_figures

#: The smallest sizes of the report's sampled studies.
SIZES: dict[str, Any] = {
    "shoe_samples": 2,
    "counter_rounds": 200,
    "table_rounds": 2,
    "simulation_rounds": 200,
}
LOWEST, HIGHEST = Paytable([0, 0, 0]), Paytable([MAX_PAY] * 3)

#: One rule at an end of its range, the others at their defaults.
CORNERS: list[dict[str, Any]] = [
    {"decks": 1},
    {"decks": 8},
    {"dealer_stands_on": 12},
    {"dealer_stands_on": 21},
    *({"dealer_bonus": reading} for reading in DealerBonus),
    *({"dealer_natural": reading} for reading in DealerNatural),
    *({"natural_beats": reading} for reading in NaturalBeats),
    {"paytable": LOWEST},
    {"paytable": HIGHEST},
    {"bonus_ratio": MAX_BONUS_RATIO},
    {"blackjack_pays": MAX_BLACKJACK_PAY},
]
#: Several corners in one game, for the default suite.
MIXED = Rules(
    decks=1,
    dealer_stands_on=12,
    dealer_natural=DealerNatural.NONE,
    natural_beats=NaturalBeats.NOTHING,
    paytable=Paytable([0, MAX_PAY, 0]),
    bonus_ratio=MAX_BONUS_RATIO,
)


class Text(HTMLParser):
    """The text of an HTML page, without its tags, styles and scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.hidden += tag in ("style", "script")

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("style", "script")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def check_report(rules: Rules, store: MemoryCache) -> None:
    """Build, lay out and render the report of ``rules``; its text says no NaN or infinity."""
    report = build_report(report_figures(rules, cache=store, **SIZES))
    assert report.sections and all(s.title and s.blocks for s in report.sections)
    page = Text()
    page.feed(render_html(report))
    text = " ".join(page.parts)
    assert rules.summary()[:20] in text or str(rules.decks) in text
    odd = re.findall(r"\b(?:nan|NaN|inf|Infinity)\b", text)
    assert not odd, (rules, odd)


@pytest.fixture(scope="module")
def store() -> MemoryCache:
    return MemoryCache()


@pytest.mark.soak  # about 30 s: solves, studies (a session too wide to convolve) and plots
def test_a_report_at_several_corners_at_once(store: MemoryCache) -> None:
    check_report(MIXED, store)


@pytest.mark.soak
@pytest.mark.parametrize(
    "corner", CORNERS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items())
)
def test_a_report_at_each_corner_of_the_rule_table(
    corner: dict[str, Any], store: MemoryCache
) -> None:
    check_report(Rules(**corner), store)


@pytest.mark.soak
@pytest.mark.parametrize("preset", list(PresetName))
def test_a_report_for_each_preset(preset: PresetName, store: MemoryCache) -> None:
    check_report(Rules.from_preset(preset), store)


def test_the_corners_cover_the_rule_table() -> None:
    """Each rule of the table is at an end of its range in some corner (a new rule too)."""
    from solver.model.rule_table import RULE_TABLE

    moved = {name for corner in CORNERS for name in corner}
    assert moved == {rule.name for rule in RULE_TABLE}
