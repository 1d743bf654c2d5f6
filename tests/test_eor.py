"""``cbj eor``: effects of removal against full solves, brute force and identities."""

from __future__ import annotations

import functools
import json
import math
from fractions import Fraction
from itertools import permutations
from typing import Any

import pytest

from solver.api.functions import eor, solve
from solver.exact.bonus import analyse_bonus
from solver.exact.chart import best_chart
from solver.exact.game import solve_game
from solver.exact.protection import (
    chart_expected_value,
    effects_of_removal,
)
from solver.model.cards import RANKS, SUITS, Card, Shoe, parse_cards
from solver.model.cells import Action, cell_of
from solver.model.counts import LABELS
from solver.model.hands import hand_of
from solver.model.outcomes import bonus_outcome, bonus_pay
from solver.model.rules import Rules
from solver.results.charts import Chart
from solver.results.game import GameResult
from solver.results.protection import WAGERS, EffectsOfRemoval
from solver.store.disk import Cache
from solver.store.memory import MemoryCache

from . import reference
from .conftest import GAMES, physical_cards, run_cli

# One deck cut down to 14 cards holding every rank, so each rank can be removed, in mixed
# suits with two kings, so the Bonus can match on rank and on adjacent ranks.
LEFT = "As 2h 3s 4d 5s 6h 7s 8c 9s 10h Js Qd Kh Kd"
REMOVED = tuple(c for c in physical_cards(Shoe.full(1)) if str(c) not in LEFT.split())
RULES = Rules(decks=1, bonus_ratio=Fraction(3, 4))


@functools.cache
def _tiny_chart() -> tuple[GameResult[Fraction], Chart]:
    game = solve_game(RULES, REMOVED, exact=True, cache=GAMES)
    return game, best_chart(RULES, game)


@pytest.fixture
def tiny_chart() -> tuple[GameResult[Fraction], Chart]:
    """The 14-card shoe's exact game and its best chart, searched once per process (for
    this file and test_count.py, which keep to one xdist worker, and those that import it).

    The EOR fixtures are given this chart (a depleted shoe's chart is not cached, so each
    would search it again); ``cbj eor`` and ``api.eor`` search their own, and
    :func:`test_eor_command_prints_the_api_result` holds them to these fixtures.
    """
    return _tiny_chart()


@functools.cache
def _tiny_exact() -> EffectsOfRemoval[Any]:
    return effects_of_removal(RULES, REMOVED, exact=True, cache=GAMES, chart=_tiny_chart()[1])


@pytest.fixture
def tiny_exact() -> EffectsOfRemoval[Any]:
    """The 14-card shoe's exact EORs (once per process, as :func:`tiny_chart`)."""
    return _tiny_exact()


@pytest.fixture(scope="module")
def tiny_float() -> EffectsOfRemoval[Any]:
    return effects_of_removal(RULES, REMOVED, exact=False, cache=GAMES, chart=_tiny_chart()[1])


# --- Two full decks ---------------------------------------------------------------------------
# The whole-deck check needs a shoe that can spare a deck. Two decks are the report's game:
# the session's report (``par_report`` in tests/conftest.py) solves the same float EORs
# through the same disk cache, so whichever comes first solves them and the other reads
# them. These tests come first in the file, so that their worker solves them early.


@pytest.fixture(scope="module")
def two_decks() -> EffectsOfRemoval[Any]:
    """A full 2-deck shoe's EORs in floats, through the session's disk cache."""
    return effects_of_removal(Rules(decks=2), exact=False, cache=Cache())


def test_whole_deck_is_the_exact_change_of_removing_52_cards(
    two_decks: EffectsOfRemoval[Any], games: MemoryCache
) -> None:
    # Two decks less one whole deck is one deck, solved here as such.
    after = solve_game(Rules(decks=1), exact=False, cache=games)
    before = solve_game(Rules(decks=2), exact=False, cache=Cache())  # the fixture's base
    assert two_decks.whole_deck.exact is not None
    assert math.isclose(
        two_decks.whole_deck.exact["main"],
        after.expected_value - before.expected_value,
        abs_tol=1e-12,
    )
    assert math.isclose(
        two_decks.whole_deck.exact["round"],
        after.round_expected_value - before.round_expected_value,
        abs_tol=1e-12,
    )


def test_two_deck_eors_equal_two_independent_solves(two_decks: EffectsOfRemoval[Any]) -> None:
    # The full shoe is the fixture's base solve; each shoe less a card is solved here
    # through the library, with a suit other than the one the EORs removed (the report's
    # test solves the 5h too, through the same disk cache).
    before = solve(decks=2, cache=Cache())
    for card in parse_cards("5h Kd"):
        after = solve(removed=[card], decks=2, cache=Cache())
        label = "T" if card.points == 10 and card.rank.value == "10" else card.rank.value
        assert math.isclose(
            two_decks.effects["main"][label],
            after.expected_value - before.expected_value,
            abs_tol=1e-12,
        )
        # A full shoe is symmetric in suits, so any one suit gives the suit-averaged EOR.
        assert math.isclose(
            two_decks.effects["round"][label],
            after.round_expected_value - before.round_expected_value,
            abs_tol=1e-12,
        )


def chart_walk(
    chart: Chart,
    cards: tuple[int, ...],
    shoe: tuple[int, ...],
    bonus: int,
    seen: dict[Any, int],
) -> int:
    """Main result of one hand played by the chart, walking every card the shoe can deal.

    Counted over the orders of the shoe's cards (as in :mod:`tests.reference`): the orders
    the hand wins less those it loses, so the EV is this over ``reference.orders(shoe)``.
    ``seen`` remembers hands already walked (the same hand arises in many orders).
    """
    if (cards, shoe, bonus) in seen:
        return seen[cards, shoe, bonus]
    won, _, lost = reference.stand_counts(cards, shoe, bonus, RULES)
    if chart.action(cell_of(hand_of(cards)), bonus) is not Action.HIT or not sum(shoe):
        value = won - lost
    else:
        value = 0
        for v in range(1, 11):
            if shoe[v - 1]:
                rest = reference.take(shoe, v)
                after = tuple(sorted((*cards, v)))
                if sum(after) > 21:
                    value -= shoe[v - 1] * reference.orders(rest)
                else:
                    value += shoe[v - 1] * chart_walk(chart, after, rest, bonus, seen)
    seen[cards, shoe, bonus] = value
    return value


def chart_ev_walked(
    chart: Chart, shoe: tuple[int, ...], seen: dict[Any, int] | None = None
) -> Fraction:
    """The chart's main EV on a shoe of values, by brute force over every card order.

    ``seen`` is :func:`chart_walk`'s memo, which may be shared by walks of one chart.
    """
    total = Fraction(0)
    seen = {} if seen is None else seen
    for c in range(1, 11):
        if shoe[c - 1]:
            pc, after_bonus = reference.draw(shoe, c)
            for p in range(1, 11):
                if after_bonus[p - 1]:
                    pp, rest = reference.draw(after_bonus, p)
                    if {p, c} == {1, 10}:
                        value = RULES.blackjack_pays
                    else:
                        walked = chart_walk(chart, (p,), rest, c, seen)
                        value = Fraction(walked, reference.orders(rest))
                    total += pc * pp * value
    return total


def bonus_ev_dealt(cards: list[Card]) -> Fraction:
    """The Bonus wager's EV by dealing every ordered pair of physical cards."""
    pairs = list(permutations(cards, 2))
    pays = sum(bonus_pay(RULES.paytable, bonus_outcome(a, b)) for a, b in pairs)
    return Fraction(pays) / len(pairs)


def test_every_eor_equals_the_difference_of_two_brute_force_solves(
    tiny_exact: EffectsOfRemoval[Any], tiny_chart: tuple[GameResult[Fraction], Chart]
) -> None:
    shoe = Shoe.full(1).remove(REMOVED)
    values = shoe.value_counts()
    chart = tiny_chart[1]
    cards = physical_cards(shoe)
    main_before = reference.main_ev(values, RULES)
    # One memo for every shoe walked: a hand and the cards left decide its value, and the
    # shoes less one card share most of what they deal.
    seen: dict[Any, int] = {}
    chart_before = chart_ev_walked(chart, values, seen)
    bonus_before = bonus_ev_dealt(cards)
    for rank, label in zip(RANKS, LABELS, strict=True):
        less = list(values)
        less[rank.points - 1] -= 1
        main = reference.main_ev(tuple(less), RULES) - main_before
        assert tiny_exact.effects["main"][label] == main
        walked = chart_ev_walked(chart, tuple(less), seen)
        assert tiny_exact.effects["main_chart"][label] == walked - chart_before
        # The removed card's suit is random among the copies left: average over the cards.
        same = [c for c in cards if c.rank is rank]
        bonus = (
            sum((bonus_ev_dealt([c for c in cards if c is not gone]) for gone in same), Fraction(0))
            / len(same)
            - bonus_before
        )
        assert tiny_exact.effects["bonus"][label] == bonus
        assert tiny_exact.effects["round"][label] == main + RULES.bonus_ratio * bonus


def test_float_eors_agree_with_exact_ones(
    tiny_exact: EffectsOfRemoval[Any], tiny_float: EffectsOfRemoval[Any]
) -> None:
    for wager in WAGERS:
        for label in LABELS:
            exact, fast = tiny_exact.effects[wager][label], tiny_float.effects[wager][label]
            assert isinstance(exact, Fraction) and isinstance(fast, float)
            assert abs(float(exact) - fast) < 1e-12
    assert tiny_float.to_json()["main"]["A"].keys() == {"float"}
    assert tiny_exact.to_json()["main"]["A"].keys() == {"exact", "float"}


def test_chart_walk_matches_the_chart_search_on_the_undepleted_shoe(
    tiny_chart: tuple[GameResult[Fraction], Chart],
) -> None:
    game, chart = tiny_chart
    assert chart_expected_value(chart, game) == chart.expected_value
    assert chart.expected_value == chart_ev_walked(chart, game_values())


def game_values() -> tuple[int, ...]:
    return Shoe.full(1).remove(REMOVED).value_counts()


def test_a_fixed_strategy_gains_nothing_on_average_from_a_burned_card(
    tiny_exact: EffectsOfRemoval[Any],
) -> None:
    # The burn-card identity: a fixed strategy's EORs, weighted by the cards left of each
    # rank, sum to zero.  Optimal play uses the cards left, so it can only gain.
    left = dict(zip(LABELS, Shoe.full(1).remove(REMOVED).rank_counts(), strict=True))
    for wager in ("main_chart", "bonus"):
        assert sum(left[r] * tiny_exact.effects[wager][r] for r in LABELS) == 0
    assert sum(left[r] * tiny_exact.effects["main"][r] for r in LABELS) > 0


def test_every_bonus_eor_is_zero_in_a_full_shoe() -> None:
    # The ranks wrap round for the Bonus wager (the ace is next to both the two and the
    # king), so in a full shoe every card is alike and removing one changes nothing.
    before = analyse_bonus(Rules()).expected_value
    for rank in RANKS:
        assert analyse_bonus(Rules(), [Card(rank, SUITS[0])]).expected_value == before


def test_ten_value_ranks_share_the_main_eor_but_not_the_bonus_one(
    tiny_exact: EffectsOfRemoval[Any],
) -> None:
    for wager in ("main", "main_chart"):
        assert len({tiny_exact.effects[wager][r] for r in "TJQK"}) == 1
    assert len({tiny_exact.effects["bonus"][r] for r in "TJQK"}) > 1


# --- The commands ------------------------------------------------------------------------------

TINY_ARGS = ["--decks", "1", "--bonus-ratio", "3/4", "--removed", " ".join(map(str, REMOVED))]


def test_eor_command_prints_the_api_result(
    tiny_exact: EffectsOfRemoval[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["eor", *TINY_ARGS, "--exact", "--format", "json"], capsys)
    assert status == 0, err
    # The command solved its games into the session's disk cache; the library reads them.
    result = eor(removed=REMOVED, exact=True, rules=RULES, cache=Cache())
    document = json.loads(out)
    assert result.to_json() == document
    # Both searched the chart themselves; the fixture was given the module's chart, whose
    # EORs the brute-force test checks.
    assert tiny_exact.to_json() == document
    assert set(WAGERS) <= document.keys() and list(document["bonus"]) == list(LABELS)
    status, out, err = run_cli(["eor", *TINY_ARGS, "--format", "csv"], capsys)
    header = (
        'table,rank,"main wager EOR (x 10,000)","main wager EOR, chart (x 10,000)",'
        '"Bonus wager EOR (x 10,000)","round EOR (x 10,000)"'
    )
    assert status == 0 and out.startswith(header)


def test_a_card_without_its_suit_is_one_line_on_stderr_with_status_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_cli(["eor", "--removed", "As Kd Q"], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "suit" in err and "Traceback" not in err
