"""The compiled kernels against their numpy twins, and how the kernel is chosen.

Tolerance: none.  The compiled fold adds its products in numpy's order and is built with
``-ffp-contract=off``, so float results are the same bits on both paths, and exact
results (residues, then fractions) are the same integers.  The comparisons that need the
extension skip where it is not built, unless ``CBJ_REQUIRE_COMPILED`` is set (CI), where
its absence fails them.
"""

from __future__ import annotations

import ast
import gc
import importlib
import inspect
import math
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from solver.exact import _numpy, dealer_hands, kernel, player
from solver.exact.dealer import (
    _distinct_sizes,
    _groups_of,
    _summary,
    dealer_probabilities,
    dealer_residues,
)
from solver.exact.dealer_hands import dealer_ends, final_hands
from solver.exact.modular import extend, moduli, rebuild
from solver.exact.player import solve_exact, solve_exact_plain, solve_float
from solver.exact.player_hands import HandSpace, hand_space, showdown_classes, showdown_tables
from solver.model.cards import Shoe, ValueCounts
from solver.model.counts import SYSTEMS
from solver.model.errors import ShoeError
from solver.model.rules import DealerBonus, DealerNatural, NaturalBeats, Paytable, Rules
from solver.results.indices import IndexRule
from solver.results.simulation import Counter, SimulationResult
from solver.sim import (
    AlwaysStand,
    NeverBust,
    StandOn,
    Strategy,
    TableStrategy,
    _deal_numpy,
    shoe_codes,
    simulate,
)
from solver.sim import kernel as sim_kernel
from solver.sim.counter import index_plays, tag_of_code
from solver.sim.deal import IndexPlays, Shoes, Table

from .conftest import physical_cards

T = TypeVar("T")

needs_compiled = pytest.mark.skipif(
    not kernel.available() and not os.environ.get("CBJ_REQUIRE_COMPILED"),
    reason="the compiled kernel is not built (no C compiler at install)",
)


@pytest.fixture(autouse=True)
def restore_kernel() -> Iterator[None]:
    """Leave the process on the kernel it started with, whatever a test chose."""
    before, variable = kernel.current(), os.environ.get("CBJ_KERNEL")
    yield
    kernel.use(before)
    if variable is None:
        del os.environ["CBJ_KERNEL"]
    else:
        os.environ["CBJ_KERNEL"] = variable


def compiled_module() -> ModuleType:
    """The exact side's compiled twin (the refusal tests call it directly)."""
    assert kernel.COMPILED is not None, "the compiled kernel is not built"
    return kernel.COMPILED


def both(compute: Callable[[], T]) -> tuple[T, T]:
    """``compute()`` on the numpy kernel, then on the compiled one."""
    assert kernel.use("numpy") == "numpy"
    slow = compute()
    assert kernel.use("compiled") == "compiled", "the compiled kernel is not built"
    return slow, compute()


SIX_DECKS = np.array(Shoe.full(6).value_counts(), dtype=np.int64)
ONE_DECK = np.array(Shoe.full(1).value_counts(), dtype=np.int64)

rules_drawn = st.builds(
    Rules,
    dealer_stands_on=st.integers(12, 21),
    dealer_natural=st.sampled_from(list(DealerNatural)),
)


#: Root hands of one to four cards (values 1-10) whose hard total is at most 21.
roots_drawn = st.lists(
    st.lists(st.integers(1, 10), min_size=1, max_size=4)
    .filter(lambda cards: sum(cards) <= 21)
    .map(lambda cards: [cards.count(v) for v in range(1, 11)]),
    min_size=1,
    max_size=6,
)


def showdown_rules_or_default() -> st.SearchStrategy[Rules]:
    """Rules drawn over the dealer's and the showdown's readings."""
    return st.builds(
        Rules,
        dealer_stands_on=st.integers(12, 21),
        dealer_natural=st.sampled_from(list(DealerNatural)),
        natural_beats=st.sampled_from(list(NaturalBeats)),
        dealer_bonus=st.sampled_from(list(DealerBonus)),
    )


def roots_or_ones() -> st.SearchStrategy[list[list[int]]]:
    """Root hands of one to four cards, or every one-card hand (a game's roots)."""
    ones = [[int(v == p) for v in range(10)] for p in range(10)]
    return st.one_of(st.just(ones), roots_drawn)


@st.composite
def depleted_shoes(draw: st.DrawFn) -> npt.NDArray[np.int64]:
    """A batch of shoes, each a one- or six-deck shoe less some cards of each value."""
    full = draw(st.sampled_from([ONE_DECK, SIX_DECKS]))
    rows = draw(st.integers(1, 12))
    taken = draw(
        st.lists(
            st.lists(st.integers(0, int(full.max())), min_size=10, max_size=10),
            min_size=rows,
            max_size=rows,
        )
    )
    shoes = np.maximum(full[None, :] - np.array(taken, dtype=np.int64), 0)
    # Keep every shoe large enough for the fast path (no dealer hand holds 22 cards).
    short = shoes.sum(axis=1) < 22
    shoes[short] = full
    return shoes


@needs_compiled
@settings(max_examples=40, deadline=None)
@given(rules_drawn, st.integers(1, 10), depleted_shoes())
def test_the_float_fold_gives_numpys_bits(
    rules: Rules, bonus: int, shoes: npt.NDArray[np.int64]
) -> None:
    slow, fast = both(lambda: dealer_probabilities(rules, bonus, shoes))
    assert slow.tobytes() == fast.tobytes()


@needs_compiled
@settings(max_examples=25, deadline=None)
@given(rules_drawn, st.integers(1, 10), depleted_shoes(), st.integers(1, 4))
def test_the_modular_fold_gives_numpys_residues(
    rules: Rules, bonus: int, shoes: npt.NDArray[np.int64], primes: int
) -> None:
    chosen = list(moduli(primes))
    slow, fast = both(lambda: dealer_residues(rules, bonus, shoes, chosen))
    np.testing.assert_array_equal(slow, fast)


@needs_compiled
@settings(max_examples=6, deadline=None)
@given(rules_drawn, st.integers(1, 10), depleted_shoes())
def test_the_player_passes_agree_on_both_kernels(
    rules: Rules, bonus: int, shoes: npt.NDArray[np.int64]
) -> None:
    shoe = tuple(int(n) for n in shoes[0])
    roots = [tuple(int(v == p) for v in range(10)) for p in range(10) if shoe[p] > 0]
    space = hand_space(bonus, shoe, roots)
    slow, fast = both(lambda: solve_float(rules, space))
    assert (slow.stand, slow.hit, slow.hitting, slow.outcomes) == (
        fast.stand,
        fast.hit,
        fast.hitting,
        fast.outcomes,
    )
    slow, fast = both(lambda: solve_exact(rules, space))
    assert list(slow.stand) == list(fast.stand)
    assert list(slow.hit) == list(fast.hit)
    assert slow.hitting == fast.hitting
    assert list(slow.outcomes) == list(fast.outcomes)


@settings(max_examples=12, deadline=None)
@given(showdown_rules_or_default(), st.integers(1, 10), depleted_shoes(), roots_or_ones())
def test_a_bonus_cards_solve_in_one_call_is_the_hand_space_then_the_float_solve(
    rules: Rules, bonus: int, shoes: npt.NDArray[np.int64], roots: list[list[int]]
) -> None:
    shoe = tuple(int(n) for n in shoes[0])
    roots = [r for r in roots if all(c <= n for c, n in zip(r, shoe, strict=True))]
    largest = int(hand_space(bonus, shoe, [tuple(r) for r in roots]).sizes.max(initial=0))
    assume(sum(shoe) - largest >= dealer_ends(rules, bonus).depth)  # its premise
    for name in kernel.KERNELS if kernel.available() else ("numpy",):
        kernel.use(name)
        player._GROUPS.clear()  # each twin groups the shoes itself, then reads them back
        whole = player.solve_float_shoe(rules, bonus, shoe, [tuple(r) for r in roots])
        again = player.solve_float_shoe(rules, bonus, shoe, [tuple(r) for r in roots])
        assert np.asarray(again.outcomes).tobytes() == np.asarray(whole.outcomes).tobytes()
        space = hand_space(bonus, shoe, [tuple(r) for r in roots])
        parts = solve_float(rules, space)
        for field in ("hands", "keys", "children", "draws", "sizes"):
            for solved in (whole, again):  # the first's arrays, then the kept ones read back
                assert getattr(solved.space, field).tolist() == getattr(space, field).tolist()
        assert np.asarray(whole.stand).tobytes() == np.asarray(parts.stand).tobytes()
        assert np.asarray(whole.hit).tobytes() == np.asarray(parts.hit).tobytes()
        assert np.asarray(whole.outcomes).tobytes() == np.asarray(parts.outcomes).tobytes()
        assert whole.hitting == parts.hitting


@settings(max_examples=6, deadline=None)
@given(showdown_rules_or_default(), st.integers(1, 10), st.integers(0, 9), st.integers(1, 3))
def test_a_shoe_of_a_kept_hand_space_is_solved_as_afresh(
    rules: Rules, bonus: int, value: int, taken: int
) -> None:
    """A study's later shoe holding the same hands reads the kept space (only its draws are
    its own) and gets what a solve of its own hand space gives, on each kernel."""
    first = tuple(int(n) for n in SIX_DECKS)
    later = tuple(n - taken * (v == value) for v, n in enumerate(first))  # same hands fit
    roots = [tuple(int(v == p) for v in range(10)) for p in range(10)]
    for name in kernel.KERNELS if kernel.available() else ("numpy",):
        kernel.use(name)
        player._GROUPS.clear()
        player.solve_float_shoe(rules, bonus, first, roots)  # keeps the space
        read = player.solve_float_shoe(rules, bonus, later, roots)
        parts = solve_float(rules, hand_space(bonus, later, roots))
        assert read.space.draws.tolist() == parts.space.draws.tolist()
        assert np.asarray(read.stand).tobytes() == np.asarray(parts.stand).tobytes()
        assert np.asarray(read.outcomes).tobytes() == np.asarray(parts.outcomes).tobytes()


@needs_compiled
@settings(max_examples=20, deadline=None)
@given(showdown_rules_or_default(), st.integers(1, 10))
def test_the_dealers_final_hands_fold_alike_on_both_kernels(rules: Rules, bonus: int) -> None:
    codes, ways, depth = final_hands(rules)[bonus - 1]
    slow, fast = both(lambda: dealer_hands._ends_of(codes, ways, depth))
    assert [tuple(map(repr, fold)) for fold in slow.folds] == [
        tuple(map(repr, fold)) for fold in fast.folds
    ]
    for name in ("results", "lengths", "final"):
        assert getattr(slow, name).tolist() == getattr(fast, name).tolist()
    assert sum(fast.folds[0].widths) == len(codes) and fast.folds[-1].size == len(fast.final)


@needs_compiled
@settings(max_examples=12, deadline=None)
@given(showdown_rules_or_default(), st.sampled_from([16, 1 << 15]))
def test_the_dealers_final_hands_are_drawn_alike_on_both_kernels(rules: Rules, room: int) -> None:
    """Also from too little room at first (the call is made again with more)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dealer_hands, "FINAL_HANDS_ROOM", room)
        slow, fast = both(lambda: dealer_hands.draw_final_hands(rules))
    assert [(c.tolist(), w.tolist(), d) for c, w, d in slow] == [
        (c.tolist(), w.tolist(), d) for c, w, d in fast
    ]
    # Every drawing order of a hand is counted: a hand of k cards has at most k! of them.
    for codes, ways, depth in fast:
        lengths = codes // 32**10 % 32
        assert depth == int(lengths.max()) and (ways >= 1).all()
        assert (ways <= [math.factorial(k) for k in lengths.tolist()]).all()


@needs_compiled
def test_the_compiled_dealers_ends_refuse_unsorted_codes() -> None:
    module = compiled_module()
    out = [np.empty((10, 2), dtype=np.int64) for _ in range(3)] + [np.empty((10, 3), np.int64)]
    ends = [np.empty(2, dtype=np.int64) for _ in range(3)]
    assert module.dealer_ends(np.array([1, 2]), *out, *ends) == 1  # both hands merge
    with pytest.raises(ValueError, match="sorted"):
        module.dealer_ends(np.array([2, 1]), *out, *ends)


#: Rules that change the showdown: clause 9's natural against a 21, and the dealer's use
#: of the Bonus card, beside the drawing rule.
showdown_rules = st.builds(
    Rules,
    dealer_stands_on=st.integers(12, 21),
    dealer_natural=st.sampled_from(list(DealerNatural)),
    natural_beats=st.sampled_from(list(NaturalBeats)),
    dealer_bonus=st.sampled_from(list(DealerBonus)),
)


@needs_compiled
@settings(max_examples=25, deadline=None)
@given(showdown_rules, st.integers(1, 10), depleted_shoes())
def test_standings_sums_by_class_and_the_solutions_tuples_are_numpys(
    rules: Rules, bonus: int, shoes: npt.NDArray[np.int64]
) -> None:
    # The dealer's distributions for each shoe, and every hand's class against each.
    shoe = tuple(int(n) for n in shoes[0])
    roots = [tuple(int(v == p) for v in range(10)) for p in range(10) if shoe[p] > 0]
    space = hand_space(bonus, shoe, roots)
    kernel.use("numpy")
    dealer = dealer_probabilities(rules, bonus, space.draws)
    classes = showdown_classes(rules, space)
    numpy_sums = np.stack([(dealer * (classes == k)).sum(axis=1) for k in range(3)], 1)
    slow = solve_float(rules, space)
    stand_vec, stand, hit, hitting, played = solved_hands(compiled_module(), space, dealer, rules)
    assert stand_vec.tobytes() == numpy_sums.tobytes()
    assert tuple(stand.tolist()) == slow.stand
    assert tuple(hit.tolist()) == slow.hit and tuple(hitting.astype(bool).tolist()) == slow.hitting
    n = len(hit)
    assert compiled_module().rows(played, np.arange(n)) == slow.outcomes
    order = np.arange(len(dealer))[::-1].copy()
    expected = tuple(map(tuple, dealer[order].tolist()))
    assert compiled_module().rows(dealer, order) == _numpy.rows(dealer, order) == expected


def solved_hands(
    module: ModuleType, space: HandSpace, dealer: npt.NDArray[np.float64], rules: Rules
) -> tuple[npt.NDArray[Any], ...]:
    """``module.solve_hands`` for a hand space: standing's (w, p, l) and value, hitting's
    value, whether each hand hits, the played (w, p, l) with the busted hand last."""
    n = len(space.hands)
    out = (np.empty((n, 3)), np.empty(n), np.empty(n), np.empty(n, dtype=np.int64))
    played, value = np.empty((n + 1, 3)), np.empty(n + 1)
    tables = showdown_tables(rules, space.bonus)
    arrays = (space.hands, space.children, space.draws, space.sizes)
    module.solve_hands(dealer, *arrays, *tables, sum(space.shoe), *out, played, value)
    return (*out, played)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 400), max_size=40))
def test_distinct_sizes_are_numpys_unique(sizes: list[int]) -> None:
    array = np.array(sizes, dtype=np.int64)
    expected, inverse = np.unique(array, return_inverse=True)
    for name in kernel.KERNELS if kernel.available() else ("numpy",):
        kernel.use(name)
        found, column = _distinct_sizes(array)
        assert found.tolist() == expected.tolist()
        assert column.tolist() == inverse.reshape(-1).tolist()


@needs_compiled
def test_the_compiled_distinct_sizes_refuse_a_negative_size() -> None:
    module = compiled_module()
    distinct, column = np.empty(3, dtype=np.int64), np.empty(3, dtype=np.int64)
    assert module.distinct_sizes(np.array([3, 1, 3]), distinct, column) == 2
    assert column.tolist() == [1, 0, 1]
    with pytest.raises(ValueError, match="non-negative"):
        module.distinct_sizes(np.array([3, -1]), distinct[:2], column[:2])


@needs_compiled
@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 60).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(0, 6), min_size=10, max_size=10), min_size=n, max_size=n
        )
    )
)
def test_the_shoe_groups_are_numpys(rows: list[list[int]]) -> None:
    counts = np.array(rows, dtype=np.int64)

    def groups() -> tuple[list[list[int]], list[list[int]], list[list[int]], list[int]]:
        _groups_of.cache_clear()  # the grouping is kept by its key: make it again
        found = _groups_of(counts.astype(np.int16).tobytes(), len(counts))
        assert all(a.dtype == np.int64 for a in (*found.parents, *found.held, found.final))
        parents = [a.tolist() for a in found.parents]
        return parents, [a.tolist() for a in found.held], found.bounds, found.final.tolist()

    slow, fast = both(groups)
    assert slow == fast


@needs_compiled
def test_the_compiled_shoe_groups_refuse_a_count_out_of_range() -> None:
    module = compiled_module()
    counts = np.ones((2, 10), dtype=np.int64)
    parents, held = np.empty((10, 2), dtype=np.int64), np.empty((10, 2), dtype=np.int64)
    bounds, final = np.empty((10, 3), dtype=np.int64), np.empty(2, dtype=np.int64)
    sizes = np.empty((10, 2), dtype=np.int64)
    module.shoe_groups(counts, parents, held, bounds, final, sizes)
    assert final.tolist() == [0, 0]  # one group
    counts[1, 3] = -1
    with pytest.raises(ValueError, match="below 2"):
        module.shoe_groups(counts, parents, held, bounds, final, sizes)


@needs_compiled
@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10), depleted_shoes(), roots_drawn)
def test_the_hand_spaces_are_numpys(
    bonus: int, shoes: npt.NDArray[np.int64], roots: list[list[int]]
) -> None:
    shoe = tuple(int(n) for n in shoes[0])
    roots = [r for r in roots if all(c <= n for c, n in zip(r, shoe, strict=True))] or [
        [int(v == int(np.argmax(shoe))) for v in range(10)]
    ]
    slow, fast = both(lambda: hand_space(bonus, shoe, [tuple(r) for r in roots]))
    for name in ("hands", "keys", "children", "draws", "sizes"):
        a, b = getattr(slow, name), getattr(fast, name)
        assert a.dtype == b.dtype and a.tolist() == b.tolist(), name


@needs_compiled
@settings(max_examples=12, deadline=None)
@given(st.integers(1, 10), depleted_shoes(), roots_or_ones(), st.data())
def test_a_fixed_plays_walk_and_reach_are_numpys_bits(
    bonus: int, shoes: npt.NDArray[np.int64], roots: list[list[int]], data: st.DataObject
) -> None:
    shoe = tuple(int(n) for n in shoes[0])
    roots = [r for r in roots if all(c <= n for c, n in zip(r, shoe, strict=True))]
    space = hand_space(bonus, shoe, [tuple(r) for r in roots])
    n = len(space.hands)
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    hits = (rng.random(n) < 0.5) & (sum(shoe) > space.sizes)
    stand = rng.uniform(-1, 1, n)
    hard = space.hands @ np.arange(1, 11)
    order = np.argsort(-hard, kind="stable")
    bounds = np.concatenate([[0], np.flatnonzero(np.diff(hard[order])) + 1, [n]])
    reached = data.draw(st.booleans())  # with roots, the reach too
    places = space.indices([tuple(r) for r in roots]) if roots and reached else []
    weights = rng.random(len(places))

    def walk() -> tuple[bytes, bytes, bytes]:
        values, hit, reach = np.empty(n + 1), np.empty(n), np.empty(n + 1 if places else 0)
        kernel.chart_walk(
            values,
            hit,
            reach,
            order.astype(np.int64),
            bounds.astype(np.int64),
            hits.astype(np.int64),
            space.draws,
            space.children,
            space.sizes,
            stand,
            sum(shoe),
            np.array(places, dtype=np.int64),
            weights,
        )
        return values.tobytes(), hit.tobytes(), reach.tobytes()

    slow, fast = both(walk)
    assert slow == fast
    # The twin's values: a hand that hits averages its children, one that stands stands;
    # hitting once averages the children too, whatever the play does with the hand.
    values, hit = np.frombuffer(slow[0]), np.frombuffer(slow[1])
    for i in range(n):
        kids = values[space.children[i]]
        once = (space.draws[i] * kids).sum() / max(sum(shoe) - space.sizes[i], 1)
        assert math.isclose(hit[i], once, rel_tol=1e-12, abs_tol=1e-12)
        assert values[i] == (hit[i] if hits[i] else stand[i])
    if places:  # every chance that flows in flows on: the roots' weight ends somewhere
        reach = np.frombuffer(slow[2])
        ended = reach[np.flatnonzero(~hits)].sum() + reach[n]
        assert math.isclose(ended, weights.sum(), rel_tol=1e-9)


@needs_compiled
def test_the_compiled_chart_walk_refuses_an_index_out_of_range() -> None:
    module = compiled_module()
    draws = np.zeros((1, 10), dtype=np.int64)
    children = np.ones((1, 10), dtype=np.int64)
    arrays = [np.zeros(1, np.int64), np.array([0, 1]), np.ones(1, np.int64), draws, children]

    def call(*roots: int) -> None:
        module.chart_walk(
            np.empty(2),
            np.empty(1),
            np.empty(2),
            *arrays,
            np.zeros(1, np.int64),
            np.zeros(1),
            5,
            np.array(roots, dtype=np.int64),
            np.ones(len(roots)),
        )

    call(0)
    with pytest.raises(ValueError, match="out of range"):
        call(1)
    children[0, 3] = 2
    with pytest.raises(ValueError, match="out of range"):
        call(0)


@needs_compiled
def test_no_roots_give_an_empty_solution_on_both_kernels() -> None:
    space = hand_space(10, (4, 4, 4, 4, 4, 4, 4, 4, 4, 15), [])
    slow, fast = both(lambda: solve_float(Rules(), hand_space(10, space.shoe, [])))
    assert len(space.hands) == 0
    assert (slow.stand, slow.hit, slow.hitting, slow.outcomes) == ((), (), (), ())
    assert (fast.stand, fast.hit, fast.hitting, fast.outcomes) == ((), (), (), ())


@needs_compiled
def test_the_compiled_hand_space_refuses_a_child_out_of_range() -> None:
    module = compiled_module()
    universe = np.zeros((2, 10), dtype=np.int64)
    universe[1, 0] = 1
    children = np.full((2, 10), 2, dtype=np.int64)
    children[0, 0] = 1
    keys, sizes = np.array([0, 1]), np.array([0, 1])
    limit, roots = np.full(10, 4, dtype=np.int64), universe[1:].copy()

    def call(children: npt.NDArray[np.int64]) -> list[list[int]]:
        out = [np.empty((2, 10), dtype=np.int64), np.empty(2, dtype=np.int64)]
        out += [np.empty((2, 10), dtype=np.int64), np.empty((2, 10), dtype=np.int64)]
        out += [np.empty(2, dtype=np.int64), np.empty(3, dtype=np.int64)]
        n = module.hand_space(universe, children, keys, sizes, limit, roots, *out)
        found: list[list[int]] = out[2][:n].tolist()
        return found

    assert call(children) == [[1] * 10]  # one hand, every child out
    children[0, 0] = 3
    with pytest.raises(ValueError, match="out of range"):
        call(children)


@needs_compiled
@settings(max_examples=25, deadline=None)
@given(depleted_shoes())
def test_the_shoes_summary_is_numpys(shoes: npt.NDArray[np.int64]) -> None:
    slow, fast = both(lambda: _summary(shoes))
    for a, b in zip(slow, fast, strict=True):
        assert a.tolist() == b.tolist()
    assert _summary(shoes[:0]).most.tolist() == [0] * 10  # no shoes: zeros by value


@pytest.mark.parametrize("name", kernel.KERNELS)
def test_a_shoe_holding_a_negative_count_is_an_error_on_each_kernel(name: str) -> None:
    if name == "compiled" and not kernel.available():
        pytest.skip("the compiled kernel is not built")
    kernel.use(name)
    shoes = np.array([SIX_DECKS, SIX_DECKS - np.eye(10, dtype=np.int64)[0] * 25])
    with pytest.raises(ShoeError, match="negative"):
        dealer_probabilities(Rules(), 10, shoes)


@needs_compiled
def test_the_compiled_shoes_summary_refuses_a_wrong_shape() -> None:
    module = compiled_module()
    sizes, ten = np.zeros(2, dtype=np.int64), np.zeros(10, dtype=np.int64)
    module.shoe_summary(np.ones((2, 10), dtype=np.int64), sizes, ten, ten.copy())  # valid
    assert sizes.tolist() == [10, 10]
    for counts in (np.ones((2, 9), dtype=np.int64), np.ones((0, 10), dtype=np.int64)):
        with pytest.raises(ValueError, match="counts"):
            module.shoe_summary(counts, sizes[: len(counts)], ten, ten.copy())


def test_numpy_is_chosen_by_name_and_runs_without_the_extension() -> None:
    assert kernel.use("numpy") == "numpy"
    assert kernel.current() == sim_kernel.current() == "numpy"
    assert kernel.fold is _numpy.fold and sim_kernel.play is _deal_numpy.play
    assert os.environ["CBJ_KERNEL"] == "numpy"  # for the worker processes started later
    shoes = SIX_DECKS[None, :]
    assert dealer_probabilities(Rules(), 10, shoes).sum() == pytest.approx(1.0)


@needs_compiled
def test_compiled_is_chosen_by_name() -> None:
    assert kernel.use("compiled") == "compiled"
    assert kernel.fold is compiled_module().fold


def test_an_unknown_kernel_is_an_error() -> None:
    with pytest.raises(kernel.KernelError, match="unknown kernel"):
        kernel.use("fortran")


@needs_compiled
def test_the_compiled_fold_refuses_an_index_out_of_range() -> None:
    module = compiled_module()
    one = np.zeros(1, dtype=np.int64)
    table = np.ones((1, 1))

    def step(order: npt.NDArray[np.int64]) -> tuple[object, ...]:
        return (order, one, one, one + 1, one, one, np.array([0, 1]), 1)

    module.fold(np.zeros((1, 1)), np.ones(1), [step(one)], table, one, 0)  # a valid call
    for order in (np.array([1]), np.array([-1])):
        with pytest.raises(ValueError, match="out of range"):
            module.fold(np.zeros((1, 1)), np.ones(1), [step(order)], table, one, 0)
    with pytest.raises(ValueError, match="final"):
        module.fold(np.zeros((1, 1)), np.ones(1), [step(one)], table, one + 1, 0)
    with pytest.raises(TypeError, match="float64"):
        module.fold(np.zeros((1, 1), dtype=np.float32), np.ones(1), [step(one)], table, one, 0)


@needs_compiled
def test_the_compiled_dealers_tail_and_rows_refuse_an_index_out_of_range() -> None:
    module = compiled_module()
    one, zero = np.ones(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    falling = np.ones((2, 1))

    def tail(final: npt.NDArray[np.int64], lengths: npt.NDArray[np.int64]) -> list[float]:
        # No fold steps: the one group's row is the ways, 0.25 for one pair.
        out = np.zeros((1, 2))
        module.dealer_float(np.full(1, 0.25), [], np.ones((1, 1)), zero, out, final, lengths,
                            zero, falling, zero, zero, one, 1)  # fmt: skip
        return list(out[0])

    assert tail(zero, one) == [0.75, 0.25]  # a valid call: one pair, of result 1
    with pytest.raises(ValueError, match="out of range"):
        tail(one, one)
    with pytest.raises(ValueError, match="out of range"):
        tail(zero, one + 1)
    two = np.array([0, 1])
    with pytest.raises(ValueError, match="do not match the pairs"):  # two pairs, one column
        module.dealer_float(np.full(1, 0.25), [], np.ones((1, 1)), zero, np.zeros((1, 2)),
                            zero, two * 0 + 1, two, falling, zero, zero, one, 2)  # fmt: skip
    assert module.rows(np.eye(2), np.array([1, 0])) == ((0.0, 1.0), (1.0, 0.0))
    # The collector, paused while the rows are made, is left as it was found.
    assert gc.isenabled()
    gc.disable()
    try:
        module.rows(np.eye(2), np.array([0]))
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(ValueError, match="order"):
        module.rows(np.eye(2), np.array([2]))


@needs_compiled
def test_the_compiled_exact_pass_refuses_an_index_out_of_range() -> None:
    module = compiled_module()
    n, primes = 2, np.array([7, 11], dtype=np.int64)
    draws = np.ones((n, 10), dtype=np.int64)
    # Standing wins and loses nothing (value 0); every card busts (-1): standing is better.
    sums, lift = np.zeros((2, n, 3), dtype=np.int64), np.ones((2, n), dtype=np.int64)
    bust = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int64)  # D(m) mod each prime, m = 0-2
    scale = np.array([1.0, 16.0, 100.0])  # D(m) as floats: D(1) = 16 is 2 mod 7, 5 mod 11
    out, hitting = np.zeros((2, n, 5), dtype=np.int64), np.zeros(n, dtype=np.int64)

    def call(sizes: list[int], kids: npt.NDArray[np.int64], chosen: npt.NDArray[np.int64]) -> None:
        left = np.full(n, 10, dtype=np.int64)
        module.player_exact(out, hitting, np.array(sizes, dtype=np.int64), draws, kids, left,
                            sums, lift, bust, scale, chosen, 1e-9)  # fmt: skip

    kids = np.full((n, 10), n, dtype=np.int64)
    call([1, 1], kids, primes)  # a valid call: ten busted children, D(2) each, for both hands
    assert hitting.tolist() == [0, 0]
    # Standing's net 0 + D(1), hitting's 0 - 10 D(2) + D(1), played: standing's (0, 0, 0).
    assert out[:, 1].tolist() == [[2, (2 - 30) % 7, 0, 0, 0], [5, (5 - 60) % 11, 0, 0, 0]]
    with pytest.raises(ValueError, match="out of range"):
        call([1, 2], kids, primes)  # a hand of 2 cards would bust into D(3): no such column
    with pytest.raises(ValueError, match="out of range"):
        call([1, 1], kids + 1, primes)
    with pytest.raises(ValueError, match="coprime"):
        call([1, 1], kids, np.array([7, 7]))


@needs_compiled
def test_the_compiled_residue_kernels_refuse_an_index_out_of_range() -> None:
    module = compiled_module()
    one, zero = np.ones(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    primes = np.array([7], dtype=np.int64)

    def tail(final: npt.NDArray[np.int64], lengths: npt.NDArray[np.int64]) -> list[int]:
        out = np.zeros((1, 2, 1), dtype=np.int64)
        sums = np.full((1, 1, 1), 3, dtype=np.int64)
        module.dealer_residues(out, sums, final, lengths, one, np.array([5]), zero, primes, 2)
        return out.ravel().tolist()

    # One pair of result 1 and length 1 (3 ways) from a shoe of 5: lifted by 4, of 5 * 4.
    assert tail(zero, one) == [(20 - 12) % 7, 12 % 7]
    with pytest.raises(ValueError, match="out of range"):
        tail(one, one)
    with pytest.raises(ValueError, match="out of range"):
        tail(zero, one + 2)
    residues = np.array([[1, 2], [3, 4]], dtype=np.int64)
    out = np.zeros((1, 2), dtype=np.int64)
    module.extend(out, residues, np.array([5, 7]), np.array([11]))
    assert out.tolist() == [[31 % 11, 32 % 11]]  # 31 = 1 mod 5 = 3 mod 7; 32 = 2, 4
    with pytest.raises(ValueError, match="coprime"):
        module.extend(out, residues, np.array([5, 5]), np.array([11]))
    with pytest.raises(ValueError, match="out"):
        module.extend(np.zeros((2, 2), dtype=np.int64), residues, np.array([5, 7]), one + 10)
    stand = np.zeros((1, 1, 3), dtype=np.int64)
    dealer = np.array([[[2], [3]]], dtype=np.int64)  # (prime, result, hand)
    module.stand_modular(stand, dealer, np.array([[0, 2]]), np.array([[4]]), primes)
    assert stand.tolist() == [[[8 % 7, 0, 12 % 7]]]
    with pytest.raises(ValueError, match="sizes"):
        module.stand_modular(stand, dealer, np.array([[0, 2, 1]]), np.array([[4]]), primes)


@needs_compiled
@settings(max_examples=40, deadline=None)
@given(st.integers(1, 8), st.integers(0, 8), st.data())
def test_extending_residues_to_more_primes_is_the_same_on_both_kernels(
    count: int, added: int, data: st.DataObject
) -> None:
    primes = moduli(count + added)
    drawn = [data.draw(st.lists(st.integers(0, q - 1), min_size=6, max_size=6)) for q in primes]
    residues = np.array(drawn[:count], dtype=np.int64).reshape(count, 2, 3)
    slow, fast = both(lambda: extend(residues, primes[:count], primes[count:]))
    np.testing.assert_array_equal(slow, fast)
    # The integers themselves, rebuilt, have those residues.
    whole = rebuild(residues, primes[:count]).ravel().tolist()
    assert fast.reshape(added, 6).tolist() == [[int(x) % q for x in whole] for q in primes[count:]]


@needs_compiled
@settings(max_examples=6, deadline=None)
@given(rules_drawn, st.integers(1, 10), st.integers(0, 30))
def test_every_decision_taken_exactly_is_the_same_on_both_kernels(
    rules: Rules, bonus: int, taken: int
) -> None:
    # An infinite tolerance sends every hand to the exact comparison (Garner's digits in C,
    # Python's integers on numpy): both must match the plain exact solve.
    shoe = tuple(int(n) for n in ONE_DECK)
    shoe = (*shoe[:9], shoe[9] - min(taken, 15))
    roots = [tuple(int(v == p) for v in range(10)) for p in range(10) if shoe[p] > 0]
    space = hand_space(bonus, shoe, roots)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(player, "TIE_TOLERANCE", math.inf)
        slow, fast = both(lambda: solve_exact(rules, space))
    plain = solve_exact_plain(rules, space)
    assert slow.hitting == fast.hitting == plain.hitting
    assert list(slow.outcomes) == list(fast.outcomes) == list(plain.outcomes)
    assert list(slow.hit) == list(fast.hit) == list(plain.hit)


@needs_compiled
def test_the_compiled_hand_solve_refuses_an_index_out_of_range() -> None:
    module = compiled_module()
    space = hand_space(10, (4, 4, 4, 4, 4, 4, 4, 4, 4, 15), [(1, 0, 0, 0, 0, 0, 0, 0, 0, 0)])
    rules = Rules()
    dealer = dealer_probabilities(rules, 10, space.draws)
    solved_hands(module, space, dealer, rules)  # a valid call
    n = len(space.hands)
    bad_child = space.children.copy()
    bad_child[0, 0] = n + 1
    bad_hand = space.hands.copy()
    bad_hand[0, 9] = 3  # a hard total above 21
    for changed, message in (
        (replace(space, children=bad_child), "out of range"),
        (replace(space, sizes=space.sizes + 21), "out of range"),
        (replace(space, hands=bad_hand), "above 21"),
        (replace(space, draws=space.draws[:-1]), "do not match"),
    ):
        with pytest.raises(ValueError, match=message):
            solved_hands(module, changed, dealer, rules)
    with pytest.raises(ValueError, match="beats"), pytest.MonkeyPatch.context() as patch:
        tables = showdown_tables(rules, 10)
        short = (tables[0], tables[1], tables[2][:5], tables[3])
        patch.setattr(sys.modules[__name__], "showdown_tables", lambda *_: short)
        solved_hands(module, space, dealer, rules)


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter with ``env`` added to the environment."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
    )


#: Make the extension unimportable, as in an install without a C compiler.
WITHOUT_EXTENSION = "import sys; sys.modules['solver.exact._native'] = None; "


def test_the_environment_chooses_the_kernel_and_cbj_version_names_it() -> None:
    shown = run_python("from solver.cli import main; main(['--version'])", CBJ_KERNEL="numpy")
    assert shown.returncode == 0, shown.stderr
    assert "(kernel: numpy (solver), numpy (simulator))" in shown.stdout
    fallback = run_python(
        WITHOUT_EXTENSION + "from solver.cli import main; main(['--version'])",
        CBJ_KERNEL="compiled",
        CBJ_REQUIRE_COMPILED="",
    )
    assert "kernel: numpy (solver)," in fallback.stdout


@needs_compiled
def test_cbj_version_names_the_compiled_kernel() -> None:
    shown = run_python("from solver.cli import main; main(['--version'])", CBJ_KERNEL="")
    assert "(kernel: compiled (solver), compiled (simulator))" in shown.stdout, shown.stderr


def test_cbj_version_names_each_sides_kernel_apart() -> None:
    without_simulator = "import sys; sys.modules['solver.sim._deal'] = None; "
    shown = run_python(
        without_simulator + "from solver.cli import main; main(['--version'])",
        CBJ_KERNEL="",
        CBJ_REQUIRE_COMPILED="",
    )
    assert shown.returncode == 0, shown.stderr
    solver_side = "compiled" if kernel.available() else "numpy"
    assert f"(kernel: {solver_side} (solver), numpy (simulator))" in shown.stdout


def test_a_required_compiled_kernel_that_is_missing_is_an_error() -> None:
    failed = run_python(WITHOUT_EXTENSION + "import solver.exact.kernel", CBJ_REQUIRE_COMPILED="1")
    assert failed.returncode != 0
    assert "CBJ_REQUIRE_COMPILED" in failed.stderr


# ---------------------------------------------------------------------------------------
# The simulator's kernel (solver/sim/_deal.c): the same rounds as numpy's for a seed
# ---------------------------------------------------------------------------------------

needs_compiled_simulator = pytest.mark.skipif(
    not sim_kernel.available() and not os.environ.get("CBJ_REQUIRE_COMPILED"),
    reason="the simulator's compiled kernel is not built (no C compiler at install)",
)


def dealt_both(compute: Callable[[], T]) -> tuple[T, T]:
    """``compute()`` dealt by numpy, then by the simulator's compiled kernel."""
    kernel.use("numpy")
    assert sim_kernel.current() == "numpy"
    slow = compute()
    kernel.use("compiled")
    assert sim_kernel.current() == "compiled", "the simulator's compiled kernel is not built"
    return slow, compute()


table_rules = st.builds(
    Rules,
    decks=st.sampled_from([1, 2, 6]),
    dealer_stands_on=st.integers(12, 21),
    dealer_natural=st.sampled_from(list(DealerNatural)),
    natural_beats=st.sampled_from(list(NaturalBeats)),
    dealer_bonus=st.sampled_from(list(DealerBonus)),
    paytable=st.sampled_from(
        [
            Paytable(),
            Paytable.parse("20:5:2"),
            Paytable.parse("suited-match=15,rank-match=4,suited-adjacent=2,adjacent=1"),
            Paytable.parse("suited-match=30,adjacent=1"),
        ]
    ),
    bonus_ratio=st.sampled_from([Fraction(1, 2), Fraction(2, 3), Fraction(1)]),
)
sim_strategies = st.one_of(
    st.builds(StandOn, st.integers(0, 22)), st.just(NeverBust()), st.just(AlwaysStand())
)


@needs_compiled_simulator
@settings(max_examples=10, deadline=None)
@given(
    table_rules,
    sim_strategies,
    st.integers(1, 4),
    st.sampled_from([None, 0.3, 0.75, 1.0]),
    st.integers(300, 2000),
    st.integers(0, 2**32),
)
def test_the_simulators_kernels_deal_the_same_rounds(
    rules: Rules,
    strategy: Strategy,
    seats: int,
    penetration: float | None,
    chunk_rounds: int,
    seed: int,
) -> None:
    """Every count and every float sum alike, over rules, strategies, seats and shoes (or
    the same error, where a round uses every card of a small shoe)."""

    def deal() -> SimulationResult | str:
        try:
            return simulate(
                rules,
                strategy,
                2000,
                seed=seed,
                seats=seats,
                penetration=penetration,
                chunk_rounds=chunk_rounds,
            )
        except ShoeError as error:
            return str(error)

    slow, fast = dealt_both(deal)
    if isinstance(slow, SimulationResult) and isinstance(fast, SimulationResult):
        assert slow.joint == fast.joint
        assert slow.squares == fast.squares
    assert slow == fast


@needs_compiled_simulator
@pytest.mark.parametrize("penetration", [0.5, 1.0])
def test_the_simulators_kernels_count_the_same_rounds(penetration: float) -> None:
    counter = Counter("hi-lo", SYSTEMS["hi-lo"], (1, 8), wong_out=-1.0)
    rules = Rules(decks=2)
    strategy = TableStrategy.of(StandOn(17))
    slow, fast = dealt_both(
        lambda: simulate(
            rules, strategy, 20_000, seed=7, penetration=penetration, seats=2, counter=counter
        )
    )
    assert slow.counter is not None and slow.counter.rounds_by_bet[1:] != (0,) * 8
    assert slow == fast


#: Every chart cell an index play may name, by own cards: (soft, total).
CELLS = [(False, total) for total in range(4, 21)] + [(True, total) for total in range(12, 21)]
index_rules = st.lists(
    st.builds(
        IndexRule,
        st.just(False),
        st.integers(4, 20),
        st.integers(1, 10),
        st.one_of(st.sampled_from([-2.0, -1.0, 0.0, 0.5, 1.0, 3.0]), st.floats(-6, 6)),
        st.booleans(),
        st.booleans(),
    ).map(lambda r: replace(r, soft=r.total >= 12 and r.index > 0)),
    min_size=1,
    max_size=30,
    unique_by=lambda r: (r.soft, r.total, r.bonus),
)


@needs_compiled_simulator
@settings(max_examples=8, deadline=None)
@given(
    index_rules,
    st.sampled_from(["hi-lo", "ko", "omega-ii"]),
    st.integers(1, 3),
    st.sampled_from([0.5, 0.75, 1.0]),
    st.integers(0, 2**32),
)
def test_the_simulators_kernels_make_the_same_index_plays(
    rules: list[IndexRule], system: str, seats: int, penetration: float, seed: int
) -> None:
    """Seat 1's index plays, read against its true count (an unbalanced count's too), fire
    alike on both twins: every count and every float sum the same."""
    counter = Counter(system, SYSTEMS[system], (1, 8), indices=tuple(rules))
    strategy = TableStrategy.of(StandOn(17))
    slow, fast = dealt_both(
        lambda: simulate(
            Rules(decks=2),
            strategy,
            6000,
            seed=seed,
            penetration=penetration,
            seats=seats,
            counter=counter,
            chunk_rounds=2000,
        )
    )
    assert slow.joint == fast.joint and slow.squares == fast.squares
    assert slow == fast


@needs_compiled_simulator
@pytest.mark.parametrize(("system", "at_least"), [("hi-lo", True), ("hi-lo", False), ("ko", True)])
def test_index_plays_at_a_true_count_reached_exactly_fire_alike_on_both_kernels(
    system: str, at_least: bool
) -> None:
    """Hi-Lo's true count is often exactly 0 or a whole number: a play at that index
    fires on both twins (``>=`` and ``<=`` both include it); KO's is read less its drift."""
    indices = tuple(
        IndexRule(False, total, bonus, float(total % 2), at_least, total < 14)
        for total in range(12, 17)
        for bonus in range(1, 11)
    )
    counter = Counter(system, SYSTEMS[system], (1, 8), indices=indices)
    strategy = TableStrategy.of(StandOn(15))
    slow, fast = dealt_both(
        lambda: simulate(Rules(decks=1), strategy, 6000, seed=3, counter=counter)
    )
    assert slow == fast


@dataclass(frozen=True)
class Spelled:
    """``base`` but for the chart cells (soft, total, Bonus value) ``plays`` names: the
    play an index rule that always fires makes, as a strategy of its own."""

    base: Strategy
    plays: dict[tuple[bool, int, int], bool]
    name = "spelled"

    def hits(self, bonus: int, hand: ValueCounts) -> bool:
        hard = sum(value * n for value, n in enumerate(hand, start=1))
        soft = hand[0] > 0 and hard + 10 <= 21
        cell = (soft, hard + 10 if soft else hard, bonus)
        return self.plays[cell] if cell in self.plays else self.base.hits(bonus, hand)


@needs_compiled_simulator
@settings(max_examples=6, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(CELLS), st.integers(1, 10), st.booleans(), st.booleans()),
        min_size=1,
        max_size=60,
        unique_by=lambda play: (play[0], play[1]),
    ),
    sim_strategies,
    st.integers(0, 2**32),
)
def test_index_plays_that_always_fire_are_the_strategy_they_spell_on_both_kernels(
    plays: list[tuple[tuple[bool, int], int, bool, bool]], base: Strategy, seed: int
) -> None:
    """The dumb twin of the index plays: a rule whose true count is always reached plays
    as a strategy that makes its play in its cell, one never reached as the base strategy,
    dealt from the same cards (the index plays reach each twin, and only seat 1's hits)."""
    indices = tuple(
        IndexRule(soft, total, bonus, -1e6 if fires else 1e6, True, hit)
        for (soft, total), bonus, hit, fires in plays
    )
    spelled = Spelled(base, {(*cell, b): hit for cell, b, hit, fires in plays if fires})
    plain = Counter("ko", SYSTEMS["ko"], (1, 4))
    indexed = replace(plain, indices=indices)
    for name in ("numpy", "compiled"):
        kernel.use(name)
        by_index, by_strategy = (
            simulate(Rules(decks=1), strategy, 4000, seed=seed, counter=counter)
            for strategy, counter in ((base, indexed), (spelled, plain))
        )
        assert by_index.joint == by_strategy.joint, name
        assert by_index.squares == by_strategy.squares, name
        assert by_index.counter is not None and by_strategy.counter is not None
        assert by_index.counter.unit_net == by_strategy.counter.unit_net, name


#: One 1-deck shoe's cards, a table of one seat standing on 17 at it, and its pays.
DECK = shoe_codes(Shoe.full(1))
ONE_SEAT = Table.make(Rules(decks=1), StandOn(17), DECK, 1, None)
PAYS = (np.array([1.5, 1.0, 0.0, -1.0]), np.array([10.0, 3.0, 1.0, -1.0]), 0.5)


def deal_four(shoes: Shoes, first: IndexPlays | None = None) -> None:
    """Four rounds on two lanes of ``shoes`` at :data:`ONE_SEAT`, by the chosen twin."""
    joint = np.zeros((1, 4, 4), dtype=np.int64)
    rng = np.random.default_rng(0)
    for _ in sim_kernel.play_rounds(ONE_SEAT, shoes, rng, 2, 4, PAYS, joint, False, first):
        pass


@needs_compiled_simulator
def test_the_compiled_deal_refuses_index_plays_out_of_range_or_without_a_count() -> None:
    kernel.use("compiled")
    counter = Counter(
        "hi-lo", SYSTEMS["hi-lo"], indices=(IndexRule(False, 16, 10, 0.0, True, False),)
    )
    first = index_plays(counter)
    assert first is not None
    deal_four(Shoes(DECK, 2, None, None, tag_of_code(counter)), first)  # a valid call
    bad = first._replace(rule=np.where(first.rule >= 0, 1, first.rule))  # rule 1 of 1
    with pytest.raises(ValueError, match="out of range"):
        deal_four(Shoes(DECK, 2, None, None, tag_of_code(counter)), bad)
    for name in ("compiled", "numpy"):  # either twin: true counts need the count kept
        kernel.use(name)
        with pytest.raises(ValueError, match="need the count kept"):
            deal_four(Shoes(DECK, 2, None, None), first)


@needs_compiled_simulator
def test_a_round_that_uses_every_card_is_the_same_error_on_both_kernels() -> None:
    keep = [c for c in physical_cards(Shoe.full(1)) if c.rank.order in (1, 2, 3)]  # 2s to 4s
    removed = [c for c in physical_cards(Shoe.full(1)) if c not in keep]
    for name in ("numpy", "compiled"):
        kernel.use(name)
        with pytest.raises(ShoeError, match="used all 12 cards"):
            simulate(Rules(decks=1), StandOn(22), 50, seed=1, removed=removed, seats=3)


@needs_compiled_simulator
def test_rules_the_kernel_does_not_know_are_dealt_by_numpy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rule outside KNOWN_RULES (as a new one is, until the kernels learn it) at a value
    other than its default goes to the numpy twin, the rule text's own round; at its
    default the chosen twin deals."""
    kernel.use("compiled")
    calls: list[str] = []

    def spy(twin: ModuleType) -> Callable[..., Any]:
        real = twin.play

        def play(*args: Any) -> Any:
            calls.append(twin.__name__)
            return real(*args)

        return play

    assert sim_kernel.COMPILED is not None
    monkeypatch.setattr(sim_kernel, "play", spy(sim_kernel.COMPILED))
    monkeypatch.setattr(_deal_numpy, "play", spy(_deal_numpy))
    monkeypatch.setattr(
        sim_kernel, "KNOWN_RULES", tuple(r for r in sim_kernel.KNOWN_RULES if r != "decks")
    )
    unknown, known = Rules(decks=2), Rules()
    assert not sim_kernel.knows(unknown) and sim_kernel.knows(known)
    simulate(unknown, StandOn(17), 2000, seed=5)
    assert set(calls) == {"solver.sim._deal_numpy"}
    calls.clear()
    simulate(known, StandOn(17), 2000, seed=5)
    assert set(calls) == {"solver.sim._deal"}


def test_a_required_simulator_kernel_that_is_missing_is_an_error() -> None:
    without = "import sys; sys.modules['solver.sim._deal'] = None; "
    shown = run_python(
        without + "from solver.sim import kernel; print(kernel.current())",
        CBJ_KERNEL="compiled",
        CBJ_REQUIRE_COMPILED="",
    )
    assert shown.stdout.strip() == "numpy", shown.stderr
    failed = run_python(without + "import solver.sim.kernel", CBJ_REQUIRE_COMPILED="1")
    assert failed.returncode != 0
    assert "simulator's compiled kernel is not built" in failed.stderr


@needs_compiled_simulator
def test_the_compiled_deal_refuses_a_card_or_table_out_of_range() -> None:
    kernel.use("compiled")
    deal_four(Shoes(DECK, 2, None, None))  # a valid call
    bad = Shoes(DECK, 2, None, None)
    bad.rows[3] = 52
    with pytest.raises(ValueError, match="card code is out of range"):
        for _ in range(20):
            deal_four(bad)
    bad = Shoes(DECK, 2, None, None)
    bad.next[1] = len(DECK) + 1
    with pytest.raises(ValueError, match="out of range"):
        deal_four(bad)


# ---------------------------------------------------------------------------------------
# The twins: the same functions and signatures, chosen in one place, asked by no caller
# ---------------------------------------------------------------------------------------

#: Each side's twins, by module name: the numpy twin and the compiled one.
TWINS = (
    ("solver.exact._numpy", "solver.exact._native"),
    ("solver.sim._deal_numpy", "solver.sim._deal"),
)


def surface(module: ModuleType) -> dict[str, str]:
    """A module's public names (its ``__all__`` where it has one), each with its parameters'
    names and kinds (no annotations)."""
    found = {}
    listed = getattr(module, "__all__", None)
    for name in listed or dir(module):
        if name.startswith("_"):
            continue
        value = getattr(module, name)
        ours = listed or getattr(value, "__module__", None) in (module.__name__, None)
        if callable(value) and ours:
            parameters = inspect.signature(value).parameters.values()
            found[name] = ", ".join(f"{p.name}:{p.kind.name}" for p in parameters)
        elif isinstance(value, int):
            found[name] = "int"
    return found


def twin_differences(numpy_twin: ModuleType, compiled: ModuleType) -> list[str]:
    """What one twin has and the other lacks or declares otherwise (empty: drop-in twins)."""
    ours, theirs = surface(numpy_twin), surface(compiled)
    listed = set(numpy_twin.__all__)
    problems = [f"{n} only in {numpy_twin.__name__}" for n in sorted(listed - set(theirs))]
    problems += [f"{n} only in {compiled.__name__}" for n in sorted(set(theirs) - listed)]
    problems += [
        f"{n}: {ours[n]} != {theirs[n]}"
        for n in sorted(listed & set(theirs))
        if ours[n] != theirs[n]
    ]
    return problems


@pytest.mark.parametrize(("twin", "compiled"), TWINS)
def test_each_compiled_kernel_and_its_numpy_twin_have_the_same_functions(
    twin: str, compiled: str
) -> None:
    try:
        built = importlib.import_module(compiled)
    except ImportError:
        if os.environ.get("CBJ_REQUIRE_COMPILED"):
            raise
        pytest.skip("the compiled kernel is not built (no C compiler at install)")
    assert twin_differences(importlib.import_module(twin), built) == []


def test_a_function_in_one_twin_only_or_declared_otherwise_is_found() -> None:
    def fold(out: Any, ways: Any, /) -> None: ...
    def extra(a: Any, /) -> None: ...
    def fold_keyword(out: Any, ways: Any) -> None: ...

    numpy_twin, compiled = ModuleType("numpy_twin"), ModuleType("compiled_twin")
    numpy_twin.__all__ = ["fold", "extra"]  # type: ignore[attr-defined]
    for module, functions in ((numpy_twin, (fold, extra)), (compiled, (fold_keyword,))):
        for function in functions:
            function.__module__ = module.__name__
            setattr(module, function.__name__.removesuffix("_keyword"), function)
    assert twin_differences(numpy_twin, compiled) == [
        "extra only in numpy_twin",
        "fold: out:POSITIONAL_ONLY, ways:POSITIONAL_ONLY != "
        "out:POSITIONAL_OR_KEYWORD, ways:POSITIONAL_OR_KEYWORD",
    ]
    compiled.STEPS = 1  # type: ignore[attr-defined]
    assert "STEPS only in compiled_twin" in twin_differences(numpy_twin, compiled)


#: The modules that choose a twin; the twins themselves.  Nothing else may name a compiled
#: twin or ask which kernel runs in order to branch on it.
SELECTION = {"solver/model/kernels.py", "solver/exact/kernel.py", "solver/sim/kernel.py"}
TWIN_FILES = {"solver/exact/_numpy.py", "solver/sim/_deal_numpy.py"}
#: What asks which twin runs: a compiled module, the kernels' state or a twin's flag.
ASKING = {"_native", "_deal", "COMPILED", "available", "current", "native", "requested"}
ASKING |= {"STEPS_PCG64", "KERNELS", "compiled", "twin"}
KERNEL_WORDS = {"compiled", "numpy"}


def kernel_branches(source: str) -> list[str]:
    """Where ``source`` names a compiled twin, or branches on which kernel runs."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom | ast.Import):
            named = [getattr(node, "module", None) or ""] + [alias.name for alias in node.names]
            if any(n.rsplit(".", 1)[-1] in {"_native", "_deal"} for n in named):
                found.append(f"line {node.lineno}: imports a compiled twin")
        elif isinstance(node, ast.Constant) and node.value in (
            "solver.exact._native",
            "solver.sim._deal",
        ):
            found.append(f"line {node.lineno}: names a compiled twin")
        tests = []
        if isinstance(node, ast.If | ast.IfExp | ast.While | ast.Assert):
            tests.append(node.test)
        elif isinstance(node, ast.match_case) and node.guard is not None:
            tests.append(node.guard)
        elif isinstance(node, ast.Match):
            tests.append(node.subject)
        found += [f"line {t.lineno}: branches on the kernel" for t in tests if asks(t)]
    return found


def asks(test: ast.expr) -> bool:
    """Whether a condition reads which kernel runs (a name of :data:`ASKING`, or a kernel's
    name as a string)."""
    for inner in ast.walk(test):
        name = inner.attr if isinstance(inner, ast.Attribute) else getattr(inner, "id", "")
        if name in ASKING or (isinstance(inner, ast.Constant) and inner.value in KERNEL_WORDS):
            return True
    return False


def test_no_caller_names_a_compiled_twin_or_branches_on_the_kernel() -> None:
    root = Path(__file__).resolve().parent.parent
    found = {}
    for path in sorted((root / "solver").rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if relative in SELECTION | TWIN_FILES:
            continue
        problems = kernel_branches(path.read_text())
        if problems:
            found[relative] = problems
    assert found == {}


@pytest.mark.parametrize(
    "planted",
    [
        "from solver.exact import _native",
        "import solver.sim._deal",
        "module = importlib.import_module('solver.exact._native')",
        "if kernel.current() == 'compiled':\n    pass",
        "x = fast if kernel.COMPILED is not None else slow",
        "while sim_kernel.available():\n    break",
        "if os.environ.get('CBJ_KERNEL') == 'numpy':\n    pass",
        "pcg = words if sim_kernel.STEPS_PCG64 else None",
        "compiled = kernel.native()\nif compiled is not None:\n    pass",
    ],
)
def test_the_branch_scan_finds_a_planted_branch(planted: str) -> None:
    assert kernel_branches(planted) != []
    assert kernel_branches("kernel.fold(out, ways, steps, table, final, 0)") == []
