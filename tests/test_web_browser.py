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
from urllib.parse import parse_qsl, urlsplit

import pytest
from pypdf import PdfReader

import solver
from solver.model.errors import CbjError
from solver.model.rules import RULE_TABLE, Rules
from solver.present.fields import preset_words
from solver.present.style import edge_percent
from solver.present.workbench import PAGES
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


def _game_on(tab: Any, fields: dict[str, str]) -> None:
    """The page open in ``tab`` shows the game ``fields``: its rules' fields hold them (column
    A's on the Compare page), and each link of its navigation carries them on."""
    prefix = "a." if tab.url.split("?")[0].endswith("/compare") else ""
    for name, value in fields.items():
        assert tab.input_value(f'[name="{prefix}{name}"]') == value, (tab.url, name)
    for href in tab.eval_on_selector_all("header.site nav a", "links => links.map(a => a.href)"):
        query = dict(parse_qsl(urlsplit(href).query))
        assert all(query.get(k) == v for k, v in fields.items()), (tab.url, href)


def test_the_game_changed_on_the_game_page_is_every_pages_game(tab: Any, server: str) -> None:
    """A paytable and a rule changed on the Game page (never submitted): every link of the
    navigation opens its page with that game, whose fields show it (the Chart page, which
    has none when the rules are valid, carries it on in its own links)."""
    game = {"paytable": "20:5:1", "decks": "1"}
    for path, name in PAGES:
        tab.goto(server + "/", wait_until="load")
        for field, value in game.items():
            tab.fill(f"#f-{field}", value)
        tab.wait_for_function("() => location.search.includes('decks=1')")
        tab.click(f'header.site nav a:text-is("{name}")')
        tab.wait_for_url(f"**{path}?*")
        if path != "/chart":
            _game_on(tab, game)
        else:
            hrefs = tab.eval_on_selector_all("header.site nav a", "ls => ls.map(a => a.href)")
            assert all("decks=1" in h and "paytable=20%3A5%3A1" in h for h in hrefs)
    assert {e for e in tab.errors} <= {
        "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    }
    tab.errors.clear()


def test_a_preset_sets_what_every_field_says(tab: Any, server: str) -> None:
    """Choosing vegas-21: every blank field (on every page with the rules) states the
    preset's reading, a drop-down as its first choice, a text field as its placeholder."""
    for path in ("/", "/hold", "/paytable", "/report", "/sensitivity", "/practice"):
        tab.goto(server + path, wait_until="load")
        if not tab.is_visible("#f-preset"):  # the Practice page folds the rules away
            tab.click("details.rules-more summary")
        tab.select_option("#f-preset", "vegas-21")
        words = preset_words()["vegas-21"]
        for rule in RULE_TABLE:
            control = f'[name="{rule.name}"]'
            if rule.choices:
                shown = tab.eval_on_selector(control, "s => s.options[0].textContent")
            else:
                shown = tab.get_attribute(control, "placeholder")
            assert shown == words[rule.name], (path, rule.name)
        assert "dealer card with the Bonus card only" in words["dealer_natural"]
    tab.goto(server + "/?preset=vegas-21", wait_until="load")  # and as the server draws it
    first = tab.eval_on_selector('[name="dealer_natural"]', "s => s.options[0].textContent")
    assert first == preset_words()["vegas-21"]["dealer_natural"]


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
    name = "cbj-2d-15-4-1-report.html"  # named for the game and the format (issue 47)
    assert download.value.suggested_filename == name
    saved = tmp_path / name
    download.value.save_as(saved)
    tab.goto(saved.as_uri(), wait_until="load")
    assert "Community Blackjack" in tab.inner_text("h1")
    assert f"-o {name}" in tab.inner_text("body")  # the manifest's command writes this file
