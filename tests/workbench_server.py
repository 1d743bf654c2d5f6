"""``cbj serve`` as a real process for the workbench tests (tests/test_web*.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx2 as httpx


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def started_workbench(
    seconds: float = 90,
    options: list[str] | None = None,
    environment: dict[str, str] | None = None,
) -> tuple[subprocess.Popen[str], str]:
    """``cbj serve`` on a free port, once it answers (``seconds`` at most): process, address.

    ``options`` are more of ``cbj serve``'s (``--no-warm-up`` unless they say ``--warm-up``:
    a test's server solves only what the test asks for), ``environment`` more variables.
    Its standard error is a pipe (text) for the test to read; a server that dies or does
    not answer in time is killed and fails the test with what it printed.
    """
    port = free_port()
    given = options or []
    warm = [] if "--warm-up" in given else ["--no-warm-up"]
    process = subprocess.Popen(
        [sys.executable, "-m", "solver", "serve", "--port", str(port), *warm, *given],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(environment or {})},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + seconds
    while True:
        try:
            httpx.get(f"{url}/?decks=x", timeout=5)
            return process, url
        except httpx.TransportError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                _, err = process.communicate()
                raise AssertionError(f"cbj serve did not start: {err!r}") from None
            time.sleep(0.1)


def serving() -> Iterator[str]:
    """``cbj serve`` for a module's tests (a fixture yields from it), warmed up as a user's
    is (the browser tests play the default game): its address while they run, stopped
    after them."""
    process, url = started_workbench(options=["--warm-up"])
    yield url
    process.terminate()
    process.wait(timeout=30)
