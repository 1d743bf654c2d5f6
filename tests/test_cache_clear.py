"""``solver.cache_clear`` (``cbj cache clear``) through its own function: it removes every
entry ``solver.cache_info`` counted and says how many, leaves the cache empty (a second
clear removes none), and a game solved after it is stored again."""

from __future__ import annotations

from pathlib import Path

import pytest

import solver
from solver.model.errors import CbjError
from tests.test_cache_info import solved_into


def test_clearing_removes_every_entry_info_counted(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    for removed in range(3):
        solved_into(folder, removed)
    before = solver.cache_info(folder)
    assert before.entries == 3
    cleared = solver.cache_clear(folder)
    assert (cleared.path, cleared.entries) == (folder, before.entries)
    after = solver.cache_info(folder)
    assert after.entries == 0 and after.bytes < before.bytes
    assert solver.cache_clear(folder).entries == 0
    solved_into(folder, 0)  # the game solved again is stored again
    assert solver.cache_info(folder).entries == 1


def test_a_folder_given_as_empty_text_is_refused() -> None:
    with pytest.raises(CbjError, match="the cache folder is empty text"):
        solver.cache_clear("")
