"""Each page's form, made from the command table: the parameters it shows, read by their
catalogue entries, and why it leaves out the others.

A :class:`PageForm` names the commands behind a page and, for each of their parameters,
either a field or the reason the page has none (the server's own workers and store, a
file the page downloads instead).  Every field is read by its entry of the parameter
catalogue, as the CLI and the API read the same text, so a text is accepted or refused
with the same message on every surface; a bad one is said beside its field.

>>> values, errors = read_fields(PAGE_FORMS["/hold"], {"rounds": "12,000", "method": "fft"})
>>> values, errors
({'rounds': 12000, 'method': 'fft'}, {})
>>> read_fields(PAGE_FORMS["/hold"], {"rounds": "3/4"})[1]["rounds"]
"rounds '3/4' is not a whole number, e.g. 100,000"
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from solver.api.table import COMMANDS_BY_NAME
from solver.model.errors import CbjError
from solver.model.params import Param
from solver.present import fields as html
from solver.present.templates import Markup, macro
from solver.web.form import MAX_FIELD_TEXT, RulesForm, excerpted

#: Fields longer than :data:`~solver.web.form.MAX_FIELD_TEXT`, and how long each may be
#: (daily results, typed or read from a file: the fields travel in the page's address).
LONG_FIELDS = {"daily": 4000}
#: Why a page leaves a parameter out.
SERVER = "the server's own: its workers, its store and its progress bar"
SHOWN = "the page shows the result itself"
FULL_SHOE = "the workbench's game is dealt from a full shoe"
PAYS = "the paytable field above sets every pay"


@dataclass(frozen=True, slots=True)
class PageForm:
    """A page's form: the commands behind it, its fields, and why it has no others."""

    path: str
    commands: tuple[str, ...]
    fields: tuple[str, ...]
    left_out: Mapping[str, str]
    """Each parameter of the commands that has no field here, and why."""
    chosen: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """A field that fills one of several parameters, the page's ``kind`` choosing which
    (the Paytable page's target: the round's or the Bonus wager's house edge)."""

    def params(self) -> dict[str, Param]:
        """Every parameter of the page's commands, by name (the first command's wording)."""
        found: dict[str, Param] = {}
        for name in self.commands:
            for param in COMMANDS_BY_NAME[name].params:
                found.setdefault(param.name, param)
        return found

    def param(self, name: str, kind: str = "round") -> Param:
        """The parameter behind field ``name`` (for a chosen field, ``kind``'s)."""
        targets = self.chosen.get(name)
        found = self.params()
        if targets is None:
            return found[name]
        return found[next((t for t in targets if kind in t), targets[0])]


def _left(reasons: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    return {name: reason for reason, names in reasons.items() for name in names}


#: The tiers' own pays ``cbj paytable solve`` takes besides the paytable.
PAY_TIERS = ("suited_match", "rank_match", "adjacent", "pays")
#: The server's run settings, and the output format the page replaces.
_SERVED = {SERVER: ("jobs", "cache", "progress"), SHOWN: ("format", "comments")}
#: Every page that runs a command, by its path.
PAGE_FORMS: dict[str, PageForm] = {
    form.path: form
    for form in (
        PageForm("/", ("solve",), ("exact",), _left({**_SERVED, FULL_SHOE: ("removed",)})),
        PageForm(
            "/compare",
            ("solve",),
            (),
            _left(
                {
                    **_SERVED,
                    FULL_SHOE: ("removed",),
                    "the columns are solved in floats, to the places the table shows": ("exact",),
                }
            ),
        ),
        PageForm(
            "/paytable",
            ("paytable solve", "paytable search"),
            ("solve_for", "target", "band", "max_pay", "top", "tiers"),
            _left({SERVER: ("cache",), SHOWN: ("format", "comments"), PAYS: PAY_TIERS}),
            {
                "target": ("target_round_edge", "target_bonus_edge"),
                "band": ("round_edge_range", "bonus_edge_range"),
            },
        ),
        PageForm(
            "/hold",
            ("hold", "hold series"),
            (
                "rounds",
                "seats",
                "strategy",
                "hold",
                "result",
                "win_over_handle",
                "drop",
                "drop_to_handle",
                "daily",
                "unit",
                "rounds_per_hour",
                "method",
            ),
            _left(
                {
                    **_SERVED,
                    "the page shows the result itself, and its chart": ("output",),
                    "the page reads the file's text: typed, or put there by the file picker": (
                        "daily",
                    ),
                }
            ),
            {"daily": ("text",)},
        ),
        PageForm(
            "/chart",
            ("chart",),
            (),
            _left(
                {
                    SERVER: ("cache",),
                    "the page shows the chart and downloads it as PDF, PNG or CSV": (
                        "format",
                        "output",
                        "comments",
                    ),
                    "a chart of your own is priced by cbj chart --check, and played on the "
                    "Practice page": ("file",),
                    "each cell's cost is cbj chart --costs (the Practice page grades by it)": (
                        "costs",
                    ),
                }
            ),
        ),
        PageForm(
            "/report",
            ("report",),
            (
                "prepared_by",
                "prepared_for",
                "revision_note",
                "table_limits",
                "procedures",
                "paytables",
                "strategy",
                "shoe_samples",
                "counter_rounds",
                "table_rounds",
                "simulation_rounds",
                "format",
                "core_only",
            ),
            _left({SERVER: ("jobs", "cache", "progress"), "the page downloads it": ("output",)}),
        ),
        PageForm(
            "/sensitivity",
            ("sweep",),
            ("vary", "start", "stop", "step", "exact"),
            _left({**_SERVED, "the page draws the plot itself, beside the table": ("plot",)}),
        ),
        PageForm(
            "/practice",
            ("practice start",),
            ("drill", "chart", "seed", "penetration", "history"),
            _left({SERVER: ("cache",)}),
        ),
    )
}


def read_fields(
    form: PageForm, query: Mapping[str, str], kind: str = "round", names: tuple[str, ...] = ()
) -> tuple[dict[str, Any], dict[str, str]]:
    """The fields of ``form`` given (a blank one is not given), each read by its entry
    (a chosen field by ``kind``'s), by their parameters' names; and each bad field's
    message, by the field's name."""
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for name in names or form.fields:
        text = str(query.get(name, "")).strip()
        most = LONG_FIELDS.get(name, MAX_FIELD_TEXT)
        if len(text) > most:
            words = name.replace("_", " ")
            errors[name] = f"{words} is too long: at most {most:,} characters"
            continue
        if not text:
            continue
        param = form.param(name, kind)
        try:
            values[param.name] = param.read(text)
        except CbjError as error:
            errors[name] = excerpted(str(error), text)
    return values, errors


#: The text boxes that offer suggestions: the parameter's name, the id of the page's
#: ``<datalist>`` (a chart file is a file's name, so the strategy is a box, not a drop-down).
SUGGESTIONS = {"strategy": "strategy-names"}


def fields_html(
    form: PageForm,
    query: Mapping[str, str],
    errors: Mapping[str, str],
    names: tuple[str, ...],
    shown: Mapping[str, str] | None = None,
    words: Mapping[str, Callable[[str], str]] | None = None,
) -> Markup:
    """The fields ``names`` of ``form``, each made from its entry (``shown``: what a blank
    field shows; ``words``: a drop-down's words for its choices); the strategy's text box
    offers the page's datalist of strategies by name (:data:`SUGGESTIONS`)."""
    return Markup().join(
        html.textarea_field(
            form.param(name), str(query.get(name, ""))[: LONG_FIELDS[name]], errors, name
        )
        if name in LONG_FIELDS
        else html.param_field(
            form.param(name).but(name=name),
            str(query.get(name, ""))[:MAX_FIELD_TEXT],
            errors,
            (shown or {}).get(name, ""),
            (words or {}).get(name),
            SUGGESTIONS.get(name, ""),
        )
        for name in names
    )


def rules_html(form: RulesForm, prefix: str = "", exact: bool = True) -> Markup:
    """The rules' fields as read (each error beside its field), the exact-fractions box
    (``exact``), and the error about the rules as a whole."""
    rules = html.rules_fields(form.values, form.errors, form.rules, prefix)
    box = html.exact_box(form.exact, prefix) if exact else Markup()
    return rules + box + html.form_error(form.errors)


def left_out_html(form: PageForm) -> Markup:
    """What of the page's commands the page has no field for, and why (a note below it)."""
    reasons: dict[str, list[str]] = {}
    params = form.params()
    for name, reason in form.left_out.items():
        flag = params[name].flag.split("/")[-1] or "--" + name.replace("_", "-")
        reasons.setdefault(reason, []).append(f"{name}=" if flag == "-" else flag)
    listed = [(", ".join(flags), why) for why, flags in reasons.items()]
    commands = " and ".join(f"cbj {c}" for c in form.commands)
    return macro("workbench/parts.html", "left_out", commands, listed)
