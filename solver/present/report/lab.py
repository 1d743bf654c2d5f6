"""The report's lab sections: title block, rules of play, definitions, strategies, paytables,
method and verification, and the reproducibility manifest.

Pure: the figures of :func:`solver.studies.report.report_figures` in, blocks out. The
clauses' readings are the rule table's own words (:data:`~solver.model.rule_table.RULE_TABLE`),
so they follow the rules in force.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.model.hands import best_total, dealer_has_natural, hand_of, hard_total
from solver.model.normal import Z90
from solver.model.rule_table import RULE_TABLE, RULES_BY_NAME
from solver.model.rules import PresetName, Rules
from solver.present.formats import rule_cell
from solver.present.report.blocks import MAIN_NAMES, Grid, Section, Text, bonus_of, exact
from solver.present.report.plots import BONUS_NAMES
from solver.present.style import edge_percent, minus, one_in, signed, thousands

if TYPE_CHECKING:
    from solver.exact.game import GameResult
    from solver.exact.strategies import PolicyResult
    from solver.model.cards import Card
    from solver.sim import SimulationResult
    from solver.studies.report import LetteredGame, ReportFigures
    from solver.studies.verification import WorkedExample


@dataclass(frozen=True, slots=True)
class Prepared:
    """Who the report is prepared by and for, and a note of what this revision changed.

    Blank fields print as lines to fill in by hand.
    """

    by: str = ""
    for_: str = ""
    note: str = ""


#: What an empty field of the title block prints.
BLANK = "\u2014" * 12


def _reading(rules: Rules, name: str) -> str:
    """A rule's setting in plain words, from the rule table."""
    return RULES_BY_NAME[name].words(getattr(rules, name))


def rules_version(rules: Rules) -> str:
    """The rules as a short hash of their JSON, with the preset they equal if any."""
    digest = hashlib.sha256(
        json.dumps(rules.to_json(), sort_keys=True).encode("utf-8")
    ).hexdigest()[:12]
    named = [p.value for p in PresetName if Rules.from_preset(p.value) == rules]
    return f"{digest} ({named[0]})" if named else f"{digest} (no preset: own rules)"


def title_section(figures: ReportFigures, prepared: Prepared, version: str, date: str) -> Section:
    """What a lab files the report under: game, rules, paytables, versions, date, people."""
    rows = [
        ("Game", "Community Blackjack (Casino Edition)"),
        ("Rules version", rules_version(figures.rules)),
        *(
            (f"Paytable {g.letter}", f"{g.game.rules.paytable} (suited : rank : adjacent, to 1)")
            for g in figures.paytables
        ),
        ("Bonus wager", _reading(figures.rules, "bonus_ratio")),
        ("Software version", f"community-blackjack {version}"),
        ("Date", date),
        ("Prepared by", prepared.by or BLANK),
        ("Prepared for", prepared.for_ or BLANK),
        ("Revision note", prepared.note or BLANK),
    ]
    return Section(
        "Title block",
        (
            Grid(
                ("field", "entry"),
                tuple(rows),
                caption="Blank lines are for filling in.",
                numeric=False,
            ),
        ),
    )


# --- Rules of play ------------------------------------------------------------------------

Clause = tuple[str, str, tuple[str, ...]]

#: Every clause of the rule text in order: its title, its text, and the rules (rows of the
#: rule table) whose readings in force it states after the text.
CLAUSES: tuple[Clause, ...] = (
    (
        "Shoe",
        "The game is dealt from standard 52-card decks shuffled together in a shoe. Every "
        "exact figure assumes a freshly shuffled shoe each round; the effect of dealing to a "
        "cut card is measured under Method and verification.",
        ("decks",),
    ),
    (
        "Wagers",
        "Each player makes two mandatory wagers, the main wager and the Bonus wager; the "
        "Bonus wager is at least half the main wager.",
        ("bonus_ratio",),
    ),
    (
        "Deal",
        "Each player receives one card of their own, and one community Bonus card is dealt "
        "face up for the whole table. The dealer has no card yet.",
        (),
    ),
    (
        "Bonus wager",
        "The Bonus wager is settled at once on the player's card and the Bonus card. Same "
        "rank and suit: suited match. Same rank, other suit: rank match. Ranks exactly one "
        "apart, the ace next to both the 2 and the king: adjacent. Ranks decide, not "
        "blackjack values: a 10 and a jack are adjacent, a jack and a king are not. Anything "
        "else loses, and only the best tier reached pays.",
        ("paytable",),
    ),
    (
        "Blackjack",
        "If the player's card and the Bonus card make 21 (an ace and a ten-value card), the "
        "main wager wins at once, whatever the dealer later draws, and the hand is over.",
        ("blackjack_pays",),
    ),
    (
        "Player draws",
        "Otherwise the player may stand at any point, even on the single card, or take "
        "another card. The player busts, and loses the main wager at once, when the hard "
        "total of their own cards (every ace counted as 1) goes over 21. The Bonus card never "
        "causes a bust: standing, the player adds it to the total or not, whichever is better.",
        (),
    ),
    (
        "Dealer draws",
        "Once the players are done, the dealer draws one or more cards until its best total "
        "reaches the standing total below. The best total is the highest total of 21 or less "
        "from the dealer's own cards, one ace counting 11 where that fits, with or without "
        "the Bonus card. The dealer busts when the hard total of its own cards passes 21, and "
        "every player still in wins even money. The dealer does not draw when every player "
        "has busted or had a blackjack.",
        ("dealer_stands_on",),
    ),
    (
        "Showdown",
        "Otherwise both sides take their best total of 21 or less, each choosing whether to "
        "add the Bonus card. The higher total wins even money; equal totals push.",
        (),
    ),
    (
        "Dealer natural",
        "A two-card dealer 21 is a natural. It beats every player total below 21, as any "
        "dealer 21 does. A player 21 counts the Bonus card as a card when it needs it; where "
        "21 can be made both with and without it, the smaller number of cards counts. Which "
        "two-card 21s are naturals, and which player 21s they beat, are readings:",
        ("dealer_natural", "natural_beats"),
    ),
)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _player_hand(example: WorkedExample) -> str:
    hand = hand_of(c.points for c in example.player)
    if hard_total(hand) > 21:
        return f"{_cards(example.player)}: busts ({hard_total(hand)} in own cards)"
    if example.result.main.value == "blackjack":
        return f"{_cards(example.player)}: 21 with the Bonus card, a blackjack"
    return f"{_cards(example.player)}: best total {best_total(hand, example.bonus.points)}"


def _dealer_hand(example: WorkedExample, rules: Rules) -> str:
    if not example.dealer:
        return "does not draw"
    hand = hand_of(c.points for c in example.dealer)
    bonus = example.bonus.points
    if hard_total(hand) > 21:
        return f"{_cards(example.dealer)}: busts ({hard_total(hand)})"
    natural = ", a natural" if dealer_has_natural(hand, bonus, rules) else ""
    return f"{_cards(example.dealer)}: best total {best_total(hand, bonus)}{natural}"


def example_rows(examples: Sequence[WorkedExample], rules: Rules) -> tuple[tuple[str, ...], ...]:
    """One row per worked example: what it shows, the hands and the result as settled."""
    rows = []
    for i, ex in enumerate(examples, start=1):
        result = ex.result
        clauses = ", ".join(str(c) for c in ex.deal.clauses)
        rows.append(
            (
                f"{i}. {ex.deal.shows} (clauses {clauses})",
                str(ex.bonus),
                _player_hand(ex),
                _dealer_hand(ex, rules),
                f"{MAIN_NAMES[result.main.value]}, {signed(result.main_net, 2)}",
                f"{BONUS_NAMES[result.bonus]}, {signed(result.bonus_net, 2)}",
                signed(result.round_net, 2),
            )
        )
    return tuple(rows)


def rules_section(figures: ReportFigures) -> Section:
    """The complete rules of play in numbered clauses, each reading stated, and examples."""
    rules = figures.rules
    clauses = []
    for n, (title, text, names) in enumerate(CLAUSES, start=1):
        readings = "; ".join(
            f"{RULES_BY_NAME[name].label}: {_reading(rules, name)}" for name in names
        )
        stated = f" Reading in force: {readings}." if readings else ""
        clauses.append(Text(f"{n}. {title}. {text}{stated}"))
    return Section(
        "Rules of play",
        (
            Text(
                "The rule text's nine clauses, as this analysis reads them. Where the text "
                "leaves a point open, the reading in force is stated with the clause "
                "(docs/rules.md names the option that changes it)."
            ),
            *clauses,
            Grid(
                (
                    "example",
                    "Bonus card",
                    "player",
                    "dealer",
                    "main wager",
                    "Bonus wager",
                    "round net",
                ),
                example_rows(figures.examples, rules),
                caption="Worked examples, each dealt card by card through the independent "
                "simulator's settling code under the rules in force (the descriptions are of "
                "the default reading). Cards in the order dealt: the player's, the Bonus "
                "card, the player's draws, the dealer's. Nets in units of each wager; the "
                f"round's in main-wager units with {rules.bonus_ratio} on the Bonus.",
                numeric=False,
            ),
        ),
    )


# --- Definitions --------------------------------------------------------------------------

DEFINITIONS: tuple[tuple[str, str], ...] = (
    (
        "Sign convention",
        "Expected values (EV) and net results are the player's: negative when the player "
        "loses. House edges and holds are the casino's: positive when the casino wins. So a "
        "house edge is minus the player's EV per unit wagered.",
    ),
    (
        "House edge",
        "The casino's expected win per unit staked on a wager (for the whole round, per unit "
        "of the total wagered, main plus Bonus), in %.",
    ),
    (
        "Hold",
        "The casino's expected win per table-round, in main-wager units; positive when the "
        "casino wins.",
    ),
    (
        "Element of risk",
        "The casino's expected win per unit of the total staked once every decision is "
        "made (including any raise). The game has no doubles, splits, raises or surrender, "
        "so it equals the house edge.",
    ),
    (
        "Hit frequency",
        "The probability that a wager (or the round) ends with a net win for the player, "
        "a push not counted; stated as \u201c1 in N\u201d.",
    ),
    (
        "Standard deviation (SD)",
        "The square root of the variance of one round's net result, in units of that "
        "wager (Bonus figures per unit staked on the Bonus, round figures per main unit).",
    ),
    (
        "Volatility index",
        f"The round's standard deviation times {Z90:.4f}, the z of a two-sided 90% normal "
        "interval, in main-wager units.",
    ),
    (
        "True odds against payout odds",
        "True odds are (1 \u2212 p) to p against an outcome of probability p; a wager whose "
        "payout odds are below the true odds of its outcome pays the casino its edge.",
    ),
)


def definitions_section() -> Section:
    """Every figure the report uses, defined once, with the one sign convention."""
    return Section(
        "Definitions",
        (
            Grid(
                ("term", "definition"),
                DEFINITIONS,
                caption="Used throughout the report.",
                numeric=False,
            ),
        ),
    )


# --- Strategies and paytables -------------------------------------------------------------

STRATEGY_NAMES = {
    "optimal": "perfect play",
    "chart": "printed chart",
    "mimic-dealer": "mimic the dealer",
}


def strategies_section(policies: Sequence[PolicyResult], ratio: Fraction) -> Section:
    """The main wager and the round under perfect play, the chart and realistic play."""
    rows = tuple(
        (
            STRATEGY_NAMES.get(p.name, p.name),
            edge_percent(-p.main_ev),
            signed(p.main_ev, 6),
            edge_percent(p.round_house_edge),
            signed(p.round_ev, 6),
            one_in(Fraction(p.game.round_hit_frequency)),
            f"{float(p.game.round_variance) ** 0.5:.4f}",
        )
        for p in policies
    )
    return Section(
        "Perfect play, the printed chart and realistic play",
        (
            Grid(
                (
                    "player's play",
                    "main house edge",
                    "main EV",
                    "round house edge",
                    "round EV",
                    "round hit frequency",
                    "round SD",
                ),
                rows,
                caption="Exact. Perfect play: composition-dependent optimal hit/stand. "
                "Printed chart: the strategy chart of this report. Mimic the dealer: hit "
                "until the dealer's stopping rule would stop. House edges in % (main of the "
                "main wager, round of the total wagered); EVs in main-wager units, the "
                f"round's with {ratio} on the Bonus.",
            ),
        ),
    )


def _paytable_row(g: LetteredGame) -> tuple[str, ...]:
    game = g.game
    bonus = bonus_of(game)
    r = game.rules.bonus_ratio
    return (
        f"{g.letter}: {game.rules.paytable}",
        edge_percent(bonus.house_edge),
        one_in(bonus.hit_frequency),
        f"{bonus.standard_deviation:.4f}",
        edge_percent(exact(game.round_house_edge)),
        signed(exact(game.round_expected_value)),
        signed(exact(game.round_expected_value) / (1 + r)),
        f"{game.round_variance**0.5:.4f}",
    )


def paytables_section(games: Sequence[LetteredGame]) -> Section:
    """The paytables of the report side by side, lettered."""
    return Section(
        "Paytables compared",
        (
            Grid(
                (
                    "paytable",
                    "Bonus house edge",
                    "Bonus hit frequency",
                    "Bonus SD",
                    "round house edge",
                    "round EV per main unit",
                    "round EV per unit wagered",
                    "round SD",
                ),
                tuple(_paytable_row(g) for g in games),
                caption="Each paytable lettered as in the title block; the main wager and "
                "its play are the same under every paytable. Bonus figures per unit staked "
                "on the Bonus; round figures exact, SD per main unit.",
            ),
        ),
    )


# --- Method and verification --------------------------------------------------------------


def _edge_interval(result: SimulationResult, ratio: Fraction) -> tuple[float, float, float]:
    """The simulated round house edge (%) and its 95% interval."""
    estimate = result.overall["round"]
    scale = -100 / float(1 + ratio)
    low, high = estimate.ci95
    return estimate.mean * scale, high * scale, low * scale


def _interval(values: tuple[float, float, float]) -> str:
    mean, low, high = values
    return minus(f"{mean:.4f}% [{low:.4f}, {high:.4f}]")


def verification_section(figures: ReportFigures) -> Section:
    """Method, the simulation cross-check, the cut-card effect and the invariants checked."""
    fresh, cut = figures.simulation, figures.cut_card
    game = figures.game
    ratio = game.rules.bonus_ratio
    stats = fresh.overall
    names = {"main": "main wager", "bonus": "Bonus wager", "round": "whole round"}
    units = {"main": "main units", "bonus": "Bonus units", "round": "main units"}
    rows = []
    for key in ("main", "bonus", "round"):
        est = stats[key]
        z = est.z
        chi = est.chi_square
        rows.append(
            (
                names[key],
                signed(est.mean),
                signed(est.exact) if est.exact is not None else "",
                f"{est.standard_error:.5f}",
                minus(f"{z:+.2f}") if z is not None else "",
                f"{chi.p_value:.3f}" if chi is not None else "",
                units[key],
            )
        )
    edge_fresh = _edge_interval(fresh, ratio)
    half = (edge_fresh[2] - edge_fresh[1]) / 2
    table = figures.return_table_test
    chi_text = (
        f"Pearson's chi-square of the round's outcome counts against the exact return table "
        f"(main outcome and Bonus outcome together): {table.statistic:.2f} on {table.dof} "
        f"degrees of freedom, p = {table.p_value:.3f}."
        if table is not None
        else ""
    )
    exact_edge = float(exact(game.round_house_edge)) * 100
    checks = tuple(
        (c.name, minus(c.found), "holds" if c.holds else "FAILS") for c in figures.invariants
    )
    return Section(
        "Method and verification",
        (
            Text(
                "Method. Every figure of the wagers, the round, the strategies, the dealer, "
                "the paytables, the Bonus ratio, the rule variants and the chart is exact: "
                "combinatorial analysis of a freshly shuffled shoe, every ordered pair of "
                "player card and Bonus card, every player hand and every dealer drawing "
                "sequence weighted by its exact probability, in rational numbers, rounded "
                "only for display. The table of players, the counters and shoe samples of "
                "game protection and the cross-checks below are simulated, and say so."
            ),
            Text(
                "Simulation cross-check. An independent Monte Carlo simulator (it shares only "
                f"the card and rule model with the exact solver) dealt {thousands(fresh.rounds)} "
                f"rounds from a freshly shuffled shoe each round, seed {fresh.seed}, in seeded "
                "chunks shared among the workers (the figures do not depend on how many), the "
                "player using the exact solver's optimal decisions. The round's house edge is "
                f"then known to \u00b1{half:.4f} percentage points at 95%. A z-score is the "
                "distance between the simulated mean and the exact value in standard errors; "
                f"|z| below 3 is expected. {chi_text}"
            ),
            Grid(
                (
                    "wager",
                    "simulated mean",
                    "exact",
                    "standard error",
                    "z",
                    "chi-square p",
                    "unit",
                ),
                tuple(rows),
                caption="Mean net result per round of each wager, simulated and exact; the "
                "chi-square p-value tests the outcome counts against the exact probabilities.",
            ),
            Grid(
                ("shoe", "rounds", "round house edge [95%]", "exact, fresh shoe"),
                (
                    (
                        "fresh shoe every round",
                        thousands(fresh.rounds),
                        _interval(edge_fresh),
                        minus(f"{exact_edge:.4f}%"),
                    ),
                    (
                        f"dealt to a cut card at {cut.penetration:g} of the shoe",
                        thousands(cut.rounds),
                        _interval(_edge_interval(cut, ratio)),
                        minus(f"{exact_edge:.4f}%"),
                    ),
                ),
                caption="The cut-card effect: the simulated house edge of the round (% of the "
                "total wagered) when the shoe is dealt down to a cut card and then reshuffled, "
                "beside a fresh shoe every round, same seed, same play (optimal for a full "
                "shoe). Intervals take rounds as independent.",
            ),
            Grid(
                ("invariant", "found", "result"),
                checks,
                caption="Checked as this report was built.",
                numeric=False,
            ),
        ),
    )


# --- Manifest -----------------------------------------------------------------------------


def _exact_json(game: GameResult[Fraction]) -> dict[str, Any]:
    bonus = bonus_of(game)
    return {
        "rules": game.rules.to_json(),
        "main_ev": str(game.expected_value),
        "main_outcomes": {k: str(p) for k, p in game.outcomes.items()},
        "main_variance": str(game.variance),
        "bonus_ev": str(bonus.expected_value),
        "bonus_lines": {ln.outcome.value: str(ln.probability) for ln in bonus.lines},
        "round_ev": str(game.round_expected_value),
        "round_variance": str(game.round_variance),
        "round_hit_frequency": str(game.round_hit_frequency),
    }


def figures_hash(figures: ReportFigures) -> str:
    """A SHA-256 of every exact figure of the report, the same for the same game anywhere.

    Only exact rationals (as text) and rules enter it: no float, no date, no seed.
    """
    document = {
        "paytables": {g.letter: _exact_json(g.game) for g in figures.paytables},
        "strategies": {p.name: str(p.main_ev) for p in figures.strategies},
        "chart_ev": str(figures.chart.expected_value),
        "dealer": [[c, {k: str(p) for k, p in d.items()}] for c, d in figures.dealer],
        "joint": sorted(f"{k}/{b.value}={p}" for (k, b), p in figures.joint.items()),
    }
    text = json.dumps(document, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def rebuild_command(figures: ReportFigures, prepared: Prepared, output: str) -> str:
    """The ``cbj report`` command line that rebuilds this report."""
    rules = figures.rules.to_json()
    words = ["cbj", "report"]
    for rule in RULE_TABLE:
        words += [rule.flag, rule_cell(rules[rule.name])]
    for g in figures.paytables[1:]:
        words += ["--paytable", str(g.game.rules.paytable)]
    for name, size in figures.sizes:
        words += [f"--{name.replace('_', '-')}", str(size)]
    for flag, value in (("--prepared-by", prepared.by), ("--prepared-for", prepared.for_),
                        ("--revision-note", prepared.note)):  # fmt: skip
        if value:
            words += [flag, value]
    words += ["-o", output]
    return shlex.join(words)


def manifest_section(figures: ReportFigures, prepared: Prepared, version: str) -> Section:
    """What rebuilds the report: its command, its rules as JSON, versions, the figures' hash."""
    rules = json.dumps(figures.rules.to_json(), sort_keys=True)
    return Section(
        "Reproducibility manifest",
        (
            Grid(
                ("item", "value"),
                (
                    ("Command", rebuild_command(figures, prepared, "report.pdf")),
                    ("Rules (JSON)", rules),
                    ("Software version", f"community-blackjack {version}"),
                    ("Exact figures (SHA-256)", figures_hash(figures)),
                ),
                caption="The command rebuilds this report (HTML if the output ends in .html); "
                "the hash covers every exact figure (rules, paytables, outcome probabilities, "
                "EVs, variances, the strategies and the dealer) and is the same for the same "
                "game on any machine. Simulated figures repeat from their seeds.",
                numeric=False,
            ),
        ),
    )


__all__ = [
    "BLANK",
    "CLAUSES",
    "DEFINITIONS",
    "Prepared",
    "definitions_section",
    "figures_hash",
    "manifest_section",
    "paytables_section",
    "rebuild_command",
    "rules_section",
    "rules_version",
    "strategies_section",
    "title_section",
    "verification_section",
]
