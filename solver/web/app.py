"""The workbench's web app (Starlette): every page and endpoint declared once, with its guard.

Each :class:`Endpoint` names its path, its view and whether it does work.  A GET only reads
what is built (or being built): it never starts a solve, a drawing or a report, whoever
asks (a cross-site ``<img>`` included).  Work starts only from a POST, which the outer
:class:`~solver.web.guard.Guard` accepts from the app's own pages only (``Origin`` and
``Sec-Fetch-Site``); a page's POST is answered by a redirect to its GET (which shows the
progress), the live endpoint's and the downloads' by their own answer.  Every request's
fields are read here, bounded (:data:`MAX_FIELDS` fields, :data:`MAX_BODY` bytes of body):
a view gets them as an :class:`Ask`.  Adding a page is one :class:`Endpoint` in
:data:`ENDPOINTS`.
"""

from __future__ import annotations

import importlib
import inspect
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from solver.model.rules import Rules
from solver.present import workbench as html
from solver.present.formats import ChartFormat
from solver.web import saved, views
from solver.web.guard import Guard, served_hosts
from solver.web.jobs import LIMITS, Kind
from solver.web.sensitivity import sensitivity_page
from solver.web.views import Ask
from solver.web.workbench import Outcome, Workbench

STATIC = Path(__file__).resolve().parent / "static"
#: The largest form a POST may send (bytes): room for a practice play, which carries the
#: player's history across sessions (its reader bounds it: 200 sessions and every cell, some
#: 90 KB as a form) beside the session's state.
MAX_BODY = 256 * 1024
#: The most fields a request may carry (query string and form together).
MAX_FIELDS = 100

View = Callable[[Ask], Response] | Callable[[Ask], Awaitable[Response]]


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One path of the app: its view, and how a POST to it is answered.

    ``work``: a POST to it may start work (a GET never does).  ``redirect``: a POST is
    answered by a redirect to the same page as a GET (the page shows the job's progress),
    unless the view redirects it itself (to a shorter address); otherwise by the view's own
    answer (the live endpoint's JSON, a download).
    """

    path: str
    view: View
    work: bool = False
    redirect: bool = True


ENDPOINTS = (
    Endpoint("/", views.game_page, work=True),
    Endpoint("/api/game", views.game_live, work=True, redirect=False),
    Endpoint("/paytable", views.paytable, work=True),
    Endpoint("/hold", views.hold, work=True),
    Endpoint("/sensitivity", sensitivity_page, work=True),
    Endpoint("/compare", views.compare_page, work=True),
    Endpoint("/api/compare", views.compare_live, work=True, redirect=False),
    Endpoint("/chart", views.chart_page, work=True),
    Endpoint("/chart/{name}", views.chart_download, work=True, redirect=False),
    Endpoint("/report", views.report_page, work=True),
    Endpoint("/report/download", views.report_download),
    Endpoint("/practice", views.practice_page, work=True, redirect=False),
    Endpoint("/api/practice", views.practice_live, work=True, redirect=False),
    Endpoint("/api/practice/history", views.practice_history, work=True, redirect=False),
    Endpoint("/api/saved", saved.saved_game, work=True, redirect=False),
    Endpoint("/stop", views.stop, work=True, redirect=False),
    Endpoint("/favicon.ico", views.no_icon),
)


class TooMuch(Exception):
    """A request whose fields or body pass the limits: refused with ``status``."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def _pairs(text: str) -> list[tuple[str, str]]:
    try:
        return parse_qsl(text, max_num_fields=MAX_FIELDS)
    except ValueError:
        raise TooMuch(f"too many fields: a form has at most {MAX_FIELDS}", 413) from None


async def _fields(request: Request, start: bool) -> dict[str, str]:
    """The request's fields: its query string's, and a POST's form body's (which win)."""
    pairs = _pairs(request.url.query)
    if start:
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise TooMuch(f"the form is too large: at most {MAX_BODY:,} bytes", 413)
        pairs += _pairs(body.decode("utf-8", "replace"))
        if len(pairs) > MAX_FIELDS:
            raise TooMuch(f"too many fields: a form has at most {MAX_FIELDS}", 413)
    return dict(pairs)


def _autostart(request: Request) -> bool:
    """Whether a page may start its work once shown: the user went to it here (typed it,
    followed one of the app's links), not from another site."""
    return request.headers.get("sec-fetch-site", "none") in ("same-origin", "none")


def _handler(endpoint: Endpoint, start: bool) -> Callable[[Request], Awaitable[Response]]:
    """The Starlette handler of ``endpoint`` for a GET (``start=False``) or a POST."""
    is_async = inspect.iscoroutinefunction(endpoint.view)

    async def handle(request: Request) -> Response:
        try:
            fields = await _fields(request, start)
        except TooMuch as refused:
            return PlainTextResponse(str(refused), refused.status)
        except ClientDisconnect:  # the client gave up sending its form: no one to answer
            return Response(status_code=400)
        client = request.client.host if request.client else ""
        ask = Ask(
            request.app.state.bench,
            fields,
            start,
            client,
            request.url.path,
            dict(request.path_params),
            _autostart(request),
        )
        if is_async:
            response: Response = await endpoint.view(ask)  # type: ignore[misc]
        else:
            response = await run_in_threadpool(endpoint.view, ask)  # type: ignore[arg-type]
        if start and endpoint.redirect and response.status_code < 300:
            return RedirectResponse(html.link(request.url.path, fields), 303)
        return response

    return handle


def routes(endpoints: tuple[Endpoint, ...] = ENDPOINTS) -> list[BaseRoute]:
    """Every endpoint's routes (a GET, and a POST where it does work), and the static files."""
    found: list[BaseRoute] = []
    for endpoint in endpoints:
        found.append(Route(endpoint.path, _handler(endpoint, False), methods=["GET", "HEAD"]))
        if endpoint.work:
            found.append(Route(endpoint.path, _handler(endpoint, True), methods=["POST"]))
    found.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    return found


def make_app(bench: Workbench, host: str = "127.0.0.1", port: int = 8021) -> Guard:
    """The app for a server on ``host:port``, guarded (:class:`~solver.web.guard.Guard`)."""
    app = Starlette(routes=routes())
    app.state.bench = bench
    any_address = host in ("0.0.0.0", "::", "")
    return Guard(app, served_hosts(host, port), any_address)


#: What a game's first answer loads beyond the app: the solver's kernels (numpy) and the
#: session's convolution.
SOLVER_MODULES = ("solver.exact.player", "solver.exact.session", "solver.exact.lattice")
#: Who asks for the warm-up's jobs (its own client, never counted against a visitor's).
WARM_UP_CLIENT = "warm-up"


def warm_up(bench: Workbench, rules: Rules | None = None) -> threading.Thread:
    """Start on what the first pages ask for, at the server's start, in the background: the
    default game (``rules``) with its session figures (the Game page), then its exact solve,
    best chart and chart costs (Practice, the Chart page), then the chart drawn as a PNG.

    Each is the job a page would start (a page asking meanwhile waits for that job, never
    starts another), kept as the page would keep it.  The solver's modules are loaded
    before this returns, so that no answer pays for the imports.  The thread it returns
    has started; it stops with the process.
    """
    for module in SOLVER_MODULES:
        importlib.import_module(module)
    chosen = rules or Rules()

    def wait(outcome: Outcome[Any], kind: Kind) -> Outcome[Any]:
        if outcome.job is not None:
            outcome.job.wait(LIMITS[kind].seconds)
        return outcome

    def run() -> None:
        game = bench.game(chosen, False, LIMITS[Kind.GAME].seconds, True, WARM_UP_CLIENT)
        if game.ready:
            _ = game.result().volatility  # convolved once, kept by the store for every page
        wait(bench.chart_costs(chosen, 0.0, True, WARM_UP_CLIENT), Kind.CHART)
        wait(bench.chart_file(chosen, ChartFormat.PNG, 0.0, True, WARM_UP_CLIENT), Kind.FILE)

    thread = threading.Thread(target=run, name="cbj-warm-up", daemon=True)
    thread.start()
    return thread
