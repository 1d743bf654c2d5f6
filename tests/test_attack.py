"""``cbj attack``: the perfect-information bound on a tiny shoe against the exhaustive
average over every first card, and the depth rows stopping where the deal stops."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from solver.exact.attack import attack
from solver.exact.dealt_shoes import state_row
from solver.model.cards import Shoe
from solver.model.counts import LABELS
from solver.model.rules import Rules
from solver.results.attack import AttackKind
from solver.results.charts import Chart
from solver.results.dealt_shoes import DealtShoes
from solver.results.game import GameResult

from . import reference
from .conftest import physical_cards
from .test_eor import REMOVED, RULES, bonus_ev_dealt, tiny_chart

__all__ = ["tiny_chart"]  # the fixture, shared with test_eor


@pytest.mark.slow
def test_the_bound_on_a_tiny_shoe_is_the_exhaustive_average_over_every_first_card(
    tiny_chart: tuple[GameResult[Fraction], Chart],
) -> None:
    """Every card of the 14-card shoe dealt first: each shoe left solved by brute force,
    the Bonus at the better end (3/4 or 2), the bet 8 on a positive round and 1 else."""
    chart = tiny_chart[1]
    cards = physical_cards(Shoe.full(1).remove(REMOVED))
    twin, rows = Fraction(0), []
    for card in cards:
        rest = [c for c in cards if c is not card]
        shoe = Shoe.full(1).remove((*REMOVED, card))
        main, bonus = reference.main_ev(shoe.value_counts(), RULES), bonus_ev_dealt(rest)
        best = main + (2 if bonus > 0 else RULES.bonus_ratio) * bonus
        twin += (8 if best > 0 else 1) * best / len(cards)
        rows.append(state_row(RULES, chart, (), (*REMOVED, card)))
    shoes = DealtShoes(RULES, len(rows), 1, 0.99, (), (), rows[0], (), tuple(rows))
    found = attack(shoes, (1, 8), Fraction(2), (0.99,))
    bound = next(
        r
        for r in found.attack(AttackKind.PLAY_ALL).rows
        if r.bound and not r.cap and not r.shuffle.is_csm
    )
    assert math.isclose(bound.dealt.mean, 100 * float(twin), abs_tol=1e-9)


@pytest.mark.parametrize(("decks", "reached"), [(1, 0.5), (2, 0.75), (6, 0.83)])
def test_depth_rows_stop_where_the_deal_stops(decks: int, reached: float) -> None:
    """A shoe keeps its last 26 cards back: at 1 and 2 decks the rows stop short of the cut
    card at 0.83 (no row copies a shallower one), at 6 decks they reach it."""
    rules = Rules(decks=decks)
    total = 52 * decks
    limit = round(reached * total)
    zero = [0.0] * len(LABELS)
    rows = tuple(
        (float(total - k), *zero, -0.01, 1.0, -0.01, -0.1, 1.0, 1.0) for k in range(1, limit + 1)
    )
    shoes = DealtShoes(rules, len(rows), 1, 0.83, (), (), rows[0], (), rows)
    found = attack(shoes, (1, 8), Fraction(2), (0.5, 0.67, 0.75, 0.83))
    depths = {r.depth for a in found.attacks for r in a.rows if r.depth is not None}
    assert max(depths) == reached == found.reached == found.verdict.depth
    assert all(d <= reached for d in depths)
    bound = [r for r in found.attack(AttackKind.PLAY_ALL).rows if r.bound and not r.cap and r.depth]
    assert len({r.samples for r in bound}) == len(bound)  # each row adds shoes
