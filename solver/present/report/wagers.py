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
    TITLE,
    Grid,
    Plot,
    Section,
    Text,
    bonus_of,
    exact,
    probability,
)
from solver.present.report.plots import ev_by_bonus_plot
from solver.present.style import edge_percent, long_count, minus, one_in, signed, thousands
from solver.present.wording import to_one as _to_one
from solver.results.figures import WAGER_FIGURES, heading, outcome_words, quantity_heading

if TYPE_CHECKING:
    from solver.results.game import GameResult, JointOutcomes


def summary_section(game: GameResult[Fraction]) -> Section:
    """Key figures of the main wager, the Bonus wager and the whole round, each wager's per
    unit staked on it and the round's per main unit, as in Whole round."""
    rules, bonus = game.rules, bonus_of(game)
    r = rules.bonus_ratio
    outcomes = {k: exact(p) for k, p in game.outcomes.items()}
    main_ev = exact(game.expected_value)
    round_edge = exact(game.round_house_edge)
    suited = bonus.lines[0]  # the best tier, listed first
    top_round = game.round_lines[-1]
    values: dict[str, str] = {
        "main_ev": signed(main_ev), "bonus_ev": signed(bonus.expected_value),
        "round_ev": signed(exact(game.round_expected_value)),
        "main_house_edge": edge_percent(-main_ev),
        "bonus_house_edge": edge_percent(bonus.house_edge),
        "round_house_edge": edge_percent(round_edge),
        "main_rtp": edge_percent(1 + main_ev), "bonus_rtp": edge_percent(1 - bonus.house_edge),
        "round_rtp": edge_percent(1 - round_edge),
        "main_hit_frequency": one_in(outcomes["blackjack"] + outcomes["win"]),
        "bonus_hit_frequency": one_in(bonus.hit_frequency),
        "round_hit_frequency": one_in(exact(game.round_hit_frequency)),
        "main_sd": f"{game.standard_deviation:.4f}", "bonus_sd": f"{bonus.standard_deviation:.4f}",
        "round_sd": f"{math.sqrt(game.round_variance):.4f}",
    }  # fmt: skip
    rows = [
        (quantity_heading(main), values[main], values[b], values[rnd])
        for main, b, rnd in WAGER_FIGURES
    ]
    keys: list[tuple[str | None, ...]] = [(None, *row) for row in WAGER_FIGURES]
    rows += [
        ("amount wagered (main-wager units)", "1", str(r), str(1 + r)),
        (heading("top_award"), f"blackjack, {_to_one(rules.blackjack_pays)}",
         f"{outcome_words(suited.outcome)}, {_to_one(suited.pays)}",
         f"{signed(top_round.net, 2)} main-wager units"),
        (heading("top_award_odds"), one_in(outcomes["blackjack"]), one_in(suited.probability),
         one_in(exact(top_round.probability))),
    ]  # fmt: skip
    keys += [(None,) * 4] * 3
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
                tuple(rows),
                caption="Key figures. Each wager's EV, hit frequency and standard deviation "
                "are per unit staked on it; the whole round's per main unit (1 unit on the "
                f"main wager and {r} on the Bonus), the basis of Whole round below. House "
                "edges and returns to player (RTP) are in % of what is staked: the round's of "
                f"the total wagered, {1 + r} main units. The element of risk equals the house "
                "edge (no doubles, splits or raises). A negative main-wager house edge means "
                "the player has the advantage on that wager alone; the Bonus wager is "
                "mandatory.",
                keys=tuple(keys),
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
                outcome_words(ln.outcome),
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
        keys = (None, None, "bonus_combinations", "bonus_probability", "odds", "true_odds",
                "bonus_return")  # fmt: skip
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
                caption=f"Paytable {letter} ({game.rules.paytable}), per unit staked on the "
                "Bonus wager: return is each outcome's share of the Bonus wager EV; "
                "combinations out of the full cycle of ordered (player card, Bonus card) pairs. "
                f"House edge {edge_percent(bonus.house_edge)} (RTP "
                f"{edge_percent(bonus.return_to_player)}); hit frequency "
                f"{one_in(bonus.hit_frequency)}; standard deviation "
                f"{bonus.standard_deviation:.4f} per Bonus unit.",
                keys=(
                    *(keys for _ in rows),
                    (None, None, "bonus_combinations", None, None, None, None),
                ),
            )
        )
    return Section("Bonus wager", tuple(blocks))


def _cycle_pointer(what: str) -> str:
    return (
        f"Combinations out of the full cycle of {what}: Appendix: exact values, whose counts "
        "run to dozens of digits (the player's and the dealer's draws make the cycle large)."
    )


def main_section(game: GameResult[Fraction]) -> Section:
    """The main wager's return table and its EV by Bonus card."""
    pays = main_payoffs(game.rules)
    rows = tuple(
        (
            outcome_words(k),
            _to_one(pays[k]) if pays[k] > 0 else minus(str(pays[k])),
            probability(p),
            one_in(p),
            true_odds(exact(p)) if pays[k] > 0 else "",
            signed(p * pays[k], 6),
        )
        for k, p in game.outcomes.items()
    )
    total = ("total", "", probability(1), "", "", signed(game.expected_value, 6))
    keys = (None, None, "main_probability", "odds", "true_odds", "main_return")
    by_card = game.by_bonus_card()
    return Section(
        "Main wager",
        (
            Grid(
                ("outcome", "pays", "probability", "odds", "true odds", "return"),
                (*rows, total),
                caption="Return table per unit staked on the main wager under optimal play: "
                "return is each outcome's share of the main wager EV. Blackjack is the "
                "player's own card and the Bonus card making 21, paid at once. House edge "
                f"{edge_percent(-game.expected_value)} (RTP "
                f"{edge_percent(game.return_to_player)}). "
                + _cycle_pointer("the main wager's outcomes"),
                keys=(*(keys for _ in rows), (None,) * 6),
            ),
            Plot(
                partial(ev_by_bonus_plot, game),
                "Main-wager EV by the Bonus card dealt, in % of the main wager.",
            ),
            Grid(
                ("Bonus card", *(value_label(c) for c in by_card)),
                (
                    (
                        f"{heading('main_ev_by_bonus_card')} (%)",
                        *(minus(f"{float(v) * 100:+.2f}%") for v in by_card.values()),
                    ),
                ),
                caption="The same figures: main-wager EV in % of the main wager, given the "
                "Bonus card.",
                compact=True,
                keys=((None, *("main_ev_by_bonus_card" for _ in by_card)),),
            ),
        ),
    )


def round_section(game: GameResult[Fraction], joint: JointOutcomes) -> Section:
    """The whole round's return table, from the joint (main, Bonus) outcomes."""
    rules = game.rules
    pays = main_payoffs(rules)
    ratio = rules.bonus_ratio
    rows = []
    for k in MAIN_OUTCOMES:
        for outcome in rules.paytable.outcomes:
            if (k, outcome) not in joint:
                continue
            bonus_pay = rules.paytable.as_dict().get(outcome, Fraction(-1))
            net = pays[k] + ratio * bonus_pay
            p = exact(joint[(k, outcome)])
            rows.append((outcome_words(k), outcome_words(outcome), signed(net, 2),
                         probability(p), one_in(p), signed(p * net, 6),
                         signed(p * net / (1 + ratio), 6)))  # fmt: skip
    round_ev = exact(game.round_expected_value)
    keys = (None, None, "round_net", "round_probability", "odds", "round_return",
            "round_return_per_wagered")  # fmt: skip
    total = ("total", "", "", probability(1), "", signed(round_ev, 6),
             signed(round_ev / (1 + ratio), 6))  # fmt: skip
    edge = exact(game.round_house_edge)
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
                    quantity_heading("round_return"),
                    quantity_heading("round_return_per_wagered"),
                ),
                (*rows, total),
                caption=f"Return table of a round, per main unit: one unit on the main wager "
                f"and {ratio} on the Bonus, both settled on the same two cards (combinations "
                "that cannot occur are left out); the last column is per unit of the "
                f"{1 + ratio} wagered in all. House edge {edge_percent(edge)} of the total "
                f"wagered (RTP {edge_percent(1 - edge)}); hit frequency "
                f"{one_in(exact(game.round_hit_frequency))}; standard deviation "
                f"{math.sqrt(game.round_variance):.4f} main-wager units. "
                + _cycle_pointer("the round's outcome pairs"),
                keys=(*(keys for _ in rows), (None,) * 7),
            ),
        ),
    )


def appendix_section(game: GameResult[Fraction]) -> Section:
    """Every headline figure as an exact fraction, and the main wager's and the round's
    combinations out of their cycles."""
    bonus = bonus_of(game)
    values: list[tuple[str, Fraction]] = [
        ("main_ev", exact(game.expected_value)),
        ("main_variance", exact(game.variance)),
        ("bonus_ev", bonus.expected_value),
        ("bonus_variance", bonus.variance),
        ("round_ev", exact(game.round_expected_value)),
        ("round_house_edge", exact(game.round_house_edge)),
        ("round_hit_frequency", exact(game.round_hit_frequency)),
        ("round_variance", exact(game.round_variance)),
    ]
    chances = (
        *((f"main wager probability: {outcome_words(k)}", exact(p), "main_probability")
          for k, p in game.outcomes.items()),
        *((f"Bonus wager probability: {outcome_words(ln.outcome)}", ln.probability,
           "bonus_probability") for ln in bonus.lines),
    )  # fmt: skip
    cycle, counts = over_common_cycle([exact(p) for p in game.outcomes.values()])
    combinations = tuple(
        (outcome_words(k), long_count(n)) for k, n in zip(game.outcomes, counts, strict=True)
    )
    round_cycle, round_counts = over_common_cycle(
        [exact(line.probability) for line in game.round_lines]
    )
    round_combinations = tuple(
        (signed(line.net, 2), long_count(n))
        for line, n in zip(game.round_lines, round_counts, strict=True)
    )
    return Section(
        "Appendix: exact values",
        (
            Grid(
                ("figure", "exact value"),
                (
                    *((heading(key), minus(str(value))) for key, value in values),
                    *((label, minus(str(value))) for label, value, _ in chances),
                ),
                caption="Every headline figure as an exact fraction, on the basis its label "
                "and the Definitions give (variances in squared units of the same).",
                numeric=False,
                keys=(
                    *((None, key) for key, _ in values),
                    *((None, key) for _, _, key in chances),
                ),
                long_numbers=True,
            ),
            _cycle_grid(
                "main-wager outcome",
                combinations,
                cycle,
                "main_combinations",
                "The main wager's combinations out of its full cycle under optimal play: the "
                "least common denominator of its outcomes' exact probabilities",
            ),
            _cycle_grid(
                "round net (main units)",
                round_combinations,
                round_cycle,
                "round_combinations",
                "The round's combinations out of its full cycle, by net result (the outcome "
                "pairs of Whole round with the same net together): the least common "
                "denominator of the nets' exact probabilities",
            ),
        ),
    )


def _cycle_grid(
    header: str, rows: tuple[tuple[str, str], ...], cycle: int, key: str, what: str
) -> Grid:
    """Counts out of a cycle, then the cycle, its caption saying how long the cycle is."""
    return Grid(
        (header, "combinations"),
        (*rows, ("total (the cycle)", long_count(cycle))),
        caption=f"{what} ({len(str(cycle))} digits; the player's and dealer's draws make it "
        "large), so that every count is a whole number.",
        numeric=False,
        long_numbers=True,
        keys=(*((None, key) for _ in rows), (None, None)),
    )
