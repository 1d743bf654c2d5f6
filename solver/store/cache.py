"""``cbj cache info`` and ``cbj cache clear`` as computations: the disk cache's state, and
clearing it.

(A folder is typed ``PathLike``, not ``pathlib.Path``: every command loads this module, and a
cache hit loads no pathlib.)
"""

from __future__ import annotations

from collections.abc import Callable
from os import PathLike, fspath

from solver.model.errors import OutputError
from solver.store.disk import CacheCleared, CacheInfo, DiskCache


def cache_info(
    *, directory: str | PathLike[str] | None, warn: Callable[[str], None] | None
) -> CacheInfo:
    """Where the disk cache is, its size on disk, its entries and its size cap."""
    _named(directory)
    return DiskCache(None if directory is None else fspath(directory), warn=warn).info()


def cache_clear(
    *, directory: str | PathLike[str] | None, warn: Callable[[str], None] | None
) -> CacheCleared:
    """Delete every entry of the disk cache."""
    _named(directory)
    cache = DiskCache(None if directory is None else fspath(directory), warn=warn)
    return CacheCleared(cache.directory, cache.clear())


def _named(directory: str | PathLike[str] | None) -> None:
    """Refuse a folder given as empty text (it would be the working folder)."""
    if isinstance(directory, str) and not directory.strip():
        raise OutputError("the cache folder is empty text: name a folder, or give None")


#: ``cbj cache clear``'s result, by the command's name.
CacheClearResult = CacheCleared
