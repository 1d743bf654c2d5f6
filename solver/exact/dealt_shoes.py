"""Shoes dealt at random depths, each solved exactly in floats, with its chart decisions.

Every state deals ``k`` cards from the full shoe, ``k`` uniform from 1 to
``round(penetration * cards)`` (a round dealt before the cut card sits at a depth spread
evenly over the shoe played), and solves the shoe left under composition-dependent play
(:func:`solver.exact.game.solve_game`).  Besides the main wager's, the Bonus wager's and the
round's EV and variance, each state records the gain of playing each chosen *decision*
(a chart cell against one Bonus card) the other way from the full shoe's best chart: the
change in main EV when every hand of that cell hits instead of standing (or stands
instead of hitting), the rest of the chart kept, valued exactly for the cards left (the
walk of :func:`solver.exact.protection.chart_expected_value`, in floats).

The decisions are the chart's closest calls in the full shoe: the cells whose flip costs
least there.  A state's cards depend only on the seed and its number, so the sample is
the same on any number of jobs or a Dask cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from solver.exact.game import solutions_of, solve_game
from solver.exact.protection import Flags, Ints, _chart_hits, _walk_float
from solver.exact.shoe_states import MIN_CARDS_LEFT, check_samples, check_seed
from solver.model.cards import RANKS, SUITS, VALUES, Card, Shoe
from solver.model.cells import Action
from solver.model.counts import LABELS, rank_label
from solver.model.errors import ShoeError
from solver.model.hands import hand_of, is_player_blackjack
from solver.model.parallel import Backend, parallel_map
from solver.model.rules import Rules
from solver.results.charts import Chart
from solver.results.dealt_shoes import DealtShoes, Decision
from solver.results.game import GameResult

#: Decisions followed by default: the chart's closest calls.
DEFAULT_DECISIONS = 24
#: States solved per task.
CHUNK = 20


def _cells(hands: Ints, hard: Ints) -> tuple[Flags, Ints]:
    """Each hand's chart cell (as :func:`~solver.model.cells.cell_of`): soft?, best total."""
    soft: Flags = (hands[:, 0] > 0) & (hard + 10 <= 21)
    best: Ints = np.where(soft, hard + 10, hard)
    return soft, best


def decision_gains(
    chart: Chart, game: GameResult[float], decisions: Sequence[Decision]
) -> list[float]:
    """The main EV gained by playing each decision the other way from ``chart`` in ``game``."""
    gains = [0.0] * len(decisions)
    by_bonus: dict[int, list[int]] = {}
    for k, (_, bonus) in enumerate(decisions):
        by_bonus.setdefault(bonus, []).append(k)
    starts = {(s.player, s.bonus): float(s.probability) for s in game.starts}
    for bonus, ks in by_bonus.items():
        solution = solutions_of(game).get(bonus)
        if solution is None:
            continue
        space = solution.space
        hard = space.hands @ np.arange(1, 11)
        can_hit = sum(space.shoe) > space.sizes
        hits: Flags = _chart_hits(chart, bonus, space.hands, hard) & can_hit
        players = [p for p in VALUES if (p, bonus) in starts and not is_player_blackjack(p, bonus)]
        roots = [space.index(hand_of([p])) for p in players]
        weights = np.array([starts[(p, bonus)] for p in players])
        base = np.array(_walk_float(solution, hard, hits, roots))
        soft, best = _cells(space.hands, hard)
        for k in ks:
            (cell_soft, total), _ = decisions[k]
            members = (soft == cell_soft) & (best == total)
            if not members.any():
                continue
            flipped = hits.copy()
            flipped[members] = ~hits[members] & can_hit[members]
            after = np.array(_walk_float(solution, hard, flipped, roots))
            gains[k] = float(weights @ (after - base))
    return gains


def state_row(
    rules: Rules, chart: Chart, decisions: Sequence[Decision], removed: Sequence[Card]
) -> tuple[float, ...]:
    """One state's row (see :class:`~solver.results.dealt_shoes.DealtShoes`)."""
    game = solve_game(rules, removed, exact=False)
    if game.bonus is None:  # pragma: no cover - every dealt card has its suit
        raise ShoeError("a dealt state needs the suits of its cards")
    ranks = [0] * len(LABELS)
    for card in removed:
        ranks[LABELS.index(rank_label(card.rank))] += 1
    left = 52 * rules.decks - len(removed)
    return (
        float(left),
        *map(float, ranks),
        float(game.expected_value),
        float(game.variance),
        float(game.bonus.expected_value),
        float(game.bonus.variance),
        float(game.round_variance),
        *decision_gains(chart, game, decisions),
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
    return [
        state_row(
            plan.rules,
            plan.chart,
            plan.decisions,
            deal_cards(plan.rules.decks, plan.seed, s, plan.penetration),
        )
        for s in range(first, stop)
    ]


def closest_calls(rules: Rules, chart: Chart, count: int) -> tuple[Decision, ...]:
    """The ``count`` decisions whose flip costs least in the full shoe (each flip reaching
    some hand), closest first."""
    game = solve_game(rules, exact=False)
    every = [
        (cell, bonus)
        for (cell, bonus) in chart.actions
        if cell[1] < 21 and not (cell[0] and cell[1] < 12)
    ]
    gains = decision_gains(chart, game, every)
    ranked = sorted((-g, i) for i, g in enumerate(gains) if g != 0.0)
    return tuple(every[i] for _, i in ranked[:count])


def check_penetration(penetration: float) -> float:
    """A share of the shoe dealt before the cut card, strictly between 0 and 1."""
    if not isinstance(penetration, (int, float)) or not 0 < penetration < 1:
        raise ShoeError(f"penetration {penetration!r} must lie strictly between 0 and 1")
    return float(penetration)


def deal_shoes(
    rules: Rules,
    chart: Chart,
    samples: int,
    seed: int,
    penetration: float,
    decisions: int = DEFAULT_DECISIONS,
    jobs: int = 1,
    backend: Backend = "processes",
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> DealtShoes:
    """``samples`` states dealt and solved (see the module's docstring)."""
    check_samples(samples)
    check_seed(seed)
    check_penetration(penetration)
    chosen = closest_calls(rules, chart, decisions)
    plan = DealPlan(rules, chart, chosen, seed, penetration)
    full_shoe = Shoe.full(rules.decks)
    full = state_row(rules, chart, chosen, ())
    after = []
    for value in VALUES:
        card = next(
            Card(r, s) for r in RANKS for s in SUITS if r.points == value and full_shoe.count(r, s)
        )
        after.append(state_row(rules, chart, chosen, (card,)))
    tasks = [(a, min(a + CHUNK, samples)) for a in range(0, samples, CHUNK)]
    done = parallel_map(partial(solve_states, plan), tasks, jobs, backend, progress, scheduler)
    rows = tuple(row for part in done for row in part)
    hits = tuple(chart.action(cell, bonus) is Action.HIT for cell, bonus in chosen)
    return DealtShoes(rules, samples, seed, penetration, chosen, hits, full, tuple(after), rows)
