"""``cbj hold`` against plain enumeration of every short session and ``cbj session``'s
distribution."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import pytest

from solver.api.functions import hold
from solver.exact.game import solve_game
from solver.exact.hold import hold_check
from solver.exact.lattice import round_table
from solver.exact.session import session_figures
from solver.model.rules import Rules
from solver.store.memory import MemoryCache
from tests.conftest import run_cli

RULES = Rules(decks=1)


@pytest.fixture(scope="module")
def lines(games: MemoryCache) -> list[tuple[Fraction, Fraction]]:
    game = solve_game(RULES, exact=True, cache=games)
    return [(line.net, line.probability) for line in game.round_lines]


@pytest.mark.parametrize("win", [Fraction(-3), Fraction(1), Fraction(5, 2)])
def test_short_sessions_match_every_sequence_of_rounds(
    lines: list[tuple[Fraction, Fraction]], win: Fraction
) -> None:
    """Three rounds: every sequence of three round results, its probability and its total."""
    rounds = 3
    mean: Fraction = rounds * sum((n * p for n, p in lines), Fraction(0))
    reach = abs(-win - mean)
    tail = Fraction(0)
    for picked in product(lines, repeat=rounds):
        total = sum((n for n, _ in picked), Fraction(0))
        if abs(total - mean) >= reach:
            tail += math.prod(p for _, p in picked)
    check = hold_check(RULES, round_table(lines), rounds, win)
    assert check.method == "exact"
    assert check.p_value == float(tail)
    assert check.expected_win == -mean


def test_long_sessions_agree_with_the_session_distribution(
    lines: list[tuple[Fraction, Fraction]],
) -> None:
    """The tail read from ``cbj session``'s own distribution, and the exact method's."""
    rounds, win = 60, Fraction(9)
    figures = session_figures(lines, rounds, method="fft")
    d = figures.distribution
    mean = rounds * sum(n * p for n, p in lines)
    tail = sum(float(p) for net, p in d.probabilities() if abs(net - mean) >= abs(-win - mean))
    fft = hold_check(RULES, round_table(lines), rounds, win, method="fft")
    exact = hold_check(RULES, round_table(lines), rounds, win, method="exact")
    assert abs(fft.p_value - tail) <= d.error_bound + 1e-15
    assert abs(fft.p_value - exact.p_value) <= fft.error_bound + 1e-15


def test_each_band_holds_at_least_its_share_of_sessions(
    lines: list[tuple[Fraction, Fraction]],
) -> None:
    rounds = 40
    check = hold_check(RULES, round_table(lines), rounds, Fraction(0), method="exact")
    d = session_figures(lines, rounds, method="exact").distribution
    for band in check.bands:
        inside = sum(p for net, p in d.probabilities() if band.low_win <= -net <= band.high_win)
        assert inside >= band.level
        assert math.isclose(band.low, float(band.low_win / check.wagered))


def test_the_verdict_follows_the_tail(lines: list[tuple[Fraction, Fraction]]) -> None:
    table = round_table(lines)
    expected = round(-500 * table.mean)
    usual = hold_check(RULES, table, 500, Fraction(expected))
    assert usual.p_value >= 0.05 and "within the 95% band" in usual.verdict
    odd = hold_check(RULES, table, 500, Fraction(expected - 150))
    assert odd.p_value < 0.01 and "investigate" in odd.verdict


def test_hold_is_read_as_a_share_of_the_total_wagered(games: MemoryCache) -> None:
    check = hold(rounds=20, hold="2%", decks=1, cache=games)
    assert check.observed_win == Fraction(2, 100) * 20 * Fraction(3, 2)
    assert check.to_json()["observed"]["hold"] == {"float": 0.02}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rounds", "-5", "--hold", "1%"], "rounds -5 is out of range: use 1 to 100,000"),
        (["--rounds", "10", "--result", "100"], "cannot come of 10 rounds"),
        (["--rounds", "10", "--hold", "-700%"], "cannot come of 10 rounds"),
        (["--rounds", "10", "--hold", "x"], "hold 'x' is not a house edge"),
        (["--rounds", "10"], "--result"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["hold", "--decks", "1", *argv], capsys)
    assert status == 2 and not out
    assert message in err and len(err.strip().splitlines()) == 1
