"""Reading a chart file for ``--strategy chart:FILE`` and ``cbj chart --check FILE``: the
API's readers of the parameters that name files (:data:`solver.api.call.FILES`).

The text is parsed by :mod:`solver.model.chart_file`; only the reading of the file is here.
"""

from __future__ import annotations

import os
from fractions import Fraction
from os import PathLike
from pathlib import Path
from typing import Any

from solver.api.reading import read_small_file, shown_name
from solver.model.chart_file import ChartGrid, chart_path, parse_chart
from solver.model.errors import StrategyError
from solver.model.outcomes import parse_mix
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


def mix(strategy: Any) -> tuple[tuple[Fraction, PlayerStrategy], ...]:
    """A table's strategies with their shares (``10% optimal, 60% chart:mine.csv``, or one
    name for every seat), each read as :func:`player` reads it.

    >>> [(str(share), p.key) for share, p in mix("25% chart, 75% Mimic-Dealer")]
    [('1/4', 'chart'), ('3/4', 'mimic-dealer')]
    """
    return tuple((share, player(name)) for share, name in parse_mix(strategy))


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
