"""Realistic play: each policy's exact value against brute force and the simulator."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from solver.exact import strategies as strategies_module
from solver.exact.chart import best_chart, strategy_source
from solver.exact.dealer import fast_path_fits
from solver.exact.game import solve_game
from solver.exact.player_hands import HandSpace, hand_space
from solver.exact.strategies import (
    _modular_table,
    _play,
    _play_modular,
    _stand_table,
    realistic_play,
    simple_policy,
)
from solver.model.cards import VALUES, Card, Shoe
from solver.model.errors import StrategyError
from solver.model.hands import hand_of
from solver.model.outcomes import POLICY_NAMES
from solver.model.rules import DealerBonus, DealerNatural, NaturalBeats, Rules
from solver.results.game import GameResult
from solver.results.simulation import ExactFigure
from solver.results.strategies import StrategiesResult
from solver.sim import parse_strategy, simulate
from solver.store.memory import MemoryCache

from . import reference
from .test_game import ACES_REMOVED, TINY_REMOVED, solved_tiny

RULES = [
    Rules(decks=1),
    Rules.from_preset("vegas-21", decks=1),
    Rules(decks=1, dealer_natural=DealerNatural.BONUS_CARD, natural_beats=NaturalBeats.NOTHING),
    Rules(decks=1, dealer_stands_on=17, blackjack_pays=Fraction(6, 5)),
]
SIMPLE = ("stand-on:12", "stand-on:16", "stand-on:19", "stand-on:21", "never-bust", "always-stand")


def reference_policy(name: str) -> int | str:
    """The brute-force twin's spelling of a simple policy."""
    return int(name.removeprefix("stand-on:")) if name.startswith("stand-on:") else name


def tiny(removed: tuple[Card, ...]) -> tuple[int, ...]:
    return Shoe.full(1).remove(removed).value_counts()


@pytest.fixture(scope="module", params=[TINY_REMOVED, ACES_REMOVED], ids=["few-aces", "aces"])
def removed(request: pytest.FixtureRequest) -> tuple[Card, ...]:
    cards: tuple[Card, ...] = request.param
    return cards


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.summary()[:60])
def test_simple_policies_equal_every_card_order(rules: Rules, removed: tuple[Card, ...]) -> None:
    game = solved_tiny(rules, removed)
    result = realistic_play(rules, (*SIMPLE, "mimic-dealer"), game=game)
    shoe = tiny(removed)
    for name in SIMPLE:
        assert result.by_name(name).main_ev == reference.main_ev(
            shoe, rules, reference_policy(name)
        ), name
    assert result.by_name("mimic-dealer").main_ev == reference.main_ev(
        shoe, rules, reference.dealer_play(rules)
    )


def test_mimic_dealer_counts_as_a_dealer_who_must_use_the_bonus_card() -> None:
    """Under ``dealer_bonus must_use`` mimicking counts own cards plus the Bonus card always.

    The brute-force twin stands where its own dealer stops; the simulator's hit table is
    its own code too, and agrees hand by hand.
    """
    rules = Rules(decks=1, dealer_bonus=DealerBonus.MUST_USE)
    game = solved_tiny(rules, TINY_REMOVED)
    result = realistic_play(rules, ("mimic-dealer", "stand-on:18"), game=game)
    mimic = result.by_name("mimic-dealer").main_ev
    assert mimic == reference.main_ev(tiny(TINY_REMOVED), rules, reference.dealer_play(rules))
    assert mimic != result.by_name("stand-on:18").main_ev  # the choosing dealer's mimic
    exact = simple_policy("mimic-dealer", rules)
    simulated = parse_strategy("mimic-dealer", dealer_stands_on=18, dealer_must_use=True)
    for hand in (hand_of(cards) for cards in ([7], [6], [1], [10, 2], [5, 5], [1, 1, 4])):
        for bonus in VALUES:
            assert exact(bonus, hand) == simulated.hits(bonus, hand), (hand, bonus)


@pytest.mark.parametrize("rules", RULES[:2], ids=lambda r: r.summary()[:60])
def test_optimal_and_chart_policies_reproduce_the_solver(
    rules: Rules, removed: tuple[Card, ...]
) -> None:
    game = solved_tiny(rules, removed)
    result = realistic_play(rules, POLICY_NAMES, game=game)
    optimal = result.by_name("optimal")
    assert optimal.main_ev == game.expected_value
    assert optimal.round_ev == game.round_expected_value
    assert result.cost(optimal) == 0
    assert result.by_name("chart").main_ev == best_chart(rules, game).expected_value
    for policy in result.policies:
        # Optimal play is worth at least any fixed policy; the Bonus wager is untouched.
        assert result.cost(policy) >= 0
        assert policy.round_ev - policy.main_ev == game.round_expected_value - game.expected_value
        assert policy.round_house_edge == -policy.round_ev / (1 + rules.bonus_ratio)
        assert sum(policy.game.outcomes.values()) == 1
        assert sum(line.probability for line in policy.game.round_lines) == 1


@pytest.mark.parametrize("bonus", [1, 6, 10])
def test_policies_played_modulo_primes_equal_python_integers(bonus: int) -> None:
    """The fast path (a full shoe holds the dealer's longest hand) against the plain one."""
    rules = Rules(decks=1)
    base = tuple(n - (v == bonus) for v, n in enumerate(tiny(()), start=1))
    space = hand_space(bonus, base, [hand_of([p]) for p in VALUES if base[p - 1]])
    assert fast_path_fits(rules, bonus, sum(space.shoe) - space.sizes)
    every = range(len(space.hands))
    modular, plain = _modular_table(rules, space), _stand_table(rules, space)
    for name in ("stand-on:17", "never-bust", "always-stand"):
        policy = simple_policy(name, rules)
        assert _play_modular(modular, policy, every) == _play(plain, policy, every), name


def test_a_repeated_evaluation_prices_the_standing_hands_once(
    games: MemoryCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command and its library call (say) evaluate policies on one game: the standing
    hands of each Bonus card are priced once, and the policies come out the same."""
    built: list[int] = []
    make = strategies_module._modular_table

    def counted(rules: Rules, space: HandSpace) -> Any:
        built.append(space.bonus)
        return make(rules, space)

    monkeypatch.setattr(strategies_module, "_modular_table", counted)
    strategies_module._player.cache_clear()
    game = solve_game(Rules(), exact=True, cache=games)  # the session's default game
    first = realistic_play(Rules(), ["always-stand"], game=game)
    again = realistic_play(Rules(), ["never-bust", "always-stand"], game=game)
    assert sorted(built) == list(VALUES)
    assert again.by_name("always-stand") == first.by_name("always-stand")


def test_json_names_every_strategy_with_exact_numbers(removed: tuple[Card, ...]) -> None:
    rules = Rules(decks=1)
    result = realistic_play(rules, POLICY_NAMES, game=solved_tiny(rules, removed))
    data = result.to_json()
    assert data["rules"] == rules.to_json()
    assert [row["name"] for row in data["strategies"]] == list(POLICY_NAMES)
    for row, policy in zip(data["strategies"], result.policies, strict=True):
        assert Fraction(row["main_ev"]["exact"]) == policy.main_ev
        assert Fraction(row["cost"]["exact"]) == result.cost(policy)
        assert row["round_house_edge"]["float"] == float(policy.round_house_edge)


@pytest.mark.parametrize("name", ["stand-on:", "stand-on:x", "stand-on:40", "hit-me", ""])
def test_unknown_policies_are_named(name: str) -> None:
    with pytest.raises(StrategyError, match="strategy"):
        simple_policy(name, Rules())
    with pytest.raises(StrategyError):
        parse_strategy(name)


def test_mimic_dealer_needs_the_dealer_rule() -> None:
    with pytest.raises(StrategyError, match="mimic-dealer"):
        parse_strategy("mimic-dealer")


def _sim_figure(result: StrategiesResult, name: str) -> ExactFigure:
    game: GameResult[Fraction] = result.by_name(name).game
    return ExactFigure(
        Fraction(game.expected_value), {k: Fraction(p) for k, p in game.outcomes.items()}
    )


@pytest.mark.parametrize("rules", [RULES[0], RULES[1]], ids=["default", "vegas-21"])
def test_simulator_playing_each_policy_meets_its_exact_value(rules: Rules) -> None:
    game = solved_tiny(rules, TINY_REMOVED)
    result = realistic_play(rules, POLICY_NAMES, game=game)
    decisions = {kind: strategy_source(game, kind) for kind in ("optimal", "chart")}
    for i, name in enumerate(POLICY_NAMES):
        strategy = parse_strategy(name, decisions.__getitem__, rules.dealer_stands_on)
        sim = simulate(
            rules,
            strategy,
            60_000,
            seed=1000 + i,
            penetration=None,
            removed=TINY_REMOVED,
            exact={"main": _sim_figure(result, name)},
        )
        main = sim.overall.main
        assert main.z is not None and abs(main.z) < 3, (name, main.mean, main.z)
        assert main.chi_square is not None and main.chi_square.p_value > 0.0005, name
