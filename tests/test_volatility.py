"""The round as a function of the Bonus ratio, and session ranges: the exact distribution's,
against brute force over every sequence of rounds and against simulated sessions."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from fractions import Fraction
from statistics import NormalDist

import pytest

from solver.exact import volatility
from solver.exact.game import round_lines_for, solve_game
from solver.exact.ratios import ratio_table, round_moments
from solver.exact.session import session_figures
from solver.exact.strategies import realistic_play
from solver.exact.volatility import (
    Lines,
    game_volatility,
    parse_ratios,
    session_range,
    with_volatility,
)
from solver.model.cards import parse_cards
from solver.model.errors import RulesError
from solver.model.rules import TABULATED_RATIOS, Rules
from solver.results.game import GameResult
from solver.results.volatility import SESSION_LENGTHS, Z90, Z95, SessionRange, normal_session
from solver.sim import StandOn
from solver.sim.sessions import coverage, simulate_sessions
from solver.store.memory import MemoryCache

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
    result = game_volatility(tiny_game)
    assert result is not None
    moments = round_moments(tiny_game)
    assert math.isclose(result.index, result.standard_deviation * 1.6448536269514722)
    assert math.isclose(Z95, 1.959963984540054)
    step = Fraction(1, 2)  # every net of the round is a multiple of a half unit here
    for session in result.sessions:
        n = session.rounds
        assert session.mean == n * moments.expected_value(Fraction(1, 2))
        assert math.isclose(session.standard_deviation, result.standard_deviation * math.sqrt(n))
        (low90, high90), (low95, high95) = session.range90, session.range95
        assert low95 <= low90 < float(session.mean) < high90 <= high95
        assert all(Fraction(x) / step == int(Fraction(x) / step) for x in (low90, high90))
        assert session.method == "fft" and 0 < session.error_bound < 1e-6
        # The house has the edge here, so the player is behind more often than ahead.
        assert session.probability_ahead < 0.5
    data = result.to_json()
    assert [s["rounds"] for s in data["sessions"]] == [100, 1_000, 10_000, 100_000]
    assert "convolution" in data["method"] and "normal" not in data["method"]


def _brute_force(lines: list[tuple[Fraction, Fraction]], rounds: int) -> dict[Fraction, Fraction]:
    """The net after ``rounds`` rounds by every sequence of round results: the dumb twin."""
    found: dict[Fraction, Fraction] = {}
    for sequence in itertools.product(lines, repeat=rounds):
        net = sum((x for x, _ in sequence), Fraction(0))
        found[net] = found.get(net, Fraction(0)) + math.prod(p for _, p in sequence)
    return found


def _point(found: dict[Fraction, Fraction], level: Fraction) -> Fraction:
    running = Fraction(0)
    for net in sorted(found):
        running += found[net]
        if running >= level:
            return net
    return max(found)


def test_a_short_sessions_ranges_are_every_sequences(tiny_game: GameResult[Fraction]) -> None:
    lines = [(line.net, Fraction(line.probability)) for line in tiny_game.round_lines]
    for rounds in (1, 2, 3):
        twin = _brute_force(lines, rounds)
        session = session_range(lines, rounds)
        assert session.method == "exact" and session.error_bound == 0
        ahead = sum((p for net, p in twin.items() if net > 0), Fraction(0))
        assert session.probability_ahead == float(ahead)
        assert session.range90 == tuple(
            float(_point(twin, q)) for q in (Fraction(5, 100), Fraction(95, 100))
        )
        assert session.range95 == tuple(
            float(_point(twin, q)) for q in (Fraction(25, 1000), Fraction(975, 1000))
        )


def test_a_solves_volatility_is_the_same_exactly_and_in_floats(
    tiny_game: GameResult[Fraction],
) -> None:
    exact = game_volatility(tiny_game)
    fast = game_volatility(solve_game(tiny_game.rules, TINY_REMOVED, exact=False))
    assert exact is not None and fast is not None
    assert isinstance(fast.mean, float) and isinstance(fast.variance, float)
    assert math.isclose(fast.index, exact.index, rel_tol=1e-9)
    for exact_session, float_session in zip(exact.sessions, fast.sessions, strict=True):
        assert exact_session.rounds == float_session.rounds
        assert exact_session.range90 == float_session.range90
        assert exact_session.range95 == float_session.range95
        assert math.isclose(
            exact_session.probability_ahead, float_session.probability_ahead, abs_tol=1e-6
        )


def test_a_solves_session_figures_are_convolved_when_first_read_and_once(
    tiny_game: GameResult[Fraction], monkeypatch: pytest.MonkeyPatch
) -> None:
    twin = game_volatility(tiny_game)
    convolved: list[int] = []

    def counted(lines: Lines, rounds: int) -> SessionRange:
        convolved.append(rounds)
        return session_range(lines, rounds)

    monkeypatch.setattr(volatility, "session_range", counted)
    store = MemoryCache()
    game = with_volatility(tiny_game, store)
    assert convolved == []  # nothing yet: no one has read the figures
    assert game.volatility == twin and game.volatility is game.volatility
    assert convolved == list(SESSION_LENGTHS)
    again = with_volatility(tiny_game, store).volatility  # the store's, not convolved again
    assert again == twin and convolved == list(SESSION_LENGTHS)
    assert game == tiny_game  # the figures take no part in comparisons


def test_no_volatility_without_a_round() -> None:
    game = solve_game(Rules(decks=1), parse_cards("K Q 5"), exact=False)
    assert game.bonus is None and game_volatility(game) is None


def test_the_normal_fallback_keeps_its_far_tail() -> None:
    session = normal_session(100_000, Fraction(-1, 20), Fraction(9, 4))
    z = float(session.mean) / session.standard_deviation
    assert z < -9  # 1 - Phi(9) is below the float spacing near 1
    assert 0 < session.probability_ahead < 1e-18 and session.method == "normal"


def test_pays_too_wide_to_convolve_fall_back_on_the_normal_and_say_so() -> None:
    lines = [(Fraction(-1), Fraction(999_999, 10**6)), (Fraction(10**9), Fraction(1, 10**6))]
    session = session_range(lines, 1_000)
    assert session.method == "normal"
    assert session.mean == 1_000 * (Fraction(-999_999, 10**6) + 1_000)


@pytest.mark.parametrize(("rounds", "sessions"), [(100, 3000), (1_000, 1000)])
def test_simulated_sessions_fall_in_the_ranges_as_often_as_the_distribution_says(
    rounds: int, sessions: int
) -> None:
    rules = Rules(decks=1)
    game = solve_game(rules, TINY_REMOVED, exact=True)
    played = realistic_play(rules, ["stand-on:17"], game=game).by_name("stand-on:17").game
    volatility = game_volatility(played, [rounds])
    assert volatility is not None
    [session] = volatility.sessions
    lines = [(line.net, line.probability) for line in played.round_lines]
    distribution = session_figures(lines, rounds).distribution
    nets = simulate_sessions(
        rules, StandOn(17), rounds, sessions, seed=rounds, removed=TINY_REMOVED
    )
    for low, high in (session.range90, session.range95):
        inside = sum(float(p) for x, p in distribution.probabilities() if low <= float(x) <= high)
        sampling_error = math.sqrt(inside * (1 - inside) / sessions)
        assert abs(coverage(nets, low, high) - inside) < 3 * sampling_error
    standard_error = session.standard_deviation / math.sqrt(sessions)
    assert abs(float(nets.mean()) - float(session.mean)) < 3 * standard_error
