"""The most a player could win, from dealt shoes: the perfect-information bound, and the
Bonus wager's attack in Jacobson's side-bet format.

*The bound.*  A player who knows every card left plays composition-dependent perfectly
(each state's solved EV), sizes the Bonus at its best legal size (the rules' ratio when
the Bonus EV is negative, ``multiple`` times the main wager when positive: the round's EV
is linear in the ratio, so one end is best) and bets the spread's top when the round is
positive, its bottom otherwise.  The states are dealt at depths uniform up to the
study's penetration, so those dealt up to a smaller penetration are a sample of it too.

*The Bonus attack.*  The main wager left as it is, a player raises the Bonus from the
rules' ratio to ``multiple`` times the main wager when a trigger fires.  The
perfect-information trigger is a positive Bonus EV; the tracker's is the unevenness of
the ranks left (the chi-square statistic of their counts against an even shoe, what a
rank-by-rank side count gives), above the threshold that wins most on the even-numbered
shoes; its figures are measured on the odd-numbered ones (out of sample).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from solver.model.checks import plain_number, shown
from solver.model.counts import LABELS
from solver.model.errors import CountError
from solver.results.attack import AttackResult, BonusPlayer, BoundRow, Estimate
from solver.results.dealt_shoes import COLUMNS, DealtShoes

#: The Bonus wager's percentiles reported.
PERCENTILES = (5, 25, 50, 75, 95)
#: The most the Bonus wager may be raised to, in main wagers (the largest Bonus ratio).
MAX_MULTIPLE = 100
#: The Bonus multiple by default: twice the main wager, or twice the rules' ratio if more.
DEFAULT_MULTIPLE = Fraction(2)

Array = np.ndarray[tuple[int, ...], np.dtype[np.float64]]


def estimate(values: Array) -> Estimate:
    """The mean of ``values`` per 100 rounds with its standard error."""
    se = float(values.std(ddof=1) / math.sqrt(len(values))) if len(values) > 1 else 0.0
    return Estimate(100 * float(values.mean()), 100 * se)


def attack_multiple(given: object, ratio: Fraction) -> Fraction:
    """The Bonus multiple the attack raises to: ``given`` (a number or its text), or by
    default :data:`DEFAULT_MULTIPLE`, or twice the rules' ``ratio`` if that is more (at most
    :data:`MAX_MULTIPLE`), so that the default is never below the ratio; :class:`CountError`
    unless it lies from ``ratio`` to :data:`MAX_MULTIPLE`.

    >>> [attack_multiple(None, Fraction(r)) for r in ("1/2", "3", "100")]
    [Fraction(2, 1), Fraction(6, 1), Fraction(100, 1)]
    >>> attack_multiple("3/2", Fraction(1, 2))
    Fraction(3, 2)
    """
    if given is None:
        return max(DEFAULT_MULTIPLE, min(2 * ratio, Fraction(MAX_MULTIPLE)))
    try:
        text = str(given).strip() if isinstance(given, str | int | Fraction) else ""
        if not 0 < len(text) <= 20 or not text.isascii():  # Fraction() reads other digits
            raise ValueError
        multiple = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise CountError(f"Bonus multiple {shown(given)} is not a number, e.g. 2") from None
    if not ratio <= multiple <= MAX_MULTIPLE:
        raise CountError(
            f"Bonus multiple {multiple} must lie from the rules' Bonus ratio "
            f"{plain_number(ratio)} to {MAX_MULTIPLE}"
        )
    return multiple


def perfect_round(
    main: Array, bonus: Array, ratio: float, multiple: float, spread: tuple[int, int]
) -> Array:
    """Each state's result per round for the perfect-information player (main units).

    >>> main, bonus = np.array([0.01, -0.05]), np.array([0.1, -0.1])
    >>> [round(float(v), 9) for v in perfect_round(main, bonus, 0.5, 2.0, (1, 8))]
    [1.68, -0.1]
    """
    best = main + np.where(bonus > 0, multiple, ratio) * bonus
    return np.where(best > 0, spread[1], spread[0]) * best


def unevenness(shoes: DealtShoes) -> Array:
    """Each state's chi-square of the ranks left against an even shoe."""
    rows = np.array(shoes.rows)
    left = 4 * shoes.rules.decks - rows[:, 1 : 1 + len(LABELS)]
    expected = rows[:, :1] / len(LABELS)
    result: Array = (((left - expected) ** 2) / expected).sum(axis=1)
    return result


def attack(
    shoes: DealtShoes,
    spread: tuple[int, int],
    multiple: Fraction,
    penetrations: tuple[float, ...],
) -> AttackResult:
    """The bound at each penetration (at most the study's) some sampled shoe was dealt to,
    and the Bonus attack."""
    ratio = float(shoes.rules.bonus_ratio)
    if not shoes.rules.bonus_ratio <= multiple <= 100:
        raise CountError(
            f"Bonus multiple {multiple} must lie from the rules' ratio {ratio:g} to 100"
        )
    rows = np.array(shoes.rows)
    at = {name: i for i, name in enumerate(COLUMNS)}
    main, bonus = rows[:, at["main_ev"]], rows[:, at["bonus_ev"]]
    dealt = 52 * shoes.rules.decks - rows[:, 0]
    bound = []
    for pen in penetrations:
        if not 0 < pen <= shoes.penetration:
            raise CountError(
                f"penetration {pen:g} must lie above 0 and at most {shoes.penetration:g}"
            )
        inside = dealt <= round(pen * 52 * shoes.rules.decks)
        if not inside.any():  # a depth no sampled shoe was dealt to has no row
            continue
        best = perfect_round(main[inside], bonus[inside], ratio, float(multiple), spread)
        positive = float((best > 0).mean())
        bound.append(BoundRow(pen, int(inside.sum()), positive, estimate(best)))
    raise_by = float(multiple) - ratio
    players = [
        _player("perfect information", "the Bonus EV is positive", bonus > 0, bonus, raise_by)
    ]
    tracker = unevenness(shoes)
    correlation = None
    if len(tracker) > 3 and tracker.std() > 0 and bonus.std() > 0:
        correlation = float(np.corrcoef(tracker, bonus)[0, 1])
        # The threshold is picked on the even-numbered shoes and judged on the odd ones,
        # so that the gain reported is not the best of many tries on the same shoes.
        pick, judge = slice(0, None, 2), slice(1, None, 2)
        cuts = np.unique(np.percentile(tracker[pick], np.arange(50, 100, 2)))
        gains = [float((raise_by * bonus[pick] * (tracker[pick] >= c)).mean()) for c in cuts]
        cut = float(cuts[int(np.argmax(gains))])
        players.append(
            _player(
                "rank tracker",
                f"the ranks left are uneven: chi-square >= {cut:.1f}",
                tracker[judge] >= cut,
                bonus[judge],
                raise_by,
            )
        )
    return AttackResult(
        shoes.rules,
        shoes.samples,
        shoes.seed,
        spread,
        multiple,
        tuple(bound),
        float(bonus.mean()),
        {p: float(v) for p, v in zip(PERCENTILES, np.percentile(bonus, PERCENTILES), strict=True)},
        float((bonus > 0).mean()),
        correlation,
        tuple(players),
    )


def _player(
    name: str,
    trigger: str,
    raised: np.ndarray[Any, np.dtype[np.bool_]],
    bonus: Array,
    raise_by: float,
) -> BonusPlayer:
    """The Bonus player who raises where ``raised``."""
    edge = float(bonus[raised].mean()) if raised.any() else None
    return BonusPlayer(
        name, trigger, float(raised.mean()), edge, estimate(raise_by * bonus * raised)
    )
