"""The report's sections on the wagers: the summary, each wager's paytable, the whole round,
and the exact fractions of Annex B.

Every figure is written as the catalogue's format says (:func:`~solver.present.style.show`),
so it reads the same here as in the terminal, the CSV and the workbench.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from solver.model.cards import value_label
from solver.model.numbers import over_common_cycle
from solver.model.outcomes import MAIN_OUTCOMES, main_payoffs
from solver.present.game import pays_text
from solver.present.report.blocks import Grid, Section, Text, bonus_of, exact
from solver.present.style import long_count, minus, show, thousands
from solver.results.figures import (
    STAKE_FIGURES,
    WAGER_FIGURES,
    heading,
    outcome_words,
    quantity_heading,
)

if TYPE_CHECKING:
    from solver.results.game import GameResult, JointOutcomes


def summary_section(game: GameResult[Fraction], name: str) -> Section:
    """Key figures of the main wager, the Bonus wager and the whole round, each wager's per
    unit staked on it and the round's per main unit, as in Whole round; ``name`` is the
    game's, as the title gives it."""
    rules, bonus = game.rules, bonus_of(game)
    r = rules.bonus_ratio
    outcomes = {k: exact(p) for k, p in game.outcomes.items()}
    main_ev = exact(game.expected_value)
    round_edge = exact(game.round_house_edge)
    best = bonus.lines[0]  # the best tier, listed first
    top_round = game.round_lines[-1]
    pays = main_payoffs(rules)
    top_main = max(pays.values())
    top_main_chance = sum((outcomes[k] for k, v in pays.items() if v == top_main), Fraction(0))
    values: dict[str, Fraction | float] = {
        "main_ev": main_ev, "bonus_ev": bonus.expected_value,
        "round_ev": exact(game.round_expected_value),
        "main_house_edge": -main_ev, "bonus_house_edge": bonus.house_edge,
        "round_house_edge": round_edge,
        "main_rtp": 1 + main_ev, "bonus_rtp": 1 - bonus.house_edge, "round_rtp": 1 - round_edge,
        "main_hit_frequency": outcomes["blackjack"] + outcomes["win"],
        "bonus_hit_frequency": bonus.hit_frequency,
        "round_hit_frequency": exact(game.round_hit_frequency),
        "main_sd": game.standard_deviation, "bonus_sd": bonus.standard_deviation,
        "round_sd": game.round_variance**0.5,
        "main_stake": Fraction(1), "bonus_stake": r, "round_wagered": 1 + r,
        "main_top_award": top_main, "bonus_top_award": best.pays,
        "round_top_award": top_round.net,
        "main_top_award_odds": top_main_chance, "bonus_top_award_odds": best.probability,
        "round_top_award_odds": exact(top_round.probability),
    }  # fmt: skip
    triples = (*WAGER_FIGURES, *STAKE_FIGURES)
    rows = tuple(
        (quantity_heading(keys[0]), *(show(k, values[k]) for k in keys)) for keys in triples
    )
    return Section(
        "Summary",
        (
            Text(
                f"The mathematics of {name} under the rules and paytable A of the title "
                "block, for composition-dependent optimal play (the printed chart's figures "
                "follow in the next section). Every figure is exact, computed from the full "
                "shoe and rounded only for display (Annex B gives the exact fractions). EVs "
                "are the player's, house edges the casino's (Annex A: definitions and the sign "
                "convention)."
            ),
            Grid(
                ("figure", "main wager", "Bonus wager", "whole round"),
                rows,
                caption="Each wager's EV, hit frequency and standard deviation per unit staked "
                f"on it; the whole round's per main unit (1 on the main wager and {r} on the "
                "Bonus). House edges and returns to player (RTP) in % of what is staked: the "
                f"round's of the total wagered, {1 + r} main units. Top awards in units of "
                f"each wager's basis: the Bonus wager's is a {outcome_words(best.outcome)}, "
                "the round's the best main outcome with the best Bonus tier. The element of "
                "risk equals the house edge: no stake is added after the deal.",
                keys=tuple((None, *keys) for keys in triples),
            ),
        ),
    )


def true_odds(probability: Fraction) -> str:
    """The true odds against an outcome (``never`` if it cannot happen).

    >>> true_odds(Fraction(1, 4))
    '3.00 to 1'
    """
    if probability == 0:
        return "never"
    return show("true_odds", (1 - probability) / probability)


#: The columns of a wager's paytable, after its outcome and its pays.
PAYTABLE_COLUMNS = ("combinations", "probability", "odds", "true odds", "return")


def bonus_grid(letter: str, game: GameResult[Fraction]) -> Grid:
    """The Bonus wager's paytable under one paytable of the report."""
    bonus = bonus_of(game)
    rows = tuple(
        (
            outcome_words(ln.outcome),
            pays_text(ln.pays),
            show("bonus_combinations", ln.combinations),
            show("bonus_probability", ln.probability),
            show("odds", ln.probability),
            true_odds(ln.probability) if ln.pays >= 0 else "",
            show("bonus_return", ln.return_),
        )
        for ln in bonus.lines
    )
    total = (
        "total",
        "",
        show("bonus_combinations", bonus.total_combinations),
        show("bonus_probability", 1),
        "",
        "",
        show("bonus_return", bonus.expected_value),
    )
    keys = (None, None, "bonus_combinations", "bonus_probability", "odds", "true_odds",
            "bonus_return")  # fmt: skip
    return Grid(
        ("outcome", "pays", *PAYTABLE_COLUMNS),
        (*rows, total),
        caption=f"Paytable {letter} ({game.rules.paytable}), per unit staked on the Bonus "
        "wager: return is each outcome's share of the Bonus wager EV, combinations are "
        "ordered (player card, Bonus card) pairs of physical cards. House edge "
        f"{show('bonus_house_edge', bonus.house_edge)}, RTP "
        f"{show('bonus_rtp', bonus.return_to_player)}, hit frequency "
        f"{show('bonus_hit_frequency', bonus.hit_frequency)}, SD "
        f"{show('bonus_sd', bonus.standard_deviation)}.",
        keys=(
            *(keys for _ in rows),
            (None, None, "bonus_combinations", "bonus_probability", None, None, "bonus_return"),
        ),
    )


def bonus_section(game: GameResult[Fraction]) -> Section:
    """The Bonus wager's paytable under the paytable in force (A)."""
    return Section("Bonus wager", (bonus_grid("A", game),))


def main_section(game: GameResult[Fraction]) -> Section:
    """The main wager's paytable, its combinations out of the cycle, and its EV by Bonus card."""
    pays = main_payoffs(game.rules)
    outcomes = {k: exact(p) for k, p in game.outcomes.items()}
    rows = tuple(
        (
            outcome_words(k),
            pays_text(pays[k]),
            show("main_probability", p),
            show("odds", p),
            true_odds(p) if pays[k] > 0 else "",
            show("main_return", p * pays[k]),
        )
        for k, p in outcomes.items()
    )
    total = ("total", "", show("main_probability", 1), "", "",
             show("main_return", exact(game.expected_value)))  # fmt: skip
    keys = (None, None, "main_probability", "odds", "true_odds", "main_return")
    ev = exact(game.expected_value)
    by_card = game.by_bonus_card()
    return Section(
        "Main wager",
        (
            Grid(
                ("outcome", "pays", *PAYTABLE_COLUMNS[1:]),
                (*rows, total),
                caption="Per unit staked on the main wager under optimal play: return is each "
                "outcome's share of the main wager EV; a blackjack is the player's own card "
                "and the Bonus card making 21, paid at once. House edge "
                f"{show('main_house_edge', -ev)}, RTP {show('main_rtp', 1 + ev)}, hit "
                f"frequency {show('main_hit_frequency', outcomes['blackjack'] + outcomes['win'])}"
                f", SD {show('main_sd', game.standard_deviation)}.",
                keys=(
                    *(keys for _ in rows),
                    (None, None, "main_probability", None, None, "main_return"),
                ),
            ),
            combinations_grid(game),
            Grid(
                ("Bonus card", *(value_label(c) for c in by_card)),
                (
                    (
                        short_label("main_ev_by_bonus_card"),
                        *(show("main_ev_by_bonus_card", v) for v in by_card.values()),
                    ),
                ),
                caption=f"The {heading('main_ev_by_bonus_card')}: the main wager EV given "
                "the Bonus card dealt, in % of the main wager.",
                compact=True,
                keys=((None, *("main_ev_by_bonus_card" for _ in by_card)),),
            ),
        ),
    )


def short_label(key: str) -> str:
    """A figure's label as a row header of a narrow grid: its quantity, the wager said by the
    grid's caption (``EV by Bonus card``)."""
    return quantity_heading(key)


def combinations_grid(game: GameResult[Fraction]) -> Grid:
    """The main wager's combinations out of its full cycle: whole counts, set whole."""
    cycle, counts = over_common_cycle([exact(p) for p in game.outcomes.values()])
    rows = tuple(
        (outcome_words(k), long_count(n)) for k, n in zip(game.outcomes, counts, strict=True)
    )
    return _cycle_grid(
        "outcome",
        rows,
        cycle,
        "main_combinations",
        "The main wager's combinations out of its full cycle under optimal play: the "
        "least common denominator of its outcomes' exact probabilities",
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
            rows.append((outcome_words(k), outcome_words(outcome), show("round_net", net),
                         show("round_probability", p), true_odds(p),
                         show("round_return", p * net),
                         show("round_return_per_wagered", p * net / (1 + ratio))))  # fmt: skip
    round_ev = exact(game.round_expected_value)
    keys = (None, None, "round_net", "round_probability", "true_odds", "round_return",
            "round_return_per_wagered")  # fmt: skip
    total = ("total", "", "", show("round_probability", 1), "", show("round_return", round_ev),
             show("round_return_per_wagered", round_ev / (1 + ratio)))  # fmt: skip
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
                    "true odds",
                    quantity_heading("round_return"),
                    quantity_heading("round_return_per_wagered"),
                ),
                (*rows, total),
                caption=f"A round per main unit: one unit on the main wager and {ratio} on the "
                "Bonus, both settled on the same two cards (pairs that cannot occur are left "
                f"out); the last column per unit of the {1 + ratio} wagered in all. House edge "
                f"{show('round_house_edge', edge)} of the total wagered, RTP "
                f"{show('round_rtp', 1 - edge)}, hit frequency "
                f"{show('round_hit_frequency', exact(game.round_hit_frequency))}, SD "
                f"{show('round_sd', game.round_variance**0.5)} main-wager units; combinations "
                "out of the round's full cycle: Annex B.",
                keys=(
                    *(keys for _ in rows),
                    (
                        None,
                        None,
                        None,
                        "round_probability",
                        None,
                        "round_return",
                        "round_return_per_wagered",
                    ),
                ),
            ),
        ),
    )


def appendix_section(game: GameResult[Fraction]) -> Section:
    """Every headline figure as an exact fraction, and the round's combinations out of its
    cycle."""
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
    round_cycle, round_counts = over_common_cycle(
        [exact(line.probability) for line in game.round_lines]
    )
    round_combinations = tuple(
        (show("round_net", line.net), long_count(n))
        for line, n in zip(game.round_lines, round_counts, strict=True)
    )
    return Section(
        "Exact values",
        (
            Grid(
                ("figure", "exact"),
                tuple((heading(key), minus(str(value))) for key, value in values),
                caption="Every headline figure as an exact fraction, on the basis its label "
                "and Annex A give (variances in squared units). Each outcome's exact "
                "probability is its combinations over its cycle: the main wager's in Main "
                f"wager, the Bonus wager's over {thousands(bonus.total_combinations)} pairs of "
                "cards in Bonus wager.",
                numeric=False,
                keys=tuple((None, key) for key, _ in values),
                long_numbers=True,
            ),
            _cycle_grid(
                "net",
                round_combinations,
                round_cycle,
                "round_combinations",
                "The round's combinations out of its full cycle, by net result in main-wager "
                "units (the outcome pairs of Whole round with the same net together): the "
                "least common denominator of the nets' exact probabilities",
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
        caption=f"{what} ({thousands(len(str(cycle)))} digits; the player's and dealer's "
        "draws make it large), so that every count is a whole number.",
        numeric=False,
        long_numbers=True,
        keys=(*((None, key) for _ in rows), (None, None)),
    )
