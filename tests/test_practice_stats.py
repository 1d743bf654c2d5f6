"""A player's practice statistics and history: counted as a plain recount says, carried from
session to session, and read back from JSON with every field checked (issue 47).
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.model.errors import PracticeError
from solver.model.rules import Rules
from solver.results.practice import Drill, PracticeSetup, PracticeState
from solver.results.practice_history import (
    MAX_SESSIONS,
    PracticeHistory,
    read_history,
)
from solver.results.practice_state import read_state, state_json
from solver.results.practice_stats import (
    CELLS,
    GAPS,
    RECENT,
    TREND_HALF,
    Decided,
    Schedule,
    SessionStats,
    Tally,
    grouped,
    kind,
    read_schedule,
    read_session_stats,
    row,
    schedule_json,
    session_stats_json,
    trend,
)
from solver.results.practice_stats import (
    bonus as column,
)
from solver.studies.practice import start_state

decisions = st.lists(
    st.tuples(
        st.integers(0, len(CELLS) - 1),
        st.booleans(),
        st.floats(0, 2, allow_nan=False),
        st.floats(-2, 2, allow_nan=False),
    ),
    max_size=150,
)


def _decided(items: list[tuple[int, bool, float, float]]) -> list[Decided]:
    return [Decided(CELLS[i], wrong, up, cost if wrong else 0.0) for i, wrong, up, cost in items]


def _played(made: list[Decided]) -> SessionStats:
    stats = SessionStats()
    for d in made:
        stats = stats.graded(d)
    return stats


def _runs(outcomes: list[bool]) -> tuple[int, int]:
    """The current and the longest run of right decisions, counted plainly."""
    current = best = 0
    for right in outcomes:
        current = current + 1 if right else 0
        best = max(best, current)
    return current, best


@settings(max_examples=60, deadline=None)
@given(decisions)
def test_a_session_s_figures_are_a_plain_recount_of_its_decisions(
    items: list[tuple[int, bool, float, float]],
) -> None:
    made = _decided(items)
    stats = _played(made)
    outcomes = [not d.mistake for d in made]
    assert (stats.streak, stats.best_streak) == _runs(outcomes)
    assert stats.recent == "".join("1" if r else "0" for r in outcomes)[-RECENT:]
    by_cell = Counter(d.key for d in made)
    wrong = Counter(d.key for d in made if d.mistake)
    assert {k: t.decisions for k, t in stats.cells.items()} == dict(by_cell)
    assert {k: t.mistakes for k, t in stats.cells.items() if t.mistakes} == dict(wrong)
    total = stats.total
    assert total.decisions == len(made) and total.mistakes == sum(d.mistake for d in made)
    assert total.given_up == pytest.approx(sum(d.given_up for d in made))
    assert total.mistake_cost == pytest.approx(sum(d.cost for d in made))
    for groups in (grouped(stats.cells, kind), grouped(stats.cells, row),
                   grouped(stats.cells, column)):  # fmt: skip
        assert sum(groups.values(), Tally()).decisions == len(made)
    assert grouped(stats.cells, kind).keys() <= {"hard", "soft"}
    assert read_session_stats(json.loads(json.dumps(session_stats_json(stats)))) == stats


def test_the_trend_compares_the_later_half_of_the_last_decisions_with_the_earlier() -> None:
    assert trend("1" * (2 * TREND_HALF - 1)) is None
    found = trend("0" * 20 + "1" * 30 + "0" * 20 + "1" * 40 + "0" * 10)  # the last 100
    assert found is not None and found.decisions == 50
    assert (found.earlier, found.later) == (30 / 50, 40 / 50) and found.change > 0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.booleans()), max_size=80))
def test_the_schedule_is_spaced_repetition_counted_in_decisions(
    items: list[tuple[int, bool]],
) -> None:
    """A plain replay: a miss is due again after the first gap, each right answer at a cell
    under review moves it one gap out, and after the last it leaves."""
    schedule = Schedule()
    plain: dict[Any, tuple[int, int]] = {}
    for clock, (i, wrong) in enumerate(items, start=1):
        key = CELLS[i]
        schedule = schedule.graded(key, wrong)
        if wrong:
            plain[key] = (0, clock + GAPS[0])
        elif key in plain:
            step = plain[key][0] + 1
            if step == len(GAPS):
                del plain[key]
            else:
                plain[key] = (step, clock + GAPS[step])
        assert {r.key: (r.step, r.due) for r in schedule.reviews} == plain
        ready = [(due, step, CELLS.index(k)) for k, (step, due) in plain.items() if due <= clock]
        due = schedule.due()
        assert (due is None) == (not ready)
        if due is not None:
            assert (due.due, due.step, CELLS.index(due.key)) == min(ready)
    assert schedule.clock == len(items)
    assert read_schedule(json.loads(json.dumps(schedule_json(schedule)))) == schedule


def _state(seed: int, made: list[Decided], drill: Drill = Drill.DEALT) -> PracticeState:
    state = start_state(PracticeSetup(Rules(decks=1), seed, drill=drill))
    stats, schedule = state.stats, state.schedule
    for d in made:
        stats, schedule = stats.graded(d), schedule.graded(d.key, d.mistake)
    return PracticeState(state.setup, state.shoe, stats=stats, schedule=schedule)


def _right(n: int, key: int = 0) -> list[Decided]:
    return [Decided(CELLS[key], False, 0.0, 0.0)] * n


def _wrong(key: int = 0, cost: float = 0.25) -> list[Decided]:
    return [Decided(CELLS[key], True, 0.1, cost)]


def test_the_history_carries_the_streak_and_counts_each_session_once() -> None:
    first = _state(1, _right(3) + _wrong(5) + _right(4))
    history = PracticeHistory().started(first.setup)
    for _ in range(3):  # updated with each turn: the session in progress is replaced
        history = history.updated(first)
    assert history.total.decisions == 8 and history.streak == 4 and history.best == 4
    second = _state(2, _right(6, key=7), Drill.CLOSE)
    history = history.updated(second)  # another session: the first is finished
    assert [s.seed for s in history.summaries()] == [1, 2]
    assert history.streak == 10 and history.best == 10
    assert history.total.decisions == 14 and history.total.mistakes == 1
    assert history.all_cells()[CELLS[7]].decisions == 6
    assert history.schedule == second.schedule
    third = _state(3, _right(2) + _wrong())
    history = history.updated(third)
    assert history.streak == 0 and history.best == 10
    assert history.last_decisions() == "11101111" + "111111" + "110"
    assert read_history(json.loads(json.dumps(history.to_json()))) == history


def test_the_same_seed_played_again_is_another_session() -> None:
    first = _state(1, _right(5))
    again = _state(1, _right(2))
    history = PracticeHistory().updated(first).updated(again)
    assert [s.total.decisions for s in history.summaries()] == [5, 2]
    assert history.streak == 7


def test_a_session_with_no_decision_is_not_kept() -> None:
    history = PracticeHistory().started(PracticeSetup(Rules(), 1))
    history = history.started(PracticeSetup(Rules(), 2))
    assert history.sessions == () and history.ongoing is not None
    assert history.ongoing.seed == 2


def test_the_history_keeps_the_last_sessions_and_every_decision() -> None:
    history = PracticeHistory()
    for seed in range(MAX_SESSIONS + 5):
        history = history.updated(_state(seed, _right(1)))
    history = history.started(PracticeSetup(Rules(), 10**6))
    assert len(history.sessions) == MAX_SESSIONS and history.sessions[0].seed == 5
    assert history.total.decisions == MAX_SESSIONS + 5


def test_a_state_keeps_its_statistics_and_schedule() -> None:
    state = _state(4, _right(2) + _wrong(3) + _right(1))
    document = json.loads(json.dumps(state_json(state)))
    assert read_state(document) == state
    del document["stats"], document["schedule"]  # a state from before they were kept
    older = read_state(document)
    assert older.stats == SessionStats() and older.schedule == Schedule()


Change = Callable[[dict[str, Any]], Any]


def _history() -> dict[str, Any]:
    first = _state(9, _right(2) + _wrong(3) + _right(1))
    second = replace(_state(10, _right(2)), schedule=first.schedule)
    document: dict[str, Any] = PracticeHistory().updated(first).updated(second).to_json()
    return json.loads(json.dumps(document))  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(kind="cbj rules"), "not a practice history"),
        (lambda d: d.update(version=2), "history of version 2: this version of cbj reads"),
        (lambda d: d.update(sessions="many"), "history's sessions"),
        (lambda d: d["sessions"][0].update(decisions=-1), "history's sessions"),
        (lambda d: d["sessions"][0].update(mistakes=99), "history's sessions"),
        (lambda d: d["sessions"][0].update(drill="lucky"), "unknown drill"),
        (lambda d: d["sessions"][0].update(given_up=float("nan")), "history's sessions"),
        (lambda d: d["sessions"][0].update(chart="x" * 81), "history's sessions"),
        (lambda d: d["sessions"][0].update(seed=True), "history's sessions"),
        (lambda d: d["cells"].append(d["cells"][0]), "history's cells"),
        (lambda d: d["cells"][0].__setitem__(0, "hard 99"), "history's cells"),
        (lambda d: d["cells"][0].__setitem__(1, "11"), "history's cells"),
        (lambda d: d["cells"][0].__setitem__(2, 0), "history's cells"),
        (lambda d: d.update(carried=10**6), "history's streak"),
        (lambda d: d.update(best_streak=-1), "history's best streak"),
        (lambda d: d.update(recent="12"), "history's last decisions"),
        (lambda d: d.update(recent="1"), "history's last decisions"),
        (lambda d: d["ongoing"]["stats"].update(streak=10**6), "session in progress' streak"),
        (lambda d: d["ongoing"]["stats"].update(cells=None), "session in progress' cells"),
        (lambda d: d.update(ongoing=[]), "session in progress"),
        (lambda d: d["schedule"].update(clock="now"), "review schedule"),
        (lambda d: d["schedule"]["reviews"][0].__setitem__(2, len(GAPS)), "review schedule"),
        (lambda d: d["schedule"]["reviews"].append(d["schedule"]["reviews"][0]), "schedule"),
        (lambda d: d["schedule"]["reviews"][0].__setitem__(3, 10**7), "review schedule"),
    ],
)
def test_a_history_that_does_not_hold_together_is_refused(change: Change, message: str) -> None:
    document = _history()
    assert document["sessions"] and document["cells"] and document["schedule"]["reviews"]
    change(document)
    with pytest.raises(PracticeError, match=message):
        read_history(document)


@pytest.mark.parametrize(
    "document", [None, [], "history", {"kind": "cbj practice history"}, {"version": 1}]
)
def test_what_is_not_a_history_is_refused(document: Any) -> None:
    with pytest.raises(PracticeError):
        read_history(document)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12,
)  # fmt: skip


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value in a JSON document, containers included."""
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _leaves(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            found += _leaves(inner, (*path, i))
    return found


@settings(max_examples=150, deadline=None)
@given(st.data(), JSON)
def test_any_change_to_a_history_is_read_or_refused_with_a_practice_error(
    data: st.DataObject, value: Any
) -> None:
    document = _history()
    paths = [p for p in _leaves(document) if p]
    path = data.draw(st.sampled_from(paths))
    place = document
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    with contextlib.suppress(PracticeError):
        read_history(document)
    for reader in (read_history, read_session_stats, read_schedule):
        with contextlib.suppress(PracticeError):
            reader(value)
