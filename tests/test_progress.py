"""``progress=True``: every command a person waits on draws a tqdm bar on stderr (the
notebook's widget under Jupyter: tests/test_site.py runs one in a kernel)."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pytest

import solver
from solver.api.progress import StepBar, step_progress
from solver.api.table import COMMANDS_BY_FUNCTION


def waiting_commands() -> dict[str, Callable[..., object]]:
    """The public functions that take a ``progress`` callback."""
    return {
        name: getattr(solver, name)
        for name in solver.__all__
        if inspect.isfunction(getattr(solver, name))
        and "progress" in inspect.signature(getattr(solver, name)).parameters
    }


def test_every_command_with_a_progress_callback_takes_true_for_a_bar() -> None:
    found = waiting_commands()
    assert {"solve", "strategies", "report", "session", "simulate", "variants"} <= set(found)
    for name, function in found.items():
        hint = inspect.signature(function).parameters["progress"].annotation
        assert "bool" in hint and "None" in hint, name
        (param,) = (p for p in COMMANDS_BY_FUNCTION[name].params if p.name == "progress")
        assert param.read(True) is True and param.read(None) is None, name


def test_a_solve_with_progress_true_draws_a_bar_on_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = solver.solve(decks=1, progress=True, cache=solver.MemoryCache())
    out, err = capsys.readouterr()
    assert out == ""  # the result pipes: the bar is on stderr
    assert "solving Bonus cards" in err and "10/10" in err
    assert game == solver.solve(decks=1, cache=solver.MemoryCache())


def test_a_simulation_with_progress_true_counts_its_rounds(
    capsys: pytest.CaptureFixture[str], games: solver.MemoryCache
) -> None:
    solver.simulate(rounds=3_000, seed=1, progress=True, cache=games)
    err = capsys.readouterr().err
    assert "dealing" in err and "3000/3000" in err


def test_false_and_none_draw_nothing_and_a_callback_is_the_callers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    calls: list[tuple[int, int]] = []
    solver.solve(decks=1, progress=False, cache=solver.MemoryCache())
    solver.solve(decks=1, progress=lambda done, total: calls.append((done, total)))
    assert capsys.readouterr().err == ""
    assert calls[-1] == (10, 10)
    assert step_progress(None, "x") is None and step_progress(False, "x") is None


def test_a_bar_follows_the_steps_and_closes_at_the_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    steps = StepBar("steps")
    for done in (1, 3, 4):
        steps(done, 4)
    assert steps.bar.n == 4
    assert "4/4" in capsys.readouterr().err


def test_a_bad_progress_is_a_type_error_naming_it() -> None:
    with pytest.raises(TypeError, match="progress must be"):
        solver.solve(decks=1, progress="yes")  # type: ignore[call-overload]
