"""Saved games' conversions without a browser (issue 47): the fields a saved game opens
into give back its rules, and /api/saved reads the page's fields or a game file's text
through the form's and ``--game``'s own readers, refusing a bad one in one line.

The browser's side (the panel, the list kept in ``localStorage``, Compare's pickers) is
tests/test_saved_browser.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from solver.api.game_file import MAX_GAME_BYTES
from solver.model.rules import PRESETS, RULE_TABLE, Rules
from solver.web.app import make_app
from solver.web.form import read_rules
from solver.web.saved import game_fields
from solver.web.work import WorkbenchStore
from solver.web.workbench import Workbench
from tests.conftest import GAMES

BASE = "http://127.0.0.1:8021"
OURS = {"origin": BASE, "sec-fetch-site": "same-origin"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    bench = Workbench(WorkbenchStore(GAMES))
    with TestClient(make_app(bench), base_url=BASE) as test_client:
        yield test_client
    bench.close()


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(list(PRESETS)),
    changes=st.fixed_dictionaries(
        {},
        optional={
            rule.name: st.sampled_from([rule.to_json(v) for v in (rule.default, *rule.common)])
            for rule in RULE_TABLE
        },
    ),
)
def test_the_fields_of_a_game_give_back_its_rules(preset: str, changes: dict[str, Any]) -> None:
    """Any game opens into fields the form reads as the same rules, naming only the rules
    that differ from the preset chosen (the one nearest the game)."""
    rules = Rules.from_options(preset=preset, **changes)
    fields = game_fields(rules)
    assert read_rules(fields).rules == rules
    chosen = PRESETS[fields.get("preset", "casino-edition")].to_rules()  # type: ignore[index]
    assert len(fields) - ("preset" in fields) == len(rules.changed(chosen))
    assert all(
        len(rules.changed(p.to_rules())) >= len(rules.changed(chosen)) for p in PRESETS.values()
    )


def _post(client: TestClient, fields: dict[str, str]) -> tuple[int, dict[str, Any]]:
    response = client.post("/api/saved", data=fields, headers=OURS)
    return response.status_code, response.json()


def test_the_pages_fields_become_the_rules_json_and_back(client: TestClient) -> None:
    rules = Rules.from_options(preset="vegas-21", decks=2, paytable="20:5:1")
    status, saved = _post(
        client, {"preset": "vegas-21", "decks": "2", "paytable": "20:5:1", "exact": "1"}
    )
    assert status == 200 and saved["rules"] == rules.to_json()
    assert saved["fields"] == {"preset": "vegas-21", "decks": "2", "paytable": "20:5:1"}
    assert saved["summary"] == "vegas-21, decks 2, paytable 20:5:1"
    status, opened = _post(client, {"game": json.dumps(saved["rules"]), "name": "mine.json"})
    assert (status, opened) == (200, saved)
    toml = 'preset = "vegas-21"\ndecks = 2\n[paytable]\nsuited_match = 20\n'
    toml += "rank_match = 5\nadjacent = 1\n"
    assert _post(client, {"game": toml, "name": "mine.toml"}) == (200, saved)


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"decks": "9"}, "decks 9 is out of range: use 1 to 8"),
        ({"preset": "<b>x</b>"}, "preset '?b?x?/b?' is unknown"),
        (
            {"game": '{"decks": 2, "colour": 1}', "name": "a.json"},
            "game file a.json: unknown key colour",
        ),
        ({"game": "[]", "name": "a.json"}, "game file a.json holds a list"),
        ({"game": "decks = 2"}, "game file game.json is not JSON"),
        ({"game": "decks = ", "name": "a.toml"}, "game file a.toml is not TOML"),
        ({"game": '{"decks": 9}', "name": "<script>"}, "game file <script>.json: decks 9"),
        (
            {"game": " " * (MAX_GAME_BYTES + 1), "name": "big.json"},
            "game file big.json is over 65,536 bytes",
        ),
    ],
)
def test_a_bad_game_is_refused_in_one_line(
    client: TestClient, fields: dict[str, str], says: str
) -> None:
    """The message is JSON the page shows as text (a name holding markup included)."""
    status, answer = _post(client, fields)
    assert status == 400 and list(answer) == ["error"]
    assert answer["error"].startswith(says), answer
    assert "\n" not in answer["error"] and len(answer["error"]) <= 300


def test_the_server_keeps_nothing_and_a_get_or_another_site_is_refused(client: TestClient) -> None:
    assert client.get("/api/saved").status_code == 405
    other = {"origin": "https://elsewhere.example", "sec-fetch-site": "cross-site"}
    assert client.post("/api/saved", data={"decks": "2"}, headers=other).status_code == 403
