"""Reading a chart file for ``--strategy chart:FILE`` and ``cbj chart --check FILE``.

The text is parsed by :mod:`solver.model.chart_file`; only the reading of the file is here.
"""

from __future__ import annotations

from pathlib import Path

from solver.model.chart_file import ChartGrid, chart_path, parse_chart
from solver.model.errors import StrategyError
from solver.store.digest import sha256

#: The largest chart file read: a chart is a few kilobytes, with its comments.
MAX_CHART_BYTES = 1_000_000


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
    """The bytes of chart file ``path``, every failure one :class:`StrategyError` line."""
    where = Path(path)
    try:
        size = where.stat().st_size
        if size > MAX_CHART_BYTES:
            raise StrategyError(
                f"chart {path} is {size:,} bytes: a chart file is at most {MAX_CHART_BYTES:,}"
            )
        return where.read_bytes()
    except FileNotFoundError:
        raise StrategyError(f"chart {path}: no such file") from None
    except OSError as error:
        raise StrategyError(f"chart {path} cannot be read: {error.strerror or error}") from None
    except ValueError:  # a name the system cannot hold, e.g. with a NUL character
        raise StrategyError(f"chart {str(path)[:40]!r} is not a file name") from None


def _parsed(data: bytes, path: str | Path) -> ChartGrid:
    """The chart in ``data``, read from ``path`` (named so in errors)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise StrategyError(
            f"chart {path} is not UTF-8 text: give a chart as cbj chart --format csv or json "
            "writes it"
        ) from None
    return parse_chart(text, str(path))
