"""Output files: checked before computing, written atomically, formats from extensions."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from solver.model.errors import CbjError, OutputError
from solver.present.files import (
    check_output_dir,
    check_terminal,
    check_writable,
    choose_format,
    folder_swap,
    write_atomic,
    wrote,
)

CHART_FORMATS = ("csv", "json", "md", "html", "pdf", "svg", "png")


@pytest.mark.parametrize(
    ("name", "expected"),
    [("x.pdf", "pdf"), ("x.PNG", "png"), ("x.md", "md"), ("x.htm", "html"), ("x.json", "json")],
)
def test_the_extension_chooses_the_format(name: str, expected: str) -> None:
    assert choose_format(Path(name), None, CHART_FORMATS, "md") == expected


def test_a_format_contradicting_the_extension_is_an_error() -> None:
    with pytest.raises(OutputError, match="contradicts") as error:
        choose_format(Path("chart.pdf"), "md", CHART_FORMATS, "md")
    assert "\n" not in str(error.value)


def test_an_explicit_format_with_an_unknown_extension_is_kept() -> None:
    assert choose_format(Path("chart"), "pdf", CHART_FORMATS, "md") == "pdf"
    assert choose_format(None, "csv", CHART_FORMATS, "md") == "csv"


@pytest.mark.parametrize("name", ["chart", "chart.docx", "chart.txt"])
def test_an_extension_the_command_cannot_write_is_an_error(name: str) -> None:
    with pytest.raises(OutputError, match="give --format"):
        choose_format(Path(name), None, CHART_FORMATS, "md")


def test_a_format_the_command_cannot_write_is_an_error() -> None:
    with pytest.raises(OutputError, match="not available"):
        choose_format(None, "pdf", ("table", "json"), "table")


class Terminal(io.BytesIO):
    def isatty(self) -> bool:
        return True


def test_binary_formats_are_not_written_to_a_terminal() -> None:
    with pytest.raises(OutputError, match="binary"):
        check_terminal("pdf", Terminal())
    check_terminal("md", Terminal())
    check_terminal("pdf", io.BytesIO())


def test_a_missing_folder_fails_at_once_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="does not exist") as error:
        check_writable(tmp_path / "missing" / "x.md")
    assert "\n" not in str(error.value) and isinstance(error.value, CbjError)


def test_a_folder_or_a_file_parent_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is a folder"):
        check_writable(tmp_path)
    (tmp_path / "f").write_text("")
    with pytest.raises(OutputError, match="not a folder"):
        check_writable(tmp_path / "f" / "x.md")


# A read-only folder: tests/test_unprivileged.py (as nobody under root, so never skipped).


def test_the_check_leaves_nothing_behind(tmp_path: Path) -> None:
    check_writable(tmp_path / "x.md")
    assert list(tmp_path.iterdir()) == []


def test_a_write_replaces_the_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "x.md"
    target.write_text("old")
    target.chmod(0o640)
    assert write_atomic(target, "new") == target
    assert target.read_text() == "new"
    assert target.stat().st_mode & 0o777 == 0o640
    assert list(tmp_path.iterdir()) == [target]
    assert wrote(target) == f"wrote {target}"


def test_an_interrupted_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "x.pdf"
    target.write_bytes(b"good")

    def interrupt(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"new and longer")
    assert target.read_bytes() == b"good"
    assert list(tmp_path.iterdir()) == [target]


def is_collection(path: Path) -> bool:
    return (path / "README.md").is_file() and (path / "README.md").read_text().startswith("# S")


def test_empty_text_and_the_current_folder_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(OutputError, match="empty"):
        check_output_dir("", is_collection)
    with pytest.raises(OutputError, match="current folder"):
        check_output_dir(".", is_collection)


def test_a_folder_of_other_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "README.md").write_text("my notes")
    with pytest.raises(OutputError, match="not a collection"):
        check_output_dir(str(tmp_path / "out"), is_collection)
    assert (tmp_path / "out" / "README.md").read_text() == "my notes"


def test_an_empty_folder_or_a_collection_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    check_output_dir(str(tmp_path / "empty"), is_collection)
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "README.md").write_text("# Strategy tables")
    check_output_dir(str(tmp_path / "old"), is_collection)
    check_output_dir(str(tmp_path / "new"), is_collection)


def test_a_folder_is_swapped_in_whole(tmp_path: Path) -> None:
    target = tmp_path / "tables"
    target.mkdir()
    (target / "stale.md").write_text("old")
    with folder_swap(target) as building:
        (building / "README.md").write_text("# Strategy tables")
        assert not (target / "README.md").exists()
    assert sorted(p.name for p in target.iterdir()) == ["README.md"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tables"]


def test_an_interrupted_build_leaves_the_old_folder(tmp_path: Path) -> None:
    target = tmp_path / "tables"
    target.mkdir()
    (target / "README.md").write_text("old")
    with pytest.raises(KeyboardInterrupt), folder_swap(target) as building:
        (building / "README.md").write_text("half")
        raise KeyboardInterrupt
    assert (target / "README.md").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tables"]
