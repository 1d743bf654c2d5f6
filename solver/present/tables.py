"""Results as tables for people: aligned text, CSV or Markdown, each headed by its rules.

JSON documents come from each result's own ``to_json()``; :func:`dumps` only lays them
out as text.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.model.cards import Card, value_label
from solver.model.checks import plain_number
from solver.model.normal import Z95
from solver.model.paytable import BONUS_TIERS, tier_letters
from solver.model.rule_table import RULES_BY_NAME
from solver.model.rules import RULE_TABLE, Rules, format_ratio
from solver.present.formats import Format, figure_cells, rule_cell
from solver.present.style import (
    Cell,
    cell,
    count_cell,
    exact_cell,
    interval_cell,
    minus,
    range_cell,
    show,
    thousands,
)
from solver.results.figures import heading, outcome_words, short_heading

if TYPE_CHECKING:  # the renderers need only the shapes of these results
    from solver.results.game import Advice
    from solver.results.paytable import PaySolution, SearchResult, Variants
    from solver.results.simulation import CounterStatistics, Estimate, SimulationResult


#: The wagers a simulation estimates, in the simulator's order (its ``Wager`` values).
WAGERS = ("main", "bonus", "round")


def dumps(document: dict[str, Any]) -> str:
    """JSON text of a result document, indented for reading."""
    import json  # with csv, loaded only by the formats that need it

    return json.dumps(document, indent=2)


@dataclass(frozen=True, slots=True)
class Table:
    """A titled table of text cells, with notes that say which rules produced it.

    ``keys`` (the shape of ``rows``, or empty) names the catalogue figure
    (:mod:`solver.results.figures`) each cell shows, ``None`` for a cell that is no figure:
    the tests hold every figure to its label, basis and value through it.
    """

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = field(default=())
    keys: tuple[tuple[str | None, ...], ...] = field(default=(), compare=False)

    def figures(self) -> list[tuple[str, str, str, str]]:
        """Every figure cell as (key, its row's first cell, its column's header, its text)."""
        return figure_cells(self.headers, self.rows, self.keys)

    def render(self, fmt: Format, comments: bool = False) -> str:
        """The table as aligned text, CSV (:func:`csv_text`) or Markdown."""
        if fmt is Format.CSV:
            return csv_text([self], comments)
        if fmt is Format.MD:
            return self._markdown()
        if fmt is Format.TABLE:
            return self._text()
        raise ValueError(f"a table cannot be rendered as {fmt}")

    def _text(self) -> str:
        widths = [
            max(len(h), *(len(r[i]) for r in self.rows)) if self.rows else len(h)
            for i, h in enumerate(self.headers)
        ]
        lines = [self.title, *self.notes, ""]
        lines.append(
            "  ".join(h.ljust(w) for h, w in zip(self.headers, widths, strict=True)).rstrip()
        )
        lines.append("  ".join("-" * w for w in widths))
        lines.extend(
            "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
            for row in self.rows
        )
        return "\n".join(lines)

    def csv_records(self) -> tuple[list[str], list[dict[str, Any]]]:
        """The table as tidy CSV columns and one record per row: a figure's plain number
        (:class:`~solver.present.style.Cell`) under its header with its unit, a range in two
        columns, a dash left empty, and where a column mixes units, a unit column beside."""
        columns: list[str] = []
        plans: list[tuple[list[str], list[str], str | None]] = []
        for i, header in enumerate(self.headers):
            cells = [c for row in self.rows if isinstance(c := row[i], Cell)]
            parts = list(dict.fromkeys(p for c in cells for p in c.parts)) or [""]
            units = {c.unit for c in cells}
            unit = next(iter(units)) if len(units) == 1 else ""
            names = [f"{header}{part}" + (f" ({unit})" if unit else "") for part in parts]
            mixed = len(units) > 1
            unit_name = "unit" if header == "value" else f"{header} unit"
            columns += [*names, *([unit_name] if mixed else [])]
            plans.append((parts, names, unit_name if mixed else None))
        records = []
        for row in self.rows:
            record: dict[str, Any] = {}
            for text, (parts, names, unit_column) in zip(row, plans, strict=True):
                for part, name in zip(parts, names, strict=True):
                    record[name] = _plain_part(text, part)
                if unit_column is not None:
                    record[unit_column] = text.unit if isinstance(text, Cell) else ""
            records.append(record)
        return columns, records

    def _markdown(self) -> str:
        lines = [f"### {self.title}", ""]
        lines.extend(f"{note}  " for note in self.notes)
        lines.append("")
        lines.append("| " + " | ".join(self.headers) + " |")
        lines.append("|" + "|".join("---" for _ in self.headers) + "|")
        lines.extend("| " + " | ".join(row) + " |" for row in self.rows)
        return "\n".join(lines)


def _plain_part(text: str, part: str) -> Any:
    """What a CSV writes for one part of a cell: a figure's plain number, a dash as
    nothing, other text as it is."""
    if isinstance(text, Cell):
        return text.plain[text.parts.index(part)] if part in text.parts else ""
    if part:
        return ""
    return "" if text in ("-", "\u2013", "\u2014") else text


def csv_text(tables: Sequence[Table], comments: bool = False) -> str:
    """Tables as one tidy CSV that loads into pandas or a spreadsheet as it is: numbers as
    numbers, units in the headers, several tables stacked under the union of their columns
    with a first column ``table`` naming each; titles and notes as ``#`` lines only with
    ``comments``."""
    import csv

    columns: list[str] = []
    rows: list[dict[str, Any]] = []
    stacked = len(tables) > 1
    for table in tables:
        names, records = table.csv_records()
        columns += [n for n in names if n not in columns]
        rows += [({"table": table.title} if stacked else {}) | r for r in records]
    out = io.StringIO()
    if comments:
        for table in tables:
            out.writelines(f"# {line}\n" for line in (table.title, *table.notes))
    writer = csv.DictWriter(
        out, ["table", *columns] if stacked else columns, restval="", lineterminator="\n"
    )
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().rstrip("\n")


def render_tables(tables: Sequence[Table], fmt: Format, comments: bool = False) -> str:
    """Several tables: one tidy CSV (:func:`csv_text`), or one after another, separated by
    a blank line."""
    if fmt is Format.CSV:
        return csv_text(tables, comments)
    return "\n\n".join(t.render(fmt) for t in tables)


def rules_notes(rules: Rules) -> tuple[str, ...]:
    """Notes naming the rules a result was computed under."""
    return (f"rules: {rules.summary()}",)


def rules_table(rules: Rules) -> Table:
    """The rules in force, each with its default and meaning (``cbj rules``)."""
    values, default = rules.to_json(), Rules().to_json()
    rows = tuple(
        (
            rule.label,
            rule.flag,
            rule_cell(values[rule.name]),
            rule_cell(default[rule.name]),
            rule.meaning,
        )
        for rule in RULE_TABLE
    )
    return Table(
        "Rules in force",
        ("rule", "option", "value", "default", "meaning"),
        rows,
        ("values as the options take them (cbj --help lists them)",),
    )


def dealer_table(
    rules: Rules, removed: Sequence[Card], rows: Sequence[tuple[int, dict[str, Fraction]]]
) -> Table:
    """Dealer result distributions, one row per Bonus card."""
    labels = tuple(rows[0][1]) if rows else ()
    body = tuple(
        (value_label(bonus), *(cell("dealer_result", dist[label]) for label in labels))
        for bonus, dist in rows
    )
    notes = (
        *rules_notes(rules),
        f"{heading('dealer_result')}; shoe: full less the Bonus card and removed cards: "
        f"{' '.join(str(c) for c in removed) or 'none'}",
    )
    return Table(
        "Dealer's final result by Bonus card",
        ("Bonus card", *labels),
        body,
        notes,
        tuple((None, *("dealer_result" for _ in labels)) for _ in body),
    )


def advice_table(advice: Advice[Any]) -> Table:
    """One hand's stand and hit values as a table."""
    exact = isinstance(advice.stand, Fraction)
    rows: tuple[tuple[str, ...], ...] = (
        ("stand", cell("hand_ev", advice.stand), *((exact_cell(advice.stand),) if exact else ())),
        ("hit", cell("hand_ev", advice.hit), *((exact_cell(advice.hit),) if exact else ())),
    )
    headers = ("choice", short_heading("hand_ev"), *(("exact",) if exact else ()))
    hand = " ".join(map(str, advice.hand))
    notes = (*rules_notes(advice.rules), f"seen cards: {' '.join(map(str, advice.seen)) or 'none'}")
    keys = ((None, "hand_ev", None), (None, "hand_ev", None))
    return Table(
        f"Hand {hand} against Bonus card {advice.bonus}",
        headers,
        rows,
        (*notes, f"decision: {advice.decision}"),
        tuple(k[: len(headers)] for k in keys),
    )


def simulation_tables(result: SimulationResult) -> tuple[Table, ...]:
    """A simulation's estimates, outcome frequencies and (with several seats) each seat's."""
    shoe = (
        f"a continuous shuffler, its tray {result.buffer} cards"
        if result.buffer is not None
        else "a fresh shoe every round"
        if result.penetration is None
        else f"reshuffled after {result.penetration:g} of the shoe"
    )
    notes = (
        *rules_notes(result.rules),
        f"strategy {result.strategy}; {shoe}; seed {result.seed}",
        f"removed cards: {' '.join(str(c) for c in result.removed) or 'none'}",
        "each wager's figures per unit staked on it (the round's per main unit); EV: the "
        "exact solver's",
    )
    overall = result.overall
    keys = (None, "simulated_mean", "standard_error", "simulated_mean", "simulated_mean",
            "z_score")  # fmt: skip

    def estimate_row(label: str, estimate: Estimate) -> tuple[str, ...]:
        low, high = estimate.ci95
        exact_key = {"main": "main_ev", "bonus": "bonus_ev", "round": "round_ev"}[label]
        return (
            label,
            cell("simulated_mean", estimate.mean),
            cell("standard_error", estimate.standard_error),
            range_cell("simulated_mean", low, high) if math.isfinite(low) else "-",
            "-" if estimate.exact is None else cell(exact_key, estimate.exact),
            cell("z_score", estimate.z),
        )

    headers = ("wager", heading("simulated_mean"), heading("standard_error"),
               "95% interval", "EV", heading("z_score"))  # fmt: skip
    seats = f"{result.seats} seats" if result.seats > 1 else "1 seat"
    main_rows = tuple(estimate_row(w, overall[w]) for w in WAGERS)
    tables = [
        Table(
            f"Monte Carlo simulation: {thousands(result.rounds)} rounds, {seats}, net per "
            "seat and round",
            headers,
            main_rows,
            notes,
            tuple(keys for _ in main_rows),
        )
    ]
    rows: list[tuple[str, ...]] = []
    frequency_notes: list[str] = []
    exact = {str(w): figure for w, figure in result.exact.items()}
    for wager in WAGERS[:2]:
        estimate = overall[wager]
        total = sum(estimate.frequencies.values())
        exact_probabilities = exact.get(wager)
        probabilities = None if exact_probabilities is None else exact_probabilities.probabilities
        for outcome, count in estimate.frequencies.items():
            p = None if probabilities is None else float(probabilities[outcome])
            rows.append(
                (
                    wager,
                    outcome_words(outcome),
                    cell("simulated_count", count),
                    cell("simulated_share", count / total),
                    cell(f"{wager}_probability", p),
                )
            )
        if estimate.chi_square is not None:
            test = estimate.chi_square
            frequency_notes.append(
                f"{wager}: chi-square {test.statistic:.3f} on {test.dof} degrees of "
                f"freedom, {heading('chi_square_p')} {show('chi_square_p', test.p_value)}"
            )
    tables.append(
        Table(
            "Outcome frequencies (seat-rounds)",
            (
                "wager",
                "outcome",
                heading("simulated_count"),
                heading("simulated_share"),
                "probability",
            ),
            tuple(rows),
            tuple(frequency_notes),
            tuple(
                (None, None, "simulated_count", "simulated_share", f"{r[0]}_probability")
                for r in rows
            ),
        )
    )
    if result.seats > 1:
        seat_rows = tuple(
            (count_cell(i + 1), *estimate_row(w, result.seat(i)[w]))
            for i in range(result.seats)
            for w in WAGERS
        )
        tables.append(
            Table(
                "By seat (seat 1 acts first)",
                ("seat", *headers),
                seat_rows,
                keys=tuple((None, *keys) for _ in seat_rows),
            )
        )
    if result.counter is not None:
        tables += [counter_table(result.counter), true_count_table(result.counter)]
    return tuple(tables)


def true_count_table(statistics: CounterStatistics) -> Table:
    """What seat 1's round paid at one unit in each true count bucket."""
    rows = []
    for k, n, mean, error in statistics.rounds_by_true_count:
        low, high = mean - Z95 * error, mean + Z95 * error
        label = f"{k} or less" if k == -10 else f"{k} or more" if k == 10 else f"{k} to {k + 1}"
        interval = range_cell("simulated_round_ev", low, high) if math.isfinite(low) else "-"
        bucket = Cell(minus(label), (k,))  # a CSV writes the bucket's own number
        rows.append((bucket, count_cell(n), cell("simulated_round_ev", mean), interval))
    return Table(
        "Seat 1's round at one unit by true count at the start of the round",
        ("true count", "rounds", heading("simulated_round_ev"), "95% interval"),
        tuple(rows),
        (
            "every round dealt, bet on or not; main wager of 1 and its Bonus wager",
            "true count: from k to k + 1, and the ends -10 or less and 10 or more (a CSV writes k)",
        ),
        tuple((None, None, "simulated_round_ev", "simulated_round_ev") for _ in rows),
    )


def counter_table(statistics: CounterStatistics) -> Table:
    """The simulated counter's bets and results, per round it played."""
    counter = statistics.counter
    low, high = statistics.ci95
    edge_low, edge_high = statistics.edge_ci95
    tags = " ".join(
        f"{rank}={tag:+d}" if tag else f"{rank}=0" for rank, tag in counter.tags.items()
    )
    ramp = ", ".join(f"{units} from TC {tc:g}" for tc, units in counter.steps)
    low_bet, high_bet = counter.spread
    figures: list[tuple[str, str | Cell]] = [
        ("counter_rounds", cell("counter_rounds", statistics.rounds_played)),
        (
            "counter_win",
            _interval_or_dash("counter_win", 100 * statistics.mean, 100 * low, 100 * high),
        ),
        ("average_bet", cell("average_bet", statistics.average_bet)),
        (
            "counter_house_edge",
            _interval_or_dash("counter_house_edge", statistics.edge, edge_low, edge_high),
        ),
        ("counter_sd", cell("counter_sd", statistics.sd)),
        ("n0", cell("n0", statistics.n0)),
    ]
    return Table(
        "Card counter at seat 1 (per round played; 95% intervals in brackets)",
        ("figure", "value"),
        tuple((heading(key), text) for key, text in figures),
        (
            f"count {counter.name}: {tags}",
            f"spread {low_bet}-{high_bet}; ramp {ramp or 'flat'}; wong out below TC "
            + ("-" if counter.wong_out is None else f"{counter.wong_out:g}")
            + f"; rounds sat out {thousands(statistics.rounds_sat_out)}",
            f"index plays: {'; '.join(i.describe() for i in counter.indices) or 'none'}",
            "true count: running count less its expected drift, per deck not yet dealt",
            "house edge against the counter: net win over main plus Bonus bets; N0 only when "
            "the counter is ahead",
        ),
        tuple((None, key) for key, _ in figures),
    )


def _interval_or_dash(key: str, value: float, low: float, high: float) -> str | Cell:
    """A figure with its 95% interval, or a dash where it is not finite."""
    if not all(math.isfinite(x) for x in (value, low, high)):
        return "-"
    return interval_cell(key, value, low, high)


#: Greater than or equal to, as every output writes it.
AT_LEAST = "\u2265"
AT_MOST = "\u2264"
_EDGE_KEYS = {"bonus": "bonus_house_edge", "round": "round_house_edge"}


def pay_solution_table(solution: PaySolution) -> Table:
    """A solved pay and its practical neighbours as a table."""
    rows = tuple(
        (
            cell("pay_solution", c.pay),
            str(c.paytable),
            cell("bonus_house_edge", c.bonus_edge),
            cell("round_house_edge", c.round_edge),
            "exact" if c.pay == solution.pay else "below" if c.pay < solution.pay else "above",
        )
        for c in solution.candidates
    )
    table = solution.paytable
    shown = ["x" if t == solution.tier else plain_number(p) for t, p in table.as_dict().items()]
    named = (f"{t}={p}" for t, p in zip(tier_letters(table.tiers), shown, strict=True))
    pays = ":".join(shown) if table.standard else ",".join(named)
    tier = outcome_words(solution.tier)
    target_key = _EDGE_KEYS[solution.kind]
    target = show(target_key, solution.target)
    notes = (
        f"rules: {solution.rules.summary(omit=('paytable',))}; Bonus pays {pays}",
        f"target: {heading(target_key)} {target} ({solution.target})",
        f"exact {tier} pay x: {solution.pay} = {show('break_even_pay', solution.pay)}",
    )
    return Table(
        f"{tier} pay for a {solution.kind.value} house edge of {target}",
        (
            "pay",
            "paytable",
            heading("bonus_house_edge"),
            heading("round_house_edge"),
            "vs exact pay",
        ),
        rows,
        notes,
        tuple(("pay_solution", None, "bonus_house_edge", "round_house_edge", None) for _ in rows),
    )


def search_table(result: SearchResult) -> Table:
    """Paytables found in an edge band as a table."""
    keys = ("bonus_house_edge", "round_house_edge", "round_hit_frequency", "round_sd")
    rows = tuple(
        (
            str(h.paytable),
            cell(keys[0], h.bonus_edge),
            cell(keys[1], h.round_edge),
            cell(keys[2], h.round_hit_frequency),
            cell(keys[3], h.round_standard_deviation),
        )
        for h in result.hits
    )
    low, high = result.band
    edge = _EDGE_KEYS[result.kind]
    notes = (
        f"rules: {result.rules.summary(omit=('paytable',))}",
        f"{heading(edge)} from {show(edge, low)} to {show(edge, high)}; "
        f"whole pays {result.max_pay} {AT_LEAST} "
        f"{f' {AT_LEAST} '.join(tier_letters(result.tiers))} {AT_LEAST} 1",
        f"{result.matches} paytable(s) in the band; showing the {len(result.hits)} "
        "closest to its middle"
        + (
            "; paytable S:R:A (suited match : rank match : adjacent)"
            if result.tiers == BONUS_TIERS
            else ""
        ),
    )
    return Table(
        "Paytables in the edge band",
        ("paytable", *(heading(k) for k in keys)),
        rows,
        notes,
        tuple((None, *keys) for _ in rows),
    )


def variants_table(result: Variants) -> Table:
    """Headline numbers of several rule sets as a table, one row per variant.

    With exact main-wager EVs (``--exact``) an ``exact`` column shows the main wager EV's
    fraction.
    """
    exact = any(isinstance(v.main_expected_value, Fraction) for v in result.variants)
    keys = (None, None, None, None, "main_ev", "bonus_ev", "round_house_edge")
    rows = tuple(
        (
            count_cell(v.rules.decks),
            count_cell(v.rules.dealer_stands_on),
            format_ratio(v.rules.blackjack_pays),
            RULES_BY_NAME["dealer_natural"].words(v.rules.dealer_natural),
            cell("main_ev", v.main_expected_value),
            cell("bonus_ev", v.bonus_expected_value),
            cell("round_house_edge", v.round_house_edge),
            *((exact_cell(v.main_expected_value),) if exact else ()),
        )
        for v in result.variants
    )
    notes = (
        *rules_notes(result.rules),
        "each row changes only the rules in its first four columns; the paytable and "
        "bonus ratio are those in force",
    )
    headers = ("decks", "stands on", "blackjack", "dealer natural", heading("main_ev"))
    return Table(
        "Rule variants",
        (
            *headers,
            heading("bonus_ev"),
            heading("round_house_edge"),
            *(("exact",) if exact else ()),
        ),
        rows,
        notes,
        tuple((*keys, *((None,) if exact else ())) for _ in rows),
    )


def cache_table(info: Any) -> Table:
    """Where the disk cache is and how big (``cbj cache info``)."""
    megabytes = f"{info.bytes / 1024**2:.1f} MB of at most {info.max_bytes / 1024**2:.0f} MB"
    rows = (
        ("folder", str(info.path)),
        ("size on disk", megabytes),
        ("entries", count_cell(info.entries)),
        ("usable", "yes" if info.usable else "no"),
    )
    return Table("Disk cache of solved games", ("item", "value"), rows)
