"""``cbj hold`` for people: the observed hold beside its expectation, bands and verdict.

Pure: a :class:`~solver.results.hold.HoldCheck` in, a table out.
"""

from __future__ import annotations

from solver.model.numbers import number
from solver.present.tables import Table, rules_notes
from solver.results.hold import HoldCheck


def _percent(value: float) -> str:
    return f"{100 * value:+.3f}%"


def hold_table(check: HoldCheck) -> Table:
    """The check: observed and expected hold and win, the tail probability, bands, verdict."""
    exact = "exact" if check.method == "exact" else f"FFT, error at most {check.error_bound:.1e}"
    rows: list[tuple[str, str, str]] = [
        ("rounds", f"{check.rounds:,}", f"{float(check.wagered):,.1f} main units wagered"),
        (
            "observed",
            _percent(float(check.observed_hold)),
            f"casino win {number(check.observed_win, 2)} main units",
        ),
        (
            "expected",
            _percent(float(check.expected_hold)),
            f"casino win {number(check.expected_win, 2)}, SD {check.standard_deviation:,.2f}",
        ),
        ("P(at least this far, either side)", f"{check.p_value:.4g}", exact),
        ("normal approximation (reference)", f"{check.normal_p_value:.4g}", ""),
    ]
    for band in check.bands:
        rows.append(
            (
                f"{float(band.level) * 100:g}% band of hold",
                f"{_percent(band.low)} to {_percent(band.high)}",
                f"casino win {number(band.low_win, 2)} to {number(band.high_win, 2)}",
            )
        )
    rows.append(("verdict", check.verdict, ""))
    return Table(
        f"Hold check: {check.rounds:,} rounds of {check.strategy} play",
        ("figure", "value", "detail"),
        tuple(rows),
        (*rules_notes(check.rules), "Each seat-round counts as one independent round."),
    )
