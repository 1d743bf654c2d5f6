"""The practice table: a session's settings, the round in play, each decision graded, the score.

A practice session deals rounds from a shuffled shoe (:mod:`solver.studies.practice`) and
grades each hit or stand (:mod:`solver.exact.practice`) against a chart, the printed best
chart or the player's own, and against composition-dependent perfect play for that very
hand and shoe.  Everything a session needs to go on is one :class:`PracticeState`, which
a page keeps and sends back with each play (:mod:`solver.results.practice_state` writes
and reads it): the server keeps nothing.

>>> Drill("costly").words
'the costliest mistakes players make, dealt in proportion to what they cost'
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

from solver.model.cards import Card, Shoe, value_label
from solver.model.cells import Action, Cell, cell_name
from solver.model.chart_file import ChartGrid
from solver.model.numbers import exact_json
from solver.model.outcomes import MainOutcome
from solver.model.rules import Rules
from solver.results.charts import CellCost
from solver.results.practice_stats import Decided, Schedule, SessionStats


class Drill(StrEnum):
    """Which hands a session deals."""

    DEALT = "dealt"
    """Every round as the shoe deals it: the player's card and the Bonus card."""
    HARD = "hard"
    """Hard totals only: each hard total from 4 to 20 against each Bonus card equally often."""
    SOFT = "soft"
    """Soft totals only: each soft total from 12 to 20 against each Bonus card equally often."""
    COSTLY = "costly"
    """The costliest plausible mistakes: each cell whose play is not obvious dealt in
    proportion to its cost per round of playing it the other way (the cost of one mistake
    there times how often the cell comes up); a cell whose play is obvious (hitting a 21,
    standing on a 5) is a mistake no player makes, and is not dealt."""
    CLOSE = "close"
    """Close calls: the cells whose two plays are closest in EV and whose play is not
    obvious, each dealt as often as it comes up in play."""
    MISTAKES = "mistakes"
    """The player's own mistakes, each cell again when its review is due (spaced
    repetition); hands as dealt in between."""

    @property
    def words(self) -> str:
        """The drill in plain words."""
        return DRILL_WORDS[self]


DRILL_WORDS = {
    Drill.DEALT: "every hand as dealt",
    Drill.HARD: "hard totals only",
    Drill.SOFT: "soft totals only",
    Drill.COSTLY: "the costliest mistakes players make, dealt in proportion to what they cost",
    Drill.CLOSE: "close calls, the cells where the two plays are nearly worth the same",
    Drill.MISTAKES: "drill my mistakes, each cell missed coming back until it is learned",
}


class Play(StrEnum):
    """What the player does with a hand."""

    HIT = "hit"
    STAND = "stand"

    @property
    def action(self) -> Action:
        """The chart's letter for this play."""
        return Action.HIT if self is Play.HIT else Action.STAND


#: The share of the shoe dealt before a reshuffle when none is chosen (the simulator's).
DEFAULT_PENETRATION = Fraction(3, 4)
#: A shoe with fewer cards than this left is reshuffled before the next round, whatever the
#: penetration: no round can run it dry (a round uses at most 23 cards).
MIN_CARDS_LEFT = 24


def file_name(chart: ChartGrid) -> str:
    """A chart's file name alone, without the folders it was read from.

    >>> file_name(ChartGrid("chart:charts/mine.csv", {}))
    'mine.csv'
    """
    return chart.name.removeprefix("chart:").replace("\\", "/").rsplit("/", 1)[-1]


def chart_name(chart: ChartGrid | None) -> str:
    """The chart a session learns, in words: the printed chart, or the player's by file name.

    >>> chart_name(None)
    'the printed chart'
    """
    return "the printed chart" if chart is None else f"your chart {file_name(chart)}"


@dataclass(frozen=True, slots=True)
class PracticeSetup:
    """A session's settings: the rules, the seed that makes it replayable, the penetration,
    the drill, and the chart to learn (None: the printed best chart)."""

    rules: Rules
    seed: int
    penetration: Fraction = DEFAULT_PENETRATION
    drill: Drill = Drill.DEALT
    chart: ChartGrid | None = None

    @property
    def chart_name(self) -> str:
        """The chart graded against, in words."""
        return chart_name(self.chart)

    def cut(self) -> int:
        """Cards dealt from a shoe before it is reshuffled (at the start of a round)."""
        size = 52 * self.rules.decks
        return min(size - MIN_CARDS_LEFT, max(1, round(self.penetration * size)))


@dataclass(frozen=True, slots=True)
class Hand:
    """The round in play: the Bonus card and the player's own cards in the order dealt.

    ``dealt`` cards were dealt before the player's first decision (one, or more when a
    drill deals a hand already grown to the cell it drills); each card after them is a hit.
    """

    number: int
    bonus: Card
    cards: tuple[Card, ...]
    dealt: int = 1

    @property
    def values(self) -> tuple[int, ...]:
        """The own cards' blackjack values."""
        return tuple(c.points for c in self.cards)


@dataclass(frozen=True, slots=True)
class Grade:
    """One decision graded: against the chart learned and against perfect play.

    ``stand`` and ``hit`` are the exact EVs of the hand (composition-dependent play from
    here on, in this shoe); ``flip`` is the chart's cell (its action) and its cost per round
    of playing it the other way (``cbj chart --costs``' figure over 100).
    """

    bonus: Card
    hand: tuple[Card, ...]
    play: Play
    flip: CellCost
    chart_name: str
    stand: Fraction
    hit: Fraction
    frequency: Fraction
    """How often play by the chart reaches this cell: the chance per round (0 if never)."""
    seen: int
    """Cards out of the shoe before this decision besides the hand and the Bonus card."""

    @property
    def cell(self) -> Cell:
        """The chart's cell of the hand."""
        return self.flip.cell

    @property
    def chart(self) -> Action:
        """The chart's play for the cell."""
        return self.flip.action

    @property
    def cell_cost(self) -> Fraction:
        """The chart's cost per round of playing the cell the other way."""
        return self.flip.cost

    @property
    def perfect(self) -> Play:
        """Perfect play's choice for this hand and shoe (stand when the two are equal)."""
        return Play.HIT if self.hit > self.stand else Play.STAND

    @property
    def mistake(self) -> bool:
        """The play is not the chart's."""
        return self.play.action is not self.chart

    @property
    def hand_cost(self) -> Fraction:
        """EV given up on this hand against perfect play (0 when the play is perfect's)."""
        chosen = self.hit if self.play is Play.HIT else self.stand
        return max(self.stand, self.hit) - chosen

    @property
    def per_100_rounds(self) -> Fraction:
        """The cell's cost over 100 rounds: what this mistake costs made every time."""
        return self.flip.per_100_rounds

    @property
    def per_mistake(self) -> Fraction | None:
        """What playing the cell unlike the chart costs each time it comes up, on average
        over its hands (None for a cell the chart never reaches)."""
        return self.cell_cost / self.frequency if self.frequency else None

    @property
    def highlight(self) -> dict[str, str]:
        """The chart's cell to show highlighted: its row and column as the chart's JSON
        names them (``{"hand": "hard 16", "bonus": "10"}``)."""
        return {"hand": cell_name(self.cell), "bonus": value_label(self.bonus.points)}

    @property
    def decided(self) -> Decided:
        """The decision as the statistics count it: what a mistake costs is the cell's cost
        each time it comes up (this hand's against perfect play for a cell the chart never
        reaches)."""
        cost = self.per_mistake if self.per_mistake is not None else self.hand_cost
        return Decided(
            (self.cell, self.bonus.points),
            self.mistake,
            float(self.hand_cost),
            float(cost) if self.mistake else 0.0,
        )

    def to_json(self) -> dict[str, Any]:
        """The grade as JSON."""
        return {
            "bonus": str(self.bonus),
            "hand": [str(c) for c in self.hand],
            "cell": cell_name(self.cell),
            "play": self.play.value,
            "chart": self.chart.value,
            "chart_name": self.chart_name,
            "perfect": self.perfect.value,
            "stand": exact_json(self.stand),
            "hit": exact_json(self.hit),
            "mistake": self.mistake,
            "hand_cost": exact_json(self.hand_cost),
            "cell_cost_per_100_rounds": exact_json(self.per_100_rounds),
            "cell_frequency": exact_json(self.frequency),
            "cost_each_time": None if self.per_mistake is None else exact_json(self.per_mistake),
            "highlight": self.highlight,
            "seen": self.seen,
        }


@dataclass(frozen=True, slots=True)
class Settlement:
    """A round played out: the cards each side holds, the totals and what each wager won.

    ``player_total`` and ``dealer_total`` are None for a bust (the dealer draws nothing
    after a player bust or a blackjack).
    """

    number: int
    bonus: Card
    player: tuple[Card, ...]
    dealer: tuple[Card, ...]
    player_total: int | None
    dealer_total: int | None
    dealer_natural: bool
    main: MainOutcome
    bonus_outcome: str
    main_net: Fraction
    bonus_net: Fraction
    round_net: Fraction

    def to_json(self) -> dict[str, Any]:
        """The round as JSON."""
        return {
            "round": self.number,
            "bonus": str(self.bonus),
            "player": [str(c) for c in self.player],
            "dealer": [str(c) for c in self.dealer],
            "player_total": self.player_total,
            "dealer_total": self.dealer_total,
            "dealer_natural": self.dealer_natural,
            "main": self.main.value,
            "bonus_outcome": self.bonus_outcome,
            "main_net": exact_json(self.main_net),
            "bonus_net": exact_json(self.bonus_net),
            "round_net": exact_json(self.round_net),
        }


@dataclass(frozen=True, slots=True)
class Missed:
    """A cell the player has played against the chart (with the chart's cost of playing it
    the other way), and how often."""

    flip: CellCost
    times: int

    def to_json(self) -> dict[str, Any]:
        """The cell as JSON: ``cbj chart --costs``' figures and the times it was missed."""
        return {**self.flip.to_json(), "times": self.times}


@dataclass(frozen=True, slots=True)
class Score:
    """A session's running score.

    ``given_up`` sums each decision's EV given up against perfect play (a float: the exact
    figures of hands from many shoes add up to fractions of thousands of digits); every
    other figure is exact.
    """

    decisions: int = 0
    mistakes: int = 0
    unlike_perfect: int = 0
    given_up: float = 0.0
    rounds: int = 0
    net: Fraction = Fraction(0)
    missed: tuple[Missed, ...] = ()

    @property
    def cost_per_100_rounds(self) -> Fraction:
        """What the cells played against the chart cost per 100 rounds, each played that
        way every time (each cell counted once, however often it was missed)."""
        return sum((m.flip.per_100_rounds for m in self.missed), Fraction(0))

    def review(self) -> tuple[Missed, ...]:
        """The cells to review, the largest cost first."""
        return tuple(sorted(self.missed, key=lambda m: (-m.flip.cost, m.flip.cell, m.flip.bonus)))

    def graded(self, grade: Grade) -> Score:
        """The score with one more decision."""
        missed = self.missed
        if grade.mistake:
            key = (grade.cell, grade.bonus.points)
            old = next((m for m in missed if (m.flip.cell, m.flip.bonus) == key), None)
            if old is None:
                missed = (*missed, Missed(grade.flip, 1))
            else:
                missed = tuple(replace(m, times=m.times + 1) if m is old else m for m in missed)
        return replace(
            self,
            decisions=self.decisions + 1,
            mistakes=self.mistakes + grade.mistake,
            unlike_perfect=self.unlike_perfect + (grade.play is not grade.perfect),
            given_up=self.given_up + float(grade.hand_cost),
            missed=missed,
        )

    def settled(self, settlement: Settlement) -> Score:
        """The score with one more round played out."""
        return replace(self, rounds=self.rounds + 1, net=self.net + settlement.round_net)

    def to_json(self) -> dict[str, Any]:
        """The score as JSON, the cells to review largest cost first."""
        return {
            "decisions": self.decisions,
            "mistakes": self.mistakes,
            "unlike_perfect": self.unlike_perfect,
            "given_up": self.given_up,
            "rounds": self.rounds,
            "net": exact_json(self.net),
            "cost_per_100_rounds": exact_json(self.cost_per_100_rounds),
            "review": [m.to_json() for m in self.review()],
        }


@dataclass(frozen=True, slots=True)
class PracticeState:
    """Everything a session needs to go on: its settings, the shoe, the round, the score.

    ``shoe`` holds the cards not yet dealt (every card with its suit); ``shoes`` counts the
    shoes shuffled since the session began and ``rounds`` the rounds dealt; ``hand`` is
    the round in play (None between rounds).  ``stats`` are the session's statistics and
    ``schedule`` the cells due for review (:mod:`solver.results.practice_stats`).
    """

    setup: PracticeSetup
    shoe: Shoe
    shoes: int = 1
    rounds: int = 0
    hand: Hand | None = None
    score: Score = field(default_factory=Score)
    stats: SessionStats = field(default_factory=SessionStats)
    schedule: Schedule = field(default_factory=Schedule)

    @property
    def rules(self) -> Rules:
        """The rules in force."""
        return self.setup.rules

    @property
    def dealt(self) -> int:
        """Cards dealt from this shoe so far (the round in play's included)."""
        return 52 * self.rules.decks - self.shoe.total
