"""The Paytable, Hold and Chart pages in Chromium at 390 and 1280 px (issue 47): each tool's
form beside its answer on a desktop and above it on a phone, the rules folded away, the
paytable's decimal first and its exact fraction folded, no sideways scroll.

The session's ``cbj serve`` and Chromium (tests/conftest.py); every expected figure from the
API in this process.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

import solver
from solver.present.style import show
from tests.browsers import DESKTOP, PHONE
from tests.conftest import GAMES

PAY = "/paytable?mode=solve&kind=round&solve_for=suited_match&target=5%25"
HOLD = "/hold?rounds=10000&hold=20%25&drop=50000"


@pytest.fixture(scope="module", params=[PHONE, DESKTOP], ids=["390", "1280"])
def tab(chromium: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    context = chromium.new_context(viewport=request.param)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    assert page.errors == []
    context.close()


def _answer(page: Any, url: str, selector: str, seconds: float = 120) -> None:
    """Open ``url`` (its page starts the work) and wait, across its reloads, for ``selector``."""
    from playwright.sync_api import Error as PlaywrightError

    page.goto(url, wait_until="load")
    deadline = time.monotonic() + seconds
    while True:
        try:
            if page.evaluate(f"!!document.querySelector({selector!r})"):
                break
        except PlaywrightError:  # the page was reloading itself
            pass
        assert time.monotonic() < deadline, url
        time.sleep(0.3)
    page.wait_for_load_state("load")


def _box(page: Any, selector: str) -> dict[str, float]:
    box: dict[str, float] = page.locator(selector).first.bounding_box()
    return box


def _beside_or_above(page: Any, form: str) -> None:
    """At 1280 px the answer (#results) sits right of the form, its top in the first screen;
    at 390 px it stacks above the form, both within the page's width."""
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    answer, asked = _box(page, "#results"), _box(page, form)
    if width >= 1100:
        assert answer["x"] >= asked["x"] + asked["width"], (answer, asked)
        assert answer["y"] < page.viewport_size["height"]
    else:
        assert answer["y"] + answer["height"] <= asked["y"], (answer, asked)
        assert answer["x"] + answer["width"] <= width and asked["x"] + asked["width"] <= width


def _rules_folded(page: Any, form: str) -> None:
    assert page.is_hidden("#f-decks")
    page.click(f"{form} details.rules-more summary")
    assert page.is_visible("#f-decks")


def test_the_paytable_answer_leads_with_its_decimal_beside_its_form(
    tab: Any, workbench: str
) -> None:
    pay = solver.paytable_solve(
        solve_for="suited_match", target_round_edge=Fraction(1, 20), cache=GAMES
    ).pay
    _answer(tab, workbench + PAY, "[data-figure=pay]")
    assert Fraction(tab.get_attribute("[data-figure=pay]", "data-exact")) == pay
    lead = tab.inner_text("#results .lead")
    assert lead.endswith(f"is {show('break_even_pay', pay)}."), lead
    assert tab.is_hidden("#results details.exact .long-number")  # the fraction folded
    tab.click("#results details.exact summary")
    fraction = tab.inner_text("#results details.exact .long-number")
    assert fraction.replace("\u2009", "").replace(" ", "").replace("\n", "") == str(pay)
    _beside_or_above(tab, "#paytable-form")
    _rules_folded(tab, "#paytable-form")


def test_the_hold_checks_verdict_sits_beside_its_form(tab: Any, workbench: str) -> None:
    _answer(tab, workbench + HOLD, "[data-figure=hold-tail]")
    assert tab.inner_text("#results .lead").startswith("Over 10")
    _beside_or_above(tab, "#hold-form")
    _rules_folded(tab, "#hold-form")


def test_the_chart_page_says_its_ev_once(tab: Any, workbench: str) -> None:
    chart = solver.chart_costs(cache=GAMES).chart
    _answer(tab, workbench + "/chart", "[data-figure=chart-ev]", 300)
    text = tab.inner_text("main")
    for value in (chart.expected_value, chart.optimal_expected_value):
        assert text.count(show("chart_ev", value)) == 1, show("chart_ev", value)
    assert tab.evaluate("document.documentElement.scrollWidth") <= tab.viewport_size["width"]
