"""What a simulation found: its counts, the estimates drawn from them, and a counter's bets.

:func:`solver.sim.simulate` deals the rounds and keeps the counts
(:class:`SimulationResult`); every estimate, interval and chi-square test is derived from
them here with the standard library alone.  Also here: the wagers a simulation estimates,
a seat's round from a stacked shoe, a card counter's settings (the simulator bets them,
:mod:`solver.sim.counter`) and the casino's hold per table-round.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from solver.model.cards import Card
from solver.model.counts import LABELS, MAX_UNITS, Tags
from solver.model.errors import CountError
from solver.model.numbers import number_json
from solver.model.outcomes import MAIN_OUTCOMES, MainOutcome, bonus_pay, main_payoffs
from solver.model.rules import Rules
from solver.results.frames import Tabular
from solver.results.indices import IndexRule
from solver.results.kinds import Kind


class Wager(StrEnum):
    """The figures a simulation estimates per seat and round."""

    MAIN = "main"
    BONUS = "bonus"
    ROUND = "round"
    """Main net plus ``bonus_ratio`` times Bonus net."""


def payoffs(rules: Rules) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """Net result per unit of each main outcome and each Bonus outcome, in code order.

    The Bonus codes are the paytable's tiers, best first, then the wager lost.
    """
    main = main_payoffs(rules)
    return (
        tuple(main[o] for o in MAIN_OUTCOMES),
        tuple(bonus_pay(rules.paytable, o) for o in rules.paytable.outcomes),
    )


@dataclass(frozen=True, slots=True)
class SeatRound:
    """How one seat's round ended, from a stacked shoe."""

    main: MainOutcome
    bonus: str
    """The Bonus tier reached (its name), or ``lose``."""
    main_net: Fraction
    bonus_net: Fraction
    round_net: Fraction


# --- A card counter ------------------------------------------------------------------------------

#: Largest bet of a spread or a ramp, in units.
#: True-count buckets for seat 1's round by true count: ``k`` holds true counts from ``k``
#: to ``k + 1``; the first and last also hold every count below and above them.
TRUE_COUNT_BUCKETS = tuple(range(-10, 11))


def default_ramp(spread: tuple[int, int]) -> tuple[tuple[float, int], ...]:
    """The smallest bet up to a true count below 2, then one unit more per true count.

    >>> default_ramp((1, 4))
    ((2.0, 2), (3.0, 3), (4.0, 4))
    """
    low, high = spread
    return tuple((float(k), low + k - 1) for k in range(2, high - low + 2))


@dataclass(frozen=True, slots=True)
class Counter:
    """A counter's count, spread, bet ramp and wong-out point.

    ``ramp`` is a list of steps ``(true count, units)`` in increasing true count: the bet
    is the units of the highest step reached (the spread's minimum below the first),
    clamped to the spread.  With ``wong_out`` the counter sits out every round whose true
    count is below it.  ``indices`` are the plays the counter changes by the true count at
    the start of the round (none: it plays its strategy throughout).  Without
    ``mid_shoe_entry`` it sits down only at a shuffle, and leaves until the next one below
    ``wong_out`` (whole shoes only are counted).
    """

    name: str
    tags: Tags
    spread: tuple[int, int] = (1, 8)
    ramp: tuple[tuple[float, int], ...] | None = None
    wong_out: float | None = None
    indices: tuple[IndexRule, ...] = ()
    mid_shoe_entry: bool = True

    def __post_init__(self) -> None:
        if sorted(self.tags) != sorted(LABELS):
            raise CountError(f"count {self.name!r} must tag every rank {' '.join(LABELS)}")
        low, high = self.spread
        if not 1 <= low <= high <= MAX_UNITS:
            raise CountError(f"spread {low}-{high} must satisfy 1 <= MIN <= MAX <= {MAX_UNITS}")
        if [t for t, _ in self.steps] != sorted({t for t, _ in self.steps}):
            raise CountError("ramp steps must be in increasing true count, each once")
        cells = {(i.soft, i.total, i.bonus) for i in self.indices}
        if len(cells) != len(self.indices):
            raise CountError("index plays must name each chart cell and Bonus card once")

    @property
    def steps(self) -> tuple[tuple[float, int], ...]:
        """The ramp's steps (the default ramp when none was given)."""
        return self.ramp if self.ramp is not None else default_ramp(self.spread)

    @property
    def deck_sum(self) -> int:
        """Sum of the tags of one deck's 52 cards (0 for a balanced count)."""
        return 4 * sum(self.tags.values())

    def to_json(self) -> dict[str, object]:
        """The count, spread, ramp and wong-out point as JSON values."""
        return {
            "system": self.name,
            "tags": dict(self.tags),
            "spread": list(self.spread),
            "ramp": [{"true_count": t, "units": u} for t, u in self.steps],
            "wong_out": self.wong_out,
            "indices": [i.to_json() for i in self.indices],
            "mid_shoe_entry": self.mid_shoe_entry,
        }


# --- Estimates -----------------------------------------------------------------------------------

#: z of a two-sided 95% normal interval.
Z95 = 1.959963984540054


def chi_square_sf(statistic: float, dof: int) -> float:
    """Upper tail probability of a chi-square distribution with ``dof`` degrees of freedom.

    >>> round(chi_square_sf(7.814727903251178, 3), 6)
    0.05
    """
    if dof < 1:
        raise ValueError(f"degrees of freedom {dof} must be at least 1")
    if statistic <= 0:
        return 1.0
    half = statistic / 2
    if dof % 2 == 0:
        term = total = math.exp(-half)
        for i in range(1, dof // 2):
            term *= half / i
            total += term
        return min(1.0, total)
    total = math.erfc(math.sqrt(half))
    term = math.exp(-half) * math.sqrt(half) / math.gamma(1.5)
    for i in range(1, (dof + 1) // 2):
        total += term
        term *= half / (i + 0.5)
    return min(1.0, total)


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """Pearson's goodness-of-fit test of outcome counts against exact probabilities."""

    statistic: float
    dof: int
    p_value: float

    @classmethod
    def test(cls, observed: Mapping[str, int], expected: Mapping[str, Fraction]) -> ChiSquare:
        """Compare counts with probabilities; outcomes of probability 0 must never occur."""
        n = sum(observed.values())
        statistic = 0.0
        cells = 0
        for name, p in expected.items():
            seen = observed.get(name, 0)
            if p == 0:
                if seen:
                    return cls(math.inf, max(cells, 1), 0.0)
                continue
            cells += 1
            statistic += (seen - n * float(p)) ** 2 / (n * float(p))
        dof = max(cells - 1, 1)
        return cls(statistic, dof, chi_square_sf(statistic, dof))

    def to_json(self) -> dict[str, Any]:
        """The test as plain JSON values."""
        return {"statistic": _finite(self.statistic), "dof": self.dof, "p_value": self.p_value}


@dataclass(frozen=True, slots=True)
class ExactFigure:
    """An exact expectation to check a simulated wager against.

    ``probabilities``, keyed like the estimate's frequencies, adds a chi-square test.
    """

    mean: Fraction | float
    probabilities: Mapping[str, Fraction] | None = None


@dataclass(frozen=True, slots=True)
class Estimate:
    """Sample statistics of one wager's net result per seat and round."""

    rounds: int
    """Seat-rounds behind the figures."""
    mean: float
    standard_error: float
    frequencies: Mapping[str, int]
    exact: Fraction | float | None = None
    chi_square: ChiSquare | None = None

    @property
    def ci95(self) -> tuple[float, float]:
        """95% confidence interval of the mean (normal approximation)."""
        half = Z95 * self.standard_error
        return (self.mean - half, self.mean + half)

    @property
    def z(self) -> float | None:
        """Standard errors between the sample mean and the exact figure, when there is one."""
        if self.exact is None or not self.standard_error > 0:
            return None
        return (self.mean - float(self.exact)) / self.standard_error

    def to_json(self) -> dict[str, Any]:
        """The estimate as plain JSON values (exact figures as ``{"exact", "float"}``)."""
        document: dict[str, Any] = {
            "mean": self.mean,
            "standard_error": _finite(self.standard_error),
            "ci95": [_finite(x) for x in self.ci95],
            "frequencies": dict(self.frequencies),
        }
        if self.exact is not None:
            document["exact"] = number_json(self.exact)
            document["z"] = self.z
        if self.chi_square is not None:
            document["chi_square"] = self.chi_square.to_json()
        return document


def _finite(x: float) -> float | None:
    """A float for JSON, None where it is not finite."""
    return x if math.isfinite(x) else None


def _estimate(
    n: int,
    mean: Fraction,
    second: Fraction | float,
    frequencies: Mapping[str, int],
    exact: ExactFigure | None,
    scale: int = 1,
) -> Estimate:
    """Mean and standard error from the first two sample moments of a per-round sum.

    ``mean`` and ``second`` are moments of the per-round sum over ``scale`` seats; the
    estimate is per seat.
    """
    variance = float(second) - float(mean) ** 2
    standard_error = math.sqrt(max(variance, 0.0) / (n - 1)) / scale if n > 1 else math.nan
    chi = None
    if exact is not None and exact.probabilities is not None:
        chi = ChiSquare.test(frequencies, exact.probabilities)
    return Estimate(
        rounds=n * scale,
        mean=float(mean / scale),
        standard_error=standard_error,
        frequencies=frequencies,
        exact=None if exact is None else exact.mean,
        chi_square=chi,
    )


@dataclass(frozen=True, slots=True)
class SeatStatistics:
    """Estimates of the main wager, the Bonus wager and the whole round."""

    main: Estimate
    bonus: Estimate
    round: Estimate

    def __getitem__(self, wager: Wager | str) -> Estimate:
        estimate: Estimate = getattr(self, Wager(wager).value)
        return estimate

    def to_json(self) -> dict[str, Any]:
        """Each wager's estimate as JSON."""
        return {w.value: self[w].to_json() for w in Wager}


@dataclass(frozen=True, slots=True)
class CounterStatistics:
    """What the counter at seat 1 bet and won, per round it played.

    A round bet at ``u`` units stakes ``u`` on the main wager and ``u * bonus_ratio`` on
    the Bonus wager; every figure is in units.
    """

    counter: Counter
    bonus_ratio: Fraction
    rounds_by_bet: tuple[int, ...]
    """``rounds_by_bet[u]``: rounds bet at ``u`` units; ``[0]``: rounds sat out."""
    net: float
    """Sum of the net results of the rounds played, in units (main plus Bonus)."""
    squares: float
    """Sum of their squares."""
    by_true_count: tuple[int, ...] = ()
    """Rounds dealt in each bucket of :data:`TRUE_COUNT_BUCKETS`, played or not."""
    unit_net: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    """Sum and sum of squares, per bucket, of seat 1's round net at one unit."""

    @property
    def rounds_by_true_count(self) -> tuple[tuple[int, int, float, float], ...]:
        """``(true count, rounds, round EV at one unit, its standard error)`` per bucket dealt.

        Every round dealt counts, whether the counter bet or not: this is what the game
        pays at each true count, a bet of one unit on the main wager and its Bonus wager.
        """
        rows = []
        for k, n, total, second in zip(
            TRUE_COUNT_BUCKETS, self.by_true_count, *self.unit_net, strict=True
        ):
            if n:
                mean = total / n
                variance = (second - n * mean**2) / (n - 1) if n > 1 else math.nan
                rows.append((k, n, mean, math.sqrt(max(variance, 0.0) / n)))
        return tuple(rows)

    @property
    def rounds_played(self) -> int:
        """Rounds the counter bet on."""
        return sum(self.rounds_by_bet[1:])

    @property
    def rounds_sat_out(self) -> int:
        """Rounds the counter watched without a bet (below the wong-out true count)."""
        return self.rounds_by_bet[0]

    @property
    def mean(self) -> float:
        """Net result per round played, in units."""
        played = self.rounds_played
        return self.net / played if played else math.nan

    @property
    def sd(self) -> float:
        """Standard deviation of the net result of one round played, in units."""
        played = self.rounds_played
        if played < 2:
            return math.nan
        variance = (self.squares - played * self.mean**2) / (played - 1)
        return math.sqrt(max(variance, 0.0))

    @property
    def standard_error(self) -> float:
        """Standard error of :attr:`mean` (rounds taken as independent)."""
        played = self.rounds_played
        return self.sd / math.sqrt(played) if played else math.nan

    @property
    def rounds_dealt(self) -> int:
        """Rounds dealt at the counter's seat, played or sat out."""
        return sum(self.rounds_by_bet)

    @property
    def mean_dealt(self) -> float:
        """Net result per round dealt (a round sat out counts as nothing), in units."""
        return self.net / self.rounds_dealt if self.rounds_dealt else math.nan

    @property
    def standard_error_dealt(self) -> float:
        """Standard error of :attr:`mean_dealt` (rounds taken as independent)."""
        n = self.rounds_dealt
        variance = (self.squares - n * self.mean_dealt**2) / (n - 1) if n > 1 else math.nan
        return math.sqrt(max(variance, 0.0) / n) if n > 1 else math.nan

    @property
    def average_bet(self) -> float:
        """Main bet per round played, in units."""
        bet = sum(u * n for u, n in enumerate(self.rounds_by_bet))
        played = self.rounds_played
        return bet / played if played else math.nan

    @property
    def wagered_per_round(self) -> float:
        """Main and Bonus bets together per round played, in units."""
        return self.average_bet * (1 + float(self.bonus_ratio))

    @property
    def edge(self) -> float:
        """Net result per unit wagered, main and Bonus bets together."""
        return self.mean / self.wagered_per_round

    @property
    def n0(self) -> float | None:
        """``(SD / mean)^2``: rounds for the expected win to equal one SD; None unless ahead."""
        if not self.mean > 0:
            return None
        return (self.sd / self.mean) ** 2

    @property
    def ci95(self) -> tuple[float, float]:
        """95% confidence interval of :attr:`mean` (normal approximation)."""
        half = Z95 * self.standard_error
        return (self.mean - half, self.mean + half)

    @property
    def edge_ci95(self) -> tuple[float, float]:
        """:attr:`ci95` per unit wagered (the average bet taken as known)."""
        low, high = self.ci95
        return (low / self.wagered_per_round, high / self.wagered_per_round)

    def to_json(self) -> dict[str, Any]:
        """The counter's settings and results as plain JSON values (win rate per 100 rounds)."""
        return {
            **self.counter.to_json(),
            "rounds_played": self.rounds_played,
            "rounds_sat_out": self.rounds_sat_out,
            "rounds_by_bet": {str(u): n for u, n in enumerate(self.rounds_by_bet) if n},
            "win_rate_per_100": {
                "mean": _finite(100 * self.mean),
                "standard_error": _finite(100 * self.standard_error),
                "ci95": [_finite(100 * x) for x in self.ci95],
            },
            "win_rate_per_100_dealt": {
                "mean": _finite(100 * self.mean_dealt),
                "standard_error": _finite(100 * self.standard_error_dealt),
            },
            "average_bet": _finite(self.average_bet),
            "wagered_per_round": _finite(self.wagered_per_round),
            "edge": _finite(self.edge),
            "edge_ci95": [_finite(x) for x in self.edge_ci95],
            "sd_per_round": _finite(self.sd),
            "n0": self.n0,
            "by_true_count": [
                {
                    "true_count": k,
                    "rounds": n,
                    "round_ev": mean,
                    "standard_error": _finite(error),
                }
                for k, n, mean, error in self.rounds_by_true_count
            ],
        }


@dataclass(frozen=True, slots=True, repr=False)
class SimulationResult(Tabular):
    """Counts of a simulation run and the settings that produced them."""

    rules: Rules
    rounds: int
    seats: int
    strategy: str
    penetration: float | None
    """Share of the shoe dealt before a reshuffle; None for a fresh shoe every round."""
    seed: int
    removed: tuple[Card, ...]
    joint: tuple[tuple[tuple[int, ...], ...], ...]
    """``joint[seat][main outcome][bonus outcome]``: seat-rounds of each pair of outcomes."""
    squares: tuple[float, float, float]
    """Sums over rounds of the squared seat-summed net of main, Bonus and round."""
    exact: Mapping[Wager, ExactFigure] = field(default_factory=dict)
    counter: CounterStatistics | None = None
    """The card counter at seat 1, when one played."""
    buffer: int | None = None  # a continuous shuffler's tray, in cards, when one dealt

    def seat(self, index: int) -> SeatStatistics:
        """Statistics of one seat (0 is the first to act)."""
        return self._statistics(self.joint[index], None, 1)

    @property
    def overall(self) -> SeatStatistics:
        """Statistics per seat and round over every seat; seats share a round's cards."""
        summed = tuple(
            tuple(sum(seat[m][b] for seat in self.joint) for b in range(len(self.joint[0][0])))
            for m in range(4)
        )
        if self.seats == 1:
            return self._statistics(summed, None, 1)
        return self._statistics(summed, self.squares, self.seats)

    def _statistics(
        self,
        joint: Sequence[Sequence[int]],
        squares: tuple[float, float, float] | None,
        scale: int,
    ) -> SeatStatistics:
        n = self.rounds
        main_pay, bonus_pay = payoffs(self.rules)
        bonus_outcomes = self.rules.paytable.outcomes
        ratio = self.rules.bonus_ratio
        kinds = range(len(bonus_pay))
        cells = [(m, b, joint[m][b]) for m in range(4) for b in kinds]

        def moments(value: Callable[[int, int], Fraction], k: int) -> tuple[Fraction, Fraction]:
            mean = sum((value(m, b) * c for m, b, c in cells), Fraction(0)) / n
            second = sum((value(m, b) ** 2 * c for m, b, c in cells), Fraction(0)) / n
            return mean, (second if squares is None else Fraction(squares[k]) / n)

        exact = self._exact_figures()
        estimates = []
        frequencies: list[dict[str, int]] = [
            {o.value: sum(joint[i][b] for b in kinds) for i, o in enumerate(MAIN_OUTCOMES)},
            {o: sum(joint[m][i] for m in range(4)) for i, o in enumerate(bonus_outcomes)},
            {
                f"{mo.value}/{bo}": joint[m][b]
                for m, mo in enumerate(MAIN_OUTCOMES)
                for b, bo in enumerate(bonus_outcomes)
            },
        ]
        values: list[Callable[[int, int], Fraction]] = [
            lambda m, b: main_pay[m],
            lambda m, b: bonus_pay[b],
            lambda m, b: main_pay[m] + ratio * bonus_pay[b],
        ]
        for k, wager in enumerate(Wager):
            mean, second = moments(values[k], k)
            figure = exact.get(wager)
            if scale > 1 and figure is not None:
                figure = ExactFigure(figure.mean)  # seat-rounds share cards: no chi-square
            estimates.append(_estimate(n, mean, second, frequencies[k], figure, scale))
        return SeatStatistics(*estimates)

    def _exact_figures(self) -> dict[Wager, ExactFigure]:
        """Exact figures given, with the round's derived from main and Bonus when possible."""
        figures = dict(self.exact)
        main, bonus = figures.get(Wager.MAIN), figures.get(Wager.BONUS)
        if Wager.ROUND not in figures and main is not None and bonus is not None:
            mean = main.mean + self.rules.bonus_ratio * bonus.mean
            figures[Wager.ROUND] = ExactFigure(mean)
        return figures

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON document, carrying the rules and settings that made it."""
        overall = self.overall
        shoe = "fresh" if self.penetration is None else {"penetration": self.penetration}
        document: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "rounds": self.rounds,
            "seats": self.seats,
            "strategy": self.strategy,
            "shoe": shoe if self.buffer is None else {"continuous_shuffler": self.buffer},
            "seed": self.seed,
            "removed": [str(c) for c in self.removed],
            **overall.to_json(),
        }
        if self.seats > 1:
            document["per_seat"] = [self.seat(i).to_json() for i in range(self.seats)]
        if self.counter is not None:
            document["counter"] = self.counter.to_json()
        return document


@dataclass(frozen=True, slots=True)
class TableEstimate:
    """The casino's mean result per table-round of one wager, with its SD and 95% interval."""

    seats: int
    wager: Wager
    hold: float
    """Mean casino win per table-round (the negative of the seats' total net)."""
    standard_error: float
    standard_deviation: float
    """SD of the casino's result per table-round."""

    @property
    def ci95(self) -> tuple[float, float]:
        """95% confidence interval of the hold (normal approximation)."""
        half = Z95 * self.standard_error
        return (self.hold - half, self.hold + half)

    def to_json(self) -> dict[str, Any]:
        """The estimate as JSON."""
        return {
            "seats": self.seats,
            "wager": self.wager.value,
            "hold": self.hold,
            "standard_error": self.standard_error,
            "ci95": list(self.ci95),
            "sd": self.standard_deviation,
        }


#: Simulations (the report's cross-checks), kept by their rules and settings: rounds, seed,
#: shoe and strategy.
SIMULATION: Kind[SimulationResult] = Kind("simulation", SimulationResult)
