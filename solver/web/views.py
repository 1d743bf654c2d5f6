"""The workbench's views: one function per page, each a thin client of the API.

A view gets an :class:`Ask` (the request's fields, whether it may start work, who asks),
checks the fields with the CLI's own checks (:mod:`solver.web.form`), asks
:class:`~solver.web.workbench.Workbench` for the result and hands it to
:mod:`solver.present.workbench`.  Bad input is a 400 with the message beside its field;
work still running is a page that shows its progress; work refused (a full queue, too many
jobs of one client) is said with its status (503, 429).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from solver.model.errors import CbjError
from solver.model.rules import Rules
from solver.present import fields as field_html
from solver.present import practice as practice_html
from solver.present import workbench as html
from solver.present import workbench_pages as pages_html
from solver.present.formats import ChartFormat, download_name
from solver.present.practice_history import history_html
from solver.present.templates import Markup, macro
from solver.results.charts import Chart
from solver.web import practice
from solver.web.form import (
    MAX_FIELD_TEXT,
    RULE_FIELDS,
    RulesForm,
    prefixed,
    read_rules,
    shown_rules,
)
from solver.web.forms import PAGE_FORMS, left_out_html, rules_html
from solver.web.pages import hold_page, paytable_page, report_options, short_query
from solver.web.workbench import Outcome, Workbench

#: How long a page waits for a job before it shows progress instead (seconds).
PAGE_WAIT = 0.5
#: How long the live endpoint waits (the script asks again at once if it is not ready).
LIVE_WAIT = 0.1
#: How long a download's POST waits for its file (without holding a thread), before it
#: sends the browser to the download's page, which shows the progress.
DOWNLOAD_WAIT = 60.0
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


@dataclass(frozen=True, slots=True)
class Ask:
    """One request as a view sees it."""

    bench: Workbench
    fields: dict[str, str]
    start: bool
    """A POST: the view may start its work (a GET only reads)."""
    client: str
    """Who asks (the client's address), for the limit on jobs per client."""
    path: str
    params: dict[str, str]
    """The path's own parameters (``/chart/{name}``)."""
    autostart: bool = False
    """The page may start its work once shown (the user went to it from here)."""

    @property
    def here(self) -> str:
        """The page's address with its fields: where a Stop button comes back to."""
        return html.link(self.path, self.fields)


def _idle(ask: Ask, what: str) -> Markup:
    """Results not asked for yet: the line that says so (which the script acts on at once
    when the page may start its work)."""
    return html.idle_html(what, ask.autostart)


def _refusal(outcome: Outcome[Any]) -> int:
    """The status of an outcome's error: the refusal's (429, 503), else 400."""
    return outcome.status if outcome.status != 200 else 400


def _printed_chart_ev(ask: Ask, rules: Rules) -> Fraction | None:
    """The main wager's EV with the printed chart under ``rules``, if the chart has been
    searched already (for the Chart page, or Practice); never starts the search."""
    for outcome in (
        ask.bench.chart(rules, 0.0, False, ask.client),
        ask.bench.chart_costs(rules, 0.0, False, ask.client),
    ):
        if outcome.ready:
            found = outcome.result()
            chart = found if isinstance(found, Chart) else found.chart
            return chart.expected_value
    return None


def _game_parts(ask: Ask, form: RulesForm, wait: float) -> tuple[Markup, Markup, Outcome[Any], int]:
    """The figures' HTML, the headline figures' HTML, the outcome behind them and the status."""
    if form.rules is None:
        return Markup(), Markup(), Outcome(error="invalid"), 400
    outcome = ask.bench.game(form.rules, form.exact, wait, ask.start, ask.client)
    if outcome.ready:
        game = outcome.result()
        headline = html.headline_html(game, _printed_chart_ev(ask, form.rules))
        return html.game_figures(game), headline, outcome, 200
    if outcome.error:
        return html.message(outcome.error), Markup(), outcome, _refusal(outcome)
    if outcome.idle:
        return _idle(ask, "Not solved yet: press Show figures."), Markup(), outcome, 200
    return Markup(), Markup(), outcome, 202


def game_page(ask: Ask) -> Response:
    """The Game page: the rules form and every figure of the game."""
    form = read_rules(ask.fields)
    figures, summary, outcome, status = _game_parts(ask, form, PAGE_WAIT)
    fields = rules_html(form) + left_out_html(PAGE_FORMS["/"])
    body = html.game_body(fields, figures, outcome.progress, ask.here, summary)
    busy = outcome.progress is not None
    return HTMLResponse(
        html.page("Game", "/", body, form.query(), busy), 200 if status == 202 else status
    )


def game_live(ask: Ask) -> Response:
    """The Game page's figures for the script: JSON with the HTML to put in place."""
    form = read_rules(ask.fields)
    figures, summary, outcome, status = _game_parts(ask, form, LIVE_WAIT)
    state = {200: "ready", 202: "working"}.get(status, "invalid")
    if outcome.superseded:
        state = "superseded"
    elif outcome.idle:
        state = "idle"
    elif outcome.status != 200:
        state = "refused"
    document = {
        "status": state,
        "errors": form.errors
        if form.rules is None
        else {"": outcome.error}
        if outcome.error
        else {},
        "figures": figures,
        "summary": summary,
        "progress": html.progress_html(outcome.progress) if outcome.progress else "",
        "url": html.link("/", form.query()),
    }
    return JSONResponse(document, status)


@dataclass(frozen=True, slots=True)
class Compared:
    """The Compare page's columns as asked, and what the page says of them."""

    columns: list[pages_html.Column]
    status: int
    busy: bool
    idle: bool
    errors: dict[str, str]
    """Each bad field's message, by its name on the page (``b.decks``)."""


def _column(fields: Mapping[str, str], prefix: str) -> dict[str, str]:
    """A Compare column's fields; column A's, when none is given, the game the other pages
    carry (the rules' fields unprefixed)."""
    given = prefixed(fields, prefix)
    if prefix == "a." and not any(given.values()):
        return {name: fields.get(name, "") for name in RULE_FIELDS}
    return given


def _compared(ask: Ask, wait: float) -> Compared:
    """Each column's form read and its game solved (or asked for); a bad field is only its
    own column's, and only its own row."""
    columns, status, busy, idle = [], 200, False, False
    errors: dict[str, str] = {}
    for letter in COLUMNS:
        prefix = f"{letter.lower()}."
        given = _column(ask.fields, prefix)
        if letter in ("C", "D") and not any(given.values()):
            fields = field_html.rules_fields({}, {}, None, prefix)
            columns.append(pages_html.Column(letter, fields, None))
            continue
        form = read_rules(given)
        errors |= {prefix + name: message for name, message in form.errors.items()}
        fields = rules_html(form, prefix, exact=False)
        if form.rules is None:
            status = 400
            shown = shown_rules(form)
            bad = frozenset(form.errors)
            columns.append(pages_html.Column(letter, fields, None, shown=shown, invalid=bad))
            continue
        outcome = ask.bench.game(form.rules, False, wait, ask.start, ask.client)
        if outcome.error:
            status = _refusal(outcome)
        busy = busy or outcome.progress is not None
        idle = idle or outcome.idle
        column = pages_html.Column(letter, fields, form.rules, outcome.value, outcome.progress)
        columns.append(column)
    return Compared(columns, status, busy, idle, errors)


def compare_page(ask: Ask) -> Response:
    """Two to four rule sets or paytables side by side (columns C and D when given)."""
    found = _compared(ask, PAGE_WAIT / 2)
    body = pages_html.compare_body(found.columns) + left_out_html(PAGE_FORMS["/compare"])
    if found.idle:
        body = _idle(ask, "Not solved yet: press Compare.") + body
    game = read_rules(_column(ask.fields, "a.")).query()  # column A is the game carried on
    return HTMLResponse(html.page("Compare", "/compare", body, game, found.busy), found.status)


def compare_live(ask: Ask) -> Response:
    """The Compare page's table for the script, as the designer types: JSON with the table's
    HTML, each bad field's message, and whether a solve is still running."""
    found = _compared(ask, LIVE_WAIT)
    state = "working" if found.busy else "invalid" if found.errors else "ready"
    document = {
        "status": state,
        "table": pages_html.compare_table(found.columns),
        "errors": found.errors,
        "url": html.link("/compare", {k: v for k, v in ask.fields.items() if v}),
    }
    return JSONResponse(document, 400 if found.errors else 200)


def _rules_or_400(ask: Ask, title: str, here: str) -> tuple[RulesForm, Response | None]:
    form = read_rules(ask.fields)
    if form.rules is not None:
        return form, None
    body = macro("workbench/parts.html", "rules_form", here, rules_html(form, exact=False))
    return form, HTMLResponse(html.page(title, here, body, form.query()), 400)


def chart_page(ask: Ask) -> Response:
    """The best chart's page, as ``cbj chart`` writes it, with its downloads."""
    form, refused = _rules_or_400(ask, "Chart", "/chart")
    if refused is not None or form.rules is None:
        return refused or Response(status_code=400)
    outcome = ask.bench.chart(form.rules, PAGE_WAIT, ask.start, ask.client)
    query = form.query()
    if outcome.error:
        body = html.message(outcome.error)
        return HTMLResponse(html.page("Chart", "/chart", body, query), _refusal(outcome))
    if outcome.idle:
        body = _idle(ask, "Not searched yet.") + pages_html.start_button(
            html.link("/chart", query), "Find the best chart"
        )
        return HTMLResponse(html.page("Chart", "/chart", body, query))
    if not outcome.ready:
        body = html.progress_html(outcome.progress, ask.here)
        return HTMLResponse(html.page("Chart", "/chart", body, query, busy=True))
    downloads = {
        fmt.value.upper(): html.link(f"/chart/{name}", query)
        for fmt, name in CHART_DOWNLOADS.items()
    }
    chart = outcome.result()
    lead = html.chart_lead(chart.expected_value, chart.optimal_expected_value)
    return HTMLResponse(pages_html.chart_page(chart, downloads, query, lead))


async def _waited(outcome: Outcome[Any], bench: Workbench, label: str) -> Outcome[Any]:
    """The outcome once its job is done, or after :data:`DOWNLOAD_WAIT` seconds, awaited
    without holding a thread (a download's POST)."""
    job = outcome.job
    if job is None or job.finished:
        return outcome
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(job.future)), DOWNLOAD_WAIT)
    return bench.outcome(job, label)


async def chart_download(ask: Ask) -> Response:
    """The chart as a PDF, PNG or CSV file, drawn in memory: a POST draws it (and waits for
    it a while), a GET hands over what is drawn or shows how far the drawing has got."""
    name = ask.params.get("name", "")
    fmt = next((f for f, n in CHART_DOWNLOADS.items() if n == name), None)
    form = read_rules(ask.fields)
    if fmt is None or form.rules is None:
        return Response("not a chart download", 404 if fmt is None else 400)
    outcome = ask.bench.chart_file(form.rules, fmt, 0.0, ask.start, ask.client)
    outcome = await _waited(outcome, ask.bench, f"drawing the chart as {fmt.value.upper()}")
    if outcome.progress is not None and ask.start:
        return RedirectResponse(ask.here, 303)  # the download's page shows the progress
    if outcome.progress is not None:
        body = html.progress_html(outcome.progress, ask.here)
        return HTMLResponse(html.page("Chart", "/chart", body, form.query(), busy=True))
    if outcome.idle:
        return Response("not drawn yet: use the Chart page's download buttons", 404)
    return _download(outcome, download_name(form.rules, "chart", fmt.value), fmt.value)


def _download(outcome: Outcome[Any], name: str, kind: str) -> Response:
    if outcome.error:
        return Response(outcome.error, _refusal(outcome), media_type="text/plain")
    if not outcome.ready:
        return Response("still building: try again in a moment", 503, media_type="text/plain")
    data = outcome.value.encode() if isinstance(outcome.value, str) else outcome.value
    disposition = {"content-disposition": f'attachment; filename="{name}"'}
    return Response(data, 200, headers=disposition, media_type=_TYPES[kind])


def paytable(ask: Ask) -> Response:
    """Solve one tier's pay for a target edge, or search a band of edges."""
    return paytable_page(ask.bench, ask.fields, PAGE_WAIT, ask.start, ask.client, ask.autostart)


def hold(ask: Ask) -> Response:
    """Check a table's observed hold against the exact session distribution."""
    return hold_page(ask.bench, ask.fields, PAGE_WAIT, ask.start, ask.client, ask.autostart)


def report_page(ask: Ask) -> Response:
    """The Report page: the build's progress and the downloads once built, then its form
    (every option of ``cbj report`` but the file, the workers and the cache)."""
    form = read_rules(ask.fields)
    options, option_errors, options_html = report_options(ask.fields)
    fmt = "pdf" if ask.fields.get("format") == "pdf" else "html"
    fields = rules_html(form, exact=False)
    if form.rules is None or option_errors:
        body = pages_html.report_body(
            fields, options_html, None, {}, "", open_rules=form.rules is None
        )
        return HTMLResponse(html.page("Report", "/report", body, form.query()), 400)
    outcome = ask.bench.report(form.rules, options, fmt, ask.start, ask.client)
    if ask.start and not outcome.error:  # the page shows the build's progress (a GET)
        return RedirectResponse(html.link("/report", short_query(ask.fields, options)), 303)
    file = download_name(form.rules, "report", fmt)
    downloads = (
        {fmt.upper(): (html.link("/report/download", ask.fields), file)} if outcome.ready else {}
    )
    body = pages_html.report_body(
        fields, options_html, outcome.progress, downloads, outcome.error, ask.here, False
    )
    busy = outcome.progress is not None
    return HTMLResponse(
        html.page("Report", "/report", body, form.query(), busy),
        _refusal(outcome) if outcome.error else 200,
    )


def report_download(ask: Ask) -> Response:
    """The built report, as the file ``cbj report`` writes (built in memory)."""
    form = read_rules(ask.fields)
    options, option_errors, _ = report_options(ask.fields)
    fmt = "pdf" if ask.fields.get("format") == "pdf" else "html"
    if form.rules is None or option_errors:
        return Response("invalid report options", 400, media_type="text/plain")
    outcome = ask.bench.report(form.rules, options, fmt, start=False)
    if outcome.idle:
        return Response("build the report first", 404, media_type="text/plain")
    return _download(outcome, download_name(form.rules, "report", fmt), fmt)


def _practice_parts(ask: Ask) -> tuple[practice.Answer | None, dict[str, Markup], str]:
    """A practice request's answer (None for a GET), the page's parts and the state to keep."""
    if not ask.start:
        return None, practice_html.empty_parts(), ""
    found = practice.answer(ask.bench, ask.fields, LIVE_WAIT, ask.start, ask.client)
    if found.turn is None:
        return found, {}, str(ask.fields.get("state", ""))
    turn = found.turn
    parts = practice_html.turn_parts(turn, found.chart, found.history)
    return found, parts, json.dumps(turn.to_json()["state"])


def practice_page(ask: Ask) -> Response:
    """The Practice page: a session's table, grade, buttons and score, and its settings.

    A GET shows the page (the script carries on a session kept in the browser); a POST, from
    a browser without the script, plays and shows the whole page again.
    """
    found, parts, state = _practice_parts(ask)
    values = {k: str(v)[:MAX_FIELD_TEXT] for k, v in ask.fields.items()}
    errors = {} if found is None else dict(found.errors)
    if not parts:  # the play waits for a solve, or was refused: the page as it was, said why
        parts = practice_html.empty_parts()
        said = found.error if found is not None else ""
        if found is not None and found.progress is not None:
            said = html.progress_html(found.progress, "")
            parts["table"] = Markup(said) + pages_html.start_button("/practice", "Try again")
        elif said:
            parts["table"] = html.message(said)
    form = read_rules(ask.fields)
    rules = field_html.rules_fields(form.values, form.errors, form.rules)
    setup = practice_html.setup_html(values, errors, rules) + left_out_html(PAGE_FORMS["/practice"])
    body = practice_html.practice_body(parts, setup, state, not state or bool(errors))
    status = 200 if found is None or found.status == 202 else found.status
    return HTMLResponse(html.page("Practice", "/practice", body, form.query()), status)


def practice_live(ask: Ask) -> Response:
    """One play of a session for the page's script: JSON with the parts to put in place and
    the state to send with the next play (or the solve's progress, or the errors)."""
    if not ask.start:
        return Response("post a play from the Practice page", 405, media_type="text/plain")
    found, parts, state = _practice_parts(ask)
    assert found is not None
    status = {200: "ready", 202: "working"}.get(found.status, "invalid")
    document = {
        "status": status,
        "parts": parts,
        "state": json.loads(state) if found.turn is not None else None,
        "history": found.history.to_json() if found.history is not None else None,
        "errors": found.errors,
        "error": found.error,
        "progress": html.progress_html(found.progress) if found.progress else "",
    }
    return JSONResponse(document, found.status)


def practice_history(ask: Ask) -> Response:
    """The player's practice history the page keeps (or a file it imports), read as
    untrusted input and shown: JSON with the part to put in place and the history to keep,
    or the one-line reason it was refused."""
    if not ask.start:
        return Response("post a history from the Practice page", 405, media_type="text/plain")
    try:
        history = practice.read_history_field(ask.fields)
    except CbjError as error:
        return JSONResponse({"status": "invalid", "error": str(error)}, 400)
    document = {
        "status": "ready",
        "parts": {"history": history_html(history)},
        "history": history.to_json(),
    }
    return JSONResponse(document)


def stop(ask: Ask) -> Response:
    """Stop a job (a Stop button's POST), then go back to the page it was on."""
    if not ask.start:
        return Response("stop a job with its Stop button", 405, media_type="text/plain")
    ask.bench.work.stop(ask.fields.get("job", ""))
    back = ask.fields.get("back", "/")
    safe = back.startswith("/") and not back.startswith("//") and "\\" not in back
    return RedirectResponse(back if safe else "/", 303)


def no_icon(ask: Ask) -> Response:
    """No icon (the pages name none; a browser asks for one anyway on a plain-text answer)."""
    return Response(status_code=204)
