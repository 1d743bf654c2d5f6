"""The disk store's folder checks: who may have written what the store reads.

The checksums of :mod:`solver.store.disk` guard against damage, not against a writer: whoever
can write the database can write an entry and its checksum.  So the folder (resolved, links
followed) and its database must be the user's own and writable by no one else, and the
database must not be a link; a path the system cannot name is refused before anything is
created.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable

#: Longest path and file name the system takes, where it does not say (POSIX's usual).
PATH_MAX, NAME_MAX = 4096, 255


class Unusable(Exception):
    """The cache folder or database cannot be used safely."""


def _system_limit(name: str, default: int) -> int:
    """A limit of the file system at its root (``PC_PATH_MAX``, ``PC_NAME_MAX``), else
    ``default``."""
    try:
        return int(os.pathconf(os.sep, name))
    except (AttributeError, ValueError, OSError):  # no pathconf (Windows), or no such limit
        return default


def too_long(path: str, file: str) -> str | None:
    """Why ``file`` in folder ``path`` cannot be named on this system, if it cannot."""
    name_max = _system_limit("PC_NAME_MAX", NAME_MAX)
    if len(os.fsencode(os.path.join(path, file))) >= _system_limit("PC_PATH_MAX", PATH_MAX):
        return "is too long a path for the system"
    if any(len(os.fsencode(part)) > name_max for part in path.split(os.sep)):
        return f"has a name longer than {name_max} bytes"
    return None


def shortened(text: str, most: int = 80) -> str:
    """``text``, cut in the middle past ``most`` characters (a path in a warning), each
    character that does not print (a NUL, a newline) written as its escape.

    >>> shortened("/" + "x" * 100, 20), shortened("a" + chr(0) + "b") == "a" + chr(92) + "x00b"
    ('/xxxxxxx...xxxxxxxxx (101 characters)', True)
    """
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    if len(text) <= most:
        return text
    half = most // 2
    return f"{text[: half - 2]}...{text[-half + 1 :]} ({len(text)} characters)"


def check_owned_private(path: str, what: str, shown: Callable[[], str]) -> None:
    """Refuse ``path`` unless it is ours and not writable by group or others; the message
    names it as ``shown()`` does."""
    info = os.lstat(path)
    problem = None
    getuid = getattr(os, "getuid", None)
    if stat.S_ISLNK(info.st_mode):
        problem = "is a symbolic link"
    elif getuid is not None and info.st_uid != getuid():
        problem = "is owned by another user"
    elif info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        problem = "is writable by other users"
    if problem is not None:
        raise Unusable(f"{what} {shown()} {problem}")


def describe(error: BaseException) -> str:
    """An OS or database error in a few words."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error).splitlines()[0] if str(error) else type(error).__name__
