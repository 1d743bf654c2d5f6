"""A table of players: exact Bonus figures per table-round against brute force and simulation."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import permutations

import pytest

from solver.exact.bonus import analyse_bonus
from solver.exact.seats import bonus_seat_moments, parse_seat_counts, table_bonus
from solver.model.cards import Card, Shoe, parse_cards
from solver.model.errors import SimulationError
from solver.model.outcomes import bonus_outcome, bonus_pay
from solver.model.rules import Paytable, Rules
from solver.results.seats import TableOfPlayers
from solver.sim import StandOn, simulate
from solver.sim.seats import table_estimate
from solver.studies.seats import table_of_players

from .conftest import physical_cards

# Eleven cards of two ranks apart and their neighbours: matches and adjacents are common.
SMALL = "As Ah 2s 2d Ks Kc Qh 7s 7h 5d 9c"


def removed_for(kept: str) -> tuple[Card, ...]:
    keep = list(parse_cards(kept))
    out = []
    for card in physical_cards(Shoe.full(1)):
        if card in keep:
            keep.remove(card)
        else:
            out.append(card)
    return tuple(out)


@pytest.mark.parametrize(
    "paytable",
    [Paytable(), Paytable(suited_match=Fraction(30), rank_match=Fraction(6), adjacent=Fraction(2))],
)
def test_two_seat_covariance_equals_every_ordered_triple_of_cards(paytable: Paytable) -> None:
    rules = Rules(decks=1, paytable=paytable)
    cards = list(parse_cards(SMALL))
    triples = list(permutations(range(len(cards)), 3))
    weight = Fraction(1, len(triples))

    def pay(seat: int, bonus: int) -> Fraction:
        return bonus_pay(paytable, bonus_outcome(cards[seat], cards[bonus]))

    # Deal order does not matter: seat 1, seat 2, then the Bonus card.
    mean = sum((weight * pay(a, c) for a, _, c in triples), Fraction(0))
    second = sum((weight * pay(a, c) ** 2 for a, _, c in triples), Fraction(0))
    joint = sum((weight * pay(a, c) * pay(b, c) for a, b, c in triples), Fraction(0))
    moments = bonus_seat_moments(rules, removed_for(SMALL))
    assert moments.mean == mean == analyse_bonus(rules, removed_for(SMALL)).expected_value
    assert moments.variance == second - mean**2
    assert moments.covariance == joint - mean**2


def test_table_variance_grows_faster_than_the_seats_when_correlated() -> None:
    rows = table_bonus(Rules())
    one = rows[0]
    assert [row.seats for row in rows] == list(range(1, 8))
    assert one.hold == -Fraction(1, 2) * analyse_bonus(Rules()).expected_value
    assert one.variance == Fraction(1, 4) * analyse_bonus(Rules()).variance
    covariance = bonus_seat_moments(Rules()).covariance
    # On a full shoe every rank has as many matching cards as any other and exactly two
    # adjacent ranks (the ace touches 2 and K), so a seat's expected Bonus result is the
    # same whatever the Bonus card: the shared card adds no correlation, and dealing
    # without replacement (one seat's match is a card the other cannot get) makes it
    # negative.
    assert covariance < 0
    for row in rows:
        k = row.seats
        assert row.hold == k * one.hold
        assert row.variance == k * one.variance + k * (k - 1) * covariance / 4


@pytest.mark.parametrize("seats", [0, 8, True])
def test_seats_out_of_range_are_refused(seats: int) -> None:
    with pytest.raises(SimulationError, match="seats"):
        table_bonus(Rules(), [seats])


def test_simulated_table_bonus_sd_meets_the_exact_figure() -> None:
    rules = Rules(decks=1)
    removed = removed_for(SMALL + " 3s 4h 6c 8d Tc Jd")
    for row in table_bonus(rules, [3], removed):
        result = simulate(
            rules,
            StandOn(17),
            200_000,
            seed=row.seats,
            seats=row.seats,
            penetration=None,
            removed=removed,
        )
        estimate = table_estimate(result, "bonus")
        assert abs(estimate.hold - float(row.hold)) < 3 * estimate.standard_error
        # The SD of a sample SD is about SD / sqrt(2 n) for near-normal data; allow for tails.
        assert math.isclose(estimate.standard_deviation, row.standard_deviation, rel_tol=0.02)


@pytest.mark.parametrize(
    ("text", "counts"),
    [("1-7", (1, 2, 3, 4, 5, 6, 7)), ("3", (3,)), (" 1, 5 ,2", (1, 5, 2)), ("2-3,7,3", (2, 3, 7))],
)
def test_seat_counts_parse_as_ranges_and_lists(text: str, counts: tuple[int, ...]) -> None:
    assert parse_seat_counts(text) == counts


@pytest.mark.parametrize("text", ["0", "8", "1-8", "3-1", "", "1,,2", "a", "-", "\u0663", "1-2-3"])
def test_bad_seat_counts_are_refused(text: str) -> None:
    with pytest.raises(SimulationError, match="seats"):
        parse_seat_counts(text)


@pytest.fixture(scope="module")
def stand_on_17_table() -> TableOfPlayers:
    # Three tables, not seven: each simulation has a fixed cost of a few tenths of a second.
    return table_of_players(Rules(), StandOn(17), (1, 3, 7), rounds=20_000, seed=11)


def test_every_tables_simulated_bonus_hold_meets_the_exact_one(
    stand_on_17_table: TableOfPlayers,
) -> None:
    table = stand_on_17_table
    assert [row.seats for row in table.rows] == [1, 3, 7]
    for row, exact in zip(table.rows, table_bonus(Rules(), (1, 3, 7)), strict=True):
        assert row.exact_bonus == exact
        assert abs(row.bonus_z) < 3, row.seats
        assert row.seed == table.seed + row.seats


def test_simulated_holds_add_up_and_grow_with_the_seats(stand_on_17_table: TableOfPlayers) -> None:
    one = stand_on_17_table.rows[0]
    for row in stand_on_17_table.rows:
        # The round is the main wager plus the Bonus (both in main-wager units), seat by seat.
        assert math.isclose(row.round.hold, row.main.hold + row.bonus.hold, abs_tol=1e-12)
        # Each seat's expected result is the same, so the table's is k times one seat's.
        k = row.seats
        error = math.hypot(row.main.standard_error, k * one.main.standard_error)
        assert abs(row.main.hold - k * one.main.hold) < 3 * error
        low, high = row.main.ci95
        assert low < row.main.hold < high


def test_the_table_of_players_json_keeps_exact_and_simulated_apart(
    stand_on_17_table: TableOfPlayers,
) -> None:
    document = stand_on_17_table.to_json()
    assert document["strategy"] == "stand-on:17" and document["fresh_shoe"] is True
    first = document["rows"][0]
    assert first["bonus"]["hold"]["exact"] == str(stand_on_17_table.rows[0].exact_bonus.hold)
    assert set(first["bonus"]["simulated"]) == {"hold", "standard_error", "ci95", "sd"}
    assert set(first["main"]) == set(first["round"]) == {"hold", "standard_error", "ci95", "sd"}


@pytest.mark.parametrize(("rounds", "seed"), [(0, 1), (10, -1), (True, 1)])
def test_a_table_of_players_refuses_bad_runs_before_dealing(rounds: int, seed: int) -> None:
    with pytest.raises(SimulationError):
        table_of_players(Rules(), StandOn(17), rounds=rounds, seed=seed)
