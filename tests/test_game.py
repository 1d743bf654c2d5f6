"""The whole game against exhaustive search over every card order on tiny shoes."""

from __future__ import annotations

import functools
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.exact.game import solve_game
from solver.exact.player import solve_player
from solver.model.cards import RANKS, SUITS, Card, Shoe, parse_cards
from solver.model.hands import hand_of
from solver.model.outcomes import MAIN_OUTCOMES, bonus_outcome, bonus_pay
from solver.model.rules import DealerNatural, NaturalBeats, Rules
from solver.results.game import GameResult
from solver.store.memory import MemoryCache

from . import reference
from .conftest import physical_cards

# One deck less every card below: 16 cards left, few small ones so no hand runs the shoe dry.
TINY_REMOVED = parse_cards(
    "Ah Ad Ac 2h 2d 2c 3h 3d 3c 3s 4h 4d 4c 4s 5h 5d 5c 6h 6d 6c 6s 7d 7c 8h 8c 9d 9c "
    "10h 10d Jh Jc Qh Qd Kd Kc Ks"
)
# Three aces among 17 cards: naturals of every kind can happen, on either side.
ACES_LEFT = ("As Ah Ad 2s 7s 7h 8s 9s 9h 10s Js Qs Ks 10h Jh Qh Kh",)
ACES_REMOVED = tuple(c for c in physical_cards(Shoe.full(1)) if str(c) not in ACES_LEFT[0].split())
VARIANTS = [
    Rules(decks=1),
    Rules(decks=1, dealer_stands_on=17, blackjack_pays=Fraction(6, 5)),
    Rules(decks=1, dealer_natural=DealerNatural.OWN_CARDS),
    Rules(decks=1, dealer_natural=DealerNatural.NONE, dealer_stands_on=19),
    Rules(decks=1, natural_beats_multi_card_21=False, blackjack_pays=Fraction(2)),
    Rules.from_preset("vegas-21", decks=1),
    *(
        Rules(decks=1, dealer_natural=DealerNatural.BONUS_CARD, natural_beats=beats)
        for beats in (NaturalBeats.MULTI_CARD_21, NaturalBeats.NOTHING)
    ),
    Rules(decks=1, natural_beats=NaturalBeats.NON_BLACKJACK),
]


def tiny_shoe(removed: tuple[Card, ...] = TINY_REMOVED) -> tuple[int, ...]:
    return Shoe.full(1).remove(removed).value_counts()


@functools.cache
def solved_tiny(rules: Rules, removed: tuple[Card, ...]) -> GameResult[Fraction]:
    """The exact game of a tiny shoe, solved once per process for every test that reads it
    (here and in ``test_policies``); nothing mutates a solved game."""
    return solve_game(rules, removed, exact=True)


@pytest.mark.parametrize("removed", [TINY_REMOVED, ACES_REMOVED], ids=["few-aces", "three-aces"])
@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.summary()[:70])
def test_exact_game_equals_exhaustive_search(rules: Rules, removed: tuple[Card, ...]) -> None:
    solved = solved_tiny(rules, removed)
    walked = reference.game(tiny_shoe(removed), rules)
    assert {(s.player, s.bonus) for s in solved.starts} == set(walked)
    for start in solved.starts:
        probability, outcomes = walked[(start.player, start.bonus)]
        assert start.probability == probability
        assert start.outcomes == outcomes
    assert solved.expected_value == reference.main_ev(tiny_shoe(removed), rules)


def test_round_joint_distribution_equals_dealing_every_card_pair() -> None:
    rules = Rules(decks=1, bonus_ratio=Fraction(3, 4))
    solved = solve_game(rules, TINY_REMOVED, exact=True)
    walked = reference.game(tiny_shoe(), rules)
    cards = physical_cards(Shoe.full(1).remove(TINY_REMOVED))
    main_pay: dict[str, Fraction] = {
        "blackjack": rules.blackjack_pays,
        "win": Fraction(1),
        "push": Fraction(0),
        "loss": Fraction(-1),
    }
    expected: dict[Fraction, Fraction] = {}
    weight = Fraction(1, len(cards) * (len(cards) - 1))
    for player, bonus in permutations(cards, 2):
        side = bonus_pay(rules.paytable, bonus_outcome(player, bonus)) * rules.bonus_ratio
        for k, q in walked[(player.points, bonus.points)][1].items():
            if q:
                net = main_pay[k] + side
                expected[net] = expected.get(net, Fraction(0)) + weight * q
    assert {line.net: line.probability for line in solved.round_lines} == expected


def test_optimal_play_beats_fixed_policies_on_a_tiny_shoe() -> None:
    rules = Rules(decks=1)
    optimal = solved_tiny(rules, TINY_REMOVED).expected_value
    for stand_on in range(4, 22):
        assert optimal >= reference.main_ev(tiny_shoe(), rules, policy=stand_on)


@pytest.fixture(scope="module")
def default_exact(games: MemoryCache):  # type: ignore[no-untyped-def]
    return solve_game(exact=True, cache=games)


@pytest.fixture(scope="module")
def default_float(games: MemoryCache):  # type: ignore[no-untyped-def]
    return solve_game(cache=games)


def test_default_game_exact_and_float_agree(default_exact, default_float) -> None:  # type: ignore[no-untyped-def]
    assert abs(float(default_exact.expected_value) - default_float.expected_value) < 1e-12
    assert abs(float(default_exact.round_variance) - default_float.round_variance) < 1e-12
    for c, solution in default_exact.solutions.items():
        fast = default_float.solutions[c]
        assert all(
            abs(float(a) - b) < 1e-12 for a, b in zip(solution.stand, fast.stand, strict=True)
        )
        assert all(abs(float(a) - b) < 1e-12 for a, b in zip(solution.hit, fast.hit, strict=True))


def test_default_game_identities(default_exact) -> None:  # type: ignore[no-untyped-def]
    game = default_exact
    assert sum(s.probability for s in game.starts) == 1
    assert sum(game.outcomes.values()) == 1
    assert sum(line.probability for line in game.round_lines) == 1
    assert (
        game.round_expected_value
        == game.expected_value + game.rules.bonus_ratio * game.bonus.expected_value
    )
    # Clause 5: the blackjack probability is the chance of an ace and a ten-value pair.
    assert game.outcomes["blackjack"] == Fraction(2 * 24 * 96, 312 * 311)


@settings(max_examples=8, deadline=None)
@given(
    st.lists(
        st.sampled_from([f"{r}{s}" for r in RANKS for s in SUITS]),
        min_size=0,
        max_size=6,
        unique=True,
    )
)
def test_optimal_beats_always_standing_and_float_agrees(removed: list[str]) -> None:
    # One deck less a few cards: the check does not depend on the shoe's size, and a
    # 1-deck shoe has 2,000 hands to compare where a 2-deck one has 2,800.
    rules = Rules(decks=1)
    cards = parse_cards(removed)
    shoe = Shoe.full(1).remove(cards).value_counts()
    bonus = 7
    base = tuple(n - (v == bonus) for v, n in enumerate(shoe, start=1))
    roots = [hand_of([p]) for p in range(1, 11) if base[p - 1]]
    exact = solve_player(rules, bonus, base, roots, exact=True)
    fast = solve_player(rules, bonus, base, roots)
    for i in range(len(exact.stand)):
        # The action taken is the better one (so never worse than standing), and the
        # hand's outcomes are that action's: their net is its value (no naturals with a
        # Bonus 7).
        chosen = exact.hit[i] if exact.hitting[i] else exact.stand[i]
        assert chosen == max(exact.stand[i], exact.hit[i])
        assert abs(float(exact.hit[i]) - fast.hit[i]) < 1e-12
        w, p, lose = exact.outcomes[i]
        assert w + p + lose == 1
        assert w - lose == chosen


def test_main_outcomes_are_named() -> None:
    assert MAIN_OUTCOMES == ("blackjack", "win", "push", "loss")
    assert Card.parse("As") in physical_cards(Shoe.full(1))


@settings(max_examples=3, deadline=None)
@given(
    st.lists(st.sampled_from([f"{r}{s}" for r in RANKS for s in SUITS]), max_size=10, unique=True)
)
def test_starting_pairs_cover_every_round_exactly(removed: list[str]) -> None:
    game = solve_game(Rules(decks=1), parse_cards(removed), exact=True)
    assert sum(s.probability for s in game.starts) == 1
    assert sum(game.outcomes.values()) == 1
    assert game.bonus is not None
    assert (
        game.round_expected_value
        == game.expected_value + game.rules.bonus_ratio * game.bonus.expected_value
    )
