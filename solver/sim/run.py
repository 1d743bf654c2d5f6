"""Running a simulation: seeded chunks of rounds, in parallel, summed into a result."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import overload

import numpy as np
import numpy.typing as npt

from solver.model.cards import Card, Shoe
from solver.model.checks import check_rounds, check_seed, shown, whole_in
from solver.model.errors import ShoeError, SimulationError
from solver.model.parallel import check_jobs, parallel_map
from solver.model.rules import Rules
from solver.model.shuffles import Shuffle
from solver.results.simulation import (
    TRUE_COUNT_BUCKETS,
    Counter,
    CounterStatistics,
    ExactFigure,
    SimulationResult,
    Wager,
    payoffs,
)
from solver.sim import kernel as sim_kernel
from solver.sim.counter import (
    bet_units,
    index_plays,
    tag_of_code,
    true_count_bucket,
    true_counts,
)
from solver.sim.deal import Shoes, Table, shoe_codes
from solver.sim.hands import Codes
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


Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class _Tally:
    """What one chunk found: joint outcome counts per seat, and squares of seat sums."""

    joint: npt.NDArray[np.int64]
    """``joint[seat, main outcome, bonus outcome]`` counts of seat-rounds."""
    squares: npt.NDArray[np.float64]
    """Sums over rounds of (sum over seats of net)^2 for main, Bonus and round."""
    counter: _CounterTally | None = None


@dataclass(frozen=True, slots=True)
class _CounterTally:
    """What the counter at seat 1 bet and won, and seat 1's round by true count."""

    by_bet: npt.NDArray[np.int64]
    """``by_bet[units]``: rounds bet at ``units`` (0: sat out)."""
    net: npt.NDArray[np.float64]
    """Sum and sum of squares of the counter's net results, in units (main plus Bonus)."""
    by_true_count: npt.NDArray[np.int64]
    """Rounds dealt in each true-count bucket (:func:`true_count_bucket`)."""
    unit_net: npt.NDArray[np.float64]
    """``unit_net[0 or 1, bucket]``: sum and sum of squares of seat 1's round at one unit."""

    @classmethod
    def zeros(cls, counter: Counter) -> _CounterTally:
        """Nothing yet."""
        buckets = len(TRUE_COUNT_BUCKETS)
        return cls(
            np.zeros(counter.spread[1] + 1, dtype=np.int64),
            np.zeros(2, dtype=np.float64),
            np.zeros(buckets, dtype=np.int64),
            np.zeros((2, buckets), dtype=np.float64),
        )

    def record(self, units: Codes, true_count: Floats, unit_net: Floats) -> None:
        """Add rounds bet at ``units``, whose seat 1 round at one unit came to ``unit_net``."""
        self.record_bets(units, unit_net)
        self.record_counts(true_count, unit_net)

    def record_bets(self, units: Codes, unit_net: Floats) -> None:
        """Add rounds bet at ``units`` (0: sat out), seat 1's round at one unit ``unit_net``."""
        net = units * unit_net
        self.by_bet[...] += np.bincount(units, minlength=len(self.by_bet))
        self.net[...] += (float(net.sum()), float(np.dot(net, net)))

    def record_counts(self, true_count: Floats, unit_net: Floats) -> None:
        """Add every round dealt to its true count's bucket."""
        bucket = true_count_bucket(true_count)
        size = len(self.by_true_count)
        self.by_true_count[...] += np.bincount(bucket, minlength=size)
        self.unit_net[0] += np.bincount(bucket, unit_net, minlength=size)
        self.unit_net[1] += np.bincount(bucket, unit_net * unit_net, minlength=size)

    def add(self, other: _CounterTally) -> None:
        """Add another chunk's tally to this one."""
        self.by_bet[...] += other.by_bet
        self.net[...] += other.net
        self.by_true_count[...] += other.by_true_count
        self.unit_net[...] += other.unit_net


class _ShoeByShoe:
    """A counter who may sit down only at a shuffle (no mid-shoe entry): each lane's bets
    are held until its shoe ends, then kept; a lane's first shoe (joined part-way) and its
    last (cut off by the chunk's end) are dropped, so only whole shoes count."""

    def __init__(self, lanes: int, counter: Counter) -> None:
        self.joined = np.zeros(lanes, dtype=np.bool_)
        self.out = np.zeros(lanes, dtype=np.bool_)
        self.by_bet = np.zeros((lanes, counter.spread[1] + 1), dtype=np.int64)
        self.net = np.zeros((lanes, 2), dtype=np.float64)

    def bets(self, units: Codes, start: Codes, unit_net: Floats, tally: _CounterTally) -> None:
        """Take one round on lanes ``0..n-1``: ``units`` as the ramp bets (0: below the
        wong-out point), ``start`` the cards dealt since each lane's shuffle."""
        n = len(units)
        lanes = np.arange(n)
        new = start == 0
        done = lanes[new & self.joined[:n]]
        tally.by_bet[...] += self.by_bet[done].sum(axis=0)
        tally.net[...] += self.net[done].sum(axis=0)
        self.by_bet[done] = 0
        self.net[done] = 0.0
        self.joined[:n] |= new
        self.out[:n][new] = False
        self.out[:n] |= units == 0  # leaves the first time the count turns against it
        bet = np.where(self.out[:n], 0, units)
        seated = lanes[self.joined[:n]]
        np.add.at(self.by_bet, (seated, bet[seated]), 1)
        net = bet[seated] * unit_net[seated]
        self.net[seated, 0] += net
        self.net[seated, 1] += net * net


def _lanes(table: Table, rounds: int) -> int:
    """Lanes dealt side by side: many for a fresh shoe every round, fewer where each lane
    plays consecutive rounds (a cut-card shoe, a shuffler)."""
    if table.cut is None and table.buffer is None:
        return min(rounds, FRESH_LANES)
    return max(1, min(PENETRATION_LANES, rounds // SESSION_ROUNDS))


def _run_chunk(
    table: Table, rounds: int, seed: np.random.SeedSequence, counter: Counter | None = None
) -> _Tally:
    """Play ``rounds`` rounds with a random generator of its own.

    With a fresh shoe, up to ``FRESH_LANES`` rounds are dealt at once.  With a cut card (or
    a continuous shuffler), up to ``PENETRATION_LANES`` lanes each play about
    ``SESSION_ROUNDS`` consecutive rounds from their own shoe, which starts freshly
    shuffled.  A ``counter`` at seat 1 bets each round by the count of the cards its lane
    dealt before it (under a shuffler, the last round's cards); with a counter and a cut
    card each lane starts at a random depth of its first shoe.
    """
    lanes = _lanes(table, rounds)
    tags = None if counter is None else tag_of_code(counter)
    rng = np.random.default_rng(seed)
    shoes = Shoes(table.cards, lanes, rng, table.cut, tags, table.buffer)
    if counter is not None and table.cut is not None:
        # Each lane joins its first shoe at a random depth, so that every depth of the
        # shoe (and its count) is as common as in an endless game; the counter has seen
        # the cards dealt before.
        shoes.deal_ahead(rng.integers(0, table.cut, lanes))
    main_pay, bonus_pay = (np.array([float(p) for p in pays]) for pays in payoffs(table.rules))
    ratio = float(table.rules.bonus_ratio)
    kinds = len(table.rules.paytable.outcomes)
    joint = np.zeros((table.seats, 4, kinds), dtype=np.int64)
    squares = np.zeros(3, dtype=np.float64)
    tally = None if counter is None else _CounterTally.zeros(counter)
    pays = (main_pay, bonus_pay, ratio)
    first = None if counter is None else index_plays(counter)
    counting = tally is not None
    whole = None if counter is None or counter.mid_shoe_entry else _ShoeByShoe(lanes, counter)
    dealt = sim_kernel.play_rounds(table, shoes, rng, lanes, rounds, pays, joint, counting, first)
    for sums, seen in dealt:
        squares += [float(np.dot(x, x)) for x in sums]
        if tally is not None and counter is not None and seen is not None:
            running, start, main_0, bonus_0 = seen  # size_up's reading
            true_count = true_counts(counter, running, start, shoes.size - start)
            unit_net = main_pay[main_0] + ratio * bonus_pay[bonus_0]
            units = bet_units(counter, true_count)
            if whole is None:
                tally.record_bets(units, unit_net)
            else:
                whole.bets(units, start, unit_net, tally)
            tally.record_counts(true_count, unit_net)
    return _Tally(joint, squares, tally)


@dataclass(frozen=True, slots=True)
class ChunkPlan(Sequence[tuple[int, np.random.SeedSequence]]):
    """Every chunk's size and seed, each made only when asked for.

    Chunk ``i`` plays ``chunk_rounds`` rounds (the last one the rest) from the seed
    ``root.spawn`` would give as its child ``i``: ``SeedSequence.spawn`` builds child ``i``
    from the root's entropy, its spawn key extended by ``i`` and its pool size.  Nothing
    is stored per chunk, so memory is the same for any number of rounds.
    """

    rounds: int
    chunk_rounds: int
    root: np.random.SeedSequence

    def __len__(self) -> int:
        return -(-self.rounds // self.chunk_rounds)

    def size(self, i: int) -> int:
        """Rounds chunk ``i`` plays."""
        return min(self.chunk_rounds, self.rounds - i * self.chunk_rounds)

    def seed(self, i: int) -> np.random.SeedSequence:
        """Chunk ``i``'s seed, equal to ``root.spawn(i + 1)[i]``."""
        root = self.root
        return np.random.SeedSequence(
            root.entropy, spawn_key=(*root.spawn_key, i), pool_size=root.pool_size
        )

    @overload
    def __getitem__(self, i: int) -> tuple[int, np.random.SeedSequence]: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[tuple[int, np.random.SeedSequence]]: ...

    def __getitem__(
        self, i: int | slice
    ) -> tuple[int, np.random.SeedSequence] | Sequence[tuple[int, np.random.SeedSequence]]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self.size(i), self.seed(i)


def _run_planned(
    table: Table, counter: Counter | None, chunk: tuple[int, np.random.SeedSequence]
) -> _Tally:
    return _run_chunk(table, *chunk, counter=counter)


def _tallies(
    table: Table,
    counter: Counter | None,
    plan: ChunkPlan,
    jobs: int,
    progress: Callable[[int], None] | None,
) -> Iterator[_Tally]:
    """Run every chunk through the one parallel map, in chunk order.

    Chunks are made as the map asks for them and joblib dispatches only a few ahead of
    its workers, so memory does not depend on the number of chunks.
    """

    def report(done: int, _: int) -> None:
        if progress is not None:
            progress(plan.size(done - 1))

    yield from parallel_map(partial(_run_planned, table, counter), plan, jobs, "processes", report)


def check_deal(
    rules: Rules,
    rounds: int,
    *,
    seed: int | None = None,
    seats: int = 1,
    penetration: float | None = 0.75,
    jobs: int = 1,
    removed: Iterable[Card] = (),
) -> npt.NDArray[np.uint8]:
    """Check the settings of :func:`simulate` (the same arguments); the shoe's card codes.

    A caller that computes exact figures first checks here, so that bad input fails at once.
    """
    check_rounds(rounds)
    if not whole_in(seats, 1):
        raise SimulationError(f"seats {shown(seats)} must be a whole number of at least 1")
    if penetration is not None and not 0 < penetration <= 1:
        raise SimulationError(
            f"penetration {shown(penetration)} is out of range: give a share of the shoe in (0, 1]"
        )
    check_seed(seed)
    check_jobs(jobs, SimulationError)
    cards = shoe_codes(Shoe.full(rules.decks).remove(tuple(removed)))
    if len(cards) < seats + 2:
        raise ShoeError(f"a shoe of {len(cards)} cards cannot deal {shown(seats)} seat(s) a round")
    return cards


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
    counter: Counter | None = None,
    shuffle: Shuffle | None = None,
) -> SimulationResult:
    """Deal ``rounds`` rounds at a table of ``seats`` players all following ``strategy``.

    Args:
        rules: The rules to play by.
        strategy: The players' policy (every seat plays the same one).
        rounds: Rounds to deal, from 1 to :data:`MAX_ROUNDS`.
        seed: Root of every random number; None picks one (reported in the result).
        seats: Players sharing the Bonus card and the dealer's hand.
        penetration: Share of the shoe dealt before a reshuffle, in (0, 1];
            None shuffles a fresh shoe for every round.
        jobs: Worker processes (joblib ``n_jobs``), capped at the number of chunks and
            of cores; results do not depend on it.
        removed: Cards out of the shoe before it is shuffled (each with its suit).
        exact: Exact figures to compare against, by wager; the caller computes them
            (the simulator never asks the exact solver).
        chunk_rounds: Rounds per seeded chunk; results depend on it, not on ``jobs``.
        progress: Called with the number of rounds each finished chunk played.
        counter: A card counter at seat 1, betting by the count (needs a penetration
            or a shuffler); its results are reported apart (:class:`CounterStatistics`).
        shuffle: How the cards are shuffled (:class:`~solver.model.shuffles.Shuffle`): a
            cut card (then it sets the penetration) or a continuous shuffler.

    Returns:
        The outcome counts, with statistics by seat and overall.
    """
    removed = tuple(removed)
    buffer = None
    if shuffle is not None:
        penetration, buffer = (
            (None, shuffle.buffer) if shuffle.is_csm else (shuffle.penetration, None)
        )
    cards = check_deal(
        rules, rounds, seed=seed, seats=seats, penetration=penetration, jobs=jobs, removed=removed
    )
    if counter is not None and penetration is None and buffer is None:
        raise SimulationError(
            "a counter needs a shoe dealt down to a cut card or a shuffler: give a "
            "penetration, not a fresh shoe every round"
        )
    if counter is not None and not counter.mid_shoe_entry and buffer is not None:
        raise SimulationError(
            "no mid-shoe entry needs a shoe dealt to a cut card: a shuffler has no shuffle "
            "to wait for"
        )
    if buffer is not None and buffer > len(cards) // 2:
        raise SimulationError(
            f"a shuffler's tray of {buffer} cards is more than half the shoe's {len(cards)}"
        )
    if chunk_rounds < 1:
        raise SimulationError(f"chunk size {chunk_rounds} must be at least 1")
    cut = None if penetration is None else max(1, round(penetration * len(cards)))
    table = Table.make(rules, strategy, cards, seats, cut, buffer)

    root = np.random.SeedSequence(seed)
    joint = np.zeros((seats, 4, len(rules.paytable.outcomes)), dtype=np.int64)
    squares = np.zeros(3, dtype=np.float64)
    counted = None if counter is None else _CounterTally.zeros(counter)
    plan = ChunkPlan(rounds, chunk_rounds, root)
    for tally in _tallies(table, counter, plan, jobs, progress):
        joint += tally.joint
        squares += tally.squares
        if counted is not None and tally.counter is not None:
            counted.add(tally.counter)

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
        buffer=buffer,
        counter=None
        if counter is None or counted is None
        else CounterStatistics(
            counter,
            rules.bonus_ratio,
            tuple(int(n) for n in counted.by_bet),
            float(counted.net[0]),
            float(counted.net[1]),
            tuple(int(n) for n in counted.by_true_count),
            (tuple(counted.unit_net[0].tolist()), tuple(counted.unit_net[1].tolist())),
        ),
    )
