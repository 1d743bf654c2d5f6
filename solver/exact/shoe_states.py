"""What a shoe really does: random shoes dealt to a depth, each solved for its real EV.

For each depth ``d`` and each sample, ``round(d * cards)`` cards (with suits) are dealt at
random from the full shoe and the depleted shoe is solved in floating point under
composition-dependent optimal play (:func:`solver.exact.game.solve_game`, as ``cbj
solve --removed`` does).  Per depth the study reports:

* the distribution of the round's EV (main wager plus ``bonus_ratio`` Bonus wagers, per
  main unit) and of the main wager's EV over the states: mean, sample standard deviation,
  percentiles 5/25/50/75/95 (linear interpolation between order statistics) and the share
  of states whose EV is above zero;
* the least-squares line of the round EV on the true count of a chosen count, the true
  count being the running count of the dealt cards over the decks left (``cards left /
  52``): slope, intercept and R²;
* how well the linear estimate ``full-shoe round EV + sum of the dealt cards' round EORs``
  (:func:`solver.exact.protection.round_effects`: the float EORs of ``cbj eor``) predicts
  each state's solved round EV: mean absolute error, largest absolute error and R² (one less the
  residual sum of squares over the total sum of squares of the solved EVs).

Memory stays flat in the number of samples: the tasks are made as they are handed out,
and each depth's states are summarised as they arrive.  Up to :data:`KEPT_STATES` states
a depth every figure is computed from all of them at the end; beyond, the first
:data:`KEPT_STATES` give the percentiles and running sums of all the states give the
rest (means, standard deviations, the fit, the errors and the shares above zero).

Every state draws its cards from its own numpy generator, seeded by
``SeedSequence(seed, spawn_key=(depth index, sample index))``: a state's cards depend on
the seed and its place alone, never on how the states were shared among workers, so the
result is the same for any number of jobs on any backend.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, overload

import numpy as np

from solver.exact.game import solve_game
from solver.exact.protection import RoundEffects
from solver.model.cards import RANKS, SUITS, Card
from solver.model.catalogue import SAMPLES
from solver.model.checks import shown, whole_in
from solver.model.counts import Tags, rank_label
from solver.model.errors import ShoeError
from solver.model.parallel import Backend, parallel_map
from solver.model.rules import Rules
from solver.model.shuffles import MIN_CARDS_LEFT
from solver.results.protection import (
    DepthStates,
    Distribution,
    LinearFit,
    PredictionCheck,
    ShoeStates,
)

#: The depths studied when none are given (a share of the shoe dealt).
DEFAULT_DEPTHS = (0.25, 0.5, 0.75, 0.83)

#: The percentiles of each EV distribution.
PERCENTILES = (5, 25, 50, 75, 95)


#: States solved by one task: at most this many, and fewer for small studies (more only
#: when a depth would otherwise have more than :data:`MAX_TASKS` tasks).
MAX_CHUNK = 250
#: Most tasks per depth (so that 10^9 samples are 10^4 tasks of 10^5 states a depth, not
#: four million tasks that a cluster's scheduler would hold at once).
MAX_TASKS = 10_000
#: States of each depth kept whole for its percentiles (32 bytes each); the other figures
#: come from running sums past this many.
KEPT_STATES = 100_000


def parse_depths(depths: str | Sequence[float | str]) -> tuple[float, ...]:
    """Depths as a comma list (``"0.25,0.5"``) or a sequence, each strictly between 0 and 1.

    >>> parse_depths("0.25, 0.5")
    (0.25, 0.5)
    """
    items = depths.split(",") if isinstance(depths, str) else list(depths)
    if not items:
        raise ShoeError("give at least one depth, e.g. --depths 0.25,0.5,0.75")
    parsed: list[float] = []
    for item in items:
        text = str(item).strip()
        try:
            if len(text) > 40 or not text.isascii():  # float() reads other scripts' digits
                raise ValueError
            depth = float(text)
        except ValueError:
            raise ShoeError(f"depth {shown(text)} is not a number: give shares like 0.5") from None
        if not 0 < depth < 1:
            raise ShoeError(f"depth {shown(text)} is not strictly between 0 and 1 (a share dealt)")
        if depth in parsed:
            raise ShoeError(f"depth {shown(text)} is given twice")
        parsed.append(depth)
    return tuple(parsed)


def cards_dealt(rules: Rules, depth: float) -> int:
    """Cards dealt at ``depth``: the nearest whole number, checked to leave a shoe to play.

    >>> cards_dealt(Rules(decks=6), 0.75)
    234
    """
    total = 52 * rules.decks
    dealt = round(depth * total)
    if dealt < 1 or total - dealt < MIN_CARDS_LEFT:
        raise ShoeError(
            f"depth {depth:g} deals {dealt} of {total} cards: deal at least one and leave "
            f"at least {MIN_CARDS_LEFT}"
        )
    return dealt


def default_depths(rules: Rules) -> tuple[float, ...]:
    """The depths studied when none are given: those of :data:`DEFAULT_DEPTHS` that leave
    enough cards in a shoe of ``rules.decks`` decks (a one-deck shoe keeps half a deck only
    up to half of it dealt).

    >>> default_depths(Rules(decks=1)), default_depths(Rules(decks=6))
    ((0.25, 0.5), (0.25, 0.5, 0.75, 0.83))
    """
    usable = []
    for depth in DEFAULT_DEPTHS:
        try:
            cards_dealt(rules, depth)
        except ShoeError:
            continue
        usable.append(depth)
    return tuple(usable)


def check_samples(samples: int) -> int:
    """A number of states per depth: a whole number from 2 (a spread needs two) up, as the
    catalogue's ``samples`` reads it."""
    found: int = SAMPLES.read(samples)
    return found


def check_seed(seed: int) -> int:
    """A seed: a whole number from 0 to 2^128 - 1 (what ``SeedSequence`` takes whole)."""
    if not whole_in(seed, 0, 2**128 - 1):
        raise ShoeError(f"seed {shown(seed)} is invalid: give a whole number from 0 to 2^128 - 1")
    return seed


def new_seed() -> int:
    """A fresh seed from the operating system's entropy, to be reported with the result."""
    return int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]


def deal_state(decks: int, seed: int, depth_index: int, sample: int, dealt: int) -> list[Card]:
    """The ``dealt`` cards of one state, drawn without replacement, sorted by rank and suit.

    The generator depends only on ``(seed, depth_index, sample)``.

    >>> len(deal_state(1, 7, 0, 0, 13)), deal_state(1, 7, 0, 0, 13) == deal_state(1, 7, 0, 0, 13)
    (13, True)
    """
    sequence = np.random.SeedSequence(seed, spawn_key=(depth_index, sample))
    positions = np.random.default_rng(sequence).permutation(52 * decks)[:dealt]
    return [Card(RANKS[i // 4], SUITS[i % 4]) for i in sorted((positions % 52).tolist())]


def true_count(tags: Tags, removed: Sequence[Card], cards_left: int) -> float:
    """The running count of ``removed`` over the decks left (``cards_left / 52``).

    >>> hi_lo = {**dict.fromkeys("A T J Q K".split(), -1), **dict.fromkeys("23456", 1)}
    >>> true_count(hi_lo | dict.fromkeys("789", 0), [Card.parse("5s")] * 3, 104)
    1.5
    """
    running = sum(tags[rank_label(c.rank)] for c in removed)
    return running * 52 / cards_left


@dataclass(frozen=True, slots=True)
class StudyPlan:
    """What every state needs besides its place: the rules, seed, count and linear model."""

    rules: Rules
    seed: int
    tags: Tags
    full_round: float
    """The undepleted shoe's round EV (float)."""
    round_effects: dict[str, float]
    """Each rank's EOR on the round (float), by rank label."""


#: One state's figures: true count, main EV, round EV, linear EOR estimate of the round EV.
StateFigures = tuple[float, float, float, float]


def solve_state(plan: StudyPlan, depth_index: int, sample: int, dealt: int) -> StateFigures:
    """Deal one state, solve its shoe, and return its true count and EVs with the estimate."""
    removed = deal_state(plan.rules.decks, plan.seed, depth_index, sample, dealt)
    game = solve_game(plan.rules, removed, exact=False)
    left = 52 * plan.rules.decks - dealt
    linear = plan.full_round + sum(plan.round_effects[rank_label(c.rank)] for c in removed)
    return (
        true_count(plan.tags, removed, left),
        float(game.expected_value),
        float(game.round_expected_value),
        linear,
    )


#: One task: (depth index, cards dealt, first sample, sample after the last).
Chunk = tuple[int, int, int, int]


#: Rows of :data:`StateFigures`, one per state (32 bytes a state).
FigureRows = np.ndarray[Any, np.dtype[np.float64]]


def solve_chunk(plan: StudyPlan, chunk: Chunk) -> FigureRows:
    """The figures of the states ``first`` to ``stop - 1`` at one depth (one unit of work)."""
    depth_index, dealt, first, stop = chunk
    rows = [solve_state(plan, depth_index, s, dealt) for s in range(first, stop)]
    return np.array(rows, dtype=np.float64).reshape(-1, 4)


class Chunks(Sequence[Chunk]):
    """The tasks of a study, each made when it is asked for (a study may have millions).

    Each depth's samples are cut into runs of equal size: about a hundred tasks per depth
    (at most :data:`MAX_CHUNK` states each, and at most :data:`MAX_TASKS` tasks) keep
    every worker busy and the progress moving; the cut never changes a result.
    """

    def __init__(self, dealt: Sequence[int], samples: int) -> None:
        self.dealt = tuple(dealt)
        self.samples = samples
        size = min(MAX_CHUNK, max(1, samples // 100))
        self.size = max(size, -(-samples // MAX_TASKS))
        self.per_depth = -(-samples // self.size)

    def __len__(self) -> int:
        return len(self.dealt) * self.per_depth

    @overload
    def __getitem__(self, index: int) -> Chunk: ...

    @overload
    def __getitem__(self, index: slice) -> list[Chunk]: ...

    def __getitem__(self, index: int | slice) -> Chunk | list[Chunk]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        depth, run = divmod(index % len(self), self.per_depth)
        first = run * self.size
        return (depth, self.dealt[depth], first, min(first + self.size, self.samples))

    def __iter__(self) -> Iterator[Chunk]:
        return (self[i] for i in range(len(self)))


def chunks(dealt: Sequence[int], samples: int) -> Chunks:
    """The tasks of a study: each depth's samples cut into runs of equal size.

    >>> list(chunks([10, 20], 5))
    [(0, 10, 0, 1), (0, 10, 1, 2), (0, 10, 2, 3), (0, 10, 3, 4), (0, 10, 4, 5), (1, 20, 0, 1), \
(1, 20, 1, 2), (1, 20, 2, 3), (1, 20, 3, 4), (1, 20, 4, 5)]
    >>> len(chunks([10], 10**9)), chunks([10], 10**9)[0]
    (10000, (0, 10, 0, 100000))
    """
    return Chunks(dealt, samples)


Floats = np.ndarray[Any, np.dtype[np.float64]]


def summarised(values: Floats) -> Distribution:
    """The summary of ``values`` (at least two)."""
    cuts = np.percentile(values, PERCENTILES)
    return Distribution(
        float(values.mean()),
        float(values.std(ddof=1)),
        {p: float(v) for p, v in zip(PERCENTILES, cuts, strict=True)},
        float(np.count_nonzero(values > 0) / len(values)),
    )


def fitted(x: Floats, y: Floats) -> LinearFit:
    """The least-squares fit of ``y`` on ``x``."""
    dx, dy = x - x.mean(), y - y.mean()
    sxx, syy = float(dx @ dx), float(dy @ dy)
    if sxx == 0:
        return LinearFit(None, None, None)
    slope = float(dx @ dy) / sxx
    intercept = float(y.mean()) - slope * float(x.mean())
    residual = y - (slope * x + intercept)
    r_squared = None if syy == 0 else 1 - float(residual @ residual) / syy
    return LinearFit(slope, intercept, r_squared)


def checked(predicted: Floats, solved: Floats) -> PredictionCheck:
    """Errors of ``predicted`` against ``solved``."""
    errors = solved - predicted
    spread = solved - solved.mean()
    total = float(spread @ spread)
    r_squared = None if total == 0 else 1 - float(errors @ errors) / total
    return PredictionCheck(float(np.abs(errors).mean()), float(np.abs(errors).max()), r_squared)


def depth_states(depth: float, dealt: int, left: int, figures: FigureRows) -> DepthStates:
    """The summary of one depth's state figures."""
    counts, main, round_ev, linear = figures.T
    return DepthStates(
        depth,
        dealt,
        left,
        summarised(round_ev),
        summarised(main),
        summarised(counts),
        fitted(counts, round_ev),
        checked(linear, round_ev),
    )


@dataclass(slots=True)
class DepthSums:
    """One depth's states as they arrive: the first :data:`KEPT_STATES` whole, and running
    sums of all (their count, means, co-moments, shares above zero and the EOR errors).

    The co-moments are merged task by task (Chan, Golub and LeVeque's pairwise update), in
    the order of the tasks, so the figures do not depend on the workers.
    """

    kept: list[FigureRows] = field(default_factory=list)
    kept_count: int = 0
    count: int = 0
    mean: np.ndarray[Any, np.dtype[np.float64]] = field(default_factory=lambda: np.zeros(4))
    comoment: np.ndarray[Any, np.dtype[np.float64]] = field(
        default_factory=lambda: np.zeros((4, 4))
    )
    positive: np.ndarray[Any, np.dtype[np.int64]] = field(
        default_factory=lambda: np.zeros(4, dtype=np.int64)
    )
    absolute_error: float = 0.0
    max_error: float = 0.0

    def add(self, rows: FigureRows) -> None:
        """Take in one task's rows of :data:`StateFigures`."""
        if not len(rows):
            return
        if self.kept_count < KEPT_STATES:
            taken = rows[: KEPT_STATES - self.kept_count]
            self.kept.append(taken)
            self.kept_count += len(taken)
        added = len(rows)
        mean = rows.mean(axis=0)
        centred = rows - mean
        total = self.count + added
        delta = mean - self.mean
        self.comoment += centred.T @ centred + np.outer(delta, delta) * (self.count * added / total)
        self.mean = self.mean + delta * (added / total)
        self.count = total
        self.positive += np.count_nonzero(rows > 0, axis=0)
        errors = np.abs(rows[:, 2] - rows[:, 3])
        self.absolute_error += float(errors.sum())
        self.max_error = max(self.max_error, float(errors.max()))

    def summary(self, depth: float, dealt: int, left: int) -> DepthStates:
        """The depth's summary: from every state when all were kept, else from the sums."""
        if self.count <= KEPT_STATES:
            return depth_states(depth, dealt, left, np.concatenate(self.kept))
        kept = np.concatenate(self.kept)
        n, mean, c = self.count, self.mean, self.comoment

        def spread(column: int) -> Distribution:
            cuts = np.percentile(kept[:, column], PERCENTILES)
            return Distribution(
                float(mean[column]),
                float(np.sqrt(max(c[column, column], 0.0) / (n - 1))),
                {p: float(v) for p, v in zip(PERCENTILES, cuts, strict=True)},
                float(self.positive[column] / n),
            )

        sxx, sxy, syy = float(c[0, 0]), float(c[0, 2]), float(c[2, 2])
        if sxx > 0:
            slope = sxy / sxx
            fit_r2 = None if syy == 0 else 1 - (syy - slope * sxy) / syy
            fit = LinearFit(slope, float(mean[2]) - slope * float(mean[0]), fit_r2)
        else:
            fit = LinearFit(None, None, None)
        error_mean = float(mean[2] - mean[3])
        squares = n * error_mean**2 + float(c[2, 2] + c[3, 3] - 2 * c[2, 3])
        prediction = PredictionCheck(
            self.absolute_error / n, self.max_error, None if syy == 0 else 1 - squares / syy
        )
        return DepthStates(depth, dealt, left, spread(2), spread(1), spread(0), fit, prediction)


def study_shoe_states(
    effects: RoundEffects,
    depths: Sequence[float],
    samples: int,
    seed: int,
    system: str,
    tags: Tags,
    jobs: int = 1,
    backend: Backend = "processes",
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ShoeStates:
    """Deal ``samples`` shoes to each of ``depths`` under the rules ``effects`` were found for.

    ``effects`` (the full shoe's float round EORs) give the linear estimate; ``tags``
    (named ``system``) the true count.  Work is shared as :func:`chunks` on ``jobs`` local
    processes, or on a Dask cluster with ``backend="dask"``; ``progress(done, total)``
    counts tasks.
    """
    rules = effects.rules
    dealt = [cards_dealt(rules, d) for d in depths]
    plan = StudyPlan(rules, check_seed(seed), tags, effects.round, dict(effects.effects))
    tasks = chunks(dealt, check_samples(samples))
    done = parallel_map(partial(solve_chunk, plan), tasks, jobs, backend, progress, scheduler)
    sums = [DepthSums() for _ in depths]
    for task, figures in zip(tasks, done, strict=True):
        sums[task[0]].add(figures)
    total = 52 * rules.decks
    summaries = tuple(
        part.summary(d, n, total - n) for d, n, part in zip(depths, dealt, sums, strict=True)
    )
    full = {"main": effects.main, "round": effects.round}
    return ShoeStates(rules, samples, seed, system, dict(tags), full, summaries)
