"""The Sensitivity page (``/sensitivity``): ``cbj sweep`` for the game the pages carry.

Its form is :data:`~solver.web.forms.PAGE_FORMS`' entry for the page, made from the command
table: what to vary (the choices ``cbj sweep --vary`` takes under the rules in force), the
first and last values and the step, each read as the CLI reads it, then checked as the
sweep checks it (:func:`~solver.results.sweep.sweep_values`, which solves nothing) before
any work starts; a bad one is said beside its field (400).  The sweep is a job with its
progress, like the Report's (:meth:`~solver.web.workbench.Workbench.sweep`): a POST starts
it, a GET shows how far it has got, then the table and the plot.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from starlette.responses import HTMLResponse, Response

from solver.model.checks import short_number
from solver.model.errors import CbjError
from solver.model.rules import Rules
from solver.present import fields as field_html
from solver.present import workbench as html
from solver.present.sensitivity import sensitivity_body, sweep_html
from solver.present.templates import Markup
from solver.results.sweep import sweep_number, sweep_values, variables, varied
from solver.web.form import RulesForm, excerpted, read_rules
from solver.web.forms import PAGE_FORMS, fields_html, left_out_html, read_fields
from solver.web.views import PAGE_WAIT, Ask

PATH = "/sensitivity"
#: The sweep's own fields, in the form's order (the exact box is the rules').
RANGE = ("start", "stop", "step")
#: What a required field left blank says.
MISSING = {
    "vary": "choose the rule or pay to vary",
    "start": "give the first value, e.g. 10, 1.5 or 3:2",
    "stop": "give the last value, e.g. 30",
}


def _range_field(message: str, low: Fraction) -> str:
    """The field a range's error is about: a value the rules refuse (the first or the last),
    the step (none, or too small for :data:`~solver.results.sweep.MAX_POINTS` values),
    else the last value (a range that is empty)."""
    if message.startswith("cannot sweep"):
        return "start" if f" to {short_number(low)}:" in message else "stop"
    return "step" if "step" in message else "stop"


def sweep_options(
    rules: Rules | None, query: Mapping[str, str], exact: bool = False
) -> tuple[dict[str, Any] | None, dict[str, str]]:
    """``cbj sweep``'s options from the page's fields (None until one is given, or while a
    field or the rules are bad), and each bad field's message, by its name."""
    values, errors = read_fields(PAGE_FORMS[PATH], query, names=("vary", *RANGE))
    if not any(str(query.get(name, "")).strip() for name in ("vary", *RANGE)):
        return None, errors
    errors |= {name: said for name, said in MISSING.items() if name not in values | errors}
    if rules is None or "vary" in errors:
        return None, errors
    try:
        what = varied(values["vary"], rules)
    except CbjError as error:
        return None, {**errors, "vary": excerpted(str(error), str(query.get("vary", "")))}
    read: dict[str, Fraction] = {}
    for role in (r for r in RANGE if r in values):
        try:
            read[role] = sweep_number(values[role], what, role)
        except CbjError as error:
            errors[role] = excerpted(str(error), str(query.get(role, "")).strip())
    if errors:
        return None, errors
    try:
        sweep_values(what, rules, read["start"], read["stop"], read.get("step"))
    except CbjError as error:
        return None, {_range_field(str(error), read["start"]): str(error)}
    return {"vary": what.name, **read, "exact": exact}, errors


def _fields(form: RulesForm, query: Mapping[str, str], errors: Mapping[str, str]) -> Markup:
    """What to vary (a drop-down of what the rules in force let vary), the range, and the
    exact box."""
    page_form = PAGE_FORMS[PATH]
    choices = variables(form.rules or Rules())
    vary = page_form.param("vary").but(choices=tuple(v.name for v in choices))
    words = {v.name: v.label[:1].upper() + v.label[1:] for v in choices}
    given = str(query.get("vary", "")).strip().lower().replace("_", "-")
    whole = next((v.whole for v in choices if v.name == (given or vary.example)), False)
    shown = {"step": "1" if whole else "a tenth of the range"}
    return (
        field_html.param_field(vary, given, errors, words=words.__getitem__)
        + fields_html(page_form, query, errors, RANGE, shown)
        + field_html.exact_box(form.exact)
    )


def _answer(
    ask: Ask, form: RulesForm, options: dict[str, Any] | None, errors: Mapping[str, str]
) -> tuple[Markup, int, bool]:
    """The answer's place (the table and the plot, the progress, or what to do), its status
    and whether the page is busy."""
    if form.rules is None or options is None:
        said = "Choose what to vary and its range, then press Sweep."
        if form.rules is None or errors:
            said = "Not swept: a field of the form is not valid, as said beside it."
        return html.message(said), 200, False
    outcome = ask.bench.sweep(form.rules, options, PAGE_WAIT, ask.start, ask.client)
    if outcome.error:
        status = outcome.status if outcome.status != 200 else 400
        return html.message(outcome.error), status, False
    if outcome.idle:
        return html.idle_html("Not swept yet: press Sweep.", ask.autostart), 200, False
    if outcome.ready:
        swept = outcome.result()
        return sweep_html(swept.result, swept.wide, swept.narrow), 200, False
    return html.progress_html(outcome.progress, ask.here), 200, True


def sensitivity_page(ask: Ask) -> Response:
    """The Sensitivity page: the edge against one rule or pay over a range, as a table and a
    plot, the game in force marked (a POST starts the sweep; a GET shows it once started)."""
    form = read_rules(ask.fields)
    options, errors = sweep_options(form.rules, ask.fields, form.exact)
    answer, status, busy = _answer(ask, form, options, errors)
    if form.rules is None or errors:
        status = 400
    rules = field_html.rules_fields(form.values, form.errors, form.rules) + field_html.form_error(
        form.errors
    )
    left_out = left_out_html(PAGE_FORMS[PATH])
    body = sensitivity_body(_fields(form, ask.fields, errors), rules, left_out, answer)
    return HTMLResponse(html.page("Sensitivity", PATH, body, form.query(), busy), status)
