"""``cbj serve``: the workbench on a local address, until Ctrl-C or SIGTERM.

The command lives with the web app, not in :mod:`solver.cli` (the two clients never
import each other); ``cbj`` finds it by name in :data:`solver.cli.COMMANDS`, as it finds
every command.  The server is uvicorn, which stops on SIGINT and SIGTERM after finishing
the requests in flight; the workers are daemon threads and stop with it.  What the server
keeps in memory (solved games, charts, files, reports) is bounded by ``--memory-mb``
(:mod:`solver.web.memory`).
"""

from __future__ import annotations

import ipaddress
import sys
import threading
import time
import webbrowser

import click
import uvicorn

from solver.model.catalogue import HOST, MEMORY_MB, OPEN, PORT, WARM_UP
from solver.model.checks import whole_number
from solver.store.disk import default_cache, forget_recent
from solver.web.app import make_app, warm_up
from solver.web.jobs import Work
from solver.web.memory import Memory, kept_budget, resident_bytes
from solver.web.server import MAX_HEAD, Protocol, ServeError, listening
from solver.web.work import WorkbenchStore
from solver.web.workbench import Workbench

DEFAULT_HOST: str = HOST.default
DEFAULT_PORT: int = PORT.default
#: The server's memory cap by default (MiB), and the least and most it may be given.
DEFAULT_MEMORY_MB: int = MEMORY_MB.default
MEMORY_MB_RANGE: tuple[int, int] = (MEMORY_MB.low, MEMORY_MB.high)


def check_host(host: str) -> str:
    """An address to listen on: ``localhost`` or an IP address, never a name.

    >>> check_host("127.0.0.1"), check_host("::1")
    ('127.0.0.1', '::1')
    """
    if host == "localhost":
        return "127.0.0.1"
    try:
        return str(ipaddress.ip_address(host.strip("[]")))
    except ValueError:
        raise ServeError(
            f"host {host[:40]!r} is not an IP address: use 127.0.0.1 (this machine only), "
            "0.0.0.0 (every interface) or one of this machine's addresses"
        ) from None


def url_of(host: str, port: int) -> str:
    """The address a browser opens (``0.0.0.0`` is reached as ``127.0.0.1``).

    >>> url_of("0.0.0.0", 8021), url_of("::1", 80)
    ('http://127.0.0.1:8021/', 'http://[::1]:80/')
    """
    shown = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"http://{f'[{shown}]' if ':' in shown else shown}:{port}/"


def open_browser_at(url: str) -> bool:
    """Open ``url`` in the user's browser; whether one could be opened (none can on a machine
    without a display, where ``webbrowser`` finds no browser or the one it finds fails)."""
    try:
        return webbrowser.open(url)
    except webbrowser.Error:
        return False


def _open_when_started(server: uvicorn.Server, url: str) -> None:
    """Open ``url`` in the user's browser once the server listens (or give up after 10 s),
    or say on stderr that none could be opened, with the address to open by hand."""
    for _ in range(200):
        if server.started:
            if not open_browser_at(url):
                click.echo(f"cbj: no browser could be opened here: open {url} yourself", err=True)
            return
        time.sleep(0.05)


def serve_workbench(
    host: str,
    port: int,
    open_browser: bool = False,
    memory_mb: int = DEFAULT_MEMORY_MB,
    warm: bool = True,
) -> None:
    """Serve the workbench on ``host:port`` until stopped (Ctrl-C, SIGTERM); ``warm``:
    start on the default game, its chart and costs at once (:func:`~solver.web.app.warm_up`)."""
    host = check_host(host)
    port = whole_number(port, "port", 1, 65535, ServeError)
    memory_mb = whole_number(memory_mb, "memory MB", *MEMORY_MB_RANGE, ServeError)
    sock = listening(host, port)
    cap = memory_mb * 2**20
    memory = Memory(kept_budget(cap, resident_bytes()), cap, (forget_recent,))
    disk = default_cache(warn=lambda m: click.echo(f"cbj: warning: {m}", err=True))
    bench = Workbench(WorkbenchStore(disk, memory=memory), Work(memory))
    app = make_app(bench, host, port)
    if warm:
        warm_up(bench)  # the default game, its chart and costs, solved before anyone asks
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=Protocol,
        h11_max_incomplete_event_size=MAX_HEAD,
        log_level="warning",
        access_log=False,
        lifespan="off",
        server_header=False,
        timeout_graceful_shutdown=5,
    )
    server = uvicorn.Server(config)
    url = url_of(host, port)
    if not ipaddress.ip_address(host).is_loopback:
        click.echo(
            f"cbj: listening on {host}, reachable from other machines on the network", err=True
        )
    click.echo(f"cbj: the workbench is at {url} (Ctrl-C stops it)", err=True)
    if open_browser:
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        bench.close()
        sock.close()
    if not server.started:
        raise ServeError(f"could not listen on {host}:{port} (is the port in use?)")
    sys.stdout.flush()


@click.command("serve")
@click.option("--host", default=HOST.default, show_default=True, help=HOST.help)
@click.option("--port", metavar="INTEGER", default=PORT.shown_default, show_default=True,
              help=PORT.help)  # fmt: skip
@click.option("--open", "open_browser", is_flag=True, help=OPEN.help)
@click.option("--memory-mb", metavar="INTEGER", default=MEMORY_MB.shown_default,
              show_default=True, help=MEMORY_MB.help)  # fmt: skip
@click.option("--warm-up/--no-warm-up", "warm", default=True, show_default=True,
              help=WARM_UP.help)  # fmt: skip
def serve(host: str, port: str, open_browser: bool, memory_mb: str, warm: bool) -> None:
    """The designer's workbench: a local web app of every figure, live as you type."""
    serve_workbench(host, PORT.read(port), open_browser, MEMORY_MB.read(memory_mb), warm)
