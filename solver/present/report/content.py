"""The report's content: every figure computed once and laid out as neutral blocks.

:func:`build_report` returns a :class:`Report`: a title block and :class:`Section`\\ s of
:class:`Text`, :class:`Grid` and :class:`Plot` blocks, worded for people (no code
identifiers), every figure with its unit, one number style (:mod:`solver.present.style`).
:mod:`.html` and :mod:`.pdf` render the same content.
"""

from __future__ import annotations

import hashlib
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from importlib.metadata import version
from typing import TYPE_CHECKING

from solver.exact.bonus import BonusAnalysis
from solver.exact.dealer import dealer_distribution
from solver.exact.design import EdgeKind, EdgeModel, edge_model, one_rule_at_a_time, solve_variants
from solver.exact.game import GameResult, round_outcomes
from solver.exact.ratios import ratio_table, round_moments
from solver.exact.seats import SEAT_COUNTS
from solver.exact.strategy import COLUMNS, Chart, GameChartStore, stored_chart, strategy_source
from solver.exact.volatility import Z90, Z95, Volatility, game_volatility
from solver.model.cards import RANKS, VALUES, Card, Shoe, value_label
from solver.model.checks import check_rounds as checked_rounds
from solver.model.errors import ReportError
from solver.model.outcomes import MAIN_OUTCOMES, PAY_TIERS, BonusOutcome, main_payoffs
from solver.model.rules import TABULATED_RATIOS, Rules
from solver.present.charts import (
    COLOURS,
    EXCEPTION_HEADERS,
    display_rows,
    exception_rows,
    exceptions_heading,
    summary,
)
from solver.present.report.plots import (
    BONUS_NAMES,
    dealer_plot,
    ev_by_bonus_plot,
    ratio_curve,
    ratio_plot,
    sensitivity_plot,
    standalone_svg,
)
from solver.present.style import amount, edge_percent, minus, one_in, signed, thousands
from solver.present.wording import differences_in_words, rule_lines
from solver.present.wording import to_one as _to_one

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from solver.sim import Strategy

TITLE = "Community Blackjack (Casino Edition)"
SUBTITLE = "Mathematical analysis of the game (PAR sheet)"
#: Rounds the simulator deals for the cross-check, unless asked otherwise, and its seed:
#: enough to see a wrong figure at a few standard errors, few enough that the report
#: builds in seconds.
SIMULATION_ROUNDS = 100_000
SIMULATION_SEED = 20_261_129
#: Table-rounds the simulator deals for each number of seats in the table of players,
#: unless asked otherwise: the per-run cost dominates at this size, and the intervals stay
#: a few hundredths wide.
TABLE_ROUNDS = 50_000


@dataclass(frozen=True, slots=True)
class Text:
    """A paragraph of plain text."""

    text: str


@dataclass(frozen=True, slots=True)
class Grid:
    """A table: header row, body rows of text, optional caption and cell colours.

    ``colours`` (same shape as ``rows``) gives a CSS colour such as ``#d8ecd0`` for a
    cell's background, or ``None``; a strategy chart is a grid with colours.
    """

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""
    colours: tuple[tuple[str | None, ...], ...] | None = None
    numeric: bool = True
    """Align every column but the first to the right."""
    compact: bool = False
    """Narrow cells (the strategy chart)."""
    breaks: tuple[int, ...] = ()
    """Rows drawn with a heavy rule above them (the chart's soft block)."""


@dataclass(frozen=True, slots=True, eq=False)
class Plot:
    """A matplotlib figure, drawn by ``draw``, and its caption.

    :meth:`svg` draws a new figure once and keeps its SVG for every rendering (HTML and
    PDF): a fresh figure keeps renderings byte-identical, as matplotlib's layout can move
    by a rounding step when the same figure is drawn twice.
    """

    draw: Callable[[], Figure]
    caption: str
    _drawn: list[str] = field(default_factory=list, init=False, repr=False)

    def svg(self) -> str:
        """The figure as a standalone SVG document, text kept as text (drawn once)."""
        if not self._drawn:
            self._drawn.append(standalone_svg(self.draw()))
        return self._drawn[0]


Block = Text | Grid | Plot


@dataclass(frozen=True, slots=True)
class Section:
    """A titled part of the report."""

    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class TitleBlock:
    """What a test lab files a PAR sheet under: game, rules, paytable, revision and date."""

    game: str
    rules: tuple[str, ...]
    paytable: str
    revision: str
    date: str


@dataclass(frozen=True, slots=True)
class Report:
    """A whole report: the rules it describes, its title block and its sections in order."""

    rules: Rules
    title_block: TitleBlock
    sections: tuple[Section, ...]
    title: str = TITLE
    subtitle: str = SUBTITLE

    @property
    def generator(self) -> str:
        """The program and revision that produced the report."""
        return f"cbj, revision {self.title_block.revision}"


def build_report(
    rules: Rules,
    jobs: int = 1,
    cache: GameChartStore | None = None,
    shoe_samples: int | None = None,
    counter_rounds: int | None = None,
    table_rounds: int | None = None,
    simulation_rounds: int | None = None,
) -> Report:
    """Compute every figure of the game under ``rules`` and lay out the report.

    ``shoe_samples`` (shoes solved per depth) and ``counter_rounds`` (rounds per simulated
    counter) size the game-protection section, ``table_rounds`` (table-rounds per number
    of seats) the table of players and ``simulation_rounds`` the simulation cross-check;
    ``None`` takes each one's default. Every size is checked before any work.
    """
    from solver.present.report.protection import (
        COUNTER_ROUNDS,
        SHOE_SAMPLES,
        check_sizes,
        protection_section,
    )

    samples, counter = check_sizes(
        SHOE_SAMPLES if shoe_samples is None else shoe_samples,
        COUNTER_ROUNDS if counter_rounds is None else counter_rounds,
    )
    table = check_rounds("table rounds", TABLE_ROUNDS if table_rounds is None else table_rounds)
    simulated = check_rounds(
        "simulation rounds", SIMULATION_ROUNDS if simulation_rounds is None else simulation_rounds
    )
    model = edge_model(rules, jobs, cache)
    game = model.priced(rules.paytable, rules.bonus_ratio)
    variants = solve_variants(one_rule_at_a_time(rules), jobs=jobs, cache=cache)
    chart = stored_chart(model.rules, model.game, cache)
    played = _optimal_play(game)  # one decision table for the three simulated sections
    sections = (
        _summary(game),
        _assumptions(game),
        _bonus_section(game),
        _main_section(game),
        _round_section(game),
        _volatility_section(game),
        _table_section(game, played, table),
        _ratio_section(model, game),
        _dealer_section(rules),
        _sensitivity_section(model, rules),
        Section(
            "Rule variants",
            (
                Grid(
                    ("rules changed", "main-wager EV", "Bonus EV", "round house edge"),
                    tuple(
                        (
                            differences_in_words(v.rules, rules),
                            edge_percent(v.main_expected_value),
                            edge_percent(v.bonus_expected_value),
                            edge_percent(v.round_house_edge),
                        )
                        for v in variants
                    ),
                    caption="Each row changes one rule from those in force and keeps the "
                    "paytable and the Bonus ratio. Main-wager EV in % of the main wager (float "
                    "solver, agreeing with the exact solver to 1e\u221212), Bonus EV in % of the "
                    "Bonus wager (exact), round house edge in % of the total wagered.",
                ),
            ),
        ),
        _chart_section(chart),
        protection_section(
            rules,
            chart,
            played,
            jobs=jobs,
            cache=cache,
            shoe_samples=samples,
            counter_rounds=counter,
        ),
        _simulation_section(game, played, simulated),
        _appendix(game),
    )
    return Report(rules, _title_block(rules, game), sections)


def check_rounds(label: str, rounds: int) -> int:
    """A number of simulated rounds for the report: a whole number from 1 to the simulator's cap.

    ``label`` names the option in the error (``counter rounds 0 is invalid: ...``).
    """
    return checked_rounds(rounds, label, ReportError)


# --- Title block ------------------------------------------------------------------------


def _fingerprint(game: GameResult[Fraction]) -> str:
    """Twelve hex digits of a SHA-256 of the rules and every exact headline figure."""
    bonus = _bonus_of(game)
    data = [
        repr(sorted(game.rules.to_json().items())),
        str(game.expected_value),
        *(f"{k}={p}" for k, p in game.outcomes.items()),
        str(bonus.expected_value),
        str(game.round_expected_value),
        str(game.round_variance),
    ]
    return hashlib.sha256("\n".join(data).encode()).hexdigest()[:12]


def report_date() -> str:
    """Today's date (UTC), or the date of ``SOURCE_DATE_EPOCH`` when set (reproducible builds)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    moment = time.gmtime(int(epoch)) if epoch else time.gmtime()
    return time.strftime("%Y-%m-%d", moment)


def _title_block(rules: Rules, game: GameResult[Fraction]) -> TitleBlock:
    lines = tuple(f"{name}: {value}" for name, value in rule_lines(rules))
    return TitleBlock(
        game=TITLE,
        rules=lines,
        paytable=f"{rules.paytable} (suited match : rank match : adjacent, to 1)",
        revision=f"{version('community-blackjack')}+{_fingerprint(game)}",
        date=report_date(),
    )


# --- Figures --------------------------------------------------------------------------

MAIN_NAMES = {"blackjack": "blackjack", "win": "win", "push": "push", "lose": "lose"}


def _fraction(value: Fraction | float) -> Fraction:
    if not isinstance(value, Fraction):
        raise ReportError("the report is built from an exact solve")
    return value


def _bonus_of(game: GameResult[Fraction]) -> BonusAnalysis:
    """The game's Bonus analysis, which a report always has (it deals from a full shoe)."""
    if game.bonus is None:
        raise ReportError("the report needs the suits of every card out of the shoe")
    return game.bonus


def _probability(value: Fraction | float) -> str:
    return f"{float(value):.6f}"


def _summary(game: GameResult[Fraction]) -> Section:
    rules, bonus = game.rules, _bonus_of(game)
    r = rules.bonus_ratio
    outcomes = {k: _fraction(p) for k, p in game.outcomes.items()}
    main_ev = _fraction(game.expected_value)
    round_ev = _fraction(game.round_expected_value)
    suited = next(ln for ln in bonus.lines if ln.outcome is BonusOutcome.SUITED_MATCH)
    top_round = game.round_lines[-1]
    rows = (
        ("Amount wagered (main-wager units)", "1", str(r), str(1 + r)),
        ("House edge (% of that wager)", edge_percent(-main_ev), edge_percent(bonus.house_edge),
         edge_percent(_fraction(game.round_house_edge))),
        ("Expected value per round (main-wager units)", signed(main_ev),
         signed(r * bonus.expected_value), signed(round_ev)),
        ("Hit frequency", one_in(outcomes["blackjack"] + outcomes["win"]),
         one_in(bonus.hit_frequency), one_in(_fraction(game.round_hit_frequency))),
        ("Standard deviation per round (main-wager units)", f"{game.standard_deviation:.4f}",
         f"{bonus.standard_deviation * float(r):.4f}", f"{math.sqrt(game.round_variance):.4f}"),
        ("Top award", f"blackjack, {_to_one(rules.blackjack_pays)}",
         f"suited match, {_to_one(suited.pays)}",
         f"{signed(top_round.net, 2)} main-wager units"),
        ("Odds of the top award", one_in(outcomes["blackjack"]), one_in(suited.probability),
         one_in(_fraction(top_round.probability))),
    )  # fmt: skip
    return Section(
        "Summary",
        (
            Text(
                f"The exact mathematics of {TITLE} under the rules and paytable in the title "
                "block. Every figure is computed exactly from the full shoe (no simulation) "
                "and rounded only for display; the appendix gives the exact fractions. "
                "Negative values are the player's losses."
            ),
            Grid(
                ("figure", "main wager", "Bonus wager", "whole round"),
                rows,
                caption="Key figures. House edges are per unit staked on that wager (the "
                "round's per unit of main + Bonus wagered); amounts and EVs are in units of "
                "the main wager. The game has no doubles, splits or raises, so the element of "
                "risk equals the house edge. A negative main-wager edge means the player has "
                "the advantage on that wager alone; the Bonus wager is mandatory.",
            ),
        ),
    )


def _assumptions(game: GameResult[Fraction]) -> Section:
    rules = game.rules
    n = 52 * rules.decks
    return Section(
        "Rules and method",
        (
            Grid(("rule", "setting"), rule_lines(rules), caption="Rules in force.", numeric=False),
            Text(
                "Player strategy: composition-dependent optimal play. For each Bonus card and "
                "each set of the player's own cards, the player hits or stands, whichever has "
                "the higher expected value of the main wager given the exact cards left in the "
                "shoe. The Bonus wager is settled on the first two cards and involves no "
                "decision."
            ),
            Text(
                f"Method: exact combinatorial analysis of a freshly shuffled {rules.decks}-deck "
                f"shoe ({n} cards). Every ordered pair of player card and Bonus card, every "
                "player hand and every dealer drawing sequence is weighted by its exact "
                "probability; all figures are rational numbers computed without rounding. "
                f"Combinations count ordered pairs of physical cards, {n} \u00d7 {n - 1} = "
                f"{thousands(n * (n - 1))} in all. One player plays against the dealer."
            ),
        ),
    )


def _bonus_section(game: GameResult[Fraction]) -> Section:
    bonus = _bonus_of(game)
    rows = tuple(
        (
            BONUS_NAMES[ln.outcome],
            _to_one(ln.pays) if ln.pays >= 0 else minus("-1"),
            thousands(ln.combinations),
            _probability(ln.probability),
            one_in(ln.probability),
            signed(ln.return_, 6),
        )
        for ln in bonus.lines
    )
    total = ("total", "", thousands(bonus.total_combinations), _probability(1), "",
             signed(bonus.expected_value, 6))  # fmt: skip
    return Section(
        "Bonus wager",
        (
            Grid(
                ("outcome", "pays", "combinations", "probability", "odds", "return"),
                (*rows, total),
                caption="Return table per unit staked on the Bonus wager. House edge "
                f"{edge_percent(bonus.house_edge)} of the Bonus wager; hit frequency "
                f"{one_in(bonus.hit_frequency)}; standard deviation "
                f"{bonus.standard_deviation:.4f} Bonus units.",
            ),
        ),
    )


def _main_section(game: GameResult[Fraction]) -> Section:
    pays = main_payoffs(game.rules)
    rows = tuple(
        (
            MAIN_NAMES[k],
            _to_one(pays[k]) if pays[k] > 0 else minus(str(pays[k])),
            _probability(p),
            one_in(p),
            signed(p * pays[k], 6),
        )
        for k, p in game.outcomes.items()
    )
    total = ("total", "", _probability(1), "", signed(game.expected_value, 6))
    by_card = game.by_bonus_card()
    return Section(
        "Main wager",
        (
            Grid(
                ("outcome", "pays", "probability", "odds", "return"),
                (*rows, total),
                caption="Return table per unit staked on the main wager under optimal play. "
                "Blackjack is the player's own card and the Bonus card making 21, paid at once.",
            ),
            Plot(
                partial(ev_by_bonus_plot, game),
                "Main-wager EV by the Bonus card dealt, in % of the main wager.",
            ),
            Grid(
                ("Bonus card", *(value_label(c) for c in by_card)),
                (("EV (%)", *(minus(f"{float(v) * 100:+.2f}") for v in by_card.values())),),
                caption="The same figures: main-wager EV in % of the main wager, given the "
                "Bonus card.",
                compact=True,
            ),
        ),
    )


def _round_section(game: GameResult[Fraction]) -> Section:
    rules = game.rules
    pays = main_payoffs(rules)
    joint = round_outcomes(game)
    rows = []
    for k in MAIN_OUTCOMES:
        for outcome in BonusOutcome:
            if (k, outcome) not in joint:
                continue
            bonus_pay = rules.paytable.as_dict().get(outcome.value, Fraction(-1))
            net = pays[k] + rules.bonus_ratio * bonus_pay
            p = _fraction(joint[(k, outcome)])
            rows.append((MAIN_NAMES[str(k)], BONUS_NAMES[outcome], signed(net, 2),
                         _probability(p), one_in(p), signed(p * net, 6)))  # fmt: skip
    rows.append(("total", "", "", _probability(1), "", signed(game.round_expected_value, 6)))
    return Section(
        "Whole round",
        (
            Grid(
                ("main wager", "Bonus wager", "net", "probability", "odds", "return"),
                tuple(rows),
                caption=f"Return table of a round: one unit on the main wager and "
                f"{rules.bonus_ratio} on the Bonus, both settled on the same two cards "
                "(combinations that cannot occur are left out); net and return in "
                "main-wager units. House edge "
                f"{edge_percent(_fraction(game.round_house_edge))} of the total wagered; "
                f"hit frequency {one_in(_fraction(game.round_hit_frequency))}; standard "
                f"deviation {math.sqrt(game.round_variance):.4f} main-wager units.",
            ),
        ),
    )


def _volatility_section(game: GameResult[Fraction]) -> Section:
    """How far a player's net result wanders over sessions, by the normal approximation."""
    volatility = game_volatility(game)
    if volatility is None:
        raise ReportError("the report needs the suits of every card out of the shoe")
    rows = tuple(
        (
            thousands(s.rounds),
            amount(s.mean),
            f"{s.standard_deviation:.1f}",
            _range(s.range90),
            _range(s.range95),
            _chance(s.probability_ahead),
        )
        for s in volatility.sessions
    )
    return Section(
        "Volatility",
        (
            Text(
                f"The volatility index is the round's standard deviation times z = {Z90:.4f}, "
                "the z of a two-sided 90% normal interval: "
                f"{volatility.standard_deviation:.4f} \u00d7 {Z90:.4f} = "
                f"{volatility.index:.4f} main-wager units. {_session_sentence(volatility)}"
            ),
            Grid(
                (
                    "rounds",
                    "expected net result",
                    "standard deviation",
                    "90% range",
                    "95% range",
                    "chance of being ahead",
                ),
                rows,
                caption="The player's net result after a session of optimal play with "
                f"{game.rules.bonus_ratio} on the Bonus per unit on the main wager, in "
                "main-wager units (ranges to the nearest unit). Mean and standard deviation "
                "are exact (n rounds: n times the round's mean, \u221an times its standard "
                f"deviation); the ranges (mean \u2213 {Z90:.3f} or {Z95:.3f} standard "
                "deviations) and the chance of finishing above zero use the normal "
                "approximation to a sum of independent rounds, each from a freshly shuffled "
                "shoe.",
            ),
        ),
    )


def _session_sentence(volatility: Volatility) -> str:
    """The 1,000-round session in words, or the longest shorter one."""
    session = max(
        (s for s in volatility.sessions if s.rounds <= 1_000),
        key=lambda s: s.rounds,
        default=volatility.sessions[0],
    )
    low, high = session.range90
    return (
        f"After {thousands(session.rounds)} rounds the player expects {amount(session.mean)} "
        f"units, finishes between {amount(low, 0)} and {amount(high, 0)} nine times in ten, and "
        f"is ahead with probability {_chance(session.probability_ahead)}."
    )


def _range(bounds: tuple[float, float]) -> str:
    """A range of net results to the nearest unit: ``\u221233 to +5``."""
    return f"{amount(bounds[0], 0)} to {amount(bounds[1], 0)}"


def _chance(probability: float) -> str:
    """A probability as a percentage to one decimal, with the far tails said in words."""
    if probability < 0.0005:
        return "below 0.1%"
    if probability > 0.9995:
        return "above 99.9%"
    return f"{probability * 100:.1f}%"


def _ratio_section(model: EdgeModel, game: GameResult[Fraction]) -> Section:
    rules = game.rules
    rows = tuple(
        (
            str(row.ratio),
            str(1 + row.ratio),
            signed(row.expected_value),
            edge_percent(row.house_edge),
            f"{row.standard_deviation:.4f}",
        )
        for row in ratio_table(round_moments(game), TABULATED_RATIOS)
    )
    return Section(
        "House edge against the Bonus ratio",
        (
            Text(
                "The Bonus wager must be at least half the main wager; players may stake "
                "more. The main wager's edge is negative (player's favour) and the Bonus "
                "wager's positive, so the round's edge grows with the Bonus ratio. Play does "
                "not depend on the ratio r, so the round's EV is exactly E[M] + r E[B] and "
                "its variance Var(M) + 2r Cov(M, B) + r\u00b2 Var(B), where M and B are the "
                "main and Bonus wagers' net results per unit."
            ),
            Plot(
                partial(ratio_plot, *ratio_curve(model, rules), rules.bonus_ratio),
                "Round house edge (% of the total wagered) against the Bonus ratio.",
            ),
            Grid(
                (
                    "Bonus ratio",
                    "total wagered",
                    "round EV",
                    "round house edge",
                    "round standard deviation",
                ),
                rows,
                caption="Per round, in main-wager units; the house edge in % of the total "
                f"wagered. Exact, under optimal play; paytable {rules.paytable} throughout.",
            ),
        ),
    )


def dealer_rows(rules: Rules) -> list[tuple[int, dict[str, Fraction]]]:
    """The dealer's exact final-result distribution for each Bonus card (full shoe less it)."""
    rows = []
    for c in VALUES:
        shoe = Shoe.full(rules.decks).remove([Card(RANKS[c - 1])])
        rows.append((c, dealer_distribution(rules, c, shoe.value_counts())))
    return rows


def _dealer_section(rules: Rules) -> Section:
    rows = dealer_rows(rules)
    labels = tuple(rows[0][1])
    return Section(
        "Dealer",
        (
            Plot(partial(dealer_plot, rows), "The dealer's final result by Bonus card."),
            Grid(
                ("Bonus card", *labels),
                tuple((value_label(c), *(f"{float(d[x]):.4f}" for x in labels)) for c, d in rows),
                caption="Probability of each final dealer result for each Bonus card, from "
                "the full shoe less that card (before the player draws).",
                compact=True,
            ),
        ),
    )


def _chart_section(chart: Chart) -> Section:
    """The best printable chart, its cost against perfect play and its main exceptions."""
    rows = display_rows(chart)
    cells = []
    colours = []
    for row in rows:
        marks = [
            f"{a.value}{_superscript(m) if m else ''}"
            for a, m in zip(row.actions, row.marks, strict=True)
        ]
        cells.append((row.label, *marks))
        colours.append((None, *(COLOURS[a] for a in row.actions)))
    return Section(
        "Strategy chart",
        (
            Text(
                "The best chart that looks only at the total of the player's own cards (hard, "
                "or soft when an ace counts 11) and the Bonus card: H hit (orange), S stand "
                "(blue), \u2013 no decision (a blackjack); hard totals first, then soft. "
                f"{summary(chart)}. The main-wager figures above assume composition-dependent "
                "optimal play; a player using this chart gets the chart EV instead. Identical "
                "rows are merged (e.g. hard 2\u20137)."
            ),
            Grid(
                ("own \\ Bonus", *COLUMNS),
                tuple(cells),
                caption="Hit/stand chart by own total (rows) and Bonus card (columns); a "
                "number marks a cell with exceptions, listed below.",
                colours=tuple(colours),
                numeric=False,
                compact=True,
                breaks=tuple(i for i, row in enumerate(rows) if row.soft)[:1],
            ),
            Grid(
                EXCEPTION_HEADERS,
                tuple(exception_rows(chart)),
                caption=exceptions_heading(chart),
                numeric=False,
            ),
        ),
    )


def _superscript(n: int) -> str:
    return str(n).translate(
        str.maketrans("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")
    )


def _sensitivity_section(model: EdgeModel, rules: Rules) -> Section:
    ratio = rules.bonus_ratio
    edge = model.linear(EdgeKind.ROUND, ratio)
    rows = []
    for tier, slope in zip(PAY_TIERS, edge.coefficients, strict=True):
        current = getattr(rules.paytable, tier.value)
        # The edge is linear in the pay: solve edge(current) + slope * (x - current) = 0.
        even = current - edge(rules.paytable) / slope
        rows.append(
            (
                BONUS_NAMES[tier],
                _to_one(current),
                minus(f"{float(slope) * 100:+.4f}"),
                f"{float(even):.4f} to 1" if even >= 0 else "none (edge stays positive)",
            )
        )
    return Section(
        "Paytable sensitivity",
        (
            Text(
                "The main wager's optimal play does not depend on the Bonus pays, so the "
                "round's house edge is an exact straight line in each pay. The plot moves one "
                "pay at a time, the others held at the paytable in force (the dot)."
            ),
            Plot(
                partial(sensitivity_plot, model, rules),
                "Round house edge (% of the total wagered) as a function of each pay.",
            ),
            Grid(
                (
                    "tier",
                    "pays",
                    "edge change per unit of pay (percentage points)",
                    "break-even pay",
                ),
                tuple(rows),
                caption="Break-even pay: the pay of that tier, the others unchanged, at which "
                "the round's house edge is exactly 0.",
            ),
        ),
    )


def _simulation_section(game: GameResult[Fraction], played: Strategy, rounds: int) -> Section:
    """The simulator playing ``played``, handed the exact figures, dealing ``rounds`` rounds."""
    from solver.exact.bonus import analyse_bonus
    from solver.exact.strategy import exact_main
    from solver.sim import ExactFigure, simulate

    rules = game.rules
    mean, probabilities = exact_main(game, "optimal")
    analysis = analyse_bonus(rules)
    exact = {
        "main": ExactFigure(mean, probabilities),
        "bonus": ExactFigure(
            analysis.expected_value, {ln.outcome.value: ln.probability for ln in analysis.lines}
        ),
    }
    result = simulate(rules, played, rounds, seed=SIMULATION_SEED, penetration=None, exact=exact)
    stats = result.overall
    names = {"main": "main wager", "bonus": "Bonus wager", "round": "whole round"}
    units = {"main": "main units", "bonus": "Bonus units", "round": "main units"}
    rows = []
    for key in ("main", "bonus", "round"):
        estimate = stats[key]
        z = estimate.z
        rows.append(
            (
                names[key],
                signed(estimate.mean),
                signed(estimate.exact) if estimate.exact is not None else "",
                f"{estimate.standard_error:.4f}",
                minus(f"{z:+.2f}") if z is not None else "",
                units[key],
            )
        )
    return Section(
        "Simulation cross-check",
        (
            Text(
                f"An independent Monte Carlo simulator (it shares only the card and rule "
                f"model with the exact solver) dealt {thousands(result.rounds)} rounds from a "
                f"freshly shuffled shoe each round, seed {result.seed}, the player using the "
                "exact solver's optimal decisions. A z-score is the distance between the "
                "simulated mean and the exact value in standard errors; |z| below 3 is "
                "expected."
            ),
            Grid(
                ("wager", "simulated mean", "exact", "standard error", "z", "unit"),
                tuple(rows),
                caption="Mean net result per round of each wager, simulated and exact.",
            ),
        ),
    )


def _optimal_play(game: GameResult[Fraction]) -> Strategy:
    """The exact solver's optimal decisions, for the simulator to play."""
    from solver.sim import parse_strategy

    return parse_strategy("optimal", lambda kind: strategy_source(game, kind))


def _table_section(game: GameResult[Fraction], played: Strategy, rounds: int) -> Section:
    """The casino's hold per table-round with 1 to 7 seats: exact Bonus, simulated the rest."""
    from solver.present.seats import table_of_players

    table = table_of_players(game.rules, played, SEAT_COUNTS, rounds, seed=SIMULATION_SEED)

    def held(hold: float, half_width: float | None = None) -> str:
        text = signed(hold, 3)
        return text if half_width is None else f"{text} \u00b1 {half_width:.3f}"

    rows = tuple(
        (
            str(row.seats),
            held(float(row.exact_bonus.hold)),
            f"{row.exact_bonus.standard_deviation:.3f}",
            held(row.main.hold, row.main.ci95[1] - row.main.hold),
            f"{row.main.standard_deviation:.3f}",
            held(row.round.hold, row.round.ci95[1] - row.round.hold),
            f"{row.round.standard_deviation:.3f}",
        )
        for row in table.rows
    )
    worst = max(abs(row.bonus_z) for row in table.rows)
    return Section(
        "A table of players",
        (
            Text(
                "The casino's result per table-round when several players sit at one table. "
                "They share the Bonus card, the dealer's hand and the shoe, so their results "
                "are correlated: a table's spread is not one seat's spread times the seats. "
                "The Bonus wager's hold and standard deviation are exact (the correlation "
                "between two seats through the shared Bonus card is computed exactly). The "
                "main wager's and the round's come from the independent simulator: "
                f"{thousands(table.rounds)} table-rounds for each number of seats, every seat "
                "playing optimally, a freshly shuffled shoe each round, seed "
                f"{table.seed} plus the number of seats. The simulated Bonus hold agrees with "
                f"the exact one at every table (largest |z| {worst:.2f})."
            ),
            Grid(
                (
                    "seats",
                    "Bonus hold",
                    "Bonus SD",
                    "main hold",
                    "main SD",
                    "round hold",
                    "round SD",
                ),
                rows,
                caption="Casino's expected win (hold) and its standard deviation (SD) per "
                "table-round, in main-wager units; every seat stakes 1 on the main wager and "
                f"{game.rules.bonus_ratio} on the Bonus. Bonus figures exact; main-wager and "
                "round figures simulated, holds \u00b1 the half-width of their 95% confidence "
                "interval; a negative hold is the players' gain.",
            ),
        ),
    )


def _appendix(game: GameResult[Fraction]) -> Section:
    bonus = _bonus_of(game)
    exact: list[tuple[str, Fraction]] = [
        ("main-wager EV", _fraction(game.expected_value)),
        *((f"main wager: P({MAIN_NAMES[k]})", _fraction(p)) for k, p in game.outcomes.items()),
        ("main-wager variance", _fraction(game.variance)),
        ("Bonus EV (per Bonus unit)", bonus.expected_value),
        *((f"Bonus: P({BONUS_NAMES[ln.outcome]})", ln.probability) for ln in bonus.lines),
        ("Bonus variance (Bonus units\u00b2)", bonus.variance),
        ("round EV (main-wager units)", _fraction(game.round_expected_value)),
        ("round house edge", _fraction(game.round_house_edge)),
        ("round hit frequency", _fraction(game.round_hit_frequency)),
        ("round variance", _fraction(game.round_variance)),
    ]
    return Section(
        "Appendix: exact values",
        (
            Grid(
                ("quantity", "exact value"),
                tuple((name, minus(str(value))) for name, value in exact),
                caption="Every headline figure as an exact fraction.",
                numeric=False,
            ),
        ),
    )
