"""The Paytable and Hold check pages and the Report page's sizes: their own fields, checked
as the CLI checks.

The Paytable page's numbers go through the parsers ``cbj paytable`` uses (house edges as
``0.02``, ``1/50`` or ``2%``; bands ``LO:HI``) and its limits (a pay of at most
:data:`~solver.exact.paytable.MAX_SEARCH_PAY`, at most :data:`~solver.exact.paytable.MAX_TOP`
paytables listed, and the search's own cap on candidates, refused with the CLI's hint).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from fractions import Fraction
from html import escape
from typing import Any

from starlette.responses import HTMLResponse, Response

from solver.exact.hold import MAX_ROUNDS as HOLD_ROUNDS
from solver.exact.hold import check_rounds as check_hold_rounds
from solver.exact.hold import observed_win, parse_amount, parse_ratio
from solver.exact.paytable import MAX_SEARCH_PAY, MAX_TOP, parse_band, parse_edge
from solver.exact.seats import check_seats
from solver.exact.shoe_states import MAX_SAMPLES
from solver.exact.table_round import parse_mix
from solver.model.chart_file import chart_csv, parse_chart
from solver.model.checks import MAX_ROUNDS, whole_number, whole_text
from solver.model.daily import parse_daily
from solver.model.errors import CbjError, ReportError, SessionError
from solver.model.outcomes import PAY_TIERS
from solver.model.rules import Paytable
from solver.present import workbench as html
from solver.present import workbench_pages as pages_html
from solver.results.hold import HoldSeries, Seating
from solver.results.report import PlayerStrategy
from solver.studies.protection import COUNTER_ROUNDS, SHOE_SAMPLES
from solver.studies.report import LETTERS, SIMULATION_ROUNDS, TABLE_ROUNDS, verify_strategy
from solver.web.form import MAX_FIELD_TEXT, excerpted, read_rules
from solver.web.workbench import Workbench

KINDS = ("round", "bonus")
#: The longest daily results the Hold page reads (its fields travel in the page's address).
MAX_DAILY_TEXT = 4000
#: The report's sizes: field, label, help and the report's own default (shown in the field).
REPORT_SIZES = (
    ("shoe_samples", "Shoe samples", "Game protection: 4 dealt shoes, 1/25 of a whole shoe, each.",
     SHOE_SAMPLES),
    ("counter_rounds", "Counter rounds", "Rounds per simulated card counter.", COUNTER_ROUNDS),
    ("table_rounds", "Table rounds", "Simulated table-rounds per number of seats.",
     TABLE_ROUNDS),
    ("simulation_rounds", "Simulation rounds", "Rounds of the simulator's cross-check.",
     SIMULATION_ROUNDS),
)  # fmt: skip
#: Each size's range: the API's (a report's studies are ``cbj report``'s).
SIZE_RANGES = {
    "shoe_samples": (2, MAX_SAMPLES),
    "counter_rounds": (1, MAX_ROUNDS),
    "table_rounds": (1, MAX_ROUNDS),
    "simulation_rounds": (1, MAX_ROUNDS),
}
#: The report's title block: field, label and help (``cbj report``'s options of those names).
REPORT_TEXTS = (
    ("prepared_by", "Prepared by", "Title block: who prepared the report."),
    ("prepared_for", "Prepared for", "Title block: whom the report is for."),
    ("revision_note", "Revision note", "Title block: what this revision changed."),
    ("table_limits", "Table limits", "The game's table limits, stated when given."),
    ("procedures", "Procedures", "The game's procedures, stated when given."),
)
#: The strategies a report may set beside perfect play, besides a chart file of one's own.
STRATEGY_NAMES = ("optimal", "chart", "never-bust", "mimic-dealer", "always-stand", "stand-on:17")


def _checked(errors: dict[str, str], name: str, read: Any, *args: Any) -> Any:
    """``read(*args)``, or None with its error recorded beside ``name``."""
    try:
        return read(*args)
    except CbjError as error:
        errors[name] = excerpted(str(error), str(args[0]) if args else "")
        return None


def _text(query: Mapping[str, str], name: str, errors: dict[str, str]) -> str:
    text = str(query.get(name, "")).strip()
    if len(text) > MAX_FIELD_TEXT:
        errors[name] = f"{name.replace('_', ' ')} is too long: at most {MAX_FIELD_TEXT} characters"
        return ""
    return text


def paytable_options(query: Mapping[str, str]) -> tuple[dict[str, Any] | None, dict[str, str]]:
    """The API's options for the paytable asked for (None if none is), and the errors."""
    errors: dict[str, str] = {}
    mode = query.get("mode", "")
    if mode == "solve":
        tier = _text(query, "solve_for", errors) or PAY_TIERS[0].value
        if tier not in {t.value for t in PAY_TIERS}:
            errors["solve_for"] = f"solve for {tier!r} is unknown: use one of " + ", ".join(
                t.value for t in PAY_TIERS
            )
        kind = query.get("kind", "round") if query.get("kind") in KINDS else "round"
        text = _text(query, "target", errors)
        if not text and "target" not in errors:
            errors["target"] = "give the target house edge, e.g. 2%, 0.02 or 1/50"
        edge = _checked(errors, "target", parse_edge, text, "target") if text else None
        options: dict[str, Any] = {"solve_for": tier, f"target_{kind}_edge": edge}
        return (None if errors else options), errors
    if mode == "search":
        kind = query.get("kind", "round") if query.get("kind") in KINDS else "round"
        band_text = _text(query, "band", errors) or "1%:2%"
        band = _checked(errors, "band", parse_band, band_text)
        max_pay = _checked(
            errors,
            "max_pay",
            _whole,
            _text(query, "max_pay", errors) or "50",
            "max pay",
            MAX_SEARCH_PAY,
        )
        top = _checked(errors, "top", _whole, _text(query, "top", errors) or "10", "top", MAX_TOP)
        if errors or band is None:
            return None, errors
        low, high = band
        return {f"{kind}_edge_range": f"{low}:{high}", "max_pay": max_pay, "top": top}, errors
    return None, errors


def _size(text: str, name: str) -> int:
    """A report's study size: digits (``_`` or ``,`` between them allowed), in its range.

    >>> _size("10_000_000", "simulation_rounds")
    10000000
    """
    what = name.replace("_", " ")
    digits = re.sub(r"(?<=\d)[_,](?=\d)", "", text)
    if not re.fullmatch(r"\d{1,15}", digits, flags=re.ASCII):
        raise ReportError(f"{what} {text!r} is not a whole number, e.g. 10000000")
    low, high = SIZE_RANGES[name]
    return whole_number(int(digits), what, low, high, ReportError)


def _whole(text: str, what: str, high: int) -> int:
    return whole_number(whole_text(text, what), what, 1, high)


def _paytable_fields(query: Mapping[str, str], errors: Mapping[str, str]) -> str:
    def get(name: str) -> str:
        return str(query.get(name, ""))[:MAX_FIELD_TEXT]

    tiers = [t.value for t in PAY_TIERS]
    return (
        html.choice_field(
            "kind",
            "Which house edge",
            get("kind") or "round",
            KINDS,
            "The round's (per total bet) or the Bonus wager's own.",
            errors,
        )
        + "<fieldset><legend>Solve one pay for a target edge</legend>"
        + html.choice_field(
            "solve_for",
            "Solve for the pay of",
            get("solve_for") or tiers[0],
            tiers,
            "The other pays are the paytable's above.",
            errors,
        )
        + html.text_field(
            "target",
            "Target house edge",
            get("target"),
            "2%",
            "A decimal (0.02), a fraction (1/50) or a percentage (2%).",
            errors,
        )
        + '<button type="submit" name="mode" value="solve">Solve the pay</button></fieldset>'
        + "<fieldset><legend>Search whole-unit paytables in a band</legend>"
        + html.text_field(
            "band", "House edge band", get("band"), "1%:2%", "LO:HI, e.g. 1%:2%.", errors
        )
        + html.text_field(
            "max_pay", "Largest pay", get("max_pay"), "50", f"1 to {MAX_SEARCH_PAY}.", errors
        )
        + html.text_field("top", "Paytables to list", get("top"), "10", f"1 to {MAX_TOP}.", errors)
        + '<button type="submit" name="mode" value="search">Search</button></fieldset>'
    )


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
    status, busy, result = 200, False, ""
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
    fields = html.rules_fields(form.values, form.errors, form.rules) + html.form_error(form.errors)
    body = (
        '<div class="columns results-first">'
        '<form id="paytable-form" class="rules" method="post" action="/paytable">'
        f"{fields}{_paytable_fields(query, errors)}</form>"
        f'<section id="results" aria-live="polite">{result}</section></div>'
    )
    return HTMLResponse(html.page("Paytable", "/paytable", body, form.query(), busy), status)


#: The Hold check page's fields: name, label, placeholder and help (``cbj hold``'s options).
HOLD_FIELDS = (
    ("rounds", "Table-rounds dealt", "10000",
     f"Table-rounds the result is over, 1 to {HOLD_ROUNDS:,}."),
    ("seats", "Seats", "1", "Seats at the table, sharing the dealer and the Bonus card (1 to 7)."),
    (
        "strategy",
        "Players",
        "optimal",
        "One strategy, or a mix with shares: 10% optimal, 60% chart, 30% mimic-dealer.",
    ),
    ("hold", "Observed hold", "12%", "The casino's win over the drop (as its books keep it)."),
    ("result", "or net win", "", "The casino's win in main units, e.g. 250 or -12.5."),
    ("win_over_handle", "or win over handle", "", "The casino's win over all the wagers, 2.5%."),
    ("drop", "Drop", "", "The table's drop over the rounds, in main units."),
    ("drop_to_handle", "or drop-to-handle", "0.2", "The drop as a share of the handle."),
)  # fmt: skip
#: The daily results' field: name, label, placeholder, help.
DAILY_FIELD = (
    "daily",
    "Daily results",
    "date,rounds,win,drop\n2026-01-01,1800,4200,30000",
    "Or check each day: CSV of date, rounds (or hours), win and drop, typed or read from "
    f"a file, at most {MAX_DAILY_TEXT:,} characters (cbj hold --from takes longer files).",
)
#: The daily results' own fields: name, label, placeholder, help.
SERIES_FIELDS = (
    ("unit", "Money a unit stands for", "1",
     "The daily amounts are money: the money one main unit stands for, e.g. 25."),
    ("rounds_per_hour", "Rounds per hour", "60",
     "With an hours column: table-rounds per table-hour."),
)  # fmt: skip
#: The single result's options, which a daily file replaces.
ONE_RESULT = ("rounds", "result", "hold", "win_over_handle", "drop")


def _rounds(text: str) -> int:
    """Rounds as typed: ASCII digits, then ``cbj hold``'s own range check."""
    if not re.fullmatch(r"[+-]?\d{1,12}", text, flags=re.ASCII):
        raise SessionError(f"rounds {text[:40]!r} is not a whole number of rounds, e.g. 10000")
    return check_hold_rounds(int(text))


def _seats(text: str) -> int:
    """Seats as typed, 1 to 7."""
    if not re.fullmatch(r"\d{1,2}", text, flags=re.ASCII):
        raise SessionError(f"seats {text[:20]!r} is not a number of seats from 1 to 7")
    return check_seats(int(text))


def _observed(text: str, rules: Any, options: Mapping[str, Any]) -> Any:
    """:func:`~solver.exact.hold.observed_win` as ``cbj hold`` reads the page's fields
    (``text``, the hold typed, first, for the excerpt an error message shows)."""
    del text
    rounds, seats = options["rounds"], options.get("seats") or 1
    drop = None
    if options.get("drop") is not None:
        drop = parse_amount(options["drop"], "drop")
    elif options.get("drop_to_handle") is not None:
        drop = parse_ratio(options["drop_to_handle"]) * rounds * seats * (1 + rules.bonus_ratio)
    seating = Seating(seats, ((Fraction(1), "optimal"),))
    return observed_win(
        seating,
        rules,
        rounds,
        result=options.get("result"),
        hold=options.get("hold"),
        win_over_handle=options.get("win_over_handle"),
        drop=drop,
    )


def _per_hour(text: str) -> int:
    """Table-rounds per table-hour as typed: 1 to 10,000."""
    if not re.fullmatch(r"\d{1,5}", text, flags=re.ASCII) or not 1 <= int(text) <= 10_000:
        raise SessionError(f"rounds per hour {text[:20]!r} must be a whole number from 1 to 10,000")
    return int(text)


def _daily(text: str) -> str:
    """The daily results as typed, read as ``cbj hold --from`` reads a file."""
    parse_daily(text)
    return text


def _series_options(
    given: Mapping[str, str], daily: str, options: dict[str, Any], errors: dict[str, str]
) -> None:
    """A daily series' own options, checked into ``options`` (errors beside their fields)."""
    extra = [n for n in ONE_RESULT if given[n]]
    if extra:
        errors[extra[0]] = "leave this empty with daily results: each day gives its own"
    options["text"] = _checked(errors, "daily", _daily, daily)
    if given["unit"]:
        options["unit"] = given["unit"]
        _checked(errors, "unit", parse_amount, given["unit"], "unit")
    if given["rounds_per_hour"]:
        options["rounds_per_hour"] = _checked(
            errors, "rounds_per_hour", _per_hour, given["rounds_per_hour"]
        )


def _result_options(
    given: Mapping[str, str], form_rules: Any, options: dict[str, Any], errors: dict[str, str]
) -> None:
    """One result's options, checked into ``options`` (errors beside their fields)."""
    for name in ("unit", "rounds_per_hour"):
        if given[name]:
            errors[name] = "this is for daily results: leave it empty for one result"
    options["rounds"] = _checked(errors, "rounds", _rounds, given["rounds"])
    for name in ("result", "hold", "win_over_handle", "drop"):
        options[name] = given[name] or None
    if given["drop"]:
        _checked(errors, "drop", parse_amount, given["drop"], "drop")
    if not errors and form_rules is not None and options["rounds"] is not None:
        _checked(errors, "hold", _observed, given["hold"], form_rules, options)


def hold_options(
    query: Mapping[str, str], form_rules: Any
) -> tuple[dict[str, Any] | None, dict[str, str]]:
    """``cbj hold``'s options from the page's fields (None until rounds or daily results are
    given), and the errors, each beside its field; ``text`` in the options means a series."""
    errors: dict[str, str] = {}
    fields = (*HOLD_FIELDS, *SERIES_FIELDS)
    given = {name: _text(query, name, errors) for name, _, _, _ in fields}
    daily = str(query.get("daily", "")).strip()
    if len(daily) > MAX_DAILY_TEXT:
        errors["daily"] = f"daily results are too long: at most {MAX_DAILY_TEXT:,} characters"
        daily = ""
    if not given["rounds"] and not daily and not errors:
        return None, errors
    options: dict[str, Any] = {"strategy": given["strategy"] or "optimal"}
    if given["seats"]:
        options["seats"] = _checked(errors, "seats", _seats, given["seats"])
    if given["strategy"]:
        _checked(errors, "strategy", parse_mix, given["strategy"])
    if given["drop_to_handle"]:
        options["drop_to_handle"] = given["drop_to_handle"]
        _checked(errors, "drop_to_handle", parse_ratio, given["drop_to_handle"])
    if daily:
        _series_options(given, daily, options, errors)
    else:
        _result_options(given, form_rules, options, errors)
    if errors:
        return None, errors
    return {k: v for k, v in options.items() if v is not None}, errors


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
    status, busy, result = 200, False, ""
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
    fields = "".join(
        html.text_field(
            name, label, str(query.get(name, ""))[:MAX_FIELD_TEXT], placeholder, hint, errors
        )
        for name, label, placeholder, hint in HOLD_FIELDS
    )
    name, label, placeholder, hint = DAILY_FIELD
    daily = html.textarea_field(
        name, label, str(query.get(name, ""))[:MAX_DAILY_TEXT], placeholder, hint, errors
    ) + "".join(
        html.text_field(
            name, label, str(query.get(name, ""))[:MAX_FIELD_TEXT], placeholder, hint, errors
        )
        for name, label, placeholder, hint in SERIES_FIELDS
    )
    rules = html.rules_fields(form.values, form.errors, form.rules) + html.form_error(form.errors)
    body = (
        '<div class="columns results-first">'
        '<form id="hold-form" class="rules" method="post" action="/hold">'
        f"<fieldset><legend>The table and its result</legend>{fields}{daily}"
        '<button type="submit">Check</button></fieldset>'
        f"{rules}</form>"
        f'<section id="results" aria-live="polite">{result}</section></div>'
    )
    return HTMLResponse(html.page("Hold check", "/hold", body, form.query(), busy), status)


def _paytables(text: str) -> tuple[Paytable, ...]:
    """Further paytables (B, C, ...), separated by spaces or semicolons.

    >>> [str(p) for p in _paytables("20:5:1; 12:4:1")]
    ['20:5:1', '12:4:1']
    """
    found = tuple(Paytable.parse(t) for t in re.split(r"[\s;]+", text) if t)
    if len(found) + 1 > len(LETTERS):
        raise ReportError(f"a report compares at most {len(LETTERS)} paytables")
    return found


def _strategy(text: str, chart_text: str, chart_name: str) -> PlayerStrategy:
    """The player's strategy: a name, or the chart file sent (read by the page); the
    manifest's SHA-256 is of the chart as the CSV ``cbj chart`` writes (:func:`chart_csv`),
    whatever form it was sent in, so that the page's address can carry that short form."""
    if chart_text.strip():
        name = (chart_name.strip() or "chart.csv")[:80]
        shown = name if name.isprintable() else "chart.csv"
        grid = parse_chart(chart_text, shown)
        digest = hashlib.sha256(chart_csv(grid).encode()).hexdigest()
        return PlayerStrategy(f"chart:{shown}", grid, digest)
    if text.lower().startswith("chart:"):
        raise ReportError("a chart file for the report is sent with the file field below it")
    return PlayerStrategy(text or "optimal")


def report_options(
    query: Mapping[str, str], rules: Any = None
) -> tuple[dict[str, Any], dict[str, str], str]:
    """The report's options given (a blank size is the report's default), their errors and
    their fields: every option of ``cbj report`` but the file written, the workers and the
    cache, which are the server's."""
    options: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for name, _, _, default in REPORT_SIZES:
        text = _text(query, name, errors)
        value = _checked(errors, name, _size, text, name) if text else default
        if value is not None:
            options[name] = value
    for name, _, _ in REPORT_TEXTS:
        options[name] = _text(query, name, errors)
    options["core_only"] = query.get("core_only") == "on"
    extra = _text(query, "paytables", errors)
    options["paytables"] = _checked(errors, "paytables", _paytables, extra) or ()
    chart_text = str(query.get("strategy_chart_text", ""))
    player = _checked(
        errors,
        "strategy",
        _strategy,
        _text(query, "strategy", errors),
        chart_text,
        str(query.get("strategy_chart_name", "")),
    )
    if player is not None and rules is not None:
        _checked(errors, "strategy", verify_strategy, player, rules)
    options["strategy"] = player
    return options, errors, _report_fields(query, errors)


def short_query(query: Mapping[str, str], options: Mapping[str, Any]) -> dict[str, str]:
    """The Report page's fields for its address: a chart file sent as its short CSV."""
    player = options.get("strategy")
    chart = None if player is None else player.chart
    if chart is None:
        return dict(query)
    return {**query, "strategy_chart_text": chart_csv(chart)}


def _report_fields(query: Mapping[str, str], errors: Mapping[str, str]) -> str:
    def get(name: str) -> str:
        return str(query.get(name, ""))[:MAX_FIELD_TEXT]

    sizes = "".join(
        html.text_field(name, label, get(name) or f"{default:,}", f"{default:,}", hint, errors)
        for name, label, hint, default in REPORT_SIZES
    )
    texts = "".join(
        html.text_field(name, label, get(name), "", hint, errors)
        for name, label, hint in REPORT_TEXTS
    )
    fmt = get("format")
    chart = (
        '<input type="file" id="f-strategy_file" accept=".csv,.json,text/csv,application/json" '
        'data-text="f-strategy_chart_text" data-name="f-strategy_chart_name">'
        '<input type="hidden" name="strategy_chart_text" id="f-strategy_chart_text" '
        f'value="{escape(str(query.get("strategy_chart_text", "")))}">'
        '<input type="hidden" name="strategy_chart_name" id="f-strategy_chart_name" '
        f'value="{escape(get("strategy_chart_name"))}">'
    )
    names = "".join(f'<option value="{n}"></option>' for n in STRATEGY_NAMES)
    return (
        "<fieldset><legend>Title block</legend>" + texts + "</fieldset>"
        "<fieldset><legend>What the report sets beside the game</legend>"
        + html.text_field(
            "paytables",
            "More paytables",
            get("paytables"),
            "e.g. 20:5:1 12:4:1",
            "Set beside the rules' own paytable (A) as B, C, ...; separate them with spaces.",
            errors,
        )
        + html.text_field(
            "strategy",
            "The player's strategy",
            get("strategy"),
            "optimal",
            "Set beside perfect play and played in the volatility section: "
            + ", ".join(STRATEGY_NAMES[:-1])
            + " or stand-on:K; or send a chart file of your own below.",
            errors,
        ).replace("<input ", '<input list="strategy-names" ', 1)
        + f'<datalist id="strategy-names">{names}</datalist>'
        + '<div class="field"><label for="f-strategy_file">The player\'s chart file</label>'
        + chart
        + "<small>A chart as cbj chart writes it (CSV or JSON), played as the player's "
        "strategy; its SHA-256 goes in the report's manifest.</small></div>"
        "</fieldset><fieldset><legend>Study sizes</legend>"
        + sizes
        + "</fieldset>"
        + html.choice_field(
            "format",
            "Format",
            fmt if fmt in ("html", "pdf") else "html",
            ("html", "pdf"),
            "HTML (phone and print) or PDF.",
            errors,
        )
        + '<div class="field"><label><input type="checkbox" name="core_only" id="f-core_only"'
        + (" checked" if get("core_only") == "on" else "")
        + "> The core alone</label><small>Leave out the annexes.</small></div>"
    )
