"""``cbj session``: the session's distribution and ruin against plain twins written here."""

from __future__ import annotations

import itertools
import json
import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver
from solver.exact.game import solve_game
from solver.exact.lattice import floats, round_table
from solver.exact.ruin import ruin_unlimited, ruin_within
from solver.exact.session import (
    EXACT_AUTO_ROUNDS,
    MAX_ROUNDS,
    distribution,
    parse_bankroll,
    session_figures,
)
from solver.exact.strategies import realistic_play
from solver.model.cards import parse_cards
from solver.model.errors import CbjError
from solver.model.rules import Rules
from solver.results.game import GameResult
from solver.results.volatility import normal_session
from solver.store.memory import MemoryCache

from .conftest import run_cli
from .test_game import TINY_REMOVED

TINY_RULES = Rules.from_preset("vegas-21", decks=1)
TINY_OPTIONS = [
    "--preset",
    "vegas-21",
    "--decks",
    "1",
    "--removed",
    " ".join(map(str, TINY_REMOVED)),
]

Lines = list[tuple[Fraction, Fraction]]


@pytest.fixture(scope="module")
def tiny_game() -> GameResult[Fraction]:
    return solve_game(TINY_RULES, TINY_REMOVED, exact=True)


@pytest.fixture(scope="module")
def tiny_lines(tiny_game: GameResult[Fraction]) -> Lines:
    return [(line.net, Fraction(line.probability)) for line in tiny_game.round_lines]


# --- Plain twins: dict convolution and path enumeration, in exact fractions -------------------


def convolved(lines: Lines, rounds: int) -> dict[Fraction, Fraction]:
    """The net after ``rounds`` rounds, by convolving dictionaries one round at a time."""
    total: dict[Fraction, Fraction] = {Fraction(0): Fraction(1)}
    for _ in range(rounds):
        after: dict[Fraction, Fraction] = {}
        for net, p in total.items():
            for step, q in lines:
                after[net + step] = after.get(net + step, Fraction(0)) + p * q
        total = after
    return total


def ruin_by_paths(lines: Lines, bankroll: Fraction, rounds: int) -> Fraction:
    """P(the running total reaches -bankroll or below), summed over every sequence of nets."""
    ruined = Fraction(0)
    for path in itertools.product(lines, repeat=rounds):
        p = Fraction(1)
        for _, q in path:
            p *= q
        running = Fraction(0)
        for net, _ in path:
            running += net
            if running <= -bankroll:
                ruined += p
                break
    return ruined


def lumped(lines: Lines) -> Lines:
    """The round with its nets merged (the path twin's work grows as outcomes**rounds)."""
    merged: dict[Fraction, Fraction] = {}
    for net, p in lines:
        merged[net] = merged.get(net, Fraction(0)) + p
    return sorted(merged.items())


# --- The distribution ---------------------------------------------------------------------------


def test_one_round_reproduces_the_round_table_exactly(
    tiny_game: GameResult[Fraction], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(
        ["session", "--rounds", "1", "--format", "json", *TINY_OPTIONS], capsys
    )
    assert status == 0
    document = json.loads(out)
    assert document["method"] == "exact"
    listed = {
        Fraction(row["net"]["exact"]): Fraction(row["probability"]["exact"])
        for row in document["distribution"]
    }
    expected = {line.net: line.probability for line in tiny_game.round_lines if line.probability}
    assert listed == expected
    assert Fraction(document["mean"]["exact"]) == tiny_game.round_expected_value
    assert Fraction(document["variance"]["exact"]) == tiny_game.round_variance


def test_twenty_rounds_p_ahead_equals_a_dict_convolution(tiny_lines: Lines) -> None:
    twin = convolved(tiny_lines, 20)
    figures = session_figures(tiny_lines, 20)
    assert figures.distribution.method == "exact"
    assert figures.distribution.probability_ahead == sum(p for x, p in twin.items() if x > 0)
    assert figures.distribution.probability_even == twin.get(Fraction(0), Fraction(0))
    assert dict(figures.distribution.probabilities()) == {x: p for x, p in twin.items() if p}
    fast = session_figures(tiny_lines, 20, method="fft").distribution
    assert abs(fast.probability_ahead - float(figures.distribution.probability_ahead)) <= (
        fast.error_bound
    )


def test_the_fft_distribution_is_within_its_bound_of_the_exact_one(tiny_lines: Lines) -> None:
    table = round_table(tiny_lines)
    exact = distribution(table, 60, "exact")
    fast = distribution(table, 60, "fft")
    exact_points = dict(exact.probabilities())
    fast_points = dict(fast.probabilities())
    error = sum(abs(float(exact_points.get(x, 0)) - fast_points.get(x, 0.0))
                for x in exact_points.keys() | fast_points.keys())  # fmt: skip
    assert 0 < fast.error_bound < 1e-9
    assert error <= fast.error_bound
    for level in (Fraction(1, 100), Fraction(1, 2), Fraction(99, 100)):
        assert abs(exact.quantile(level) - fast.quantile(level)) <= exact.step


def test_probabilities_sum_to_one_within_the_bound(tiny_lines: Lines) -> None:
    assert distribution(round_table(tiny_lines), 15, "exact").total == 1
    for rounds in (1, 7, 1_000, 30_000):
        found = distribution(round_table(tiny_lines), rounds, "fft")
        assert abs(float(found.total) - 1) <= found.error_bound + 1e-15


def test_mean_and_sd_beside_the_normal_approximation_of_the_volatility_figures(
    tiny_lines: Lines,
) -> None:
    figures = session_figures(tiny_lines, 400)
    table = figures.table
    assert figures.mean == 400 * table.mean
    normal = normal_session(400, table.mean, table.variance)
    assert figures.normal.probability_ahead == pytest.approx(normal.probability_ahead, rel=1e-12)
    assert figures.normal.standard_deviation == pytest.approx(figures.standard_deviation)
    # The exact distribution's own moments agree with n EV and n Var.
    points = figures.distribution.probabilities()
    mean = sum(x * p for x, p in points)
    second = sum(x * x * p for x, p in points)
    assert mean == pytest.approx(float(figures.mean), abs=1e-6)
    assert second - mean**2 == pytest.approx(float(figures.variance), rel=1e-8)


def test_the_largest_likely_loss_is_the_one_percent_quantile(tiny_lines: Lines) -> None:
    figures = session_figures(tiny_lines, 12)
    twin = sorted(convolved(tiny_lines, 12).items())
    running = Fraction(0)
    quantile = twin[-1][0]
    for net, p in twin:
        running += p
        if running >= Fraction(1, 100):
            quantile = net
            break
    assert figures.largest_likely_loss == max(Fraction(0), -quantile)
    below = sum(p for x, p in twin if x < -figures.largest_likely_loss)
    assert below < Fraction(1, 100)


# --- The risk of ruin ---------------------------------------------------------------------------


@pytest.mark.parametrize(("bankroll", "rounds"), [(Fraction(1), 4), (Fraction(5, 2), 5)])
def test_ruin_equals_a_path_enumeration(tiny_lines: Lines, bankroll: Fraction, rounds: int) -> None:
    lines = lumped(tiny_lines)
    twin = ruin_by_paths(lines, bankroll, rounds)
    table = round_table(lines)
    assert 0 < twin < 1
    assert ruin_within(table, bankroll, rounds, "exact") == (twin, 0.0)
    fast, bound = ruin_within(table, bankroll, rounds, "fft")
    assert abs(fast - float(twin)) <= bound + 1e-15


def test_the_float_walk_meets_the_exact_walk_over_blocks(tiny_lines: Lines) -> None:
    table = round_table(tiny_lines)
    for bankroll, rounds in ((Fraction(3), 90), (Fraction(12), 100), (Fraction(1, 2), 37)):
        exact, _ = ruin_within(table, bankroll, rounds, "exact")
        fast, bound = ruin_within(table, bankroll, rounds, "fft")
        assert 0 < exact < 1
        assert abs(fast - float(exact)) <= bound + 1e-15


def ruin_round_by_round(lines: Lines, bankroll: Fraction, rounds: int) -> float:
    """P(ruin within ``rounds``) by a float walk killed after every round (no blocks)."""
    table = round_table(lines)
    start = math.ceil(bankroll / table.step)  # lattice units above the barrier
    p = floats(table)
    alive = np.zeros(start + 1)  # entry x is position x; 0 and below are ruined
    alive[start] = 1.0
    ruined = 0.0
    for _ in range(rounds):
        after = np.convolve(alive, p)  # entry i is position i + table.lowest
        cut = -table.lowest  # entries up to here are positions <= 0
        ruined += float(after[: cut + 1].sum())
        alive = np.concatenate([[0.0], after[cut + 1 :]])
    return ruined


@pytest.mark.parametrize(("block", "blocks"), [(None, None), (5, 3)])
def test_super_blocks_meet_a_round_by_round_walk(
    tiny_lines: Lines, block: int | None, blocks: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import solver.exact.ruin as session_module

    if block is not None:  # small blocks: the set-aside mass is moved many times
        monkeypatch.setattr(session_module, "_block_size", lambda table, rounds: min(rounds, block))
        monkeypatch.setattr(session_module, "SUPER_BLOCKS", blocks)
    table = round_table(tiny_lines)
    long = session_module._block_size(table, 10**5) * session_module.SUPER_BLOCKS
    rounds = 2 * long + 37  # super-blocks, then plain blocks
    for bankroll in (Fraction(3), Fraction(10), Fraction(25)):
        fast, bound = ruin_within(table, bankroll, rounds, "fft")
        twin = ruin_round_by_round(tiny_lines, bankroll, rounds)
        assert 1e-12 < twin < 1
        assert abs(fast - twin) <= bound + 1e-12


def test_a_bankroll_no_session_can_lose_is_never_ruined(tiny_lines: Lines) -> None:
    table = round_table(tiny_lines)
    worst = -table.lowest * table.step * 10  # ten of the largest losses
    assert ruin_within(table, worst + table.step, 10, "exact") == (0, 0.0)
    assert ruin_within(table, worst + table.step, 10, "fft") == (0, 0.0)
    assert ruin_within(table, worst, 10, "exact")[0] == table.probability(0) ** 10


def test_unlimited_ruin_matches_the_gamblers_ruin_formula() -> None:
    # A coin that wins with probability 3/5: ruin from b is (2/3)**b exactly.
    coin = round_table([(Fraction(-1), Fraction(2, 5)), (Fraction(1), Fraction(3, 5))])
    for b in (1, 4, 9):
        found = ruin_unlimited(coin, Fraction(b))
        assert found.low <= (2 / 3) ** b <= found.high
        assert abs(found.value - (2 / 3) ** b) < 1e-8
        assert "iterated" in found.method


def test_unlimited_ruin_is_certain_when_the_house_has_the_edge(tiny_lines: Lines) -> None:
    table = round_table(tiny_lines)
    assert table.mean < 0
    assert ruin_unlimited(table, Fraction(1000)).value == 1


# --- Identities on random round tables -----------------------------------------------------------


@st.composite
def round_tables(draw: st.DrawFn) -> Lines:
    """A random round: a few nets in halves, with positive rational probabilities."""
    nets = draw(st.lists(st.integers(-6, 10), min_size=1, max_size=5, unique=True))
    weights = draw(st.lists(st.integers(1, 9), min_size=len(nets), max_size=len(nets)))
    total = sum(weights)
    return [(Fraction(n, 2), Fraction(w, total)) for n, w in zip(nets, weights, strict=True)]


@settings(max_examples=40, deadline=None)
@given(round_tables(), st.integers(1, 9), st.integers(1, 9))
def test_distributions_sum_to_one_and_convolve(lines: Lines, rounds: int, bankroll: int) -> None:
    table = round_table(lines)
    found = distribution(table, rounds, "exact")
    assert found.total == 1
    assert found.probability_ahead + found.probability_even + found.probability_behind == 1
    assert dict(found.probabilities()) == {x: p for x, p in convolved(lines, rounds).items() if p}
    fast = distribution(table, rounds, "fft")
    assert abs(float(fast.total) - 1) <= fast.error_bound + 1e-15
    exact_points, fast_points = dict(found.probabilities()), dict(fast.probabilities())
    error = sum(abs(float(exact_points.get(x, 0)) - fast_points.get(x, 0.0))
                for x in exact_points.keys() | fast_points.keys())  # fmt: skip
    assert error <= fast.error_bound + 1e-300
    ruined, _ = ruin_within(table, Fraction(bankroll), rounds, "exact")
    last = sum((p for x, p in found.probabilities() if x <= -bankroll), Fraction(0))
    assert last <= ruined <= 1  # ruined at the end implies ruined at some point
    longer, _ = ruin_within(table, Fraction(bankroll), rounds + 1, "exact")
    assert ruined <= longer


# --- The API, the CLI and bad input --------------------------------------------------------------


def test_to_json_equals_the_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    result = solver.session(
        rounds=30, bankroll="5", rules=TINY_RULES, removed=TINY_REMOVED, cache=MemoryCache()
    )
    status, out, _ = run_cli(
        ["session", "--rounds", "30", "--bankroll", "5", "--format", "json", *TINY_OPTIONS],
        capsys,
    )
    assert status == 0
    assert json.loads(out) == json.loads(json.dumps(result.to_json()))


def test_other_strategies_use_their_own_round(tiny_game: GameResult[Fraction]) -> None:
    cache = MemoryCache()
    for name in ("chart", "stand-on:15"):
        result = solver.session(
            rounds=1, strategy=name, rules=TINY_RULES, removed=TINY_REMOVED, cache=cache
        )
        policy = realistic_play(TINY_RULES, [name], tiny_game, cache).policies[0]
        expected = {ln.net: ln.probability for ln in policy.game.round_lines if ln.probability}
        assert dict(result.figures.distribution.probabilities()) == expected
        assert result.strategy == name


@pytest.mark.parametrize("fmt", ["table", "csv", "md"])
def test_text_formats_show_exact_beside_normal(
    fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(
        ["session", "--rounds", "50", "--bankroll", "4", "--format", fmt, *TINY_OPTIONS], capsys
    )
    assert status == 0
    assert "normal approximation" in out
    assert "chance of ruin within the session" in out and "after 50 rounds" in out


@pytest.mark.parametrize(
    ("fmt", "start"), [("png", b"\x89PNG"), ("svg", b"<?xml"), ("html", b"<!")]
)
def test_plots(fmt: str, start: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / f"session.{fmt}"
    status, _, err = run_cli(
        ["session", "--rounds", "40", "--format", fmt, "-o", str(target), *TINY_OPTIONS], capsys
    )
    assert status == 0, err
    assert target.read_bytes().startswith(start)


BAD_ROUNDS = [0, -1, MAX_ROUNDS + 1]
BAD_BANKROLLS = ["-5", "0", "", "   ", "\u0661\u0660\u0660", "1e13", "10" * 20, "abc", "5/0", "nan"]


@pytest.mark.parametrize("rounds", BAD_ROUNDS)
def test_bad_rounds_are_refused(rounds: int, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(CbjError, match="rounds"):
        solver.session(rounds=rounds)
    status, out, err = run_cli(["session", "--rounds", str(rounds)], capsys)
    assert (status, out) == (2, "")
    assert err.startswith("cbj: error:") and err.count("\n") == 1


@pytest.mark.parametrize("bankroll", BAD_BANKROLLS)
def test_bad_bankrolls_are_refused(bankroll: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(CbjError, match="bankroll"):
        parse_bankroll(bankroll)
    with pytest.raises(CbjError, match="bankroll"):
        solver.session(rounds=5, bankroll=bankroll)
    status, out, err = run_cli(["session", "--rounds", "5", "--bankroll", bankroll], capsys)
    assert (status, out) == (2, "")
    assert "bankroll" in err and err.count("\n") == 1


def test_bad_strategy_and_method_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(CbjError, match="strategy"):
        solver.session(rounds=5, strategy="card-counter")
    with pytest.raises(CbjError, match="method"):
        solver.session(rounds=5, method="guess")
    with pytest.raises(CbjError, match="exact"):
        session_figures([(Fraction(1), Fraction(1))], 101, method="exact")
    status, _, err = run_cli(["session", "--rounds", "5", "--strategy", "card-counter"], capsys)
    assert status == 2 and err.count("\n") == 1


def test_good_bankrolls_parse() -> None:
    assert parse_bankroll(" 12.5 ") == Fraction(25, 2)
    assert parse_bankroll("25/2") == Fraction(25, 2)
    assert parse_bankroll(Fraction(1, 3)) == Fraction(1, 3)


def test_auto_switches_to_floats_above_the_exact_limit(tiny_lines: Lines) -> None:
    assert session_figures(tiny_lines, EXACT_AUTO_ROUNDS).distribution.exact
    assert not session_figures(tiny_lines, EXACT_AUTO_ROUNDS + 1).distribution.exact


def test_removed_cards_without_suits_have_no_round() -> None:
    with pytest.raises(CbjError, match="suits"):
        solver.session(rounds=3, removed=parse_cards("A 2"), rules=TINY_RULES)


# --- Sizes: checked before the work they bound, and written whatever their digits ---------------


def test_exact_json_holds_fractions_of_more_than_4300_digits() -> None:
    """100 exact rounds of a round whose odds have 50-digit denominators: 5,000-digit fractions,
    each read back (with Python's digit limit lifted for the check) equal to the API's."""
    odds = 10**50 + 151
    coin = [(Fraction(-1), 1 - Fraction(1, odds)), (Fraction(3), Fraction(1, odds))]
    figures = session_figures(coin, 100, method="exact")
    document = json.loads(json.dumps(figures.to_json()))
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        written = {
            Fraction(p["net"]["exact"]): Fraction(p["probability"]["exact"])
            for p in (document["distribution"])
        }
    finally:
        sys.set_int_max_str_digits(limit)
    assert written == dict(figures.distribution.probabilities())
    assert len(document["distribution"][0]["probability"]["exact"]) > 5000


@pytest.mark.soak  # an exact solve of the default game first: about 20 s
def test_the_cli_writes_100_exact_rounds_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's case: its fractions run to about 4,500 digits."""
    status, out, err = run_cli(
        ["session", "--rounds", "100", "--method", "exact", "--format", "json"], capsys
    )
    assert status == 0 and err == ""
    assert json.loads(out)["rounds"] == 100


TINY_PAYS = "suited-match=1/9973,rank-match=1/9967,adjacent=1/9949"


def test_a_round_too_fine_to_walk_is_refused_before_it_is_walked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Its nets span about 6 x 10**12 lattice points: refused from their span, in one line."""
    status, out, err = run_cli(["session", "--rounds", "2", "--paytable", TINY_PAYS], capsys)
    assert (status, out) == (2, "") and err.count("\n") == 1
    assert "lattice of 5,933,736,188,246 points" in err and "smaller denominators" in err
    with pytest.raises(CbjError, match="lattice of 200,000,002 points"):
        round_table([(Fraction(-1), Fraction(1, 2)), (Fraction(10**8 + 1, 10**8), Fraction(1, 2))])


def test_an_output_suffix_that_contradicts_the_format_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As ``cbj chart`` refuses it; and without --format the suffix chooses the format."""
    out = tmp_path / "x.png"
    status, _, err = run_cli(
        ["session", "--rounds", "3", *TINY_OPTIONS, "-o", str(out), "--format", "csv"], capsys
    )
    assert status == 2 and not out.exists()
    assert err == (
        f"cbj: error: --format csv contradicts the extension of '{out}' (which means png): "
        "drop one or make them agree\n"
    )
    written = tmp_path / "x.csv"
    status, _, _ = run_cli(["session", "--rounds", "3", *TINY_OPTIONS, "-o", str(written)], capsys)
    assert status == 0 and written.read_text().startswith("table,figure,value")
