"""What the pages ask of the library: a game, a chart, a paytable answer, a hold check or a
report, each from the API, either at once (a cached game re-priced) or as a shared job
with progress.

Each method takes ``start``: a POST may start the job (``start=True``); a GET only reads
what is built or being built (``start=False``: an :class:`Outcome` that is ``idle`` when
nothing is).  ``client`` names who asks (its address), for the limit on jobs per client.
The handlers of :mod:`solver.web.views` call these methods only: no computation of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from solver.api import functions as api
from solver.model.errors import CbjError
from solver.model.rules import Rules
from solver.present import charts
from solver.present.formats import ChartFormat
from solver.present.sweep import NARROW, WIDE, draw
from solver.present.workbench import Progress
from solver.results.charts import CHART_COSTS, Chart, ChartCosts
from solver.results.game import GameResult
from solver.results.report import PlayerStrategy
from solver.results.sweep import SweepResult
from solver.studies.pricing import neutral
from solver.studies.report import STEPS as REPORT_STEPS
from solver.web.jobs import Job, Kind, Refused, Stopped, Work
from solver.web.memory import Memory
from solver.web.work import WorkbenchStore

T = TypeVar("T")
#: What a job's progress says: words, or words made from its steps done and in all.
Label = str | Callable[[int, int], str]


def report_stage(done: int, total: int) -> str:
    """The report's progress in words: the step under way.

    >>> report_stage(1, 10), report_stage(9, 10)
    ('building the report: rule variants', 'building the report: writing the document')
    """
    stage = REPORT_STEPS[done] if done < len(REPORT_STEPS) else "writing the document"
    return f"building the report: {stage}"


@dataclass(frozen=True, slots=True)
class Outcome(Generic[T]):
    """A result, or the progress of the job still computing it (or why there is none)."""

    value: T | None = None
    progress: Progress | None = None
    error: str = ""
    superseded: bool = False
    idle: bool = False
    """Nothing built or being built (a GET that starts nothing)."""
    status: int = 200
    """The HTTP status a refusal asks for (429: too many jobs; 503: a queue is full)."""
    job: Job[Any] | None = None

    @property
    def ready(self) -> bool:
        """The result is here."""
        return self.value is not None

    def result(self) -> T:
        """The result, which must be here."""
        if self.value is None:
            raise LookupError("no result yet")
        return self.value


@dataclass(frozen=True, slots=True)
class Swept:
    """A sweep and its plot as SVG, drawn for a wide screen and for a phone's."""

    result: SweepResult
    wide: bytes
    narrow: bytes


class Workbench:
    """The library as the pages see it: the API's functions over one shared store and pool."""

    def __init__(
        self, store: WorkbenchStore | None = None, work: Work | None = None, memory_mb: int = 0
    ) -> None:
        memory = Memory(memory_mb * 2**20) if memory_mb else None
        self.work = work if work is not None else Work(memory)
        self.store = store if store is not None else WorkbenchStore(memory=self.work.memory)

    def close(self) -> None:
        """Stop the workers."""
        self.work.close()

    def outcome(self, job: Job[T], label: Label) -> Outcome[T]:
        """What a job has to show: its result, its error, or how far it has got."""
        if job.superseded:
            return Outcome(superseded=True, progress=Progress("superseded by newer input"))
        if not job.finished:
            said = label if isinstance(label, str) else label(job.done, job.total)
            progress = Progress(
                said, job.done, job.total, job.elapsed(), self.work.position(job), job.id
            )
            return Outcome(progress=progress, job=job)
        error = job.future.exception()
        if error is None:
            return Outcome(job.result(), job=job)
        if isinstance(error, CbjError | Stopped):  # bad input, or stopped: said in its words
            return Outcome(error=str(error), job=job)
        raise error

    def _job(
        self,
        key: Hashable,
        compute: Callable[[Job[T]], T],
        label: Label,
        wait: float,
        kind: Kind,
        start: bool,
        client: str,
    ) -> Outcome[T]:
        if start:
            try:
                job = self.work.submit(key, compute, kind, client)
            except Refused as refused:
                return Outcome(error=str(refused), status=refused.status)
        else:
            found = self.work.find(key)
            if found is None:
                return Outcome(idle=True)
            job = found
        job.wait(wait)
        return self.outcome(job, label)

    def game(
        self, rules: Rules, exact: bool, wait: float, start: bool = True, client: str = ""
    ) -> Outcome[GameResult[Any]]:
        """The solved game: re-priced at once if its rules were solved under any paytable or
        ratio, else from the (shared) solve, waiting up to ``wait`` seconds for it."""
        if self.store.has_game(rules, exact):
            return Outcome(api.solve(rules=rules, exact=exact, cache=self.store))

        def compute(job: Job[bool]) -> bool:  # the game itself is kept by the store
            api.solve(rules=rules, exact=exact, cache=self.store, progress=job.progress)
            return True

        key = ("game", neutral(rules), exact)
        label = "solving the game, one Bonus card at a time"
        kind = Kind.EXACT if exact else Kind.GAME
        solved = self._job(key, compute, label, wait, kind, start, client)
        if not solved.ready:
            return Outcome(
                None, solved.progress, solved.error, solved.superseded, solved.idle, solved.status
            )
        if not self.store.has_game(rules, exact):  # solved, then dropped for memory since
            self.work.forget(key)
            return self.game(rules, exact, wait, start, client) if start else Outcome(idle=True)
        return Outcome(api.solve(rules=rules, exact=exact, cache=self.store))

    def chart(
        self, rules: Rules, wait: float, start: bool = True, client: str = ""
    ) -> Outcome[Chart]:
        """The best printable chart under ``rules`` (an exact solve, then the chart search)."""
        return self._job(
            ("chart", rules),
            lambda job: api.chart(rules=rules, cache=self.store),
            "solving exactly, then searching the best chart",
            wait,
            Kind.CHART,
            start,
            client,
        )

    def chart_costs(
        self, rules: Rules, wait: float, start: bool = True, client: str = ""
    ) -> Outcome[ChartCosts]:
        """The best chart under ``rules`` with each cell's cost (``cbj chart --costs``): what
        a practice session grades by, kept by the store for the session's every play."""
        if self.store.has(CHART_COSTS, rules) and self.store.has_game(rules, True):
            return Outcome(api.chart_costs(rules=rules, cache=self.store))

        def compute(job: Job[ChartCosts]) -> ChartCosts:
            api.solve(rules=rules, exact=True, cache=self.store, progress=job.progress)
            return api.chart_costs(rules=rules, cache=self.store)

        label = "solving exactly, then the best chart and what each of its cells costs"
        return self._job(("chart-costs", rules), compute, label, wait, Kind.CHART, start, client)

    def chart_file(
        self, rules: Rules, fmt: ChartFormat, wait: float, start: bool = True, client: str = ""
    ) -> Outcome[bytes]:
        """The chart drawn or written in ``fmt``, in memory."""

        def compute(job: Job[bytes]) -> bytes:
            chart = api.chart(rules=rules, cache=self.store)
            return charts.render(chart, fmt)

        label = f"drawing the chart as {fmt.value.upper()}"
        key = ("chart-file", rules, fmt)
        return self._job(key, compute, label, wait, Kind.FILE, start, client)

    def paytable(
        self,
        rules: Rules,
        options: dict[str, Any],
        wait: float,
        start: bool = True,
        client: str = "",
    ) -> Outcome[Any]:
        """``cbj paytable solve`` (``options`` has ``solve_for``) or ``search``'s result."""
        key = ("paytable", rules, tuple(sorted(options.items())))
        solve = "solve_for" in options
        how = api.paytable_solve if solve else api.paytable_search

        def compute(job: Job[Any]) -> Any:
            return how(rules=rules, cache=self.store, **options)

        label = "solving the game exactly, then the paytable"
        return self._job(key, compute, label, wait, Kind.PAYTABLE, start, client)

    def hold(
        self,
        rules: Rules,
        options: dict[str, Any],
        wait: float,
        start: bool = True,
        client: str = "",
    ) -> Outcome[Any]:
        """``cbj hold``'s check of a table's result (``options``: rounds and the result), or
        of a pit's daily results (``options`` has their ``text``)."""
        key = ("hold", rules, tuple(sorted(options.items())))
        check = api.hold_series if "text" in options else api.hold

        def compute(job: Job[Any]) -> Any:
            return check(rules=rules, cache=self.store, **options)

        label = "solving the game exactly, then the session's distribution"
        return self._job(key, compute, label, wait, Kind.HOLD, start, client)

    def report(
        self, rules: Rules, options: dict[str, Any], fmt: str, start: bool, client: str = ""
    ) -> Outcome[Any]:
        """The PAR report (HTML text or PDF bytes) with ``cbj report``'s ``options``: started
        if ``start``, else only looked up.  Its progress names the step under way."""
        player = options.get("strategy") or PlayerStrategy()
        shown = {
            **options,
            "strategy": (player.name, player.digest),
            "paytables": tuple(str(p) for p in options.get("paytables", ())),
        }
        key = ("report", rules, tuple(sorted(shown.items())), fmt)

        stages = len(REPORT_STEPS) + 1  # writing the document is one too: never 100% running

        def compute(job: Job[Any]) -> Any:
            job.progress(0, stages)
            return api.report(
                format=fmt,
                rules=rules,
                cache=self.store,
                progress=lambda done, _: job.progress(done, stages),
                **options,
            )

        return self._job(key, compute, report_stage, 0.0, Kind.REPORT, start, client)

    def sweep(
        self,
        rules: Rules,
        options: dict[str, Any],
        wait: float,
        start: bool = True,
        client: str = "",
    ) -> Outcome[Swept]:
        """``cbj sweep`` with ``options`` (``vary``, ``start``, ``stop``, ``step``,
        ``exact``): the game solved at each value (a pay or the Bonus ratio re-priced from
        one solve), then its plot drawn as ``cbj sweep --plot`` draws it."""
        key = ("sweep", rules, tuple(sorted(options.items())))

        def compute(job: Job[Swept]) -> Swept:
            def solved(done: int, total: int) -> None:  # the drawing is the last step
                job.progress(done, total + 1)

            found = api.sweep(rules=rules, cache=self.store, progress=solved, **options)
            return Swept(found, draw(found, "svg", WIDE), draw(found, "svg", NARROW))

        label = "solving the game at each value, then drawing the plot"
        return self._job(key, compute, label, wait, Kind.SWEEP, start, client)
