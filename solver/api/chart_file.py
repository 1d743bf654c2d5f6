"""Reading a chart file for ``--strategy chart:FILE`` and ``cbj chart --check FILE``: the
API's readers of the parameters that name files (:data:`solver.api.call.FILES`).

The text is parsed by :mod:`solver.model.chart_file`; only the reading of the file is here.
"""

from __future__ import annotations

import os
import stat
from os import PathLike
from pathlib import Path
from typing import Any

from solver.model.chart_file import ChartGrid, chart_path, parse_chart
from solver.model.errors import StrategyError
from solver.results.report import PlayerStrategy
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


def player(strategy: Any) -> PlayerStrategy:
    """A strategy as given (a name, ``chart:FILE``, or read already), its chart file read.

    >>> player(" Never-Bust ").key
    'never-bust'
    """
    if isinstance(strategy, PlayerStrategy):
        return strategy
    read = chart_and_digest(strategy)
    return PlayerStrategy(strategy) if read is None else PlayerStrategy(strategy, *read)


def players(names: Any) -> tuple[PlayerStrategy, ...]:
    """Strategies as a comma list or a sequence of names, each read as :func:`player` reads
    it (an empty name is kept, for the strategies' own message)."""
    listed = names.split(",") if isinstance(names, str) else list(names)
    return tuple(PlayerStrategy(n) if not n.strip() else player(n) for n in listed)


def chart_read(chart: Any) -> Any:
    """A practice session's chart: a file's name read, or a chart read already."""
    return load_chart(os.fspath(chart)) if isinstance(chart, str | PathLike) else chart


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
