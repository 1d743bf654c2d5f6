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
from solver.model.numbers import number, percent, signed
from solver.model.paytable import BONUS_TIERS, tier_letters
from solver.model.rule_table import RULES_BY_NAME
from solver.model.rules import RULE_TABLE, Rules, format_ratio
from solver.present.formats import Format, figure_cells, rule_cell
from solver.results.figures import heading, outcome_words

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

    def render(self, fmt: Format) -> str:
        """The table as aligned text, CSV (notes as ``#`` lines) or Markdown."""
        if fmt is Format.CSV:
            return self._csv()
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

    def _csv(self) -> str:
        import csv

        out = io.StringIO()
        for note in (self.title, *self.notes):
            out.write(f"# {note}\n")
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.headers)
        writer.writerows(self.rows)
        return out.getvalue().rstrip("\n")

    def _markdown(self) -> str:
        lines = [f"### {self.title}", ""]
        lines.extend(f"{note}  " for note in self.notes)
        lines.append("")
        lines.append("| " + " | ".join(self.headers) + " |")
        lines.append("|" + "|".join("---" for _ in self.headers) + "|")
        lines.extend("| " + " | ".join(row) + " |" for row in self.rows)
        return "\n".join(lines)


def render_tables(tables: Sequence[Table], fmt: Format) -> str:
    """Several tables one after another, separated by a blank line."""
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
        (value_label(bonus), *(number(dist[label]) for label in labels)) for bonus, dist in rows
    )
    notes = (
        *rules_notes(rules),
        "shoe: full less the Bonus card and removed cards: "
        f"{' '.join(str(c) for c in removed) or 'none'}",
    )
    return Table("Dealer's final result by Bonus card", ("bonus", *labels), body, notes)


def _exact_cell(value: Any) -> str:
    """A number's exact fraction for a table's ``exact`` column, or a dash."""
    if isinstance(value, dict):
        return str(value.get("exact", "-"))
    return str(value) if isinstance(value, Fraction | int) else "-"


def advice_table(advice: Advice[Any]) -> Table:
    """One hand's stand and hit values as a table."""
    exact = isinstance(advice.stand, Fraction)
    rows: tuple[tuple[str, ...], ...] = (
        ("stand", signed(advice.stand), *((str(advice.stand),) if exact else ())),
        ("hit", signed(advice.hit), *((str(advice.hit),) if exact else ())),
        ("decision", advice.decision, *(("",) if exact else ())),
    )
    headers = ("choice", "expected value", *(("exact",) if exact else ()))
    hand = " ".join(map(str, advice.hand))
    notes = (*rules_notes(advice.rules), f"seen cards: {' '.join(map(str, advice.seen)) or 'none'}")
    return Table(f"Hand {hand} against Bonus card {advice.bonus}", headers, rows, notes)


def _optional(value: float | None, digits: int = 6) -> str:
    """A number for a table, or a dash where there is none."""
    return "-" if value is None or not math.isfinite(value) else number(value, digits)


def simulation_tables(result: SimulationResult) -> tuple[Table, ...]:
    """A simulation's estimates, outcome frequencies and (with several seats) each seat's."""
    shoe = (
        "a fresh shoe every round"
        if result.penetration is None
        else f"reshuffled after {result.penetration:g} of the shoe"
    )
    notes = (
        *rules_notes(result.rules),
        f"strategy {result.strategy}; {shoe}; seed {result.seed}",
        f"removed cards: {' '.join(str(c) for c in result.removed) or 'none'}",
    )
    overall = result.overall

    def estimate_row(label: str, estimate: Estimate) -> tuple[str, ...]:
        low, high = estimate.ci95
        exact_text = "-" if estimate.exact is None else number(estimate.exact)
        return (
            label,
            number(estimate.mean),
            _optional(estimate.standard_error),
            f"[{_optional(low)}, {_optional(high)}]",
            exact_text,
            _optional(estimate.z, 2),
        )

    headers = ("wager", "mean", "std error", "95% CI", "exact", "z")
    seats = f"{result.seats} seats" if result.seats > 1 else "1 seat"
    tables = [
        Table(
            f"Monte Carlo simulation: {result.rounds} rounds, {seats}, net per seat and round",
            headers,
            tuple(estimate_row(w, overall[w]) for w in WAGERS),
            notes,
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
                (wager, outcome_words(outcome), str(count), number(count / total), _optional(p))
            )
        if estimate.chi_square is not None:
            test = estimate.chi_square
            frequency_notes.append(
                f"{wager}: chi-square {test.statistic:.3f} on {test.dof} degrees of "
                f"freedom, p = {test.p_value:.4f}"
            )
    tables.append(
        Table(
            "Outcome frequencies (seat-rounds)",
            ("wager", "outcome", "count", "share", "exact"),
            tuple(rows),
            tuple(frequency_notes),
        )
    )
    if result.seats > 1:
        tables.append(
            Table(
                "By seat (seat 1 acts first)",
                ("seat", *headers),
                tuple(
                    (str(i + 1), *estimate_row(w, result.seat(i)[w]))
                    for i in range(result.seats)
                    for w in WAGERS
                ),
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
        rows.append((label, str(n), signed(mean), f"[{_optional(low)}, {_optional(high)}]"))
    return Table(
        "Seat 1's round at one unit by true count at the start of the round",
        ("true count", "rounds", "round EV", "95% CI"),
        tuple(rows),
        ("every round dealt, bet on or not; main wager of 1 and its Bonus wager",),
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
    rows = (
        ("count", f"{counter.name}: {tags}"),
        ("spread and ramp", f"{low_bet}-{high_bet}; {ramp or 'flat'}"),
        ("wong out below TC", "-" if counter.wong_out is None else f"{counter.wong_out:g}"),
        ("index plays", "; ".join(i.describe() for i in counter.indices) or "none"),
        ("rounds played / sat out", f"{statistics.rounds_played} / {statistics.rounds_sat_out}"),
        (
            "win per 100 rounds (units)",
            f"{_optional(100 * statistics.mean, 3)} "
            f"[{_optional(100 * low, 3)}, {_optional(100 * high, 3)}]",
        ),
        ("average bet (main units)", _optional(statistics.average_bet, 4)),
        (
            "edge per total wagered",
            f"{_optional(statistics.edge)} [{_optional(edge_low)}, {_optional(edge_high)}]",
        ),
        ("SD per round (units)", _optional(statistics.sd, 4)),
        ("N0 (rounds)", "-" if statistics.n0 is None else f"{statistics.n0:,.0f}"),
    )
    return Table(
        "Card counter at seat 1 (per round played; 95% intervals in brackets)",
        ("figure", "value"),
        rows,
        (
            "true count: running count less its expected drift, per deck not yet dealt",
            "edge: net win over main plus Bonus bets; N0 only when the counter is ahead",
        ),
    )


_EDGE_NAMES = {
    "bonus": "Bonus wager house edge",
    "round": "round house edge (per total wagered)",
}


def pay_solution_table(solution: PaySolution) -> Table:
    """A solved pay and its practical neighbours as a table."""
    rows = tuple(
        (
            str(c.pay),
            str(c.paytable),
            percent(c.bonus_edge),
            percent(c.round_edge),
            "exact" if c.pay == solution.pay else "below" if c.pay < solution.pay else "above",
        )
        for c in solution.candidates
    )
    table = solution.paytable
    shown = ["x" if t == solution.tier else plain_number(p) for t, p in table.as_dict().items()]
    named = (f"{t}={p}" for t, p in zip(tier_letters(table.tiers), shown, strict=True))
    pays = ":".join(shown) if table.standard else ",".join(named)
    tier = outcome_words(solution.tier)
    notes = (
        f"rules: {solution.rules.summary(omit=('paytable',))}; Bonus pays {pays}",
        f"target: {_EDGE_NAMES[solution.kind]} {percent(solution.target)} ({solution.target})",
        f"exact {tier} pay x: {solution.pay} = {number(solution.pay, 9)} to 1",
    )
    return Table(
        f"{tier} pay for a {solution.kind.value} house edge of {percent(solution.target)}",
        (
            "pay",
            "paytable",
            heading("bonus_house_edge"),
            heading("round_house_edge"),
            "vs exact pay",
        ),
        rows,
        notes,
    )


def search_table(result: SearchResult) -> Table:
    """Paytables found in an edge band as a table."""
    rows = tuple(
        (
            str(h.paytable),
            percent(h.bonus_edge),
            percent(h.round_edge),
            number(h.round_hit_frequency),
            number(h.round_standard_deviation, 4),
        )
        for h in result.hits
    )
    low, high = result.band
    heading_words = "paytable S:R:A" if result.tiers == BONUS_TIERS else "paytable"
    notes = (
        f"rules: {result.rules.summary(omit=('paytable',))}",
        f"{_EDGE_NAMES[result.kind]} from {percent(low)} to {percent(high)}; "
        f"whole pays {result.max_pay} >= {' >= '.join(tier_letters(result.tiers))} >= 1",
        f"{result.matches} paytable(s) in the band; showing the {len(result.hits)} "
        "closest to its middle",
    )
    return Table(
        "Paytables in the edge band",
        (
            heading_words,
            *(heading(k) for k in ("bonus_house_edge", "round_house_edge")),
            heading("round_hit_frequency"),
            heading("round_sd"),
        ),
        rows,
        notes,
    )


def variants_table(result: Variants) -> Table:
    """Headline numbers of several rule sets as a table, one row per variant.

    With exact main-wager EVs (``--exact``) an ``exact main EV`` column shows the fractions.
    """
    exact = any(isinstance(v.main_expected_value, Fraction) for v in result.variants)
    rows = tuple(
        (
            str(v.rules.decks),
            str(v.rules.dealer_stands_on),
            format_ratio(v.rules.blackjack_pays),
            RULES_BY_NAME["dealer_natural"].words(v.rules.dealer_natural),
            signed(v.main_expected_value),
            signed(v.bonus_expected_value),
            percent(v.round_house_edge),
            *((_exact_cell(v.main_expected_value),) if exact else ()),
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
            *(("exact main wager EV",) if exact else ()),
        ),
        rows,
        notes,
    )


def cache_table(info: Any) -> Table:
    """Where the disk cache is and how big (``cbj cache info``)."""
    megabytes = f"{info.bytes / 1024**2:.1f} MB of at most {info.max_bytes / 1024**2:.0f} MB"
    rows = (
        ("folder", str(info.path)),
        ("size on disk", megabytes),
        ("entries", str(info.entries)),
        ("usable", "yes" if info.usable else "no"),
    )
    return Table("Disk cache of solved games", ("", "value"), rows)
