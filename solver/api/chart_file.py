"""Reading a chart file for ``--strategy chart:FILE`` and ``cbj chart --check FILE``.

The text is parsed by :mod:`solver.model.chart_file`; only the reading of the file is here.
"""

from __future__ import annotations

from pathlib import Path

from solver.model.chart_file import ChartGrid, chart_path, parse_chart
from solver.model.errors import StrategyError

#: The largest chart file read: a chart is a few kilobytes, with its comments.
MAX_CHART_BYTES = 1_000_000


def load_chart(path: str | Path) -> ChartGrid:
    """The chart in file ``path`` (CSV or JSON, as ``cbj chart`` writes), named ``chart:path``."""
    where = Path(path)
    try:
        size = where.stat().st_size
        if size > MAX_CHART_BYTES:
            raise StrategyError(
                f"chart {path} is {size:,} bytes: a chart file is at most {MAX_CHART_BYTES:,}"
            )
        text = where.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise StrategyError(f"chart {path}: no such file") from None
    except UnicodeDecodeError:
        raise StrategyError(
            f"chart {path} is not UTF-8 text: give a chart as cbj chart --format csv or json "
            "writes it"
        ) from None
    except OSError as error:
        raise StrategyError(f"chart {path} cannot be read: {error.strerror or error}") from None
    except ValueError:  # a name the system cannot hold, e.g. with a NUL character
        raise StrategyError(f"chart {str(path)[:40]!r} is not a file name") from None
    return parse_chart(text, str(path))


def chart_for(strategy: str) -> ChartGrid | None:
    """The chart a strategy ``chart:FILE`` names, read; None for any other strategy name."""
    path = chart_path(strategy)
    return None if path is None else load_chart(path)
