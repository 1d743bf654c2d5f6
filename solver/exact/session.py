"""Session odds: the exact distribution of the net result over N rounds, and the risk of ruin.

A round's net result (main wager 1, Bonus wager at the ratio) takes a few rational values;
they all lie on a lattice of step ``h`` = the gcd of the nets, so the net after N
independent rounds is ``h`` times an integer and its distribution is the N-fold
convolution of the one-round table (:func:`round_table`).  Two methods compute it:

* ``exact``: integer weights over the common denominator ``D**N`` (``D`` the lcm of the
  round's denominators), convolved round by round; every figure is a ``Fraction``;
* ``fft``: floats, the N-fold convolution by repeated squaring, each product by FFT.  Each
  result carries ``error_bound``, a bound on the sum of the absolute errors of all the
  point probabilities (so on the error of any probability read from it); see
  :func:`fft_convolve` for the bound of one product.

The risk of ruin is a walk with an absorbing barrier at ``-B`` (:func:`ruin_within`): ruin
is the running total reaching ``-B`` or below after some round.  Its float form moves
blocks of ``K`` rounds at once: mass more than ``K`` largest losses above the barrier
cannot reach it within the block and is convolved with the K-round table by FFT; the rest
goes through a precomputed K-round killed transition matrix.  Over an unlimited session
(:func:`ruin_unlimited`) ruin is certain unless the round's EV is positive; then the walk
is iterated until Lundberg's bound on the remaining ruin is below a tolerance.

Rounds are independent and dealt from a full shoe, as the volatility figures assume.  The
round's lattice and the convolutions are in :mod:`solver.exact.lattice`, the ruin walk in
:mod:`solver.exact.ruin`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from statistics import NormalDist
from typing import Any, Literal

import numpy as np

from solver.exact.lattice import (
    Floats,
    Number,
    RoundTable,
    check_points,
    convolve_integers,
    float_power,
    round_table,
)
from solver.exact.ruin import Method, Ruin, ruin_unlimited, ruin_within
from solver.model.checks import is_whole, shown, whole_in
from solver.model.errors import SessionError
from solver.model.normal import QUANTILE_LEVELS
from solver.model.numbers import exact_json, float_json, number_json
from solver.model.rules import Rules

#: The methods a session can be computed by (``auto`` picks one).
METHODS = ("auto", "exact", "fft")

#: The longest session, in rounds.
MAX_ROUNDS = 100_000
#: ``method="auto"`` uses exact fractions up to this many rounds, floats above.
EXACT_AUTO_ROUNDS = 20
#: ``method="exact"`` is refused above this many rounds (its weights grow as ``D**N``).
EXACT_MAX_ROUNDS = 100
#: The largest likely loss is the loss that is exceeded with probability below this.
LIKELY_LEVEL = Fraction(1, 100)
#: Largest bankroll accepted, in units of the main wager.
MAX_BANKROLL = 10**12


def check_rounds(rounds: object) -> int:
    """A session length: a whole number of rounds from 1 to :data:`MAX_ROUNDS`.

    >>> check_rounds(100)
    100
    """
    if not whole_in(rounds, 1, MAX_ROUNDS):
        raise SessionError(
            f"rounds {shown(rounds)} must be a whole number from 1 to {MAX_ROUNDS:,}"
        )
    return rounds


_NUMBER = re.compile(r"\s*\+?([0-9]{1,15})(?:(\.[0-9]{1,12})|/([0-9]{1,15}))?\s*")


def parse_bankroll(bankroll: object) -> Fraction:
    """A bankroll in units of the main wager: a positive number, e.g. ``100``, ``12.5``, ``25/2``.

    >>> parse_bankroll("12.5"), parse_bankroll(40)
    (Fraction(25, 2), Fraction(40, 1))
    """
    value: Fraction | None = None
    if is_whole(bankroll) or isinstance(bankroll, Fraction):
        value = Fraction(bankroll)
    elif isinstance(bankroll, str) and (found := _NUMBER.fullmatch(bankroll)):
        whole, decimals, denominator = found.groups()
        if denominator is not None:
            value = Fraction(int(whole), int(denominator)) if int(denominator) else None
        else:
            value = Fraction(whole + (decimals or ""))
    if value is None or not 0 < value <= MAX_BANKROLL:
        raise SessionError(
            f"bankroll {shown(bankroll)} must be a positive number of units up to "
            f"{MAX_BANKROLL:,}, e.g. 100, 12.5 or 25/2"
        )
    return value


# --- The distribution after N rounds ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Distribution:
    """The net result after ``rounds`` rounds: probability ``weights[i] / denominator`` at
    net ``step * (lowest + i)``.

    ``method`` is ``exact`` (integer weights) or ``fft`` (float weights, denominator 1);
    ``error_bound`` bounds the sum of the absolute errors of the point probabilities
    (0 when exact), so the error of any probability read from it.
    """

    rounds: int
    step: Fraction
    lowest: int
    weights: Sequence[int] | Floats = field(repr=False, compare=False)
    denominator: int
    method: Method
    error_bound: float

    @property
    def exact(self) -> bool:
        """Whether the probabilities are exact fractions."""
        return self.method == "exact"

    def net(self, i: int) -> Fraction:
        """The net result of the ``i``-th entry."""
        return self.step * (self.lowest + i)

    def _mass(self, start: int, stop: int) -> Number:
        start, stop = max(start, 0), min(stop, len(self.weights))
        if start >= stop:
            return Fraction(0) if self.exact else 0.0
        if self.exact:
            return Fraction(sum(self.weights[start:stop]), self.denominator)
        return float(np.asarray(self.weights)[start:stop].sum())

    def probabilities(self) -> list[tuple[Fraction, Number]]:
        """Every (net, probability) pair with a nonzero weight, nets ascending."""
        return [
            (self.net(i), Fraction(w, self.denominator) if self.exact else float(w))
            for i, w in enumerate(self.weights)
            if w
        ]

    @property
    def total(self) -> Number:
        """The sum of the probabilities (1, or 1 within ``error_bound``)."""
        return self._mass(0, len(self.weights))

    @property
    def probability_ahead(self) -> Number:
        """Probability that the net result is above 0."""
        return self._mass(-self.lowest + 1, len(self.weights))

    @property
    def probability_even(self) -> Number:
        """Probability that the net result is exactly 0."""
        return self._mass(-self.lowest, -self.lowest + 1)

    @property
    def probability_behind(self) -> Number:
        """Probability that the net result is below 0."""
        return self._mass(0, -self.lowest)

    def quantile(self, level: Fraction) -> Fraction:
        """The smallest net ``x`` with P(net <= x) >= ``level`` (0 < level < 1)."""
        if self.exact:
            running = 0
            for i, w in enumerate(self.weights):
                running += int(w)
                if running * level.denominator >= level.numerator * self.denominator:
                    return self.net(i)
            return self.net(len(self.weights) - 1)
        cumulative = np.cumsum(np.asarray(self.weights, dtype=np.float64))
        i = int(np.searchsorted(cumulative, float(level) * float(cumulative[-1]), side="left"))
        return self.net(min(i, len(self.weights) - 1))


def distribution(table: RoundTable, rounds: int, method: Method = "fft") -> Distribution:
    """The net result after ``rounds`` rounds of ``table``, exactly or by FFT.

    >>> coin = round_table([(Fraction(-1), Fraction(1, 2)), (Fraction(1), Fraction(1, 2))])
    >>> d = distribution(coin, 2, "exact")
    >>> d.probabilities()
    [(Fraction(-2, 1), Fraction(1, 4)), (Fraction(0, 1), Fraction(1, 2)), (Fraction(2, 1), Fraction(1, 4))]
    """  # noqa: E501
    rounds = check_rounds(rounds)
    if method == "exact":
        if not table.exact:
            raise SessionError("exact session figures need the round solved exactly")
        if rounds > EXACT_MAX_ROUNDS:
            raise SessionError(
                f"exact fractions go up to {EXACT_MAX_ROUNDS} rounds, not {rounds:,}: "
                "use the float method"
            )
        check_points(rounds * (len(table.weights) - 1) + 1, rounds)
        one = list(table.weights)
        weights: list[int] = [1]
        for _ in range(rounds):
            weights = convolve_integers(weights, one)  # type: ignore[arg-type]
        return Distribution(
            rounds,
            table.step,
            table.lowest * rounds,
            tuple(weights),
            int(table.denominator) ** rounds,
            "exact",
            0.0,
        )
    floats, at, error = float_power(table, rounds)
    return Distribution(rounds, table.step, at, floats, 1, "fft", error)


# --- Figures, the normal approximation, and the result -----------------------------------------

_NORMAL = NormalDist()


def _phi(z: float) -> float:
    """The standard normal CDF, accurate in the far tails."""
    return 0.5 * math.erfc(-z / math.sqrt(2))


@dataclass(frozen=True, slots=True)
class Normal:
    """The normal approximation's figures for the same session (for comparison)."""

    mean: float
    standard_deviation: float
    probability_ahead: float
    probability_even: float
    quantiles: tuple[float, ...]
    largest_likely_loss: float
    ruin_within: float | None
    ruin_unlimited: float | None

    def to_json(self) -> dict[str, Any]:
        """The normal approximation's figures as JSON."""
        document: dict[str, Any] = {
            "mean": float_json(self.mean),
            "sd": float_json(self.standard_deviation),
            "probability_ahead": float_json(self.probability_ahead),
            "probability_even": float_json(self.probability_even),
            "quantiles": [
                {"level": exact_json(level), "net": float_json(q)}
                for level, q in zip(QUANTILE_LEVELS, self.quantiles, strict=True)
            ],
            "largest_likely_loss": float_json(self.largest_likely_loss),
        }
        if self.ruin_within is not None:
            document["ruin_within"] = float_json(self.ruin_within)
            document["ruin_unlimited"] = float_json(self.ruin_unlimited or 0.0)
        return document


def normal_figures(
    mean: float, variance: float, step: Fraction, rounds: int, bankroll: Fraction | None
) -> Normal:
    """The normal approximation of the session of ``rounds`` rounds of a round with
    ``mean`` and ``variance``; ruin by the Brownian motion with the same drift and variance.

    P(ahead) is ``Phi(n mean / sd)`` as in the volatility figures; P(even) the normal mass
    within half a lattice step of 0; ruin within n rounds ``Phi((-B - n m)/s) +
    exp(-2 m B / v) Phi((-B + n m)/s)`` (``s = sqrt(n v)``), unlimited ``exp(-2 m B / v)``
    when ``m > 0``, else 1.
    """
    centre = rounds * mean
    sd = math.sqrt(rounds * variance)
    half = float(step) / 2
    if sd == 0:
        ahead, even = float(centre > 0), float(abs(centre) < half)
        quantiles = tuple(centre for _ in QUANTILE_LEVELS)
    else:
        ahead = _phi(centre / sd)
        even = _phi((half - centre) / sd) - _phi((-half - centre) / sd)
        quantiles = tuple(centre + sd * _NORMAL.inv_cdf(float(p)) for p in QUANTILE_LEVELS)
    likely = max(0.0, -(centre + sd * _NORMAL.inv_cdf(float(LIKELY_LEVEL))))
    within = unlimited = None
    if bankroll is not None:
        b = float(bankroll)
        if sd == 0 or variance == 0:
            within = float(centre <= -b)
            unlimited = float(mean < 0)
        else:
            exponent = -2 * mean * b / variance
            second = _phi((-b + centre) / sd)
            term = math.exp(exponent + math.log(second)) if second > 0 and exponent < 700 else 0.0
            within = min(1.0, _phi((-b - centre) / sd) + term)
            unlimited = 1.0 if mean <= 0 else math.exp(exponent)
    return Normal(centre, sd, ahead, even, quantiles, likely, within, unlimited)


def _number(value: Number) -> dict[str, Any]:
    return number_json(value)


@dataclass(frozen=True, slots=True)
class SessionFigures:
    """The session's distribution, its figures, the ruin figures and the normal ones."""

    table: RoundTable
    distribution: Distribution
    ruin: Ruin | None
    normal: Normal

    @property
    def rounds(self) -> int:
        """Rounds in the session."""
        return self.distribution.rounds

    @property
    def mean(self) -> Number:
        """Expected net result of the session (exact: ``rounds`` x the round's EV)."""
        return self.rounds * self.table.mean

    @property
    def variance(self) -> Number:
        """Variance of the session's net result."""
        return self.rounds * self.table.variance

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of the session's net result."""
        return math.sqrt(self.variance)

    @property
    def quantiles(self) -> tuple[Fraction, ...]:
        """The nets at :data:`QUANTILE_LEVELS`."""
        return tuple(self.distribution.quantile(p) for p in QUANTILE_LEVELS)

    @property
    def largest_likely_loss(self) -> Fraction:
        """The loss exceeded with probability below 1%: ``max(0, -(1% quantile))``."""
        return max(Fraction(0), -self.distribution.quantile(LIKELY_LEVEL))

    def to_json(self) -> dict[str, Any]:
        """The session's figures as JSON (the distribution's points listed too)."""
        d = self.distribution
        document: dict[str, Any] = {
            "rounds": self.rounds,
            "lattice_step": exact_json(d.step),
            "method": d.method,
            "error_bound": d.error_bound,
            "round": [
                {"net": exact_json(net), "probability": _number(p)}
                for net, p in self.table.to_pairs()
            ],
            "mean": _number(self.mean),
            "variance": _number(self.variance),
            "sd": float_json(self.standard_deviation),
            "probability_ahead": _number(d.probability_ahead),
            "probability_even": _number(d.probability_even),
            "probability_behind": _number(d.probability_behind),
            "quantiles": [
                {"level": exact_json(level), "net": exact_json(q)}
                for level, q in zip(QUANTILE_LEVELS, self.quantiles, strict=True)
            ],
            "largest_likely_loss": exact_json(self.largest_likely_loss)
            | {"definition": "the loss exceeded with probability below 1%: -(1% quantile)"},
        }
        if self.ruin is not None:
            document["ruin"] = self.ruin.to_json()
        document["normal_approximation"] = self.normal.to_json()
        document["distribution"] = [
            {"net": exact_json(net), "probability": _number(p)} for net, p in d.probabilities()
        ]
        return document


def session_figures(
    lines: Iterable[tuple[Fraction, Number]],
    rounds: int,
    bankroll: Fraction | None = None,
    method: Literal["auto", "exact", "fft"] = "auto",
) -> SessionFigures:
    """Every session figure of ``rounds`` rounds of the round ``lines`` ((net, probability)).

    ``method="auto"`` is exact up to :data:`EXACT_AUTO_ROUNDS` rounds (when the round is
    exact), FFT above.

    >>> coin = [(Fraction(-1), Fraction(1, 2)), (Fraction(1), Fraction(1, 2))]
    >>> figures = session_figures(coin, 4, Fraction(2))
    >>> figures.distribution.probability_ahead, figures.ruin.within
    (Fraction(5, 16), Fraction(3, 8))
    """
    rounds = check_rounds(rounds)
    table = round_table(lines)
    if method not in ("auto", "exact", "fft"):
        raise SessionError(f"method {method!r} is unknown: use auto, exact or fft")
    chosen: Method = (
        method
        if method != "auto"
        else "exact"
        if table.exact and rounds <= EXACT_AUTO_ROUNDS
        else "fft"
    )
    found = distribution(table, rounds, chosen)
    ruin = None
    if bankroll is not None:
        bankroll = parse_bankroll(bankroll)
        within, error = ruin_within(table, bankroll, rounds, chosen)
        ruin = Ruin(bankroll, within, error, ruin_unlimited(table, bankroll))
    normal = normal_figures(float(table.mean), float(table.variance), table.step, rounds, bankroll)
    return SessionFigures(table, found, ruin, normal)


@dataclass(frozen=True, slots=True)
class SessionResult:
    """``cbj session``: the session figures of a strategy under some rules."""

    rules: Rules
    strategy: str
    figures: SessionFigures

    def to_json(self) -> dict[str, Any]:
        """The document ``cbj session --format json`` prints."""
        return {"rules": self.rules.to_json(), "strategy": self.strategy, **self.figures.to_json()}
