"""``-o -`` is standard output on every command that takes ``-o`` (issue 27).

Text formats are written to stdout exactly as without ``-o`` (or, for ``graph``, as the
GraphML file ``-o x.graphml`` writes); a binary format is refused with one line when
stdout is a terminal; no file named ``-`` is ever made.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

from solver.cli import main


class Terminal(io.TextIOWrapper):
    """A standard output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def run(argv: list[str], terminal: bool = False) -> tuple[int, bytes, str]:
    """``cbj argv`` in-process: exit status, stdout's bytes, stderr."""
    out = (Terminal if terminal else io.TextIOWrapper)(io.BytesIO(), encoding="utf-8")
    err = io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        main(argv)
        status = 0
    except SystemExit as stop:
        status = int(stop.code or 0)
    finally:
        sys.stdout, sys.stderr = saved
    out.flush()
    buffer = out.buffer
    assert isinstance(buffer, io.BytesIO)
    return status, buffer.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    "argv",
    [
        ["chart", "--decks", "1"],
        ["chart", "--decks", "1", "--format", "json"],
        ["session", "--decks", "1", "--rounds", "2"],
        ["session", "--decks", "1", "--rounds", "2", "--format", "json"],
    ],
    ids=" ".join,
)
def test_dash_is_what_stdout_gets_without_it(argv: list[str], folder: Path) -> None:
    status, without, _ = run(argv)
    assert status == 0 and without
    assert run([*argv, "-o", "-"])[:2] == (0, without)
    assert run([*argv, "--output", "-"])[:2] == (0, without)
    assert not (folder / "-").exists()


def test_the_graph_on_stdout_is_its_graphml_file(folder: Path) -> None:
    argv = ["graph", "--decks", "1", "--bonus", "K", "--hand", "9 3"]
    assert run([*argv, "-o", "x.graphml"])[0] == 0
    status, out, _ = run([*argv, "-o", "-"])
    assert status == 0 and out == (folder / "x.graphml").read_bytes()
    assert not (folder / "-").exists()


def test_the_report_on_stdout(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The report's figures are stubbed: this is the wiring of ``-o -``, not the report."""

    def figures(*args: Any, **kwargs: Any) -> str:
        return "figures"

    monkeypatch.setattr("solver.api.files.report_figures", figures)
    monkeypatch.setattr(
        "solver.api.files.build_report", lambda figures, prepared, core, written: figures
    )
    monkeypatch.setattr("solver.api.files.render_html", lambda report: f"<p>{report}</p>")
    monkeypatch.setattr("solver.api.files.render_pdf", lambda report: b"%PDF " + report.encode())
    assert run(["report", "--decks", "1", "-o", "-"])[:2] == (0, b"<p>figures</p>")
    assert run(["report", "--decks", "1", "-o", "-", "--format", "pdf"])[:2] == (0, b"%PDF figures")
    status, out, err = run(["report", "--decks", "1", "-o", "-", "--format", "pdf"], True)
    assert status == 2 and out == b"" and err.count("\n") == 1 and "binary" in err
    assert not (folder / "-").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["chart", "--decks", "1", "--format", "pdf"],
        ["chart", "--decks", "1", "--format", "png"],
        ["session", "--decks", "1", "--rounds", "2", "--format", "png"],
    ],
    ids=" ".join,
)
def test_no_binary_format_to_a_terminal(argv: list[str]) -> None:
    """Refused before any work (redirected, the bytes go out as without ``-o``)."""
    status, out, err = run([*argv, "-o", "-"], terminal=True)
    assert status == 2 and out == b"" and err.count("\n") == 1 and "binary" in err
