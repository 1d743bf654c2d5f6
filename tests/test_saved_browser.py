"""Saved games (issue 47) in headless Chromium at 390 and 1280 px: a game saved by name is
kept across a reload, opens into the page, renames, exports as the rules' JSON that
``--game`` and ``Rules.from_options`` read, imports back (a bad file refused beside the
control), deletes, and fills a Compare column; a name holding ``<script>`` is only text.

Every expected figure and rule comes from ``solver``'s API in this process; the server is
the session's ``cbj serve`` (tests/conftest.py), which keeps nothing of the games.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import solver
from solver.api.game_file import read_game
from solver.model.rules import Rules
from solver.present.style import edge_percent
from tests.browsers import DESKTOP, PHONE
from tests.conftest import GAMES
from tests.test_practice_browser import _when, axe_source, axe_violations, no_sideways_scroll

#: Where the pages keep the saved games.
KEY = "cbj-saved-games"
#: A name a careless page would run as markup.
HOSTILE = '<script>document.title="owned"</script><b>Two decks</b>'
#: The game saved first: two decks and a richer paytable, as the Game page's fields give it.
TWO_DECKS = Rules.from_options(decks=2, paytable="20:5:1")
#: A game Compare picks: Vegas 21 paying 6:5 for a blackjack.
VEGAS = Rules.from_options(preset="vegas-21", blackjack_pays="6:5")
SIZES = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])


@pytest.fixture
def tab(chromium: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh browser (nothing saved yet) at the test's width, with its page errors and any
    dialog a script opened."""
    viewport = request.node.callspec.params["viewport"]
    context = chromium.new_context(viewport=viewport, accept_downloads=True)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: _console(page, m))
    page.on("dialog", lambda d: (page.errors.append("dialog: " + d.message), d.dismiss()))
    yield page
    context.close()


def _console(page: Any, message: Any) -> None:
    """A script's error logged (a refused file's 400 is the answer the page expects)."""
    if message.type == "error" and "status of 400" not in message.text:
        page.errors.append(message.text)


def _panel(page: Any) -> None:
    """The saved games' panel, unfolded."""
    page.wait_for_selector("#saved-games")
    if page.get_attribute("#saved-games", "open") is None:
        page.click("#saved-games > summary")


def _names(page: Any) -> list[str]:
    names: list[str] = page.eval_on_selector_all(
        "#saved-list li .saved-title", "spans => spans.map(s => s.textContent)"
    )
    return names


def _kept(page: Any) -> list[dict[str, Any]]:
    kept: list[dict[str, Any]] = json.loads(page.evaluate(f"localStorage.getItem('{KEY}')"))
    return kept


def _row(page: Any, name: str, action: str) -> Any:
    return page.locator("#saved-list li", has_text=name).get_by_role("button", name=action).first


def _edge(page: Any, rules: Rules) -> None:
    """The Game page shows the round's house edge ``cbj solve`` gives for ``rules``."""
    wanted = float(solver.solve(rules=rules, cache=GAMES).round_house_edge)
    _when(
        page,
        f"(() => {{ const e = document.querySelector('#figures [data-figure=round-house-edge]');"
        f" return e && Number(e.dataset.value) === {wanted!r}; }})()",
    )
    assert page.inner_text("#figures [data-figure=round-house-edge]") == edge_percent(wanted)


@SIZES
def test_a_saved_game_is_kept_opened_renamed_exported_imported_and_deleted(
    tab: Any, server: str, viewport: dict[str, int], tmp_path: Path
) -> None:
    tab.goto(server + "/?decks=2&paytable=20:5:1", wait_until="load")
    _panel(tab)
    tab.fill("#saved-name", HOSTILE)
    tab.click(".saved-save button[type=submit]")
    tab.wait_for_selector("#saved-list li")
    assert _kept(tab)[0]["rules"] == TWO_DECKS.to_json()

    tab.goto(server + "/", wait_until="load")  # the default game, then a reload
    tab.reload(wait_until="load")
    _panel(tab)
    assert _names(tab) == [HOSTILE]  # the name is text: no element, no script ran
    assert tab.locator("#saved-games script, #saved-games b").count() == 0
    assert tab.title() != "owned"
    no_sideways_scroll(tab)

    _row(tab, "Two decks", "Open").click()
    _when(tab, "document.getElementById('f-decks').value === '2'")
    assert tab.input_value("#f-paytable") == "20:5:1" and tab.input_value("#f-preset") == ""
    assert "decks=2" in tab.url and "paytable=20%3A5%3A1" in tab.url
    _edge(tab, TWO_DECKS)

    with tab.expect_download() as download:
        _row(tab, "Two decks", "Export").click()
    name = download.value.suggested_filename
    assert name == "cbj-game-script-document-title-owned-script-b-two-decks-b.json"
    exported = tmp_path / name
    download.value.save_as(exported)
    document = json.loads(exported.read_text(encoding="utf-8"))
    assert document == TWO_DECKS.to_json()  # the rules' JSON, no more
    assert Rules.from_options(**document) == TWO_DECKS
    assert Rules.from_options(**read_game(exported)) == TWO_DECKS  # what --game reads

    _row(tab, "Two decks", "Rename").click()
    field = tab.get_by_label("New name for")
    assert field.input_value() == HOSTILE
    field.fill("Two decks, 20:5:1")
    field.press("Enter")
    _when(tab, "document.querySelector('#saved-list li .saved-title').textContent.length < 30")
    assert _names(tab) == ["Two decks, 20:5:1"] and _kept(tab)[0]["name"] == "Two decks, 20:5:1"
    assert tab.evaluate("document.activeElement.textContent") == "Rename"

    _row(tab, "Two decks", "Delete").click()
    _when(tab, "document.querySelectorAll('#saved-list li').length === 0")
    assert _kept(tab) == [] and "Deleted" in tab.inner_text("#saved-said")

    bad = tmp_path / "notes.json"
    bad.write_text('{"decks": 2, "colour": "green"}', encoding="utf-8")
    tab.set_input_files("#saved-import", str(bad))
    _when(tab, "document.getElementById('saved-import-said').textContent !== ''")
    said = tab.inner_text("#saved-import-said")
    assert said.startswith("notes.json was not imported: game file notes.json: unknown key colour")
    assert _kept(tab) == []

    tab.set_input_files("#saved-import", str(exported))
    tab.wait_for_selector("#saved-list li")
    assert _names(tab) == ["script-document-title-owned-script-b-two-decks-b"]
    assert _kept(tab)[0]["rules"] == document and tab.inner_text("#saved-import-said") == ""
    no_sideways_scroll(tab)
    assert tab.errors == []


@SIZES
def test_compare_picks_a_saved_game_into_a_column(
    tab: Any, server: str, viewport: dict[str, int]
) -> None:
    tab.goto(server + "/?preset=vegas-21&blackjack_pays=6:5", wait_until="load")
    _panel(tab)
    tab.fill("#saved-name", "Vegas 6:5")
    tab.press("#saved-name", "Enter")
    tab.wait_for_selector("#saved-list li")

    tab.goto(server + "/compare?a.paytable=15:4:1", wait_until="load")
    tab.select_option("#b\\.saved-pick", label="Vegas 6:5")
    _when(tab, "document.getElementById('b.f-preset').value === 'vegas-21'")
    assert tab.input_value("#b\\.f-blackjack_pays") == "6:5"
    assert "b.preset=vegas-21" in tab.url and "b.blackjack_pays=6%3A5" in tab.url
    cell = '[data-figure="round-house-edge"][data-column="B"]'
    wanted = float(solver.solve(rules=VEGAS, cache=GAMES).round_house_edge)
    _when(
        tab,
        f"(() => {{ const e = document.querySelector('{cell}');"
        f" return e && Number(e.dataset.value) === {wanted!r}; }})()",
    )
    assert tab.input_value("#a\\.f-preset") == ""  # the other columns as they were
    no_sideways_scroll(tab)

    tab.goto(server + "/hold", wait_until="load")  # a page without a live game: opened by
    _panel(tab)  # its address
    with tab.expect_navigation():
        _row(tab, "Vegas 6:5", "Open").click()
    assert "preset=vegas-21" in tab.url and "blackjack_pays=6%3A5" in tab.url
    assert tab.errors == []


@SIZES
def test_axe_finds_nothing_in_the_saved_games(
    tab: Any, server: str, viewport: dict[str, int]
) -> None:
    """The panel unfolded with games listed, a name being renamed, and Compare's pickers:
    no violation axe-core finds."""
    source = axe_source()
    tab.goto(server + "/?decks=2", wait_until="load")
    _panel(tab)
    for name in ("Two decks", "Six decks"):
        tab.fill("#saved-name", name)
        tab.press("#saved-name", "Enter")
        _when(tab, f"document.getElementById('saved-said').textContent.includes('{name}')")
    assert axe_violations(tab, source) == []
    _row(tab, "Six decks", "Rename").click()
    assert axe_violations(tab, source) == []
    tab.goto(server + "/compare", wait_until="load")
    _panel(tab)
    tab.wait_for_selector("#d\\.saved-pick")
    assert axe_violations(tab, source) == []
    no_sideways_scroll(tab)
    assert tab.errors == []


@pytest.fixture(scope="module")
def server(workbench: str) -> str:
    """The session's ``cbj serve`` (tests/conftest.py)."""
    return workbench
