"""The casino's hold check: an observed result, or a series of daily results, set against the
exact distribution of a table's result.

Two words a casino keeps apart are kept apart here: **win over handle** (the casino's win
over the total wagered, the house edge's basis) and **hold** (the win over the *drop*, the
cash and markers exchanged for chips at the table, which is what a casino's books call hold).
The drop is given, or taken as a stated share of the handle (``drop_to_handle``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.model.numbers import exact_json, float_json
from solver.model.rules import Rules
from solver.results.frames import Tabular

#: The confidence levels of the bands.
BAND_LEVELS = (Fraction(90, 100), Fraction(95, 100), Fraction(99, 100))
#: The band a period is flagged outside of (two-sided).
FLAG_LEVEL = Fraction(95, 100)
#: The saddlepoint tail's largest relative error against the FFT where both were run
#: (10^4 to 10^8 rounds, 1 to 7 seats, tails down to 1e-9): stated, not a bound.
SADDLEPOINT_ERROR = 1e-4


def _optional(value: float | None) -> dict[str, Any] | None:
    return None if value is None else float_json(value)


@dataclass(frozen=True, slots=True)
class HoldBand:
    """The central ``level`` of the casino's win over the rounds: from ``low_win`` to
    ``high_win`` (main units), each end a quantile of the exact distribution."""

    level: Fraction
    low_win: Fraction
    high_win: Fraction

    def to_json(self, handle: Fraction, drop: Fraction | None) -> dict[str, Any]:
        """The band as one entry of ``bands``: the casino's win, over handle and over drop."""
        return {
            "level": float_json(float(self.level)),
            "casino_win": {"low": exact_json(self.low_win), "high": exact_json(self.high_win)},
            "win_over_handle": {
                "low": float_json(float(self.low_win / handle)),
                "high": float_json(float(self.high_win / handle)),
            },
            "hold": None
            if drop is None
            else {
                "low": float_json(float(self.low_win / drop)),
                "high": float_json(float(self.high_win / drop)),
            },
        }


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sat at the table: ``seats`` seats sharing the dealer and the Bonus card, each
    played by a strategy drawn from ``players`` (share, name)."""

    seats: int
    players: tuple[tuple[Fraction, str], ...]

    @property
    def strategy(self) -> str:
        """The mix in words: ``10% optimal, 90% chart``, or one strategy's name."""
        if len(self.players) == 1:
            return self.players[0][1]
        return ", ".join(f"{float(100 * share):g}% {name}" for share, name in self.players)

    def to_json(self) -> dict[str, Any]:
        """The seats and the mix."""
        return {
            "seats": self.seats,
            "players": [{"strategy": n, "share": exact_json(s)} for s, n in self.players],
        }


def _inside(bands: tuple[HoldBand, ...], level: Fraction, win: Fraction) -> bool:
    """Whether ``win`` lies within the band of ``level``."""
    band = next(b for b in bands if b.level == level)
    return band.low_win <= win <= band.high_win


def _verdict(bands: tuple[HoldBand, ...], win: Fraction, above: bool) -> str:
    """A result against its bands in words (95% two-sided, as Maryland's COMAR 36.05.03.25
    asks)."""
    if _inside(bands, FLAG_LEVEL, win):
        return "within the 95% band: an ordinary fluctuation, nothing to investigate"
    far = not _inside(bands, Fraction(99, 100), win)
    strength = "far outside the 99% band" if far else "outside the 95% band"
    return f"{strength} ({'above' if above else 'below'} expectation): investigate"


@dataclass(frozen=True, slots=True, repr=False)
class HoldCheck(Tabular):
    """``cbj hold``: how unusual the casino's win over ``rounds`` table-rounds is.

    ``p_value`` is the two-sided tail of the observed result (twice the smaller of the two
    one-sided tails, at most 1) from the exact distribution (within ``error_bound`` when it
    is the FFT's; the saddlepoint's relative error is stated, not bounded, so its
    ``error_bound`` is ``None``); ``normal_p_value`` the normal approximation's, a
    reference only.  ``drop`` is the table's drop over the rounds (main units), when known.
    """

    rules: Rules
    table: Seating
    rounds: int
    observed_win: Fraction
    expected_win: Fraction
    standard_deviation: float
    p_value: float
    error_bound: float | None
    method: str
    normal_p_value: float
    bands: tuple[HoldBand, ...]
    drop: Fraction | None = None

    @property
    def strategy(self) -> str:
        """The players' strategy, or their mix, in words."""
        return self.table.strategy

    @property
    def handle(self) -> Fraction:
        """The total wagered over the rounds, every seat's main and Bonus wager, main units."""
        return self.rounds * self.table.seats * (1 + self.rules.bonus_ratio)

    @property
    def observed_over_handle(self) -> Fraction:
        """The observed win over the handle."""
        return self.observed_win / self.handle

    @property
    def expected_over_handle(self) -> Fraction:
        """The expected win over the handle: the round's house edge."""
        return self.expected_win / self.handle

    @property
    def observed_hold(self) -> Fraction | None:
        """The observed win over the drop (the casino's hold), when the drop is known."""
        return None if self.drop is None else self.observed_win / self.drop

    @property
    def expected_hold(self) -> Fraction | None:
        """The expected win over the drop, when the drop is known."""
        return None if self.drop is None else self.expected_win / self.drop

    @property
    def outside(self) -> bool:
        """Whether the observed win lies outside the 95% band."""
        return not _inside(self.bands, FLAG_LEVEL, self.observed_win)

    @property
    def verdict(self) -> str:
        """The check in words (95% two-sided, as Maryland's COMAR 36.05.03.25 asks)."""
        return _verdict(self.bands, self.observed_win, self.observed_win > self.expected_win)

    def to_json(self) -> dict[str, Any]:
        """The document ``cbj hold --format json`` prints."""
        return {
            "rules": self.rules.to_json(),
            **self.table.to_json(),
            "strategy": self.strategy,
            "rounds": self.rounds,
            "handle": exact_json(self.handle),
            "drop": None if self.drop is None else exact_json(self.drop),
            "observed": {
                "casino_win": exact_json(self.observed_win),
                "win_over_handle": float_json(float(self.observed_over_handle)),
                "hold": _optional(None if self.drop is None else float(self.observed_hold or 0)),
            },
            "expected": {
                "casino_win": exact_json(self.expected_win),
                "win_over_handle": float_json(float(self.expected_over_handle)),
                "hold": _optional(None if self.drop is None else float(self.expected_hold or 0)),
            },
            "standard_deviation": float_json(self.standard_deviation),
            "p_value": float_json(self.p_value),
            "error_bound": self.error_bound,
            "method": self.method,
            "normal_p_value": float_json(self.normal_p_value),
            "bands": [b.to_json(self.handle, self.drop) for b in self.bands],
            "verdict": self.verdict,
        }


@dataclass(frozen=True, slots=True)
class Period:
    """One row of a daily file, checked: its rounds, win and drop (main units), the exact
    tail of its win, its bands, and whether it is flagged."""

    date: str
    rounds: int
    win: Fraction
    drop: Fraction
    expected_win: Fraction
    p_value: float
    adjusted_p_value: float
    """Holm's step-down adjustment over every period of the series."""
    bands: tuple[HoldBand, ...]

    @property
    def hold(self) -> Fraction:
        """The period's win over its drop."""
        return self.win / self.drop

    @property
    def expected_hold(self) -> Fraction:
        """The period's expected win over its drop."""
        return self.expected_win / self.drop

    @property
    def outside(self) -> bool:
        """Outside the 95% band."""
        return not _inside(self.bands, FLAG_LEVEL, self.win)

    @property
    def outside_after_correction(self) -> bool:
        """Outside the 95% band after Holm's correction for testing every period."""
        return self.adjusted_p_value < 1 - FLAG_LEVEL

    def to_json(self, handle: Fraction) -> dict[str, Any]:
        """The period as one entry of ``periods``."""
        return {
            "date": self.date,
            "rounds": self.rounds,
            "casino_win": exact_json(self.win),
            "drop": exact_json(self.drop),
            "hold": float_json(float(self.hold)),
            "expected_hold": float_json(float(self.expected_hold)),
            "p_value": float_json(self.p_value),
            "adjusted_p_value": float_json(self.adjusted_p_value),
            "outside_95": self.outside,
            "outside_95_after_correction": self.outside_after_correction,
            "bands": [b.to_json(handle, self.drop) for b in self.bands],
        }


@dataclass(frozen=True, slots=True, repr=False)
class HoldSeries(Tabular):
    """``cbj hold --from FILE``: every period of a daily file against its exact distribution,
    the periods flagged outside the 95% band (each alone, and after Holm's correction for
    testing them all), and the whole run checked as one result (``total``)."""

    rules: Rules
    table: Seating
    unit: Fraction
    """Money per main unit: the file's amounts are divided by it."""
    periods: tuple[Period, ...]
    total: HoldCheck
    method: str
    error_bound: float | None

    @property
    def strategy(self) -> str:
        """The players' strategy, or their mix, in words."""
        return self.table.strategy

    @property
    def flagged(self) -> tuple[Period, ...]:
        """The periods outside the 95% band, each tested alone."""
        return tuple(p for p in self.periods if p.outside)

    @property
    def flagged_after_correction(self) -> tuple[Period, ...]:
        """The periods still outside after Holm's correction."""
        return tuple(p for p in self.periods if p.outside_after_correction)

    @property
    def verdict(self) -> str:
        """The series in words, from its flags and the run's own tail."""
        m = len(self.periods)
        alone = len(self.flagged)
        corrected = len(self.flagged_after_correction)
        expected = (1 - FLAG_LEVEL) * m
        run = self.total.verdict.split(":")[0]
        return (
            f"{alone} of {m} periods outside the 95% band (about {float(expected):.1f} expected "
            f"by chance); {corrected} after Holm's correction for testing {m}; the whole run "
            f"{run}"
        )

    def handle(self, period: Period) -> Fraction:
        """A period's handle in main units."""
        return period.rounds * self.table.seats * (1 + self.rules.bonus_ratio)

    def to_json(self) -> dict[str, Any]:
        """The document ``cbj hold --from FILE --format json`` prints."""
        return {
            "rules": self.rules.to_json(),
            **self.table.to_json(),
            "strategy": self.strategy,
            "unit": exact_json(self.unit),
            "method": self.method,
            "error_bound": self.error_bound,
            "correction": "Holm",
            "periods": [p.to_json(self.handle(p)) for p in self.periods],
            "flagged": [p.date for p in self.flagged],
            "flagged_after_correction": [p.date for p in self.flagged_after_correction],
            "total": self.total.to_json(),
            "verdict": self.verdict,
        }
