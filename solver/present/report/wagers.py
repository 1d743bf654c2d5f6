"""The report's sections on the wagers: summary, rules and method, each wager, the appendix."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING

from solver.model.cards import value_label
from solver.model.outcomes import MAIN_OUTCOMES, main_payoffs
from solver.present.report.blocks import (
    MAIN_NAMES,
    TITLE,
    Grid,
    Plot,
    Section,
    Text,
    bonus_of,
    exact,
    probability,
)
from solver.present.report.plots import BONUS_NAMES, ev_by_bonus_plot
from solver.present.style import edge_percent, minus, one_in, signed, thousands
from solver.present.wording import rule_lines
from solver.present.wording import to_one as _to_one

if TYPE_CHECKING:
    from solver.exact.game import GameResult, JointOutcomes


def summary_section(game: GameResult[Fraction]) -> Section:
    """Key figures of the main wager, the Bonus wager and the whole round."""
    rules, bonus = game.rules, bonus_of(game)
    r = rules.bonus_ratio
    outcomes = {k: exact(p) for k, p in game.outcomes.items()}
    main_ev = exact(game.expected_value)
    round_ev = exact(game.round_expected_value)
    suited = bonus.lines[0]  # the best tier, listed first
    top_round = game.round_lines[-1]
    rows = (
        ("Amount wagered (main-wager units)", "1", str(r), str(1 + r)),
        ("House edge (% of that wager)", edge_percent(-main_ev), edge_percent(bonus.house_edge),
         edge_percent(exact(game.round_house_edge))),
        ("Expected value per round (main-wager units)", signed(main_ev),
         signed(r * bonus.expected_value), signed(round_ev)),
        ("Hit frequency", one_in(outcomes["blackjack"] + outcomes["win"]),
         one_in(bonus.hit_frequency), one_in(exact(game.round_hit_frequency))),
        ("Standard deviation per round (main-wager units)", f"{game.standard_deviation:.4f}",
         f"{bonus.standard_deviation * float(r):.4f}", f"{math.sqrt(game.round_variance):.4f}"),
        ("Top award", f"blackjack, {_to_one(rules.blackjack_pays)}",
         f"{BONUS_NAMES[suited.outcome]}, {_to_one(suited.pays)}",
         f"{signed(top_round.net, 2)} main-wager units"),
        ("Odds of the top award", one_in(outcomes["blackjack"]), one_in(suited.probability),
         one_in(exact(top_round.probability))),
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


def assumptions_section(game: GameResult[Fraction]) -> Section:
    """The rules in force, the player's strategy and the method."""
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


def bonus_section(game: GameResult[Fraction]) -> Section:
    """The Bonus wager's return table."""
    bonus = bonus_of(game)
    rows = tuple(
        (
            BONUS_NAMES[ln.outcome],
            _to_one(ln.pays) if ln.pays >= 0 else minus("-1"),
            thousands(ln.combinations),
            probability(ln.probability),
            one_in(ln.probability),
            signed(ln.return_, 6),
        )
        for ln in bonus.lines
    )
    total = ("total", "", thousands(bonus.total_combinations), probability(1), "",
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


def main_section(game: GameResult[Fraction]) -> Section:
    """The main wager's return table and its EV by Bonus card."""
    pays = main_payoffs(game.rules)
    rows = tuple(
        (
            MAIN_NAMES[k],
            _to_one(pays[k]) if pays[k] > 0 else minus(str(pays[k])),
            probability(p),
            one_in(p),
            signed(p * pays[k], 6),
        )
        for k, p in game.outcomes.items()
    )
    total = ("total", "", probability(1), "", signed(game.expected_value, 6))
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


def round_section(game: GameResult[Fraction], joint: JointOutcomes) -> Section:
    """The whole round's return table, from the joint (main, Bonus) outcomes."""
    rules = game.rules
    pays = main_payoffs(rules)
    rows = []
    for k in MAIN_OUTCOMES:
        for outcome in rules.paytable.outcomes:
            if (k, outcome) not in joint:
                continue
            bonus_pay = rules.paytable.as_dict().get(outcome, Fraction(-1))
            net = pays[k] + rules.bonus_ratio * bonus_pay
            p = exact(joint[(k, outcome)])
            rows.append((MAIN_NAMES[str(k)], BONUS_NAMES[outcome], signed(net, 2),
                         probability(p), one_in(p), signed(p * net, 6)))  # fmt: skip
    rows.append(("total", "", "", probability(1), "", signed(game.round_expected_value, 6)))
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
                f"{edge_percent(exact(game.round_house_edge))} of the total wagered; "
                f"hit frequency {one_in(exact(game.round_hit_frequency))}; standard "
                f"deviation {math.sqrt(game.round_variance):.4f} main-wager units.",
            ),
        ),
    )


def appendix_section(game: GameResult[Fraction]) -> Section:
    """Every headline figure as an exact fraction."""
    bonus = bonus_of(game)
    values: list[tuple[str, Fraction]] = [
        ("main-wager EV", exact(game.expected_value)),
        *((f"main wager: P({MAIN_NAMES[k]})", exact(p)) for k, p in game.outcomes.items()),
        ("main-wager variance", exact(game.variance)),
        ("Bonus EV (per Bonus unit)", bonus.expected_value),
        *((f"Bonus: P({BONUS_NAMES[ln.outcome]})", ln.probability) for ln in bonus.lines),
        ("Bonus variance (Bonus units\u00b2)", bonus.variance),
        ("round EV (main-wager units)", exact(game.round_expected_value)),
        ("round house edge", exact(game.round_house_edge)),
        ("round hit frequency", exact(game.round_hit_frequency)),
        ("round variance", exact(game.round_variance)),
    ]
    return Section(
        "Appendix: exact values",
        (
            Grid(
                ("quantity", "exact value"),
                tuple((name, minus(str(value))) for name, value in values),
                caption="Every headline figure as an exact fraction.",
                numeric=False,
            ),
        ),
    )
