"""The sizes a study deals: whole numbers of rounds within the simulator's cap."""

from __future__ import annotations

from solver.model.checks import check_rounds as checked_rounds
from solver.model.errors import ReportError


def check_rounds(label: str, rounds: int) -> int:
    """A number of simulated rounds for the report: a whole number from 1 to the simulator's cap.

    ``label`` names the option in the error (``counter rounds 0 is invalid: ...``).

    >>> check_rounds("table rounds", 10)
    10
    """
    return checked_rounds(rounds, label, ReportError)
