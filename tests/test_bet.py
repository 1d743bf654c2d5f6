"""``cbj bet``: the Kelly ramp against Kelly's formula on a table with a known answer, the
simulated counter betting the ramp against the win it predicts, and the command's own
result against facts derived from its rows (each bet the best whole bet of the
second-order growth, the ramp rising with the count, the win and SD of the mix of bins)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

import solver
from solver.exact.betting import kelly_units, mixture, optimal_bets
from solver.model.counts import system_tags
from solver.results.betting import BetResult, CountBin
from solver.results.dealt_shoes import DealtShoes, Decision
from solver.results.simulation import Counter
from tests.advantage import NEAR_EVEN, STUDY, counter_mean, near_even_shoes


def ramp(**options: object) -> BetResult:
    """``solver.bet`` on the near-even game's small study, with ``options``."""
    return solver.bet(rules=NEAR_EVEN, **{**STUDY, **options})  # type: ignore[arg-type]


def test_the_ramp_is_kellys_bet_on_a_table_with_a_known_answer() -> None:
    """Kelly's bet ``B m / v`` maximises ``u m - u**2 v / (2 B)``, growth to second order:
    the whole number nearest it within the spread is the best whole bet (the growth is a
    parabola, so the nearest whole number to its peak is the best)."""
    table = [(-0.02, 1.2), (0.0, 1.3), (0.004, 1.25), (0.011, 1.3), (0.05, 1.4)]
    bankroll, spread = 1000.0, (1, 12)
    units = [kelly_units(m, v, bankroll, 1.0, spread) for m, v in table]
    assert units == [1, 1, 3, 8, 12]
    for (m, v), u in zip(table, units, strict=True):
        growth = {k: k * m - k * k * v / (2 * bankroll) for k in range(1, 13)}
        assert growth[u] == max(growth.values())
    assert kelly_units(0.011, 1.3, 1000.0, 0.5, spread) == 4
    bins = [
        CountBin(i, 0.2, m, v, u) for i, ((m, v), u) in enumerate(zip(table, units, strict=True))
    ]
    win, sd = mixture(bins)
    assert math.isclose(win, sum(0.2 * u * m for (m, _), u in zip(table, units, strict=True)))
    second = sum(0.2 * u * u * (v + m * m) for (m, v), u in zip(table, units, strict=True))
    assert math.isclose(sd, math.sqrt(second - win * win))


@pytest.fixture
def near_even() -> tuple[DealtShoes, Decision]:
    """The near-even game's dealt shoes (tests/advantage.py, once per process)."""
    return near_even_shoes()


@pytest.mark.slow
def test_the_simulated_counter_with_the_kelly_ramp_wins_the_predicted_amount(
    near_even: tuple[DealtShoes, Decision],
) -> None:
    shoes, _ = near_even
    tags = system_tags("hi-lo")
    ramp = optimal_bets(shoes, "hi-lo", tags, (1, 8), 1000.0)
    assert len(ramp.ramp) >= 2  # the ramp moves: the test is not a flat bet's
    counter = Counter("hi-lo", tags, ramp.spread, ramp.ramp)
    mean, se = counter_mean(counter, 1_000_000, 33)
    assert abs(mean - ramp.win) < 3 * math.hypot(se, ramp.win_se)


def best_whole_bet(row: CountBin, kelly_bankroll: float, spread: tuple[int, int]) -> int:
    """The whole bet within the spread with the most growth to second order (on the bin's
    fitted EV), every whole bet tried."""
    low, high = spread
    bets = range(low, high + 1)
    growth = {u: u * row.fitted - u * u * row.variance / (2 * kelly_bankroll) for u in bets}
    return max(growth, key=lambda u: (growth[u], -u))


def test_each_bin_bets_the_best_whole_bet_and_the_ramp_rises_with_the_count() -> None:
    found = ramp(spread="1-12")
    lows = [b.low for b in found.bins]
    assert lows == sorted(lows) and len(lows) == len(set(lows)) > 3
    assert math.isclose(sum(b.share for b in found.bins), 1.0)
    for b in found.bins:
        assert b.units == best_whole_bet(b, 1000.0, (1, 12)), b
    fitted = [b.fitted for b in found.bins]
    assert fitted == sorted(fitted)  # this game's line rises with the count...
    units = [b.units for b in found.bins]
    assert units == sorted(units) and units[0] < units[-1]  # ...and so does the ramp


def test_the_win_and_sd_are_those_of_the_mix_of_bins() -> None:
    found = ramp()
    win = sum(b.share * b.units * b.mean for b in found.bins)
    second = sum(b.share * b.units**2 * (b.variance + b.mean**2) for b in found.bins)
    assert math.isclose(found.win, win, rel_tol=1e-12)
    assert math.isclose(found.sd, math.sqrt(second - win * win), rel_tol=1e-12)


def test_a_kelly_fraction_bets_as_a_bankroll_that_much_smaller() -> None:
    """The bet depends on the bankroll and the fraction only through their product."""
    half = ramp(bankroll=2000, kelly_fraction=0.5)
    whole = ramp(bankroll=1000)
    assert [b.units for b in half.bins] == [b.units for b in whole.bins]
    assert replace(half, kelly_bankroll=1000.0, kelly_fraction=1.0) == whole


def test_a_flat_spread_bets_one_unit_and_wins_the_dealt_shoes_mean() -> None:
    flat = ramp(spread="1-1")
    assert {b.units for b in flat.bins} == {1}
    assert math.isclose(flat.win, sum(b.share * b.mean for b in flat.bins), rel_tol=1e-12)
    assert flat.win < ramp(spread="1-8").win
