"""A practice session's state as the page keeps it (plain JSON), read back as untrusted input,
and :class:`PracticeTurn`, what one play gives.

The state is the whole session: the rules, the seed, the drill, the chart learned (as the
CSV ``cbj chart`` writes), the cards left in the shoe (one digit per rank and suit), the
round in play and the score.  It comes back from a browser, so :func:`read_state` checks
every part of it and says what is wrong in a :class:`~solver.model.errors.PracticeError`:
sizes are bounded, the cards must be in the shoe, the hand must not have busted.

>>> from solver.model.rules import Rules
>>> from solver.model.cards import Shoe
>>> from solver.results.practice import PracticeSetup
>>> state = PracticeState(PracticeSetup(Rules(decks=1), seed=7), Shoe.full(1))
>>> read_state(state_json(state)) == state
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.model.cards import RANKS, SUITS, Card, Shoe
from solver.model.cells import ROWS, Action, cell_name
from solver.model.chart_file import ChartGrid, chart_csv, parse_chart
from solver.model.checks import MAX_SEED, shown, whole_in
from solver.model.errors import CbjError, PracticeError
from solver.model.hands import hand_of, hard_total, is_player_blackjack
from solver.model.numbers import int_text
from solver.model.rules import Rules
from solver.results.charts import CellCost
from solver.results.frames import Shown
from solver.results.practice import (
    Drill,
    Grade,
    Hand,
    Missed,
    PracticeSetup,
    PracticeState,
    Score,
    Settlement,
    file_name,
)
from solver.results.practice_stats import (
    Schedule,
    SessionStats,
    read_schedule,
    read_session_stats,
    schedule_json,
    session_stats_json,
)

#: The state's format; a page holding an older one starts a new session.
VERSION = 1
#: The longest number (digits of a numerator or denominator) a state may hold.
MAX_DIGITS = 400
#: The most of anything a state may count (decisions, rounds, shoes).
MAX_COUNT = 10**9
#: The longest chart name kept.
MAX_NAME = 80
_ROW_OF = {cell_name(cell): cell for cell in ROWS}
_ACTIONS = {a.value: a for a in (Action.HIT, Action.STAND)}
_FRACTION = re.compile(rf"-?\d{{1,{MAX_DIGITS}}}(?:/\d{{1,{MAX_DIGITS}}})?", re.ASCII)


def _text(value: Fraction) -> str:
    text = int_text(value.numerator)
    return text if value.denominator == 1 else f"{text}/{int_text(value.denominator)}"


def shoe_text(shoe: Shoe) -> str:
    """The cards left of each rank and suit, one digit each (a shoe holds at most 8).

    >>> shoe_text(Shoe.full(2))[:8]
    '22222222'
    """
    return "".join(str(n) for n in shoe.counts)


def state_json(state: PracticeState) -> dict[str, Any]:
    """The state as plain JSON values: what the page keeps and sends back."""
    setup, hand, score = state.setup, state.hand, state.score
    chart = setup.chart
    return {
        "version": VERSION,
        "rules": setup.rules.canonical(),
        "seed": setup.seed,
        "penetration": _text(setup.penetration),
        "drill": setup.drill.value,
        "chart": None
        if chart is None
        else {"name": file_name(chart)[:MAX_NAME], "csv": chart_csv(chart)},
        "shoe": shoe_text(state.shoe),
        "shoes": state.shoes,
        "rounds": state.rounds,
        "hand": None
        if hand is None
        else {
            "number": hand.number,
            "bonus": str(hand.bonus),
            "cards": [str(c) for c in hand.cards],
            "dealt": hand.dealt,
        },
        "score": {
            "decisions": score.decisions,
            "mistakes": score.mistakes,
            "unlike_perfect": score.unlike_perfect,
            "given_up": score.given_up,
            "rounds": score.rounds,
            "net": _text(score.net),
            "missed": [_missed_json(m) for m in score.missed],
        },
        # The session's statistics and review schedule (issue 47), read by practice_stats.
        "stats": session_stats_json(state.stats),
        "schedule": schedule_json(state.schedule),
    }


def _missed_json(missed: Missed) -> list[Any]:
    """A cell to review as the state keeps it: its row, Bonus card, play, times and cost."""
    flip = missed.flip
    return [cell_name(flip.cell), flip.bonus, flip.action.value, missed.times, _text(flip.cost)]


def _get(doc: Any, name: str, kind: type | tuple[type, ...]) -> Any:
    value = doc.get(name) if isinstance(doc, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool):
        raise PracticeError(
            f"the practice state's {name.replace('_', ' ')} is missing or malformed"
        )
    return value


def _count(doc: Any, name: str, low: int = 0) -> int:
    value = _get(doc, name, int)
    if not low <= value <= MAX_COUNT:
        raise PracticeError(
            f"the practice state's {name.replace('_', ' ')} {shown(value)} is out of range: "
            f"{low} to {MAX_COUNT:,}"
        )
    return int(value)


def _fraction(doc: Any, name: str) -> Fraction:
    text = _get(doc, name, str)
    return _fraction_text(text, name)


def _fraction_text(text: object, name: str) -> Fraction:
    if not isinstance(text, str) or not _FRACTION.fullmatch(text) or text.endswith("/0"):
        raise PracticeError(f"the practice state's {name} is not a fraction p/q")
    return Fraction(text)


def _card(text: object) -> Card:
    if not isinstance(text, str) or len(text) > 3:
        raise PracticeError("the practice state holds a card that is not one")
    try:
        card = Card.parse(text)
    except CbjError:
        raise PracticeError("the practice state holds a card that is not one") from None
    if card.suit is None:
        raise PracticeError(f"the practice state's card {card} has no suit")
    return card


def _rules(doc: Any) -> Rules:
    try:
        return Rules.from_canonical(_get(doc, "rules", dict))
    except PracticeError:
        raise
    except CbjError as error:  # a rule unknown, missing or out of range: said which
        raise PracticeError(f"the practice state's rules are malformed: {error}") from None
    except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError):
        raise PracticeError("the practice state's rules are malformed") from None


def _chart(doc: Any) -> ChartGrid | None:
    given = doc.get("chart")
    if given is None:
        return None
    name = _get(given, "name", str)
    if not name.isprintable() or len(name) > MAX_NAME:
        raise PracticeError("the practice state's chart name is malformed")
    return parse_chart(_get(given, "csv", str), name)


def read_setup(doc: Any) -> PracticeSetup:
    """The settings of a state written by :func:`state_json`, checked."""
    version = doc.get("version") if isinstance(doc, dict) else None
    if type(version) is not int or version != VERSION:  # not 1.0, True or an array
        raise PracticeError("not a practice state of this version: start a new session")
    seed = _get(doc, "seed", int)
    if not whole_in(seed, 0, MAX_SEED):
        raise PracticeError("the practice state's seed is out of range")
    penetration = _fraction(doc, "penetration")
    if not 0 < penetration <= 1:
        raise PracticeError("the practice state's penetration is out of range")
    try:
        drill = Drill(_get(doc, "drill", str))
    except ValueError:
        raise PracticeError("the practice state's drill is unknown") from None
    return PracticeSetup(_rules(doc), seed, penetration, drill, _chart(doc))


def _shoe(doc: Any, decks: int) -> Shoe:
    text = _get(doc, "shoe", str)
    if not re.fullmatch(rf"[0-{decks}]{{52}}", text, flags=re.ASCII):
        raise PracticeError(f"the practice state's shoe is not 52 digits of 0 to {decks}")
    return Shoe(decks, tuple(int(c) for c in text))


def _hand(doc: Any, shoe: Shoe) -> Hand | None:
    given = doc.get("hand")
    if given is None:
        return None
    cards = _get(given, "cards", list)
    if not 1 <= len(cards) <= 21:
        raise PracticeError("the practice state's hand has no cards or too many")
    own = tuple(_card(c) for c in cards)
    bonus = _card(given.get("bonus"))
    dealt = _count(given, "dealt", 1)
    if dealt > len(own):
        raise PracticeError("the practice state's hand was dealt more cards than it holds")
    values = hand_of(c.points for c in own)
    if hard_total(values) > 21 or (
        len(own) == 1 and is_player_blackjack(own[0].points, bonus.points)
    ):
        raise PracticeError("the practice state's hand is over: deal the next round")
    try:  # the cards on the table and those left together fit in one shoe
        Shoe.full(shoe.decks).remove((*own, bonus, *_cards_of(shoe)))
    except CbjError:
        raise PracticeError("the practice state's hand holds cards still in its shoe") from None
    return Hand(_count(given, "number", 1), bonus, own, dealt)


def _cards_of(shoe: Shoe) -> list[Card]:
    return [
        Card(RANKS[code // 4], SUITS[code % 4])
        for code, n in enumerate(shoe.counts)
        for _ in range(n)
    ]


def _missed(item: Any) -> Missed:
    if not isinstance(item, list) or len(item) != 5:
        raise PracticeError("the practice state's cells to review are malformed")
    name, bonus, letter, times, cost = item
    cell = _ROW_OF.get(name) if isinstance(name, str) else None
    action = _ACTIONS.get(letter) if isinstance(letter, str) else None
    if (
        cell is None
        or action is None
        or not whole_in(bonus, 1, 10)
        or not whole_in(times, 1, MAX_COUNT)
    ):
        raise PracticeError("the practice state's cells to review are malformed")
    other = Action.STAND if action is Action.HIT else Action.HIT
    flip = CellCost(cell, bonus, action, other, _fraction_text(cost, "cost of a cell"))
    return Missed(flip, times)


def _score(doc: Any) -> Score:
    given = _get(doc, "score", dict)
    listed = _get(given, "missed", list)
    if len(listed) > len(ROWS) * 10:
        raise PracticeError("the practice state lists more cells to review than a chart has")
    missed = tuple(_missed(item) for item in listed)
    if len({(m.flip.cell, m.flip.bonus) for m in missed}) != len(missed):
        raise PracticeError("the practice state lists a cell to review twice")
    given_up = _get(given, "given_up", (int, float))
    if not 0 <= given_up <= 10 * MAX_COUNT:
        raise PracticeError("the practice state's EV given up is out of range")
    return Score(
        _count(given, "decisions"),
        _count(given, "mistakes"),
        _count(given, "unlike_perfect"),
        float(given_up),
        _count(given, "rounds"),
        _fraction(given, "net"),
        missed,
    )


def read_state(doc: Any) -> PracticeState:
    """The state in ``doc`` (as :func:`state_json` writes it), every part of it checked.

    Raises :class:`PracticeError` naming the first part that does not hold together.
    """
    setup = read_setup(doc)
    shoe = _shoe(doc, setup.rules.decks)
    return PracticeState(
        setup,
        shoe,
        _count(doc, "shoes", 1),
        _count(doc, "rounds"),
        _hand(doc, shoe),
        _score(doc),
        *_learning(doc),
    )


def _learning(doc: dict[str, Any]) -> tuple[SessionStats, Schedule]:
    """The session's statistics and review schedule (a state written before they were kept
    has none yet), each checked by :mod:`solver.results.practice_stats`."""
    stats, schedule = doc.get("stats"), doc.get("schedule")
    return (
        SessionStats() if stats is None else read_session_stats(stats, "state's statistics"),
        Schedule() if schedule is None else read_schedule(schedule),
    )


@dataclass(frozen=True, slots=True, repr=False)
class PracticeTurn(Shown):
    """What one play gives: the decision's grade (none for a deal), the round played out
    if it ended, and the state to send with the next play."""

    state: PracticeState
    grade: Grade | None = None
    settled: Settlement | None = None

    @property
    def rules(self) -> Rules:
        """The rules in force."""
        return self.state.rules

    def to_json(self) -> dict[str, Any]:
        """The turn as JSON: the grade, the round settled, the hand in play, the score and
        the state to send with the next play."""
        hand = self.state.hand
        return {
            "rules": self.rules.to_json(),
            "seed": self.state.setup.seed,
            "drill": self.state.setup.drill.value,
            "chart": self.state.setup.chart_name,
            "grade": None if self.grade is None else self.grade.to_json(),
            "settled": None if self.settled is None else self.settled.to_json(),
            "hand": None
            if hand is None
            else {"bonus": str(hand.bonus), "cards": [str(c) for c in hand.cards]},
            "score": self.state.score.to_json(),
            "state": state_json(self.state),
        }
