"""The Python API: each command's function returns what the command prints as JSON.

Every case runs the command with ``--format json`` and the API function with the same
arguments, and compares the two documents; one case with the default rules and one with
other rules for each command.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import solver
from solver.store.disk import Cache
from solver.store.memory import MemoryCache
from tests.conftest import run_cli

Case = tuple[list[str], Callable[[Cache], Any]]

CASES: dict[str, Case] = {
    "rules": (["rules"], lambda store: solver.rules()),
    "rules-variant": (
        ["rules", "--decks", "1", "--paytable", "20:5:2", "--no-natural-beats-multi-card-21"],
        lambda store: solver.rules(decks=1, paytable="20:5:2", natural_beats_multi_card_21=False),
    ),
    "bonus": (["bonus", "--symbolic"], lambda store: solver.bonus(symbolic=True)),
    "bonus-variant": (
        ["bonus", "--removed", "As Kd", "--decks", "2"],
        lambda store: solver.bonus(removed="As Kd", decks=2),
    ),
    "dealer": (["dealer"], lambda store: solver.dealer()),
    "dealer-variant": (
        ["dealer", "--bonus", "7", "--dealer-stands-on", "17"],
        lambda store: solver.dealer(bonus="7", dealer_stands_on=17),
    ),
    "solve": (["solve"], lambda store: solver.solve(cache=store)),
    "solve-variant": (
        ["solve", "--decks", "2", "--removed", "As 5h"],
        lambda store: solver.solve(decks=2, removed="As 5h", cache=store),
    ),
    "advise": (
        ["advise", "--bonus", "7", "--hand", "9 4"],
        lambda store: solver.advise(bonus="7", hand="9 4"),
    ),
    "advise-variant": (
        ["advise", "--bonus", "Th", "--hand", "8 4", "--seen", "2c", "--exact", "--decks", "1"],
        lambda store: solver.advise(bonus="Th", hand="8 4", seen="2c", exact=True, decks=1),
    ),
    "chart": (["chart"], lambda store: solver.chart(cache=store)),
    "chart-variant": (
        ["chart", "--dealer-stands-on", "17"],
        lambda store: solver.chart(dealer_stands_on=17, cache=store),
    ),
    "simulate": (
        ["simulate", "--rounds", "20000", "--seed", "5", "--strategy", "stand-on:17"],
        lambda store: solver.simulate(rounds=20_000, seed=5, strategy="stand-on:17", cache=store),
    ),
    "simulate-variant": (
        [
            "simulate",
            "--rounds",
            "9000",
            "--seed",
            "8",
            "--fresh-shoe",
            "--decks",
            "2",
            "--seats",
            "2",
        ],
        lambda store: solver.simulate(
            rounds=9_000, seed=8, fresh_shoe=True, decks=2, seats=2, cache=store
        ),
    ),
    # A removed card: no exact figure to attach, so no solve (the case takes a second).
    "simulate-counter": (
        [
            "simulate",
            "--rounds",
            "6000",
            "--seed",
            "4",
            "--strategy",
            "stand-on:17",
            "--counter",
            "ko",
            "--spread",
            "1-4",
            "--ramp",
            "1:2,3:4",
            "--wong-out",
            "-1.5",
            "--penetration",
            "0.8",
            "--removed",
            "2c",
        ],
        lambda store: solver.simulate(
            rounds=6_000,
            seed=4,
            strategy="stand-on:17",
            counter="ko",
            spread="1-4",
            ramp="1:2,3:4",
            wong_out=-1.5,
            penetration=0.8,
            removed="2c",
        ),
    ),
    "paytable-solve": (
        ["paytable", "solve", "--solve-for", "adjacent", "--target-bonus-edge", "5%"],
        lambda store: solver.paytable_solve(
            solve_for="adjacent", target_bonus_edge="5%", cache=store
        ),
    ),
    "paytable-solve-variant": (
        [
            "paytable",
            "solve",
            "--solve-for",
            "rank_match",
            "--target-round-edge",
            "2%",
            "--suited-match",
            "20",
            "--bonus-ratio",
            "1",
        ],
        lambda store: solver.paytable_solve(
            solve_for="rank_match",
            target_round_edge="2%",
            suited_match=20,
            bonus_ratio=1,
            cache=store,
        ),
    ),
    "paytable-search": (
        ["paytable", "search", "--top", "3"],
        lambda store: solver.paytable_search(top=3, cache=store),
    ),
    "paytable-search-variant": (
        ["paytable", "search", "--bonus-edge-range", "5%:15%", "--max-pay", "20", "--top", "5"],
        lambda store: solver.paytable_search(
            bonus_edge_range="5%:15%", max_pay=20, top=5, cache=store
        ),
    ),
    "strategies": (
        ["strategies", "--strategies", "optimal,never-bust,stand-on:17"],
        lambda store: solver.strategies(names="optimal,never-bust,stand-on:17", cache=store),
    ),
    "strategies-variant": (
        [
            "strategies",
            "--strategies",
            "always-stand,chart",
            "--bonus-ratios",
            "1/2,1",
            "--preset",
            "vegas-21",
        ],
        lambda store: solver.strategies(
            names=["always-stand", "chart"], bonus_ratios="1/2,1", preset="vegas-21", cache=store
        ),
    ),
    "seats": (
        ["seats", "--seats", "1-2", "--rounds", "3000", "--seed", "4"],
        lambda store: solver.seats(seats="1-2", rounds=3_000, seed=4, cache=store),
    ),
    "seats-variant": (
        [
            "seats",
            "--seats",
            "5,3",
            "--rounds",
            "2000",
            "--seed",
            "9",
            "--strategy",
            "stand-on:17",
            "--decks",
            "2",
        ],
        lambda store: solver.seats(
            seats=[5, 3], rounds=2_000, seed=9, strategy="stand-on:17", decks=2, cache=store
        ),
    ),
    "shoe-states": (
        ["shoe-states", "--decks", "1", "--depths", "0.5", "--samples", "2", "--seed", "4"],
        lambda store: solver.shoe_states(samples=2, depths="0.5", seed=4, decks=1, cache=store),
    ),
    "cache-info": (["cache", "info"], lambda store: solver.cache_info()),
    "variants": (
        ["variants", "--decks", "1,2"],
        lambda store: solver.variants(decks="1,2", cache=store),
    ),
    "variants-variant": (
        ["variants", "--blackjack-pays", "3:2,6:5", "--paytable", "20:5:2"],
        lambda store: solver.variants(
            blackjack_pays=[Fraction(3, 2), "6:5"], paytable="20:5:2", cache=store
        ),
    ),
}


#: The cases that take seconds (each solves, searches or evaluates twice): dealt out first.
SLOW_CASES = {
    "chart",
    "chart-variant",
    "simulate",
    "shoe-states",
    "strategies",
    "strategies-variant",
}


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, marks=pytest.mark.slow) if c in SLOW_CASES else c for c in CASES],
)
def test_api_result_is_the_commands_json(case: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv, call = CASES[case]
    status, out, err = run_cli([*argv, "--format", "json"], capsys)
    assert status == 0, err
    # The library reads the games the command left in the session's disk cache.
    result = call(Cache())
    assert result.to_json() == json.loads(out)
    if not case.startswith("cache"):  # the cache's state is computed under no rules
        assert isinstance(result.rules, solver.Rules)


def test_results_compare_by_value_and_are_frozen(games: MemoryCache) -> None:
    first, second = solver.solve(cache=games), solver.solve()
    assert first == second
    assert solver.bonus(decks=2) != solver.bonus(decks=1)
    with pytest.raises(AttributeError):
        first.exact = True  # type: ignore[misc]  # the point: it is read-only


def test_exact_results_hold_fractions_and_float_results_floats(games: MemoryCache) -> None:
    exact = solver.solve(exact=True, cache=games)
    fast = solver.solve(cache=games)
    assert isinstance(exact.expected_value, Fraction)
    assert isinstance(fast.expected_value, float)
    assert abs(float(exact.expected_value) - fast.expected_value) < 1e-12


def test_rules_can_be_given_whole_or_as_options() -> None:
    base = solver.Rules(decks=2)
    assert solver.rules(rules=base).rules == base
    assert solver.rules(rules=base, dealer_stands_on=17).rules == solver.Rules(
        decks=2, dealer_stands_on=17
    )
    assert solver.bonus(removed=[solver.Card.parse("As")]) == solver.bonus(removed="As")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: solver.rules(decks=0), "decks 0"),
        (lambda: solver.rules(decks="six"), "six"),
        (lambda: solver.solve(jobs=0), "jobs 0"),
        (lambda: solver.bonus(removed="Zz"), "Zz"),
        (lambda: solver.advise(bonus="7 8", hand="9"), "exactly one card"),
        (lambda: solver.simulate(rounds=10, penetration=0.5, fresh_shoe=True), "--fresh-shoe"),
        (lambda: solver.paytable_solve(solve_for="lose", target_bonus_edge="5%"), "lose"),
        (lambda: solver.variants(decks="1,,2"), "empty item"),
        (lambda: solver.seats(seats="0-3"), "seats 0 is out of range"),
        (lambda: solver.seats(seats=[], rounds=10), "seats is empty"),
        (lambda: solver.seats(rounds=0, strategy="optimal"), "rounds 0"),
        (lambda: solver.shoe_states(samples=0), "samples 0"),
        (lambda: solver.shoe_states(samples=9, backend="spark"), "spark"),
    ],
)
def test_bad_input_raises_the_projects_error(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(solver.CbjError, match=message):
        call()


@pytest.mark.slow
def test_the_library_writes_no_file_unless_asked(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    script = (
        "import solver\n"
        "solver.rules(); solver.bonus(symbolic=True); solver.dealer(bonus=7)\n"
        "solver.solve(decks=1); solver.advise(bonus='7', hand='9 4')\n"
        "solver.simulate(rounds=5000, seed=1, strategy='stand-on:17', decks=1)\n"
        "solver.variants(decks='1,2', jobs=2)\n"
    )
    environment = {k: v for k, v in os.environ.items() if k != "CBJ_CACHE_DIR"}
    environment |= {"HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
    subprocess.run(
        [sys.executable, "-c", script], cwd=work, env=environment, check=True, timeout=300
    )
    assert list(home.rglob("*")) == []
    assert list(work.rglob("*")) == []


def test_a_memory_cache_keeps_the_effects_of_removal(monkeypatch: pytest.MonkeyPatch) -> None:
    """``eor`` then ``count`` with one MemoryCache find the effects once, whatever the order
    of the removed cards (a set to the key); other cards, rules or arithmetic and no cache
    find them again."""
    import solver.studies.counting as protection

    calls: list[tuple[solver.Rules, tuple[solver.Card, ...], bool]] = []

    def found(rules: solver.Rules, removed: tuple[solver.Card, ...], **kw: Any) -> object:
        calls.append((rules, removed, kw["exact"]))
        return object()

    monkeypatch.setattr(protection, "effects_of_removal", found)
    monkeypatch.setattr(protection, "judge_counts", lambda effects, chosen: effects)
    store = MemoryCache()
    found_again: list[object] = [
        solver.eor(decks=1, removed="As 2c", cache=store),
        solver.count(decks=1, removed="As 2c", cache=store),
        solver.eor(decks=1, removed="2c As", cache=store),
    ]
    assert found_again[0] is found_again[1] is found_again[2]
    others: list[object] = [
        solver.eor(decks=1, removed="As 2c", exact=True, cache=store),
        solver.eor(decks=1, removed="As 3c", cache=store),
        solver.eor(decks=2, removed="As 2c", cache=store),
    ]
    assert all(other is not found_again[0] for other in others)
    assert len(calls) == 4
    solver.eor(decks=1, removed="As 2c", cache=None)
    assert len(calls) == 5


def test_the_type_stub_names_every_public_name_from_its_home() -> None:
    """``solver/__init__.pyi`` gives checkers the type of each lazily loaded name."""
    stub = ast.parse((Path(solver.__file__).parent / "__init__.pyi").read_text())
    homes: dict[str, set[str]] = {}
    for node in stub.body:
        if isinstance(node, ast.ImportFrom):
            assert node.module is not None
            for alias in node.names:
                assert alias.asname == alias.name  # re-exported under its own name
                homes.setdefault(node.module, set()).add(alias.name)
    table: dict[str, str] = vars(solver)["_HOMES"]
    assert homes == {module: set(names.split()) for module, names in table.items()}
