"""The shoe-states study (``cbj shoe-states``, the report's game protection) keeps its memory
flat in the number of samples (issue 27): lazy tasks, and running summaries past
:data:`~solver.exact.shoe_states.KEPT_STATES` states a depth, held to a twin that keeps
every state.  ``benchmarks/bench_memory.py`` measures the peak memory up to 10^7 samples.
"""

from __future__ import annotations

import tracemalloc
from typing import Any

import numpy as np
import pytest

from solver.exact import shoe_states
from solver.exact.protection import RoundEffects
from solver.exact.shoe_states import KEPT_STATES, DepthSums, chunks, depth_states, study_shoe_states
from solver.model.counts import system_tags
from solver.model.rules import Rules


def rows(seed: int, count: int) -> np.ndarray[Any, np.dtype[np.float64]]:
    """State figures like a study's: a true count, a main EV, a round EV and its estimate."""
    generator = np.random.default_rng(seed)
    counts = generator.normal(0, 2, count)
    main = -0.05 + counts / 200 + generator.normal(0, 0.01, count)
    return np.column_stack(
        [counts, main, main + 0.1, main + 0.1 + generator.normal(0, 1e-3, count)]
    )


def test_running_sums_agree_with_every_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the states kept, every figure but the percentiles matches all the states'."""
    monkeypatch.setattr(shoe_states, "KEPT_STATES", 300)
    parts = [rows(seed, size) for seed, size in enumerate([250, 1, 250, 99, 250, 400])]
    sums = DepthSums()
    for part in parts:
        sums.add(part)
    assert sums.kept_count == 300 and sum(len(k) for k in sums.kept) == 300
    streamed = sums.summary(0.5, 156, 156)
    every = np.concatenate(parts)
    whole = depth_states(0.5, 156, 156, every)
    first = depth_states(0.5, 156, 156, every[:300])
    for got, want, kept in (
        (streamed.round, whole.round, first.round),
        (streamed.main, whole.main, first.main),
        (streamed.true_count, whole.true_count, first.true_count),
    ):
        assert got.mean == pytest.approx(want.mean, rel=1e-12, abs=1e-15)
        assert got.standard_deviation == pytest.approx(want.standard_deviation, rel=1e-9)
        assert got.positive_share == want.positive_share
        assert got.percentiles == kept.percentiles  # from the states kept
    for name in ("slope", "intercept", "r_squared"):
        assert getattr(streamed.fit, name) == pytest.approx(getattr(whole.fit, name), rel=1e-9)
    check, twin = streamed.eor_prediction, whole.eor_prediction
    assert check.mean_absolute_error == pytest.approx(twin.mean_absolute_error, rel=1e-12)
    assert check.max_error == twin.max_error
    assert check.r_squared == pytest.approx(twin.r_squared, rel=1e-9)


def test_up_to_the_states_kept_the_summary_is_every_states() -> None:
    """The figures of every study up to ``KEPT_STATES`` a depth are as they always were."""
    parts = [rows(seed, 250) for seed in range(4)]
    sums = DepthSums()
    for part in parts:
        sums.add(part)
    assert sums.count <= KEPT_STATES
    assert sums.summary(0.25, 78, 234) == depth_states(0.25, 78, 234, np.concatenate(parts))


def test_the_tasks_are_made_when_asked_for() -> None:
    tasks = chunks([10, 20], 10**9)  # the documented maximum: 20,000 tasks, none made yet
    assert len(tasks) == 20_000 and tasks[0] == (0, 10, 0, 100_000)
    assert tasks[-1] == (1, 20, 10**9 - 100_000, 10**9) and tasks[10_000][:3] == (1, 20, 0)
    assert list(chunks([10], 5)) == chunks([10], 5)[:] == [(0, 10, i, i + 1) for i in range(5)]


def stand_in(plan: object, depth_index: int, sample: int, dealt: int) -> tuple[float, ...]:
    """A state's figures without solving it, fixed by its place."""
    mixed = (sample * 2_654_435_761 + depth_index * 40_503) % 1_000_003
    return (mixed / 1e5 - 5, mixed / 1e7, mixed / 1e7 + 0.1, mixed / 1e7 + 0.1001)


def peak_bytes(samples: int) -> int:
    """Peak Python allocations of a study of ``samples`` stand-in states at one depth."""
    effects = RoundEffects(Rules(decks=1), -0.01, -0.05, {})
    tracemalloc.start()
    try:
        study_shoe_states(effects, [0.5], samples, 7, "hi-lo", system_tags("hi-lo"))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten times the states, about the same peak (it grew by 32 bytes a state and more)."""
    monkeypatch.setattr(shoe_states, "solve_state", stand_in)
    monkeypatch.setattr(shoe_states, "KEPT_STATES", 500)
    peak_bytes(100)  # the first study loads what every later one reuses
    small, large = peak_bytes(1_000), peak_bytes(10_000)
    assert large < 1.5 * small + 50_000, (small, large)
