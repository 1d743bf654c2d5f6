"""The workbench's Practice page, live Compare and Report options without a browser.

Starlette's TestClient drives the app in this process; every expected figure comes from
``solver``'s API, every expected option from ``cbj``'s own command.
"""

from __future__ import annotations

import ast
import json
import re
import time
import webbrowser
from collections.abc import Iterator
from fractions import Fraction
from html import unescape
from pathlib import Path
from typing import Any

import click
import pytest
from starlette.testclient import TestClient

import solver
from solver.cli.commands import make
from solver.model.cells import cell_of
from solver.model.hands import hand_of
from solver.results.practice import Drill
from solver.results.practice_history import (
    MAX_SESSIONS,
    PracticeHistory,
    SessionSummary,
    read_history,
)
from solver.results.practice_stats import CELLS, Review, Schedule, Tally
from solver.studies.protection import COUNTER_ROUNDS, SHOE_SAMPLES
from solver.studies.report import SIMULATION_ROUNDS, STEPS, TABLE_ROUNDS
from solver.web import command
from solver.web.app import make_app
from solver.web.forms import PAGE_FORMS
from solver.web.work import WorkbenchStore
from solver.web.workbench import Workbench, report_stage
from tests.conftest import GAMES

BASE = "http://127.0.0.1:8021"
OURS = {"origin": BASE, "sec-fetch-site": "same-origin"}
MEMORY = GAMES  # the session's store (tests/conftest.py): its games, charts and costs
#: Study sizes that keep a report's build short.
SMALL = {"shoe_samples": "2", "counter_rounds": "2000", "table_rounds": "2000",
         "simulation_rounds": "2000"}  # fmt: skip


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The app over the session's store, as ``cbj serve`` is over the disk cache: it finds
    the default game, chart and costs solved (about a second of CPU to solve them again)."""
    bench = Workbench(WorkbenchStore(GAMES))
    with TestClient(make_app(bench), base_url=BASE) as test_client:
        yield test_client
    bench.close()


def _answer(client: TestClient, fields: dict[str, str]) -> Any:
    """The live endpoint's answer once the solve it waits for is done."""
    deadline = time.monotonic() + 120
    while True:
        response = client.post("/api/practice", data=fields, headers=OURS)
        document = response.json()
        if document["status"] != "working":
            return response.status_code, document
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_a_practice_session_on_the_page_is_the_apis(client: TestClient) -> None:
    status, first = _answer(client, {"play": "start", "seed": "11", "drill": "costly"})
    assert status == 200 and first["status"] == "ready"
    expected = solver.practice_start(seed=11, drill="costly", cache=MEMORY)
    assert first["state"] == expected.to_json()["state"]
    state, turn = first["state"], expected
    for _ in range(12):
        play = "deal" if turn.state.hand is None else "stand"
        status, document = _answer(client, {"play": play, "state": json.dumps(state)})
        turn = solver.practice_play(state, play, cache=MEMORY)
        assert status == 200 and document["state"] == turn.to_json()["state"]
        if turn.grade is not None:
            cost = re.search(r'data-cost="cell" data-exact="([^"]+)"', document["parts"]["grade"])
            assert cost is not None and cost.group(1) == turn.to_json()["grade"][
                "cell_cost_per_100_rounds"]["exact"]  # fmt: skip
        state = document["state"]
    score = re.search(r'data-score="decisions">(\d+)<', document["parts"]["score"])
    assert score is not None and int(score.group(1)) == turn.state.score.decisions


def test_the_history_the_page_keeps_comes_back_as_the_apis(client: TestClient) -> None:
    """The history sent with each play comes back with the turn in it, as
    ``PracticeHistory.updated`` makes it; a session started carries on its review schedule
    (the mistakes drill deals the review due first)."""
    past = solver.practice_start(seed=3, cache=MEMORY)
    turn = past
    while turn.state.schedule.due() is None:  # hitting every hand: mistakes, one of them due
        play = "deal" if turn.state.hand is None else "hit"
        turn = solver.practice_play(turn.state, play, cache=MEMORY)
    history = PracticeHistory().started(past.state.setup).updated(turn.state)
    fields = {"play": "start", "seed": "4", "drill": "mistakes"}
    status, document = _answer(client, {**fields, "history": json.dumps(history.to_json())})
    started = solver.practice_start(seed=4, drill="mistakes", history=history, cache=MEMORY)
    assert status == 200 and document["state"] == started.to_json()["state"]
    sent = read_history(history.to_json())  # as the server reads it (its sums in that order)
    expected = sent.started(started.state.setup).updated(started.state)
    assert read_history(document["history"]) == expected
    due = history.schedule.due()
    hand = started.state.hand
    assert due is not None and hand is not None
    assert (cell_of(hand_of(hand.values)), hand.bonus.points) == due.key
    decisions = re.search(r'data-history="decisions">(\d+)<', document["parts"]["history"])
    assert decisions is not None and int(decisions.group(1)) == history.total.decisions


def test_a_kept_or_imported_history_is_checked_and_shown(client: TestClient) -> None:
    """/api/practice/history reads a history as untrusted input: a tampered one is refused
    in one line, the largest its reader takes (every session and cell) fits the form."""
    for text in ("{", json.dumps({"kind": "cbj practice history", "version": 9}), "[]"):
        response = client.post("/api/practice/history", data={"history": text}, headers=OURS)
        document = response.json()
        assert response.status_code == 400 and document["status"] == "invalid", text
        assert "history" in document["error"] and "\n" not in document["error"]
    summary = SessionSummary(10**8, Drill.MISTAKES, "the printed chart", Tally(9999, 999, 1.25,
                             0.125), 999)  # fmt: skip
    tallies = {key: Tally(99, 9, 0.123456789, 0.0123456789) for key in CELLS}
    reviews = tuple(Review(*key, 4, 10**6) for key in CELLS)
    largest = PracticeHistory(
        (summary,) * MAX_SESSIONS, tallies, 9, 99, "01" * 50, None, Schedule(10**6, reviews)
    )
    text = json.dumps(largest.to_json())
    response = client.post("/api/practice/history", data={"history": text}, headers=OURS)
    assert response.status_code == 200, response.text
    assert read_history(response.json()["history"]) == largest
    assert (
        f'data-history="decisions">{largest.total.decisions:,}<'
        in (response.json()["parts"]["history"])
    )
    status, document = _answer(client, {"play": "start", "history": text})
    assert status == 200 and len(read_history(document["history"]).sessions) == MAX_SESSIONS


def test_a_bad_setting_is_said_beside_its_field(client: TestClient) -> None:
    for fields, name in (
        ({"seed": "x"}, "seed"),
        ({"penetration": "2"}, "penetration"),
        ({"drill": "lucky"}, "drill"),
        ({"decks": "9"}, "decks"),
        ({"chart_text": "hand,A\nnonsense", "chart_name": "mine.csv"}, "chart"),
    ):
        status, document = _answer(client, {"play": "start", **fields})
        assert status == 400 and list(document["errors"]) == [name], fields
        page = client.post("/practice", data={"play": "start", **fields}, headers=OURS)
        assert page.status_code == 400 and 'aria-invalid="true"' in page.text


def test_a_practice_field_holding_markup_shows_it_as_text(client: TestClient) -> None:
    """What the player typed or chose comes back on the page as text, never as markup: the
    chart file's name and text, the seed and the state kept in the form."""
    hostile = "<script>alert(1)</script>"
    fields = {"play": "start", "seed": hostile, "chart_text": hostile, "chart_name": hostile,
              "state": hostile}  # fmt: skip
    page = client.post("/practice", data=fields, headers=OURS)
    assert page.status_code == 400 and 'aria-invalid="true"' in page.text
    assert hostile not in page.text and "&lt;script&gt;alert(1)" in page.text


def test_a_tampered_state_is_refused_in_one_line(client: TestClient) -> None:
    for state in ("{", json.dumps({"version": 1}), "[" * 20_000):
        status, document = _answer(client, {"play": "hit", "state": state})
        assert status == 400 and "state" in document["error"], document
    too_big = client.post("/api/practice", data={"state": "[" * 100_000}, headers=OURS)
    assert too_big.status_code == 413
    assert client.get("/api/practice").status_code == 405
    foreign = client.post(
        "/api/practice", data={"play": "start"}, headers={"origin": "http://attacker.example"}
    )
    assert foreign.status_code == 403


def test_the_practice_page_works_without_the_script(client: TestClient) -> None:
    page = client.post("/practice", data={"play": "start", "seed": "5"}, headers=OURS)
    while "Try again" in page.text:
        time.sleep(0.2)
        page = client.post("/practice", data={"play": "start", "seed": "5"}, headers=OURS)
    assert page.status_code == 200 and "data-seed>5<" in page.text
    state = re.search(r'id="practice-state" value="([^"]*)"', page.text)
    assert state is not None
    kept = json.loads(unescape(state.group(1)))  # as a browser reads it, &quot; or &#34;
    assert kept == solver.practice_start(seed=5, cache=MEMORY).to_json()["state"]


def test_compare_answers_as_typed_and_a_bad_field_marks_only_itself(client: TestClient) -> None:
    response = client.post(
        "/api/compare", params={"a.paytable": "15:4:1", "b.paytable": "20:5:2", "b.decks": "x"},
        headers=OURS,
    )  # fmt: skip
    document = response.json()
    assert response.status_code == 400 and list(document["errors"]) == ["b.decks"]
    table = document["table"]
    assert table.count("not valid") == 1  # B's decks, and nothing else
    assert "20:5:2" in table and 'class="differs"' in table
    good = client.post(
        "/api/compare", params={"a.paytable": "15:4:1", "b.paytable": "20:5:2"}, headers=OURS
    )
    deadline = time.monotonic() + 60
    while good.json()["status"] == "working" and time.monotonic() < deadline:
        good = client.post(
            "/api/compare", params={"a.paytable": "15:4:1", "b.paytable": "20:5:2"}, headers=OURS
        )
    edge = re.search(
        r'data-figure="round-house-edge" data-column="B" data-value="([^"]+)"', good.json()["table"]
    )
    assert edge is not None
    assert float(edge.group(1)) == solver.solve(paytable="20:5:2", cache=MEMORY).round_house_edge


def _page_fields(html: str) -> set[str]:
    """The names of the report form's fields."""
    form = html[html.index('<form id="report-form"') :]
    return set(re.findall(r' name="([a-z_]+)"', form[: form.index("</form>")]))


def test_the_report_page_has_every_option_of_cbj_report() -> None:
    """Each option of ``cbj report`` is a field of the page, but the file written (the page
    downloads it), the workers and the cache (the server's own), the old alias of the
    natural's strength and a game file (the page's rules are its game); the repeated
    ``--paytable`` is the rules' paytable and a field of more paytables, and a chart file is
    sent with a file field."""
    bench = Workbench()
    try:
        with TestClient(make_app(bench), base_url=BASE) as test_client:
            page = test_client.get("/report").text
    finally:
        bench.close()
    report_command = make("report")
    flags = {param.opts[-1].removeprefix("--").replace("-", "_") for param in report_command.params
             if isinstance(param, click.Option)}  # fmt: skip
    server_side = {"output", "jobs", "no_cache", "natural_beats_multi_card_21", "game"}
    expected = (flags - server_side) | {"paytables", "strategy_chart_text", "strategy_chart_name"}
    assert _page_fields(page) == expected
    for name, default in (
        ("shoe_samples", SHOE_SAMPLES),
        ("counter_rounds", COUNTER_ROUNDS),
        ("table_rounds", TABLE_ROUNDS),
        ("simulation_rounds", SIMULATION_ROUNDS),
    ):  # each study's size as the report takes it, not "default"
        assert re.search(rf'name="{name}"[^>]* value="{default:,}"', page), name


def test_the_report_page_builds_with_the_title_block_and_a_chart_file() -> None:
    """The page's options reach the report: its key (the job) differs with each of them, and
    a chart file sent as JSON is the same job as that chart sent as CSV."""
    bench = Workbench()
    chart = solver.chart(cache=MEMORY)
    csv_text = "hand,A,2,3,4,5,6,7,8,9,10\n" + "\n".join(
        ",".join((row["hand"], *row["actions"].values())) for row in chart.to_json()["rows"]
    )
    try:
        with TestClient(make_app(bench), base_url=BASE) as test_client:
            fields = {
                "prepared_by": "Lab",
                "paytables": "20:5:1",
                "strategy_chart_name": "m.json",
                **SMALL,
            }
            posted = test_client.post(
                "/report",
                data={**fields, "strategy_chart_text": json.dumps(chart.to_json())},
                headers=OURS,
                follow_redirects=False,
            )
            assert posted.status_code == 303
            assert len(posted.headers["location"]) < 4000  # the chart in its short CSV
            shown = test_client.get(posted.headers["location"])
            assert 'role="status"' in shown.text  # the build's progress, not "not started"
            again = test_client.get("/report", params={**fields, "strategy_chart_text": csv_text})
            assert 'role="status"' in again.text or "Download the report" in again.text
            bad = test_client.get("/report", params={"strategy": "chart:/etc/passwd"})
            assert bad.status_code == 400 and "file field" in bad.text
    finally:
        bench.close()


def test_the_reports_progress_names_its_stage() -> None:
    assert [report_stage(k, len(STEPS)) for k in range(len(STEPS) + 1)] == [
        *(f"building the report: {step}" for step in STEPS),
        "building the report: writing the document",
    ]


def test_serve_open_prints_the_address_when_no_browser_opens(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Started:
        started = True

    for opened in (lambda url: False, _raises):
        monkeypatch.setattr(webbrowser, "open", opened)
        command._open_when_started(Started(), "http://127.0.0.1:8021/")  # type: ignore[arg-type]
        assert "open http://127.0.0.1:8021/ yourself" in capsys.readouterr().err
    monkeypatch.setattr(webbrowser, "open", lambda url: True)
    command._open_when_started(Started(), "http://127.0.0.1:8021/")  # type: ignore[arg-type]
    assert capsys.readouterr().err == ""


def _raises(url: str) -> bool:
    raise webbrowser.Error("no runnable browser")


def test_a_long_exact_number_breaks_only_between_groups_of_digits() -> None:
    from solver.present.long_numbers import exact_html

    value = Fraction(7**100, 3**90)  # 85 and 43 digits: as long as the paytable's 89-digit pay
    shown = exact_html(value)
    digits = re.sub(r"<[^>]+>", "", shown)
    assert digits.replace("/", "") == f"{value.numerator}{value.denominator}"
    numerator, denominator = re.sub(r"</?span[^>]*>", "", shown).split("/<wbr>")
    for part in (numerator, denominator):  # groups of three, a short one only at the head
        head, *rest = part.split("<wbr>")
        assert 1 <= len(head) <= 3 and all(len(g) == 3 for g in rest)
    assert len(digits) > 80


@pytest.mark.parametrize("path", sorted(PAGE_FORMS))
def test_every_option_of_a_pages_commands_is_a_field_or_says_why_not(
    path: str, client: TestClient
) -> None:
    """Each parameter of the commands behind a page (beside the rules, which are the rules'
    fields) is a field of the page or is named, with why, in the page's note of what it
    leaves out."""
    form = PAGE_FORMS[path]
    chosen = {name for names in form.chosen.values() for name in names}
    fields = (set(form.fields) - set(form.chosen)) | chosen
    assert set(form.params()) == fields | set(form.left_out), path
    assert not fields & set(form.left_out)
    if path == "/chart":  # the chart's page is the printable chart itself
        return
    page = client.get(path).text
    named = {"chart": "chart_text"}  # a chart file is sent as its text
    for name in form.fields:
        assert f'name="{named.get(name, name)}"' in page, (path, name)
    note = page.split('<details class="left-out">', 1)[1].split("</details>", 1)[0]
    for name, param in form.params().items():
        if name in form.left_out:
            flag = param.flag.split("/")[-1] or "--" + name.replace("_", "-")
            assert (f"{name}=" if flag == "-" else flag) in note, (path, name)


def test_the_workbench_takes_no_limit_from_the_solver() -> None:
    """The pages' limits and defaults are the catalogue's: ``web/`` imports no constant from
    ``exact/`` or ``studies/`` (the report's steps, the words of its progress, aside)."""
    imported = [
        (path.name, alias.name)
        for path in (Path(solver.__file__).parent / "web").glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        and (node.module or "").startswith(("solver.exact", "solver.studies"))
        for alias in node.names
        if alias.name.isupper() and alias.name != "STEPS"
    ]
    assert imported == []
