"""The report's sections on the wagers: summary, rules and method, each wager, the appendix."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING

from solver.model.cards import value_label
from solver.model.numbers import over_common_cycle
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
from solver.present.style import edge_percent, long_count, minus, one_in, signed, thousands
from solver.present.wording import to_one as _to_one

if TYPE_CHECKING:
    from solver.results.game import GameResult, JointOutcomes


def summary_section(game: GameResult[Fraction]) -> Section:
    """Key figures of the main wager, the Bonus wager and the whole round."""
    rules, bonus = game.rules, bonus_of(game)
    r = rules.bonus_ratio
    outcomes = {k: exact(p) for k, p in game.outcomes.items()}
    main_ev = exact(game.expected_value)
    round_ev = exact(game.round_expected_value)
    suited = bonus.lines[0]  # the best tier, listed first
    top_round = game.round_lines[-1]
    bonus_sd = bonus.standard_deviation
    rows = (
        ("Amount wagered (main-wager units)", "1", str(r), str(1 + r)),
        ("House edge (% of that wager)", edge_percent(-main_ev), edge_percent(bonus.house_edge),
         edge_percent(exact(game.round_house_edge))),
        ("Player EV per unit staked on that wager", signed(main_ev),
         signed(bonus.expected_value), signed(round_ev / (1 + r))),
        ("Hit frequency", one_in(outcomes["blackjack"] + outcomes["win"]),
         one_in(bonus.hit_frequency), one_in(exact(game.round_hit_frequency))),
        ("Standard deviation per unit staked on that wager", f"{game.standard_deviation:.4f}",
         f"{bonus_sd:.4f}", f"{math.sqrt(game.round_variance) / float(1 + r):.4f}"),
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
                f"The mathematics of {TITLE} under the rules and paytable A of the title "
                "block. The figures of this summary are exact, computed from the full shoe and "
                "rounded only for display (the appendix gives the exact fractions); the "
                "simulated sections say so. Signs as defined: EVs are the player's (negative "
                "when the player loses), house edges the casino's (positive when the casino "
                "wins)."
            ),
            Grid(
                ("figure", "main wager", "Bonus wager", "whole round"),
                rows,
                caption="Key figures, each per unit staked on that wager (the round's per "
                "unit of main + Bonus wagered); the round per main unit is under Whole round. "
                "The element of risk equals the house edge (no doubles, splits or raises). A "
                "negative main-wager house edge means the player has the advantage on that "
                "wager alone; the Bonus wager is mandatory.",
            ),
        ),
    )


def true_odds(probability: Fraction) -> str:
    """The true odds against an outcome, ``N to 1`` to two places (``never`` if it cannot happen).

    >>> true_odds(Fraction(1, 4))
    '3.00 to 1'
    """
    if probability == 0:
        return "never"
    return f"{thousands_float((1 - probability) / probability)} to 1"


def thousands_float(value: Fraction) -> str:
    """A positive number to two places with thin-space thousands."""
    whole, cents = divmod(round(value * 100), 100)
    return f"{thousands(whole)}.{cents:02d}"


def bonus_section(games: Sequence[tuple[str, GameResult[Fraction]]]) -> Section:
    """The Bonus wager's return table under each paytable of the report."""
    blocks = []
    for letter, game in games:
        bonus = bonus_of(game)
        rows = tuple(
            (
                BONUS_NAMES[ln.outcome],
                _to_one(ln.pays) if ln.pays >= 0 else minus("-1"),
                thousands(ln.combinations),
                probability(ln.probability),
                one_in(ln.probability),
                true_odds(ln.probability) if ln.pays >= 0 else "",
                signed(ln.return_, 6),
            )
            for ln in bonus.lines
        )
        total = ("total", "", thousands(bonus.total_combinations), probability(1), "", "",
                 signed(bonus.expected_value, 6))  # fmt: skip
        blocks.append(
            Grid(
                (
                    "outcome",
                    "pays",
                    "combinations",
                    "probability",
                    "odds",
                    "true odds",
                    "return",
                ),
                (*rows, total),
                caption=f"Paytable {letter} ({game.rules.paytable}): return per unit staked on "
                "the Bonus wager; combinations out of the full cycle of ordered (player card, "
                f"Bonus card) pairs. House edge {edge_percent(bonus.house_edge)} of the Bonus "
                f"wager; hit frequency {one_in(bonus.hit_frequency)}; standard deviation "
                f"{bonus.standard_deviation:.4f} per Bonus unit.",
            )
        )
    return Section("Bonus wager", tuple(blocks))


def main_section(game: GameResult[Fraction]) -> Section:
    """The main wager's return table and its EV by Bonus card."""
    pays = main_payoffs(game.rules)
    rows = tuple(
        (
            MAIN_NAMES[k],
            _to_one(pays[k]) if pays[k] > 0 else minus(str(pays[k])),
            probability(p),
            one_in(p),
            true_odds(exact(p)) if pays[k] > 0 else "",
            signed(p * pays[k], 6),
        )
        for k, p in game.outcomes.items()
    )
    total = ("total", "", probability(1), "", "", signed(game.expected_value, 6))
    by_card = game.by_bonus_card()
    return Section(
        "Main wager",
        (
            Grid(
                ("outcome", "pays", "probability", "odds", "true odds", "return"),
                (*rows, total),
                caption="Return table per unit staked on the main wager under optimal play. "
                "Blackjack is the player's own card and the Bonus card making 21, paid at once. "
                "Combinations out of the full cycle: in the appendix.",
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
                         probability(p), one_in(p), signed(p * net, 6),
                         signed(p * net / (1 + rules.bonus_ratio), 6)))  # fmt: skip
    round_ev = exact(game.round_expected_value)
    rows.append(("total", "", "", probability(1), "", signed(round_ev, 6),
                 signed(round_ev / (1 + rules.bonus_ratio), 6)))  # fmt: skip
    return Section(
        "Whole round",
        (
            Grid(
                (
                    "main wager",
                    "Bonus wager",
                    "net",
                    "probability",
                    "odds",
                    "return",
                    "return per unit wagered",
                ),
                tuple(rows),
                caption=f"Return table of a round: one unit on the main wager and "
                f"{rules.bonus_ratio} on the Bonus, both settled on the same two cards "
                "(combinations that cannot occur are left out); net and return per main "
                f"unit, and per unit of the {1 + rules.bonus_ratio} wagered in all. House edge "
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
    cycle, counts = over_common_cycle([exact(p) for p in game.outcomes.values()])
    combinations = tuple(
        (MAIN_NAMES[k], long_count(n)) for k, n in zip(game.outcomes, counts, strict=True)
    )
    return Section(
        "Appendix: exact values",
        (
            Grid(
                ("quantity", "exact value"),
                tuple((name, minus(str(value))) for name, value in values),
                caption="Every headline figure as an exact fraction.",
                numeric=False,
                long_numbers=True,
            ),
            Grid(
                ("main-wager outcome", "combinations"),
                (*combinations, ("total (the cycle)", long_count(cycle))),
                caption="The main wager's combinations out of its full cycle under optimal "
                "play: the least common denominator of its outcomes' exact probabilities "
                f"({len(str(cycle))} digits; the player's and dealer's draws make it large), "
                "so that every count is a whole number.",
                numeric=False,
                long_numbers=True,
            ),
        ),
    )
