"""The sizes a study deals: whole numbers of rounds within the simulator's cap."""

from __future__ import annotations

from solver.model.errors import ReportError
from solver.sim.run import MAX_ROUNDS


def check_rounds(label: str, rounds: int) -> int:
    """A number of simulated rounds for the report: a whole number from 1 to the simulator's cap.

    ``label`` names the option in the error (``counter rounds 0 is invalid: ...``).

    >>> check_rounds("table rounds", 10)
    10
    """
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise ReportError(f"{label} {rounds!r} is invalid: give 1 to {MAX_ROUNDS:,}")
    return rounds
