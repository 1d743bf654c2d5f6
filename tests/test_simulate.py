"""The Monte Carlo simulator: stacked shoes per rule clause, exact Bonus figures, a dumb twin.

The simulator is itself the independent check of the exact solver, so it is checked
here against things it does not share code with: hands dealt from a stacked shoe and
settled by hand, the exact Bonus analysis, and a brute-force enumeration of every card
order on a tiny shoe written below from the rule text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from fractions import Fraction
from functools import cache
from math import factorial
from typing import Any, NoReturn

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver
from solver.exact.bonus import analyse_bonus
from solver.exact.game import solve_game
from solver.model.cards import Card, Shoe, parse_cards
from solver.model.errors import CbjError, ShoeError, SimulationError, StrategyError
from solver.model.rules import DealerNatural, NaturalBeats, Paytable, Rules
from solver.results.simulation import ExactFigure, SimulationResult, chi_square_sf
from solver.sim import (
    AlwaysStand,
    MimicDealer,
    NeverBust,
    StandOn,
    Strategy,
    TableStrategy,
    deal_stacked,
    parse_strategy,
    simulate,
)
from solver.sim.hands import hand_space
from solver.sim.strategies import compile_strategy
from solver.store.memory import MemoryCache
from solver.studies.simulation import bonus_figure

from .conftest import physical_cards, run_cli

#: How a dealer hand ends in the brute-force twin: ("bust",) or (best total, natural?).
DealerFinal = tuple[str] | tuple[int, bool]


def stacked(
    cards: str, rules: Rules | None = None, stand_on: int = 17, seats: int = 1
) -> list[str]:
    """Main outcomes of one round dealt from ``cards`` in order."""
    result = deal_stacked(parse_cards(cards), rules or Rules(), StandOn(stand_on), seats)
    return [seat.main.value for seat in result]


# --- stacked shoes: order is seat cards, Bonus card, seat draws, dealer draws -------------


def test_clause_5_blackjack_pays_at_once_whatever_the_dealer_draws() -> None:
    [seat] = deal_stacked(parse_cards("As Kh"), Rules(), StandOn(17))
    assert seat.main.value == "blackjack" and seat.main_net == Fraction(3, 2)
    assert seat.bonus == "adjacent" and seat.round_net == Fraction(3, 2) + Fraction(1, 2)
    [seat] = deal_stacked(parse_cards("Kh As"), Rules(blackjack_pays=Fraction(6, 5)), StandOn(17))
    assert seat.main_net == Fraction(6, 5)


def test_clause_6_player_busts_on_own_hard_total_and_loses_even_if_dealer_busts() -> None:
    # 9 + 5 + 9 = 23 own hard total: bust. The dealer has no card to draw and needs none.
    assert stacked("9s 2h 5d 9c", stand_on=21) == ["loss"]
    # Seat 1 busts (9, 5, 9), seat 2 stands on 10 + Bonus 8; the dealer busts (4, K, 9).
    assert stacked("9s Td 8h 5d 9c 4c Kc 9d", stand_on=18, seats=2) == ["loss", "win"]
    # Own cards 5, 9, 7 = 21 with a Bonus 2 beside them: the Bonus card never busts.
    assert stacked("5s 2h 9d 7c Kc 8c", stand_on=21) == ["win"]


def test_clause_6_player_may_stand_on_one_card() -> None:
    # Player 9 + Bonus 9 = 18 stands on one card; the dealer's 10 + Bonus 9 = 19 stops at once.
    assert stacked("9s 9h Td", stand_on=18) == ["loss"]


def test_clause_7_dealer_stops_on_one_card_when_own_plus_bonus_reaches_18() -> None:
    # Player 10 + Bonus 8 = 18 stands; dealer K + Bonus 8 = 18 on one card: push.
    assert stacked("Ts 8h Kd", stand_on=18) == ["push"]
    # The threshold is a rule: standing on 19, the dealer draws on (15) and busts with 9.
    assert stacked("Ts 8h Kd 5c 9c", Rules(dealer_stands_on=19), stand_on=18) == ["win"]


def test_clause_7_dealer_bust_pays_every_player_still_standing() -> None:
    # Seats 10 and 9, Bonus 2: seat 1 draws 8 (18), seat 2 draws K (19 own).
    # Dealer 4 (6 with the Bonus), 9 (13 / 15), 9: own hard 22, bust.
    assert stacked("Ts 9h 2d 8s Kc 4c 9d 9s", stand_on=18, seats=2) == ["win", "win"]


def test_clause_8_higher_total_wins_equal_totals_push() -> None:
    # Player 10 + Bonus 9 = 19; dealer K + Bonus 9 = 19 at once: push.
    assert stacked("Ts 9h Kd", stand_on=19) == ["push"]
    # Player 10 + Bonus 7 = 17; dealer K + Bonus 7 = 17 draws a 2: 19 with the Bonus.
    assert stacked("Ts 7h Kd 2c", stand_on=17) == ["loss"]
    # Player 10 + Bonus 9 = 19; dealer 8 (17 with the Bonus) draws 10: 18 own.
    assert stacked("Ts 9h 8d Tc", stand_on=19) == ["win"]


def test_clause_8_soft_totals_use_one_ace_as_eleven() -> None:
    # Player A + Bonus 4 = 15, draws 7: A 7 is a soft 18 (with the Bonus 12 or 22).
    # Dealer 10 (14 with the Bonus) draws 4: 18 with the Bonus. Push only if A counts 11.
    assert stacked("As 4h 7d Tc 4c", stand_on=18) == ["push"]
    # Player 10, A: a soft 21 of own cards beats the dealer's 19.
    assert stacked("Ts 2h Ad Kc 7c", stand_on=19) == ["win"]


@pytest.mark.parametrize(
    ("natural", "beats", "expected"),
    [
        (DealerNatural.WITH_BONUS, True, "loss"),
        (DealerNatural.WITH_BONUS, False, "push"),
        (DealerNatural.OWN_CARDS, True, "push"),
        (DealerNatural.BONUS_CARD, True, "loss"),
        (DealerNatural.BONUS_CARD, False, "push"),
        (DealerNatural.NONE, True, "push"),
    ],
)
def test_clause_9_dealer_natural_of_own_card_and_bonus_against_three_card_21(
    natural: DealerNatural, beats: bool, expected: str
) -> None:
    rules = Rules(dealer_natural=natural, natural_beats_multi_card_21=beats)
    # Bonus ace. Player 5, 5 + A = 21 using the Bonus card: three cards. Dealer K + A = 21.
    assert stacked("5s Ah 5d Kc", rules, stand_on=21) == [expected]
    # Player 5, 6, K = 21 of three own cards. Same dealer.
    assert stacked("5s Ah 6d Kd Kc", rules, stand_on=21) == [expected]


@pytest.mark.parametrize(
    ("natural", "beats", "three_card_21"),
    [
        (DealerNatural.WITH_BONUS, True, "loss"),
        (DealerNatural.WITH_BONUS, False, "push"),
        (DealerNatural.OWN_CARDS, True, "loss"),
        (DealerNatural.BONUS_CARD, True, "push"),
        (DealerNatural.NONE, True, "push"),
    ],
)
def test_clause_9_dealer_natural_of_two_own_cards(
    natural: DealerNatural, beats: bool, three_card_21: str
) -> None:
    rules = Rules(dealer_natural=natural, natural_beats_multi_card_21=beats)
    # Bonus 2. Player 9, K + 2 = 21 (three cards). Dealer K (12 with Bonus), A: 21 of two own.
    assert stacked("9s 2h Kd Kc Ac", rules, stand_on=21) == [three_card_21]
    # Player A, K: 21 of two own cards ties a natural, whatever the option.
    assert stacked("As 2h Kd Kc Ac", rules, stand_on=21) == ["push"]


@pytest.mark.parametrize(
    ("natural", "two_own_21"),
    [
        (DealerNatural.WITH_BONUS, "loss"),
        (DealerNatural.BONUS_CARD, "loss"),
        (DealerNatural.OWN_CARDS, "push"),
        (DealerNatural.NONE, "push"),
    ],
)
def test_clause_9_natural_beating_every_hand_that_is_not_a_blackjack(
    natural: DealerNatural, two_own_21: str
) -> None:
    rules = Rules(dealer_natural=natural, natural_beats=NaturalBeats.NON_BLACKJACK)
    # Bonus A. Player A (12 with the Bonus) draws K: 21 of two own cards.  Dealer K with
    # the Bonus A: a natural where one own card and the Bonus card count as one.
    assert stacked("As Ah Kd Kc", rules, stand_on=21) == [two_own_21]
    # Bonus 2. Same player 21.  Dealer 9 (11 with the Bonus) draws K: 21 with the Bonus,
    # three cards, never a natural: 21 ties 21.
    assert stacked("As 2h Kd 9c Kc", rules, stand_on=21) == ["push"]


def test_clause_9_natural_of_two_own_cards_beats_two_own_21_when_it_beats_all() -> None:
    rules = Rules(natural_beats=NaturalBeats.NON_BLACKJACK)
    # Bonus 2. Player A, K: 21 of two own cards. Dealer K (12 with the Bonus), A: natural.
    assert stacked("As 2h Kd Kc Ac", rules, stand_on=21) == ["loss"]
    assert stacked("As 2h Kd Kc Ac", Rules(natural_beats=NaturalBeats.NOTHING), stand_on=21) == [
        "push"
    ]


def test_clause_9_player_21_with_and_without_bonus_counts_the_fewer_cards() -> None:
    # Player K + Bonus K = 20 hits an A: K A is 21 of two own cards, and K A + K is 21 too.
    # Dealer A + Bonus K: a natural. The fewer cards (two) count, so it is a push.
    assert stacked("Ks Kh Ad Ac", stand_on=21) == ["push"]


def test_clause_9_dealer_21_of_three_cards_is_no_natural() -> None:
    # Bonus 2. Player 9, K = 21 with the Bonus (three cards). Dealer 9 (11), K: 19 own,
    # 21 with the Bonus: three cards, no natural, so 21 ties 21.
    assert stacked("9s 2h Kd 9c Kc", stand_on=21) == ["push"]


def test_seats_share_the_bonus_card_and_the_dealer() -> None:
    # Seats 10 and 9, Bonus 8: 18 and 17. Seat 2 hits a 4 (21). Dealer 10 + 8 = 18 at once.
    assert stacked("Ts 9d 8h 4c Kc", stand_on=18, seats=2) == ["push", "win"]


def test_bonus_tiers_of_dealt_cards() -> None:
    tiers = {
        "7s 7s": "suited_match",
        "7s 7h": "rank_match",
        "Ks As": "adjacent",
        "Ts Jh": "adjacent",
        "Js Kh": "loss",
    }
    for cards, tier in tiers.items():
        [seat] = deal_stacked(parse_cards(cards + " Kd Kc Kh"), Rules(), StandOn(0))
        assert seat.bonus == tier, cards


# --- Bonus wager against the exact analysis -----------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(decks=1, paytable=Paytable.parse("20:5:2")),
        Rules(decks=2, bonus_ratio=Fraction(1)),
    ],
    ids=["default", "one-deck-20:5:2", "two-deck-ratio-1"],
)
def test_bonus_mean_and_tier_frequencies_agree_with_exact(rules: Rules) -> None:
    exact = {"bonus": bonus_figure(rules)}
    result = simulate(rules, StandOn(17), 300_000, seed=2024, penetration=None, exact=exact)
    bonus = result.overall.bonus
    assert bonus.exact is not None and bonus.z is not None
    assert abs(bonus.z) < 4
    assert bonus.chi_square is not None and bonus.chi_square.p_value > 0.001


def test_bonus_agrees_with_exact_under_penetration_and_seats() -> None:
    exact = {"bonus": bonus_figure(Rules())}
    result = simulate(Rules(), StandOn(16), 200_000, seed=7, penetration=0.75, seats=3, exact=exact)
    for seat in range(3):
        bonus = result.seat(seat).bonus
        assert bonus.z is not None and abs(bonus.z) < 4
        assert bonus.chi_square is not None and bonus.chi_square.p_value > 0.001
    assert result.overall.bonus.z is not None and abs(result.overall.bonus.z) < 4


# --- the dumb twin: every card order of a tiny shoe ---------------------------------------

TINY_SHOE = "As Ah 2s 3s 5s 6s 7s 8s 9s Ts Js Qs Ks"


def tiny_removed() -> tuple[Card, ...]:
    """The cards a one-deck shoe loses to become TINY_SHOE."""
    keep = set(parse_cards(TINY_SHOE))
    return tuple(c for c in physical_cards(Shoe.full(1)) if c not in keep)


@cache
def best(hand: tuple[int, ...], bonus: int) -> int:
    """Best total at most 21 with or without the Bonus card; 0 when the own cards bust."""
    cards = list(hand)
    options = []
    for extra in ([], [bonus]):
        total = sum(cards) + sum(extra)
        if 1 in cards + extra and total + 10 <= 21:
            total += 10
        options.append(total)
    if sum(cards) > 21:
        return 0
    return max(t for t in options if t <= 21)


def cards_in_21(hand: tuple[int, ...], bonus: int) -> int:
    """Cards making the player's 21: own cards if they make it alone, else plus the Bonus."""
    return len(hand) if best(hand, 0) == 21 else len(hand) + 1


def main_distribution(values: tuple[int, ...], rules: Rules, stand_on: int) -> dict[str, Fraction]:
    """Probability of each main outcome, enumerating every order of ``values``.

    Each step counts, in whole numbers, the orders of the cards still in the shoe that
    lead to each end: a card of a value the shoe holds ``n`` of stands for ``n`` orders,
    and where dealing stops all ``m!`` orders of the ``m`` cards left count.  The counts
    over every order of the shoe, divided by their sum ``len(values)!``, are the
    probabilities (exact, and much cheaper than adding fractions at every step).
    """
    threshold = rules.dealer_stands_on

    def take(shoe: tuple[int, ...]) -> Iterable[tuple[int, int, tuple[int, ...]]]:
        for i, v in enumerate(shoe):
            if i == 0 or shoe[i - 1] != v:
                yield shoe.count(v), v, shoe[:i] + shoe[i + 1 :]

    @cache
    def dealer(shoe: tuple[int, ...], hand: tuple[int, ...], bonus: int) -> dict[DealerFinal, int]:
        out: dict[DealerFinal, int] = {}
        assert shoe, "the tiny shoe must never run out"
        for n, v, rest in take(shoe):
            grown = tuple(sorted((*hand, v)))
            finals: dict[DealerFinal, int]
            if sum(grown) > 21:
                finals = {("bust",): factorial(len(rest))}
            elif best(grown, bonus) >= threshold:
                finals = {(best(grown, bonus), natural(grown, bonus)): factorial(len(rest))}
            else:
                finals = dealer(rest, grown, bonus)
            for k, q in finals.items():
                out[k] = out.get(k, 0) + n * q
        return out

    def natural(hand: tuple[int, ...], bonus: int) -> bool:
        if len(hand) == 2 and best(hand, 0) == 21:
            return rules.dealer_natural in (DealerNatural.WITH_BONUS, DealerNatural.OWN_CARDS)
        if len(hand) == 1 and sorted((hand[0], bonus)) == [1, 10]:
            return rules.dealer_natural in (DealerNatural.WITH_BONUS, DealerNatural.BONUS_CARD)
        return False

    def settle(hand: tuple[int, ...], bonus: int, final: DealerFinal) -> str:
        if len(final) == 1:  # ("bust",)
            return "win"
        mine, (theirs, nat) = best(hand, bonus), final
        if mine != theirs:
            return "win" if mine > theirs else "loss"
        if mine == 21 and nat and rules.natural_beats is NaturalBeats.NON_BLACKJACK:
            return "loss"
        if mine == 21 and nat and rules.natural_beats is NaturalBeats.MULTI_CARD_21:
            return "loss" if cards_in_21(hand, bonus) >= 3 else "push"
        return "push"

    @cache
    def player(shoe: tuple[int, ...], hand: tuple[int, ...], bonus: int) -> dict[str, int]:
        out: dict[str, int] = {}
        if best(hand, bonus) >= stand_on:
            for final, q in dealer(shoe, (), bonus).items():
                key = settle(hand, bonus, final)
                out[key] = out.get(key, 0) + q
            return out
        for n, v, rest in take(shoe):
            grown = tuple(sorted((*hand, v)))
            sub = {"loss": factorial(len(rest))} if sum(grown) > 21 else player(rest, grown, bonus)
            for k, q in sub.items():
                out[k] = out.get(k, 0) + n * q
        return out

    orders = dict.fromkeys(("blackjack", "win", "push", "loss"), 0)
    for n1, own, after_own in take(tuple(sorted(values))):
        for n2, bonus, rest in take(after_own):
            if sorted((own, bonus)) == [1, 10]:
                orders["blackjack"] += n1 * n2 * factorial(len(rest))
                continue
            for k, q in player(rest, (own,), bonus).items():
                orders[k] += n1 * n2 * q
    assert sum(orders.values()) == factorial(len(values))
    return {k: Fraction(q, factorial(len(values))) for k, q in orders.items()}


@pytest.mark.parametrize(
    ("rules", "stand_on"),
    [
        (Rules(decks=1), 15),
        (Rules(decks=1, dealer_natural=DealerNatural.OWN_CARDS, blackjack_pays=Fraction(6, 5)), 19),
        (Rules(decks=1, dealer_stands_on=17, natural_beats_multi_card_21=False), 21),
        (Rules.from_preset("vegas-21", decks=1), 17),
        (Rules(decks=1, dealer_natural=DealerNatural.BONUS_CARD), 21),
    ],
    ids=["default-15", "own-cards-6:5-19", "s17-no-beat-21", "vegas-21-17", "bonus-card-21"],
)
@pytest.mark.slow
def test_main_wager_agrees_with_brute_force_on_a_tiny_shoe(rules: Rules, stand_on: int) -> None:
    cards = parse_cards(TINY_SHOE)
    removed = tiny_removed()
    distribution = main_distribution(tuple(c.points for c in cards), rules, stand_on)
    pays: dict[str, Fraction] = {
        "blackjack": rules.blackjack_pays,
        "win": Fraction(1),
        "push": Fraction(0),
        "loss": Fraction(-1),
    }
    mean = sum((Fraction(pays[k]) * p for k, p in distribution.items()), Fraction(0))
    result = simulate(
        rules,
        StandOn(stand_on),
        400_000,
        seed=99,
        penetration=None,
        removed=removed,
        exact={"main": ExactFigure(mean, distribution), "bonus": bonus_figure(rules, removed)},
    )
    main = result.overall.main
    assert main.z is not None and abs(main.z) < 4, (main.mean, float(mean))
    assert main.chi_square is not None and main.chi_square.p_value > 0.001
    assert result.overall.round.z is not None and abs(result.overall.round.z) < 4


# --- reproducibility, strategies, statistics and bad input --------------------------------


def counts(result: SimulationResult) -> tuple[object, ...]:
    """Everything a run counted."""
    return (result.joint, result.squares)


@pytest.mark.slow
@pytest.mark.parametrize("penetration", [None, 0.75])
def test_same_seed_gives_identical_results_whatever_the_jobs(penetration: float | None) -> None:
    def run(jobs: int) -> SimulationResult:
        return simulate(
            Rules(),
            StandOn(17),
            20_000,
            seed=5,
            seats=2,
            penetration=penetration,
            jobs=jobs,
            chunk_rounds=3_000,
        )

    one_job = counts(run(1))  # the same seed gives the same counts, so one run serves both
    assert one_job == counts(run(2))
    assert one_job != counts(
        simulate(
            Rules(),
            StandOn(17),
            20_000,
            seed=6,
            seats=2,
            penetration=penetration,
            chunk_rounds=3_000,
        )
    )


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rounds=st.integers(1, 2_500),
    seats=st.integers(1, 3),
    penetration=st.sampled_from([None, 0.3, 0.75, 1.0]),
)
def test_results_do_not_depend_on_jobs_and_frequencies_sum_to_rounds(
    seed: int, rounds: int, seats: int, penetration: float | None
) -> None:
    runs = [
        simulate(
            Rules(decks=1),
            StandOn(16),
            rounds,
            seed=seed,
            seats=seats,
            penetration=penetration,
            jobs=jobs,
            chunk_rounds=700,
        )
        for jobs in (1, 2)
    ]
    assert counts(runs[0]) == counts(runs[1])
    result = runs[0]
    for i in range(seats):
        for wager in ("main", "bonus", "round"):
            assert sum(result.seat(i)[wager].frequencies.values()) == rounds
    assert sum(result.overall.main.frequencies.values()) == rounds * seats


def test_a_table_strategy_plays_exactly_like_the_policy_it_tabulates() -> None:
    table = TableStrategy.of(StandOn(18))
    ten = (0,) * 9 + (1,)
    assert table.hits(7, ten) is True  # 10 + Bonus 7 = 17: hit
    assert table.hits(8, ten) is False  # 18: stand
    assert table.hits(1, ten) is False  # 10 + Bonus ace = 21 (never asked: a blackjack)
    one = simulate(Rules(), StandOn(18), 30_000, seed=3)
    two = simulate(Rules(), table, 30_000, seed=3)
    assert counts(one) == counts(two) and two.strategy == "table(stand-on:18)"


class AskedHandByHand:
    """A strategy seen only through ``name`` and ``hits``: compiled by asking every hand."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy

    @property
    def name(self) -> str:
        return self.strategy.name

    def hits(self, bonus: int, hand: tuple[int, ...]) -> bool:
        return self.strategy.hits(bonus, hand)


def test_built_in_strategies_compile_as_their_answers_hand_by_hand() -> None:
    ten = (0,) * 9 + (1,)
    strategies: list[Strategy] = [
        StandOn(17),
        StandOn(22),
        NeverBust(),
        AlwaysStand(),
        MimicDealer(18),
        TableStrategy({(5, ten): True, (6, ten): False}, default=NeverBust()),
        TableStrategy({(7, ten): False}, default=True),
    ]
    shoes = [(4,) * 9 + (16,), (2, 1, 1, 0, 1, 1, 1, 1, 1, 4), (0, 3, 0, 5, 2, 0, 0, 1, 0, 2)]
    for strategy in strategies:
        for shoe in shoes:
            expected = compile_strategy(AskedHandByHand(strategy), shoe)
            assert np.array_equal(compile_strategy(strategy, shoe), expected), strategy.name


def test_a_decision_table_falls_back_to_its_default() -> None:
    ten = (0,) * 9 + (1,)
    table = TableStrategy({(5, ten): True}, default=StandOn(12))
    assert table.hits(5, ten) is True  # listed: 15, hit
    assert table.hits(6, ten) is False  # not listed: stand-on:12 stands on 16
    assert TableStrategy({}).hits(2, ten) is False  # default: stand


def test_a_decision_table_is_its_table_when_made() -> None:
    # The table is copied when the strategy is made (and laid out at its first compile):
    # changing the caller's dict afterwards changes neither its answers nor its compiles.
    ten = (0,) * 9 + (1,)
    shoe = (4,) * 9 + (16,)
    decisions: dict[tuple[int, tuple[int, ...]], bool] = {(5, ten): True}
    table = TableStrategy(decisions)
    first = compile_strategy(table, shoe)
    decisions[(5, ten)] = False
    decisions[(6, ten)] = True
    assert table.hits(5, ten) is True and table.hits(6, ten) is False
    assert np.array_equal(compile_strategy(table, shoe), first)
    assert first[5, hand_space().index[ten]] and not first[6, hand_space().index[ten]]


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(decks=2, dealer_stands_on=17), Rules(decks=1, blackjack_pays=Fraction(6, 5))],
    ids=["default", "2-decks-s17", "1-deck-6to5"],
)
def test_optimal_play_matches_the_exact_solver_within_four_standard_errors(
    rules: Rules, games: MemoryCache
) -> None:
    from solver.exact.chart import exact_main, strategy_source

    game = solve_game(rules, exact=True, cache=games)
    strategy = parse_strategy("optimal", lambda kind: strategy_source(game, kind))
    mean, probabilities = exact_main(game, "optimal")
    exact = {"main": ExactFigure(mean, probabilities), "bonus": bonus_figure(rules)}
    result = simulate(rules, strategy, 200_000, seed=2024, penetration=None, exact=exact)
    main = result.overall.main
    assert main.exact == mean
    assert abs(main.mean - float(mean)) < 4 * main.standard_error
    assert main.chi_square is not None and main.chi_square.p_value > 0.001
    round_ = result.overall.round
    assert (
        round_.exact is not None
        and abs(round_.mean - float(round_.exact)) < 4 * round_.standard_error
    )


def test_chart_strategy_plays_the_printed_chart(games: MemoryCache) -> None:
    from solver.exact.chart import stored_chart, strategy_source
    from solver.model.cells import Action, cell_of

    rules = Rules()
    game = solve_game(rules, exact=True, cache=games)
    strategy = parse_strategy("chart", lambda kind: strategy_source(game, kind, games))
    chart = stored_chart(rules, game, games)
    hand = (0, 0, 0, 1, 0, 0, 0, 0, 1, 0)  # hard 13
    for bonus in range(1, 11):
        assert strategy.hits(bonus, hand) == (chart.action(cell_of(hand), bonus) is Action.HIT)


@pytest.mark.parametrize("text", ["stand-on:", "stand-on:23", "hit-always", ""])
def test_unknown_strategy_is_refused_by_name(text: str) -> None:
    with pytest.raises(StrategyError, match="stand-on"):
        parse_strategy(text)


def test_chi_square_tail_matches_tabled_critical_values() -> None:
    # 5% critical values of the chi-square distribution for 1-4 degrees of freedom
    # (NIST/SEMATECH e-Handbook of Statistical Methods, table 1.3.6.7.4).
    for dof, critical in [(1, 3.841), (2, 5.991), (3, 7.815), (4, 9.488)]:
        assert chi_square_sf(critical, dof) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_sf(0, 3) == 1.0


def test_confidence_interval_is_mean_plus_minus_1_96_standard_errors() -> None:
    main = simulate(Rules(), StandOn(17), 5_000, seed=1).overall.main
    low, high = main.ci95
    assert low < main.mean < high
    assert (high - low) / 2 == pytest.approx(1.959964 * main.standard_error)
    assert main.z is None  # no exact main figure yet


def test_penetration_one_reshuffles_the_discards_when_the_shoe_runs_dry() -> None:
    rules = Rules(decks=1)
    exact = {"bonus": bonus_figure(rules)}
    result = simulate(rules, StandOn(17), 30_000, seed=11, penetration=1.0, seats=4, exact=exact)
    assert result.overall.bonus.z is not None and abs(result.overall.bonus.z) < 4


def test_a_round_that_needs_more_cards_than_the_shoe_holds_is_an_error() -> None:
    keep = set(parse_cards("2s 3s 4s 5s"))
    removed = [c for c in physical_cards(Shoe.full(1)) if c not in keep]
    with pytest.raises(ShoeError, match="used all 4 cards"):
        simulate(Rules(decks=1), StandOn(22), 10, seed=1, removed=removed, seats=2)


@pytest.mark.parametrize(
    ("settings_", "named"),
    [
        ({"rounds": 0}, "rounds 0"),
        ({"seats": 0}, "seats 0"),
        ({"penetration": 0.0}, "penetration 0.0"),
        ({"penetration": 1.5}, "penetration 1.5"),
        ({"jobs": 0}, "jobs 0"),
        ({"seed": -3}, "seed -3"),
    ],
)
def test_bad_settings_raise_simulation_errors(settings_: dict[str, object], named: str) -> None:
    arguments: dict[str, object] = {"rounds": 10, **settings_}
    with pytest.raises(SimulationError, match=named):
        simulate(Rules(), StandOn(17), **arguments)  # type: ignore[arg-type]


# --- the cbj simulate command -------------------------------------------------------------


def test_simulate_json_names_its_settings_and_each_wager(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "--rounds", "4000", "--seed", "8", "--seats", "2", "--format", "json"]
    status, out, err = run_cli([*argv, "--strategy", "stand-on:16", "--decks", "2"], capsys)
    assert status == 0 and err == ""
    doc = json.loads(out)
    assert doc["rules"]["decks"] == 2 and doc["rounds"] == 4000 and doc["seats"] == 2
    assert doc["strategy"] == "stand-on:16" and doc["seed"] == 8
    for wager in ("main", "bonus", "round"):
        figures = doc[wager]
        assert {"mean", "standard_error", "ci95", "frequencies"} <= figures.keys()
        assert figures["ci95"][0] < figures["mean"] < figures["ci95"][1]
    assert doc["bonus"]["exact"]["exact"] == str(analyse_bonus(Rules(decks=2)).expected_value)
    # stand-on:K is evaluated exactly too (solver.exact.strategies): both wagers get a z.
    assert "z" in doc["bonus"] and "z" in doc["main"]
    assert sum(doc["main"]["frequencies"].values()) == 8000 and len(doc["per_seat"]) == 2


def test_simulate_table_is_reproducible_by_seed(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--rounds", "3000", "--seed", "2", "--fresh-shoe"]
    first, second = run_cli(argv, capsys)[1], run_cli([*argv, "--jobs", "2"], capsys)[1]
    assert first == second and "seed 2" in first and "a fresh shoe every round" in first


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--rounds", "0"], "rounds 0"),
        (["--rounds", "10", "--penetration", "1.5"], "penetration 1.5"),
        (["--rounds", "10", "--penetration", "0"], "penetration 0 is out of range"),
        (["--rounds", "10", "--seats", "0"], "seats 0"),
        (["--rounds", "10", "--seed", "-1"], "seed -1"),
        (["--rounds", "10", "--decks", "1", "--seats", "40"], "used all 52 cards"),
        (["--rounds", "10", "--strategy", "always-hit"], "always-hit"),
        (["--rounds", "10", "--penetration", "0.5", "--fresh-shoe"], "--fresh-shoe"),
        (["--rounds", "10", "--removed", "As As", "--decks", "1"], "As"),
        (["--rounds", "10", "--removed", "A"], "suit"),
        (["--rounds", "ten"], "ten"),
        ([], "--rounds"),
    ],
)
def test_simulate_bad_input_is_one_line_on_stderr_with_status_2(
    extra: list[str],
    named: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_cli(["simulate", *extra], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and named in err and "Traceback" not in err


class NoSolving(MemoryCache):
    """A store that fails any test which asks it for a game."""

    def game(self, *args: object, **kwargs: object) -> NoReturn:
        raise AssertionError("a game was solved before the settings were checked")


@pytest.mark.parametrize(
    "bad",
    [
        {"rounds": 0},
        {"rounds": 10, "seats": 0},
        {"rounds": 10, "penetration": 1.5},
        {"rounds": 10, "seed": -1},
        {"rounds": 10, "jobs": 0},
        {"rounds": 10, "removed": "A"},
        {"rounds": 10, "fresh_shoe": True, "counter": "hi-lo"},
    ],
)
def test_bad_settings_fail_before_the_exact_solver_runs(bad: dict[str, Any]) -> None:
    with pytest.raises(CbjError):
        solver.simulate(cache=NoSolving(), **bad)


def backend_run(jobs: int) -> SimulationResult:
    """The simulation each joblib backend deals."""
    return simulate(Rules(), StandOn(17), 9_000, seed=12, jobs=jobs, chunk_rounds=2_000)


@pytest.fixture(scope="module")
def one_job_counts() -> tuple[object, ...]:
    """The counts on one job, which runs in this process whatever the backend: dealt once."""
    return counts(backend_run(1))


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["threading", "multiprocessing"])
def test_any_joblib_backend_gives_the_same_results(
    backend: str, one_job_counts: tuple[object, ...]
) -> None:
    from joblib import parallel_config

    with parallel_config(backend=backend):
        assert counts(backend_run(2)) == one_job_counts


def test_overall_figures_are_the_seats_pooled() -> None:
    one = simulate(Rules(), StandOn(17), 4_000, seed=21)
    assert one.overall == one.seat(0)
    three = simulate(Rules(), StandOn(17), 4_000, seed=21, seats=3)
    for wager in ("main", "bonus", "round"):
        seat_means = [three.seat(i)[wager].mean for i in range(3)]
        assert three.overall[wager].mean == pytest.approx(sum(seat_means) / 3)
        # Seats share the dealer and the Bonus card: the pooled error lies between that of
        # one seat and that of three independent seats (with a margin, as dealing without
        # replacement makes the seats' Bonus outcomes slightly negatively correlated).
        seat_error = max(three.seat(i)[wager].standard_error for i in range(3))
        assert seat_error / 3**0.5 * 0.9 < three.overall[wager].standard_error < seat_error * 1.1
