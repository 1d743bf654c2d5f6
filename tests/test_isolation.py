"""The suite never touches the user's home or cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from solver.store.disk import Cache, default_directory

from .conftest import ORIGINAL_CACHE_DIR, ORIGINAL_HOME, SESSION_ROOT


def test_the_cache_and_home_point_into_the_session_folder() -> None:
    for name in ("HOME", "CBJ_CACHE_DIR", "XDG_CACHE_HOME", "MPLCONFIGDIR"):
        assert Path(os.environ[name]).is_relative_to(SESSION_ROOT), name
    assert default_directory().is_relative_to(SESSION_ROOT)
    assert Cache().directory.is_relative_to(SESSION_ROOT)
    for original in (ORIGINAL_HOME, ORIGINAL_CACHE_DIR):
        if original and Path(original) != Path("/"):
            assert not default_directory().is_relative_to(original)


def test_subprocesses_inherit_the_private_cache() -> None:
    code = "from solver.store.disk import default_directory; print(default_directory())"
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert Path(found).is_relative_to(SESSION_ROOT)
