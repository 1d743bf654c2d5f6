"""What a command that writes files gives back: the files written, and the charts behind them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from solver.model.rules import Rules
from solver.results.charts import Chart


@dataclass(frozen=True, slots=True)
class Written:
    """Files a command wrote, and the charts or report behind them."""

    rules: Rules
    paths: tuple[Path, ...]
    charts: tuple[Chart, ...] = ()
