"""What the practice table says after a decision, and the statistics it shows: the cost said
once in plain words and units, two decimals unless more are needed, the cell to highlight,
accuracy and streaks (issue 47).
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from html import unescape

import pytest
from hypothesis import given
from hypothesis import strategies as st

import solver
from solver.model.cells import Action, cell_of
from solver.model.hands import hand_of
from solver.present.formats import Format
from solver.present.practice import cost_words, grade_html, score_html, turn_parts
from solver.present.practice_stats import accuracy, of_history, of_session, stats_tables
from solver.present.style import MINUS, decimals
from solver.present.tables import render_tables
from solver.results.charts import ChartCosts
from solver.results.figures import heading
from solver.results.practice import Grade
from solver.results.practice_history import PracticeHistory
from solver.results.practice_state import PracticeTurn
from tests.conftest import GAMES

MEMORY = GAMES


@pytest.fixture(scope="module")
def costs() -> ChartCosts:
    return solver.chart_costs(cache=MEMORY)


@pytest.fixture(scope="module")
def turns(costs: ChartCosts) -> list[PracticeTurn]:
    """Thirty decisions of the costliest-mistakes drill, every third against the chart."""
    turn = solver.practice_start(seed=470, drill="costly", cache=MEMORY)
    found, made = [], 0
    while made < 30:
        hand = turn.state.hand
        if hand is None:
            play = "deal"
        else:
            chart = costs.chart.action(cell_of(hand_of(hand.values)), hand.bonus.points)
            right = "hit" if chart is Action.HIT else "stand"
            play = {"hit": "stand", "stand": "hit"}[right] if made % 3 == 2 else right
            made += 1
        turn = solver.practice_play(json.loads(json.dumps(turn.to_json()["state"])), play,
                                    cache=MEMORY)  # fmt: skip
        found.append(turn)
    return found


def _grades(turns: list[PracticeTurn]) -> list[Grade]:
    return [t.grade for t in turns if t.grade is not None]


def _shown_text(html: str) -> str:
    """The words a reader sees at once: the grade without its folded exact figures."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", html.split("<details")[0])))


@given(st.fractions(min_value=Fraction(-5), max_value=Fraction(5)))
def test_two_decimals_unless_more_are_needed(value: Fraction) -> None:
    text = decimals(value)
    shown = Fraction(text.replace(MINUS, "-"))
    if value == 0:
        assert text == "0"
    elif abs(value) >= Fraction(1, 10):
        assert re.fullmatch(MINUS + r"?\d+\.\d\d", text) and abs(shown - value) <= Fraction(1, 200)
    else:  # two significant figures
        digits = text.replace(MINUS, "").replace("0.", "", 1).lstrip("0")
        assert len(digits) == 2 and abs(shown - value) <= abs(value) / 10


def test_a_mistake_s_cost_is_said_once_in_main_bets_each_time_and_per_100_rounds(
    turns: list[PracticeTurn],
) -> None:
    grades = _grades(turns)
    mistakes = [g for g in grades if g.mistake]
    assert len(mistakes) == 10
    for grade in mistakes:
        each, per_100 = grade.per_mistake, grade.per_100_rounds
        assert each is not None and each > 0
        words = cost_words(grade)
        assert words == (
            f"This mistake costs {decimals(each)} of your main bet each time; made every "
            f"time, {decimals(per_100)} per 100 rounds."
        )
        shown = _shown_text(grade_html(grade))
        assert words in shown
        assert shown.count("of your main bet") == 1 and "cell" not in shown
        assert not re.search(r"\d\.\d{4}", shown), shown  # no four-decimal figures
    for grade in grades:
        if not grade.mistake:
            assert cost_words(grade).startswith("Playing it the other way would cost ")


def test_the_grade_names_the_cell_to_highlight_and_keeps_the_exact_figures(
    turns: list[PracticeTurn],
) -> None:
    for grade in _grades(turns):
        html = grade_html(grade)
        highlight = grade.highlight
        assert f'data-cell="{highlight["hand"]}"' in html
        assert f'data-column="{highlight["bonus"]}"' in html
        exact = re.search(r'data-cost="cell" data-exact="([^"]+)"', html)
        hand = re.search(r'data-cost="hand" data-exact="([^"]+)"', html)
        assert exact is not None and Fraction(exact.group(1)) == grade.per_100_rounds
        assert hand is not None and Fraction(hand.group(1)) == grade.hand_cost


def test_the_score_shows_accuracy_and_streaks(turns: list[PracticeTurn]) -> None:
    grades = _grades(turns)
    stats = turns[-1].state.stats
    right = [not g.mistake for g in grades]
    streak = len(right) - 1 - max(i for i, r in enumerate(right) if not r)
    assert (stats.streak, stats.best_streak) == (streak, 2)
    html = turn_parts(turns[-1])["score"]
    assert f'data-score="accuracy">{accuracy(stats.total)}<' in html
    assert accuracy(stats.total) == f"{20 / 30 * 100:.1f}%"
    assert f'data-score="streak">{streak}<' in html and 'data-score="best-streak">2<' in html
    assert "accuracy" not in score_html(turns[-1].state.score)  # without statistics


def test_the_statistics_tables_hold_each_figure_under_its_label(
    turns: list[PracticeTurn],
) -> None:
    state = turns[-1].state
    history = PracticeHistory().updated(state)
    for view in (of_session(state.stats), of_history(history)):
        tables = stats_tables(view)
        summary = {key: text for key, _, _, text in tables[0].figures()}
        assert summary["practice_decisions"] == "30" and summary["practice_mistakes"] == "10"
        assert summary["practice_accuracy"] == "66.7%"
        assert summary["practice_mistake_cost"] == f"{decimals(view.total.mistake_cost)} main bets"
        by_kind, by_bonus, by_total = tables[1:4]
        for table in (by_kind, by_bonus, by_total):
            assert sum(int(r[1]) for r in table.rows) == 30
            assert table.headers[1:3] == (heading("practice_decisions"),
                                          heading("practice_mistakes"))  # fmt: skip
        assert [r[0] for r in by_bonus.rows] == sorted(
            (r[0] for r in by_bonus.rows), key=lambda c: 1 if c == "A" else int(c)
        )
    assert len(stats_tables(of_history(history))) == 5  # and each session
    text = render_tables(stats_tables(of_history(history)), Format.CSV)
    assert "accuracy" in text and "Each session" in text
