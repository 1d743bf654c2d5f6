"""Run a command as an unprivileged user, so permission tests mean something under root.

Root writes into read-only folders and reads every home, so a permission test run as
root proves nothing (CI runs as root).  Under root, :func:`unprivileged` runs the command
as the system's ``nobody`` user through ``setpriv`` (util-linux); as anyone else it runs
the command as it is.  :func:`shared_folder` makes a folder that user may enter.
"""

from __future__ import annotations

import functools
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import pytest

#: The unprivileged account used under root (present on every Debian-like system).
USER = "nobody"


def _account() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(USER)
    except KeyError:
        _cannot(f"no {USER!r} account to drop root's privileges to")


#: Set (by .ci/run) to make a missing way to drop root's privileges a failure, not a skip.
REQUIRED = "CBJ_REQUIRE_UNPRIVILEGED"


def _cannot(reason: str) -> NoReturn:
    if os.environ.get(REQUIRED):
        pytest.fail(f"{reason} ({REQUIRED} is set: these tests must run)")
    pytest.skip(reason)


@functools.cache
def _drop() -> tuple[str, ...]:
    """The command prefix that runs a command as ``nobody``; checked once to import solver."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        _cannot("setpriv (util-linux) is needed to drop root's privileges")
    account = _account()
    prefix = (
        setpriv,
        f"--reuid={account.pw_uid}",
        f"--regid={account.pw_gid}",
        "--clear-groups",
    )
    probe = subprocess.run(
        [*prefix, sys.executable, "-c", "import solver"], capture_output=True, cwd="/"
    )
    if probe.returncode != 0:
        _cannot(f"{USER} cannot run this Python or import solver from {sys.prefix}")
    return prefix


def unprivileged(argv: list[str]) -> list[str]:
    """``argv``, run as ``nobody`` (no supplementary groups) when the tests run as root."""
    if os.geteuid() != 0:
        return argv
    return [*_drop(), *argv]


def run_cbj(
    arguments: list[str], cwd: Path, environment: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``cbj`` run unprivileged from ``cwd``, with a cache folder of its own there."""
    env = {**os.environ, "CBJ_CACHE_DIR": str(cwd / "cache"), **(environment or {})}
    env.pop("MPLCONFIGDIR", None)  # matplotlib's folder as a user would have it
    return subprocess.run(
        unprivileged([sys.executable, "-m", "solver", *arguments]),
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@contextmanager
def shared_folder() -> Iterator[Path]:
    """A fresh folder anyone may enter and write (pytest's own are root's only)."""
    folder = Path(tempfile.mkdtemp(prefix="cbj-unprivileged-"))
    folder.chmod(0o777)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
