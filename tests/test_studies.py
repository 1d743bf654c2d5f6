"""The studies: what runs both twins, checked against the commands and the solver's own figures."""

from __future__ import annotations

import math
from fractions import Fraction
from statistics import NormalDist

import pytest

from solver.exact.bonus import analyse_bonus
from solver.exact.game import solve_game
from solver.exact.paytable import EdgeModel, with_pay
from solver.model.cards import Shoe, parse_cards
from solver.model.normal import Z90, Z95
from solver.model.paytable import MAX_PAY
from solver.model.rules import Paytable, Rules
from solver.present.report.design import sensitivity_section
from solver.results.game import GameResult
from solver.results.simulation import Wager
from solver.sim import StandOn
from solver.store.memory import MemoryCache
from solver.studies.report import optimal_play, pay_sensitivity
from solver.studies.simulation import exact_figures, simulate_beside_exact

from .conftest import physical_cards

#: Ten cards of a two-deck shoe: the exact solve is cheap, and every Bonus tier can occur.
LEFT = "As As Ah 2s 2d Kc Kc Qh 7h 9d"


def small_game(rules: Rules, games: MemoryCache) -> GameResult[Fraction]:
    """The game of :data:`LEFT` under ``rules`` (two decks), solved exactly."""
    removed = physical_cards(Shoe.full(rules.decks))
    for card in parse_cards(LEFT):
        removed.remove(card)
    return solve_game(rules, tuple(removed), exact=True, cache=games)


def test_the_report_cross_check_is_the_simulation_cbj_simulate_runs(games: MemoryCache) -> None:
    # The report calls the study directly; `cbj simulate` goes through the API's options.
    from solver.api.functions import simulate  # here: tests/test_store.py patches below it

    rules = Rules(decks=1)
    game = solve_game(rules, exact=True, cache=games)
    report = simulate_beside_exact(
        rules, optimal_play(game), 4_000, lambda: game, seed=5, penetration=None
    )
    command = simulate(rounds=4_000, seed=5, fresh_shoe=True, cache=games, decks=1)
    assert report.to_json() == command.to_json()
    assert set(report.exact) == {"main", "bonus"}
    assert report.exact[Wager.MAIN].mean == game.expected_value


def unsolvable() -> GameResult[Fraction]:
    raise AssertionError("the main wager's exact figure needs a full shoe: no solve")


def test_exact_figures_follow_the_cards_out_of_the_shoe() -> None:
    rules = Rules()
    with_suits = parse_cards("As Kd")
    without = parse_cards("A K")
    figures = exact_figures(rules, StandOn(17), unsolvable, with_suits)
    assert set(figures) == {"bonus"}
    assert exact_figures(rules, StandOn(17), unsolvable, without) == {}
    bonus = analyse_bonus(rules, with_suits)
    assert figures["bonus"].mean == bonus.expected_value
    probabilities = figures["bonus"].probabilities
    assert probabilities is not None and sum(probabilities.values()) == 1


def test_each_break_even_pay_zeroes_the_round_edge_of_a_repriced_game(
    games: MemoryCache,
) -> None:
    # pay_sensitivity reads one linear edge; priced() re-analyses the Bonus wager and the
    # round from the cards at each pay.
    rules = Rules(decks=2, bonus_ratio=Fraction(3, 4))
    model = EdgeModel(small_game(rules, games))
    lines = pay_sensitivity(model, rules)
    assert [str(line.tier) for line in lines] == ["suited_match", "rank_match", "adjacent"]
    for line in lines:
        assert line.pays == getattr(rules.paytable, str(line.tier))
        for pay, edge in line.line:
            repriced = model.priced(with_pay(rules.paytable, line.tier, pay), rules.bonus_ratio)
            assert repriced.round_house_edge == edge
        if line.break_even is not None and line.break_even >= 0:
            even = with_pay(rules.paytable, line.tier, line.break_even)
            assert model.priced(even, rules.bonus_ratio).round_house_edge == 0
        assert line.slope == (line.line[1][1] - line.line[0][1]) / line.line[1][0]


def test_a_tier_one_deck_cannot_deal_has_no_break_even_pay(games: MemoryCache) -> None:
    # One deck holds one card of each rank and suit, so the player's card and the Bonus
    # card are never a suited match: that pay moves nothing (it crashed cbj report --decks 1).
    rules = Rules(decks=1)
    removed = physical_cards(Shoe.full(1))
    for card in parse_cards("As Ah 2s 2d Kc Kd Qh 7h 9d 5c"):
        removed.remove(card)
    game = solve_game(rules, tuple(removed), exact=True, cache=games)
    lines = {str(line.tier): line for line in pay_sensitivity(EdgeModel(game), rules)}
    assert lines["suited_match"].slope == 0 and lines["suited_match"].break_even is None
    assert lines["rank_match"].slope != 0 and lines["rank_match"].break_even is not None
    section = sensitivity_section(tuple(lines.values()))
    assert "none (this tier cannot happen in this shoe)" in repr(section)


def test_pay_sensitivity_stays_in_the_pays_range(games: MemoryCache) -> None:
    # Every pay at its largest (10,000 to 1): doubling one for the plot's end was refused.
    rules = Rules(decks=2, paytable=Paytable.parse("10000:10000:10000"))
    lines = pay_sensitivity(EdgeModel(small_game(rules, games)), rules)
    assert [line.line[1][0] for line in lines] == [MAX_PAY] * 3


def test_pay_sensitivity_starts_at_the_edge_in_force(games: MemoryCache) -> None:
    rules = Rules(decks=2, paytable=Paytable.parse("20:5:2"))
    model = EdgeModel(small_game(rules, games))
    priced = model.priced(rules.paytable, rules.bonus_ratio)
    assert {line.edge for line in pay_sensitivity(model, rules)} == {priced.round_house_edge}


def test_the_renderers_constants_are_the_solvers_and_the_simulators() -> None:
    from solver.present import protection, tables
    from solver.results import protection as exact_protection
    from solver.results import simulation as sim_stats
    from solver.results import volatility

    assert tuple(w.value for w in Wager) == tables.WAGERS
    assert protection.WAGERS == exact_protection.WAGERS
    assert (NormalDist().inv_cdf(0.95), NormalDist().inv_cdf(0.975)) == (Z90, Z95)
    assert (volatility.Z90, volatility.Z95) == (Z90, Z95)
    # The simulator writes its own z, two units in the last place away (its intervals in
    # JSON keep it); the true-count table's intervals use the model's.
    assert math.isclose(sim_stats.Z95, Z95, rel_tol=0, abs_tol=2 * math.ulp(Z95))


@pytest.mark.parametrize("size", ["shoe_samples", "counter_rounds"])
def test_the_protection_sizes_are_checked_before_any_work(size: str) -> None:
    from solver.model.errors import ReportError, ShoeError
    from solver.studies.report import report_figures

    with pytest.raises((ReportError, ShoeError)):
        report_figures(Rules(), **{size: 0})  # type: ignore[arg-type]
