"""Stopping is a property of the job (issue 50): every long step checks the job's stop flag,
so a stopped workbench job frees its worker, and the next job in its lane runs, within 2 s
whatever the job's sizes.

The workbench's jobs are started in this process on real workers (:class:`Work`), each at
sizes that would run for minutes, stopped once their long step is under way, and the next
job queued behind each is seen running.  Each long step is also checked alone: under a flag
already set it stops at its first check.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import pytest

from solver.exact.chart import best_chart
from solver.exact.game import solve_game
from solver.exact.lattice import float_power, round_table
from solver.exact.session import distribution
from solver.exact.strategies import evaluate_policies
from solver.model.catalogue import SHOE_SAMPLES
from solver.model.checks import MAX_ROUNDS
from solver.model.parallel import parallel_map
from solver.model.process import StopFlag, Stopped, check_stop, stoppable
from solver.model.rules import Rules
from solver.present.charts import to_image
from solver.present.formats import ChartFormat
from solver.store.memory import MemoryCache
from solver.studies.report import STEPS
from solver.web.jobs import Job, Kind, Work
from solver.web.work import WorkbenchStore
from solver.web.workbench import Outcome, Workbench

#: How soon a stopped job's worker must be idle and the next job in its lane running.
WITHIN = 2.0
#: Report sizes that take seconds at most, beside the one made huge.
SMALL = {"shoe_samples": 2, "counter_rounds": 1_000, "table_rounds": 1_000, "simulation_rounds": 1}


@pytest.fixture
def bench(games: MemoryCache) -> Iterator[Workbench]:
    """A workbench on real workers over the session's store (solved games, kept studies)."""
    work = Work()
    made = Workbench(WorkbenchStore(inner=games), work)
    yield made
    made.close()


def _stopped_in_time(
    bench: Workbench, outcome: Outcome[Any], under_way: Callable[[Job[Any]], bool]
) -> None:
    """Wait until ``outcome``'s job is in its long step, queue another job of its kind, stop
    the first, and see its worker take the next within :data:`WITHIN` seconds."""
    job = outcome.job
    assert job is not None, outcome.error
    deadline = time.monotonic() + 120
    while not under_way(job):
        assert not job.finished, f"the job ended before its long step: {job.future.exception()}"
        assert time.monotonic() < deadline, "the long step never began"
        time.sleep(0.05)
    following = bench.work.submit(("next", job.kind), lambda _: "next", job.kind)
    stopped_at = time.monotonic()
    assert bench.work.stop(job.id)
    assert following.wait(WITHIN), f"the next job did not run within {WITHIN} s of the stop"
    assert following.started_at is not None and following.started_at - stopped_at < WITHIN
    assert following.result() == "next"
    assert isinstance(job.future.exception(), Stopped)
    assert bench.work.spares == 0  # the worker itself ended the job: none was left stuck
    idle_by = time.monotonic() + WITHIN
    while bench.work.running(job.kind) is not None and time.monotonic() < idle_by:
        time.sleep(0.02)
    assert bench.work.running(job.kind) is None


def _in_step(step: str, after: float = 0.5) -> Callable[[Job[Any]], bool]:
    """The report's job is ``after`` seconds into the step named ``step``."""
    index = STEPS.index(step)
    entered: dict[str, float] = {}

    def under_way(job: Job[Any]) -> bool:
        if job.done != index:
            return False
        entered.setdefault("at", time.monotonic())
        return time.monotonic() - entered["at"] > after

    return under_way


#: Each of the report's sizes made huge, and the step it makes long.
HUGE_REPORTS = [
    ("shoe_samples", SHOE_SAMPLES.high, "game protection"),
    ("counter_rounds", MAX_ROUNDS, "game protection"),
    ("table_rounds", MAX_ROUNDS, "table of players"),
    # (reached after the whole game-protection study: seconds more, so in the soak run)
    pytest.param("simulation_rounds", MAX_ROUNDS, "simulation, fresh shoe", marks=pytest.mark.soak),
]


@pytest.mark.parametrize(("size", "value", "step"), HUGE_REPORTS)
def test_a_report_of_any_size_stops_within_two_seconds(
    bench: Workbench, size: str, value: int, step: str
) -> None:
    options = {**SMALL, size: value}
    outcome = bench.report(Rules(decks=1), options, "html", start=True)
    _stopped_in_time(bench, outcome, _in_step(step))


def test_a_hold_check_on_the_finest_lattice_stops_within_two_seconds(bench: Workbench) -> None:
    """A blackjack pay of 99.99 puts a long session on millions of lattice points: minutes."""
    rules = Rules(decks=1, blackjack_pays=Fraction(9999, 100))
    outcome = bench.hold(rules, {"rounds": 100_000, "result": 0}, wait=0.0)
    _stopped_in_time(bench, outcome, lambda job: job.elapsed() > 1.0)


def test_a_drawing_stops_within_two_seconds(bench: Workbench) -> None:
    """The chart drawn as a PDF (seconds of matplotlib) stops between its stages."""
    outcome = bench.chart_file(Rules(decks=2), ChartFormat.PDF, wait=0.0)
    _stopped_in_time(bench, outcome, lambda job: job.elapsed() > 0.1)


def test_the_time_limit_stops_a_long_report_through_the_same_flag(
    bench: Workbench, monkeypatch: pytest.MonkeyPatch
) -> None:
    from solver.web import jobs

    limits = dict(jobs.LIMITS)
    limits[Kind.REPORT] = jobs.Limits(queue=2, supersede=False, seconds=3)
    monkeypatch.setattr(jobs, "LIMITS", limits)
    outcome = bench.report(Rules(decks=1), {**SMALL, "table_rounds": MAX_ROUNDS}, "html", True)
    job = outcome.job
    assert job is not None and job.wait(60)
    assert "time limit of 3 s" in str(job.future.exception())
    deadline = time.monotonic() + WITHIN
    while bench.work.running(Kind.REPORT) is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert bench.work.running(Kind.REPORT) is None and bench.work.spares == 0


# --- each long step alone, under a flag already set ---------------------------------------


def _stops_at_once(step: Callable[[], object]) -> None:
    """``step`` under a set flag raises :class:`Stopped` at its first check (and quickly)."""
    flag = StopFlag()
    flag.set("enough")
    began = time.monotonic()
    with stoppable(flag), pytest.raises(Stopped, match="enough"):
        step()
    assert time.monotonic() - began < WITHIN


def test_each_long_step_checks_the_flag(games: MemoryCache) -> None:
    rules = Rules(decks=1)
    game = solve_game(rules, exact=True, cache=games)
    table = round_table([(Fraction(-1), Fraction(1, 2)), (Fraction(1), Fraction(1, 2))])
    chart = best_chart(rules, game)
    import matplotlib.pyplot  # noqa: F401  (loaded before the clock starts: seconds)

    _stops_at_once(lambda: list(parallel_map(abs, range(10**6))))
    _stops_at_once(lambda: best_chart(rules, game))
    _stops_at_once(lambda: evaluate_policies(game, {"stand": lambda *_: True}))
    _stops_at_once(lambda: distribution(table, 10, "exact"))
    _stops_at_once(lambda: float_power(table, 10))
    _stops_at_once(lambda: to_image(chart, ChartFormat.PNG))


def test_outside_a_job_nothing_is_checked() -> None:
    check_stop()
    assert list(parallel_map(abs, [-1, -2])) == [1, 2]


def test_a_flag_is_the_jobs_own_thread_s() -> None:
    """Stopping one job's work leaves another thread's work alone."""
    mine, other = StopFlag(), StopFlag()
    seen: list[str] = []

    def run(flag: StopFlag) -> None:
        with stoppable(flag):
            time.sleep(0.1)
            try:
                check_stop()
                seen.append("went on")
            except Stopped:
                seen.append("stopped")

    threads = [threading.Thread(target=run, args=(f,)) for f in (mine, other)]
    for thread in threads:
        thread.start()
    mine.set("stop mine")
    for thread in threads:
        thread.join()
    assert sorted(seen) == ["stopped", "went on"]


def test_a_stopped_job_that_never_checks_gets_its_kind_a_fresh_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stop the work never honours (a library call that does not return) frees the lane
    after the grace, as a time limit's does: the next job runs on a fresh worker."""
    from solver.web import jobs

    monkeypatch.setattr(jobs, "GRACE", 0.5)
    release = threading.Event()
    work = Work()
    try:
        stuck = work.submit("stuck", lambda job: release.wait(60), Kind.FILE)
        while stuck.started_at is None:
            time.sleep(0.01)
        following = work.submit("next", lambda job: "next", Kind.FILE)
        assert work.stop(stuck.id)
        assert following.wait(5) and following.result() == "next"
        assert work.spares == 1
    finally:
        release.set()
        work.close()
