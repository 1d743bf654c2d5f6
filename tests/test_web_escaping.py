"""A script typed into any field of any workbench page comes back escaped (issue 48), read in
the raw HTML the app sends (Starlette's TestClient; the browser's twin is
tests/test_escaping_browser.py).

For every page of the navigation, every named control the page shows is given the planted
script (tests/escaping.py), all at once and then each on its own (so that its error, when
the others are valid, is said too), with each of the page's asks (a Paytable solve and
search, a Practice play).  The page never holds the script unescaped, and every field that
shows what was typed shows it whole, as its value.  The app's workers never start here: no
page computes anything, so each answer is the page as the request left it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from solver.web.app import make_app
from solver.web.form import RULE_FIELDS
from solver.web.jobs import Work
from solver.web.workbench import Workbench
from tests.escaping import ASKS, PATHS, PAYLOAD, RAW, TYPED, controls, planted

BASE = "http://127.0.0.1:8021"
#: What the app's own pages send with a POST.
OURS = {"origin": BASE, "sec-fetch-site": "same-origin"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The app over workers that never start: a job asked for only queues."""
    bench = Workbench(work=Work(start=False))
    with TestClient(make_app(bench), base_url=BASE) as opened:
        yield opened
    bench.close()


def _page(client: TestClient, path: str, fields: dict[str, str], ask: dict[str, str]) -> str:
    """The page at ``path`` asked with ``fields``: by a GET, or a POST for a play."""
    if "play" in ask:
        response = client.post(path, data={**fields, **ask}, headers=OURS)
    else:
        response = client.get(path, params={**fields, **ask})
    assert response.status_code < 500, response.text[-500:]
    assert "text/html" in response.headers["content-type"]
    return response.text


def _shown_escaped(page: str, given: dict[str, str]) -> None:
    """No script in ``page``, and each typed field it has of ``given`` shows the value whole."""
    assert RAW.lower() not in page.lower()
    found = controls(page)
    typed = [n for n in given if found.kinds.get(n) in TYPED]
    assert {n: found.values[n] for n in typed} == {n: PAYLOAD for n in typed}
    hidden = [n for n in given if found.kinds.get(n) == "hidden"]
    assert all(found.values[n] == PAYLOAD or "__pwned" not in found.values[n] for n in hidden)


@pytest.mark.parametrize("path", PATHS)
def test_a_script_in_every_field_shows_escaped(client: TestClient, path: str) -> None:
    # every page carries the game (the Chart page shows its fields only when one is wrong)
    names = list(dict.fromkeys((*RULE_FIELDS, *controls(client.get(path).text).kinds)))
    for ask in ASKS.get(path, ({},)):
        fields = planted(names)
        _shown_escaped(_page(client, path, fields, ask), fields)
        for name in names:  # alone: its own error said, the others' fields blank
            _shown_escaped(_page(client, path, planted([name]), ask), planted([name]))


def test_the_check_finds_a_script_let_through() -> None:
    page = f'<input type="text" name="decks" value="{PAYLOAD}">'
    with pytest.raises(AssertionError):
        _shown_escaped(page, planted(["decks"]))
    escaped = '<input type="text" name="decks" value="&#34;&#39;&gt;&lt;script&gt;">'
    with pytest.raises(AssertionError):  # escaped, but not whole
        _shown_escaped(escaped, planted(["decks"]))
