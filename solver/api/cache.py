"""The disk cache's commands: ``cbj cache info`` and ``cbj cache clear``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from solver.store.disk import CacheCleared, CacheInfo, DiskCache


def cache_info(
    directory: str | Path | None = None, *, warn: Callable[[str], None] | None = None
) -> CacheInfo:
    """Where the disk cache is, its size on disk, its entries and its size cap."""
    return DiskCache(directory, warn=warn).info()


def cache_clear(
    directory: str | Path | None = None, *, warn: Callable[[str], None] | None = None
) -> CacheCleared:
    """Delete every entry of the disk cache."""
    cache = DiskCache(directory, warn=warn)
    return CacheCleared(cache.directory, cache.clear())
