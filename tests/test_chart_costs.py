"""``solver.chart_costs`` (``cbj chart --costs``) through its own function, against other
commands: its chart is ``solver.chart``'s, no cell of the best chart gains by being played
the other way, a cell play never reaches costs nothing, and a cell's cost is what
``solver.chart_check`` finds the chart with that cell flipped gives up."""

from __future__ import annotations

from pathlib import Path

import solver
from solver.model.cells import Action
from tests.conftest import GAMES
from tests.test_chart_check import Key, written


def test_its_chart_is_the_chart_command_s_and_no_flip_gains() -> None:
    costs = solver.chart_costs(cache=GAMES)
    assert costs.chart == solver.chart(cache=GAMES)
    # every cell but a lone ace against a ten, a blackjack paid at once
    assert set(costs.chart.actions) - set(costs.cells) == {((True, 11), 10)}
    assert set(costs.cells) < set(costs.chart.actions)
    for key, cell in costs.cells.items():
        assert (cell.cell, cell.bonus) == key
        assert cell.action is costs.chart.actions[key] and cell.other is not cell.action
        assert {cell.action, cell.other} == {Action.HIT, Action.STAND}
        assert cell.cost >= 0, key
        if not costs.frequencies.get(key):
            assert cell.cost == 0, key  # a cell play never reaches costs nothing
    assert sum(1 for c in costs.cells.values() if c.cost > 0) > 50


def test_a_cell_s_cost_is_what_the_chart_flipped_there_gives_up(tmp_path: Path) -> None:
    costs = solver.chart_costs(cache=GAMES)
    reached = sorted((k for k, c in costs.cells.items() if c.cost > 0), key=str)
    keys: list[Key] = [reached[0], reached[len(reached) // 2], reached[-1]]
    for n, key in enumerate(keys):
        path = written(tmp_path / f"flip{n}.csv", costs.chart, key)
        check = solver.chart_check(file=path, cache=GAMES)
        assert check.expected_value == costs.chart.expected_value - costs.cells[key].cost, key
        assert [(d.cell, d.bonus) for d in check.differences] == [key]
