"""Running a simulation: seeded chunks of rounds, in parallel, summed into a result."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import numpy.typing as npt

from solver.model.cards import Card, Shoe
from solver.model.errors import ShoeError, SimulationError
from solver.model.parallel import check_jobs, parallel_map
from solver.model.rules import Rules
from solver.sim.deal import Shoes, Table, play_round, shoe_codes
from solver.sim.hands import (
    Wager,
    payoffs,
)
from solver.sim.stats import ExactFigure, SimulationResult
from solver.sim.strategies import Strategy

#: Rounds per chunk: the unit of work and of seeding, fixed so results do not depend on jobs.
CHUNK_ROUNDS = 1 << 17
#: Lanes dealt side by side with a fresh shoe every round.  More lanes means fewer numpy
#: calls per round, but past ~2 MiB of shoes the random card swaps fall out of cache.
FRESH_LANES = 1 << 12
#: Most lanes dealt side by side in penetration mode.
PENETRATION_LANES = 1 << 10
#: Rounds each lane plays from its own shoe, reshuffling at the cut card, in penetration mode.
SESSION_ROUNDS = 1 << 7
#: z of a two-sided 95% normal interval.


@dataclass(frozen=True, slots=True)
class _Tally:
    """What one chunk found: joint outcome counts per seat, and squares of seat sums."""

    joint: npt.NDArray[np.int64]
    """``joint[seat, main outcome, bonus outcome]`` counts of seat-rounds."""
    squares: npt.NDArray[np.float64]
    """Sums over rounds of (sum over seats of net)^2 for main, Bonus and round."""


def _run_chunk(table: Table, rounds: int, seed: np.random.SeedSequence) -> _Tally:
    """Play ``rounds`` rounds with a random generator of its own.

    With a fresh shoe, up to ``FRESH_LANES`` rounds are dealt at once.  With a cut card,
    up to ``PENETRATION_LANES`` lanes each play about ``SESSION_ROUNDS`` consecutive rounds
    from their own shoe, which starts freshly shuffled.
    """
    if table.cut is None:
        lanes = min(rounds, FRESH_LANES)
    else:
        lanes = max(1, min(PENETRATION_LANES, rounds // SESSION_ROUNDS))
    shoes = Shoes(table.cards, lanes, np.random.default_rng(seed), table.cut)
    main_pay, bonus_pay = (np.array([float(p) for p in pays]) for pays in payoffs(table.rules))
    ratio = float(table.rules.bonus_ratio)
    joint = np.zeros((table.seats, 4, 4), dtype=np.int64)
    squares = np.zeros(3, dtype=np.float64)
    done = 0
    while done < rounds:
        n = min(lanes, rounds - done)
        main, bonus = play_round(shoes, n, table)
        for seat in range(table.seats):
            joint[seat] += np.bincount(main[seat] * 4 + bonus[seat], minlength=16).reshape(4, 4)
        main_sum = main_pay[main].sum(axis=0)
        bonus_sum = bonus_pay[bonus].sum(axis=0)
        round_sum = main_sum + ratio * bonus_sum
        squares += [float(np.dot(x, x)) for x in (main_sum, bonus_sum, round_sum)]
        done += n
    return _Tally(joint, squares)


def _chunks(rounds: int, chunk_rounds: int) -> list[int]:
    """Split ``rounds`` into chunks of ``chunk_rounds`` (the last one shorter)."""
    full, rest = divmod(rounds, chunk_rounds)
    return [chunk_rounds] * full + ([rest] if rest else [])


def _tallies(
    table: Table,
    sizes: Sequence[int],
    seeds: Sequence[np.random.SeedSequence],
    jobs: int,
    progress: Callable[[int], None] | None,
) -> Iterator[_Tally]:
    """Run every chunk, on up to ``jobs`` worker processes, in chunk order."""
    chunks = list(zip(sizes, seeds, strict=True))
    tallies = parallel_map(partial(_run_chunk_of, table), chunks, jobs, "processes")
    for size, tally in zip(sizes, tallies, strict=True):
        if progress is not None:
            progress(size)
        yield tally


def _run_chunk_of(table: Table, chunk: tuple[int, np.random.SeedSequence]) -> _Tally:
    return _run_chunk(table, *chunk)


def simulate(
    rules: Rules,
    strategy: Strategy,
    rounds: int,
    *,
    seed: int | None = None,
    seats: int = 1,
    penetration: float | None = 0.75,
    jobs: int = 1,
    removed: Iterable[Card] = (),
    exact: Mapping[Wager | str, ExactFigure] | None = None,
    chunk_rounds: int = CHUNK_ROUNDS,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Deal ``rounds`` rounds at a table of ``seats`` players all following ``strategy``.

    Args:
        rules: The rules to play by.
        strategy: The players' policy (every seat plays the same one).
        rounds: Rounds to deal.
        seed: Root of every random number; None picks one (reported in the result).
        seats: Players sharing the Bonus card and the dealer's hand.
        penetration: Share of the shoe dealt before a reshuffle, in (0, 1];
            None shuffles a fresh shoe for every round.
        jobs: Worker processes (joblib ``n_jobs``); results do not depend on it.
        removed: Cards out of the shoe before it is shuffled (each with its suit).
        exact: Exact figures to compare against, by wager; the caller computes them
            (the simulator never asks the exact solver).
        chunk_rounds: Rounds per seeded chunk; results depend on it, not on ``jobs``.
        progress: Called with the number of rounds each finished chunk played.

    Returns:
        The outcome counts, with statistics by seat and overall.
    """
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise SimulationError(f"rounds {rounds!r} must be a whole number of at least 1")
    if isinstance(seats, bool) or not isinstance(seats, int) or seats < 1:
        raise SimulationError(f"seats {seats!r} must be a whole number of at least 1")
    if penetration is not None and not 0 < penetration <= 1:
        raise SimulationError(
            f"penetration {penetration!r} is out of range: give a share of the shoe in (0, 1]"
        )
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise SimulationError(f"seed {seed!r} must be a whole number of 0 or more")
    check_jobs(jobs, SimulationError)
    if chunk_rounds < 1:
        raise SimulationError(f"chunk size {chunk_rounds} must be at least 1")
    removed = tuple(removed)
    shoe = Shoe.full(rules.decks).remove(removed)
    cards = shoe_codes(shoe)
    if len(cards) < seats + 2:
        raise ShoeError(f"a shoe of {len(cards)} cards cannot deal {seats} seat(s) a round")
    cut = None if penetration is None else max(1, round(penetration * len(cards)))
    table = Table.make(rules, strategy, cards, seats, cut)

    root = np.random.SeedSequence(seed)
    sizes = _chunks(rounds, chunk_rounds)
    seeds = root.spawn(len(sizes))
    joint = np.zeros((seats, 4, 4), dtype=np.int64)
    squares = np.zeros(3, dtype=np.float64)
    for tally in _tallies(table, sizes, seeds, jobs, progress):
        joint += tally.joint
        squares += tally.squares

    figures = {Wager(k): v for k, v in (exact or {}).items()}
    return SimulationResult(
        rules=rules,
        rounds=rounds,
        seats=seats,
        strategy=strategy.name,
        penetration=penetration,
        seed=int(root.entropy),  # type: ignore[arg-type]
        removed=removed,
        joint=tuple(tuple(tuple(int(c) for c in row) for row in seat) for seat in joint.tolist()),
        squares=(float(squares[0]), float(squares[1]), float(squares[2])),
        exact=figures,
    )
