"""``cbj practice`` at a terminal (issue 47): driven through a pseudo-terminal as a player
types, each decision's grade and cost are the library's for the same seed and the same
plays (:func:`solver.practice_start`, :func:`solver.practice_play`, played alongside),
the accuracy and streak follow, the statistics are kept across sessions only in the file
the session names (none with ``--no-history``), and "drill my mistakes" deals the cells
missed in an earlier session.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest

import solver
from solver.model.cards import value_label
from solver.model.cells import Action, cell_name
from solver.present.practice_stats import accuracy
from solver.present.practice_text import cards_text
from solver.present.style import decimals
from solver.results.practice import Grade
from solver.results.practice_history import PracticeHistory, read_history
from solver.results.practice_state import PracticeTurn
from solver.store.disk import default_cache
from tests.conftest import run_cli

#: What the session asks with a hand in play, and between rounds.
PROMPTS: list[Any] = [r"Hit or stand\? ", r"Enter: the next round\. "]
#: A one-deck game: its exact solve, which every turn reads from the cache, takes a moment.
GAME = ["--decks", "1"]


def _environment(data: Path) -> dict[str, str]:
    """The test session's environment (its home and cache), with its own data folder."""
    return {**os.environ, "XDG_DATA_HOME": str(data), "PYTHONIOENCODING": "utf-8"}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


class Session:
    """``cbj practice`` in a pseudo-terminal, and the library's session beside it, played
    with the same seed, rules and plays."""

    def __init__(
        self,
        data: Path,
        seed: int,
        *options: str,
        drill: str = "dealt",
        history: PracticeHistory | None = None,
    ) -> None:
        argv = ["-m", "solver", "practice", "--seed", str(seed), "--drill", drill, *GAME]
        self.child = pexpect.spawn(
            sys.executable, [*argv, *options], env=_environment(data), encoding="utf-8",
            timeout=120, dimensions=(60, 220),
        )  # fmt: skip
        # pexpect waits 50 ms before each send, for programs that flush the terminal's input
        # as they prompt: cbj practice reads whole lines, and each is sent after its prompt.
        self.child.delaybeforesend = None
        self.cache = default_cache()
        self.turn: PracticeTurn = solver.practice_start(
            seed=seed, drill=drill, decks=1, cache=self.cache, history=history
        )
        self.shown = self._next()
        self.grades: list[Grade] = []

    def _next(self) -> str:
        """What the session printed up to its next question."""
        self.asks = self.child.expect(PROMPTS)
        return str(self.child.before)

    def play(self, answer: str) -> str:
        """Type ``answer`` (``h``, ``s`` or Enter); the library plays the same."""
        deciding = self.turn.state.hand is not None
        assert self.asks == (0 if deciding else 1)
        self.child.sendline(answer)
        play = {"h": "hit", "s": "stand"}[answer] if deciding else "deal"
        self.turn = solver.practice_play(self.turn.state, play, cache=self.cache)
        if self.turn.grade is not None:
            self.grades.append(self.turn.grade)
        self.shown = self._next()
        return self.shown

    def decisions(self, plays: str) -> Iterator[str]:
        """Play ``plays`` (``h`` and ``s``), dealing between rounds; each decision's output."""
        for answer in plays:
            while self.turn.state.hand is None:
                self.play("")
            yield self.play(answer)

    def quit(self) -> str:
        """Type ``q``: the closing figures, and the exit status 0."""
        self.child.sendline("q")
        self.child.expect(pexpect.EOF)
        self.child.close()
        assert self.child.exitstatus == 0
        return str(self.child.before)


def _cost_sentences(text: str) -> list[str]:
    return re.findall(r"This mistake costs? [^\n]*", text)


def _expected_cost(grade: Grade) -> str:
    """The mistake's cost as the grade's figures give it, to two decimals."""
    each, per_100 = grade.per_mistake, grade.per_100_rounds
    if each is None:
        return f"This mistake cost {decimals(grade.hand_cost)} of your main bet on this hand"
    return (
        f"This mistake costs {decimals(each)} of your main bet each time; made every time, "
        f"{decimals(per_100)} per 100 rounds."
    )


def test_each_grade_and_cost_is_the_library_s_for_the_same_seed(data: Path) -> None:
    session = Session(data, 11, "--no-history")
    assert "seed 11" in session.shown and "No statistics are kept" in session.shown
    plays = "hshsshhhsshshhss" * 2
    mistakes = 0
    for printed in session.decisions(plays):
        grade = session.grades[-1]
        play = "hit" if grade.chart is Action.HIT else "stand"
        cell = f"{cell_name(grade.cell)} against a Bonus "
        verdict = "Mistake" if grade.mistake else "Right"
        assert re.search(rf"{verdict}: the printed chart says {play} on {cell}\w+\.", printed)
        costs = _cost_sentences(printed)
        assert len(costs) == int(grade.mistake)  # stated once, after a mistake only
        if grade.mistake:
            assert costs[0].startswith(_expected_cost(grade))
            marked = f"[{value_label(grade.bonus.points)} {'H' if play == 'hit' else 'S'}]"
            row = re.search(rf"The chart, {cell_name(grade.cell)}: ([^\r\n]*)", printed)
            assert row is not None and marked in row[1].split(" \u00b7 "), printed
        mistakes += grade.mistake
        stats = session.turn.state.stats
        assert stats.total.mistakes == mistakes
        assert (
            f"Accuracy {accuracy(stats.total)} of {stats.total.decisions} \u00b7 streak "
            f"{stats.streak} (best {stats.best_streak})"
        ) in printed
        hand = session.turn.state.hand
        if hand is not None:  # the next decision's hand is the library's
            assert cards_text(hand.cards) in printed
    assert len(session.grades) == len(plays) and 0 < mistakes < len(plays)
    closing = session.quit()
    assert re.search(rf"decisions\s+{len(plays)}\b", closing)
    assert list(data.glob("**/*")) == []  # --no-history: no file


def test_the_history_is_kept_where_the_session_says_and_mistakes_are_drilled(
    data: Path, tmp_path: Path
) -> None:
    first = Session(data, 5)
    kept = data / "community-blackjack" / "practice-history.json"
    assert f"Your statistics are kept in {kept}" in " ".join(first.shown.split())
    for _ in first.decisions("ssssssss"):
        pass
    missed = {g.decided.key for g in first.grades if g.mistake}
    assert missed and f"Kept in {kept}." in " ".join(first.quit().split())
    history = read_history(json.loads(kept.read_text(encoding="utf-8")))
    assert history.total.decisions == 8
    assert history.total.mistakes == sum(g.mistake for g in first.grades)

    second = Session(data, 6, "--history", str(kept), drill="mistakes", history=history)
    dealt = []
    for printed in second.decisions("hhhhhhhhhh"):
        dealt.append(second.grades[-1].decided.key)
        so_far = history.started(second.turn.state.setup).updated(second.turn.state)
        assert (
            f"all sessions: {accuracy(so_far.total)} of {so_far.total.decisions}, streak "
            f"{so_far.streak} (best {so_far.best})"
        ) in printed
    assert missed & set(dealt), (missed, dealt)  # a missed cell again within 10 decisions
    second.quit()
    again = read_history(json.loads(kept.read_text(encoding="utf-8")))
    assert again.total.decisions == 18 and len(again.sessions) == 1  # and one in progress


def test_a_history_that_is_none_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = tmp_path / "wrong.json"
    wrong.write_text("{}", encoding="utf-8")
    status, out, err = run_cli(["practice", "--history", str(wrong), *GAME], capsys)
    assert status == 2 and out == ""
    assert err.startswith("cbj: error: ") and "no practice history cbj can read" in err
    assert err.count("\n") == 1 and wrong.read_text(encoding="utf-8") == "{}"
    both = ["practice", "--history", str(wrong), "--no-history"]
    status, _, err = run_cli(both, capsys)
    assert status == 2 and "not both" in err
