"""``cbj hold`` for people: the observed hold beside its expectation, bands and verdict.

Pure: a :class:`~solver.results.hold.HoldCheck` in, a table out.
"""

from __future__ import annotations

from solver.present.game import bound_text
from solver.present.style import cell, count_cell, grouped, range_cell, thousands
from solver.present.tables import Table, rules_notes
from solver.results.figures import heading
from solver.results.hold import HoldCheck


def hold_table(check: HoldCheck) -> Table:
    """The check: observed and expected hold and the casino's win, the chance of a hold this
    far out, the bands of hold, and the verdict."""
    exact = (
        "exact"
        if check.method == "exact"
        else f"FFT, error at most {bound_text(check.error_bound)}"
    )
    rows: list[tuple[str, str, str]] = [
        ("rounds", count_cell(check.rounds), ""),
        (
            heading("hold_observed"),
            cell("hold_observed", check.observed_hold),
            cell("casino_win", check.observed_win),
        ),
        (
            heading("hold_expected"),
            cell("hold_expected", check.expected_hold),
            cell("casino_win", check.expected_win),
        ),
        (heading("hold_p_value"), cell("hold_p_value", check.p_value), ""),
        (heading("hold_normal_p_value"), cell("hold_normal_p_value", check.normal_p_value), ""),
    ]
    keys: list[tuple[str | None, ...]] = [
        (None, None, None),
        (None, "hold_observed", "casino_win"),
        (None, "hold_expected", "casino_win"),
        (None, "hold_p_value", None),
        (None, "hold_normal_p_value", None),
    ]
    for band in check.bands:
        rows.append(
            (
                f"{float(band.level) * 100:g}% {heading('hold_band')}",
                range_cell("hold_band", band.low, band.high),
                range_cell("casino_win", band.low_win, band.high_win),
            )
        )
        keys.append((None, "hold_band", "casino_win"))
    return Table(
        f"Hold check: {thousands(check.rounds)} rounds of {check.strategy} play",
        ("figure", "value", heading("casino_win")),
        tuple(rows),
        (
            *rules_notes(check.rules),
            f"{grouped(check.wagered)} main units wagered; the casino's expected win has an "
            f"SD of {grouped(check.standard_deviation, 2)} main units",
            f"{heading('hold_p_value')}: {exact}",
            "Each seat-round counts as one independent round.",
            f"verdict: {check.verdict}",
        ),
        tuple(keys),
    )
