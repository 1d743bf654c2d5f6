"""Helpers of the store tests: comparing games, a small game solved once, counted computes."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import solver.store.disk as disk
from solver.exact.game import solutions_of, solve_game
from solver.exact.player import PlayerSolution
from solver.model.cards import Card, Shoe, parse_cards
from solver.model.rules import Rules
from solver.results.game import GAME, GameResult
from solver.results.kinds import Key
from solver.store.disk import DiskCache

from .conftest import physical_cards

ONE_DECK = physical_cards(Shoe.full(1))


def same_solution(a: PlayerSolution, b: PlayerSolution) -> None:
    """Two solutions equal value for value and type for type (floats stay floats)."""
    assert a.rules == b.rules
    for name in ("hands", "keys", "children", "draws", "sizes"):
        assert np.array_equal(getattr(a.space, name), getattr(b.space, name)), name
    assert (a.space.bonus, a.space.shoe) == (b.space.bonus, b.space.shoe)
    assert a.hitting == b.hitting
    for name in ("stand", "hit", "outcomes"):
        left, right = getattr(a, name), getattr(b, name)
        assert left == right, name
        assert [type(x) for x in np.ravel(np.array(left, dtype=object))] == [
            type(x) for x in np.ravel(np.array(right, dtype=object))
        ], name


def same_game(a: GameResult[Any], b: GameResult[Any]) -> None:
    """Two solved games equal in every field (hand spaces compared array by array)."""
    assert (a.rules, a.removed, a.exact) == (b.rules, b.removed, b.exact)
    assert a.starts == b.starts
    assert [type(s.probability) for s in a.starts] == [type(s.probability) for s in b.starts]
    assert a.bonus == b.bonus
    assert a.round_lines == b.round_lines
    assert list(a.solutions) == list(b.solutions)
    for c in a.solutions:
        same_solution(solutions_of(a)[c], solutions_of(b)[c])


@dataclass
class Counter:
    """Counts how often a computation really ran."""

    calls: int = 0

    def wrap(self, compute: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            self.calls += 1
            return compute()

        return run


SMALL = Rules(decks=1)
KEPT = {str(c) for c in parse_cards("As 2h 5d 9c 10s Kh 7c 10h Jd Qc Ks 9h 8d 10c Jh Qs")}
REMOVED = tuple(c for c in ONE_DECK if str(c) not in KEPT)

# The 14-card shoe of tests/test_eor.py: every rank left once (two kings), so that
# each rank can be removed.
LEFT = "As 2h 3s 4d 5s 6h 7s 8c 9s 10h Js Qd Kh Kd"
TINY_REMOVED = tuple(c for c in ONE_DECK if str(c) not in LEFT.split())
TINY = Rules(decks=1, bonus_ratio=Fraction(3, 4))


@functools.cache
def solved(removed: tuple[Card, ...]) -> GameResult[Any]:
    """The small game without these cards, solved once per process: a cache's computation
    returns it (each call still counted), so that a test of the cache solves nothing."""
    return solve_game(SMALL, removed, True)


def fetch(
    cache: DiskCache, counter: Counter, removed: tuple[Card, ...] = REMOVED
) -> GameResult[Any]:
    return cache.fetch(GAME, Key(SMALL, removed, True), counter.wrap(lambda: solved(removed)))


def collect() -> tuple[list[str], Callable[[str], None]]:
    lines: list[str] = []
    return lines, lines.append


def as_another_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget the entries this process decoded, as a new process starts with none."""
    monkeypatch.setattr(disk, "_RECENT", type(disk._RECENT)())


def remembered(db: sqlite3.Connection) -> list[tuple[str, str]]:
    """The fingerprints the database remembers, by code root."""
    rows: list[tuple[str, str]] = db.execute("SELECT root, fingerprint FROM code").fetchall()
    return rows
