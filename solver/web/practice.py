"""The Practice page's requests: a session started from its settings, or one play of a
session whose state the page sends, each through the API.

The server keeps nothing of a session: the page sends the state (the JSON the last turn
gave) with each play, and it is read as untrusted input
(:func:`~solver.results.practice_state.read_state`).  So with the player's history across
sessions (:class:`~solver.results.practice_history.PracticeHistory`), which the page keeps
in the browser's storage and sends with each play: it comes back updated by the turn, and
a session started carries on its review schedule (the mistakes drill deals from it).  A
chart file of the player's own is read by the page and its text sent when the session
starts; it is parsed here by the very parser ``cbj chart --check`` uses, and kept in the
state as the CSV ``cbj chart`` writes.
What each play needs solved once per rule set (the exact game, the printed chart and its
cells' costs) is a job of the workbench's (:meth:`Workbench.chart_costs`); a play itself is
a few milliseconds and is answered at once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from solver.api.functions import practice_play, practice_start
from solver.model.catalogue import DRILL, PLAY
from solver.model.cells import Actions
from solver.model.chart_file import ChartGrid, parse_chart
from solver.model.errors import CbjError, PracticeError, StrategyError
from solver.model.rules import Rules
from solver.present.workbench import Progress
from solver.results.practice_history import PracticeHistory, read_history
from solver.results.practice_state import PracticeTurn, read_state
from solver.web.form import excerpted, read_rules
from solver.web.forms import PAGE_FORMS, read_fields
from solver.web.workbench import Workbench

#: The session's settings read from text fields (the chart comes as a file's text).
FIELDS = ("drill", "seed", "penetration")
#: The longest chart file name shown back.
MAX_CHART_NAME = 80


@dataclass(frozen=True, slots=True)
class Answer:
    """What a practice request gives the page: the turn, or the progress of the solve it
    waits for, or the errors beside the fields."""

    status: int
    turn: PracticeTurn | None = None
    progress: Progress | None = None
    errors: dict[str, str] = field(default_factory=dict)
    error: str = ""
    """A refusal or an error about the session as a whole."""
    history: PracticeHistory | None = None
    """The player's history with this turn in it (with the turn)."""
    chart: Actions | None = None
    """The chart the session learns (with the turn): its cell shown after a mistake."""


@dataclass(frozen=True, slots=True)
class Settings:
    """A session's settings read from the form, each checked; the errors beside them."""

    rules: Rules | None
    seed: int | None
    drill: str
    penetration: Any
    chart: ChartGrid | None
    errors: dict[str, str]


def _chart(text: str, name: str) -> ChartGrid | None:
    if not text.strip():
        return None
    shown = name.strip()[:MAX_CHART_NAME] or "chart"
    return parse_chart(text, shown if shown.isprintable() else "chart")


def read_settings(fields: Mapping[str, str]) -> Settings:
    """The settings of a session to start, from the form's fields (each read by its entry of
    the parameter catalogue, as ``solver.practice_start`` reads it)."""
    form = read_rules(fields)
    values, errors = read_fields(PAGE_FORMS["/practice"], fields, names=FIELDS)
    errors = {**form.errors, **errors}
    chart = None
    try:
        chart = _chart(str(fields.get("chart_text", "")), str(fields.get("chart_name", "")))
    except CbjError as error:
        errors["chart"] = excerpted(str(error), "")
    drill = values.get("drill", DRILL.default)
    return Settings(form.rules, values.get("seed"), drill, values.get("penetration"), chart, errors)


def _state(fields: Mapping[str, str]) -> Any:
    """The state the page sent, as JSON values (a :class:`PracticeError` if it is not JSON)."""
    text = str(fields.get("state", ""))
    if not text.strip():
        raise PracticeError("no session yet: start one")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise PracticeError("the practice state is not JSON: start a new session") from None


def read_history_field(fields: Mapping[str, str]) -> PracticeHistory:
    """The history the page sent (an empty one when it sent none), checked field by field
    (a :class:`PracticeError` names the first that is not right).

    >>> read_history_field({}) == PracticeHistory()
    True
    """
    text = str(fields.get("history", ""))
    if not text.strip():
        return PracticeHistory()
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        raise PracticeError(
            "the practice history is not JSON (a file cbj practice keeps)"
        ) from None
    return read_history(doc)


def answer(
    bench: Workbench, fields: Mapping[str, str], wait: float, start: bool, client: str
) -> Answer:
    """A practice request answered: a session started (``play=start``) or one play made."""
    play = str(fields.get("play", "")).strip().lower()
    try:
        past = read_history_field(fields)
    except CbjError as error:
        return Answer(400, error=str(error))
    if play == "start":
        settings = read_settings(fields)
        if settings.errors or settings.rules is None:
            return Answer(400, errors=settings.errors or {"": "the rules are not valid"})
        rules = settings.rules

        def make() -> PracticeTurn:
            return practice_start(
                seed=settings.seed,
                drill=settings.drill,
                penetration=settings.penetration,
                chart=settings.chart,
                history=past,
                rules=rules,
                cache=bench.store,
            )

    elif play in PLAY.choices:
        try:
            state = read_state(_state(fields))
        except CbjError as error:
            return Answer(400, error=str(error))
        rules = state.rules

        def make() -> PracticeTurn:
            return practice_play(state, play, cache=bench.store)

    else:
        return Answer(400, error=f"play {play[:16]!r} is unknown: start, hit, stand or deal")
    costs = bench.chart_costs(rules, wait, start, client)
    if costs.error:
        return Answer(costs.status if costs.status != 200 else 400, error=costs.error)
    if not costs.ready:
        return Answer(202, progress=costs.progress)
    try:
        turn = make()
    except StrategyError as error:  # a chart of one's own that leaves a hand without a play
        return Answer(400, errors={"chart": str(error)})
    except CbjError as error:  # a play out of turn
        return Answer(400, error=str(error))
    now = turn.state
    history = (past.started(now.setup) if play == "start" else past).updated(now)
    printed = costs.value.chart if costs.value is not None else None
    return Answer(200, turn, history=history, chart=now.setup.chart or printed)
