"""``cbj hold`` against plain twins: every sequence of a short session, direct convolution of
the table-round (several seats, a mix of strategies) and the FFT beside the saddlepoint; bad
input is one line.  A pit's daily series (``solver.hold_series``, ``cbj hold --from``) is
tests/test_hold_series.py's."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import numpy as np
import numpy.typing as npt
import pytest

from solver.api.functions import hold
from solver.exact.game import solve_game
from solver.exact.hold import session_law
from solver.exact.lattice import round_table
from solver.exact.session import session_figures
from solver.exact.strategies import optimal_policy, realistic_play, simple_policy
from solver.exact.table_round import seat_law, table_round
from solver.model.errors import StrategyError
from solver.model.outcomes import parse_mix
from solver.model.rules import Rules
from solver.results.game import GameResult
from solver.results.hold import FLAG_LEVEL, SADDLEPOINT_ERROR
from solver.results.session import RoundTable
from solver.store.memory import MemoryCache
from tests.conftest import run_cli

RULES = Rules(decks=1)


@pytest.fixture(scope="module")
def lines(games: MemoryCache) -> list[tuple[Fraction, Fraction]]:
    game = solve_game(RULES, exact=True, cache=games)
    return [(line.net, line.probability) for line in game.round_lines]


def _two_sided(below: Fraction | float, above: Fraction | float) -> float:
    return min(1.0, 2 * float(min(below, above)))


@pytest.mark.parametrize("win", [Fraction(-3), Fraction(1), Fraction(5, 2)])
def test_short_sessions_match_every_sequence_of_rounds(
    lines: list[tuple[Fraction, Fraction]], win: Fraction
) -> None:
    """Three rounds: every sequence of three round results, its probability and its total."""
    rounds = 3
    below = above = Fraction(0)
    for picked in product(lines, repeat=rounds):
        total = sum((n for n, _ in picked), Fraction(0))
        p = math.prod(p for _, p in picked)
        below += p if total <= -win else 0
        above += p if total >= -win else 0
    check = hold(rounds=rounds, result=win, decks=1)
    assert check.method == "exact"
    assert check.p_value == _two_sided(below, above)
    mean = rounds * sum((n * p for n, p in lines), Fraction(0))
    assert check.expected_win == -mean


def test_long_sessions_agree_with_the_session_distribution(
    lines: list[tuple[Fraction, Fraction]],
) -> None:
    """The tail read from ``cbj session``'s own distribution, and the exact method's."""
    rounds, win = 60, Fraction(9)
    d = session_figures(lines, rounds, method="fft").distribution
    below = sum(float(p) for net, p in d.probabilities() if net <= -win)
    above = sum(float(p) for net, p in d.probabilities() if net >= -win)
    table = round_table(lines)
    fft = session_law(table, rounds, "fft")
    exact = session_law(table, rounds, "exact")
    assert abs(2 * min(*fft.tails(-win)) - 2 * min(below, above)) <= 2 * d.error_bound + 1e-15
    assert all(
        abs(a - b) <= fft.error_bound + 1e-15  # type: ignore[operator]
        for a, b in zip(fft.tails(-win), exact.tails(-win), strict=True)
    )


def test_each_band_holds_at_least_its_share_of_sessions(
    lines: list[tuple[Fraction, Fraction]],
) -> None:
    rounds = 40
    check = hold(rounds=rounds, result=0, decks=1, method="exact")
    d = session_figures(lines, rounds, method="exact").distribution
    for band in check.bands:
        inside = sum(p for net, p in d.probabilities() if band.low_win <= -net <= band.high_win)
        assert inside >= band.level


def test_the_verdict_follows_the_band(lines: list[tuple[Fraction, Fraction]]) -> None:
    table = round_table(lines)
    expected = round(-500 * table.mean)
    usual = hold(rounds=500, result=expected, decks=1)
    assert not usual.outside and "within the 95% band" in usual.verdict
    assert usual.p_value >= 0.05
    odd = hold(rounds=500, result=expected - 150, decks=1)
    assert odd.outside and odd.p_value < 0.01 and "investigate" in odd.verdict


def test_hold_is_the_win_over_the_drop_and_the_handle_is_every_wager(
    games: MemoryCache,
) -> None:
    check = hold(rounds=20, hold="12%", drop="40", decks=1, cache=games)
    assert check.observed_win == Fraction(12, 100) * 40
    assert check.observed_hold == Fraction(12, 100)
    by_ratio = hold(rounds=20, hold="12%", drop_to_handle="0.25", seats=2, decks=1, cache=games)
    handle = 20 * 2 * Fraction(3, 2)
    assert by_ratio.handle == handle and by_ratio.drop == handle / 4
    on_handle = hold(rounds=20, win_over_handle="2%", decks=1, cache=games)
    assert on_handle.observed_win == Fraction(2, 100) * 20 * Fraction(3, 2)
    document = check.to_json()
    assert document["observed"]["hold"] == {"float": 0.12}
    assert document["observed"]["win_over_handle"]["float"] == pytest.approx(4.8 / 30)


# --- The table-round: seats sharing the dealer and the Bonus card, a mix of strategies -----------


@pytest.fixture(scope="module")
def game(games: MemoryCache) -> GameResult[Fraction]:
    return solve_game(RULES, exact=True, cache=games)


def _floats(table: RoundTable, lowest: int, width: int) -> npt.NDArray[np.float64]:
    out = np.zeros(width)
    for i in range(len(table.weights)):
        out[table.lowest - lowest + i] = float(table.probability(i))
    return out


@pytest.mark.parametrize("name", ["optimal", "mimic-dealer", "stand-on:15"])
def test_one_seat_is_the_strategys_exact_round(game: GameResult[Fraction], name: str) -> None:
    """One seat of one strategy: point for point the round ``cbj strategies`` finds exactly."""
    played = realistic_play(RULES, [name], game).policies[0].game
    exact = round_table([(line.net, line.probability) for line in played.round_lines])
    policy = optimal_policy(game) if name == "optimal" else simple_policy(name, RULES)
    one = table_round(RULES, [(Fraction(1), seat_law(RULES, policy))], 1)
    assert one.step == exact.step
    width = max(one.highest, exact.highest) - min(one.lowest, exact.lowest) + 1
    low = min(one.lowest, exact.lowest)
    assert np.abs(_floats(one, low, width) - _floats(exact, low, width)).max() < 1e-13


def _direct(table: RoundTable, rounds: int) -> dict[int, float]:
    """The table convolved ``rounds`` times by plain loops: lattice index -> probability."""
    points = {table.lowest + i: float(table.probability(i)) for i in range(len(table.weights))}
    points = {k: p for k, p in points.items() if p}
    total = {0: 1.0}
    for _ in range(rounds):
        grown: dict[int, float] = {}
        for a, p in total.items():
            for b, q in points.items():
                grown[a + b] = grown.get(a + b, 0.0) + p * q
        total = grown
    return total


def _direct_tail(table: RoundTable, rounds: int, win: Fraction) -> float:
    total = _direct(table, rounds)
    net = -win / table.step
    below = sum(p for k, p in total.items() if k <= net)
    above = sum(p for k, p in total.items() if k >= net)
    return _two_sided(below, above)


def test_five_seats_tail_equals_a_direct_convolution_of_the_table_round(
    game: GameResult[Fraction], games: MemoryCache
) -> None:
    """``cbj hold --seats 5`` over 4 table-rounds, against the 5-seat table-round convolved by
    plain loops; the table's mean is 5 seats' exact mean, its variance more than 5 seats'."""
    table = table_round(RULES, [(Fraction(1), seat_law(RULES, optimal_policy(game)))], 5)
    for win in (Fraction(-7), Fraction(3), Fraction(12)):
        check = hold(rounds=4, result=win, seats=5, decks=1, cache=games)
        assert check.method == "fft"
        assert abs(check.p_value - _direct_tail(table, 4, win)) < 1e-12
    one = round_table([(line.net, line.probability) for line in game.round_lines])
    assert math.isclose(table.mean, 5 * float(one.mean), rel_tol=1e-12)
    assert check.expected_win == -4 * 5 * Fraction(one.mean)
    assert table.variance > 5 * float(one.variance) * 1.5  # the dealer and Bonus card shared


def test_a_mix_of_strategies_tail_equals_the_direct_mixture(
    game: GameResult[Fraction], games: MemoryCache
) -> None:
    """One seat of a mix: the strategies' exact rounds mixed by their shares, then convolved."""
    mix = "25% optimal, 75% mimic-dealer"
    shares = parse_mix(mix)
    rounds = [
        round_table([(line.net, line.probability) for line in p.game.round_lines])
        for p in realistic_play(RULES, [n for _, n in shares], game).policies
    ]
    low = min(t.lowest for t in rounds)
    width = max(t.highest for t in rounds) - low + 1
    mixed = np.zeros(width)
    for (share, _), t in zip(shares, rounds, strict=True):
        mixed += float(share) * _floats(t, low, width)
    table = RoundTable(rounds[0].step, low, tuple(mixed.tolist()), 1, False)
    for win in (Fraction(-2), Fraction(5)):
        check = hold(rounds=5, result=win, strategy=mix, decks=1, cache=games)
        assert abs(check.p_value - _direct_tail(table, 5, win)) < 1e-12
    means = [
        Fraction(p.game.round_expected_value)
        for p in realistic_play(RULES, ["optimal", "mimic-dealer"], game).policies
    ]
    assert check.expected_win == -5 * (means[0] / 4 + 3 * means[1] / 4)
    assert check.strategy == mix


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("10% optimal, 80% chart", "add up to 90%, not 100%"),
        ("optimal, chart", "is not SHARE% NAME"),
        ("50% chart, 50% chart", "names 'chart' twice"),
        ("0% chart, 100% optimal", "above 0%"),
    ],
)
def test_a_bad_mix_is_named(text: str, message: str) -> None:
    with pytest.raises(StrategyError, match=message):
        parse_mix(text)


def test_the_saddlepoint_is_within_its_stated_error_of_the_fft(game: GameResult[Fraction]) -> None:
    """Tails from 1 to 6 SDs out, at 11 lattice points about each, one seat and five, at
    10^4 and 10^6 table-rounds (a Newton step that stopped on a bracket's end once put one
    point 0.2% out)."""
    law = seat_law(RULES, optimal_policy(game))
    for seats in (1, 5):
        table = table_round(RULES, [(Fraction(1), law)], seats)
        for rounds in (10**4, 10**6):
            fft = session_law(table, rounds, "fft")
            saddle = session_law(table, rounds, "saddlepoint")
            mean, sd = rounds * table.mean, math.sqrt(rounds * table.variance)
            for z in (-6, -3, -1, 1, 3, 6):
                centre = round((mean + z * sd) / float(table.step))
                for k in range(centre - 5, centre + 6):  # each lattice point near it
                    net = table.step * k
                    for a, b in zip(fft.tails(net), saddle.tails(net), strict=True):
                        assert abs(b - a) <= SADDLEPOINT_ERROR * a + (fft.error_bound or 0)


def test_auto_falls_back_to_the_fft_where_the_exact_lattice_is_too_fine() -> None:
    """A round whose results lie 10,000 lattice steps apart (a fine lattice, as odd pays
    make): 20 rounds span more points than ``auto`` convolves exactly, so it takes the
    FFT."""
    far = 10_000
    weights = [0] * (far + 2)
    weights[0], weights[2], weights[-1] = 5 * 10**9, 5 * 10**9 - 1, 1
    table = RoundTable(Fraction(1), -1, tuple(weights), 10**10, True)
    assert session_law(table, 5, "auto").method == "exact"  # 5 rounds: 50,001 points
    law = session_law(table, 20, "auto")
    assert law.method == "fft" and (law.error_bound or 1) < 1e-8
    below, _ = law.tails(Fraction(0))  # 20 steps of -1 or +1, the far result aside (2e-9)
    assert below == pytest.approx(sum(math.comb(20, k) for k in range(11)) / 2**20, abs=1e-8)


def test_a_hundred_million_table_rounds_are_checked(games: MemoryCache) -> None:
    """10^8 table-rounds of 5 seats: the saddlepoint by ``auto``; the bands sit about the
    expectation, a result 5 SDs out is far outside them."""
    expected = hold(rounds=10**8, result=0, seats=5, decks=1, cache=games).expected_win
    sd_far = expected - 5 * 10**4 * 4
    check = hold(rounds=10**8, result=sd_far, seats=5, decks=1, cache=games)
    assert check.method == "saddlepoint" and check.outside
    band = next(b for b in check.bands if b.level == FLAG_LEVEL)
    assert band.low_win < expected < band.high_win


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rounds", "-5", "--hold", "1%"], "rounds -5 is out of range: use 1 to 1,000,000,000"),
        (["--rounds", "10", "--result", "100"], "cannot come of 10 table-rounds"),
        (["--rounds", "10", "--hold", "1%"], "give the drop"),
        (["--rounds", "10", "--hold", "x", "--drop", "9"], "hold 'x' is not a share"),
        (["--rounds", "10"], "--result"),
        (["--rounds", "10", "--result", "1", "--seats", "9"], "seats 9 is out of range"),
        (["--rounds", "10", "--result", "1", "--strategy", "60% chart"], "not 100%"),
        (["--rounds", "10", "--result", "1", "--format", "png"], "needs a daily file"),
        (["--rounds", "10", "--result", "1", "--drop-to-handle", "3"], "at most 1"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["hold", "--decks", "1", *argv], capsys)
    assert status == 2 and not out
    assert message in err and len(err.strip().splitlines()) == 1
