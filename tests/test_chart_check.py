"""``solver.chart_check`` (``cbj chart --check``) through its own function, against other
commands: the best chart's own file prices at ``solver.chart``'s EV with nothing to list,
perfect play's EV is ``solver.solve``'s, an edited chart's EV is what ``solver.strategies``
(the policy evaluator) gives it, and cells under different Bonus cards cost what
``solver.chart_costs`` says, added (no round meets both)."""

from __future__ import annotations

from pathlib import Path

import pytest

import solver
from solver.model.cards import VALUES
from solver.model.cells import ROWS, Action, Cell, cell_name
from solver.model.errors import CbjError
from solver.present.charts import to_csv
from solver.results.charts import Chart
from tests.conftest import GAMES

Key = tuple[Cell, int]


def written(path: Path, chart: Chart, *flips: Key) -> Path:
    """The chart as a CSV file, each cell of ``flips`` played the other way."""
    actions = {(cell, b): chart.action(cell, b) for cell in ROWS for b in VALUES}
    for key in flips:
        actions[key] = Action.STAND if actions[key] is Action.HIT else Action.HIT
    lines = ["hand,A,2,3,4,5,6,7,8,9,10"]
    lines += [",".join([cell_name(c), *(actions[(c, b)].value for b in VALUES)]) for c in ROWS]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_best_chart_s_own_file_prices_at_its_ev_with_no_cell_to_list(tmp_path: Path) -> None:
    best = solver.chart(cache=GAMES)
    path = tmp_path / "best.csv"
    path.write_text(to_csv(best))
    check = solver.chart_check(file=path, cache=GAMES)
    assert check.differences == ()
    assert check.expected_value == check.best_expected_value == best.expected_value
    assert check.optimal_expected_value == solver.solve(exact=True, cache=GAMES).expected_value
    assert check.cost_against_best == 0
    assert check.cost_against_optimal == check.optimal_expected_value - best.expected_value > 0


def test_cells_under_two_bonus_cards_cost_their_two_costs_added(tmp_path: Path) -> None:
    """Hard 16 against a 10 and hard 12 against a 4: no round holds both Bonus cards, so
    the edited chart gives up each cell's own cost and no more."""
    costs = solver.chart_costs(cache=GAMES)
    flips: list[Key] = [((False, 16), 10), ((False, 12), 4)]
    path = written(tmp_path / "mine.csv", costs.chart, *flips)
    check = solver.chart_check(file=path, cache=GAMES)
    assert {(d.cell, d.bonus): d.cost for d in check.differences} == {
        k: costs.cells[k].cost for k in flips
    }
    given_up = sum(costs.cells[k].cost for k in flips)
    assert given_up > 0 and check.cost_against_best == given_up
    evaluated = solver.strategies(names=[f"chart:{path}"], bonus_ratios="1/2", cache=GAMES)
    [policy] = evaluated.policies
    assert check.expected_value == policy.main_ev == costs.chart.expected_value - given_up


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("hand,A\nhard 16,H\n", "line 1: the header 'hand,A' is not hand,A,2"),
        ("hand,A,2,3,4,5,6,7,8,9,10\nhard 16" + ",H" * 9 + ",Q\n", "hard 16 v 10 is 'Q'"),
        ("", "has no rows"),
    ],
)
def test_a_chart_file_that_is_no_chart_is_refused(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(CbjError, match=said):
        solver.chart_check(file=path, cache=GAMES)
