"""The workbench's web app (Starlette): one handler per page, each a thin client of the API.

Every handler reads its inputs from the query string (so a link reproduces the page),
checks them with the CLI's own checks (:mod:`solver.web.form`), asks
:class:`~solver.web.workbench.Workbench` for the result and hands it to
:mod:`solver.present.workbench`.  Bad input is a 400 with the message beside its field;
work still running is a page that shows its progress (202 from the live endpoint).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from solver.present import charts
from solver.present import workbench as html
from solver.present import workbench_pages as pages_html
from solver.present.formats import ChartFormat
from solver.web.form import RulesForm, prefixed, read_rules
from solver.web.guard import Guard, served_hosts
from solver.web.pages import hold_page, paytable_page, report_sizes
from solver.web.workbench import Outcome, Workbench

STATIC = Path(__file__).resolve().parent / "static"
#: How long a page waits for a solve before it shows progress instead (seconds).
PAGE_WAIT = 0.5
#: How long the live endpoint waits (the script asks again at once if it is not ready).
LIVE_WAIT = 0.1
#: How long a download waits for its file to be drawn or built.
DOWNLOAD_WAIT = 120.0
#: The largest form a POST may send (bytes).
MAX_BODY = 64 * 1024
#: The Compare page's columns and the prefix of each one's fields.
COLUMNS = ("A", "B", "C", "D")
#: The chart's downloads: format and file name.
CHART_DOWNLOADS = {
    ChartFormat.PDF: "chart.pdf",
    ChartFormat.PNG: "chart.png",
    ChartFormat.CSV: "chart.csv",
}
_TYPES = {
    "pdf": "application/pdf",
    "png": "image/png",
    "csv": "text/csv; charset=utf-8",
    "html": "text/html; charset=utf-8",
}


def _query(request: Request) -> dict[str, str]:
    return dict(request.query_params)


def _fields(form: RulesForm, prefix: str = "", exact: bool = True) -> str:
    fields = html.rules_fields(form.values, form.errors, form.rules, prefix)
    return (
        fields
        + (html.exact_box(form.exact, prefix) if exact else "")
        + html.form_error(form.errors)
    )


def _game_parts(bench: Workbench, form: RulesForm, wait: float) -> tuple[str, Outcome[Any], int]:
    """The figures' HTML, the outcome behind them and the status code."""
    if form.rules is None:
        return "", Outcome(error="invalid"), 400
    outcome = bench.game(form.rules, form.exact, wait)
    if outcome.ready:
        return html.game_figures(outcome.result()), outcome, 200
    if outcome.error:
        return html.message(outcome.error), outcome, 400
    return "", outcome, 202


def game_page(request: Request) -> Response:
    """The Game page: the rules form and every figure of the game."""
    bench: Workbench = request.app.state.bench
    form = read_rules(_query(request))
    figures, outcome, status = _game_parts(bench, form, PAGE_WAIT)
    body = html.game_body(_fields(form), figures, outcome.progress)
    busy = outcome.progress is not None
    return HTMLResponse(
        html.page("Game", "/", body, form.query(), busy), 200 if status == 202 else status
    )


def game_live(request: Request) -> Response:
    """The Game page's figures for the script: JSON with the HTML to put in place."""
    bench: Workbench = request.app.state.bench
    form = read_rules(_query(request))
    figures, outcome, status = _game_parts(bench, form, LIVE_WAIT)
    state = {200: "ready", 202: "working", 400: "invalid"}[status]
    if outcome.superseded:
        state = "superseded"
    document = {
        "status": state,
        "errors": form.errors
        if form.rules is None
        else {"": outcome.error}
        if outcome.error
        else {},
        "figures": figures,
        "progress": html.progress_html(outcome.progress) if outcome.progress else "",
        "url": html.link("/", form.query()),
    }
    return JSONResponse(document, status)


def compare_page(request: Request) -> Response:
    """Two to four rule sets or paytables side by side (columns C and D when given)."""
    bench: Workbench = request.app.state.bench
    query = _query(request)
    columns, status, busy = [], 200, False
    for letter in COLUMNS:
        given = prefixed(query, f"{letter.lower()}.")
        if letter in ("C", "D") and not any(given.values()):
            fields = html.rules_fields({}, {}, None, f"{letter.lower()}.")
            columns.append(pages_html.Column(letter, fields, None))
            continue
        form = read_rules(given)
        fields = _fields(form, f"{letter.lower()}.", exact=False)
        if form.rules is None:
            status = 400
            columns.append(pages_html.Column(letter, fields, None))
            continue
        outcome = bench.game(form.rules, False, PAGE_WAIT / 2)
        busy = busy or outcome.progress is not None
        column = pages_html.Column(letter, fields, form.rules, outcome.value, outcome.progress)
        columns.append(column)
    body = pages_html.compare_body(columns)
    return HTMLResponse(html.page("Compare", "/compare", body, {}, busy), status)


def _rules_or_400(request: Request, title: str, here: str) -> tuple[RulesForm, Response | None]:
    form = read_rules(_query(request))
    if form.rules is not None:
        return form, None
    fields = _fields(form, exact=False)
    body = f'<form method="get" action="{here}">{fields}<button>Show</button></form>'
    return form, HTMLResponse(html.page(title, here, body, form.query()), 400)


def chart_page(request: Request) -> Response:
    """The best chart's page, as ``cbj chart`` writes it, with its downloads."""
    bench: Workbench = request.app.state.bench
    form, refused = _rules_or_400(request, "Chart", "/chart")
    if refused is not None or form.rules is None:
        return refused or Response(status_code=400)
    outcome = bench.chart(form.rules, PAGE_WAIT)
    if outcome.error:
        return HTMLResponse(
            html.page("Chart", "/chart", html.message(outcome.error), form.query()), 400
        )
    if not outcome.ready:
        body = html.progress_html(outcome.progress)
        return HTMLResponse(html.page("Chart", "/chart", body, form.query(), busy=True))
    downloads = {
        fmt.value.upper(): html.link(f"/chart/{name}", form.query())
        for fmt, name in CHART_DOWNLOADS.items()
    }
    page = pages_html.chart_page(charts.to_html(outcome.result()), downloads, form.query())
    return HTMLResponse(page)


def chart_download(request: Request) -> Response:
    """The chart as a PDF, PNG or CSV file, built in memory."""
    bench: Workbench = request.app.state.bench
    name = request.path_params["name"]
    fmt = next((f for f, n in CHART_DOWNLOADS.items() if n == name), None)
    form = read_rules(_query(request))
    if fmt is None or form.rules is None:
        return Response("not a chart download", 404 if fmt is None else 400)
    outcome = bench.chart_file(form.rules, fmt, DOWNLOAD_WAIT)
    return _download(outcome, name, fmt.value)


def _download(outcome: Outcome[Any], name: str, kind: str) -> Response:
    if outcome.error:
        return Response(outcome.error, 400, media_type="text/plain")
    if not outcome.ready:
        return Response("still building: try again in a moment", 503, media_type="text/plain")
    data = outcome.value.encode() if isinstance(outcome.value, str) else outcome.value
    disposition = {"content-disposition": f'attachment; filename="{name}"'}
    return Response(data, 200, headers=disposition, media_type=_TYPES[kind])


def paytable(request: Request) -> Response:
    """Solve one tier's pay for a target edge, or search a band of edges."""
    return paytable_page(request.app.state.bench, _query(request), PAGE_WAIT)


def hold(request: Request) -> Response:
    """Check a table's observed hold against the exact session distribution."""
    return hold_page(request.app.state.bench, _query(request), PAGE_WAIT)


async def report_start(request: Request) -> Response:
    """Start building the report (a POST from the Report page), then show its progress."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return Response("the form is too large", 413, media_type="text/plain")
    fields = dict(parse_qsl(body.decode("utf-8", "replace"), max_num_fields=100))
    return RedirectResponse(html.link("/report", {**fields, "build": "1"}), 303)


def report_page(request: Request) -> Response:
    """The Report page: its form, the build's progress, and the downloads once built."""
    bench: Workbench = request.app.state.bench
    query = _query(request)
    form = read_rules(query)
    sizes, size_errors, sizes_html = report_sizes(query)
    fmt = "pdf" if query.get("format") == "pdf" else "html"
    fields = _fields(form, exact=False) + sizes_html
    if form.rules is None or size_errors:
        body = pages_html.report_body(fields, "", None, {}, "")
        return HTMLResponse(html.page("Report", "/report", body, form.query()), 400)
    outcome = bench.report(form.rules, sizes, fmt, start=query.get("build") == "1")
    keep = {k: v for k, v in query.items() if k != "build"}
    downloads = {fmt.upper(): html.link("/report/download", keep)} if outcome.ready else {}
    body = pages_html.report_body(fields, "", outcome.progress, downloads, outcome.error)
    return HTMLResponse(
        html.page("Report", "/report", body, form.query(), outcome.progress is not None),
        400 if outcome.error else 200,
    )


def report_download(request: Request) -> Response:
    """The built report, as the file ``cbj report`` writes (built in memory)."""
    bench: Workbench = request.app.state.bench
    query = _query(request)
    form = read_rules(query)
    sizes, size_errors, _ = report_sizes(query)
    fmt = "pdf" if query.get("format") == "pdf" else "html"
    if form.rules is None or size_errors:
        return Response("invalid report options", 400, media_type="text/plain")
    outcome = bench.report(form.rules, sizes, fmt, start=False)
    if outcome.value is None and not outcome.error and outcome.progress is None:
        return Response("build the report first", 404, media_type="text/plain")
    return _download(outcome, f"report.{fmt}", fmt)


def no_icon(request: Request) -> Response:
    """No icon (the pages name none; a browser asks for one anyway on a plain-text answer)."""
    return Response(status_code=204)


def make_app(bench: Workbench, host: str = "127.0.0.1", port: int = 8021) -> Guard:
    """The app for a server on ``host:port``, guarded (:class:`~solver.web.guard.Guard`)."""
    routes = [
        Route("/", game_page),
        Route("/api/game", game_live),
        Route("/paytable", paytable),
        Route("/hold", hold),
        Route("/compare", compare_page),
        Route("/chart", chart_page),
        Route("/chart/{name}", chart_download),
        Route("/report", report_page, methods=["GET", "HEAD"]),
        Route("/report", report_start, methods=["POST"]),
        Route("/report/download", report_download),
        Route("/favicon.ico", no_icon),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.bench = bench
    any_address = host in ("0.0.0.0", "::", "")
    return Guard(app, served_hosts(host, port), any_address)
