"""Reading a chart file for ``--strategy chart:FILE`` and ``cbj chart --check FILE``.

The text is parsed by :mod:`solver.model.chart_file`; only the reading of the file is here.
"""

from __future__ import annotations

from pathlib import Path

from solver.api.reading import read_small_file, shown_name
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
    """The bytes of chart file ``path``, every failure one :class:`StrategyError` line
    (:func:`~solver.api.reading.read_small_file`: a regular file, at most
    :data:`MAX_CHART_BYTES` of it)."""
    return read_small_file(
        path, MAX_CHART_BYTES, "chart", StrategyError, "a chart file as cbj chart writes it"
    )


def _parsed(data: bytes, path: str | Path) -> ChartGrid:
    """The chart in ``data``, read from ``path`` (named so in errors)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise StrategyError(
            f"chart {shown_name(path)} is not UTF-8 text: give a chart as cbj chart --format "
            "csv or json writes it"
        ) from None
    return parse_chart(text, shown_name(path))
