"""The workbench's Sensitivity page (issue 47): ``cbj sweep`` for the game the pages carry.

Starlette's TestClient drives the app in this process.  The page's table is the API's sweep
(``solver.sweep``) figure for figure and row for row, its marked row the game in force,
itself ``cbj solve``'s figures; a bad field is said beside itself, in the API's words,
before anything is solved; a GET starts nothing.
"""

from __future__ import annotations

import html
import re
import threading
import time
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from starlette.testclient import TestClient

import solver
from solver.model.errors import CbjError
from solver.present.sensitivity import inline_svg
from solver.present.sweep import SWEEP_FIGURES, sweep_table
from solver.results.sweep import variables
from solver.web import workbench
from solver.web.app import make_app
from solver.web.jobs import Work
from solver.web.work import WorkbenchStore
from solver.web.workbench import Workbench
from tests.conftest import GAMES

BASE = "http://127.0.0.1:8021"
OURS = {"origin": BASE, "sec-fetch-site": "same-origin"}
ROW = re.compile(
    r'<tr data-value="([^"]+)"( class="in-force" aria-current="true")?>(.*?)</tr>', re.S
)
FIGURE = re.compile(r'<td data-key="([a-z_]+)" data-value="([^"]+)">([^<]*)</td>')
ERROR = re.compile(r'<p class="error" id="error-([a-z_]+)" role="alert">([^<]+)</p>')


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The app over the session's store (its default games are solved already)."""
    bench = Workbench(WorkbenchStore(GAMES))
    with TestClient(make_app(bench), base_url=BASE) as test_client:
        yield test_client
    bench.close()


@pytest.fixture(scope="module")
def idle() -> Iterator[TestClient]:
    """An app whose workers never start: every field is read and checked, nothing solved."""
    bench = Workbench(WorkbenchStore(), Work(start=False))
    with TestClient(make_app(bench), base_url=BASE) as test_client:
        yield test_client
    bench.close()


def _swept(client: TestClient, fields: dict[str, str]) -> str:
    """The page once the sweep its POST started is done."""
    assert client.post("/sensitivity", data=fields, headers=OURS).status_code == 200
    deadline = time.monotonic() + 120
    while 'class="sweep"' not in (page := client.get("/sensitivity", params=fields)).text:
        assert page.status_code == 200 and 'role="status"' in page.text, page.text[-2000:]
        assert time.monotonic() < deadline
        time.sleep(0.1)
    return page.text


def test_the_pages_table_is_the_apis_sweep_with_the_game_in_force_marked(
    client: TestClient,
) -> None:
    fields = {"vary": "suited-match", "start": "10", "stop": "20", "step": "5", "decks": "2"}
    page = _swept(client, fields)
    expected = solver.sweep(vary="suited-match", start=10, stop=20, step=5, decks=2, cache=GAMES)
    table = sweep_table(expected)
    rows = ROW.findall(page)
    assert [Fraction(value) for value, _, _ in rows] == [p.value for p in expected.points]
    assert [bool(marked) for _, marked, _ in rows] == [p.in_force for p in expected.points]
    for (_, _, cells), point, texts in zip(rows, expected.points, table.rows, strict=True):
        shown = FIGURE.findall(cells)
        assert [key for key, _, _ in shown] == list(SWEEP_FIGURES)
        assert [float(value) for _, value, _ in shown] == [
            float(getattr(point, key)) for key in SWEEP_FIGURES
        ]
        assert [text for _, _, text in shown] == list(texts[1:])
    marked = next(p for p in expected.points if p.in_force)
    assert marked.value == 15  # the paytable in force, 15:4:1, and its game is cbj solve's
    game = solver.solve(decks=2, cache=GAMES)
    assert marked.round_house_edge == game.round_house_edge
    assert "<mark>15 (in force)</mark>" in page
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg"') == 2  # wide and narrow
    assert 'role="img"' in page and "xlink:href" in page and "<metadata" not in page
    for note in table.notes:
        assert note.replace("'", "&#39;") in page


@pytest.mark.parametrize(
    ("fields", "field", "api"),
    [
        ({"vary": "tips", "start": "1", "stop": "2"}, "vary", {"vary": "tips"}),
        ({"vary": "decks", "start": "1.5", "stop": "4"}, "start", {"start": "1.5"}),
        ({"vary": "decks", "start": "4", "stop": "2"}, "stop", {"start": "4", "stop": "2"}),
        ({"vary": "decks", "start": "1", "stop": "9"}, "stop", {"stop": "9"}),
        ({"vary": "decks", "start": "0", "stop": "4"}, "start", {"start": "0"}),
        ({"vary": "decks", "start": "1", "stop": "4", "step": "-1"}, "step", {"step": "-1"}),
        ({"vary": "suited-match", "start": "1", "stop": "999", "step": "1"}, "step",
         {"vary": "suited-match", "start": "1", "stop": "999", "step": "1"}),
        ({"vary": "bonus-ratio", "start": "x", "stop": "2"}, "start",
         {"vary": "bonus-ratio", "start": "x"}),
    ],
)  # fmt: skip
def test_a_bad_field_is_said_beside_it_in_the_apis_words(
    idle: TestClient, fields: dict[str, str], field: str, api: dict[str, str]
) -> None:
    """Each refusal is ``solver.sweep``'s (itself ``cbj sweep``'s) for the same text, beside
    the field it is about, with a 400 and before any solve (the app's workers never start)."""
    given = {"vary": "decks", "start": "1", "stop": "4", **api}
    with pytest.raises(CbjError) as refused:
        solver.sweep(**given)  # type: ignore[arg-type]
    page = idle.get("/sensitivity", params=fields)
    assert page.status_code == 400
    said = {name: html.unescape(text) for name, text in ERROR.findall(page.text)}
    assert said == {field: str(refused.value)}


def test_a_blank_required_field_or_bad_rules_is_said_and_nothing_breaks(idle: TestClient) -> None:
    page = idle.get("/sensitivity", params={"vary": "decks"})
    assert page.status_code == 400
    assert {name for name, _ in ERROR.findall(page.text)} == {"start", "stop"}
    page = idle.get(
        "/sensitivity", params={"vary": "decks", "start": "1", "stop": "4", "decks": "x"}
    )
    assert page.status_code == 400 and dict(ERROR.findall(page.text)).keys() == {"decks"}
    hostile = idle.get("/sensitivity", params={"vary": "<script>", "start": "<b>"})
    assert hostile.status_code == 400 and "<script>" not in hostile.text
    assert "<b>" not in hostile.text


def test_a_get_starts_nothing_and_the_form_shows_the_choices_of_cbj_sweep(
    idle: TestClient,
) -> None:
    fields = {"vary": "rank-match", "start": "2", "stop": "6", "paytable": "20:5:1"}
    page = idle.get("/sensitivity", params=fields)
    assert page.status_code == 200 and 'id="idle"' in page.text and 'class="sweep"' not in page.text
    options = re.findall(
        r'<option value="([a-z-]+)"( selected)?',
        page.text.split('id="f-vary"')[1].split("</select>")[0],
    )
    assert [name for name, _ in options] == [v.name for v in variables(solver.Rules())]
    assert ("rank-match", " selected") in options
    assert 'aria-current="page">Sensitivity</a>' in page.text


def test_an_svg_is_put_inline_with_its_name_and_without_its_prolog() -> None:
    drawn = (
        b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
        b'xmlns:xlink="http://www.w3.org/1999/xlink"><metadata><x/></metadata>'
        b'<use xlink:href="#m1"/><text>a &lt; b</text></svg>'
    )
    shown = str(inline_svg(drawn, 'edges & "SD"'))
    assert shown.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert 'aria-label="edges &amp; &quot;SD&quot;"' in shown and 'role="img"' in shown
    assert '<use xlink:href="#m1" />' in shown and "a &lt; b" in shown and "metadata" not in shown


def test_the_drawing_is_a_step_of_the_progress_never_shown_as_done(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the plot is drawn, every value solved, the progress says one step is left
    (issue 47: a stage that is running is not 100%)."""
    drawing = threading.Event()
    drawn = threading.Event()

    def slow(*args: Any) -> bytes:
        drawing.set()
        drawn.wait(60)
        return b'<svg xmlns="http://www.w3.org/2000/svg"/>'

    monkeypatch.setattr(workbench, "draw", slow)
    fields = {"vary": "bonus-ratio", "start": "1/2", "stop": "2", "step": "1/2"}
    bench = Workbench(WorkbenchStore(GAMES))
    try:
        with TestClient(make_app(bench), base_url=BASE) as client:
            client.post("/sensitivity", data=fields, headers=OURS)
            assert drawing.wait(60)
            page = client.get("/sensitivity", params=fields).text
            assert "(4 of 5, 80%)" in page and 'class="sweep"' not in page
            drawn.set()
            assert 'class="sweep"' in _swept(client, fields)
    finally:
        drawn.set()
        bench.close()
