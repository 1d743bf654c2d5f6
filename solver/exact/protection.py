"""Game protection: effects of removal (EORs) and the linear card counts built on them.

The effect of removal of a rank is the exact change in expected value when one card of
that rank leaves the shoe (the full shoe less any cards already removed): two full solves,
one before and one after, never a linear estimate.  Four wagers are measured:

* ``main``: the main wager under composition-dependent optimal play, re-optimised for the
  depleted shoe;
* ``main_chart``: the main wager under the fixed printable chart of the undepleted shoe
  (:func:`solver.exact.chart.best_chart`), valued exactly on the depleted shoe;
* ``bonus``: the Bonus wager per Bonus unit.  It sees suits, so the removed card's suit is
  drawn at random from the copies of that rank left: each suit weighs as many copies of it
  as the shoe holds (the plain average of the four suits in a full shoe);
* ``round``: the whole round per main unit, ``main + bonus_ratio * bonus``.

The only linear estimate is the *whole-deck prediction*: the sum of the EORs of the 52
cards of one deck, set beside the exact change of removing that deck.

A linear count gives each rank a tag.  Its betting correlation is Pearson's correlation,
over the 52 cards of a deck, between each card's tag and its EOR on a wager (Griffin, *The
Theory of Blackjack*, 6th ed., 1999, ch. 4).  Its EV slope per true count is the
least-squares slope of the EV change on the true count when cards leave at random (see
:func:`ev_per_true_count`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt

from solver.exact import kernel
from solver.exact.bonus import analyse_bonus
from solver.exact.chart import best_chart, stored_chart
from solver.exact.count_search import search_count
from solver.exact.game import solutions_of, solve_game
from solver.exact.player import PlayerSolution
from solver.model.cards import RANKS, SUITS, Card, Rank, Shoe
from solver.model.cells import Action, cell_of
from solver.model.counts import LABELS, SYSTEMS, Tags, rank_label
from solver.model.errors import CountError, ShoeError
from solver.model.hands import hand_of, is_player_blackjack
from solver.model.rules import Rules
from solver.results.charts import CHART, Chart
from solver.results.game import GameResult
from solver.results.kinds import Key, Store
from solver.results.protection import (
    COUNT_WAGERS,
    WAGERS,
    Counts,
    CountSystem,
    EffectsOfRemoval,
    WholeDeck,
)

N = TypeVar("N", Fraction, float)


def chart_expected_value(chart: Chart, game: GameResult[N]) -> N:
    """Exact (or float) main-wager EV of playing ``chart`` on the shoe ``game`` was solved for.

    Each hand stands or hits as its chart cell says, whatever the cards left; a hand's
    hit value is the average of its children over the cards the shoe still holds, a bust
    counting -1.  Hands are valued from the highest hard total down, so every child is
    valued before its parent.
    """
    zero = cast(N, Fraction(0) if game.exact else 0.0)
    starts = {(s.player, s.bonus): s for s in game.starts}
    expected = zero
    for bonus, solution in solutions_of(game).items():
        space = solution.space
        hard = space.hands @ np.arange(1, 11)
        hits = _chart_hits(chart, bonus, space.hands, hard)
        hits &= sum(space.shoe) > space.sizes
        roots = {
            p: space.index(hand_of([p]))
            for p in range(1, 11)
            if (p, bonus) in starts and not is_player_blackjack(p, bonus)
        }
        walk = _walk_exact if game.exact else _walk_float
        walked = cast(list[N], walk(solution, hard, hits, list(roots.values())))
        values = dict(zip(roots, walked, strict=True))
        for p in range(1, 11):
            start = starts.get((p, bonus))
            if start is None:
                continue
            if is_player_blackjack(p, bonus):
                expected += start.probability * game.rules.blackjack_pays
            else:
                expected += start.probability * values[p]
    return expected


Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]
Floats = npt.NDArray[np.float64]


def _chart_hits(chart: Chart, bonus: int, hands: Ints, hard: Ints) -> Flags:
    """Whether the chart hits each of ``hands`` (their hard totals ``hard``).

    A hand's cell depends only on its hard total and on whether it holds an ace, so the
    chart is asked once for the first hand of each such pair and the answer shared.
    """
    key = 2 * hard + (hands[:, 0] > 0)
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    asked = [
        chart.action(cell_of(tuple(hands[i].tolist())), bonus) is Action.HIT for i in first.tolist()
    ]
    hits: Flags = np.array(asked, dtype=np.bool_)[inverse.reshape(-1)]
    return hits


#: Hands by hard total: their positions, the highest total first (stably), and where each
#: total's run starts and the last ends.
Levels = tuple[Ints, Ints]


def _levels(hard: Ints) -> Levels:
    """The hands' positions grouped by hard total, the highest total first, and the runs'
    bounds (the walks' order: every child's hard total is above its parent's)."""
    order = np.argsort(-hard, kind="stable")
    cuts = np.flatnonzero(np.diff(hard[order])) + 1
    bounds = np.concatenate([[0], cuts, [len(hard)]]).astype(np.int64)
    return order.astype(np.int64), bounds


def _walk_exact(
    solution: PlayerSolution, hard: Ints, hits: Flags, wanted: Sequence[int]
) -> list[Fraction]:
    """The exact values of the hands ``wanted`` under a fixed play (``hits``).

    Hands are valued from the highest hard total down, so every child is valued before
    its parent; a hand that hits averages its children over the cards the shoe holds, a
    bust counting -1.  Every hand of ``s`` cards is valued as a whole numerator over one
    denominator ``D[s]``, a multiple of its standing hands' denominators and of
    ``D[s + 1]`` times the cards left, so the walk adds integers and makes a fraction
    only for the hands ``wanted``: the same rationals as a walk in fractions.
    """
    space = solution.space
    left = sum(space.shoe)
    sizes = space.sizes.tolist()
    hitting = hits.tolist()
    n = len(hitting)
    stands = {i: Fraction(solution.stand[i]) for i in range(n) if not hitting[i]}
    top = max(sizes, default=0)
    common = [1] * (top + 2)  # D[s]; no hand has top + 1 cards
    for i, value in stands.items():
        common[sizes[i]] = math.lcm(common[sizes[i]], value.denominator)
    for size in range(top, -1, -1):
        if left > size:
            common[size] = math.lcm(common[size], common[size + 1] * (left - size))
    numerators = [0] * n  # a bust child (index n) is read as -D[s + 1] instead
    for i in np.argsort(-hard, kind="stable").tolist():
        size = sizes[i]
        if hitting[i]:
            below = common[size + 1]
            draws = space.draws[i].tolist()
            children = space.children[i].tolist()
            total = sum(
                k * (-below if c == n else numerators[c])
                for k, c in zip(draws, children, strict=True)
                if k
            )
            numerators[i] = total * (common[size] // (below * (left - size)))
        else:
            value = stands[i]
            numerators[i] = value.numerator * (common[size] // value.denominator)
    return [Fraction(numerators[i], common[sizes[i]]) for i in wanted]


def _walk_float(
    solution: PlayerSolution, hard: Ints, hits: Flags, wanted: Sequence[int]
) -> list[float]:
    """:func:`_walk_exact` in floats, one hard total at a time over all its hands.

    The cards are added in the same order (values 1 to 10, a missing value adding 0.0),
    so the sums round exactly as a hand-by-hand walk would.
    """
    walked: list[float] = walk_values(solution, hits, _levels(hard))[wanted].tolist()
    return walked


def walk_values(solution: PlayerSolution, hits: Flags, levels: Levels) -> Floats:
    """Every hand's float value under a fixed play (``hits``), and -1 for a bust at the end
    (:func:`_walk_float`'s walk; ``levels`` are :func:`_levels` of the hands' hard totals)."""
    return walk_chart(solution, hits, levels).values


class Walk(NamedTuple):
    """A fixed play's walk over a hand space (:func:`walk_chart`)."""

    values: Floats
    """Each hand's value under the play, a bust's (-1) last."""
    hit: Floats
    """Each hand's value of hitting once under the play (empty unless asked for)."""
    reach: Floats
    """Each hand's chance of being reached from the roots, busts last (empty without)."""


def walk_chart(
    solution: PlayerSolution,
    hits: Flags,
    levels: Levels,
    roots: Sequence[int] = (),
    weights: Floats | None = None,
    hitting: bool = False,
) -> Walk:
    """:func:`walk_values`, with each hand's value of hitting once (``hitting``) and each
    hand's chance of being reached from the ``roots`` (reached with ``weights``), in one
    kernel call (``kernel.chart_walk``)."""
    space = solution.space
    n = len(hits)
    hit, reach = np.empty(n if hitting else 0), np.empty(n + 1 if len(roots) else 0)
    walked = Walk(np.empty(n + 1), hit, reach)
    kernel.chart_walk(
        *walked,
        *levels,
        hits.astype(np.int64),
        space.draws,
        space.children,
        space.sizes,
        np.ascontiguousarray(solution.stand, dtype=np.float64),
        sum(space.shoe),
        np.array(roots, dtype=np.int64),
        np.ascontiguousarray(weights if len(roots) else (), dtype=np.float64),
    )
    return walked


def _suited_copies(shoe: Shoe, rank: Rank) -> dict[Card, int]:
    """Each suit of ``rank`` the shoe still holds, with its number of copies."""
    return {Card(rank, s): shoe.count(rank, s) for s in SUITS if shoe.count(rank, s)}


def _one_card_of_value(shoe: Shoe, value: int) -> Card:
    """Some card of blackjack value ``value`` still in the shoe (the main game sees no more)."""
    for rank in RANKS:
        if rank.points == value:
            for card in _suited_copies(shoe, rank):
                return card
    raise ShoeError(f"the shoe holds no card of value {value}")  # pragma: no cover


def _checked_shoe(rules: Rules, removed: tuple[Card, ...]) -> Shoe:
    """The shoe less ``removed``, refused unless one card of every rank can still leave it."""
    shoe = Shoe.full(rules.decks).remove(removed)
    if not shoe.suits_known:
        raise ShoeError("effects of removal need the suit of every removed card, e.g. Ks")
    ranks = shoe.rank_counts()
    if any(n == 0 for n in ranks):
        gone = ", ".join(rank_label(r) for r, n in zip(RANKS, ranks, strict=True) if n == 0)
        raise ShoeError(f"no card of rank {gone} is left to remove: remove fewer cards")
    if shoe.total < 4:
        raise ShoeError(f"a shoe of {shoe.total} cards is too small to remove one and deal")
    return shoe


def _games_after(
    solve: Callable[[tuple[Card, ...]], GameResult[Any]], shoe: Shoe, removed: tuple[Card, ...]
) -> dict[int, GameResult[Any]]:
    """The game solved after one card of each value 1..10 leaves (suits do not matter)."""
    return {v: solve((*removed, _one_card_of_value(shoe, v))) for v in range(1, 11)}


def _bonus_effects(
    rules: Rules, shoe: Shoe, removed: tuple[Card, ...]
) -> tuple[Fraction, dict[str, Fraction]]:
    """The Bonus wager's exact EV, and each rank's exact EOR on it (suit at random)."""
    base = analyse_bonus(rules, removed).expected_value
    effects: dict[str, Fraction] = {}
    for rank, label in zip(RANKS, LABELS, strict=True):
        copies = _suited_copies(shoe, rank)
        change = sum(
            (n * (analyse_bonus(rules, (*removed, c)).expected_value - base))
            for c, n in copies.items()
        )
        effects[label] = Fraction(change) / sum(copies.values())
    return base, effects


def effects_of_removal(
    rules: Rules,
    removed: Iterable[Card] = (),
    exact: bool = False,
    jobs: int = 1,
    cache: Store | None = None,
    chart: Chart | None = None,
) -> EffectsOfRemoval[Any]:
    """The exact effect of removing one card of each rank from the shoe less ``removed``.

    Every EOR is the difference of two full solves (floats when ``exact`` is false); the
    chart is always found from an exact solve of the undepleted shoe, unless a caller that
    has already found it passes it as ``chart``.
    """
    removed = tuple(removed)
    shoe = _checked_shoe(rules, removed)

    def solve(cards: tuple[Card, ...], exactly: bool = exact) -> GameResult[Any]:
        return solve_game(rules, cards, exactly, jobs, cache=cache)

    base_game = solve(removed)
    if chart is None:
        chart = _base_chart(rules, removed, base_game if exact else None, solve, cache)
    ratio = rules.bonus_ratio

    def convert(value: Fraction) -> Any:
        return value if exact else float(value)

    bonus_base, bonus_effects = _bonus_effects(rules, shoe, removed)
    base = {
        "main": base_game.expected_value,
        "main_chart": chart_expected_value(chart, base_game),
        "bonus": convert(bonus_base),
    }
    base["round"] = base["main"] + convert(ratio) * base["bonus"]

    main_by_value: dict[int, Any] = {}
    chart_by_value: dict[int, Any] = {}
    for value, after in _games_after(solve, shoe, removed).items():
        main_by_value[value] = after.expected_value - base["main"]
        chart_by_value[value] = chart_expected_value(chart, after) - base["main_chart"]

    effects: dict[str, dict[str, Any]] = {w: {} for w in WAGERS}
    for rank, label in zip(RANKS, LABELS, strict=True):
        bonus = bonus_effects[label]
        effects["main"][label] = main_by_value[rank.points]
        effects["main_chart"][label] = chart_by_value[rank.points]
        effects["bonus"][label] = convert(bonus)
        effects["round"][label] = main_by_value[rank.points] + convert(ratio * bonus)

    whole = _whole_deck(rules, shoe, removed, exact, solve, chart, base, effects)
    return EffectsOfRemoval(rules, removed, exact, base, effects, whole)


def _base_chart(
    rules: Rules,
    removed: tuple[Card, ...],
    exact_game: GameResult[Fraction] | None,
    solve: Callable[[tuple[Card, ...], bool], GameResult[Any]],
    cache: Store | None,
) -> Chart:
    """The best chart of the shoe less ``removed`` (:func:`stored_chart`), from ``exact_game``
    or, if none is given, an exact solve made only when the cache does not hold the chart."""
    if exact_game is not None:
        return stored_chart(rules, exact_game, cache)
    if cache is None or removed:
        return best_chart(rules, solve(removed, True))
    return cache.fetch(
        CHART, Key(rules, exact=True), lambda: best_chart(rules, solve(removed, True))
    )


@dataclass(frozen=True, slots=True)
class RoundEffects:
    """The full shoe's main and round EVs and each rank's EOR on the round, in floats."""

    rules: Rules
    main: float
    round: float
    effects: dict[str, float]
    """``effects[rank label]``: as ``effects_of_removal(...).effects["round"]``."""


def round_effects(rules: Rules, jobs: int = 1, cache: Store | None = None) -> RoundEffects:
    """The round's float EORs alone from the full shoe: the solves, without the chart.

    The same solves and Bonus EORs as :func:`effects_of_removal` (so the same numbers),
    for callers that need no chart and would rather not pay for finding one.
    """
    shoe = _checked_shoe(rules, ())

    def solve(cards: tuple[Card, ...]) -> GameResult[Any]:
        return solve_game(rules, cards, False, jobs, cache=cache)

    main = solve(()).expected_value
    ratio = rules.bonus_ratio
    bonus_base, bonus_effects = _bonus_effects(rules, shoe, ())
    after = {v: game.expected_value - main for v, game in _games_after(solve, shoe, ()).items()}
    effects = {
        label: after[rank.points] + float(ratio * bonus_effects[label])
        for rank, label in zip(RANKS, LABELS, strict=True)
    }
    return RoundEffects(rules, main, main + float(ratio) * float(bonus_base), effects)


def _whole_deck(
    rules: Rules,
    shoe: Shoe,
    removed: tuple[Card, ...],
    exact: bool,
    solve: Callable[[tuple[Card, ...]], GameResult[Any]],
    chart: Chart,
    base: dict[str, Any],
    effects: dict[str, dict[str, Any]],
) -> WholeDeck:
    """Sum of the EORs over one deck's 52 cards, and the exact change where a deck can go."""
    ratio = rules.bonus_ratio
    # Four cards of each rank, each counted at its rank's (suit-averaged) EOR.
    linear: dict[str, Any] = {w: 4 * sum(effects[w].values()) for w in WAGERS}
    deck = tuple(Card(r, s) for r in RANKS for s in SUITS)
    if any(shoe.count(c.rank, c.suit) == 0 for c in deck if c.suit) or shoe.total - 52 < 3:
        return WholeDeck(linear, None)
    cards = (*removed, *deck)
    after = solve(cards)
    bonus_change = (
        analyse_bonus(rules, cards).expected_value - analyse_bonus(rules, removed).expected_value
    )
    true: dict[str, Any] = {
        "main": after.expected_value - base["main"],
        "main_chart": chart_expected_value(chart, after) - base["main_chart"],
        "bonus": bonus_change if exact else float(bonus_change),
    }
    true["round"] = true["main"] + (
        ratio * bonus_change if exact else float(ratio) * float(bonus_change)
    )
    return WholeDeck(linear, true)


# --- Linear counts -----------------------------------------------------------------------------

#: Levels of the best counts derived from the round's EORs.
BEST_LEVELS = (1, 2, 3)


def _centred(values: Mapping[str, Fraction]) -> dict[str, Fraction]:
    """Values less their mean over the 52 cards (each rank holds 4 of them)."""
    mean = sum(values.values(), Fraction(0)) / len(values)
    return {r: v - mean for r, v in values.items()}


def betting_correlation(tags: Mapping[str, int], effects: Mapping[str, Fraction | float]) -> float:
    """Pearson correlation over a deck's 52 cards between tag and EOR (Griffin's definition).

    Each rank is four cards, so the weights cancel and the 13 ranks suffice.
    """
    t = _centred({r: Fraction(tags[r]) for r in LABELS})
    e = _centred({r: Fraction(effects[r]) for r in LABELS})
    covariance = sum(t[r] * e[r] for r in LABELS)
    spread = sum(t[r] ** 2 for r in LABELS) * sum(e[r] ** 2 for r in LABELS)
    if spread == 0:
        raise CountError("a correlation needs tags and EORs that are not all equal")
    return float(covariance) / math.sqrt(spread)


def ev_per_true_count(
    tags: Mapping[str, int], effects: Mapping[str, Fraction | float], cards: int
) -> Fraction | float:
    """EV change per unit of true count (running count per deck left): a linear estimate.

    With EORs measured from a shoe of ``cards`` cards, the linear model gives the EV change
    after cards ``R`` leave, ``d`` decks being left, as ``(cards / 52) * sum(EOR[c] for c in
    R) / d``, and the true count is ``sum(tag[c] for c in R) / d``.  Over random removals
    the least-squares slope of the first on the second is ``(cards / 52) * sum((t - mean t)
    * (e - mean e)) / sum((t - mean t) ** 2)``, sums over the 52 cards of a deck; for a
    balanced count with EORs summing to zero this is ``(cards / 52) * sum(t * e) / sum(t**2)``.
    """
    t = _centred({r: Fraction(tags[r]) for r in LABELS})
    e = _centred({r: Fraction(effects[r]) for r in LABELS})
    slope = Fraction(cards, 52) * sum(t[r] * e[r] for r in LABELS) / sum(t[r] ** 2 for r in LABELS)
    exact = all(isinstance(v, Fraction) for v in effects.values())
    return slope if exact else float(slope)


def best_count(effects: Mapping[str, Fraction | float], level: int) -> Tags:
    """The tags from ``-level`` to ``level`` best correlated with ``effects``: the true
    optimum of a complete search (:func:`solver.exact.count_search.search_count`)."""
    return search_count(effects, level, "").tags


def judge_count(name: str, tags: Tags, eor: EffectsOfRemoval[Any]) -> CountSystem:
    """Betting correlation and EV slope of ``tags`` on the main wager and the round."""
    return CountSystem(
        name,
        tags,
        {w: betting_correlation(tags, eor.effects[w]) for w in COUNT_WAGERS},
        {w: ev_per_true_count(tags, eor.effects[w], eor.cards) for w in COUNT_WAGERS},
    )


def judge_counts(eor: EffectsOfRemoval[Any], chosen: Mapping[str, Tags] | None = None) -> Counts:
    """``chosen`` counts (else the published ones and the best of level 1-3) against ``eor``."""
    if chosen is None:
        chosen = dict(SYSTEMS)
        for level in BEST_LEVELS:
            chosen[f"best-level-{level}"] = best_count(eor.effects["round"], level)
    systems = tuple(judge_count(name, tags, eor) for name, tags in chosen.items())
    return Counts(eor.rules, eor, systems)
