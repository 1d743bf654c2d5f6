"""Shared test helpers: physical card lists for brute-force enumeration, the PAR report.

At import, before any fixture or test module runs, the whole session is given a private
home, cache folder and matplotlib folder, so no test reads or writes the user's cache
(subprocesses inherit them through ``HOME`` and ``CBJ_CACHE_DIR``). Under pytest-xdist the
workers inherit the folder from the controlling process, so they share one disk cache and a
game one worker solved is read by the others.

Where ``PYTHONDONTWRITEBYTECODE`` is set (as in the development environment and CI), every
process would compile every module it imports from source: each xdist worker, and each
``cbj`` process a test starts, spent seconds compiling numpy, matplotlib and the solver
again (collecting the suite took 9.7 s of CPU a worker, 3.1 s with bytecode). The suite
keeps their bytecode instead in a folder of pytest's own cache folder
(``.pytest_cache/bytecode``, ignored by git; ``PYTHONPYCACHEPREFIX``), kept from one run to
the next as an installation keeps its bytecode, and readable by the unprivileged user of
tests/unprivileged.py, so that nothing is written beside the sources or in the environment.
Python checks each file's bytecode against its source, so an edited module is compiled again.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

_SHARED = "CBJ_TEST_SESSION_ROOT"
#: Whether this process made the session folder (and so removes it at the end).
OWNS_SESSION = _SHARED not in os.environ
if OWNS_SESSION:
    os.environ[_SHARED] = tempfile.mkdtemp(prefix="cbj-tests-")
    os.environ["CBJ_TEST_ORIGINAL_HOME"] = os.environ.get("HOME", "")
    os.environ["CBJ_TEST_ORIGINAL_CACHE_DIR"] = os.environ.get("CBJ_CACHE_DIR", "")
#: The home and cache folder the suite was started with, for the test that proves it.
ORIGINAL_HOME = os.environ["CBJ_TEST_ORIGINAL_HOME"] or None
ORIGINAL_CACHE_DIR = os.environ["CBJ_TEST_ORIGINAL_CACHE_DIR"] or None
SESSION_ROOT = Path(os.environ[_SHARED])
#: Where the suite keeps the bytecode of what it imports when the environment writes none.
BYTECODE = Path(__file__).resolve().parents[1] / ".pytest_cache" / "bytecode"
if OWNS_SESSION and os.environ.get("PYTHONDONTWRITEBYTECODE") and not sys.pycache_prefix:
    BYTECODE.mkdir(parents=True, exist_ok=True)
    for folder in (BYTECODE.parent, BYTECODE):  # nobody (tests/unprivileged.py) reads it too
        os.chmod(folder, 0o755)
    os.environ["PYTHONPYCACHEPREFIX"] = str(BYTECODE)
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    sys.pycache_prefix, sys.dont_write_bytecode = str(BYTECODE), False
os.environ["HOME"] = str(SESSION_ROOT / "home")
os.environ["CBJ_CACHE_DIR"] = str(SESSION_ROOT / "cache")
os.environ["XDG_CACHE_HOME"] = str(SESSION_ROOT / "xdg-cache")
os.environ["XDG_DATA_HOME"] = str(SESSION_ROOT / "xdg-data")  # cbj practice's history
os.environ["MPLCONFIGDIR"] = str(SESSION_ROOT / "matplotlib")
(SESSION_ROOT / "home").mkdir(exist_ok=True)

import pytest  # noqa: E402

from solver.cli import main  # noqa: E402
from solver.model.cards import RANKS, SUITS, Card, Shoe  # noqa: E402
from solver.model.paytable import Paytable  # noqa: E402
from solver.model.rules import Rules  # noqa: E402
from solver.present.report import Report, build_report, render_html, render_pdf  # noqa: E402
from solver.results.charts import CHART  # noqa: E402
from solver.results.game import GAME  # noqa: E402
from solver.results.kinds import Key, Kind  # noqa: E402
from solver.results.protection import EFFECTS  # noqa: E402
from solver.results.report import ReportFigures  # noqa: E402
from solver.store.disk import Cache  # noqa: E402
from solver.store.memory import MemoryCache  # noqa: E402
from solver.studies.report import report_figures  # noqa: E402
from tests.browsers import launched_chromium  # noqa: E402
from tests.workbench_server import serving  # noqa: E402

T = TypeVar("T")

if TYPE_CHECKING:
    pass


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the session's private home and cache (once, by the process that made them)."""
    if OWNS_SESSION:
        shutil.rmtree(SESSION_ROOT, ignore_errors=True)


class SharedGames(MemoryCache):
    """Games and charts kept in memory, exact games, charts and exact effects of removal in
    front of the session's disk cache.

    A worker reads an exact game, a chart or exact effects another worker already solved
    from the disk cache (and keeps them in memory after); one no worker has solved yet is
    computed and stored there (the exact one-deck effects cost 6 s, asked of ``eor`` and
    ``count`` alike). Float results stay in memory only: storing one costs more than
    solving it.
    """

    def __init__(self, disk: Cache) -> None:
        super().__init__()
        self.disk = disk

    def fetch(self, kind: Kind[T], key: Key, compute: Callable[[], T]) -> T:
        """The result from memory, else (an exact game or a chart) from the disk cache,
        else ``compute()``."""
        if kind == CHART or (kind in (GAME, EFFECTS) and key.exact):
            return super().fetch(kind, key, lambda: self.disk.fetch(kind, key, compute))
        return super().fetch(kind, key, compute)


#: The session's store: the ``games`` fixture, and the store of the modules that keep one for
#: helpers outside any fixture (a module's own store solved the default game, its chart and
#: the chart's costs again, about a second of CPU each).
GAMES = SharedGames(Cache())


@pytest.fixture(scope="session")
def games() -> MemoryCache:
    """One store of solved games shared by the whole test session, every worker included."""
    return GAMES


def physical_cards(shoe: Shoe) -> list[Card]:
    """Every card left in a shoe whose removed cards all had suits, one entry per card."""
    assert shoe.suits_known
    return [Card(r, s) for r in RANKS for s in SUITS for _ in range(shoe.count(r, s))]


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``cbj`` with ``argv``; its exit status, stdout and stderr."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    out, err = capsys.readouterr()
    return int(stop.value.code or 0), out, err


#: Sizes of every report built in the tests, each unlike its default so that a test sees
#: it reach the report. The game-protection study and counters are small (their figures are
#: checked for wiring and wording, not precision; 2 shoes per depth is the least a spread
#: takes). The two samples the tests hold to a z-score keep at least their default size,
#: so those checks keep their power: the table of players' Bonus holds (|z| < 3) and the
#: cross-check (|z| < 4).
REPORT_SIZES: dict[str, Any] = {
    "shoe_samples": 2,
    "counter_rounds": 20_000,
    "table_rounds": 60_000,
    "simulation_rounds": 120_000,
}
#: The same sizes as ``cbj report`` options.
REPORT_SIZE_OPTIONS = [
    f"--{name.replace('_', '-')}={value}" for name, value in REPORT_SIZES.items()
]
#: The date every report built in the tests carries (2026-01-02), for reproducible PDFs.
EPOCH = "1767312000"


#: Test files whose tests share costly work kept per process: each group runs on one xdist
#: worker, which does that work once (spread over both workers, each worker did it):
#: module fixtures (shoe states), what a module keeps per process for several files (the
#: 14-card shoe's chart and EORs of test_eor.py, for test_count.py too: protection;
#: tests/advantage.py's dealt shoes for indices, bet and attack: advantage;
#: tests/paytables.py's exact solve and edge model: paytable), the dealer's trees and final
#: hands (dealer), the tiny shoes' games and the brute-force twin's walks that test_game and
#: test_strategies both play (tiny-shoes), the results of every command (frames: its module
#: fixture is parametrized, and each worker made each), the practice sessions played
#: (practice) and the package's import graph (layers).
GROUPED_FILES = {
    "test_eor.py": "protection",
    "test_count.py": "protection",
    "test_indices.py": "advantage",
    "test_bet.py": "advantage",
    "test_attack.py": "advantage",
    "test_shoe_states.py": "shoe-states",
    "test_paytable_solve.py": "paytable",
    "test_paytable_search.py": "paytable",
    "test_dealer.py": "dealer",
    "test_game.py": "tiny-shoes",
    "test_strategies.py": "tiny-shoes",
    "test_frames.py": "frames",
    "test_practice.py": "practice",
    "test_layers.py": "layers",
}
#: The same for the tests of other files that use one of these fixtures (by its name):
#: ``drawn`` renders the default chart's PDF and SVG (2 s of CPU) once per worker.
GROUPED_FIXTURES = {"drawn": "drawn-chart"}


#: What ``pytest --core`` leaves out: tests marked slow, the browser tests and the tests of
#: the session's PAR report (added by :func:`pytest_collection_modifyitems`).
OUTSIDE_CORE = ("slow", "browser", "report")


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--core``: the fast core alone, for a developer's quick run."""
    parser.addoption(
        "--core",
        action="store_true",
        help="run the fast core alone: leave out the tests marked slow, browser or report",
    )


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> Iterator[None]:
    """Group the tests that share costly fixtures on one xdist worker; slow tests first.

    Under ``--dist loadgroup`` the tests that use the session's report share that worker's
    one build of ``par_report``, and every browser test (the report's, the workbench's and
    the practice page's) joins them, so that Chromium starts once; each file of
    :data:`GROUPED_FILES`, and the users of each fixture of :data:`GROUPED_FIXTURES`, keep
    to one worker. xdist deals out the groups first, largest
    first, then the single tests in the order left here: the tests marked ``slow`` and the
    doctests of ``docs/`` (which solve many games) go first, so that the last tests dealt
    are short ones and both workers finish together. The marks are set before xdist reads
    them, the order after every other hook (pytest's own reordering included).
    """
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if {"chromium", "workbench"} & fixtures:
            item.add_marker(pytest.mark.browser)
        if {"par_report", "par_figures"} & fixtures:
            item.add_marker(pytest.mark.report)
        if {"par_report", "par_figures", "chromium", "workbench"} & fixtures:
            item.add_marker(pytest.mark.xdist_group("report"))
        elif item.path.name in GROUPED_FILES:
            item.add_marker(pytest.mark.xdist_group(GROUPED_FILES[item.path.name]))
        else:
            for fixture, group in GROUPED_FIXTURES.items():
                if fixture in fixtures:
                    item.add_marker(pytest.mark.xdist_group(group))
    yield
    items.sort(key=_lateness)
    if config.getoption("core"):  # the fast core alone: see pytest_addoption
        left_out = [i for i in items if any(i.get_closest_marker(m) for m in OUTSIDE_CORE)]
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = [i for i in items if i not in set(left_out)]


def _lateness(item: pytest.Item) -> int:
    """0 for the doctests of ``docs/`` (the longest single item), 1 for slow tests, else 2."""
    if item.path.parent.name == "docs":
        return 0
    return 1 if item.get_closest_marker("slow") else 2


#: The paytables of the session's report: the rules' own (A) and one set beside it (B).
REPORT_PAYTABLES = ("15:4:1", "10:5:2")
#: Every (done, total) the session's report figures reported as their steps finished.
REPORT_PROGRESS: list[tuple[int, int]] = []


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Headless Chromium (tests/browsers.py), started once for every browser test: they
    share one worker (see :func:`pytest_collection_modifyitems`), and each opens its own
    context or tab."""
    yield from launched_chromium()


@pytest.fixture(scope="session")
def workbench() -> Iterator[str]:
    """``cbj serve`` on a free port of 127.0.0.1 for the browser tests of the workbench (in
    Chromium's xdist group, so one server serves them all): its address."""
    yield from serving()


@pytest.fixture(scope="session")
def par_figures() -> ReportFigures:
    """The figures of the session's PAR report (a 2-deck game, paytables A and B)."""
    others = tuple(Paytable.parse(p) for p in REPORT_PAYTABLES[1:])
    return report_figures(
        Rules(decks=2),
        cache=Cache(),
        paytables=others,
        progress=lambda done, total: REPORT_PROGRESS.append((done, total)),
        **REPORT_SIZES,
    )


@pytest.fixture(scope="session")
def par_report(par_figures: ReportFigures) -> Report:
    """The PAR report of a 2-deck game, built once per test session (it takes seconds).

    Its games and chart go to the session's disk cache, where ``cbj report --decks 2``
    and ``cbj chart --decks 2`` find them (a float game is stored as its doubles' bytes,
    cheaper than solving it again: 16 s of CPU for this fixture and the report's CLI
    twin together, against 19 s with the float games kept in memory and solved again).
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", EPOCH)
        return build_report(par_figures)


@pytest.fixture(scope="session")
def report_html(par_report: Report) -> str:
    """The session's report as HTML, rendered once for every test that reads the page."""
    return render_html(par_report)


@pytest.fixture(scope="session")
def report_pdf(par_report: Report) -> bytes:
    """The session's report as PDF, dated :data:`EPOCH`, rendered once for every test that
    reads it (tests/test_report.py, test_deliverables.py and test_plain_words.py each
    rendered it, about a second of CPU each time)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", EPOCH)
        return render_pdf(par_report)
