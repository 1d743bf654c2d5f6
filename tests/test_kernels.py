"""The compiled kernels against their numpy twins, and how the kernel is chosen.

Tolerance: none.  The compiled fold adds its products in numpy's order and is built with
``-ffp-contract=off``, so float results are the same bits on both paths, and exact
results (residues, then fractions) are the same integers.  The comparisons that need the
extension skip where it is not built, unless ``CBJ_REQUIRE_COMPILED`` is set (CI), where
its absence fails them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import TypeVar

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.exact import kernel
from solver.exact.dealer import dealer_probabilities, dealer_residues
from solver.exact.modular import moduli
from solver.exact.player import solve_exact, solve_float
from solver.exact.player_hands import hand_space
from solver.model.cards import Shoe
from solver.model.rules import DealerNatural, Rules

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


def test_numpy_is_chosen_by_name_and_runs_without_the_extension() -> None:
    assert kernel.use("numpy") == "numpy"
    assert kernel.native() is None
    assert os.environ["CBJ_KERNEL"] == "numpy"  # for the worker processes started later
    shoes = SIX_DECKS[None, :]
    assert dealer_probabilities(Rules(), 10, shoes).sum() == pytest.approx(1.0)


@needs_compiled
def test_compiled_is_chosen_by_name() -> None:
    assert kernel.use("compiled") == "compiled"
    assert kernel.native() is not None


def test_an_unknown_kernel_is_an_error() -> None:
    with pytest.raises(kernel.KernelError, match="unknown kernel"):
        kernel.use("fortran")


@needs_compiled
def test_the_compiled_fold_refuses_an_index_out_of_range() -> None:
    kernel.use("compiled")
    module = kernel.native()
    assert module is not None
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
    assert "kernel: numpy" in shown.stdout
    fallback = run_python(
        WITHOUT_EXTENSION + "from solver.cli import main; main(['--version'])",
        CBJ_KERNEL="compiled",
        CBJ_REQUIRE_COMPILED="",
    )
    assert "kernel: numpy" in fallback.stdout


@needs_compiled
def test_cbj_version_names_the_compiled_kernel() -> None:
    shown = run_python("from solver.cli import main; main(['--version'])", CBJ_KERNEL="")
    assert "kernel: compiled" in shown.stdout, shown.stderr


def test_a_required_compiled_kernel_that_is_missing_is_an_error() -> None:
    failed = run_python(WITHOUT_EXTENSION + "import solver.exact.kernel", CBJ_REQUIRE_COMPILED="1")
    assert failed.returncode != 0
    assert "CBJ_REQUIRE_COMPILED" in failed.stderr
