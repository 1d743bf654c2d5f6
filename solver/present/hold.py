"""``cbj hold`` for people: the observed win beside its expectation, bands and verdict; a
daily series as a table and a control chart (observed hold per period against its bands).

Pure: a :class:`~solver.results.hold.HoldCheck` or :class:`~solver.results.hold.HoldSeries`
in, tables, a picture or an HTML page out.  The casino's two words are kept apart as the
catalogue names them: win over handle (the house edge's basis) and hold (win over drop).
"""

from __future__ import annotations

import io
from enum import StrEnum
from fractions import Fraction
from typing import Any

from solver.present.formats import Format
from solver.present.style import Cell, cell, count_cell, grouped, range_cell, thousands
from solver.present.tables import Table, dumps, render_tables, rules_notes
from solver.present.templates import Markup
from solver.present.templates import render as render_template
from solver.results.figures import heading
from solver.results.hold import FLAG_LEVEL, SADDLEPOINT_ERROR, HoldCheck, HoldSeries, Seating


class SeriesFormat(StrEnum):
    """What ``cbj hold --from`` prints: the text formats, or the control chart."""

    TABLE = "table"
    CSV = "csv"
    JSON = "json"
    MD = "md"
    PNG = "png"
    PDF = "pdf"
    SVG = "svg"
    HTML = "html"


#: The formats that are the control chart.
CHART_FORMATS = (SeriesFormat.PNG, SeriesFormat.PDF, SeriesFormat.SVG, SeriesFormat.HTML)


def _percent(value: Fraction | float | None) -> str:
    return "-" if value is None else f"{100 * float(value):+.3f}%"


def _method(method: str, error_bound: float | None) -> str:
    """How the distribution was found, with its error."""
    if method == "exact":
        return "exact fractions"
    if method == "saddlepoint":
        return (
            f"saddlepoint (relative error at most {SADDLEPOINT_ERROR:.0e} where checked "
            "against the FFT)"
        )
    bound = "" if error_bound is None else f", error at most {error_bound:.1e}"
    return f"{method.upper()}{bound}"


def _seating(seating: Seating) -> str:
    seats = f"{seating.seats} seats" if seating.seats > 1 else "1 seat"
    return f"{seats} sharing the dealer and the Bonus card; players: {seating.strategy}"


def hold_table(check: HoldCheck) -> Table:
    """The check: observed and expected win over the handle and over the drop (hold) with
    the casino's win, the tail either side, the bands, and the verdict in the notes."""
    drop = check.drop
    rows: list[tuple[str, Cell | str, Cell | str]] = [
        ("table-rounds", count_cell(check.rounds), "")
    ]
    keys: list[tuple[str | None, ...]] = [(None, None, None)]
    for when, over_handle, hold, win in (
        ("observed", check.observed_over_handle, check.observed_hold, check.observed_win),
        ("expected", check.expected_over_handle, check.expected_hold, check.expected_win),
    ):
        rows.append(
            (
                f"{heading('win_over_handle')} ({when})",
                cell("win_over_handle", over_handle),
                cell("casino_win", win),
            )
        )
        keys.append((None, "win_over_handle", "casino_win"))
        if drop is not None and hold is not None:
            rows.append((f"{heading('casino_hold')} ({when})", cell("casino_hold", hold), ""))
            keys.append((None, "casino_hold", None))
    rows += [
        (heading("hold_tail"), cell("hold_tail", check.p_value), ""),
        (
            f"{heading('hold_tail')} (normal approximation)",
            cell("hold_tail", check.normal_p_value),
            "",
        ),
    ]
    keys += [(None, "hold_tail", None)] * 2
    for band in check.bands:
        level = f"{float(band.level) * 100:g}% band"
        low, high = band.low_win, band.high_win
        rows.append(
            (
                f"{level} ({heading('win_over_handle')})",
                range_cell("win_over_handle", low / check.handle, high / check.handle),
                range_cell("casino_win", low, high),
            )
        )
        keys.append((None, "win_over_handle", "casino_win"))
        if drop is not None:
            rows.append(
                (
                    f"{level} ({heading('casino_hold')})",
                    range_cell("casino_hold", low / drop, high / drop),
                    "",
                )
            )
            keys.append((None, "casino_hold", None))
    amounts = f"handle {grouped(check.handle)} main units" + (
        " (no drop given: give --drop or --drop-to-handle for the hold)"
        if drop is None
        else f", drop {grouped(drop)}"
    )
    return Table(
        f"Hold check: {thousands(check.rounds)} table-rounds",
        ("figure", "value", heading("casino_win")),
        tuple(rows),
        (
            *rules_notes(check.rules),
            _seating(check.table),
            amounts,
            "win over handle is the house edge's basis; hold is the casino's word, the win "
            "over the drop",
            f"{heading('hold_tail')} either side: {_method(check.method, check.error_bound)}; "
            f"the casino's win has an SD of {grouped(check.standard_deviation, 2)} main units",
            f"verdict: {check.verdict}",
        ),
        tuple(keys),
    )  # fmt: skip


def series_table(series: HoldSeries) -> Table:
    """Every period: its rounds, observed and expected hold, 95% band, tails and flags."""
    rows = []
    keys = []
    for p in series.periods:
        band = next(b for b in p.bands if b.level == FLAG_LEVEL)
        flag = "outside" if p.outside else ""
        if p.outside_after_correction:
            flag += ", after correction too"
        rows.append(
            (
                p.date,
                count_cell(p.rounds),
                cell("casino_hold", p.hold),
                cell("casino_hold", p.expected_hold),
                range_cell("casino_hold", band.low_win / p.drop, band.high_win / p.drop),
                cell("hold_tail", p.p_value),
                cell("holm_tail", p.adjusted_p_value),
                flag,
            )
        )
        keys.append(
            (
                None,
                None,
                "casino_hold",
                "casino_hold",
                "casino_hold",
                "hold_tail",
                "holm_tail",
                None,
            )
        )
    unit = "" if series.unit == 1 else f"; amounts read at {float(series.unit):g} money a main unit"
    return Table(
        f"Hold by period: {len(series.periods)} periods",
        (
            "date",
            "table-rounds",
            f"{heading('casino_hold')} (observed)",
            f"{heading('casino_hold')} (expected)",
            "95% band",
            heading("hold_tail"),
            heading("holm_tail"),
            "flag",
        ),
        tuple(rows),
        (
            *rules_notes(series.rules),
            _seating(series.table) + unit,
            f"distribution: {_method(series.method, series.error_bound)}",
            f"verdict: {series.verdict}",
        ),
        tuple(keys),
    )


def series_tables(series: HoldSeries) -> list[Table]:
    """The periods, then the whole run as one check."""
    return [series_table(series), hold_table(series.total)]


def draw_series(series: HoldSeries, fmt: str, width: float = 9.0) -> bytes:
    """The control chart: each period's observed hold against its own 95% and 99% bands
    (a short period's are wider) and its expected hold, flagged periods marked (PNG, PDF
    or SVG); ``width`` in inches (3.6 for a phone)."""
    import matplotlib
    from matplotlib.figure import Figure  # no pyplot: nothing global, and quicker to load

    periods = series.periods
    edges = [i - 0.5 for i in range(len(periods) + 1)]

    def band(level: Fraction) -> tuple[list[float], list[float]]:
        low, high = [], []
        for p in periods:
            b = next(b for b in p.bands if b.level == level)
            low.append(100 * float(b.low_win / p.drop))
            high.append(100 * float(b.high_win / p.drop))
        return low, high

    narrow = width < 6
    rc = {"svg.hashsalt": "cbj", "svg.fonttype": "none", "pdf.fonttype": 42}
    with matplotlib.rc_context(rc):  # type: ignore[arg-type]
        figure = Figure(figsize=(width, 1.0 * width if narrow else 4.8), layout="constrained")
        axes = figure.subplots()
        for level, colour in ((Fraction(99, 100), "#dbe6f1"), (FLAG_LEVEL, "#a9c4e2")):
            low, high = band(level)
            axes.stairs(high, edges, baseline=low, fill=True, color=colour,
                        label=f"{float(level) * 100:g}% band")  # fmt: skip
        expected = [100 * float(p.expected_hold) for p in periods]
        axes.stairs(expected, edges, color="#3b75af", linewidth=1, label="expected")
        holds = [100 * float(p.hold) for p in periods]
        inside = [i for i, p in enumerate(periods) if not p.outside]
        outside = [i for i, p in enumerate(periods) if p.outside]
        size = 3 if narrow else 4
        axes.plot(inside, [holds[i] for i in inside], "o", color="#222222", markersize=size,
                  label="observed")  # fmt: skip
        if outside:
            axes.plot(outside, [holds[i] for i in outside], "D", color="#c0392b",
                      markersize=size + 2, label="outside the 95% band")  # fmt: skip
        step = max(1, -(-len(periods) // (5 if narrow else 12)))
        ticks = list(range(len(periods)))[::step]
        axes.set_xticks(ticks, [periods[i].date for i in ticks], rotation=45, ha="right",
                        fontsize=7 if narrow else 8)  # fmt: skip
        axes.set_xlim(edges[0], edges[-1])
        axes.set_ylabel("hold: win over drop (%)", fontsize=8 if narrow else 10)
        seats = f"{series.table.seats} seat" + ("s" if series.table.seats > 1 else "")
        axes.set_title(f"Hold by period: {seats}, {series.strategy}",
                       fontsize=8 if narrow else 11, wrap=True)  # fmt: skip
        axes.grid(axis="y", linewidth=0.3)
        figure.legend(loc="outside lower center", ncols=3 if narrow else 5,
                      fontsize=6 if narrow else 8, frameon=False)  # fmt: skip
        out = io.BytesIO()
        metadata: dict[str, Any] = {
            "svg": {"Date": None},
            "png": {"Software": None},
            "pdf": {"CreationDate": None, "Producer": None, "Creator": None},
        }[fmt]
        figure.savefig(out, format=fmt, metadata=metadata, dpi=120)
    return out.getvalue()


def table_html(table: Table) -> Markup:
    """A :class:`Table` as an HTML table, its title as caption and its notes after it."""
    return render_template("hold/table.html", table=table)


def render_series_page(series: HoldSeries) -> Markup:
    """An HTML page: the control chart as inline SVG, then the periods and the run."""
    svg = draw_series(series, "svg").decode()
    return render_template(
        "hold/page.html",
        title="Hold by period",
        verdict=series.verdict,
        svg=Markup(svg[svg.index("<svg") :]),  # matplotlib's drawing, after its XML prologue
        tables=Markup("").join(table_html(t) for t in series_tables(series)),
    )


def render_series(series: HoldSeries, fmt: SeriesFormat) -> bytes:
    """The control chart in ``fmt`` (png, pdf, svg, or an html page), as bytes."""
    if fmt is SeriesFormat.HTML:
        return render_series_page(series).encode()
    return draw_series(series, fmt.value)


def render(result: HoldCheck | HoldSeries, fmt: str, comments: bool = False) -> str | bytes:
    """``cbj hold``'s output in ``fmt``: JSON, tables, or (for a daily series) the control
    chart (png, pdf, svg or an html page)."""
    chosen = SeriesFormat(fmt)
    if chosen is SeriesFormat.JSON:
        return dumps(result.to_json())
    if isinstance(result, HoldCheck):
        if chosen in CHART_FORMATS:
            raise ValueError("a control chart needs a daily series")
        return render_tables([hold_table(result)], Format(fmt), comments)
    if chosen in CHART_FORMATS:
        return render_series(result, chosen)
    return render_tables(series_tables(result), Format(fmt), comments)
