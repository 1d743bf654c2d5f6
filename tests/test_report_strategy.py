"""The report's player's strategy (``cbj report --strategy S``), and the studies a second
report of the same game reads back from the store instead of running again.

One report is built here, after the session's (``par_figures``) and at its sizes, so
that every study it runs is the session's, read back from the session's disk store: that
is itself the test that a second report reruns none of them.
"""

from __future__ import annotations

import hashlib
import json
import math
import shlex
from collections.abc import Callable
from fractions import Fraction
from html import unescape
from pathlib import Path
from typing import TypeVar

import pytest

import solver
from solver.api.chart_file import player as player_strategy
from solver.model.errors import StrategyError
from solver.model.paytable import Paytable
from solver.model.rules import Rules
from solver.present.report import build_report, render_html
from solver.present.report.verification import figures_hash, rebuild_command
from solver.results.charts import Chart
from solver.results.kinds import Key, Kind
from solver.results.paytable import VARIANTS
from solver.results.protection import PROTECTION
from solver.results.report import PlayerStrategy, ReportFigures
from solver.results.seats import TABLE_OF_PLAYERS, TableOfPlayers
from solver.results.simulation import SIMULATION
from solver.store.disk import Cache
from solver.store.fields import decode_fields, encode_fields
from solver.store.memory import MemoryCache
from solver.studies.report import report_figures, verify_strategy

from .conftest import EPOCH, REPORT_PAYTABLES, REPORT_SIZES, run_cli

T = TypeVar("T")


class CountingStore(Cache):
    """The session's disk store, noting every study and simulation it had to compute."""

    def __init__(self) -> None:
        super().__init__()
        self.computed: list[str] = []

    def fetch(self, kind: Kind[T], key: Key, compute: Callable[[], T]) -> T:
        if kind.name not in STUDIES:
            return super().fetch(kind, key, compute)

        def counted() -> T:
            settings = key.settings or {}
            name = kind.name if kind != SIMULATION else f"simulation {settings['penetration']}"
            self.computed.append(name)
            return compute()

        return super().fetch(kind, key, counted)


#: The kinds of result a report keeps besides games and charts.
STUDIES = {k.name for k in (VARIANTS, TABLE_OF_PLAYERS, PROTECTION, SIMULATION)}


@pytest.fixture(scope="module")
def chart_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 2-deck game's best chart as ``cbj chart --format csv`` writes it."""
    path = tmp_path_factory.mktemp("charts") / "my chart.csv"
    with pytest.raises(SystemExit) as stop:
        solver.cli.main(["chart", "--decks", "2", "--format", "csv", "-o", str(path)])
    assert stop.value.code in (0, None)
    return path


@pytest.fixture(scope="module")
def store() -> CountingStore:
    return CountingStore()


@pytest.fixture(scope="module")
def figures(par_figures: ReportFigures, chart_file: Path, store: CountingStore) -> ReportFigures:
    """The session's report again, the player playing the chart file."""
    others = tuple(Paytable.parse(p) for p in REPORT_PAYTABLES[1:])
    player = player_strategy(f"chart:{chart_file}")
    return report_figures(
        Rules(decks=2), cache=store, paytables=others, strategy=player, **REPORT_SIZES
    )


@pytest.fixture(scope="module")
def html(figures: ReportFigures) -> str:
    """The report's HTML, its entities read as text."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", EPOCH)
        return unescape(render_html(build_report(figures)))


def test_a_second_report_reruns_no_study(figures: ReportFigures, store: CountingStore) -> None:
    """Table of players, game protection, rule variants and both cross-checks are the
    session report's, read back from the store: none was computed again."""
    assert store.computed == []


def test_second_report_studies_equal_the_first(
    figures: ReportFigures, par_figures: ReportFigures
) -> None:
    assert figures.table == par_figures.table
    assert figures.protection == par_figures.protection
    assert figures.variants == par_figures.variants
    assert figures.simulation == par_figures.simulation


def test_the_best_charts_csv_fed_back_has_the_best_charts_ev(
    figures: ReportFigures, chart_file: Path
) -> None:
    played = {p.name: p for p in figures.strategies}
    own = played[f"chart:{chart_file}"]
    assert own.main_ev == Fraction(figures.chart.expected_value)  # exactly
    assert own.main_ev == played["chart"].main_ev
    assert own.round_ev == played["chart"].round_ev
    assert list(played) == ["optimal", "chart", "mimic-dealer", f"chart:{chart_file}"]


def test_the_sessions_are_the_players_strategys(
    figures: ReportFigures, par_figures: ReportFigures, chart_file: Path
) -> None:
    """n rounds of the player's chart: n times its round EV, exactly; optimal play's sessions
    (the session report's) expect more."""
    own = next(p for p in figures.strategies if p.name == f"chart:{chart_file}")
    for session in figures.volatility.sessions:
        assert Fraction(session.mean) == session.rounds * own.round_ev
    assert figures.volatility.sessions[0].mean < par_figures.volatility.sessions[0].mean


def test_the_report_names_the_players_strategy(html: str, chart_file: Path) -> None:
    shown = "chart:my chart.csv"  # the file's name, not its folder
    assert f"the player's strategy: {shown}" in html
    assert f"Played: the player's strategy {shown}." in html
    assert f"a session of the player's strategy {shown} with" in html
    assert "the printed chart, realistic play and the player's strategy</h2>" in html


def test_the_manifest_rebuilds_with_the_strategy_and_records_the_files_hash(
    figures: ReportFigures, html: str, chart_file: Path
) -> None:
    from solver.present.report.front import Prepared

    words = shlex.split(rebuild_command(figures, Prepared(), "r.pdf"))
    assert words[words.index("--strategy") + 1] == f"chart:{chart_file}"
    digest = hashlib.sha256(chart_file.read_bytes()).hexdigest()
    assert figures.strategy.digest == digest
    assert digest in html and "rebuild with the file that has it" in html
    # on a phone the manifest's values sit under their headers, wrapped anywhere
    manifest = html[html.index("Reproducibility manifest") :]
    assert '<table class="stack prose"' in manifest


def test_the_figures_hash_holds_no_path(figures: ReportFigures, chart_file: Path) -> None:
    """The same chart from another folder: the same figures hash."""
    elsewhere = PlayerStrategy("chart:/elsewhere/x.csv", figures.strategy.chart, "d")
    from dataclasses import replace

    moved = replace(
        figures,
        strategy=elsewhere,
        strategies=tuple(
            replace(p, name=elsewhere.key) if p.name == figures.strategy.key else p
            for p in figures.strategies
        ),
    )
    assert figures_hash(moved) == figures_hash(figures)


def test_perfect_play_adds_nothing(par_figures: ReportFigures) -> None:
    """The default player's strategy is perfect play: no fourth row, no --strategy."""
    from solver.present.report.front import Prepared

    assert par_figures.strategy == PlayerStrategy()
    assert [p.name for p in par_figures.strategies] == ["optimal", "chart", "mimic-dealer"]
    assert "--strategy" not in rebuild_command(par_figures, Prepared(), "r.pdf")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hand,A,2\n9,H,S\n", "chart"),
        ("", "chart"),
    ],
)
def test_a_malformed_chart_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(text)
    out = tmp_path / "r.html"
    code, stdout, err = run_cli(
        ["report", "--decks", "2", "--strategy", f"chart:{bad}", "-o", str(out)], capsys
    )
    assert code == 2 and stdout == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("cbj: ") and expected in err
    assert not out.exists()


def test_an_unknown_strategy_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli(
        ["report", "--strategy", "stand-on:99", "-o", str(tmp_path / "r.pdf")], capsys
    )
    assert code == 2 and len(err.strip().splitlines()) == 1 and "stand-on:K" in err
    code, _, err = run_cli(
        ["report", "--strategy", "chart:", "-o", str(tmp_path / "r.pdf")], capsys
    )
    assert code == 2 and "names no file" in err


def test_the_api_checks_the_strategy_at_the_door(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="strategy"):
        solver.report(tmp_path / "r.html", strategy=17)  # type: ignore[arg-type]
    with pytest.raises(StrategyError, match="no such file"):
        solver.report(tmp_path / "r.html", strategy=f"chart:{tmp_path / 'none.csv'}")


def test_player_strategy_names() -> None:
    assert PlayerStrategy(" Mimic-Dealer ").key == "mimic-dealer"
    assert PlayerStrategy("optimal").perfect and not PlayerStrategy("chart").perfect
    assert PlayerStrategy("chart:a\\b\\c.csv", {}).shown == "chart:c.csv"  # type: ignore[arg-type]
    with pytest.raises(StrategyError):
        verify_strategy(PlayerStrategy("nope"), Rules())


def test_studies_round_trip_through_their_codec(par_figures: ReportFigures) -> None:
    for kind, study in (
        (TABLE_OF_PLAYERS, par_figures.table),
        (PROTECTION, par_figures.protection),
        (VARIANTS, par_figures.variants),
    ):
        doc = encode_fields(study)
        assert decode_fields(kind.shape, json.loads(json.dumps(doc))) == study


def test_the_field_codec_refuses_what_its_kind_does_not_hold() -> None:
    with pytest.raises(ValueError, match="cannot be stored"):
        encode_fields(object())
    with pytest.raises(ValueError, match="not a class this kind of result holds"):
        decode_fields(TableOfPlayers, {"data": "os.system", "fields": {}})
    # a class of the results, but not one a table of players holds
    chart = encode_fields(Chart(Rules(), {}, Fraction(0), Fraction(0), ()))
    with pytest.raises(ValueError, match="not a class this kind of result holds"):
        decode_fields(TableOfPlayers, chart)
    with pytest.raises(ValueError, match="untagged"):
        decode_fields(tuple, True)
    nan = decode_fields(float, json.loads(json.dumps(encode_fields(float("nan")))))
    assert math.isnan(nan)
    assert decode_fields(dict, encode_fields({(1, 2): [True, None]})) == {(1, 2): [True, None]}


def test_the_memory_store_keeps_a_study_by_kind_and_settings() -> None:
    memory = MemoryCache()
    calls: list[int] = []

    def compute() -> int:
        calls.append(1)
        return len(calls)

    a: Kind[int] = Kind("a", int)
    b: Kind[int] = Kind("b", int)
    assert memory.fetch(a, Key(Rules(), settings={"n": 1}), compute) == 1
    assert memory.fetch(a, Key(Rules(), settings={"n": 1}), compute) == 1
    assert memory.fetch(b, Key(Rules(), settings={"n": 1}), compute) == 2
    assert memory.fetch(a, Key(Rules(), settings={"n": 2}), compute) == 3


def test_the_disk_store_keeps_a_study_across_stores(tmp_path: Path) -> None:
    calls: list[int] = []

    def compute() -> tuple[Fraction, ...]:
        calls.append(1)
        return (Fraction(1, 3), Fraction(2, 7))

    kind: Kind[tuple[Fraction, ...]] = Kind("k", tuple[Fraction, ...])
    first = Cache(tmp_path / "c").fetch(kind, Key(Rules(), settings={"n": 1}), compute)
    again = Cache(tmp_path / "c").fetch(kind, Key(Rules(), settings={"n": 1}), compute)
    assert first == again == (Fraction(1, 3), Fraction(2, 7)) and len(calls) == 1
