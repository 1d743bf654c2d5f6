"""What the pages ask of the library: a game, a chart, a paytable answer or a report, each
from the API, either at once (a cached game re-priced) or as a shared job with progress.

The handlers of :mod:`solver.web.app` call these methods only: no computation of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from solver.api import files as files_api
from solver.api import game as game_api
from solver.api import paytable as paytable_api
from solver.api import session as session_api
from solver.api import strategy as strategy_api
from solver.model.errors import CbjError
from solver.model.rules import Rules
from solver.present import charts
from solver.present.formats import ChartFormat
from solver.present.workbench import Progress
from solver.results.charts import Chart
from solver.results.game import GameResult
from solver.web.work import Job, Lane, Work, WorkbenchStore, neutral

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Outcome(Generic[T]):
    """A result, or the progress of the job still computing it (or why there is none)."""

    value: T | None = None
    progress: Progress | None = None
    error: str = ""
    superseded: bool = False

    @property
    def ready(self) -> bool:
        """The result is here."""
        return self.value is not None

    def result(self) -> T:
        """The result, which must be here."""
        if self.value is None:
            raise LookupError("no result yet")
        return self.value


def _outcome(job: Job[T], label: str) -> Outcome[T]:
    """What a job has to show: its result, its error, or how far it has got."""
    if job.superseded:
        return Outcome(superseded=True, progress=Progress("superseded by newer input"))
    if not job.finished:
        return Outcome(progress=Progress(label, job.done, job.total, job.elapsed()))
    error = job.future.exception()
    if error is None:
        return Outcome(job.result())
    if isinstance(error, CbjError):  # bad input, said in its own words
        return Outcome(error=str(error))
    raise error


class Workbench:
    """The library as the pages see it: the API's functions over one shared store and pool."""

    def __init__(self, store: WorkbenchStore | None = None, work: Work | None = None) -> None:
        self.store = store or WorkbenchStore()
        self.work = work or Work()

    def close(self) -> None:
        """Stop the workers."""
        self.work.close()

    def _job(
        self, key: Hashable, compute: Callable[[Job[T]], T], label: str, wait: float, lane: Lane
    ) -> Outcome[T]:
        job = self.work.submit(key, compute, lane)
        job.wait(wait)
        return _outcome(job, label)

    def game(self, rules: Rules, exact: bool, wait: float) -> Outcome[GameResult[Any]]:
        """The solved game: re-priced at once if its rules were solved under any paytable or
        ratio, else from the (shared) solve, waiting up to ``wait`` seconds for it."""
        if self.store.has_game(rules, exact):
            return Outcome(game_api.solve(rules=rules, exact=exact, cache=self.store))

        def compute(job: Job[GameResult[Any]]) -> GameResult[Any]:
            return game_api.solve(rules=rules, exact=exact, cache=self.store, progress=job.progress)

        solved = self._job(
            ("game", neutral(rules), exact),
            compute,
            "solving the game, one Bonus card at a time",
            wait,
            Lane.QUICK,
        )
        if not solved.ready:
            return solved
        return Outcome(game_api.solve(rules=rules, exact=exact, cache=self.store))

    def chart(self, rules: Rules, wait: float) -> Outcome[Chart]:
        """The best printable chart under ``rules`` (an exact solve, then the chart search)."""
        return self._job(
            ("chart", rules),
            lambda job: strategy_api.chart(rules=rules, cache=self.store),
            "solving exactly, then searching the best chart",
            wait,
            Lane.QUICK,
        )

    def chart_file(self, rules: Rules, fmt: ChartFormat, wait: float) -> Outcome[bytes]:
        """The chart drawn or written in ``fmt``, in memory."""
        return self._job(
            ("chart-file", rules, fmt),
            lambda job: charts.render(strategy_api.chart(rules=rules, cache=self.store), fmt),
            f"drawing the chart as {fmt.value.upper()}",
            wait,
            Lane.LONG,
        )

    def paytable(self, rules: Rules, options: dict[str, Any], wait: float) -> Outcome[Any]:
        """``cbj paytable solve`` (``options`` has ``solve_for``) or ``search``'s result."""
        key = ("paytable", rules, tuple(sorted(options.items())))
        if "solve_for" in options:

            def compute(job: Job[Any]) -> Any:
                return paytable_api.paytable_solve(rules=rules, cache=self.store, **options)
        else:

            def compute(job: Job[Any]) -> Any:
                return paytable_api.paytable_search(rules=rules, cache=self.store, **options)

        return self._job(
            key, compute, "solving the game exactly, then the paytable", wait, Lane.LONG
        )

    def hold(self, rules: Rules, options: dict[str, Any], wait: float) -> Outcome[Any]:
        """``cbj hold``'s check of a table's result (``options``: rounds, hold or result)."""
        return self._job(
            ("hold", rules, tuple(sorted(options.items()))),
            lambda job: session_api.hold(rules=rules, cache=self.store, **options),
            "solving the game exactly, then the session's distribution",
            wait,
            Lane.LONG,
        )

    def report(self, rules: Rules, sizes: dict[str, int], fmt: str, start: bool) -> Outcome[Any]:
        """The PAR report (HTML text or PDF bytes): started if ``start``, else only looked up."""
        key = ("report", rules, tuple(sorted(sizes.items())), fmt)
        if not start:
            job = self.work.find(key)
            return Outcome() if job is None else _outcome(job, "building the report")
        return self._job(
            key,
            lambda job: files_api.report(
                format=fmt,
                rules=rules,
                cache=self.store,
                shoe_samples=sizes.get("shoe_samples"),
                counter_rounds=sizes.get("counter_rounds"),
                table_rounds=sizes.get("table_rounds"),
                simulation_rounds=sizes.get("simulation_rounds"),
            ),
            "building the report",
            0.0,
            Lane.LONG,
        )
