"""Game protection's results: effects of removal, counts, shoe states and the report's study.

:mod:`solver.exact.protection` measures the effects of removal and judges counts
(``cbj eor``, ``cbj count``), :mod:`solver.exact.shoe_states` deals and solves random shoes
(``cbj shoe-states``), and :mod:`solver.studies.protection` gathers them with a simulated
counter for the report.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic

from solver.model.cards import Card, Shoe
from solver.model.counts import Tags
from solver.model.numbers import float_json, number_json
from solver.model.rules import Rules
from solver.results.attack import AttackResult
from solver.results.betting import BetResult
from solver.results.frames import Tabular
from solver.results.game import N
from solver.results.indices import IndicesResult
from solver.results.kinds import Kind
from solver.results.simulation import CounterStatistics

#: The four wagers an EOR is measured on, in output order.
WAGERS = ("main", "main_chart", "bonus", "round")


@dataclass(frozen=True, slots=True)
class WholeDeck:
    """The linear prediction of removing one whole deck beside the exact change, per wager."""

    linear: dict[str, Fraction | float]
    """Four times the sum of the 13 rank EORs: one deck's 52 cards (a linear estimate)."""
    exact: dict[str, Fraction | float] | None
    """Exact change of EV when the 52 cards leave (``None``: the shoe cannot spare a deck)."""

    def to_json(self) -> dict[str, Any]:
        """Each wager's linear prediction, exact change and their difference."""
        out: dict[str, Any] = {}
        for wager, linear in self.linear.items():
            true = None if self.exact is None else self.exact[wager]
            out[wager] = {
                "linear_estimate": number_json(linear),
                "exact_change": None if true is None else number_json(true),
                "difference": None if true is None else number_json(true - linear),
            }
        return out


@dataclass(frozen=True, slots=True, repr=False)
class EffectsOfRemoval(Tabular, Generic[N]):
    """EORs of the 13 ranks on each wager, with the base EVs and the whole-deck check."""

    rules: Rules
    removed: tuple[Card, ...]
    exact: bool
    base: dict[str, N]
    """Each wager's EV in the shoe before the one card is removed."""
    effects: dict[str, dict[str, N]]
    """``effects[wager][rank label]``: the EV change when one card of the rank leaves."""
    whole_deck: WholeDeck

    @property
    def cards(self) -> int:
        """Cards in the shoe the EORs are measured from."""
        return Shoe.full(self.rules.decks).remove(self.removed).total

    def to_json(self) -> dict[str, Any]:
        """The table as ``cbj eor --format json`` prints it."""
        document: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "removed": [str(c) for c in self.removed],
            "exact": self.exact,
            "cards": self.cards,
            "base": {w: number_json(v) for w, v in self.base.items()},
        }
        for wager in WAGERS:
            document[wager] = {r: number_json(v) for r, v in self.effects[wager].items()}
        document["whole_deck"] = self.whole_deck.to_json()
        return document


@dataclass(frozen=True, slots=True)
class CountSystem:
    """One count's tags with its betting correlations and EV slopes per true count."""

    name: str
    tags: Tags
    betting_correlation: dict[str, float]
    ev_per_true_count: dict[str, Fraction | float]

    def to_json(self) -> dict[str, Any]:
        """The count as one entry of ``systems`` in ``cbj count --format json``."""
        return {
            "name": self.name,
            "tags": dict(self.tags),
            "betting_correlation": {w: float_json(v) for w, v in self.betting_correlation.items()},
            "ev_per_true_count": {w: number_json(v) for w, v in self.ev_per_true_count.items()},
        }


#: The wagers a count is judged on.
COUNT_WAGERS = ("main", "round")


@dataclass(frozen=True, slots=True, repr=False)
class Counts(Tabular):
    """Counts judged against the exact EORs of one shoe."""

    rules: Rules
    eor: EffectsOfRemoval[Any]
    systems: tuple[CountSystem, ...]

    def to_json(self) -> dict[str, Any]:
        """The counts as ``cbj count --format json`` prints them."""
        return {
            "rules": self.rules.to_json(),
            "removed": [str(c) for c in self.eor.removed],
            "cards": self.eor.cards,
            "systems": [s.to_json() for s in self.systems],
        }


# --- Shoe states -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Distribution:
    """Summary of one figure over the states of a depth."""

    mean: float
    standard_deviation: float
    """Sample standard deviation (divisor n - 1)."""
    percentiles: dict[int, float]
    positive_share: float
    """Share of states whose value is above zero."""

    def to_json(self) -> dict[str, Any]:
        """Mean, SD, percentiles keyed ``"5"``..``"95"`` and the share above zero."""
        return {
            "mean": float_json(self.mean),
            "standard_deviation": float_json(self.standard_deviation),
            "percentiles": {str(p): float_json(v) for p, v in self.percentiles.items()},
            "positive_share": float_json(self.positive_share),
        }


def _optional_json(value: float | None) -> dict[str, Any] | None:
    return None if value is None else float_json(value)


@dataclass(frozen=True, slots=True)
class LinearFit:
    """The least-squares line ``y = slope * x + intercept`` and its R².

    Each is ``None`` where it is undefined (every ``x`` alike; R² also when every ``y`` is).
    """

    slope: float | None
    intercept: float | None
    r_squared: float | None

    def to_json(self) -> dict[str, Any]:
        """Slope, intercept and R² (``null`` where undefined)."""
        return {
            "slope": _optional_json(self.slope),
            "intercept": _optional_json(self.intercept),
            "r_squared": _optional_json(self.r_squared),
        }


@dataclass(frozen=True, slots=True)
class PredictionCheck:
    """How far a linear estimate lands from the solved values."""

    mean_absolute_error: float
    max_error: float
    """The largest absolute error."""
    r_squared: float | None
    """One less the residual sum of squares over the total sum of squares of the values."""

    def to_json(self) -> dict[str, Any]:
        """Mean absolute error, largest error and R²."""
        return {
            "mean_absolute_error": float_json(self.mean_absolute_error),
            "max_error": float_json(self.max_error),
            "r_squared": _optional_json(self.r_squared),
        }


@dataclass(frozen=True, slots=True)
class DepthStates:
    """The states dealt to one depth, summarised."""

    depth: float
    cards_dealt: int
    cards_left: int
    round: Distribution
    main: Distribution
    true_count: Distribution
    fit: LinearFit
    """Round EV against the true count."""
    eor_prediction: PredictionCheck
    """The linear EOR estimate of the round EV against the solved round EV."""

    def to_json(self) -> dict[str, Any]:
        """The depth as one entry of ``depths`` in ``cbj shoe-states --format json``."""
        return {
            "depth": self.depth,
            "cards_dealt": self.cards_dealt,
            "cards_left": self.cards_left,
            "round": self.round.to_json(),
            "main": self.main.to_json(),
            "true_count": self.true_count.to_json(),
            "fit": self.fit.to_json(),
            "eor_prediction": self.eor_prediction.to_json(),
        }


@dataclass(frozen=True, slots=True, repr=False)
class ShoeStates(Tabular):
    """Random shoes dealt to each depth and solved: EV spread, count fit, EOR estimate."""

    rules: Rules
    samples: int
    seed: int
    system: str
    tags: Tags
    full_shoe: dict[str, float]
    """The undepleted shoe's main and round EVs (float)."""
    depths: tuple[DepthStates, ...]

    def to_json(self) -> dict[str, Any]:
        """The study as ``cbj shoe-states --format json`` prints it."""
        return {
            "rules": self.rules.to_json(),
            "samples": self.samples,
            "seed": self.seed,
            "count": {"name": self.system, "tags": dict(self.tags)},
            "full_shoe": {k: float_json(v) for k, v in self.full_shoe.items()},
            "depths": [d.to_json() for d in self.depths],
        }


# --- The report's study -------------------------------------------------------------------------

#: Seed of the report's shoe-state study and counter runs (the PDF is reproducible).
PROTECTION_SEED = 20_261_130
#: The counter's spread in main units and the share of the shoe dealt before a shuffle.
SPREAD = (1, 8)
PENETRATION = 0.83


@dataclass(frozen=True, slots=True)
class CounterPlan:
    """The report's counter: the best level-1 count, its ramp and its wong-out point.

    The ramp is read off the count's linear EV line: ``break_even`` is the true count at
    which the round's EV reaches 0 (to the nearest half), the bet doubles from half a
    true count below it up to the spread's top half a count above it, and the back-counter
    sits out below one true count under it.
    """

    name: str
    tags: Tags
    break_even: float

    @property
    def ramp(self) -> tuple[tuple[float, int], ...]:
        """Two units from half a true count below break-even, four at it, eight above."""
        b = self.break_even
        return ((b - 0.5, 2), (b, 4), (b + 0.5, 8))

    @property
    def wong_out(self) -> float:
        """The true count below which the back-counter watches without betting."""
        return self.break_even - 1


@dataclass(frozen=True, slots=True)
class ProtectionStudy:
    """Everything the report's "Game protection" section shows, under ``rules``."""

    rules: Rules
    eor: EffectsOfRemoval[Any]
    plan: CounterPlan
    systems: tuple[CountSystem, ...]
    """Hi-Lo and the best counts of each level, judged against the round's EORs."""
    shoe_samples: int
    every_round: CounterStatistics
    """The counter who plays every round."""
    back_counter: CounterStatistics
    """The counter who sits out below :attr:`CounterPlan.wong_out`."""
    counter_rounds: int
    best: CountSystem
    """The best level-2 count (a complete search), which the indices and the ramp use."""
    indices: IndicesResult
    betting: BetResult
    attack: AttackResult
    seed: int = PROTECTION_SEED
    spread: tuple[int, int] = SPREAD
    penetration: float = PENETRATION


#: Effects of removal, kept by their rules, removed cards and arithmetic (``cbj count``
#: after ``cbj eor`` finds them).
EFFECTS: Kind[EffectsOfRemoval[Any]] = Kind("eor", EffectsOfRemoval)
#: The report's game-protection study, kept by its rules and sizes.
PROTECTION: Kind[ProtectionStudy] = Kind("protection", ProtectionStudy)
