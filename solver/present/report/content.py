"""The report's content: every figure computed once and laid out as neutral blocks.

:func:`build_report` returns :class:`Section`\\ s of :class:`Text`, :class:`Grid` and
:class:`Plot` blocks; :mod:`.html` and :mod:`.pdf` render the same sections.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from importlib.metadata import version
from typing import TYPE_CHECKING

from solver.exact.dealer import dealer_distribution
from solver.exact.design import (
    PAY_TIERS,
    EdgeKind,
    EdgeModel,
    edge_model,
    one_rule_at_a_time,
    rule_differences,
    solve_variants,
)
from solver.exact.game import GameResult, round_outcomes
from solver.exact.strategy import Action
from solver.model.cards import RANKS, VALUES, Card, Shoe, value_label
from solver.model.outcomes import MAIN_OUTCOMES, BonusOutcome
from solver.model.rules import RULE_MEANINGS, Rules, format_ratio
from solver.present.charts import (
    COLOURS,
    COLUMNS,
    EXCEPTION_HEADERS,
    TOP_EXCEPTIONS,
    exception_rows,
    grid,
    summary,
)
from solver.present.collection import chart_for
from solver.present.report.plots import BONUS_NAMES, dealer_plot, ev_by_bonus_plot, sensitivity_plot
from solver.present.tables import number, percent, rule_cell, signed

if TYPE_CHECKING:
    from matplotlib.figure import Figure

TITLE = "Community Blackjack (Casino Edition)"
SUBTITLE = "Mathematical analysis of the game (PAR report)"


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


@dataclass(frozen=True, slots=True, eq=False)
class Plot:
    """A matplotlib figure, drawn afresh by ``draw`` for each rendering, and its caption.

    A new figure each time keeps renderings byte-identical: matplotlib's layout can move
    by a rounding step when the same figure is drawn twice.
    """

    draw: Callable[[], Figure]
    caption: str


Block = Text | Grid | Plot


@dataclass(frozen=True, slots=True)
class Section:
    """A titled part of the report."""

    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class Report:
    """A whole report: the rules it describes and its sections in order."""

    rules: Rules
    sections: tuple[Section, ...]
    title: str = TITLE
    subtitle: str = SUBTITLE
    generator: str = field(default_factory=lambda: f"cbj {version('community-blackjack')}")


def build_report(rules: Rules, jobs: int = 1) -> Report:
    """Compute every figure of the game under ``rules`` and lay out the report."""
    model = edge_model(rules, jobs)
    game = model.priced(rules.paytable, rules.bonus_ratio)
    variants = solve_variants(one_rule_at_a_time(rules), jobs=jobs)
    sections = (
        _summary(game),
        _assumptions(game),
        _bonus_section(game),
        _main_section(game),
        _round_section(game),
        _dealer_section(rules),
        _sensitivity_section(model, rules),
        Section(
            "Rule variants",
            (
                Text(
                    "Each row changes one rule from those in force and keeps the paytable and "
                    "the bonus ratio. Main-wager EVs are from the float solver (agreeing with "
                    "the exact solver to 1e-12); Bonus EVs are exact."
                ),
                Grid(
                    ("rules changed", "main EV", "Bonus EV", "round house edge"),
                    tuple(
                        (
                            rule_differences(v.rules, rules),
                            signed(v.main_expected_value),
                            signed(v.bonus_expected_value),
                            percent(v.round_house_edge),
                        )
                        for v in variants
                    ),
                ),
            ),
        ),
        _chart_section(rules),
        _appendix(game),
    )
    return Report(rules, sections)


# --- Figures --------------------------------------------------------------------------

MAIN_PAYS = {"blackjack": "", "win": "1 to 1", "push": "0", "lose": "-1"}


def _one_in(probability: Fraction) -> str:
    return f"1 in {1 / float(probability):,.1f}" if probability else "never"


def _pay_text(pay: Fraction) -> str:
    return f"{format_ratio(pay).replace(':', ' to ')}"


def _fraction(value: Fraction | float) -> Fraction:
    assert isinstance(value, Fraction), "the report is built from an exact solve"
    return value


def _main_pays(rules: Rules) -> dict[str, Fraction]:
    return {"blackjack": rules.blackjack_pays, "win": Fraction(1), "push": Fraction(0),
            "lose": Fraction(-1)}  # fmt: skip


def _summary(game: GameResult) -> Section:
    rules, bonus = game.rules, game.bonus
    assert bonus is not None
    r = rules.bonus_ratio
    outcomes = {k: _fraction(p) for k, p in game.outcomes.items()}
    main_ev = _fraction(game.expected_value)
    round_ev = _fraction(game.round_expected_value)
    suited = next(ln for ln in bonus.lines if ln.outcome is BonusOutcome.SUITED_MATCH)
    top_round = game.round_lines[-1]
    rows = (
        ("Wager per round (units)", "1", str(r), str(1 + r)),
        ("Expected value per round", signed(main_ev), signed(r * bonus.expected_value),
         signed(round_ev)),
        ("House edge", percent(-main_ev), percent(bonus.house_edge),
         percent(_fraction(game.round_house_edge))),
        ("Element of risk", percent(-main_ev), percent(bonus.house_edge),
         percent(_fraction(game.round_house_edge))),
        ("Hit frequency", number(outcomes["blackjack"] + outcomes["win"], 4),
         number(bonus.hit_frequency, 4), number(_fraction(game.round_hit_frequency), 4)),
        ("Standard deviation (units)", number(game.standard_deviation, 4),
         number(bonus.standard_deviation * float(r), 4),
         number(math.sqrt(game.round_variance), 4)),
        ("Top award", f"blackjack, {_pay_text(rules.blackjack_pays)}",
         f"suited match, {_pay_text(suited.pays)}", f"{signed(top_round.net, 2)} units"),
        ("Odds of the top award", _one_in(outcomes["blackjack"]), _one_in(suited.probability),
         _one_in(_fraction(top_round.probability))),
    )  # fmt: skip
    return Section(
        "Summary",
        (
            Text(
                f"This report gives the exact mathematics of {TITLE} under the rules and "
                f"paytable in force: {rules.summary()}. Every figure is computed exactly "
                "from the full shoe (no simulation) and rounded only for display; the "
                "appendix gives the exact fractions."
            ),
            Grid(
                ("figure", "main wager", "Bonus wager", "whole round"),
                rows,
                caption="Key figures. Amounts in units of the main wager; the round's house "
                "edge is per unit of the total amount wagered (main + Bonus). The game has "
                "no doubles, splits or raises, so the amount wagered is fixed and the element "
                "of risk equals the house edge. A negative main-wager edge means the player "
                "has the advantage on that wager alone; the Bonus wager is mandatory.",
            ),
        ),
    )


def _assumptions(game: GameResult) -> Section:
    rules = game.rules
    values = rules.to_json()
    rows = tuple(
        (name.replace("_", " "), rule_cell(values[name]), RULE_MEANINGS[name]) for name in values
    )
    n = 52 * rules.decks
    return Section(
        "Assumptions and method",
        (
            Grid(("rule", "value", "meaning"), rows, caption="Rules in force.", numeric=False),
            Text(
                f"Wagers: the main wager is one unit and the Bonus wager {rules.bonus_ratio} "
                f"unit(s); the Bonus pays {rules.paytable.suited_match} / "
                f"{rules.paytable.rank_match} / {rules.paytable.adjacent} to 1 for a suited "
                "match / rank match / adjacent rank, and loses otherwise."
            ),
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
                "Combinations count ordered pairs of physical cards, "
                f"{n} x {n - 1} = {n * (n - 1):,} in all. One player plays against the dealer."
            ),
        ),
    )


def _bonus_section(game: GameResult) -> Section:
    bonus = game.bonus
    assert bonus is not None
    rows = tuple(
        (
            BONUS_NAMES[ln.outcome],
            _pay_text(ln.pays) if ln.pays >= 0 else "-1",
            f"{ln.combinations:,}",
            number(ln.probability, 6),
            signed(ln.return_, 6),
        )
        for ln in bonus.lines
    )
    total = ("total", "", f"{bonus.total_combinations:,}", number(1, 6),
             signed(bonus.expected_value, 6))  # fmt: skip
    return Section(
        "Bonus wager",
        (
            Grid(
                ("outcome", "pays", "combinations", "probability", "return"),
                (*rows, total),
                caption=f"Return table per unit on the Bonus wager. House edge "
                f"{percent(bonus.house_edge)}, hit frequency {number(bonus.hit_frequency, 4)}, "
                f"standard deviation {number(bonus.standard_deviation, 4)}.",
            ),
        ),
    )


def _main_section(game: GameResult) -> Section:
    pays = _main_pays(game.rules)
    rows = tuple(
        (k, MAIN_PAYS[k] or _pay_text(pays[k]), number(p, 6), signed(p * pays[k], 6))
        for k, p in game.outcomes.items()
    )
    total = ("total", "", number(1, 6), signed(game.expected_value, 6))
    by_card = game.by_bonus_card()
    return Section(
        "Main wager",
        (
            Grid(
                ("outcome", "pays", "probability", "return"),
                (*rows, total),
                caption="Return table per unit on the main wager under optimal play. "
                "Blackjack is the player's own card and the Bonus card making 21, paid at once.",
            ),
            Plot(partial(ev_by_bonus_plot, game), "Main-wager EV by the Bonus card dealt."),
            Grid(
                ("Bonus card", *(value_label(c) for c in by_card)),
                (("main EV (%)", *(f"{float(v) * 100:+.2f}" for v in by_card.values())),),
                caption="The same figures: EV per unit on the main wager given the Bonus card.",
            ),
        ),
    )


def _round_section(game: GameResult) -> Section:
    rules = game.rules
    pays = _main_pays(rules)
    joint = round_outcomes(game)
    rows = []
    for k in MAIN_OUTCOMES:
        for outcome in BonusOutcome:
            if (k, outcome) not in joint:
                continue
            bonus_pay = rules.paytable.as_dict().get(outcome.value, Fraction(-1))
            net = pays[k] + rules.bonus_ratio * bonus_pay
            p = _fraction(joint[(k, outcome)])
            rows.append((str(k), BONUS_NAMES[outcome], signed(net, 2), number(p, 6),
                         signed(p * net, 6)))  # fmt: skip
    rows.append(("total", "", "", number(1, 6), signed(game.round_expected_value, 6)))
    return Section(
        "Whole round",
        (
            Grid(
                ("main wager", "Bonus wager", "net (units)", "probability", "return"),
                tuple(rows),
                caption=f"Return table of a round: one unit on the main wager and "
                f"{rules.bonus_ratio} on the Bonus, both settled on the same two cards "
                "(combinations that cannot occur are left out). House edge "
                f"{percent(_fraction(game.round_house_edge))} of the total wagered; "
                f"hit frequency {number(_fraction(game.round_hit_frequency), 4)}; standard "
                f"deviation {number(math.sqrt(game.round_variance), 4)} units.",
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
            Grid(
                ("Bonus card", *labels),
                tuple((value_label(c), *(number(d[x], 4) for x in labels)) for c, d in rows),
                caption="The dealer's final result for each Bonus card, from the full shoe "
                "less that card (before the player draws).",
            ),
            Plot(partial(dealer_plot, rows), "The dealer's final result by Bonus card."),
        ),
    )


def _chart_section(rules: Rules) -> Section:
    """The best printable chart, its cost against perfect play and its main exceptions."""
    chart = chart_for(rules)
    rows = grid(chart)
    return Section(
        "Strategy chart",
        (
            Text(
                "The best chart that looks only at the total of the player's own cards (hard, or "
                "soft when an ace counts 11) and the Bonus card: H hit, S stand, - no decision "
                f"(a blackjack). {summary(chart)}. The main-wager figures above assume "
                "composition-dependent optimal play; a player using this chart gets the "
                "chart EV instead."
            ),
            Grid(
                ("hand", *COLUMNS),
                tuple((hand, *actions) for hand, actions in rows),
                caption="Hit/stand chart by own total (rows) and Bonus card (columns).",
                colours=tuple(
                    (None, *(COLOURS[Action(a)] for a in actions)) for _, actions in rows
                ),
                numeric=False,
            ),
            Grid(
                EXCEPTION_HEADERS,
                tuple(exception_rows(chart)),
                caption=f"The {TOP_EXCEPTIONS} hands where perfect play departs from the chart "
                f"that matter most (of {len(chart.exceptions)}).",
                numeric=False,
            ),
        ),
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
                _pay_text(current),
                f"{float(slope) * 100:+.4f} points",
                f"{float(even):.4f}" if even >= 0 else "none (edge stays positive)",
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
                "Round house edge as a function of each pay.",
            ),
            Grid(
                ("tier", "pays", "edge change per unit of pay", "break-even pay"),
                tuple(rows),
                caption="Break-even pay: the pay of that tier, the others unchanged, at which "
                "the round's house edge is exactly 0.",
            ),
        ),
    )


def _appendix(game: GameResult) -> Section:
    bonus = game.bonus
    assert bonus is not None
    exact: list[tuple[str, Fraction]] = [
        ("main wager EV", _fraction(game.expected_value)),
        *((f"main wager P({k})", _fraction(p)) for k, p in game.outcomes.items()),
        ("main wager variance", _fraction(game.variance)),
        ("Bonus wager EV", bonus.expected_value),
        *((f"Bonus P({BONUS_NAMES[ln.outcome]})", ln.probability) for ln in bonus.lines),
        ("Bonus wager variance", bonus.variance),
        ("round EV", _fraction(game.round_expected_value)),
        ("round house edge", _fraction(game.round_house_edge)),
        ("round hit frequency", _fraction(game.round_hit_frequency)),
        ("round variance", _fraction(game.round_variance)),
        *(
            (f"main EV, Bonus card {value_label(c)}", _fraction(v))
            for c, v in game.by_bonus_card().items()
        ),
    ]
    return Section(
        "Appendix: exact values",
        (
            Grid(
                ("quantity", "exact value"),
                tuple((name, str(value)) for name, value in exact),
                caption="Every headline figure as an exact fraction.",
                numeric=False,
            ),
        ),
    )
