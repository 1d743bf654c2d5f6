"""``cbj --version``: the version from pyproject.toml, the commit a build wrote or the checkout's.

CI builds a wheel and an sdist from its clone and checks that the installed wheel names
that clone's commit (``.ci/run``); these tests check how the commit is found.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest

from solver.model import version
from solver.model.version import built_commit, checkout_commit, described, package_version

from .conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]


def git(folder: Path, *argv: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@t", *argv],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_the_version_is_pyproject_s() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert package_version() == project["version"]


def test_a_checkout_names_its_commit_and_says_when_it_has_changed(tmp_path: Path) -> None:
    assert checkout_commit(tmp_path) is None  # no checkout
    git(tmp_path, "init", "-q")
    (tmp_path / "a.txt").write_text("one\n", encoding="utf-8")
    git(tmp_path, "add", "a.txt")
    git(tmp_path, "commit", "-q", "-m", "one")
    head = git(tmp_path, "rev-parse", "HEAD")
    assert checkout_commit(tmp_path) == head[:12]
    (tmp_path / "untracked.txt").write_text("", encoding="utf-8")
    assert checkout_commit(tmp_path) == head[:12]  # an untracked file changes nothing
    (tmp_path / "a.txt").write_text("two\n", encoding="utf-8")
    assert checkout_commit(tmp_path) == head[:12] + "-dirty"


def test_a_commit_written_by_the_build_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    written = types.ModuleType(version.COMMIT_MODULE)
    written.COMMIT = "0123456789ab"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, version.COMMIT_MODULE, written)
    assert built_commit() == "0123456789ab"
    assert described() == f"{package_version()}, commit 0123456789ab"


def test_cbj_version_says_the_version_and_the_commit(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["--version"], capsys)
    assert status == 0 and out.startswith(f"cbj, version {described()} (kernel: ")
    if (ROOT / ".git").exists():  # run from the checkout, as the suite is
        assert f"commit {git(ROOT, 'rev-parse', '--short=12', 'HEAD')}" in out
