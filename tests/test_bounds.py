"""Bounded resources: simulator memory independent of rounds, capped worker counts."""

from __future__ import annotations

import tracemalloc
from typing import Any

import joblib
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.model.cards import Shoe
from solver.model.checks import MAX_ROUNDS
from solver.model.errors import CbjError, SimulationError
from solver.model.parallel import available_cores, effective_jobs
from solver.model.rules import Rules
from solver.sim import run
from solver.sim.deal import Table, shoe_codes
from solver.sim.strategies import parse_strategy

STAND_17 = parse_strategy("stand-on:17")


@given(st.integers(0, 2**128), st.integers(1, 40), st.integers(1, 7))
def test_the_chunk_plan_matches_spawn(entropy: int, n: int, chunk: int) -> None:
    for root in (np.random.SeedSequence(entropy), np.random.SeedSequence(entropy).spawn(3)[2]):
        twin = np.random.SeedSequence(root.entropy, spawn_key=root.spawn_key)
        children = twin.spawn(len(run.ChunkPlan(n, chunk, root)))
        plan = run.ChunkPlan(n, chunk, root)
        assert sum(size for size, _ in plan) == n
        for a, (_, b) in zip(children, plan, strict=True):
            assert a.spawn_key == b.spawn_key
            assert (a.generate_state(4) == b.generate_state(4)).all()


def test_simulation_is_the_sum_of_chunks_seeded_by_spawn() -> None:
    """The dumb twin: chunks dealt with ``root.spawn`` seeds, summed by hand."""
    result = run.simulate(Rules(), STAND_17, 2_500, seed=11, chunk_rounds=1_000, penetration=None)
    root = np.random.SeedSequence(11)
    table = Table.make(Rules(), STAND_17, shoe_codes(Shoe.full(6)), 1, None)
    joint = sum(
        run._run_chunk(table, n, s).joint
        for n, s in zip((1_000, 1_000, 500), root.spawn(3), strict=True)
    )
    assert np.array_equal(np.array(result.joint), joint)


class Enough(Exception):
    """Stops a long simulation from its progress callback."""


def test_memory_does_not_grow_with_the_number_of_rounds() -> None:
    """Ten million chunks planned; the old eager seeding needed gigabytes before dealing."""
    done = []

    def stop_after_three(rounds: int) -> None:
        done.append(rounds)
        if len(done) == 3:
            raise Enough

    tracemalloc.start()
    try:
        with pytest.raises(Enough):
            run.simulate(
                Rules(),
                STAND_17,
                MAX_ROUNDS,
                seed=1,
                chunk_rounds=10_000,
                penetration=None,
                progress=stop_after_three,
            )
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 30 * 1024 * 1024


def test_rounds_over_the_documented_maximum_are_refused() -> None:
    with pytest.raises(SimulationError, match="invalid: give 1 to") as error:
        run.simulate(Rules(), STAND_17, MAX_ROUNDS + 1)
    assert "\n" not in str(error.value)
    assert "MAX_ROUNDS" in (run.simulate.__doc__ or "")


@given(st.integers(1, 10**6) | st.just(-1), st.integers(0, 10**6), st.integers(1, 256))
def test_workers_never_exceed_tasks_or_cores(jobs: int, tasks: int, cores: int) -> None:
    workers = effective_jobs(jobs, tasks, cores)
    assert 1 <= workers <= max(1, min(tasks, cores))
    if jobs > 0:
        assert workers <= jobs


@pytest.mark.parametrize("jobs", [0, -2, True, 1.5])
def test_a_meaningless_worker_count_is_refused(jobs: Any) -> None:
    with pytest.raises(CbjError, match="jobs"):
        effective_jobs(jobs, 4)


def test_a_thousand_jobs_start_no_more_workers_than_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []
    real = joblib.Parallel

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self, n_jobs: int, **kwargs: Any) -> None:
            started.append(n_jobs)
            super().__init__(n_jobs=n_jobs, backend="threading", **kwargs)

    monkeypatch.setattr(joblib, "Parallel", Recording)
    result = run.simulate(
        Rules(), STAND_17, 3_000, seed=3, chunk_rounds=1_000, penetration=None, jobs=1000
    )
    assert started and max(started) <= min(3, available_cores())
    serial = run.simulate(Rules(), STAND_17, 3_000, seed=3, chunk_rounds=1_000, penetration=None)
    assert result == serial
