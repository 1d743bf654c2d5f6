"""Shoes dealt at random depths, each solved exactly in floats, with its chart decisions.

Every state deals ``k`` cards from the full shoe, ``k`` uniform from 1 to
``round(penetration * cards)`` (a round dealt before the cut card sits at a depth spread
evenly over the shoe played), and solves the shoe left under composition-dependent play
(:func:`solver.exact.game.solve_game`).  Besides the main wager's, the Bonus wager's and the
round's EV and variance, and the main wager's EV played by the full shoe's chart (what a
counter who keeps to the chart gets), each state records the gain of playing each chosen *decision*
(a chart cell against one Bonus card) the other way from the full shoe's best chart: the
change in main EV when every hand of that cell hits instead of standing (or stands
instead of hitting), the rest of the chart kept, valued exactly for the cards left (the
walk of :func:`solver.exact.protection.chart_expected_value`, in floats).

The decisions followed are those worth most to a player who deviates exactly when it
pays, as every decision's effects of removal predict (:func:`predicted_values`): a
frequent close call beats a rare one.  Twice as many are dealt, and the study keeps the
first that gain in some dealt shoe (:func:`gaining`): a decision whose gain never turns
positive has no index to find.  A state's cards depend only on the seed and its
number, so the sample is the same on any number of jobs or a Dask cluster.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np

from solver.exact.game import solutions_of, solve_game
from solver.exact.player_hands import HandSpace, universe
from solver.exact.protection import Flags, Ints, Levels, _levels, walk_chart
from solver.exact.shoe_states import check_samples, check_seed
from solver.model.cards import RANKS, SUITS, VALUES, Card, Shoe
from solver.model.cells import Action, cell_of
from solver.model.checks import shown
from solver.model.counts import LABELS, rank_label
from solver.model.errors import ShoeError
from solver.model.hands import hand_of, is_player_blackjack
from solver.model.parallel import Backend, parallel_map
from solver.model.rules import Rules
from solver.model.shuffles import MIN_CARDS_LEFT
from solver.results.charts import Chart
from solver.results.dealt_shoes import GAINS, DealtShoes, Decision
from solver.results.game import GameResult

#: Decisions followed by default: those their effects of removal say are worth most.
DEFAULT_DECISIONS = 24
#: States solved per task.
CHUNK = 20

Array = np.ndarray[tuple[int, ...], np.dtype[np.float64]]


def _cells(hands: Ints, hard: Ints) -> tuple[Flags, Ints]:
    """Each hand's chart cell (as :func:`~solver.model.cells.cell_of`): soft?, best total."""
    soft: Flags = (hands[:, 0] > 0) & (hard + 10 <= 21)
    best: Ints = np.where(soft, hard + 10, hard)
    return soft, best


@dataclass(frozen=True, slots=True)
class HandsPlan:
    """What a walk of a chart needs of a hand space's hands against one Bonus card: it
    depends on the hands alone, which the states of a study often share."""

    hard: Ints
    chart_hits: Flags
    """Whether the chart hits each hand, whatever the cards left."""
    levels: Levels
    soft: Flags
    best: Ints
    """Each hand's chart cell: whether it is soft, and its best total."""
    members: dict[tuple[bool, int], Ints] = field(default_factory=dict)
    """Each decision's cell: the positions of its hands, as first asked for."""
    splits: dict[tuple[bool, int], tuple[Ints, Ints]] = field(default_factory=dict)
    """Each cell's hands the chart hits and stands on (see :meth:`split`)."""

    def cell(self, soft: bool, total: int) -> Ints:
        """The positions of the hands in the chart cell (``soft``, ``total``), ascending."""
        found = self.members.get((soft, total))
        if found is None:
            found = self.members[(soft, total)] = np.flatnonzero(
                (self.soft == soft) & (self.best == total)
            )
        return found

    def split(self, soft: bool, total: int, hits: Flags, can_hit: Flags) -> tuple[Ints, Ints]:
        """The hands of a cell that can draw a card, those the play ``hits`` hits and those
        it stands on (kept where every hand can draw: the split is then the chart's)."""
        every = bool(can_hit.all())
        found = self.splits.get((soft, total)) if every else None
        if found is None:
            members = self.cell(soft, total)
            members = members[can_hit[members]]
            found = members[hits[members]], members[~hits[members]]
            if every:
                self.splits[(soft, total)] = found
        return found

    def within(self, keys: Ints, universe_keys: Ints) -> HandsPlan:
        """The plan of the hands named by ``keys`` (ascending), this plan being the whole
        universe's (``universe_keys``): each array taken at their places, and the levels
        the universe's order kept to them (a stable sort of a subsequence is the subsequence
        of the stable sort)."""
        places = np.searchsorted(universe_keys, keys)
        held = np.zeros(len(universe_keys), dtype=np.bool_)
        held[places] = True
        rank = np.cumsum(held) - 1
        order = self.levels[0]
        order = rank[order[held[order]]]
        hard = self.hard[places]
        ordered = hard[order]
        cuts = np.flatnonzero(ordered[1:] != ordered[:-1]) + 1
        bounds = np.concatenate([[0], cuts, [len(keys)]]).astype(np.int64)
        levels = order.astype(np.int64), bounds
        return HandsPlan(
            hard, self.chart_hits[places], levels, self.soft[places], self.best[places]
        )


HIT = Action.HIT


class ChartWalks:
    """What the walks of one chart share: a :class:`HandsPlan` for each hand space met, by
    its Bonus card and hands (a memo for a run of states, dropped with it), each taken from
    the plan of the whole universe of hands against that Bonus card, made once."""

    def __init__(self, chart: Chart) -> None:
        self.chart = chart
        self._plans: dict[tuple[int, bytes], HandsPlan] = {}
        self._whole: dict[int, HandsPlan] = {}

    def plan(self, bonus: int, space: HandSpace) -> HandsPlan:
        """The plan of ``space``'s hands against ``bonus``, made the first time."""
        key = (bonus, space.keys.tobytes())  # the keys name the hands, one each
        found = self._plans.get(key)
        if found is None:
            keys = universe()[2]
            found = self._plans[key] = self.whole(bonus).within(space.keys, keys)
        return found

    def whole(self, bonus: int) -> HandsPlan:
        """The plan of every hand of the universe (:func:`~solver.exact.player_hands.universe`)
        against ``bonus``."""
        found = self._whole.get(bonus)
        if found is None:
            hands = universe()[0]
            hard: Ints = hands @ np.arange(1, 11)
            soft, best = _cells(hands, hard)
            hits = self._hits(bonus, hands, hard)
            found = self._whole[bonus] = HandsPlan(hard, hits, _levels(hard), soft, best)
        return found

    def _hits(self, bonus: int, hands: Ints, hard: Ints) -> Flags:
        """Whether the chart hits each of ``hands`` (as :func:`_chart_hits`): the chart is
        asked once for each hard total with or without an ace, the pair that makes a
        hand's cell."""
        pair = 2 * hard + (hands[:, 0] > 0)
        _, first, inverse = np.unique(pair, return_index=True, return_inverse=True)
        asked = [  # the hand of no cards has no cell: never walked, and not hit here
            hard[i] > 0 and self.chart.action(cell_of(tuple(hands[i].tolist())), bonus) is HIT
            for i in first.tolist()
        ]
        hits: Flags = np.array(asked, dtype=np.bool_)[inverse.reshape(-1)]
        return hits


def chart_walk(
    chart: Chart,
    game: GameResult[float],
    decisions: Sequence[Decision],
    walks: ChartWalks | None = None,
) -> tuple[float, list[float]]:
    """The main EV of playing ``chart`` in ``game``'s shoe, and the main EV gained by playing
    each decision the other way from it (the walk of
    :func:`~solver.exact.protection.chart_expected_value`, in floats).

    One walk values every hand under the chart and gives each hand's chance of being
    reached (one kernel call, :func:`~solver.exact.protection.walk_reach`); a decision's
    gain is then a sum over its cell's hands of that chance times the change in the hand's
    value.  No hand of a cell is reached from another of the same cell (each card raises
    the hard total, and a cell is a total and whether it is soft), so flipping a cell
    changes neither the chance of reaching its hands nor the values of their children: the
    sum is the difference of the two charts' walks.  ``walks`` (of the same chart) keeps
    what depends on the hands alone for later walks.
    """
    walks = ChartWalks(chart) if walks is None else walks
    gains = [0.0] * len(decisions)
    by_bonus: dict[int, list[int]] = {}
    for k, (_, bonus) in enumerate(decisions):
        by_bonus.setdefault(bonus, []).append(k)
    starts = {(s.player, s.bonus): float(s.probability) for s in game.starts}
    pays = float(game.rules.blackjack_pays)
    expected = sum(p * pays for (v, b), p in starts.items() if is_player_blackjack(v, b))
    for bonus, solution in solutions_of(game).items():
        space = solution.space
        plan = walks.plan(bonus, space)
        can_hit = sum(space.shoe) > space.sizes
        hits: Flags = plan.chart_hits & can_hit
        players = [p for p in VALUES if (p, bonus) in starts and not is_player_blackjack(p, bonus)]
        roots = space.indices([hand_of([p]) for p in players])
        weights = np.array([starts[(p, bonus)] for p in players])
        wanted = by_bonus.get(bonus, ())
        walked = walk_chart(solution, hits, plan.levels, roots if wanted else (), weights, True)
        values, reach = walked.values, walked.reach
        expected += float(weights @ values[roots])
        if not wanted:
            continue
        stand = np.asarray(solution.stand, dtype=np.float64)
        # A hand's change when flipped: standing's less the chart's hit, or hitting's less
        # standing (each difference the same bits as taken on the cell's hands alone).
        to_stand, to_hit = stand - values[:-1], walked.hit - stand
        for k in wanted:
            (cell_soft, total), _ = decisions[k]
            now_stand, now_hit = plan.split(cell_soft, total, hits, can_hit)
            change = reach[now_stand] @ to_stand[now_stand]
            change += reach[now_hit] @ to_hit[now_hit]
            gains[k] = float(change)
    return expected, gains


def decision_gains(
    chart: Chart, game: GameResult[float], decisions: Sequence[Decision]
) -> list[float]:
    """The main EV gained by playing each decision the other way from ``chart`` in ``game``."""
    return chart_walk(chart, game, decisions)[1]


def state_row(
    rules: Rules,
    chart: Chart,
    decisions: Sequence[Decision],
    removed: Sequence[Card],
    walks: ChartWalks | None = None,
) -> tuple[float, ...]:
    """One state's row (see :class:`~solver.results.dealt_shoes.DealtShoes`); ``walks`` as
    for :func:`chart_walk`."""
    game = solve_game(rules, removed, exact=False)
    if game.bonus is None:  # pragma: no cover - every dealt card has its suit
        raise ShoeError("a dealt state needs the suits of its cards")
    ranks = [0] * len(LABELS)
    for card in removed:
        ranks[LABELS.index(rank_label(card.rank))] += 1
    left = 52 * rules.decks - len(removed)
    chart_ev, gains = chart_walk(chart, game, decisions, walks)
    return (
        float(left),
        *map(float, ranks),
        float(game.expected_value),
        float(game.variance),
        chart_ev,
        float(game.bonus.expected_value),
        float(game.bonus.variance),
        float(game.round_variance),
        *gains,
    )


def deal_cards(decks: int, seed: int, sample: int, penetration: float) -> list[Card]:
    """The cards dealt before state ``sample``: a number uniform from 1 to the cut card.

    >>> len(deal_cards(1, 7, 0, 0.5)) <= 26, deal_cards(1, 7, 3, 0.5) == deal_cards(1, 7, 3, 0.5)
    (True, True)
    """
    total = 52 * decks
    most = min(round(penetration * total), total - MIN_CARDS_LEFT)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(sample,)))
    dealt = int(rng.integers(1, most + 1))
    positions = rng.permutation(total)[:dealt]
    return [Card(RANKS[i // 4], SUITS[i % 4]) for i in sorted((positions % 52).tolist())]


@dataclass(frozen=True, slots=True)
class DealPlan:
    """What every state needs besides its number."""

    rules: Rules
    chart: Chart
    decisions: tuple[Decision, ...]
    seed: int
    penetration: float


def solve_states(plan: DealPlan, chunk: tuple[int, int]) -> list[tuple[float, ...]]:
    """The rows of states ``first`` to ``stop - 1`` (one unit of work)."""
    first, stop = chunk
    walks = ChartWalks(plan.chart)
    return [
        state_row(
            plan.rules,
            plan.chart,
            plan.decisions,
            deal_cards(plan.rules.decks, plan.seed, s, plan.penetration),
            walks,
        )
        for s in range(first, stop)
    ]


def every_decision(chart: Chart) -> tuple[Decision, ...]:
    """Every hit-or-stand cell of ``chart`` against every Bonus card (no 21, no soft hand
    below 12, which an ace and the Bonus card never make)."""
    return tuple(
        (cell, bonus)
        for (cell, bonus) in chart.actions
        if cell[1] < 21 and not (cell[0] and cell[1] < 12)
    )


def _normal_gain(mean: Array, sd: Array) -> Array:
    """``E[max(X, 0)]`` for ``X`` normal with ``mean`` and ``sd`` (``max(mean, 0)`` at 0).

    >>> [round(float(v), 6) for v in _normal_gain(np.array([0.0, 1.0]), np.array([1.0, 0.0]))]
    [0.398942, 1.0]
    """
    safe = np.where(sd > 0, sd, 1.0)
    z = mean / safe
    cdf = 0.5 * (1 + np.vectorize(math.erf)(z / math.sqrt(2)))
    pdf = np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
    result: Array = np.where(sd > 0, mean * cdf + sd * pdf, np.maximum(mean, 0.0))
    return result


def predicted_values(
    decks: int, full: Sequence[float], after: Sequence[Sequence[float]], penetration: float
) -> Array:
    """Each decision's value of perfect deviation, per round, that its effects of removal
    predict over depths up to ``penetration``.

    ``full`` is each decision's gain in the full shoe and ``after[v - 1]`` in the shoe less
    one card of value ``v``.  With ``k`` cards dealt at random, the gain is about the full
    shoe's plus the sum of the dealt cards' effects: a normal variable of mean
    ``full + k * mean(e)`` and variance ``k (N - k) / (N - 1) * var(e)`` (drawing without
    replacement from the ``N`` cards), whose positive part is what deviating exactly when
    it pays wins; averaged over ``k`` uniform up to the cut card.
    """
    base = np.asarray(full, dtype=np.float64)
    effects = np.asarray(after, dtype=np.float64) - base[None, :]
    cards = np.array([4 * decks] * 9 + [16 * decks], dtype=np.float64)
    total = float(cards.sum())
    mean = cards @ effects / total
    variance = cards @ (effects - mean) ** 2 / total
    most = min(round(penetration * total), int(total) - MIN_CARDS_LEFT)
    depths = np.unique(np.linspace(1, most, 24).round())
    values = [
        _normal_gain(base + k * mean, np.sqrt(k * (total - k) / (total - 1) * variance))
        for k in depths
    ]
    averaged: Array = np.mean(values, axis=0)
    return averaged


def chosen_decisions(
    rules: Rules, chart: Chart, count: int, penetration: float
) -> tuple[tuple[int, ...], tuple[float, ...], tuple[tuple[float, ...], ...]]:
    """The ``count`` decisions of :func:`every_decision` worth most by
    :func:`predicted_values` (their positions, best first), with the full shoe's row and
    the rows less one card of each value for every decision."""
    every = every_decision(chart)
    walks = ChartWalks(chart)
    full = state_row(rules, chart, every, (), walks)
    after = tuple(state_row(rules, chart, every, (card,), walks) for card in one_of_each(rules))
    values = predicted_values(
        rules.decks, full[GAINS:], [row[GAINS:] for row in after], penetration
    )
    ranked = sorted(range(len(every)), key=lambda k: (-values[k], k))
    return tuple(ranked[:count]), full, after


def one_of_each(rules: Rules) -> tuple[Card, ...]:
    """A card of each value 1..10 from the full shoe (the effects of removal's shoes)."""
    full_shoe = Shoe.full(rules.decks)
    return tuple(
        next(Card(r, s) for r in RANKS for s in SUITS if r.points == v and full_shoe.count(r, s))
        for v in VALUES
    )


def check_penetration(penetration: float, decks: int) -> float:
    """A share of the shoe dealt before the cut card, strictly between 0 and 1, that deals
    at least one card of a ``decks``-deck shoe."""
    if not isinstance(penetration, (int, float)) or not 0 < penetration < 1:
        raise ShoeError(f"penetration {shown(penetration)} must lie strictly between 0 and 1")
    if round(penetration * 52 * decks) < 1:
        raise ShoeError(
            f"penetration {penetration:g} deals no card of a {decks}-deck shoe: give at "
            f"least {1 / (52 * decks):.4g}"
        )
    return float(penetration)


def deal_shoes(
    rules: Rules,
    chart: Chart,
    samples: int,
    seed: int,
    penetration: float,
    decisions: int | Sequence[Decision] = DEFAULT_DECISIONS,
    jobs: int = 1,
    backend: Backend = "processes",
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> DealtShoes:
    """``samples`` states dealt and solved (see the module's docstring), following the
    ``decisions`` worth most (a number) or the decisions given."""
    check_samples(samples)
    check_seed(seed)
    check_penetration(penetration, rules.decks)
    if isinstance(decisions, int):
        every = every_decision(chart)
        wanted = decisions
        positions, full, after = chosen_decisions(rules, chart, CANDIDATES * wanted, penetration)
        chosen = tuple(every[k] for k in positions)

        def picked(row: tuple[float, ...]) -> tuple[float, ...]:
            return (*row[:GAINS], *(row[GAINS + k] for k in positions))

        full, after = picked(full), tuple(picked(row) for row in after)
    else:
        chosen = tuple(decisions)
        full = state_row(rules, chart, chosen, ())
        after = tuple(state_row(rules, chart, chosen, (card,)) for card in one_of_each(rules))
    plan = DealPlan(rules, chart, chosen, seed, penetration)
    tasks = [(a, min(a + CHUNK, samples)) for a in range(0, samples, CHUNK)]
    done = parallel_map(partial(solve_states, plan), tasks, jobs, backend, progress, scheduler)
    rows = tuple(row for part in done for row in part)
    hits = tuple(chart.action(cell, bonus) is Action.HIT for cell, bonus in chosen)
    found = DealtShoes(rules, samples, seed, penetration, chosen, hits, full, after, rows)
    return gaining(found, wanted) if isinstance(decisions, int) else found


#: Decisions dealt per decision followed: the study follows the ones that gain among them.
CANDIDATES = 2


def gaining(shoes: DealtShoes, count: int) -> DealtShoes:
    """``shoes`` following ``count`` of its decisions: the first (best predicted) among
    those whose gain is positive in some dealt shoe, then, where too few are, the rest.

    A decision that never gains over the study (standing on a one-card hand, say, whose
    gain changes size with the cards left but never sign) has nothing for an index to find.
    """
    gains = np.array(shoes.rows, dtype=np.float64)[:, GAINS:] if shoes.rows else np.zeros((0, 0))
    gained = [bool((gains[:, k] > 0).any()) for k in range(len(shoes.decisions))]
    order = sorted(range(len(shoes.decisions)), key=lambda k: (not gained[k], k))[:count]

    def kept(row: tuple[float, ...]) -> tuple[float, ...]:
        return (*row[:GAINS], *(row[GAINS + k] for k in order))

    return replace(
        shoes,
        decisions=tuple(shoes.decisions[k] for k in order),
        chart_hits=tuple(shoes.chart_hits[k] for k in order),
        full=kept(shoes.full),
        after=tuple(kept(row) for row in shoes.after),
        rows=tuple(kept(row) for row in shoes.rows),
    )
