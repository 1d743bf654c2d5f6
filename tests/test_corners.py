"""Every legal game is answered (issue 50): the rule table's corners through every command.

Each rule is set at each of its extremes (a whole rule's least and most, a ratio's least
and most, every choice of a choice rule, a paytable paying nothing and one paying the most
on every tier), alone and in pairs with another rule's extreme, and each command is called
at small sizes with its own defaults for everything else.  A command answers, or refuses
with a message that names a real limit of what was asked (:data:`REAL_LIMITS`, each with
why it is one); a refusal of the command's own default under legal rules (``cbj attack``'s
Bonus multiple of 2 at a ratio of 100 was one) fails.

The default run sweeps each corner alone through the commands that solve the game once
(:data:`GAME_COMMANDS`); the soak run (CI) sweeps each corner through every command, and
each pair of corners through the game commands.
"""

from __future__ import annotations

import inspect
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import solver as typed_solver
from solver.model.cards import MAX_DECKS
from solver.model.errors import CbjError
from solver.model.paytable import MAX_PAY
from solver.model.rule_table import MAX_BLACKJACK_PAY, MAX_BONUS_RATIO, MIN_BONUS_RATIO, RULE_TABLE
from solver.present.charts import to_csv
from solver.store.memory import MemoryCache

#: The API untyped: the corners are given as a user types them (text).
solver: Any = typed_solver

#: Each rule's extremes, as a user writes them.  A whole rule's range and a choice rule's
#: choices are the table's (a test holds them to it); a ratio's least and most are its
#: limits (the least blackjack pay is any pay above 0: a thousandth stands for it).
CORNERS: dict[str, tuple[str, ...]] = {
    "decks": ("1", str(MAX_DECKS)),
    "bonus_ratio": (str(MIN_BONUS_RATIO), str(MAX_BONUS_RATIO)),
    "paytable": ("0:0:0", ":".join([str(MAX_PAY)] * 3)),
    "blackjack_pays": ("1/1000", str(MAX_BLACKJACK_PAY)),
    "dealer_stands_on": ("12", "21"),
    "dealer_bonus": ("chooses", "must_use"),
    "dealer_natural": ("with_bonus", "own_cards", "bonus_card", "none"),
    "natural_beats": ("multi_card_21", "non_blackjack", "nothing"),
}

#: Each command at small sizes, its own defaults for everything else (what a user who gives
#: only the rules gets); a required argument gets a plain value.
SWEEP: dict[str, dict[str, Any]] = {
    "rules": {},
    "solve": {},
    "bonus": {},
    "dealer": {},
    "advise": {"bonus": "K", "hand": "9 3"},
    "session": {"rounds": 3},
    "hold": {"rounds": 3, "result": 0},
    "hold_series": {"text": "date,rounds,win,drop\n2026-01-01,10,1,30\n"},
    "sweep": {"vary": "suited-match", "start": 10, "stop": 20, "step": 10},
    "simulate": {"rounds": 20, "seed": 1},
    "graph": {"bonus": "K", "hand": "9 3"},
    "chart": {},
    "chart_check": {},  # and the default game's best chart as a file
    "chart_costs": {},
    "strategies": {},
    "variants": {"decks": "1"},
    "paytable_search": {"max_pay": 5},
    "paytable_solve": {"solve_for": "adjacent", "target_round_edge": "2%"},
    "practice_start": {"seed": 1},
    "practice_play": {"play": "stand"},  # from the state practice_start deals
    "eor": {"exact": False},
    "count": {"exact": False},
    "shoe_states": {"samples": 2, "seed": 1},
    "seats": {"rounds": 20, "seed": 1},
    "attack": {"samples": 2},
    "bet": {"samples": 2},
    "indices": {"samples": 2},
    "report": {"shoe_samples": 2, "counter_rounds": 1_000, "table_rounds": 100,
               "simulation_rounds": 100, "format": "html"},
}  # fmt: skip
#: The commands that solve the game once and study nothing more: the default run's sweep
#: (``session`` is left to the soak run: its distribution is ``hold``'s).
GAME_COMMANDS = ("rules", "solve", "bonus", "dealer", "advise", "hold", "simulate")
#: The commands that take no rules (the cache's, and the fixed collection's).
RULELESS = ("cache_clear", "cache_info", "tables")

#: Refusals that name a real limit of what was asked, each with why it is one.
REAL_LIMITS = (
    # A target edge the paytable cannot reach with pays of 0 or more: the message gives the
    # edge a pay of 0 reaches.  (The target is the sweep's, not a default: paytable_solve
    # has none.)
    re.compile(r"needs \w+ to pay -[\d.]+ to 1, below 0.* the edge is at most "),
    re.compile(r"the \w+ pay cannot move the \w+ edge: that tier never occurs"),
)


def corners() -> Iterator[dict[str, str]]:
    """Each rule at each of its extremes, alone."""
    for rule, values in CORNERS.items():
        for value in values:
            yield {rule: value}


def corner_pairs() -> Iterator[dict[str, str]]:
    """Each pair of two rules' extremes."""
    for first, second in itertools.combinations(CORNERS, 2):
        for a, b in itertools.product(CORNERS[first], CORNERS[second]):
            yield {first: a, second: b}


def _id(corner: dict[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in corner.items())


def test_every_rule_has_its_corners() -> None:
    """A new rule gets its extremes here; a whole rule's are its range, a choice rule's its
    choices."""
    assert list(CORNERS) == [rule.name for rule in RULE_TABLE]
    for rule in RULE_TABLE:
        if rule.choices:
            assert CORNERS[rule.name] == rule.choices
        elif rule.kind is int:
            assert " to ".join(CORNERS[rule.name]) == rule.limits


def test_every_command_is_swept() -> None:
    """A new command gets its small call here, so that the sweep reaches it."""
    functions = {
        name
        for module, names in solver._HOMES.items()
        if module.startswith("solver.api.")
        for name in names.split()
        if callable(getattr(solver, name)) and not isinstance(getattr(solver, name), type)
    }
    assert functions == set(SWEEP) | set(RULELESS)


@pytest.fixture(scope="module")
def chart_file(games: MemoryCache, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default game's best chart as a file, for ``chart_check`` under any rules."""
    path = tmp_path_factory.mktemp("corners") / "chart.csv"
    path.write_text(to_csv(solver.chart(cache=games)), encoding="utf-8")
    return path


def answered(name: str, corner: dict[str, str], store: MemoryCache, chart: Path) -> str:
    """Command ``name`` under the rules of ``corner``: ``"answered"``, or ``"limit"`` for a
    refusal that names a real limit; any other refusal fails, saying what it said."""
    arguments: dict[str, Any] = {**SWEEP[name], **corner}
    if "cache" in inspect.signature(getattr(solver, name)).parameters:
        arguments["cache"] = store
    if name == "chart_check":
        arguments["file"] = chart
    try:
        if name == "practice_play":
            turn = solver.practice_start(seed=1, cache=store, **corner)
            arguments = {"state": turn.state, "play": "stand" if turn.state.hand else "deal"}
            solver.practice_play(cache=store, **arguments)
        else:
            getattr(solver, name)(**arguments)
    except CbjError as error:
        said = str(error)
        assert any(limit.search(said) for limit in REAL_LIMITS), (
            f"{name} refused the legal game {_id(corner)}: {said}"
        )
        return "limit"
    return "answered"


#: The sweeps: each corner through the game commands (the default run), and in the soak run
#: each corner through every command and each pair of corners through the game commands.
SOAK = pytest.mark.soak
SWEEPS = [
    *(pytest.param(c, GAME_COMMANDS, id=f"game:{_id(c)}") for c in corners()),
    *(pytest.param(c, tuple(SWEEP), id=f"every:{_id(c)}", marks=SOAK) for c in corners()),
    *(pytest.param(c, GAME_COMMANDS, id=f"pair:{_id(c)}", marks=SOAK) for c in corner_pairs()),
]


@pytest.mark.parametrize(("corner", "names"), SWEEPS)
def test_every_legal_corner_is_answered(
    corner: dict[str, str], names: tuple[str, ...], games: MemoryCache, chart_file: Path
) -> None:
    for name in names:
        answered(name, corner, games, chart_file)


def test_attack_takes_its_default_multiple_at_the_largest_ratio(games: MemoryCache) -> None:
    """The issue's case: a Bonus ratio of 100 refused ``cbj attack``'s default multiple.

    The whole study runs (its shoe paths and simulated counters too), each at its smallest
    useful size: the multiple is refused or taken before any of them deals a round.
    """
    result = solver.attack(samples=2, bonus_ratio="100", decks=1, paths=1, rounds=1000, cache=games)
    assert result.bonus_multiple == 100
