"""The drills that teach: close calls, the costliest plausible mistakes, and the player's own
mistakes on a spaced schedule; each against a twin computed here from the chart's costs
and concrete hands (issue 47).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

import solver
from solver.model.cells import Action, Cell, cell_of
from solver.model.hands import best_total, hand_of
from solver.results.charts import ChartCosts
from solver.results.practice import Drill, PracticeState
from solver.results.practice_history import PracticeHistory
from solver.results.practice_state import PracticeTurn
from solver.results.practice_stats import GAPS
from solver.studies.practice import (
    CLOSE_CALL,
    close_call_weights,
    drill_weights,
    plausible_weights,
    player_view,
)
from tests.conftest import GAMES
from tests.test_practice import _dealt_positions

MEMORY = GAMES
SEED = 47
Target = tuple[Cell, int]


@pytest.fixture(scope="module")
def costs() -> ChartCosts:
    """The printed chart's costs and cell frequencies under the default rules."""
    return solver.chart_costs(cache=MEMORY)


def _hand(cell: Cell) -> tuple[int, ...]:
    """A concrete hand of own cards (values) in ``cell``: a soft total holds an ace."""
    soft, total = cell
    rest = total - 11 if soft else total
    cards = [1] if soft else []
    while rest > 0:
        cards.append(min(rest, 10) if rest != 11 else 9)
        rest -= cards[-1]
    return hand_of(cards)


def _twin_view(target: Target) -> tuple[bool, int]:
    """What the player sees, from a concrete hand of the cell through the model's totals."""
    cell, bonus = target
    return cell[0], best_total(_hand(cell), bonus)


def _plays_by_view(costs: ChartCosts) -> dict[tuple[bool, int], set[Action]]:
    plays: dict[tuple[bool, int], set[Action]] = {}
    for target in costs.frequencies:
        plays.setdefault(_twin_view(target), set()).add(costs.chart.action(*target))
    return plays


def _dealt(costs: ChartCosts, drill: Drill, rounds: int, seed: int = SEED) -> list[Any]:
    """The cell and Bonus card of each round's first decision, dealt by ``drill``."""
    return _dealt_positions(costs, drill, rounds, seed)


def test_what_the_player_sees_is_the_model_s_best_total_of_a_hand_of_the_cell(
    costs: ChartCosts,
) -> None:
    for target in costs.frequencies:
        assert cell_of(_hand(target[0])) == target[0]
        assert player_view(target) == _twin_view(target), target


def test_close_calls_deal_only_cells_whose_plays_are_nearly_worth_the_same(
    costs: ChartCosts,
) -> None:
    """1,000 decisions of the close-calls drill: no hard total of 8 or less or of 19 or more,
    no cell whose two plays differ by more than the threshold each time it comes up, no cell
    whose play is obvious (the chart plays what the player sees the same way everywhere)."""
    dealt = _dealt(costs, Drill.CLOSE, 1000)
    assert len(dealt) == 1000
    plays = _plays_by_view(costs)
    for (soft, total), bonus in set(dealt):
        assert soft or 9 <= total <= 18, (soft, total, bonus)
        each = costs.cells[((soft, total), bonus)].cost / costs.frequencies[((soft, total), bonus)]
        assert abs(each) <= CLOSE_CALL
        assert len(plays[_twin_view(((soft, total), bonus))]) == 2
    assert len(set(dealt)) >= 8  # spread over the close calls, not stuck on one


def test_close_calls_are_dealt_as_often_as_they_come_up(costs: ChartCosts) -> None:
    """Each close call's share of the drill against its share of their exact frequencies,
    within 4 standard errors (1,000 decisions on a seed)."""
    weights = close_call_weights(costs)
    plays = _plays_by_view(costs)
    expected_cells = {
        k
        for k, f in costs.frequencies.items()
        if f and abs(costs.cells[k].cost / f) <= CLOSE_CALL and len(plays[_twin_view(k)]) == 2
    }
    assert set(weights) == expected_cells and weights
    assert all(weights[k] == costs.frequencies[k] for k in weights)
    dealt = Counter(_dealt(costs, Drill.CLOSE, 1000, SEED + 1))
    total = sum(weights.values())
    for k, w in weights.items():
        p = float(w / total)
        assert abs(dealt[k] / 1000 - p) <= 4 * math.sqrt(p * (1 - p) / 1000) + 1e-9, (k, p)


def test_the_costly_drill_weights_each_cell_by_its_plausible_mistake_s_cost(
    costs: ChartCosts,
) -> None:
    """A cell's weight is the cost per round of playing it the other way where that mistake is
    plausible (the chart plays the view both ways), nothing where it is not: so no hard 21 and
    no hard 5 is dealt as a drill."""
    weights = plausible_weights(costs)
    plays = _plays_by_view(costs)
    for k, c in costs.cells.items():
        plausible = k in costs.frequencies and len(plays[_twin_view(k)]) == 2 and c.cost > 0
        assert (k in weights) == plausible, k
        if plausible:
            assert weights[k] == c.cost == costs.frequencies[k] * costs.per_mistake(*k)  # type: ignore[operator]
    assert not any(cell in ((False, 21), (False, 5)) for cell, _ in weights)
    assert drill_weights(Drill.COSTLY, costs) == {k: float(w) for k, w in weights.items()}
    # what weighed most before (hitting a 20 or a 21) is not a mistake players make
    absurd = [k for k in costs.cells if (costs.per_mistake(*k) or 0) >= 1]
    assert absurd and not any(k in weights for k in absurd if k[0][1] >= 20)


def test_the_costly_drill_deals_the_costly_plausible_cells_in_proportion(
    costs: ChartCosts,
) -> None:
    """The plausible mistakes costing half a main bet or more each time: the drill deals them
    in proportion to cost per round (within 4 standard errors), far more often than play from
    a plain deal meets them; and never a cell whose play is obvious."""
    weights = plausible_weights(costs)
    costly = {k for k in weights if (costs.per_mistake(*k) or 0) >= Fraction(1, 2)}
    dealt = _dealt(costs, Drill.COSTLY, 600)
    assert set(dealt) <= set(weights)
    share = sum(k in costly for k in dealt) / len(dealt)
    expected = float(sum(weights[k] for k in costly) / sum(weights.values()))
    assert abs(share - expected) <= 4 * math.sqrt(expected * (1 - expected) / len(dealt))
    in_play = float(sum(costs.frequencies[k] for k in costly) / sum(costs.frequencies.values()))
    assert share > 5 * in_play, (share, in_play)


def _play(turn: PracticeTurn, costs: ChartCosts, wrong: bool) -> str:
    hand = turn.state.hand
    assert hand is not None
    action = costs.chart.action(cell_of(hand_of(hand.values)), hand.bonus.points)
    right = "hit" if action is Action.HIT else "stand"
    return {"hit": "stand", "stand": "hit"}[right] if wrong else right


def _session(costs: ChartCosts, mistakes_at: set[int], decisions: int, **options: Any) -> Iterator[
    tuple[int, Target, PracticeState, PracticeTurn]
]:  # fmt: skip
    """(decision number, its cell, the state before, the turn) of each decision of a session
    played by the chart but at ``mistakes_at``, through the page's JSON each time."""
    turn = solver.practice_start(cache=MEMORY, **options)
    made = 0
    while made < decisions:
        before = turn.state
        play = "deal" if before.hand is None else _play(turn, costs, made in mistakes_at)
        state = json.loads(json.dumps(turn.to_json()["state"]))
        turn = solver.practice_play(state, play, cache=MEMORY)
        if play != "deal":
            assert before.hand is not None
            key = (cell_of(hand_of(before.hand.values)), before.hand.bonus.points)
            yield made, key, before, turn
            made += 1


def test_drill_my_mistakes_deals_a_mistaken_cell_again_within_ten_decisions(
    costs: ChartCosts,
) -> None:
    mistakes_at = {2, 16, 30, 44}
    steps = list(_session(costs, mistakes_at, 60, seed=SEED, drill="mistakes"))
    cells = [key for _, key, _, _ in steps]
    for n in mistakes_at:
        assert cells[n] in cells[n + 1 : n + 11], (n, cells[n], cells[n + 1 : n + 11])
    final = steps[-1][3].state.schedule
    assert final.clock == 60 and {r.key for r in final.reviews} <= {cells[n] for n in mistakes_at}


def test_a_cell_answered_right_moves_further_out(costs: ChartCosts) -> None:
    """One cell's reviews: missed once, then answered right each time it comes back; each
    right answer puts it one gap further out."""
    steps = list(_session(costs, {0}, 40, seed=SEED + 2, drill="mistakes"))
    key = steps[0][1]
    dues = []
    for n, k, _, turn in steps:
        if k == key:
            found = next(r for r in turn.state.schedule.reviews if r.key == key)
            dues.append((found.step, found.due - (n + 1)))
    assert len(dues) >= 3
    assert dues == [(i, GAPS[i]) for i in range(len(dues))]


def test_the_mistakes_drill_with_nothing_to_review_deals_hands_as_dealt(
    costs: ChartCosts,
) -> None:
    plain = [k for _, k, _, _ in _session(costs, set(), 12, seed=SEED, drill="dealt")]
    drilled = [k for _, k, _, _ in _session(costs, set(), 12, seed=SEED, drill="mistakes")]
    assert drilled == plain


def test_the_schedule_carries_over_from_the_history(costs: ChartCosts) -> None:
    steps = list(_session(costs, {1}, 3, seed=SEED, drill="dealt"))
    state = steps[-1][3].state
    history = PracticeHistory().updated(state)
    turn = solver.practice_start(seed=SEED + 9, drill="mistakes", history=history.to_json(),
                                 cache=MEMORY)  # fmt: skip
    assert turn.state.schedule == state.schedule
    assert turn.state.stats.total.decisions == 0


def test_each_grade_carries_the_chart_cell_to_highlight(costs: ChartCosts) -> None:
    chart = solver.chart(cache=MEMORY).to_json()
    letters = {row["hand"]: row["actions"] for row in chart["rows"]}
    for _, key, _, turn in _session(costs, {1, 4}, 8, seed=SEED):
        grade = turn.grade
        assert grade is not None
        shown = turn.to_json()["grade"]["highlight"]
        assert letters[shown["hand"]][shown["bonus"]] == grade.chart.value
        assert (shown["hand"], shown["bonus"]) == (
            f"{'soft' if key[0][0] else 'hard'} {key[0][1]}",
            "A" if key[1] == 1 else str(key[1]),
        )
