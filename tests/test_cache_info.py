"""``solver.cache_info`` (``cbj cache info``) through its own function: a folder never used
is empty and stays unwritten, each game solved into it is one entry (solving it again
adds none), and the size is the database file's on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

import solver
from solver.model.errors import CbjError
from solver.store.disk import DATABASE_NAME
from tests.test_game import TINY_REMOVED


def solved_into(folder: Path, removed: int) -> None:
    """An exact game of a small shoe (``removed`` cards fewer out than the tiny shoe)
    solved into the disk cache at ``folder``."""
    solver.solve(removed=TINY_REMOVED[removed:], decks=1, exact=True, cache=solver.Cache(folder))


def test_a_folder_never_used_is_empty_and_is_not_written(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    info = solver.cache_info(folder)
    assert (info.path, info.entries, info.bytes) == (folder, 0, 0)
    assert info.usable and info.max_bytes > 0
    assert not folder.exists()


def test_each_game_solved_is_one_entry_and_the_size_is_the_file_s(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    for games, removed in ((1, 0), (2, 1), (2, 1), (3, 2)):  # the third is the second again
        solved_into(folder, removed)
        info = solver.cache_info(str(folder))
        assert info.entries == games
        assert info.bytes == (folder / DATABASE_NAME).stat().st_size > 0
        assert solver.cache_info(folder).to_json() == info.to_json()  # reading writes nothing


def test_a_folder_given_as_empty_text_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CbjError, match="the cache folder is empty text"):
        solver.cache_info("  ")
