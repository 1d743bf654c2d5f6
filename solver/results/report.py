"""The report's figures: every result the PAR sheet lays out, gathered once.

:func:`solver.studies.report.report_figures` computes them (exact solves, the table of
players, game protection, the simulator's cross-check, worked examples and invariants);
:mod:`solver.present.report` only lays :class:`ReportFigures` out.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from solver.model.cards import Card, value_label
from solver.model.cells import Action, Actions, cell_name, cell_of
from solver.model.hands import hand_of, hard_total
from solver.model.outcomes import MainOutcome
from solver.model.rules import Rules
from solver.results.charts import Chart
from solver.results.game import GameResult, JointOutcomes
from solver.results.paytable import Variant
from solver.results.protection import ProtectionStudy
from solver.results.seats import TableOfPlayers
from solver.results.simulation import ChiSquare, SeatRound, SimulationResult
from solver.results.strategies import PolicyResult
from solver.results.volatility import RatioRow, Volatility

#: A point of a plotted curve: x and y as drawn.
Point = tuple[float, float]
#: The dealer's final-result distribution for each Bonus card value.
DealerRows = list[tuple[int, dict[str, Fraction]]]


@dataclass(frozen=True, slots=True)
class RatioCurve:
    """The round's house edge (%) against the Bonus ratio, and at the ratio in force."""

    points: tuple[Point, ...]
    in_force: Point


@dataclass(frozen=True, slots=True)
class PaySensitivity:
    """How the round's house edge moves with one tier's pay, the others held.

    The edge is an exact straight line in the pay: ``edge`` at the pay in force plus
    ``slope`` per unit of pay; ``line`` is its two ends as plotted, ``(pay, edge)``.
    """

    tier: str
    """The tier's name (a :class:`solver.model.outcomes.BonusOutcome` for clause 4's)."""
    pays: Fraction
    slope: Fraction
    edge: Fraction
    line: tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]

    @property
    def break_even(self) -> Fraction | None:
        """The pay of this tier at which the round's edge is exactly 0 (negative: none).

        None when the pay moves nothing: the tier cannot happen in this shoe (no suited
        match in one deck, where the player's card and the Bonus card differ).
        """
        if self.slope == 0:
            return None
        return self.pays - self.edge / self.slope


@dataclass(frozen=True, slots=True)
class PlayerStrategy:
    """The player's strategy a report evaluates beside perfect play (by default, perfect play).

    >>> PlayerStrategy("chart:charts/mine.csv").shown, PlayerStrategy(" Never-Bust ").key
    ('chart:mine.csv', 'never-bust')
    """

    name: str = "optimal"
    """As the user gave it: a policy name or ``chart:FILE``."""
    chart: Actions | None = None
    """The cells of the chart file a ``chart:FILE`` names, read by the caller."""
    digest: str | None = None
    """The chart file's SHA-256, for the manifest (the rebuild reads the same file)."""

    @property
    def key(self) -> str:
        """The name as :func:`~solver.exact.strategies.realistic_play` keys its policy."""
        text = self.name.strip()
        return text if self.chart is not None else text.lower()

    @property
    def shown(self) -> str:
        """The name as the report prints it: a chart file by its file's name alone."""
        text = self.name.strip()
        if not text.lower().startswith("chart:"):
            return self.key
        path = text.partition(":")[2].strip()
        return "chart:" + path.replace("\\", "/").rsplit("/", 1)[-1]

    @property
    def perfect(self) -> bool:
        """Whether the player's strategy is perfect play (the report's default)."""
        return self.chart is None and self.key == "optimal"


@dataclass(frozen=True, slots=True)
class ReportFigures:
    """Every figure of the report on the game under ``rules``, exact where it can be."""

    rules: Rules
    game: GameResult[Fraction]
    """The game under the rules in force, solved exactly from the full shoe."""
    joint: JointOutcomes
    """The round's joint (main, Bonus) outcome probabilities."""
    volatility: Volatility
    ratios: tuple[RatioRow, ...]
    """The round at each tabulated Bonus ratio."""
    ratio_curve: RatioCurve
    dealer: DealerRows
    sensitivity: tuple[PaySensitivity, ...]
    variants: tuple[Variant, ...]
    """The headline figures of each variant, one rule changed from :attr:`rules`."""
    chart: Chart
    table: TableOfPlayers
    protection: ProtectionStudy
    simulation: SimulationResult
    """The simulator beside the exact figures, a fresh shoe every round."""
    cut_card: SimulationResult
    """The same, the shoe dealt to a cut card at :data:`~solver.studies.report.CUT_PENETRATION`."""
    paytables: tuple[LetteredGame, ...] = ()
    """The game under each paytable of the report, lettered A, B, ...; A is :attr:`game`."""
    paytables_chosen: str = ""
    """How the report chose the paytables beside the one in force, in words (empty when
    they were given)."""
    strategies: tuple[PolicyResult, ...] = ()
    """The main wager and round under perfect play, the printed chart and realistic play."""
    examples: tuple[WorkedExample, ...] = ()
    invariants: tuple[Invariant, ...] = ()
    return_table_test: ChiSquare | None = None
    """Pearson's chi-square of the simulated round's outcomes against the exact return table."""
    sizes: tuple[tuple[str, int], ...] = ()
    """The size of every simulated study, by its option's name, for the manifest."""
    strategy: PlayerStrategy = PlayerStrategy()
    """The player's strategy: among :attr:`strategies`, and what :attr:`volatility` plays
    (its sessions from the session's exact distribution)."""


@dataclass(frozen=True, slots=True)
class LetteredGame:
    """One paytable of the report: its letter and the game priced under it."""

    letter: str
    game: GameResult[Fraction]


# --- What the report checks as it is built ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExampleDeal:
    """A worked example as dealt: what it shows, the clauses it reads, the cards in order.

    The order is the player's card, the Bonus card, the player's draws, then the dealer's.
    """

    shows: str
    clauses: tuple[int, ...]
    cards: str
    player_draws: int


@dataclass(frozen=True, slots=True)
class WorkedExample:
    """A worked example settled by the simulator: the cards each side holds and the result."""

    deal: ExampleDeal
    player: tuple[Card, ...]
    bonus: Card
    dealer: tuple[Card, ...]
    result: SeatRound
    dealer_total: int | None
    """The dealer's final total (``None``: bust), as :func:`dealer_total` counts it."""
    dealer_natural: bool


@dataclass(frozen=True, slots=True)
class Invariant:
    """A check the report makes as it is built, what it found, and whether it held."""

    name: str
    found: str
    holds: bool


def chart_differences(example: WorkedExample, chart: Actions) -> tuple[str, ...]:
    """Where the example's player plays otherwise than ``chart``, each in words (``the chart
    stands on hard 16 v 4``); empty when every decision is the chart's.

    The player hits with every own card but the last and stands on the last, unless it
    busts; a blackjack is paid before any decision.
    """
    if example.result.main is MainOutcome.BLACKJACK:
        return ()
    bonus = example.bonus.points
    found = []
    for n in range(1, len(example.player) + 1):
        hand = hand_of(c.points for c in example.player[:n])
        if hard_total(hand) > 21:
            break
        played = Action.HIT if n < len(example.player) else Action.STAND
        cell = cell_of(hand)
        wanted = chart.action(cell, bonus)
        if wanted is not played:
            verb = "hits" if wanted is Action.HIT else "stands"
            found.append(f"the chart {verb} on {cell_name(cell)} v {value_label(bonus)}")
    return tuple(found)
