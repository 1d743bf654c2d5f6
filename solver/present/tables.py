"""Results as tables for people: aligned text, CSV or Markdown, each headed by its rules.

JSON documents come from each result's own ``to_json()``; :func:`dumps` only lays them
out as text.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from solver.exact.bonus import BonusAnalysis
from solver.exact.design import PAY_TIERS, EdgeKind, PaySolution, SearchResult, Variants
from solver.exact.game import Advice, GameResult
from solver.model.cards import Card, value_label
from solver.model.numbers import number, percent, signed
from solver.model.rules import RULE_MEANINGS, Rules, format_ratio
from solver.sim import Estimate, SimulationResult, Wager


def dumps(document: dict[str, Any]) -> str:
    """JSON text of a result document, indented for reading."""
    return json.dumps(document, indent=2)


class Format(StrEnum):
    """Output formats a command can print."""

    TABLE = "table"
    CSV = "csv"
    JSON = "json"
    MD = "md"


@dataclass(frozen=True, slots=True)
class Table:
    """A titled table of text cells, with notes that say which rules produced it."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = field(default=())

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
    default = Rules().to_json()
    rows = tuple(
        (name, rule_cell(value), rule_cell(default[name]), RULE_MEANINGS[name])
        for name, value in rules.to_json().items()
    )
    return Table("Rules in force", ("rule", "value", "default", "meaning"), rows)


def rule_cell(value: Any) -> str:
    """A rule's JSON value as a table cell: a paytable as ``S:R:A``, booleans as yes/no."""
    if isinstance(value, dict):
        return ":".join(str(v) for v in value.values())
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def bonus_table(analysis: BonusAnalysis) -> Table:
    """The Bonus wager's return table with its summary figures as notes."""
    rows = tuple(
        (
            line.outcome.value,
            str(line.pays),
            str(line.combinations),
            number(line.probability),
            number(line.return_),
        )
        for line in analysis.lines
    )
    rows += (
        ("total", "", str(analysis.total_combinations), number(1), number(analysis.expected_value)),
    )
    removed = " ".join(str(c) for c in analysis.removed) or "none"
    notes = (
        *rules_notes(analysis.rules),
        f"removed cards: {removed}",
        f"expected value {number(analysis.expected_value)} ({analysis.expected_value}), "
        f"house edge {number(analysis.house_edge * 100, 4)}%, "
        f"hit frequency {number(analysis.hit_frequency)}, "
        f"standard deviation {number(analysis.standard_deviation)}",
    )
    return Table(
        f"Bonus wager, paytable {analysis.rules.paytable}",
        ("outcome", "pays", "combinations", "probability", "return"),
        rows,
        notes,
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


def game_summary(game: GameResult[Any]) -> str:
    """A concise human summary of a solve (``cbj solve``)."""
    o = game.outcomes
    lines = [
        "Community Blackjack (Casino Edition): composition-dependent optimal play",
        *rules_notes(game.rules),
        f"removed cards: {' '.join(map(str, game.removed)) or 'none'}; "
        f"arithmetic: {'exact' if game.exact else 'float'}",
        "",
        f"Main wager   EV {signed(game.expected_value)} ({percent(game.expected_value)}), "
        f"SD {number(game.standard_deviation, 4)}",
        f"             blackjack {number(o['blackjack'])}, win {number(o['win'])}, "
        f"push {number(o['push'])}, lose {number(o['lose'])}",
    ]
    if game.exact:
        lines.append(f"             exact EV {game.expected_value}")
    if game.bonus is not None:
        lines += [
            f"Bonus wager  EV {signed(game.bonus.expected_value)} per unit, "
            f"house edge {percent(game.bonus.house_edge)} (paytable {game.rules.paytable})",
            f"Round        EV {signed(game.round_expected_value)} per round at bonus ratio "
            f"{game.rules.bonus_ratio}; house edge {percent(game.round_house_edge)} of the "
            "total wagered",
            f"             hit frequency {number(game.round_hit_frequency)}, "
            f"SD {number(math.sqrt(game.round_variance), 4)}",
        ]
    else:
        lines.append("Bonus wager and round: not computed (removed cards were given without suits)")
    by_card = "  ".join(f"{value_label(c)} {signed(v, 4)}" for c, v in game.by_bonus_card().items())
    lines += ["", f"Main EV by Bonus card: {by_card}"]
    return "\n".join(lines)


def game_tables(game: GameResult[Any]) -> list[Table]:
    """The solve as tables (for CSV and Markdown): summary, by Bonus card, by start."""
    doc = game.to_json()
    summary_rows = [("main expected value", number(game.expected_value, 12))]
    summary_rows += [(f"main {k}", number(p, 12)) for k, p in game.outcomes.items()]
    summary_rows.append(("main standard deviation", number(game.standard_deviation, 12)))
    if game.bonus is not None:
        summary_rows += [
            ("bonus expected value", number(game.bonus.expected_value, 12)),
            ("round expected value", number(game.round_expected_value, 12)),
            ("round house edge", number(game.round_house_edge, 12)),
            ("round hit frequency", number(game.round_hit_frequency, 12)),
            ("round standard deviation", number(math.sqrt(game.round_variance), 12)),
        ]
    notes = rules_notes(game.rules)
    return [
        Table("Summary", ("figure", "value"), tuple(summary_rows), notes),
        Table(
            "Main EV by Bonus card",
            ("bonus", "expected_value"),
            tuple((k, number(v["float"], 12)) for k, v in doc["by_bonus_card"].items()),
            notes,
        ),
        Table(
            "Starting pairs",
            ("player", "bonus", "probability", "decision", "expected_value"),
            tuple(
                (
                    s["player"],
                    s["bonus"],
                    number(s["probability"]["float"], 12),
                    s["decision"],
                    number(s["expected_value"]["float"], 12),
                )
                for s in doc["by_start"]
            ),
            notes,
        ),
    ]


def advice_table(advice: Advice[Any]) -> Table:
    """One hand's stand and hit values as a table."""
    rows = (
        ("stand", signed(advice.stand)),
        ("hit", signed(advice.hit)),
        ("decision", advice.decision),
    )
    hand = " ".join(map(str, advice.hand))
    notes = (*rules_notes(advice.rules), f"seen cards: {' '.join(map(str, advice.seen)) or 'none'}")
    return Table(
        f"Hand {hand} against Bonus card {advice.bonus}", ("choice", "expected value"), rows, notes
    )


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
            tuple(estimate_row(w.value, overall[w]) for w in Wager),
            notes,
        )
    ]
    rows: list[tuple[str, ...]] = []
    frequency_notes: list[str] = []
    for wager in (Wager.MAIN, Wager.BONUS):
        estimate = overall[wager]
        total = sum(estimate.frequencies.values())
        exact_probabilities = result.exact.get(wager)
        probabilities = None if exact_probabilities is None else exact_probabilities.probabilities
        for outcome, count in estimate.frequencies.items():
            p = None if probabilities is None else float(probabilities[outcome])
            rows.append((wager.value, outcome, str(count), number(count / total), _optional(p)))
        if estimate.chi_square is not None:
            test = estimate.chi_square
            frequency_notes.append(
                f"{wager.value}: chi-square {test.statistic:.3f} on {test.dof} degrees of "
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
                    (str(i + 1), *estimate_row(w.value, result.seat(i)[w]))
                    for i in range(result.seats)
                    for w in Wager
                ),
            )
        )
    return tuple(tables)


_EDGE_NAMES = {
    EdgeKind.BONUS: "Bonus wager house edge",
    EdgeKind.ROUND: "round house edge (per total wagered)",
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
    shown = str(solution.paytable).split(":")
    shown[PAY_TIERS.index(solution.tier)] = "x"
    summary = solution.rules.summary().replace(str(solution.paytable), ":".join(shown))
    notes = (
        f"rules: {summary}",
        f"target: {_EDGE_NAMES[solution.kind]} {percent(solution.target)} ({solution.target})",
        f"exact {solution.tier.value} pay x: {solution.pay} = {number(solution.pay, 9)} to 1",
    )
    return Table(
        f"{solution.tier.value} pay for a {solution.kind.value} house edge of "
        f"{percent(solution.target)}",
        ("pay", "paytable", "bonus edge", "round edge", "vs exact pay"),
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
    summary = result.rules.summary().replace(f"paytable {result.rules.paytable}, ", "")
    notes = (
        f"rules: {summary}",
        f"{_EDGE_NAMES[result.kind]} from {percent(low)} to {percent(high)}; "
        f"whole pays {result.max_pay} >= S >= R >= A >= 1",
        f"{result.matches} paytable(s) in the band; showing the {len(result.hits)} "
        "closest to its middle",
    )
    return Table(
        "Paytables in the edge band",
        ("paytable S:R:A", "bonus edge", "round edge", "round hit freq", "round SD"),
        rows,
        notes,
    )


def variants_table(result: Variants) -> Table:
    """Headline numbers of several rule sets as a table, one row per variant."""
    rows = tuple(
        (
            str(v.rules.decks),
            str(v.rules.dealer_stands_on),
            format_ratio(v.rules.blackjack_pays),
            v.rules.dealer_natural.value,
            signed(v.main_expected_value),
            signed(v.bonus_expected_value),
            percent(v.round_house_edge),
        )
        for v in result.variants
    )
    notes = (
        *rules_notes(result.rules),
        "each row changes only the rules in its first four columns; the paytable and "
        "bonus ratio are those in force",
    )
    return Table(
        "Rule variants",
        ("decks", "stands on", "blackjack", "dealer natural", "main EV", "bonus EV", "round edge"),
        rows,
        notes,
    )
