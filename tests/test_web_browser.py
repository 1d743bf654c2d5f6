"""The workbench in a real browser: ``cbj serve`` started by the test on 127.0.0.1, driven
by headless Chromium through Playwright, every expected figure from ``solver``'s API.

One server and one browser serve the whole module (its tests run on one xdist worker, in
order: the later ones reuse what the earlier ones solved), both the session's, shared with
the other browser tests.  The chart's and the report's
builds take seconds to minutes, so those tests are ``soak``.  The tests skip when Chromium
or Playwright is missing, and fail instead in CI (tests/browsers.py).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

import solver
from solver.model.errors import CbjError
from solver.model.rules import Rules
from solver.present.style import edge_percent
from tests.browsers import DESKTOP, PHONE
from tests.conftest import GAMES

MEMORY = GAMES  # the session's store (tests/conftest.py): its games, charts and costs
EDGE = '[data-figure="round-house-edge"]'


def expected_edge(**options: Any) -> float:
    """The round's house edge ``cbj solve`` gives under ``options`` (the API, in this process)."""
    return float(solver.solve(cache=MEMORY, **options).round_house_edge)


@pytest.fixture(scope="module")
def server(workbench: str) -> str:
    """The session's ``cbj serve`` on 127.0.0.1 (tests/conftest.py): its address."""
    return workbench


@pytest.fixture(scope="module")
def context(chromium: Any) -> Iterator[Any]:
    opened = chromium.new_context(viewport=PHONE, accept_downloads=True)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def tab(context: Any) -> Iterator[Any]:
    """The module's tab, with the errors its pages logged."""
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    page.close()


def _wait_for_edge(page: Any, value: float, timeout: float = 60_000) -> None:
    page.wait_for_function(
        "([selector, value]) => { const e = document.querySelector(selector);"
        " return e !== null && Number(e.dataset.value) === value; }",
        arg=[EDGE, value],
        timeout=timeout,
    )


def _overflow(page: Any) -> int:
    width: int = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    return width


def test_typing_a_paytable_shows_the_house_edge_cbj_solve_gives(tab: Any, server: str) -> None:
    tab.goto(server + "/", wait_until="load")
    tab.wait_for_selector(EDGE, timeout=60_000)
    assert float(tab.get_attribute(EDGE, "data-value")) == expected_edge()
    assert _overflow(tab) <= 0  # readable at 390 px without scrolling sideways
    tab.click("#f-paytable")
    tab.keyboard.type("20:5:2")
    wanted = expected_edge(paytable="20:5:2")
    _wait_for_edge(tab, wanted)
    assert tab.inner_text(EDGE) == edge_percent(wanted)
    assert "paytable=20%3A5%3A2" in tab.url
    tab.set_viewport_size(DESKTOP)
    assert _overflow(tab) <= 0
    tab.set_viewport_size(PHONE)
    assert tab.errors == []


def test_a_rule_change_shows_progress_then_the_figures_of_cbj_solve(tab: Any, server: str) -> None:
    # New rules solved exactly (about 0.2 s): longer than the live endpoint waits, on either
    # kernel.  A float solve of new rules now finishes within the wait on the compiled
    # kernel (under 0.02 s), and then rightly shows no progress.
    tab.select_option("#f-natural_beats", "nothing")
    _wait_for_edge(tab, expected_edge(paytable="20:5:2", natural_beats="nothing"))
    tab.check("#f-exact")
    tab.wait_for_selector('#progress[role="status"]', state="visible", timeout=30_000)
    _wait_for_edge(tab, expected_edge(paytable="20:5:2", natural_beats="nothing", exact=True))
    assert tab.is_hidden("#progress")
    tab.uncheck("#f-exact")
    _wait_for_edge(tab, expected_edge(paytable="20:5:2", natural_beats="nothing"))
    assert tab.errors == []


def test_the_address_reproduces_the_page_in_a_fresh_tab(tab: Any, context: Any) -> None:
    fresh = context.new_page()
    try:
        fresh.goto(tab.url, wait_until="load")
        fresh.wait_for_selector(EDGE, timeout=60_000)
        for field in ("#f-paytable", "#f-natural_beats", "#f-decks"):
            assert fresh.input_value(field) == tab.input_value(field)
        assert fresh.inner_text("#figures") == tab.inner_text("#figures")
    finally:
        fresh.close()


def _message(make: Callable[[], object]) -> str:
    with pytest.raises(CbjError) as raised:
        make()
    return str(raised.value)


def test_a_bad_value_shows_its_error_beside_the_field(tab: Any) -> None:
    tab.fill("#f-decks", "0")
    wanted = _message(lambda: Rules(decks=0))
    tab.wait_for_function(
        "text => document.getElementById('error-decks').textContent === text", arg=wanted
    )
    assert tab.get_attribute("#f-decks", "aria-invalid") == "true"
    tab.fill("#f-decks", "")
    tab.wait_for_function("() => document.getElementById('error-decks').textContent === ''")
    # The one thing logged: Chromium's note of the 400 that refused the bad value.
    assert {e for e in tab.errors} <= {
        "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    }
    tab.errors.clear()


def test_the_compare_page_shows_two_paytables_edges(tab: Any, server: str) -> None:
    tab.goto(server + "/compare?a.paytable=15:4:1&b.paytable=20:5:2", wait_until="load")
    cells = {
        letter: tab.wait_for_selector(
            f'[data-figure="round-house-edge"][data-column="{letter}"]', timeout=60_000
        )
        for letter in "AB"
    }
    assert float(cells["A"].get_attribute("data-value")) == expected_edge(paytable="15:4:1")
    assert float(cells["B"].get_attribute("data-value")) == expected_edge(paytable="20:5:2")
    assert cells["B"].get_attribute("class") == "differs"
    assert cells["A"].get_attribute("class") is None
    assert tab.errors == []


@pytest.mark.soak
def test_the_chart_page_prints_on_one_a4_page_and_downloads(tab: Any, server: str) -> None:
    tab.goto(server + "/chart?decks=2", wait_until="load")
    tab.wait_for_selector("table.chart", timeout=300_000)
    assert _overflow(tab) <= 0
    assert len(PdfReader(io.BytesIO(tab.pdf(format="A4"))).pages) == 1
    for name, magic in (("chart.pdf", b"%PDF"), ("chart.png", b"\x89PNG"), ("chart.csv", b"#")):
        with tab.expect_download() as download:
            tab.click(f'form[action^="/chart/{name}"] button')
        assert Path(download.value.path()).read_bytes().startswith(magic), name


@pytest.mark.soak
def test_a_report_builds_downloads_and_opens(tab: Any, server: str, tmp_path: Path) -> None:
    sizes = "shoe_samples=2&counter_rounds=20000&table_rounds=60000&simulation_rounds=120000"
    tab.goto(f"{server}/report?decks=2&{sizes}", wait_until="load")
    tab.click("#report-form button[type=submit]")
    tab.wait_for_selector("#downloads a", timeout=600_000)
    with tab.expect_download() as download:
        tab.click("#downloads a")
    saved = tmp_path / "report.html"
    download.value.save_as(saved)
    tab.goto(saved.as_uri(), wait_until="load")
    assert "Community Blackjack" in tab.inner_text("h1")
