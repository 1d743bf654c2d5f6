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
from solver.model.normal import Z90, Z95
from solver.model.numbers import number, percent, signed
from solver.model.paytable import BONUS_TIERS, tier_letters
from solver.model.rules import RULE_TABLE, Rules, format_ratio
from solver.present.formats import Format, rule_cell

if TYPE_CHECKING:  # the renderers need only the shapes of these results
    from solver.results.bonus import BonusAnalysis
    from solver.results.game import Advice, GameResult
    from solver.results.paytable import PaySolution, SearchResult, Variants
    from solver.results.simulation import CounterStatistics, Estimate, SimulationResult
    from solver.results.volatility import Volatility


#: The wagers a simulation estimates, in the simulator's order (its ``Wager`` values).
WAGERS = ("main", "bonus", "round")


def dumps(document: dict[str, Any]) -> str:
    """JSON text of a result document, indented for reading."""
    import json  # with csv, loaded only by the formats that need it

    return json.dumps(document, indent=2)


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
        (rule.name, rule_cell(values[rule.name]), rule_cell(default[rule.name]), rule.meaning)
        for rule in RULE_TABLE
    )
    return Table("Rules in force", ("rule", "value", "default", "meaning"), rows)


def bonus_table(analysis: BonusAnalysis) -> Table:
    """The Bonus wager's return table with its summary figures as notes."""
    rows = tuple(
        (
            str(line.outcome),
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


def _exact_cell(value: Any) -> str:
    """A number's exact fraction for a table's ``exact`` column, or a dash."""
    if isinstance(value, dict):
        return str(value.get("exact", "-"))
    return str(value) if isinstance(value, Fraction | int) else "-"


def _edge_sentence(game: GameResult[Any]) -> str:
    """Who holds the edge on the main wager, in plain words."""
    ev = game.expected_value
    if ev > 0:
        return (
            f"The player holds the edge on the main wager: {percent(ev)} of each unit bet, "
            "with perfect play."
        )
    if ev < 0:
        return f"The house holds the edge on the main wager: {percent(-ev)} of each unit bet."
    return "Neither side holds an edge on the main wager: it breaks even."


def game_summary(game: GameResult[Any]) -> str:
    """A human summary of a solve (``cbj solve``) that explains itself in plain words."""
    o = game.outcomes
    lines = [
        "Community Blackjack (Casino Edition): the player's best possible play",
        "(every decision made knowing the exact cards in the hand and the Bonus card)",
        *rules_notes(game.rules),
        f"cards already out of the shoe: {' '.join(map(str, game.removed)) or 'none'}; "
        f"arithmetic: {'exact fractions' if game.exact else 'floating point'}",
        "",
        _edge_sentence(game),
        "",
        f"Main wager   average result {signed(game.expected_value)} per unit bet "
        f"({percent(game.expected_value)}), standard deviation "
        f"{number(game.standard_deviation, 4)}",
        f"             chance of: blackjack {number(o['blackjack'])}, win {number(o['win'])}, "
        f"tie {number(o['push'])}, loss {number(o['lose'])}",
    ]
    if game.exact:
        lines.append(f"             exact average result {game.expected_value}")
        lines.append(
            "             exact chances: "
            + ", ".join(f"{k} {o[k]}" for k in ("blackjack", "win", "push", "lose"))
        )
    if game.bonus is not None:
        lines += [
            f"Bonus wager  average result {signed(game.bonus.expected_value)} per unit bet, "
            f"house edge {percent(game.bonus.house_edge)} (pays {game.rules.paytable})",
            f"Whole round  average result {signed(game.round_expected_value)} per round with "
            f"{game.rules.bonus_ratio} unit(s) on the Bonus per unit on the main wager; house "
            f"edge {percent(game.round_house_edge)} of all money bet",
            f"             chance of coming out ahead {number(game.round_hit_frequency)}, "
            f"standard deviation {number(math.sqrt(game.round_variance), 4)}",
        ]
        if game.exact:
            lines.append(f"             exact round house edge {game.round_house_edge}")
        volatility = game.volatility
        if volatility is not None:
            lines += _volatility_lines(volatility)
    else:
        lines.append("Bonus wager and round: not computed (removed cards were given without suits)")
    by_card = "  ".join(f"{value_label(c)} {signed(v, 4)}" for c, v in game.by_bonus_card().items())
    lines += ["", f"Main wager's average result by Bonus card: {by_card}"]
    lines += ["", "More: --format csv or md for every table, --format json for everything."]
    return "\n".join(lines)


def _volatility_lines(volatility: Volatility) -> list[str]:
    """The summary's volatility block: the index, then each session's ranges."""
    lines = [
        f"Volatility   index {number(volatility.index, 4)} (round SD x z, z = {number(Z90, 4)} "
        "for 90% confidence); the player's net result after"
    ]
    for s in volatility.sessions:
        (low90, high90), (low95, high95) = s.range90, s.range95
        lines.append(
            f"             {s.rounds:>7,} rounds: average {float(s.mean):+,.1f}; 90% range "
            f"{low90:+,.1f} to {high90:+,.1f}; 95% {low95:+,.1f} to {high95:+,.1f}; "
            f"P(ahead) {number(s.probability_ahead, 4)}"
        )
    lines.append("             (main-wager units; ranges and P(ahead) by the normal approximation)")
    return lines


def volatility_table(volatility: Volatility | None, title: str) -> Table:
    """Session ranges and the chance of being ahead (normal approximation)."""
    if volatility is None:
        return Table(title, ("rounds",), (), ("No round: removed cards were given without suits.",))
    rows = tuple(
        (
            f"{s.rounds:,}",
            number(s.mean, 2),
            number(s.standard_deviation, 2),
            f"{s.range90[0]:.1f} to {s.range90[1]:.1f}",
            f"{s.range95[0]:.1f} to {s.range95[1]:.1f}",
            number(s.probability_ahead, 4),
        )
        for s in volatility.sessions
    )
    return Table(
        title,
        ("rounds", "mean net", "SD", "90% range", "95% range", "P(ahead)"),
        rows,
        (
            f"bonus ratio {volatility.ratio}; round SD {volatility.standard_deviation:.4f}; "
            f"volatility index {volatility.index:.4f} (SD x z, z = {Z90:.4f} for 90%)",
            "Mean and SD from the solve; ranges and P(ahead) by the normal approximation.",
        ),
    )


def game_tables(game: GameResult[Any]) -> list[Table]:
    """The solve as tables (for CSV and Markdown): summary, by Bonus card, by start.

    An exact solve adds an ``exact`` column of fractions to each table.
    """
    doc = game.to_json()
    summary: list[tuple[str, Any]] = [("main expected value", game.expected_value)]
    summary += [(f"main {k}", p) for k, p in game.outcomes.items()]
    summary.append(("main standard deviation", game.standard_deviation))
    if game.bonus is not None:
        summary += [
            ("bonus expected value", game.bonus.expected_value),
            ("round expected value", game.round_expected_value),
            ("round house edge", game.round_house_edge),
            ("round hit frequency", game.round_hit_frequency),
            ("round standard deviation", math.sqrt(game.round_variance)),
        ]
    extra: tuple[str, ...] = ("exact",) if game.exact else ()

    def cells(value: Any) -> tuple[str, ...]:
        return (_exact_cell(value),) if game.exact else ()

    notes = rules_notes(game.rules)
    return [
        Table(
            "Summary",
            ("figure", "value", *extra),
            tuple((name, number(v, 12), *cells(v)) for name, v in summary),
            notes,
        ),
        Table(
            "Main EV by Bonus card",
            ("bonus", "expected_value", *extra),
            tuple((k, number(v["float"], 12), *cells(v)) for k, v in doc["by_bonus_card"].items()),
            notes,
        ),
        Table(
            "Starting pairs",
            ("player", "bonus", "probability", "decision", "expected_value", *extra),
            tuple(
                (
                    s["player"],
                    s["bonus"],
                    number(s["probability"]["float"], 12),
                    s["decision"],
                    number(s["expected_value"]["float"], 12),
                    *cells(s["expected_value"]),
                )
                for s in doc["by_start"]
            ),
            notes,
        ),
        volatility_table(game.volatility, "Volatility of the round"),
    ]


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
            rows.append((wager, outcome, str(count), number(count / total), _optional(p)))
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
    notes = (
        f"rules: {solution.rules.summary(omit=('paytable',))}; Bonus pays {pays}",
        f"target: {_EDGE_NAMES[solution.kind]} {percent(solution.target)} ({solution.target})",
        f"exact {solution.tier} pay x: {solution.pay} = {number(solution.pay, 9)} to 1",
    )
    return Table(
        f"{solution.tier} pay for a {solution.kind.value} house edge of {percent(solution.target)}",
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
    heading = "paytable S:R:A" if result.tiers == BONUS_TIERS else "paytable"
    notes = (
        f"rules: {result.rules.summary(omit=('paytable',))}",
        f"{_EDGE_NAMES[result.kind]} from {percent(low)} to {percent(high)}; "
        f"whole pays {result.max_pay} >= {' >= '.join(tier_letters(result.tiers))} >= 1",
        f"{result.matches} paytable(s) in the band; showing the {len(result.hits)} "
        "closest to its middle",
    )
    return Table(
        "Paytables in the edge band",
        (heading, "bonus edge", "round edge", "round hit freq", "round SD"),
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
            v.rules.dealer_natural.value,
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
    headers = ("decks", "stands on", "blackjack", "dealer natural", "main EV", "bonus EV")
    return Table(
        "Rule variants",
        (*headers, "round edge", *(("exact main EV",) if exact else ())),
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
