"""The Paytable, Hold check and Report pages: their forms (:data:`~solver.web.forms.PAGE_FORMS`,
made from the command table), their checks and their answers.

Each field is read by its entry of the parameter catalogue, as ``cbj paytable``,
``cbj hold`` and ``cbj report`` read the same text; a bad one is said beside its field
(400) before any work starts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from starlette.responses import HTMLResponse, Response

from solver.model.catalogue import (
    COUNTER_ROUNDS_DEFAULT,
    SHOE_SAMPLES_DEFAULT,
    SIMULATION_ROUNDS_DEFAULT,
    TABLE_ROUNDS_DEFAULT,
)
from solver.model.chart_file import chart_csv, parse_chart
from solver.model.errors import CbjError, ReportError
from solver.model.outcomes import DEFAULT_ROUND_BAND, NAMED_POLICIES, PAY_TIERS
from solver.model.rules import Rules
from solver.present import fields as field_html
from solver.present import workbench as html
from solver.present import workbench_pages as pages_html
from solver.present.templates import Markup, render
from solver.results.hold import HoldSeries
from solver.results.report import PlayerStrategy
from solver.studies.strategy import observed
from solver.web.form import MAX_FIELD_TEXT, excerpted, read_rules
from solver.web.forms import PAGE_FORMS, fields_html, left_out_html, read_fields, rules_html
from solver.web.workbench import Workbench

KINDS = ("round", "bonus")
#: Each report study's size as the report takes it when the field is blank (shown in it).
REPORT_DEFAULTS = {
    "shoe_samples": f"{SHOE_SAMPLES_DEFAULT:,}",
    "counter_rounds": f"{COUNTER_ROUNDS_DEFAULT:,}",
    "table_rounds": f"{TABLE_ROUNDS_DEFAULT:,}",
    "simulation_rounds": f"{SIMULATION_ROUNDS_DEFAULT:,}",
}
#: The strategies a page offers by name, besides a chart file of one's own.
STRATEGY_NAMES = (*NAMED_POLICIES, "stand-on:17")


def _kind(query: Mapping[str, str]) -> str:
    return query.get("kind", "round") if query.get("kind") in KINDS else "round"


def paytable_options(query: Mapping[str, str]) -> tuple[dict[str, Any] | None, dict[str, str]]:
    """The API's options for the paytable asked for (None if none is), and the errors."""
    form, kind, mode = PAGE_FORMS["/paytable"], _kind(query), query.get("mode", "")
    if mode == "solve":
        values, errors = read_fields(form, query, kind, ("solve_for", "target"))
        target = f"target_{kind}_edge"
        if target not in values and "target" not in errors:
            errors["target"] = "give the target house edge, e.g. 2%, 0.02 or 1/50"
        options = {"solve_for": values.get("solve_for", PAY_TIERS[0].value), **values}
        return (None if errors else options), errors
    if mode == "search":
        given = {**query, "band": str(query.get("band", "")).strip() or DEFAULT_ROUND_BAND}
        values, errors = read_fields(form, given, kind, ("band", "max_pay", "top", "tiers"))
        return (None if errors else values), errors
    return None, {}


def _paytable_fields(
    query: Mapping[str, str], errors: Mapping[str, str], tiers: tuple[str, ...]
) -> dict[str, Markup]:
    """The Paytable page's own fields, by their place in its template."""
    form = PAGE_FORMS["/paytable"]
    chosen = query.get("solve_for") or tiers[0]
    kind = field_html.choice_field(
        "kind", "Which house edge", _kind(query), KINDS,
        "The round's (per total bet) or the Bonus wager's own.", errors,
    )  # fmt: skip
    pay = field_html.choice_field(
        "solve_for", "Solve for the pay of", chosen, tiers, form.param("solve_for").hint, errors
    )
    return {
        "kind": kind,
        "solve_for": pay,
        "target": fields_html(form, query, errors, ("target",)),
        "search": fields_html(form, query, errors, ("band", "max_pay", "top", "tiers")),
        "left_out": left_out_html(form),
    }


def paytable_page(
    bench: Workbench,
    query: dict[str, str],
    wait: float,
    start: bool = False,
    client: str = "",
    autostart: bool = False,
) -> Response:
    """The Paytable page: its form, and the solved pay or the search's table (a POST starts
    the solve or search; a GET shows it once started)."""
    form = read_rules(query)
    options, errors = paytable_options(query)
    status, busy, result = 200, False, Markup()
    if form.rules is None or errors:
        status = 400
    elif options is not None:
        outcome = bench.paytable(form.rules, options, wait, start, client)
        if outcome.error:
            errors["target" if query.get("mode") == "solve" else "band"] = outcome.error
            status = outcome.status if outcome.status != 200 else 400
        elif outcome.idle:
            result = html.idle_html("Not computed yet: press the button again.", autostart)
        elif outcome.ready:
            rules_query = form.query()
            result = (
                pages_html.pay_solution_html(outcome.result(), rules_query)
                if "solve_for" in options
                else pages_html.search_html(outcome.result(), rules_query)
            )
        else:
            back = html.link("/paytable", query)
            busy, result = True, html.progress_html(outcome.progress, back)
    tiers = tuple(t.name for t in (form.rules.paytable.tiers if form.rules else ())) or tuple(
        t.value for t in PAY_TIERS
    )
    body = render(
        "workbench/paytable.html",
        rules=pages_html.folded_rules(rules_html(form, exact=False), bool(form.errors)),
        result=result,
        **_paytable_fields(query, errors, tiers),
    )
    return HTMLResponse(html.page("Paytable", "/paytable", body, form.query(), busy), status)


#: The single result's options, which daily results replace.
ONE_RESULT = ("rounds", "result", "hold", "win_over_handle", "drop")
#: The daily results' own options.
SERIES_ONLY = ("unit", "rounds_per_hour")


def _series_errors(query: Mapping[str, str], errors: dict[str, str]) -> None:
    """Daily results given: the single result's fields must be empty."""
    for name in ONE_RESULT:
        if str(query.get(name, "")).strip() and name not in errors:
            errors[name] = "leave this empty with daily results: each day gives its own"


def _result_errors(
    query: Mapping[str, str], rules: Rules | None, values: dict[str, Any], errors: dict[str, str]
) -> None:
    """One result: the daily results' own fields must be empty, and the result must be one
    ``cbj hold`` can judge (checked as the API checks it, before any solve)."""
    for name in SERIES_ONLY:
        if str(query.get(name, "")).strip() and name not in errors:
            errors[name] = "this is for daily results: leave it empty for one result"
    if errors or rules is None:
        return
    try:
        observed(
            rules,
            values["rounds"],
            values.get("seats", 1),
            **{n: values.get(n) for n in (*ONE_RESULT[1:], "drop_to_handle")},
        )
    except CbjError as error:
        errors["hold"] = excerpted(str(error), str(query.get("hold", "")))


def hold_options(
    query: Mapping[str, str], rules: Rules | None = None
) -> tuple[dict[str, Any] | None, dict[str, str]]:
    """``cbj hold``'s options from the page's fields (None until rounds or daily results
    are given), and the errors, each beside its field; ``text`` in the options (the daily
    results) means ``solver.hold_series``."""
    values, errors = read_fields(PAGE_FORMS["/hold"], query)
    daily = "text" in values or "daily" in errors
    if not daily and "rounds" not in values and "rounds" not in errors:
        return None, errors
    if daily:
        _series_errors(query, errors)
    else:
        _result_errors(query, rules, values, errors)
    return (None if errors else values), errors


def hold_page(
    bench: Workbench,
    query: dict[str, str],
    wait: float,
    start: bool = False,
    client: str = "",
    autostart: bool = False,
) -> Response:
    """The Hold check page: the rules, the table and its result (or a pit's daily results)
    in, ``cbj hold``'s verdict out (a POST starts the check; a GET shows it once started)."""
    form = read_rules(query)
    options, errors = hold_options(query, form.rules)
    status, busy, result = 200, False, Markup()
    if form.rules is None or errors:
        status = 400
    elif options is not None:
        outcome = bench.hold(form.rules, options, wait, start, client)
        field = "daily" if "text" in options else "hold"
        if outcome.error:
            errors[field] = outcome.error
            status = outcome.status if outcome.status != 200 else 400
        elif outcome.idle:
            result = html.idle_html("Not checked yet: press Check.", autostart)
        elif outcome.ready:
            found = outcome.result()
            result = (
                pages_html.series_html(found)
                if isinstance(found, HoldSeries)
                else pages_html.hold_html(found)
            )
        else:
            busy, result = True, html.progress_html(outcome.progress, html.link("/hold", query))
    page_form = PAGE_FORMS["/hold"]
    body = render(
        "workbench/hold.html",
        fields=fields_html(page_form, query, errors, page_form.fields),
        strategies=STRATEGY_NAMES,
        rules=pages_html.folded_rules(rules_html(form, exact=False), bool(form.errors)),
        left_out=left_out_html(page_form),
        result=result,
    )
    return HTMLResponse(html.page("Hold check", "/hold", body, form.query(), busy), status)


def _strategy(text: str, chart_text: str, chart_name: str) -> PlayerStrategy | None:
    """The player's chart file sent (read by the page), or None (the strategy by name); the
    manifest's SHA-256 is of the chart as the CSV ``cbj chart`` writes (:func:`chart_csv`),
    whatever form it was sent in, so that the page's address can carry that short form."""
    if chart_text.strip():
        name = (chart_name.strip() or "chart.csv")[:80]
        shown = name if name.isprintable() else "chart.csv"
        grid = parse_chart(chart_text, shown)
        digest = hashlib.sha256(chart_csv(grid).encode()).hexdigest()
        return PlayerStrategy(f"chart:{shown}", grid, digest)
    if text.strip().lower().startswith("chart:"):
        raise ReportError("a chart file for the report is sent with the file field below it")
    return None


def report_options(
    query: Mapping[str, str],
) -> tuple[dict[str, Any], dict[str, str], tuple[Markup, Markup]]:
    """The report's options given (a blank size is the report's default), their errors and
    their fields (:func:`_report_fields`): every option of ``cbj report`` but the file
    written, the workers and the cache, which are the server's."""
    form = PAGE_FORMS["/report"]
    options, errors = read_fields(form, query)
    options.pop("format", None)  # the page's download: the views' own
    names = ("strategy", "strategy_chart_text", "strategy_chart_name")
    sent = (str(query.get(name, "")) for name in names)
    try:
        player = _strategy(*sent)
    except CbjError as error:
        errors["strategy"], player = excerpted(str(error), ""), None
    options["strategy"] = player or PlayerStrategy(options.get("strategy", "optimal"))
    return options, errors, _report_fields(query, errors)


def short_query(query: Mapping[str, str], options: Mapping[str, Any]) -> dict[str, str]:
    """The Report page's fields for its address: a chart file sent as its short CSV."""
    player = options.get("strategy")
    chart = None if player is None else player.chart
    if chart is None:
        return dict(query)
    return {**query, "strategy_chart_text": chart_csv(chart)}


def _report_fields(query: Mapping[str, str], errors: Mapping[str, str]) -> tuple[Markup, Markup]:
    """The report's own fields: what the build makes (its format, core only), then the
    rest (the title block, what it sets beside the game, the study sizes)."""
    form = PAGE_FORMS["/report"]
    given = {**REPORT_DEFAULTS, **{k: v for k, v in query.items() if str(v).strip()}}

    def fields(*names: str) -> Markup:
        return fields_html(form, given, errors, names)

    rest = render(
        "workbench/report_fields.html",
        title_block=fields(
            "prepared_by", "prepared_for", "revision_note", "table_limits", "procedures"
        ),
        paytables=fields("paytables"),
        strategy=fields("strategy"),
        strategies=STRATEGY_NAMES,
        chart_text=str(query.get("strategy_chart_text", "")),
        chart_name=str(query.get("strategy_chart_name", ""))[:MAX_FIELD_TEXT],
        sizes=fields("shoe_samples", "counter_rounds", "table_rounds", "simulation_rounds"),
        left_out=left_out_html(form),
    )
    return fields("format", "core_only"), rest
