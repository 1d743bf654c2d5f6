"""A table of players: exact Bonus figures per table-round against brute force and simulation."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import permutations

import pytest

from solver.exact.bonus import analyse_bonus
from solver.exact.seats import bonus_seat_moments, table_bonus
from solver.model.cards import Card, Shoe, parse_cards
from solver.model.errors import SimulationError
from solver.model.outcomes import bonus_outcome, bonus_pay
from solver.model.rules import Paytable, Rules
from solver.sim import StandOn, simulate
from solver.sim.seats import table_estimate

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
