"""Where solved games are kept between runs of ``cbj``: a disk cache the CLI passes in.

The library never caches on its own; :func:`default_cache` is what ``cbj`` uses, in
``$CBJ_CACHE_DIR`` or the user's cache folder.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

from solver.exact.game import GameResult
from solver.model.cards import Card
from solver.model.rules import Rules


def cache_dir() -> Path:
    """Where solved games are cached: ``$CBJ_CACHE_DIR``, else the user's cache folder."""
    configured = os.environ.get("CBJ_CACHE_DIR")
    return Path(configured) if configured else Path.home() / ".cache" / "community-blackjack"


class DiskCache:
    """Solved games on disk, keyed by the package version and every input of the solve."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def game(
        self,
        rules: Rules,
        removed: tuple[Card, ...],
        exact: bool,
        compute: Callable[[], GameResult[Any]],
    ) -> GameResult[Any]:
        """The stored game for these inputs, or ``compute()`` (then stored)."""
        from joblib import Memory

        stored = Memory(self.folder, verbose=0).cache(_computed, ignore=["compute"])
        ordered = tuple(sorted(removed, key=str))
        result: GameResult[Any] = stored(
            version("community-blackjack"), rules, ordered, exact, compute
        )
        return result


def _computed(
    package_version: str,
    rules: Rules,
    removed: tuple[Card, ...],
    exact: bool,
    compute: Callable[[], GameResult[Any]],
) -> GameResult[Any]:
    del package_version, rules, removed, exact  # the cache key only
    return compute()


class MemoryCache:
    """Solved games kept in memory for the life of the object (a notebook, a test session)."""

    def __init__(self) -> None:
        self.games: dict[tuple[Rules, tuple[str, ...], bool], GameResult[Any]] = {}

    def game(
        self,
        rules: Rules,
        removed: tuple[Card, ...],
        exact: bool,
        compute: Callable[[], GameResult[Any]],
    ) -> GameResult[Any]:
        """The game solved before for these inputs, or ``compute()`` (then kept)."""
        key = (rules, tuple(sorted(str(c) for c in removed)), exact)
        if key not in self.games:
            self.games[key] = compute()
        return self.games[key]


def default_cache() -> DiskCache:
    """The cache ``cbj`` uses unless told ``--no-cache``."""
    return DiskCache(cache_dir())
