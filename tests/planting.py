"""A copy of the package to plant a new row in (a rule, a command), and a way to run in it.

The tests that plant a row copy the package and its writing script into a folder, edit the
copy, run the script there and probe the copy in a fresh interpreter, its folder first on
the path (and a private cache), so that the checkout itself is never touched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from solver.model.rule_code import PACKAGE

ROOT = PACKAGE.parent

#: Runs ``python *argv`` in the copy's folder: its completed process.
Runner = Callable[..., subprocess.CompletedProcess[str]]


def planted_copy(folder: Path, script: str) -> tuple[Path, Runner]:
    """The package copied into ``folder`` with ``scripts/<script>``: the copy, and a runner."""
    copy = folder / "solver"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.tmp"))
    (folder / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / script, folder / "scripts")
    environment = {k: v for k, v in os.environ.items() if not k.startswith("CBJ_")}
    environment |= {"PYTHONPATH": str(folder), "CBJ_CACHE_DIR": str(folder / "cache")}

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, *argv],
            cwd=folder,
            env=environment,
            capture_output=True,
            text=True,
            timeout=300,
        )

    return copy, run
