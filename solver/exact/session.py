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
from collections.abc import Iterable
from fractions import Fraction
from statistics import NormalDist
from typing import Literal

from solver.exact.lattice import (
    Number,
    check_points,
    convolve_integers,
    float_power,
    round_table,
)
from solver.exact.ruin import ruin_unlimited, ruin_within
from solver.model.catalogue import BANKROLL, MAX_SESSION_ROUNDS, SESSION_ROUNDS
from solver.model.errors import SessionError
from solver.model.normal import QUANTILE_LEVELS
from solver.model.process import check_stop
from solver.results.session import (
    LIKELY_LEVEL,
    Distribution,
    Method,
    Normal,
    RoundTable,
    Ruin,
    SessionFigures,
)

#: The methods a session can be computed by (``auto`` picks one).
METHODS = ("auto", "exact", "fft")

#: The longest session, in rounds (the catalogue's range of ``rounds``).
MAX_ROUNDS = MAX_SESSION_ROUNDS
#: ``method="auto"`` uses exact fractions up to this many rounds, floats above.
EXACT_AUTO_ROUNDS = 20
#: ``method="exact"`` is refused above this many rounds (its weights grow as ``D**N``).
EXACT_MAX_ROUNDS = 100


def check_rounds(rounds: object) -> int:
    """A session length: a whole number of rounds from 1 to :data:`MAX_ROUNDS` (as the
    catalogue's ``rounds`` reads it).

    >>> check_rounds(100)
    100
    """
    found: int = SESSION_ROUNDS.read(rounds)
    return found


def parse_bankroll(bankroll: object) -> Fraction:
    """A bankroll in units of the main wager: a positive number, e.g. ``100``, ``12.5``, ``25/2``
    (as the catalogue's ``bankroll`` reads it).

    >>> parse_bankroll("12.5"), parse_bankroll(40)
    (Fraction(25, 2), Fraction(40, 1))
    """
    if bankroll is None:
        raise SessionError("bankroll None is no number: give a positive number of units, e.g. 100")
    found: Fraction = BANKROLL.read(bankroll)
    return found


# --- The distribution after N rounds ---------------------------------------------------------


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
            check_stop()  # a stopped job stops between two rounds' convolutions
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
