"""``solver.tables`` (``cbj tables``) through its own function: the folder is checked before
any work, every file it reports is on disk and nothing else is, each variant's chart is
``solver.chart``'s for that variant's rules, and a run that fails part way leaves the old
collection as it was, with nothing left beside it.

The drawings (PNG, PDF, SVG: about a second each) are stood in for by their format's name;
tests/test_chart.py compares drawn charts with the committed ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import solver
from solver.model.errors import CbjError
from solver.present import charts as charts_module
from solver.present.collection import VARIANTS, is_collection
from solver.present.formats import ChartFormat
from solver.results.charts import Chart
from tests.conftest import GAMES


@pytest.fixture(autouse=True)
def no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(charts_module, "to_image", lambda chart, fmt: fmt.value.encode())


def files(folder: Path) -> dict[Path, bytes]:
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_folder_of_other_files_is_refused_before_any_work(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    with pytest.raises(CbjError, match="holds other files and is not a collection"):
        solver.tables(folder, progress=lambda done, total: pytest.fail("work began"))
    assert files(folder) == {Path("notes.txt"): b"keep me"}


@pytest.mark.slow  # the first to solve the variants' charts, into the session's cache
def test_every_file_reported_is_written_and_each_chart_is_the_chart_command_s(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "collection"
    done: list[tuple[int, int]] = []
    written = solver.tables(folder, cache=GAMES, progress=lambda *step: done.append(step))
    assert is_collection(folder)
    assert set(written.paths) == {folder / p for p in files(folder)}
    assert {p.parent.name for p in written.paths} == {v.folder for v in VARIANTS} | {folder.name}
    assert len(written.paths) == len(VARIANTS) * len(ChartFormat) + 1  # and the index page
    for variant, chart in zip(VARIANTS, written.charts, strict=True):
        assert chart == solver.chart(rules=variant.rules, cache=GAMES), variant.folder
    assert done[-1] == (len(VARIANTS), len(VARIANTS))


def test_a_run_that_fails_part_way_leaves_the_old_collection_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "collection"
    solver.tables(folder, cache=GAMES)
    before = files(folder)
    drawn: list[Chart] = []

    def fails_on_the_third(chart: Chart, fmt: ChartFormat) -> bytes:
        drawn.append(chart)
        if len(drawn) == 3:
            raise OSError("disk full")
        return b"new"

    monkeypatch.setattr(charts_module, "to_image", fails_on_the_third)
    with pytest.raises(CbjError, match=r"cannot write folder .*collection"):
        solver.tables(folder, cache=GAMES)
    assert len(drawn) == 3
    assert files(folder) == before
    assert [p.name for p in tmp_path.iterdir()] == ["collection"]  # no folder left aside
