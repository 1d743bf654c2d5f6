"""Reading a chart file for ``--strategy chart:FILE`` and ``cbj chart --check FILE``.

The text is parsed by :mod:`solver.model.chart_file`; only the reading of the file is here.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from solver.model.chart_file import ChartGrid, chart_path, parse_chart
from solver.model.errors import StrategyError
from solver.store.digest import sha256

#: The largest chart file read: ``cbj chart --format json`` writes about 26 kB, a CSV 2 kB.
MAX_CHART_BYTES = 256 * 1024


def load_chart(path: str | Path) -> ChartGrid:
    """The chart in file ``path`` (CSV or JSON, as ``cbj chart`` writes), named ``chart:path``."""
    return _parsed(_chart_bytes(path), path)


def chart_for(strategy: str) -> ChartGrid | None:
    """The chart a strategy ``chart:FILE`` names, read; None for any other strategy name."""
    path = chart_path(strategy)
    return None if path is None else load_chart(path)


def chart_and_digest(strategy: str) -> tuple[ChartGrid, str] | None:
    """:func:`chart_for` with the SHA-256 of the very bytes parsed (read once: a file
    changed in between cannot give a chart that its digest does not name)."""
    path = chart_path(strategy)
    if path is None:
        return None
    data = _chart_bytes(path)
    return _parsed(data, path), sha256(data)


def _chart_bytes(path: str | Path) -> bytes:
    """The bytes of chart file ``path``, every failure one :class:`StrategyError` line.

    Only a regular file is read (a FIFO or a device is refused without waiting on it), and
    at most :data:`MAX_CHART_BYTES` of it, whatever its size claims to be.
    """
    name = _shown(path)
    try:
        # O_NONBLOCK: opening a FIFO with no writer must not wait for one.
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise StrategyError(f"chart {name}: no such file") from None
    except OSError as error:
        raise StrategyError(f"chart {name} cannot be read: {error.strerror or error}") from None
    except (ValueError, TypeError):  # a name the system cannot hold, e.g. with a NUL character
        raise StrategyError(f"chart {str(path)[:40]!r} is not a file name") from None
    try:
        regular = stat.S_ISREG(os.fstat(handle).st_mode)
        if not regular:
            raise StrategyError(
                f"chart {name} is not a regular file: give a chart file as cbj chart writes it"
            )
        with os.fdopen(handle, "rb", closefd=False) as file:
            data = file.read(MAX_CHART_BYTES + 1)
    except OSError as error:
        raise StrategyError(f"chart {name} cannot be read: {error.strerror or error}") from None
    finally:
        os.close(handle)
    if len(data) > MAX_CHART_BYTES:
        raise StrategyError(
            f"chart {name} is over {MAX_CHART_BYTES:,} bytes: a chart file is a few kilobytes"
        )
    return data


def _shown(path: str | Path) -> str:
    """The file name as messages show it: itself if printable, else quoted and shortened.

    >>> _shown("mine.csv"), _shown("a\\nb")
    ('mine.csv', "'a\\\\nb'")
    """
    text = str(path)
    return text if text.isprintable() and len(text) <= 200 else repr(text[:60])


def _parsed(data: bytes, path: str | Path) -> ChartGrid:
    """The chart in ``data``, read from ``path`` (named so in errors)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise StrategyError(
            f"chart {_shown(path)} is not UTF-8 text: give a chart as cbj chart --format csv or "
            "json writes it"
        ) from None
    return parse_chart(text, _shown(path))
