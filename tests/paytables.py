"""What the tests of ``cbj paytable solve`` and ``cbj paytable search`` share: the 2-deck
game, its edge model and an exact solve apart from it (each made once per process: the two
files keep to one xdist worker, tests/conftest.py), and plain twins that deal every pair of
physical cards."""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from solver.cli import main
from solver.exact.bonus import analyse_bonus
from solver.exact.game import solve_game
from solver.exact.paytable import EdgeModel, edge_model
from solver.model.cards import Shoe
from solver.model.outcomes import bonus_outcome, bonus_pay
from solver.model.rules import Paytable, Rules
from solver.results.bonus import BonusAnalysis
from solver.results.game import GameResult
from tests.conftest import GAMES

from .conftest import physical_cards

# Two decks: every Bonus tier can occur (one deck has no suited match) and an exact
# solve takes about a second.
RULES = Rules(decks=2)
RATIO = Fraction(3, 4)


@functools.cache
def _model() -> EdgeModel:
    return edge_model(RULES, cache=GAMES)


@pytest.fixture
def model() -> Any:
    """The edge model of :data:`RULES` (from the session's store, once per process)."""
    return _model()


@functools.cache
def _fresh() -> GameResult[Fraction]:
    return solve_game(RULES, exact=True)


@pytest.fixture
def fresh() -> GameResult[Fraction]:
    """The main game solved afresh, apart from the model and its cache."""
    return _fresh()


def dealt_round(
    game: GameResult[Fraction], paytable: Paytable, ratio: Fraction
) -> dict[Fraction, Fraction]:
    """The round's net distribution by dealing every ordered pair of physical cards."""
    starts = {(s.player, s.bonus): s for s in game.starts}
    main_pays: dict[str, Fraction] = {
        "blackjack": game.rules.blackjack_pays,
        "win": Fraction(1),
        "push": Fraction(0),
        "loss": Fraction(-1),
    }
    pairs = card_pairs(game.rules.decks)
    weight = Fraction(1, sum(pairs.values()))
    net: dict[Fraction, Fraction] = {}
    for (player_points, bonus_points, outcome), count in pairs.items():
        bonus_net = ratio * bonus_pay(paytable, outcome)
        start = starts[(player_points, bonus_points)]
        for k, p in start.outcomes.items():
            value = main_pays[k] + bonus_net
            net[value] = net.get(value, Fraction(0)) + count * weight * Fraction(p)
    return net


@functools.cache
def card_pairs(decks: int) -> Counter[tuple[int, int, str]]:
    """Every ordered pair of physical cards (player's card, Bonus card) counted by what
    settles it: the two values and the Bonus outcome (the same for every paytable)."""
    cards = physical_cards(Shoe.full(decks))
    pairs: Counter[tuple[int, int, str]] = Counter()
    for i, player in enumerate(cards):
        for j, bonus in enumerate(cards):
            if i != j:
                pairs[(player.points, bonus.points, bonus_outcome(player, bonus))] += 1
    return pairs


def round_edge(net: dict[Fraction, Fraction], ratio: Fraction) -> Fraction:
    return -sum((v * p for v, p in net.items()), Fraction(0)) / (1 + ratio)


@functools.cache
def bonus_under(paytable: Paytable) -> BonusAnalysis:
    """The Bonus analysed afresh under ``paytable`` (and :data:`RULES`), once per process:
    the brute-force searches over every whole paytable share the tables they both cover."""
    return analyse_bonus(replace(RULES, paytable=paytable))


def whole_paytables(max_pay: int) -> list[Paytable]:
    return [
        Paytable(suited_match=Fraction(s), rank_match=Fraction(r), adjacent=Fraction(a))
        for s in range(1, max_pay + 1)
        for r in range(1, s + 1)
        for a in range(1, r + 1)
    ]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    out, err = capsys.readouterr()
    return int(stop.value.code or 0), out, err


def refused_in_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``cbj paytable ARGV`` on two decks exits 2 with nothing on stdout and one line on
    stderr that says ``message``."""
    status, out, err = run(["paytable", *argv, "--decks", "2"], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err


FOUR = Paytable.parse("suited-match=15,rank-match=4,suited-adjacent=2,adjacent=1")


@functools.cache
def four_tier_pairs(decks: int) -> Counter[str]:
    """Ordered pairs of physical cards by the four tiers, classified here from their words."""
    cards = physical_cards(Shoe.full(decks))
    counted: Counter[str] = Counter()
    for i, a in enumerate(cards):
        for j, b in enumerate(cards):
            if i != j:
                step = abs(a.rank.order - b.rank.order)
                apart, suited = min(step, 13 - step), a.suit == b.suit
                kind = {0: "match", 1: "adjacent"}.get(apart)
                if kind is None:
                    counted["loss"] += 1
                elif kind == "match":
                    counted["suited_match" if suited else "rank_match"] += 1
                else:
                    counted["suited_adjacent" if suited else "adjacent"] += 1
    return counted


def brute_bonus_edge(pays: dict[str, Fraction]) -> Fraction:
    counted = four_tier_pairs(RULES.decks)
    won = sum((pays[k] * n for k, n in counted.items() if k != "loss"), Fraction(0))
    return -(won - counted["loss"]) / sum(counted.values())


@pytest.fixture
def four_model(model: Any) -> EdgeModel:
    """The edge model of the four named tiers of :data:`FOUR`."""
    return EdgeModel(model.game, FOUR.tiers)
