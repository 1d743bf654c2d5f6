"""A Dask cluster that cannot work: each failure is one line, in bounded time, quietly.

Addresses that cannot work here (``tls://`` without TLS settings, an ``inproc://`` no
cluster of this process listens at) are refused before connecting; a peer that accepts
the connection and never answers, and a cluster left without a worker, end the run with
one :class:`BackendError` after a bounded wait (shortened here); Dask's own log lines
stay off stderr.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from types import ModuleType

import pytest

from solver.model import parallel
from solver.model.errors import BackendError
from solver.model.parallel import parallel_map

#: Real schedulers and workers, started and killed: the soak tests (``pytest -m soak``, in CI).
pytestmark = [pytest.mark.soak, pytest.mark.xdist_group("dask-failures")]


@pytest.fixture(scope="module", autouse=True)
def distributed() -> ModuleType:
    """Dask's ``distributed``, imported only when these tests run (seconds of CPU to load in
    each xdist worker that merely collects them); they skip without it."""
    module: ModuleType = pytest.importorskip("distributed")
    return module


def run_on(address: str) -> list[int]:
    return list(parallel_map(abs, [-1, 2], backend="dask", scheduler=address))


@pytest.mark.parametrize(
    ("address", "words"),
    [("tls://127.0.0.1:1", "TLS settings"), ("inproc://192.0.2.1/1/1", "no Dask cluster")],
)
def test_an_address_that_cannot_work_here_is_one_line_at_once(address: str, words: str) -> None:
    started = time.monotonic()
    with pytest.raises(BackendError, match=words) as error:
        run_on(address)
    assert "\n" not in str(error.value) and time.monotonic() - started < 5


@pytest.fixture
def silent_peer() -> Iterator[str]:
    """A port that accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()


def test_a_peer_that_never_answers_is_one_line_in_bounded_time(
    silent_peer: str, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(parallel, "CONNECT_SECONDS", 1)
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", "1s")
    started = time.monotonic()
    with pytest.raises(BackendError, match="did not answer within 1 s"):
        run_on(silent_peer)
    assert time.monotonic() - started < 1 + 5 + 3  # the timeout, the grace, a margin
    assert "distributed" not in capfd.readouterr().err


@pytest.fixture
def garbage_peer() -> Iterator[str]:
    """A port whose program answers every connection with bytes that are no Dask message
    (a length header of 2**64 - 1, then text): Dask once tried to allocate 3 EiB for it."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    stop = threading.Event()

    def answer() -> None:
        while not stop.is_set():
            try:
                peer, _ = server.accept()
            except OSError:
                continue
            with peer, contextlib.suppress(OSError):
                peer.sendall(b"\xff" * 64 + b"not a Dask scheduler\n" * 50)
                peer.recv(100)

    answering = threading.Thread(target=answer, daemon=True)
    answering.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        answering.join(5)
        server.close()


def test_a_peer_that_answers_garbage_is_said_so_in_one_line(garbage_peer: str) -> None:
    with pytest.raises(BackendError) as error:
        run_on(garbage_peer)
    assert str(error.value) == (
        f"cannot reach the Dask scheduler at {garbage_peer}: it answered, but not as a Dask "
        "scheduler (is the port its own?)"
    )


@pytest.fixture
def no_workers(distributed: ModuleType) -> Iterator[str]:
    """A Dask scheduler in this process with no worker at all."""
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def test_a_cluster_without_workers_ends_the_run_in_one_line(
    no_workers: str, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(parallel, "LOST_TIMEOUT", 2.0)
    monkeypatch.setattr(parallel, "POLL_INTERVAL", 0.2)
    started = time.monotonic()
    with pytest.raises(BackendError, match="no worker for the last 2 s") as error:
        run_on(no_workers)
    assert "\n" not in str(error.value)
    assert time.monotonic() - started < 2 + 5 + 3  # the wait, the scheduler's report, a margin
    assert "distributed" not in capfd.readouterr().err
