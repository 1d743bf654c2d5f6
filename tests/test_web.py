"""The workbench's web app without a browser: its guards, its inputs, its sharing of solves.

Starlette's TestClient drives the app in this process; one test starts ``cbj serve`` as a
real process to stop it with SIGTERM.  Every expected figure comes from ``solver``'s API.
"""

from __future__ import annotations

import html
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from typing import Any, TypeVar

import httpx2 as httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import solver
from solver.exact.game import solve_game
from solver.model.errors import CbjError
from solver.model.rules import Rules
from solver.present.formats import ChartFormat
from solver.results.charts import CHART_COSTS
from solver.results.game import GAME, GameResult
from solver.results.kinds import Key, Kind
from solver.results.volatility import VOLATILITY
from solver.store.memory import MemoryCache
from solver.web import views
from solver.web.app import make_app, warm_up
from solver.web.form import RULE_FIELDS, read_rules
from solver.web.forms import PAGE_FORMS
from solver.web.jobs import Kind as JobKind
from solver.web.jobs import Work
from solver.web.work import WorkbenchStore
from solver.web.workbench import Workbench
from tests.conftest import run_cli
from tests.workbench_server import started_workbench

T = TypeVar("T")
BASE = "http://127.0.0.1:8021"
#: What the app's own pages send with a POST.
OURS = {"origin": BASE, "sec-fetch-site": "same-origin"}
FIGURE = re.compile(r'data-figure="([a-z-]+)" data-value="([^"]+)"')


def figures(page: str) -> dict[str, float]:
    """Every figure a page shows, by name, as the float it carries."""
    return {name: float(value) for name, value in FIGURE.findall(page)}


class CountingStore:
    """A store that only counts and times the solves it is asked to do (no keeping)."""

    def __init__(self, delay: float = 0.0) -> None:
        self.solves = 0
        self.delay = delay
        self._lock = threading.Lock()

    def fetch(self, kind: Kind[T], key: Key, compute: Callable[[], T]) -> T:
        if kind == GAME:
            with self._lock:
                self.solves += 1
            time.sleep(self.delay)  # long enough for every request to arrive meanwhile
        return compute()


@pytest.fixture(scope="module")
def counted() -> CountingStore:
    return CountingStore(delay=0.3)


@pytest.fixture(scope="module")
def client(counted: CountingStore) -> Iterator[TestClient]:
    bench = Workbench(WorkbenchStore(counted))
    with TestClient(make_app(bench), base_url=BASE) as test_client:
        yield test_client
    bench.close()


@pytest.fixture(scope="module")
def idle() -> Iterator[TestClient]:
    """An app whose workers never start: every input is read and checked, nothing solved."""
    bench = Workbench(WorkbenchStore(), Work(start=False))
    with TestClient(make_app(bench), base_url=BASE) as test_client:
        yield test_client
    bench.close()


def test_a_foreign_host_is_refused(idle: TestClient) -> None:
    assert idle.get("/", headers={"host": "attacker.example:8021"}).status_code == 421
    assert idle.get("/", headers={"host": "127.0.0.1.attacker.example"}).status_code == 421
    assert idle.get("/?decks=x", headers={"host": "localhost:8021"}).status_code == 400


def test_a_cross_origin_post_is_refused(idle: TestClient) -> None:
    for headers in (
        {"origin": "http://attacker.example"},
        {"origin": "http://127.0.0.1:9999"},
        {"origin": BASE, "sec-fetch-site": "cross-site"},
    ):
        response = idle.post(
            "/report", data={"decks": "2"}, headers=headers, follow_redirects=False
        )
        assert response.status_code == 403, headers
    same = idle.post(
        "/report", data={"decks": "2"}, headers={"origin": BASE}, follow_redirects=False
    )
    assert same.status_code == 303 and same.headers["location"].startswith("/report?")


class _Scripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []
        self.sources: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            found = dict(attrs).get("src")
            self._in_script = found is None
            if found is not None:
                self.sources.append(found)
        if any(name.startswith("on") for name, _ in attrs):
            self.inline.append(f"{tag} handler")

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/paytable",
        "/compare",
        "/report",
        "/hold",
        "/sensitivity",
        "/practice",
        "/static/workbench.js",
    ],
)
def test_every_response_forbids_inline_script_framing_and_sniffing(
    idle: TestClient, path: str
) -> None:
    response = idle.get(path)
    policy = response.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'" and directives["frame-ancestors"] == "'none'"
    assert response.headers["x-content-type-options"] == "nosniff"
    if path.endswith(".js"):
        return
    scripts = _Scripts()
    scripts.feed(response.text)
    own = ["/static/practice.js"] if path == "/practice" else []
    assert scripts.inline == [] and scripts.sources == ["/static/workbench.js", *own]
    assert "http://" not in response.text and "https://" not in response.text  # nothing remote


def _message(make: Callable[[], object]) -> str:
    """The library's own message for a bad value."""
    with pytest.raises(CbjError) as raised:
        make()
    return str(raised.value)


@pytest.mark.parametrize(
    ("field", "text", "make"),
    [
        ("decks", "9", lambda: Rules(decks=9)),
        ("paytable", "15:4", lambda: Rules.from_options(paytable="15:4")),
        ("bonus_ratio", "1/3", lambda: Rules.from_options(bonus_ratio="1/3")),
        ("dealer_natural", "sometimes", lambda: Rules.from_options(dealer_natural="sometimes")),
    ],
)
def test_a_bad_value_is_a_400_with_its_message_beside_its_field(
    idle: TestClient, field: str, text: str, make: Callable[[], object]
) -> None:
    response = idle.get("/", params={field: text})
    assert response.status_code == 400
    beside = re.search(
        rf'<p class="error" id="error-{field}" role="alert">([^<]*)</p>', response.text
    )
    assert beside is not None
    assert html.unescape(beside.group(1)) == _message(make)
    live = idle.get("/api/game", params={field: text})
    assert live.status_code == 400 and live.json()["errors"][field] == _message(make)


def test_a_search_over_the_limit_is_refused_with_the_cli_hint(idle: TestClient) -> None:
    response = idle.get("/paytable", params={"mode": "search", "max_pay": "5000"})
    assert response.status_code == 400
    assert "max pay 5000 is out of range: use 1 to 1,000" in response.text


def test_the_hold_check_page_says_cbj_holds_verdict_and_refuses_bad_rounds(
    games: MemoryCache, idle: TestClient
) -> None:
    for query, field, make in (
        ({"rounds": "-5", "hold": "2%"}, "rounds", lambda: solver.hold(rounds=-5, hold="2%")),
        (
            {"rounds": "100", "hold": "2%", "result": "3"},
            "hold",
            lambda: solver.hold(rounds=100, hold="2%", result=3),
        ),
        ({"rounds": "100", "hold": "2%"}, "hold", lambda: solver.hold(rounds=100, hold="2%")),
        (
            {"rounds": "100", "result": "3", "seats": "8"},
            "seats",
            lambda: solver.hold(rounds=100, result=3, seats=8),
        ),
    ):
        response = idle.get("/hold", params=query)
        beside = re.search(
            rf'<p class="error" id="error-{field}" role="alert">([^<]*)</p>', response.text
        )
        assert response.status_code == 400 and beside is not None
        assert html.unescape(beside.group(1)) == _message(make)
    asked = {"rounds": "100", "hold": "9%", "drop_to_handle": "0.2", "decks": "1", "seats": "3"}
    assert "hold-tail" not in idle.get("/hold", params=asked).text  # a GET starts nothing
    expected = solver.hold(
        rounds=100, hold="9%", drop_to_handle="0.2", seats=3, decks=1, cache=games
    )
    bench = Workbench(WorkbenchStore(games))
    with TestClient(make_app(bench), base_url=BASE) as client:
        client.post("/hold", params=asked, headers=OURS)
        deadline = time.monotonic() + 60
        while "hold-tail" not in (page := client.get("/hold", params=asked)).text:
            assert page.status_code == 200 and time.monotonic() < deadline
            time.sleep(0.1)
    bench.close()
    assert figures(page.text)["hold-tail"] == expected.p_value
    assert expected.verdict in page.text


def test_the_hold_check_page_checks_a_pits_days_and_names_a_bad_row(
    games: MemoryCache, idle: TestClient
) -> None:
    """Daily results typed (or read from a file by the page's script): the flags and the
    control chart, as ``cbj hold --from`` finds them; a bad row beside the field."""
    daily = "date,rounds,win,drop\n2026-01-01,400,30,1200\n2026-01-02,500,400,1500\n"
    bad = idle.get("/hold", params={"daily": daily.replace("400,30", "400,lots")})
    beside = re.search(r'<p class="error" id="error-daily" role="alert">([^<]*)</p>', bad.text)
    assert (
        bad.status_code == 400
        and beside is not None
        and "'lots' is not a number" in html.unescape(beside.group(1))
    )
    assert 'data-fills="f-daily"' in bad.text  # the file picker beside the text area
    asked = {"daily": daily, "decks": "1", "seats": "2"}
    expected = solver.hold_series(text=daily, seats=2, decks=1, cache=games)
    bench = Workbench(WorkbenchStore(games))
    with TestClient(make_app(bench), base_url=BASE) as client:
        client.post("/hold", params=asked, headers=OURS)
        deadline = time.monotonic() + 60
        while "hold-flagged" not in (page := client.get("/hold", params=asked)).text:
            assert page.status_code == 200 and time.monotonic() < deadline
            time.sleep(0.1)
    bench.close()
    assert figures(page.text)["hold-flagged"] == len(expected.flagged) > 0
    assert "<svg" in page.text and expected.verdict in html.unescape(page.text)


FIELDS = [
    *RULE_FIELDS,
    *PAGE_FORMS["/report"].fields,
    *PAGE_FORMS["/sensitivity"].fields,
    "strategy_chart_text",
    "solve_for",
    "target",
    "band",
    "max_pay",
    "top",
    "kind",
    "mode",
    "format",
    "rounds",
    "hold",
    "result",
]
#: 5,000-digit numbers (a digit repeated, a decimal point, ratio or percent sign inside).
HUGE = st.builds(
    lambda digit, count, mark: "1" + digit * 2500 + mark + digit * count,
    st.sampled_from("0123456789"),
    st.integers(2499, 2501),
    st.sampled_from(["", ".", ":", "/", "%", ":1:"]),
)
TEXTS = st.one_of(
    HUGE,
    st.text(max_size=300),
    st.from_regex(r"-?\d{1,3}(/\d{1,3}|:\d{1,3}){0,3}%?", fullmatch=True),
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    field=st.sampled_from(FIELDS),
    text=TEXTS,
    path=st.sampled_from(
        [
            "/",
            "/api/game",
            "/paytable",
            "/compare",
            "/report",
            "/chart",
            "/hold",
            "/sensitivity",
            "/practice",
        ]
    ),
)
def test_no_input_gives_a_500(
    idle: TestClient, field: str, text: str, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views, "PAGE_WAIT", 0.0)
    name = f"b.{field}" if path == "/compare" else field
    response = idle.get(path, params={name: text})
    assert response.status_code < 500, (path, name, text[:80])
    assert "Traceback" not in response.text


def test_fifty_requests_for_one_uncached_game_share_one_solve(
    client: TestClient, counted: CountingStore
) -> None:
    before = counted.solves

    def ask(_: int) -> httpx.Response:
        return client.post("/api/game", params={"decks": "5"}, headers=OURS)

    with ThreadPoolExecutor(max_workers=50) as pool:
        answers = list(pool.map(ask, range(50)))
    assert {a.status_code for a in answers} <= {200, 202}
    deadline = time.monotonic() + 30
    while (last := ask(0)).status_code == 202:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert counted.solves == before + 1
    expected = solver.solve(decks=5)
    assert figures(last.json()["figures"])["round-house-edge"] == expected.round_house_edge


def _edges(game: GameResult[Any]) -> dict[str, float]:
    return {
        "main-house-edge": -game.expected_value,
        "bonus-house-edge": float(game.bonus.house_edge) if game.bonus else 0.0,
        "round-house-edge": game.round_house_edge,
        "round-hit-frequency": game.round_hit_frequency,
    }


def test_a_paytable_or_ratio_change_is_priced_without_a_solve(
    client: TestClient, counted: CountingStore
) -> None:
    client.post("/", params={"decks": "5"}, headers=OURS)  # solved above, or now
    before = counted.solves
    queries: tuple[dict[str, Any], ...] = (
        {"paytable": "30:6:2"},
        {"paytable": "8:3:1", "bonus_ratio": "2"},
    )
    for query in queries:
        page = client.get("/", params={"decks": "5", **query})
        assert page.status_code == 200
        shown = figures(page.text)
        expected = _edges(solver.solve(decks=5, **query))
        assert {k: shown[k] for k in expected} == expected
    assert counted.solves == before


def test_the_form_reads_what_the_cli_reads() -> None:
    form = read_rules({"preset": "vegas-21", "decks": " 2 ", "blackjack_pays": "6:5"})
    assert form.rules == solver.rules(preset="vegas-21", decks="2", blackjack_pays="6:5").rules


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except OSError:
                continue
    return found


def test_what_one_job_solves_another_waits_for_instead_of_solving_it_too() -> None:
    store, rules = WorkbenchStore(), Rules(decks=1)
    solves: list[str] = []
    entered = threading.Event()

    def solve(name: str, fail: bool = False) -> Callable[[], GameResult[Any]]:
        def compute() -> GameResult[Any]:
            solves.append(name)
            entered.set()
            time.sleep(0.2)  # the other job asks meanwhile
            if fail:
                raise CbjError("stopped")
            return solve_game(rules)

        return compute

    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(store.fetch, GAME, Key(rules), solve("first"))
        entered.wait(10)
        second = pool.submit(store.fetch, GAME, Key(rules), solve("second"))
        assert first.result() is second.result() and solves == ["first"]
    other = Rules(decks=2)
    entered.clear()
    with ThreadPoolExecutor(2) as pool:  # a maker that fails: the one waiting makes it
        failed = pool.submit(store.fetch, GAME, Key(other), solve("failing", fail=True))
        entered.wait(10)
        made = pool.submit(store.fetch, GAME, Key(other), lambda: solve_game(other))
        with pytest.raises(CbjError):
            failed.result()
        assert made.result().rules == other


def test_the_warm_up_does_the_first_pages_work_before_any_page_asks(games: MemoryCache) -> None:
    bench = Workbench(WorkbenchStore(games))  # the session's games: read, not solved again
    try:
        warm_up(bench).join(timeout=600)
        rules = Rules()
        assert bench.store.has_game(rules, False) and bench.store.has_game(rules, True)
        assert bench.store.has(CHART_COSTS, rules)
        kept = bench.store.fetch(VOLATILITY, Key(rules), lambda: pytest.fail("not kept"))
        assert kept == solver.solve(rules=rules, cache=games).volatility
        drawn = bench.chart_file(rules, ChartFormat.PNG, 0.0, start=False)  # looked up only
        assert drawn.ready and drawn.result().startswith(b"\x89PNG")
        with TestClient(make_app(bench), base_url=BASE) as client:  # a first GET: figures
            assert figures(client.get("/").text)
    finally:
        bench.close()


def test_sigterm_stops_the_server_and_its_workers() -> None:
    process, url = started_workbench(60)
    try:
        busy = httpx.post(
            f"{url}/api/game", params={"decks": "7", "exact": "1"}, headers={"origin": url}
        )
        assert busy.json()["status"] == "working"  # an exact solve is running in a worker
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=15)
        assert process.returncode == 128 + signal.SIGTERM, err
        assert "Traceback" not in err
        assert _children(process.pid) == []
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--host", "example.com"], "host 'example.com' is not an IP address"),
        (["--port", "0"], "port 0 is out of range: use 1 to 65,535"),
        (["--port", "70000"], "port 70000 is out of range: use 1 to 65,535"),
    ],
)
def test_serve_refuses_a_bad_address_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["serve", *argv], capsys)
    assert status == 2 and out == ""
    assert err.startswith(f"cbj: error: {message}") and err.count("\n") == 1


def test_a_newer_job_supersedes_the_oldest_one_waiting() -> None:
    work = Work(start=False)  # an exact solve's queue holds two
    first = work.submit("first", lambda job: 1, JobKind.EXACT)
    assert work.submit("first", lambda job: 2, JobKind.EXACT) is first  # the same input: same job
    work.submit("second", lambda job: 3, JobKind.EXACT)
    third = work.submit("third", lambda job: 3, JobKind.EXACT)
    assert first.superseded and not third.superseded
    assert work.find("first") is None and work.find("third") is third
    again = work.submit("first", lambda job: 4, JobKind.EXACT)  # asked again: a new job, which wins
    assert again is not first and work.find("second") is None
    again.run()
    assert again.result() == 4
    work.close()


def test_open_waits_for_the_server_then_opens_its_address_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``cbj serve --open``: the browser is sent to the workbench only once it listens."""
    from solver.web import command

    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", opened.append)

    class Server:
        started = False

    server = Server()
    watcher = threading.Thread(
        target=command._open_when_started, args=(server, "http://127.0.0.1:8021/")
    )
    watcher.start()
    time.sleep(0.2)
    assert opened == []  # not listening yet
    server.started = True
    watcher.join(timeout=5)
    assert opened == ["http://127.0.0.1:8021/"]
