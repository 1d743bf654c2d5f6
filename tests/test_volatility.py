"""The round as a function of the Bonus ratio, and session ranges against simulated sessions."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from statistics import NormalDist

import pytest

from solver.exact.game import round_lines_for, solve_game
from solver.exact.ratios import ratio_table, round_moments, volatility
from solver.exact.strategies import realistic_play
from solver.exact.volatility import parse_ratios
from solver.model.cards import parse_cards
from solver.model.errors import RulesError
from solver.model.rules import TABULATED_RATIOS, Rules
from solver.results.game import GameResult
from solver.results.volatility import Z90, Z95, game_volatility
from solver.sim import StandOn
from solver.sim.sessions import coverage, simulate_sessions

from .test_game import TINY_REMOVED


@pytest.fixture(scope="module")
def tiny_game() -> GameResult[Fraction]:
    return solve_game(Rules.from_preset("vegas-21", decks=1), TINY_REMOVED, exact=True)


def test_ratio_polynomials_equal_the_round_distribution_at_every_ratio(
    tiny_game: GameResult[Fraction],
) -> None:
    moments = round_moments(tiny_game)
    for row in ratio_table(moments, (*TABULATED_RATIOS, Fraction(7, 3))):
        # Independent route: the round's distribution of net results, rebuilt at this ratio.
        lines = round_lines_for(replace(tiny_game.rules, bonus_ratio=row.ratio), tiny_game)
        mean = sum((line.net * Fraction(line.probability) for line in lines), Fraction(0))
        second = sum((line.net**2 * Fraction(line.probability) for line in lines), Fraction(0))
        assert row.expected_value == mean
        assert row.variance == second - mean**2
        assert row.house_edge == -mean / (1 + row.ratio)
    at_game = ratio_table(moments, [tiny_game.rules.bonus_ratio])[0]
    assert at_game.expected_value == tiny_game.round_expected_value
    assert at_game.variance == tiny_game.round_variance


@pytest.mark.parametrize("text", ["1/3", "0.4", "abc", "", "1/2,,x", "-1"])
def test_bad_ratios_are_refused_with_their_text(text: str) -> None:
    with pytest.raises(RulesError, match="ratio"):
        parse_ratios(text)


def test_ratios_parse_in_every_spelling() -> None:
    assert parse_ratios("1/2, 3:4,1, 1.5,2") == TABULATED_RATIOS


def test_the_z_values_are_the_normal_quantiles_bit_for_bit() -> None:
    assert NormalDist().inv_cdf(0.95) == Z90
    assert NormalDist().inv_cdf(0.975) == Z95


def test_session_ranges_follow_mean_and_sd(tiny_game: GameResult[Fraction]) -> None:
    moments = round_moments(tiny_game)
    result = volatility(moments, Fraction(1, 2))
    assert math.isclose(result.index, result.standard_deviation * 1.6448536269514722)
    assert math.isclose(Z95, 1.959963984540054)
    for session in result.sessions:
        n = session.rounds
        assert session.mean == n * moments.expected_value(Fraction(1, 2))
        assert math.isclose(session.standard_deviation, result.standard_deviation * math.sqrt(n))
        low, high = session.range90
        assert math.isclose((low + high) / 2, float(session.mean))
        assert math.isclose(high - low, 2 * Z90 * session.standard_deviation)
        # The house has the edge here, so the player is behind more often than ahead.
        assert session.probability_ahead < 0.5
    data = result.to_json()
    assert [s["rounds"] for s in data["sessions"]] == [100, 1_000, 10_000, 100_000]
    assert "normal approximation" in data["method"]


def test_a_solves_volatility_is_the_moments_volatility_exactly_and_in_floats(
    tiny_game: GameResult[Fraction],
) -> None:
    # Two routes: the solve's round lines, and the joint (main, Bonus) moments.
    from_lines = game_volatility(tiny_game)
    from_moments = volatility(round_moments(tiny_game), tiny_game.rules.bonus_ratio)
    assert from_lines == from_moments
    fast = game_volatility(solve_game(tiny_game.rules, TINY_REMOVED, exact=False))
    assert from_lines is not None and fast is not None
    assert isinstance(fast.mean, float) and isinstance(fast.variance, float)
    assert math.isclose(fast.index, from_lines.index, rel_tol=1e-9)
    for exact_session, float_session in zip(from_lines.sessions, fast.sessions, strict=True):
        assert exact_session.rounds == float_session.rounds
        for low_high, fast_low_high in (
            (exact_session.range90, float_session.range90),
            (exact_session.range95, float_session.range95),
        ):
            assert low_high == pytest.approx(fast_low_high, rel=1e-9, abs=1e-9)
        assert math.isclose(
            exact_session.probability_ahead, float_session.probability_ahead, rel_tol=1e-9
        )


def test_no_volatility_without_a_round() -> None:
    game = solve_game(Rules(decks=1), parse_cards("K Q 5"), exact=False)
    assert game.bonus is None and game_volatility(game) is None


def test_the_chance_of_being_ahead_keeps_its_far_tail(tiny_game: GameResult[Fraction]) -> None:
    moments = round_moments(tiny_game)
    [session] = volatility(moments, Fraction(1, 2), [100_000]).sessions
    z = float(session.mean) / session.standard_deviation
    assert z < -9  # 1 - Phi(9) is below the float spacing near 1
    assert 0 < session.probability_ahead < 1e-18


@pytest.mark.parametrize(("rounds", "sessions"), [(100, 3000), (1_000, 1000)])
def test_simulated_sessions_fall_in_the_ranges_as_often_as_stated(
    rounds: int, sessions: int
) -> None:
    rules = Rules(decks=1)
    game = solve_game(rules, TINY_REMOVED, exact=True)
    played = realistic_play(rules, ["stand-on:17"], game=game).by_name("stand-on:17").game
    [session] = volatility(round_moments(played), rules.bonus_ratio, [rounds]).sessions
    nets = simulate_sessions(
        rules, StandOn(17), rounds, sessions, seed=rounds, removed=TINY_REMOVED
    )
    for share, (low, high) in ((0.90, session.range90), (0.95, session.range95)):
        sampling_error = math.sqrt(share * (1 - share) / sessions)
        assert abs(coverage(nets, low, high) - share) < 3 * sampling_error
    standard_error = session.standard_deviation / math.sqrt(sessions)
    assert abs(float(nets.mean()) - float(session.mean)) < 3 * standard_error
