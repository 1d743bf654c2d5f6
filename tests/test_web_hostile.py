"""The workbench under hostile requests and load (issue 41): work starts only from the app's
own POSTs, requests past the limits are a clear 4xx, jobs are bounded, stoppable and timed,
and memory stays under its cap.

Most tests drive the app in this process (Starlette's TestClient) over a pool that never
starts its workers (nothing is computed, jobs only queue, so "started nothing" can be
counted); the ones that need a real server start ``cbj serve`` on 127.0.0.1 and send it a
bounded number of requests (the load and memory tests are ``soak``).
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from solver.web import jobs, views
from solver.web.app import ENDPOINTS, MAX_FIELDS, make_app
from solver.web.form import EXCERPT
from solver.web.guard import MAX_URL
from solver.web.jobs import CLIENT_JOBS, Job, Kind, Refused, Stopped, Work
from solver.web.workbench import Workbench
from tests.conftest import run_cli
from tests.workbench_server import free_port, started_workbench

BASE = "http://127.0.0.1:8021"
OURS = {"origin": BASE, "sec-fetch-site": "same-origin"}
#: Every page that does work, with inputs that would start some.
WORK = {
    "/": {"decks": "3"},
    "/api/game": {"decks": "3", "exact": "1"},
    "/paytable": {"mode": "solve", "target": "2%"},
    "/compare": {"a.decks": "2", "b.decks": "3"},
    "/chart": {"decks": "3"},
    "/chart/chart.pdf": {"decks": "3"},
    "/report": {"decks": "3", "build": "1"},
}


@pytest.fixture
def idle(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, Work]]:
    """An app whose workers never start: every job asked for only queues, and is counted.

    A download's POST waits for its file (``views.DOWNLOAD_WAIT``, a minute) before it sends
    the browser to the progress page; no job finishes here, so it is sent there at once.
    """
    monkeypatch.setattr(views, "DOWNLOAD_WAIT", 0.0)
    work = Work(start=False)
    bench = Workbench(work=work)
    with TestClient(make_app(bench), base_url=BASE) as client:
        yield client, work
    bench.close()


def test_every_page_that_works_is_declared_with_a_post(idle: tuple[TestClient, Work]) -> None:
    declared = {e.path.replace("{name}", "chart.pdf") for e in ENDPOINTS if e.work}
    assert set(WORK) <= declared


@pytest.mark.parametrize("site", ["cross-site", "same-site", "same-origin", None])
@pytest.mark.parametrize("path", sorted(WORK))
def test_a_get_starts_nothing_from_anywhere(
    idle: tuple[TestClient, Work], path: str, site: str | None
) -> None:
    """An ``<img>`` or link from another site, or the app's own GET: none starts any work."""
    client, work = idle
    headers = {} if site is None else {"sec-fetch-site": site}
    response = client.get(path, params=WORK[path], headers=headers)
    assert response.status_code < 500
    assert work.started == 0
    if site in ("cross-site", "same-site"):  # and its page will not start it either
        assert "data-start" not in response.text


@pytest.mark.parametrize("path", sorted(WORK))
def test_a_post_from_another_site_is_refused_and_starts_nothing(
    idle: tuple[TestClient, Work], path: str
) -> None:
    client, work = idle
    for headers in ({"origin": "http://attacker.example"}, {"sec-fetch-site": "cross-site"}):
        response = client.post(path, params=WORK[path], headers=headers, follow_redirects=False)
        assert response.status_code == 403
    assert work.started == 0
    ours = client.post(path, params=WORK[path], headers=OURS, follow_redirects=False)
    assert ours.status_code in (200, 202, 303) and work.started >= 1


def test_a_page_post_is_answered_by_its_get(idle: tuple[TestClient, Work]) -> None:
    client, _ = idle
    response = client.post("/", data={"decks": "3"}, headers=OURS, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/?decks=3"


@pytest.mark.parametrize("path", ["/", "/report", "/api/game", "/chart/chart.csv"])
def test_more_fields_than_the_limit_are_a_413(idle: tuple[TestClient, Work], path: str) -> None:
    client, work = idle
    fields = {f"f{i}": "1" for i in range(MAX_FIELDS + 1)}
    posted = client.post(path, data=fields, headers=OURS)
    got = client.get(path, params=fields)
    for response in (posted, got):
        assert response.status_code == 413, response.text
        assert response.text == f"too many fields: a form has at most {MAX_FIELDS}"
    assert work.started == 0
    exactly = {f"f{i}": "1" for i in range(MAX_FIELDS)}
    assert client.get(path, params=exactly).status_code < 413


def test_a_form_body_over_the_limit_is_a_413(idle: tuple[TestClient, Work]) -> None:
    client, _ = idle
    response = client.post("/report", content=b"decks=" + b"1" * 270_000, headers=OURS)
    assert response.status_code == 413 and "too large" in response.text


def test_an_address_over_the_limit_is_a_414(idle: tuple[TestClient, Work]) -> None:
    client, _ = idle
    response = client.get("/", params={"decks": "x" * MAX_URL})
    assert response.status_code == 414


@pytest.mark.parametrize("field", ["decks", "paytable", "preset", "dealer_natural"])
def test_an_error_repeats_only_a_short_harmless_excerpt(
    idle: tuple[TestClient, Work], field: str
) -> None:
    client, _ = idle
    bad = "<script>alert(1)</script>" * 4
    message = client.get("/api/game", params={field: bad}).json()["errors"][field]
    assert "<" not in message and ">" not in message and "alert(1)</" not in message
    quoted = re.findall(r"'([^']*)'", message) or [message]
    assert all(len(q) <= EXCERPT + 3 for q in quoted), message
    page = client.get("/", params={field: bad}).text  # the field keeps its text, escaped
    beside = re.search(rf'id="error-{field}" role="alert">([^<]*)</p>', page)
    assert beside is not None and "&lt;" not in beside.group(1) and "alert(1)" in beside.group(1)
    assert "<script>alert" not in page


def test_the_report_page_takes_the_clis_ten_million_rounds(idle: tuple[TestClient, Work]) -> None:
    client, work = idle
    sizes = {"simulation_rounds": "10000000", "counter_rounds": "10_000_000"}
    response = client.post("/report", data={"decks": "2", **sizes}, headers=OURS)
    assert response.status_code == 200 and work.started == 1
    assert re.search(r'id="error-simulation_rounds" role="alert">[^<]', response.text) is None
    refused = client.get("/report", params={"simulation_rounds": "0"})
    assert refused.status_code == 400 and "simulation rounds 0 is out of range" in refused.text


def _blocked(job: Job[int]) -> int:
    """Work that reports its progress every 10 ms and never ends by itself."""
    while True:
        job.progress(0, 0)
        time.sleep(0.01)


def test_a_client_may_queue_only_so_many_jobs_and_a_full_queue_is_busy() -> None:
    work = Work(start=False)
    for n in range(CLIENT_JOBS):  # reports, charts and drawings, none of them started
        kind = (Kind.CHART, Kind.FILE, Kind.PAYTABLE)[n % 3]
        work.submit(("mine", n), _blocked, kind, client="10.0.0.1")
    with pytest.raises(Refused) as refused:
        work.submit("one more", _blocked, Kind.REPORT, client="10.0.0.1")
    assert refused.value.status == 429 and "you have 6 jobs queued or running" in str(refused.value)
    work.submit("another's", _blocked, Kind.REPORT, client="10.0.0.2")
    work.submit("another's 2", _blocked, Kind.REPORT, client="10.0.0.3")
    with pytest.raises(Refused) as full:  # two reports wait already
        work.submit("a third", _blocked, Kind.REPORT, client="10.0.0.4")
    assert full.value.status == 503 and "waiting already" in str(full.value)
    work.close()


def test_a_waiting_job_shows_its_place_in_the_queue(idle: tuple[TestClient, Work]) -> None:
    client, _ = idle
    for decks in ("2", "3"):
        client.post("/chart", params={"decks": decks}, headers=OURS)
    page = client.get("/chart", params={"decks": "3"}).text
    assert "waiting, 2nd in its queue" in page and 'action="/stop"' in page


def test_stop_ends_a_running_job_and_frees_its_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    work = Work()
    bench = Workbench(work=work)
    try:
        with TestClient(make_app(bench), base_url=BASE) as client:
            job = work.submit("forever", _blocked, Kind.PAYTABLE, client="testclient")
            assert not job.wait(0.3)
            response = client.post(
                "/stop", data={"job": job.id, "back": "/paytable"}, headers=OURS,
                follow_redirects=False,
            )  # fmt: skip
            assert response.status_code == 303 and response.headers["location"] == "/paytable"
            assert job.wait(5) and isinstance(job.future.exception(), Stopped)
            after = work.submit("next", lambda j: 7, Kind.PAYTABLE)
            assert after.wait(5) and after.result() == 7
    finally:
        bench.close()


def test_a_job_past_its_time_limit_is_stopped_even_when_stuck(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One that reports progress stops at its next report; one that never reports is left
    on its own thread, and its kind gets a fresh worker for the jobs after it."""
    limits = dict(jobs.LIMITS)
    limits[Kind.FILE] = jobs.Limits(queue=4, supersede=False, seconds=0.5)
    monkeypatch.setattr(jobs, "LIMITS", limits)
    monkeypatch.setattr(jobs, "GRACE", 0.5)
    release = threading.Event()
    work = Work()
    try:
        reporting = work.submit("reports", _blocked, Kind.FILE)
        assert reporting.wait(10)
        assert str(reporting.future.exception()) == "stopped: it ran past its time limit of 0.5 s"
        stuck = work.submit("stuck", lambda job: release.wait(60), Kind.FILE)
        assert stuck.wait(10) and isinstance(stuck.future.exception(), Stopped)
        after = work.submit("after", lambda job: 7, Kind.FILE)
        assert after.wait(10) and after.result() == 7  # a fresh worker took it
        assert work.spares == 1
    finally:
        release.set()
        work.close()


def test_serve_on_a_busy_port_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        status, out, err = run_cli(["serve", "--port", str(port)], capsys)
    assert (status, out) == (2, "")
    assert err == (
        f"cbj: error: cannot listen on 127.0.0.1:{port}: the port is in use (another cbj "
        "serve?); give another with --port\n"
    )


def test_serve_refuses_a_memory_cap_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(["serve", "--port", str(free_port()), "--memory-mb", "8"], capsys)
    assert status == 2 and err.startswith("cbj: error: memory MB 8 is out of range")


def _abandon_a_form(url: str) -> None:
    """A POST whose client sends 8 of the 50,000 bytes it announced, then goes away."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(
            f"POST /report HTTP/1.1\r\nHost: {host}:{port}\r\nOrigin: {url}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            "Content-Length: 50000\r\n\r\ndecks=2&".encode()
        )
        time.sleep(0.2)


def test_a_real_server_refuses_long_addresses_and_abandoned_forms_quietly() -> None:
    """A 200 kB address is a 414 the client reads (not a reset); a form abandoned half-sent
    leaves no traceback in the server's log."""
    process, url = started_workbench(60)
    try:
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=30) as sock:
            line = f"GET /?decks={'1' * 200_000} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n"
            sock.sendall(line.encode())  # all of it: the server reads what it refuses
            answer = sock.makefile("rb").readline()
        assert answer == b"HTTP/1.1 414 URI Too Long\r\n"
        for _ in range(3):
            _abandon_a_form(url)
        assert httpx.get(f"{url}/", timeout=10).status_code == 200
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
    assert "Traceback" not in err and "ClientDisconnect" not in err, err


@pytest.mark.soak
def test_cheap_pages_answer_within_a_second_under_long_jobs(tmp_path: Path) -> None:
    """A long report building, and 45 clients downloading one chart PDF not drawn yet (the
    issue's case: they held every thread of the server for up to 120 s): the Game page still
    answers within 1 s, every time asked, and every download gets its file."""
    fresh = {"CBJ_CACHE_DIR": str(tmp_path / "cache")}
    process, url = started_workbench(60, None, fresh)
    ours = {"origin": url}
    try:
        sizes = {"decks": "2", "simulation_rounds": "10000000", "table_rounds": "10000000"}
        assert httpx.post(f"{url}/report", data=sizes, headers=ours, timeout=30).status_code < 400
        query = {"decks": "3", "paytable": "17:4:1"}

        def download(_: int) -> tuple[int, bytes]:
            answer = httpx.post(f"{url}/chart/chart.pdf", params=query, headers=ours, timeout=120)
            return answer.status_code, answer.content[:4]

        with ThreadPoolExecutor(max_workers=45) as pool:
            downloads = [pool.submit(download, n) for n in range(45)]
            time.sleep(1)  # every download is in
            waits = []
            for _ in range(10):
                start = time.monotonic()
                assert httpx.get(f"{url}/?decks=5", timeout=10).status_code == 200
                waits.append(time.monotonic() - start)
                time.sleep(0.5)
            answers = {d.result() for d in downloads}
        assert max(waits) < 1.0, waits
        assert answers == {(200, b"%PDF")}, answers
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
    assert "Traceback" not in err


def _resident_mb(pid: int) -> float:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * 4096 / 2**20


@pytest.mark.soak
def test_memory_stays_under_the_cap_while_20_exact_games_are_explored(tmp_path: Path) -> None:
    """Each game solved afresh (a cache folder of its own): about 25 MB of the server's
    memory each when nothing is dropped, 500 MB for the 20."""
    cap = 400
    fresh = {"CBJ_CACHE_DIR": str(tmp_path / "cache")}
    process, url = started_workbench(60, ["--memory-mb", str(cap)], fresh)
    ours = {"origin": url}
    try:
        games = [
            {"decks": str(d), "dealer_stands_on": str(s), "exact": "1"}
            for d in (1, 2, 4, 6, 8)
            for s in (17, 18, 19, 20)
        ]
        peak = 0.0
        for query in games:
            deadline = time.monotonic() + 300
            while (
                httpx.post(f"{url}/api/game", params=query, headers=ours, timeout=30).json()[
                    "status"
                ]
                != "ready"
            ):
                assert time.monotonic() < deadline
                peak = max(peak, _resident_mb(process.pid))
                time.sleep(0.2)
            peak = max(peak, _resident_mb(process.pid))
        assert _resident_mb(process.pid) < cap and peak < cap, peak
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
    assert "Traceback" not in err
