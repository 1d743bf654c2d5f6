"""Every attack's rows that the dealt shoes give (``cbj attack``), and a shuffler's exactly.

Each dealt state is a round dealt at a depth uniform up to the study's cut card, so the
states dealt up to a smaller penetration are a sample of it too; a penetration the deal
cannot reach (a shoe keeps :data:`~solver.model.shuffles.MIN_CARDS_LEFT` cards back)
has no row.  Per state, with ``e`` the main wager's EV under composition-dependent play,
``c`` under the chart, ``b`` the Bonus wager's per Bonus unit, ``r`` the rules' ratio and
``m`` the Bonus multiple (``r`` under a Bonus cap):

* *perfect information* (an upper bound on each attack): the round at its best Bonus size
  ``e + (m if b > 0 else r) b``; playing every round, the spread's top on a positive round
  and its bottom otherwise; back-counting, the top on a positive round and nothing else;
  raising the Bonus alone, ``e + (m if b > 0 else r) b`` at one unit;
* *the best practical counter* (the count search's count, its Kelly ramp by true count from
  :mod:`solver.exact.betting`): playing every round, the ramp's bet times ``c + r b`` (with
  its index plays' gains); back-counting, the same from a true count ``t`` on, ``t`` picked
  on the even-numbered shoes and measured on the odd ones; raising the Bonus alone, the rank
  tracker (the chi-square of the ranks left against an even shoe, a rank-by-rank side
  count), its threshold picked and measured the same way.

Under a continuous shuffler every round is dealt from the whole shoe (the round's cards go
back before the next), so the perfect-information player knows only the full shoe: its rows
are exact, from the full shoe's EVs.  The tray's few cards, drawn while earlier cards were
out, are what a counter could still follow; the simulator measures that
(:mod:`solver.studies.attack`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from solver.exact.indices import index_gains
from solver.model.checks import plain_number, shown
from solver.model.counts import LABELS, Tags
from solver.model.errors import CountError
from solver.model.shuffles import Shuffle, reach
from solver.results.attack import (
    Attack,
    AttackKind,
    AttackResult,
    AttackRow,
    BonusSpread,
    Estimate,
    Player,
)
from solver.results.betting import BetResult
from solver.results.dealt_shoes import COLUMNS, DealtShoes
from solver.results.indices import IndicesResult

#: The Bonus wager's percentiles reported.
PERCENTILES = (5, 25, 50, 75, 95)
#: The lowest and highest true-count bins of a Kelly ramp (as :mod:`solver.exact.betting`).
LOWEST, HIGHEST = -10, 10
#: The most the Bonus wager may be raised to, in main wagers (the largest Bonus ratio).
MAX_MULTIPLE = 100
#: The Bonus multiple by default: twice the main wager, or twice the rules' ratio if more.
DEFAULT_MULTIPLE = Fraction(2)

Array = np.ndarray[tuple[int, ...], np.dtype[np.float64]]
Flags = np.ndarray[Any, np.dtype[np.bool_]]


def estimate(values: Array) -> Estimate:
    """The mean of ``values`` per 100 rounds with its standard error."""
    if not len(values):
        return Estimate(math.nan, math.nan)
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


def unevenness(shoes: DealtShoes) -> Array:
    """Each state's chi-square of the ranks left against an even shoe."""
    rows = np.array(shoes.rows)
    left = 4 * shoes.rules.decks - rows[:, 1 : 1 + len(LABELS)]
    expected = rows[:, :1] / len(LABELS)
    result: Array = (((left - expected) ** 2) / expected).sum(axis=1)
    return result


def reached(shoes: DealtShoes) -> float:
    """The deepest share of the shoe a dealt state can be dealt to (:func:`reach`), or the
    deepest a state was dealt to where that is deeper (states dealt from a shoe with cards
    already out)."""
    total = 52 * shoes.rules.decks
    deepest = max((total - row[0] for row in shoes.rows), default=0.0) / total
    return min(max(reach(shoes.rules.decks, shoes.penetration), deepest), shoes.penetration)


@dataclass(frozen=True, slots=True)
class PracticalCounter:
    """The best practical counter: its count, its Kelly ramp (``bets``, for the bins) and,
    if it plays them, its index plays."""

    name: str
    tags: Tags
    bets: BetResult
    indices: IndicesResult | None = None

    def units(self, true_counts: Array) -> Array:
        """The ramp's bet at each true count."""
        by_bin = {b.low: b.units for b in self.bets.bins}
        bins = np.clip(np.floor(true_counts), LOWEST, HIGHEST).astype(int)
        low = self.bets.spread[0]
        return np.array([by_bin.get(int(k), low) for k in bins], dtype=np.float64)


@dataclass(frozen=True, slots=True)
class _States:
    """The study's states as arrays."""

    main: Array
    chart: Array
    bonus: Array
    dealt: Array
    ratio: float


def _states(shoes: DealtShoes) -> _States:
    rows = np.array(shoes.rows)
    at = {name: i for i, name in enumerate(COLUMNS)}
    return _States(
        rows[:, at["main_ev"]],
        rows[:, at["chart_ev"]],
        rows[:, at["bonus_ev"]],
        52 * shoes.rules.decks - rows[:, 0],
        float(shoes.rules.bonus_ratio),
    )


def _row(
    attack: AttackKind,
    player: Player,
    shuffle: Shuffle,
    per_round: Array,
    played: Flags,
    method: str,
    how: str,
    cap: bool = False,
    raised: tuple[Array, Flags] | None = None,
) -> AttackRow:
    """A row from each state's result (``per_round``, zero where not ``played``); with
    ``raised`` (each state's Bonus EV and whether it was raised) the Bonus EV when raised."""
    raised_ev = None
    if raised is not None and raised[1].any():
        raised_ev = float(raised[0][raised[1]].mean())
    return AttackRow(
        attack,
        player,
        shuffle,
        estimate(per_round),
        estimate(per_round[played]) if played.any() else None,
        float(played.mean()) if len(played) else 0.0,
        method,
        len(per_round),
        how,
        cap,
        raised_ev,
    )


def _perfect_rows(
    s: _States, inside: Flags, shuffle: Shuffle, multiple: float, spread: tuple[int, int], cap: bool
) -> list[AttackRow]:
    """The perfect-information rows of the states ``inside``."""
    main, bonus = s.main[inside], s.bonus[inside]
    size = s.ratio if cap else multiple
    best = main + np.where(bonus > 0, size, s.ratio) * bonus
    positive = best > 0
    low, top = spread
    raise_words = (
        f"the Bonus at {size:g} x main when it favours him" if not cap else "the Bonus at the ratio"
    )
    every = np.ones(len(best), dtype=bool)
    return [
        _row(
            AttackKind.PLAY_ALL,
            Player.PERFECT,
            shuffle,
            np.where(positive, top, low) * best,
            every,
            "dealt shoes",
            f"{top} units on a favourable round, {low} otherwise; {raise_words}",
            cap,
        ),
        _row(
            AttackKind.BACK_COUNT,
            Player.PERFECT,
            shuffle,
            np.where(positive, top * best, 0.0),
            positive,
            "dealt shoes",
            f"{top} units on each favourable round, nothing otherwise; {raise_words}",
            cap,
        ),
        _row(
            AttackKind.BONUS_RAISE,
            Player.PERFECT,
            shuffle,
            best,
            every,
            "dealt shoes",
            f"1 unit; {raise_words}",
            cap,
            (bonus, (bonus > 0) & (not cap)),
        ),
    ]


def _pick(gains: Array, fires: Sequence[Flags]) -> int:
    """The candidate whose trigger wins most on ``gains`` (the first of equals)."""
    return int(np.argmax([float((gains * f).mean()) for f in fires]))


def _counter_wins(shoes: DealtShoes, s: _States, counter: PracticalCounter) -> tuple[Array, Array]:
    """Each state's true count, and what the counter's ramp wins there."""
    x = np.array(shoes.true_counts(counter.tags))
    ev = s.chart + s.ratio * s.bonus
    if counter.indices is not None:
        ev = ev + index_gains(shoes, counter.tags, counter.indices)
    return x, counter.units(x) * ev


def _halves(n: int) -> tuple[Flags, Flags]:
    """The even-numbered states (to pick on) and the odd-numbered ones (to measure on)."""
    number = np.arange(n)
    return number % 2 == 0, number % 2 == 1


def pick_entry(shoes: DealtShoes, counter: PracticalCounter) -> int:
    """The true count from which the practical back-counter plays: of the ramp's bins, the
    one that wins most per round dealt on the even-numbered states."""
    x, won = _counter_wins(shoes, _states(shoes), counter)
    pick, _ = _halves(len(x))
    starts = sorted({b.low for b in counter.bets.bins})
    return starts[_pick(won[pick], [x[pick] >= t for t in starts])] if starts else LOWEST


def pick_tracker(shoes: DealtShoes, multiple: float) -> float:
    """The rank tracker's threshold: of the even-numbered states' percentiles 50 to 98, the
    one whose raises win most there."""
    s = _states(shoes)
    tracker = unevenness(shoes)
    pick, _ = _halves(len(tracker))
    if not pick.any():
        return 0.0
    cuts = np.unique(np.percentile(tracker[pick], np.arange(50, 100, 2)))
    raise_by = (multiple - s.ratio) * s.bonus
    return float(cuts[_pick(raise_by[pick], [tracker[pick] >= c for c in cuts])])


def _practical_rows(
    shoes: DealtShoes,
    s: _States,
    counter: PracticalCounter,
    depths: Sequence[float],
    multiple: float,
) -> list[AttackRow]:
    """The best practical counter's rows at each depth: the odd-numbered states measure
    what the even-numbered ones picked."""
    x, won = _counter_wins(shoes, s, counter)
    _, judge = _halves(len(x))
    enter = pick_entry(shoes, counter)
    tracker = unevenness(shoes)
    cut = pick_tracker(shoes, multiple)
    total = 52 * shoes.rules.decks
    plays = "" if counter.indices is None else " and its index plays"
    rows = []
    for depth in depths:
        shuffle = Shuffle.cut_card(depth)
        inside = s.dealt <= round(depth * total)
        every = np.ones(int(inside.sum()), dtype=bool)
        rows.append(
            _row(
                AttackKind.PLAY_ALL,
                Player.PRACTICAL,
                shuffle,
                won[inside],
                every,
                "dealt shoes",
                f"{counter.name}: its Kelly ramp by true count{plays}",
            )
        )
        odd = inside & judge
        entered = x[odd] >= enter
        rows.append(
            _row(
                AttackKind.BACK_COUNT,
                Player.PRACTICAL,
                shuffle,
                np.where(entered, won[odd], 0.0),
                entered,
                "dealt shoes (odd half)",
                f"{counter.name}: its Kelly ramp from true count {enter:+d} up{plays}",
            )
        )
        raised = tracker[odd] >= cut
        rows.append(
            _row(
                AttackKind.BONUS_RAISE,
                Player.PRACTICAL,
                shuffle,
                s.chart[odd] + np.where(raised, multiple, s.ratio) * s.bonus[odd],
                np.ones(int(odd.sum()), dtype=bool),
                "dealt shoes (odd half)",
                f"rank tracker: the Bonus at {multiple:g} x main when chi-square >= {cut:.1f}",
                raised=(s.bonus[odd], raised),
            )
        )
    return rows


def _csm_rows(
    shoes: DealtShoes, multiple: float, spread: tuple[int, int], buffer: int
) -> list[AttackRow]:
    """Every round dealt from the whole shoe: the perfect-information rows, exactly."""
    at = {name: i for i, name in enumerate(COLUMNS)}
    one = _States(
        np.array([shoes.full[at["main_ev"]]]),
        np.array([shoes.full[at["chart_ev"]]]),
        np.array([shoes.full[at["bonus_ev"]]]),
        np.array([0.0]),
        float(shoes.rules.bonus_ratio),
    )
    rows = _perfect_rows(one, np.array([True]), Shuffle.csm(buffer), multiple, spread, False)
    return [replace(r, method="exact", samples=1) for r in rows]


def _order(row: AttackRow) -> tuple[bool, bool, bool, float, str]:
    """Rows in reading order: the bound first, cut cards by depth, the Bonus cap, then the
    shuffler; the dealt shoes before the simulations."""
    return (
        row.player is not Player.PERFECT,
        row.shuffle.is_csm,
        row.cap,
        row.depth or 0.0,
        row.method,
    )


def check_multiple(shoes: DealtShoes, multiple: Fraction) -> float:
    """The Bonus multiple, from the rules' ratio to 100 main wagers."""
    if not shoes.rules.bonus_ratio <= multiple <= 100:
        ratio = float(shoes.rules.bonus_ratio)
        raise CountError(
            f"Bonus multiple {multiple} must lie from the rules' ratio {ratio:g} to 100"
        )
    return float(multiple)


def attack(
    shoes: DealtShoes,
    spread: tuple[int, int],
    multiple: Fraction,
    penetrations: tuple[float, ...],
    counter: PracticalCounter | None = None,
    buffer: int = 20,
    extra: Sequence[AttackRow] = (),
) -> AttackResult:
    """Every attack's rows at each penetration (at most the study's) the deal reaches, under a
    shuffler with a tray of ``buffer`` cards, and with the Bonus capped; ``extra`` rows
    (shoe paths, simulations) join their attacks."""
    size = check_multiple(shoes, multiple)
    deepest = reached(shoes)
    for pen in penetrations:
        if not 0 < pen <= shoes.penetration:
            raise CountError(
                f"penetration {pen:g} must lie above 0 and at most {shoes.penetration:g}"
            )
    depths = sorted({p for p in penetrations if p <= deepest} | {deepest})
    s = _states(shoes)
    total = 52 * shoes.rules.decks
    rows: list[AttackRow] = []
    for depth in depths:
        inside = s.dealt <= round(depth * total)
        rows += _perfect_rows(s, inside, Shuffle.cut_card(depth), size, spread, False)
    every = np.ones(len(s.main), dtype=bool)
    rows += _perfect_rows(s, every, Shuffle.cut_card(depths[-1]), size, spread, True)
    rows += _csm_rows(shoes, size, spread, buffer)
    if counter is not None:
        rows += _practical_rows(shoes, s, counter, depths, size)
    rows += extra
    rows.sort(key=_order)
    attacks = tuple(
        Attack(kind, tuple(r for r in rows if r.attack is kind))
        for kind in AttackKind
        if any(r.attack is kind for r in rows)
    )
    bonus = s.bonus
    tracker = unevenness(shoes)
    correlation = None
    if len(tracker) > 3 and tracker.std() > 0 and bonus.std() > 0:
        correlation = float(np.corrcoef(tracker, bonus)[0, 1])
    spread_of_bonus = BonusSpread(
        float(bonus.mean()),
        {p: float(v) for p, v in zip(PERCENTILES, np.percentile(bonus, PERCENTILES), strict=True)},
        float((bonus > 0).mean()),
        correlation,
    )
    return AttackResult(
        shoes.rules,
        shoes.samples,
        shoes.seed,
        spread,
        multiple,
        shoes.penetration,
        deepest,
        attacks,
        spread_of_bonus,
    )
