"""Run a command as an unprivileged user, so permission tests mean something under root.

Root writes into read-only folders and reads every home, so a permission test run as
root proves nothing (CI runs as root).  Under root, :func:`unprivileged` runs the command
as the system's ``nobody`` user through ``setpriv`` (util-linux); as anyone else it runs
the command as it is.  :func:`shared_folder` makes a folder that user may enter.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

#: The unprivileged account used under root (present on every Debian-like system).
USER = "nobody"


def _account() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(USER)
    except KeyError:
        pytest.skip(f"no {USER!r} account to drop root's privileges to")


def unprivileged(argv: list[str]) -> list[str]:
    """``argv``, run as ``nobody`` (no supplementary groups) when the tests run as root."""
    if os.geteuid() != 0:
        return argv
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("setpriv (util-linux) is needed to drop root's privileges")
    account = _account()
    return [
        setpriv,
        f"--reuid={account.pw_uid}",
        f"--regid={account.pw_gid}",
        "--clear-groups",
        *argv,
    ]


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
