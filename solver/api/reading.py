"""Reading a small file a user names (a chart, a daily series): a regular file only, and at
most a stated number of bytes of it, every failure one line of a domain error.

A FIFO or a device is refused without waiting on it (opened with ``O_NONBLOCK``, then its
kind checked), and a file larger than the limit is refused after reading one byte past it,
whatever its size claims to be, so memory stays bounded.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from solver.model.errors import CbjError


def shown_name(path: str | Path) -> str:
    """The file name as messages show it: itself if printable, else quoted and shortened.

    >>> shown_name("mine.csv"), shown_name("a\\nb")
    ('mine.csv', "'a\\\\nb'")
    """
    text = str(path)
    return text if text.isprintable() and len(text) <= 200 else repr(text[:60])


def read_small_file(
    path: str | Path, most: int, what: str, error: type[CbjError], hint: str
) -> bytes:
    """The bytes of file ``path`` (``what`` names it in messages: ``chart``), at most
    ``most`` of them; ``hint`` says what the file should be."""
    name = shown_name(path)
    try:
        # O_NONBLOCK: opening a FIFO with no writer must not wait for one.
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise error(f"{what} {name}: no such file") from None
    except OSError as problem:
        raise error(f"{what} {name} cannot be read: {problem.strerror or problem}") from None
    except (ValueError, TypeError):  # a name the system cannot hold, e.g. with a NUL character
        raise error(f"{what} {str(path)[:40]!r} is not a file name") from None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise error(f"{what} {name} is not a regular file: give {hint}")
        with os.fdopen(handle, "rb", closefd=False) as file:
            data = file.read(most + 1)
    except OSError as problem:
        raise error(f"{what} {name} cannot be read: {problem.strerror or problem}") from None
    finally:
        os.close(handle)
    if len(data) > most:
        raise error(f"{what} {name} is over {most:,} bytes: {hint} is smaller")
    return data


def daily_text(path: str | Path) -> str:
    """A pit's daily file (``cbj hold --from``) as text: a small regular file of UTF-8."""
    from solver.model.daily import MAX_DAILY_BYTES
    from solver.model.errors import SessionError

    data = read_small_file(
        path, MAX_DAILY_BYTES, "daily file", SessionError, "a CSV of date,rounds,win,drop"
    )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SessionError(f"daily file {shown_name(path)} is not UTF-8 text") from None
