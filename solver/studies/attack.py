"""Every attack a casino must consider (``cbj attack``, the report's game protection): the
dealt shoes' rows, the shoe paths' bound with no mid-shoe entry, and simulated counters.

Three sources, each for what it alone can measure:

* the dealt shoes (:mod:`solver.exact.attack`): each round at a random depth, solved
  exactly, for every attack a player can make round by round, and a shuffler's rows;
* **shoe paths** (:func:`shoe_paths`): whole shoes dealt round by round to the cut card (the
  simulator's round, its chart played at one seat, fixes how many cards each round takes),
  each round's shoe solved exactly.  A player with no mid-shoe entry plays a shoe from its
  shuffle to the round he leaves; the most he can win is the best such stretch of each
  shoe, chosen with hindsight (at least what any player who leaves on what he knows can
  win): that is the bound, per round dealt over every round of the shoes;
* **simulated counters** (the independent simulator): the practical counter with no
  mid-shoe entry (plays from the shuffle, leaves until the next once the true count falls
  below :data:`LEAVE_BELOW`), and under a continuous shuffler (counting the last round's
  cards, the only trace of the past a shuffler leaves).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial

import numpy as np

from solver.exact.attack import (
    PracticalCounter,
    attack,
    attack_multiple,
    check_multiple,
    pick_entry,
    reached,
)
from solver.exact.betting import optimal_bets
from solver.exact.dealt_shoes import check_penetration
from solver.exact.game import solve_game
from solver.exact.indices import index_plays
from solver.model.cards import RANKS, SUITS, Card, Shoe
from solver.model.counts import parse_ramp
from solver.model.parallel import parallel_map
from solver.model.rules import Rules
from solver.model.shuffles import DEFAULT_BUFFER, Shuffle
from solver.results.attack import (
    ATTACK,
    AttackKind,
    AttackResult,
    AttackRow,
    Estimate,
    Player,
)
from solver.results.dealt_shoes import DealtShoes
from solver.results.kinds import Key, Kind
from solver.results.run import Run
from solver.results.simulation import Counter, CounterStatistics
from solver.sim import Strategy
from solver.sim.deal import Shoes, Table, play_round, shoe_codes
from solver.sim.run import CHUNK_ROUNDS
from solver.studies.counting import counted_shoes, dealt_shoes
from solver.studies.seeded import SeededDeal
from solver.studies.simulation import played_strategy

#: The Kelly ramp's bankroll in units.
KELLY_BANKROLL = 1000.0
#: Shoe paths dealt for the no-mid-shoe bound when the caller does not say.
PATHS = 40
#: The true count below which the practical counter with no mid-shoe entry leaves the shoe.
LEAVE_BELOW = -1.0
#: The practical counters' simulated rounds when the caller does not say.
ROUNDS = 2_000_000


@dataclass(frozen=True, slots=True)
class ShoePaths:
    """``paths`` shoes dealt round by round to the cut card at ``penetration`` from ``seed``:
    for each round, the cards dealt before it and the main wager's EV (composition-dependent
    play) and the Bonus wager's per Bonus unit in the shoe left."""

    rules: Rules
    seed: int
    penetration: float
    paths: tuple[tuple[tuple[int, float, float], ...], ...]

    @property
    def rounds(self) -> int:
        """Rounds dealt over every path."""
        return sum(len(p) for p in self.paths)


#: Shoe paths, kept by their rules and settings (``cbj attack`` and the report deal them once).
SHOE_PATHS: Kind[ShoePaths] = Kind("shoe-paths", ShoePaths)


def _card(code: int) -> Card:
    return Card(RANKS[code // 4], SUITS[code % 4])


def deal_path(
    rules: Rules, strategy: Strategy, seed: int, penetration: float, number: int
) -> tuple[tuple[int, float, float], ...]:
    """Shoe ``number``'s rounds: the shoe shuffled from the seed, dealt round by round by
    the simulator's own round to the cut card, each round's shoe solved in floats."""
    codes = shoe_codes(Shoe.full(rules.decks))
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(2, number)))
    order = codes[rng.permutation(len(codes))]
    cut = max(1, round(penetration * len(codes)))
    table = Table.make(rules, strategy, order, 1, cut)
    shoes = Shoes(order, 1, None, cut)
    rounds = []
    while True:
        before = int(shoes.next[0])
        if before >= cut:
            break
        removed = [_card(int(c)) for c in shoes.rows[:before]]
        game = solve_game(rules, removed, exact=False)
        bonus = 0.0 if game.bonus is None else float(game.bonus.expected_value)
        rounds.append((before, float(game.expected_value), bonus))
        play_round(shoes, 1, table)
    return tuple(rounds)


def shoe_paths(
    rules: Rules,
    strategy: Strategy,
    paths: int,
    seed: int,
    penetration: float,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> ShoePaths:
    """``paths`` shoes dealt round by round and solved (one unit of work a shoe)."""
    deal = partial(deal_path, rules, strategy, seed, penetration)
    done = parallel_map(deal, list(range(paths)), jobs, "processes", progress)
    return ShoePaths(rules, seed, penetration, tuple(done))


def _ratio_estimate(wins: Sequence[float], counts: Sequence[int]) -> Estimate:
    """``sum(wins) / sum(counts)`` per 100 rounds, with the ratio estimator's standard
    error over the shoes."""
    w, n = np.array(wins, dtype=np.float64), np.array(counts, dtype=np.float64)
    if n.sum() == 0:
        return Estimate(math.nan, math.nan)
    ratio = float(w.sum() / n.sum())
    k = len(w)
    if k < 2:
        return Estimate(100 * ratio, 0.0)
    residual = w - ratio * n
    se = math.sqrt(float((residual**2).sum()) / (k * (k - 1))) / float(n.mean())
    return Estimate(100 * ratio, 100 * se)


def no_mid_shoe_rows(
    found: ShoePaths,
    spread: tuple[int, int],
    multiple: float,
    depths: Sequence[float],
    cap_depth: float,
) -> list[AttackRow]:
    """The perfect-information bound with no mid-shoe entry at each depth (and with the
    Bonus capped at the deepest): for each shoe, the best stretch from its shuffle."""
    ratio = float(found.rules.bonus_ratio)
    total = 52 * found.rules.decks
    rows = []
    for depth, cap in [(d, False) for d in depths] + [(cap_depth, True)]:
        size = ratio if cap else multiple
        wins, dealt, played = [], [], []
        for path in found.paths:
            cards = np.array([r[0] for r in path], dtype=np.float64)
            inside = cards < round(depth * total)
            main = np.array([r[1] for r in path])[inside]
            bonus = np.array([r[2] for r in path])[inside]
            best = main + np.where(bonus > 0, size, ratio) * bonus
            result = np.where(best > 0, spread[1], spread[0]) * best
            running = np.concatenate(([0.0], np.cumsum(result)))
            stop = int(np.argmax(running))
            wins.append(float(running[stop]))
            dealt.append(len(result))
            played.append(stop)
        per_played = _ratio_estimate(wins, played) if sum(played) else None
        rows.append(
            AttackRow(
                AttackKind.NO_MID_SHOE,
                Player.PERFECT,
                Shuffle.cut_card(depth),
                _ratio_estimate(wins, dealt),
                per_played,
                sum(played) / max(sum(dealt), 1),
                "shoe paths",
                len(found.paths),
                f"the best stretch of each shoe from its shuffle, chosen with hindsight; "
                f"{spread[1]} units on a favourable round, {spread[0]} otherwise",
                cap,
            )
        )
    return rows


def simulated_row(
    kind: AttackKind, shuffle: Shuffle, stats: CounterStatistics, how: str
) -> AttackRow:
    """A practical counter's row from the simulator."""
    played = stats.rounds_played
    return AttackRow(
        kind,
        Player.PRACTICAL,
        shuffle,
        Estimate(100 * stats.mean_dealt, 100 * stats.standard_error_dealt),
        Estimate(100 * stats.mean, 100 * stats.standard_error) if played else None,
        played / stats.rounds_dealt if stats.rounds_dealt else 0.0,
        "simulated",
        stats.rounds_dealt,
        how,
    )


def simulated_rows(
    rules: Rules,
    strategy: Strategy,
    counter: PracticalCounter,
    enter: float,
    rounds: int,
    seed: int,
    penetration: float,
    buffer: int,
    jobs: int = 1,
) -> list[AttackRow]:
    """The practical counter simulated: with no mid-shoe entry at the cut card, and under a
    shuffler playing every round and back-counting from ``enter``."""
    ramp = parse_ramp(counter.bets.ramp_text) if counter.bets.ramp else None
    indices = () if counter.indices is None else counter.indices.rules_played()
    base = Counter(counter.name, counter.tags, counter.bets.spread, ramp, None, indices)
    cut, csm = Shuffle.cut_card(penetration), Shuffle.csm(buffer)
    runs = (
        (AttackKind.NO_MID_SHOE, cut, replace(base, wong_out=LEAVE_BELOW, mid_shoe_entry=False),
         f"{counter.name}: its ramp from the shuffle, gone below true count {LEAVE_BELOW:+g}"),
        (AttackKind.PLAY_ALL, csm, base, f"{counter.name}: its ramp, counting the last round"),
        (AttackKind.BACK_COUNT, csm, replace(base, wong_out=enter),
         f"{counter.name}: its ramp from true count {enter:+g}, counting the last round"),
    )  # fmt: skip
    rows = []
    for kind, shuffle, seated, how in runs:
        deal = SeededDeal(
            strategy,
            rounds,
            seed,
            None if shuffle.is_csm else shuffle.penetration,
            shuffle.buffer,
        )
        stats = deal.deal(rules, jobs, counter=seated).counter
        assert stats is not None  # a counter was seated
        rows.append(simulated_row(kind, shuffle, stats, how))
    return rows


def attack_study(
    rules: Rules,
    shoes: DealtShoes,
    strategy: Strategy,
    counter: PracticalCounter,
    *,
    spread: tuple[int, int],
    multiple: Fraction,
    penetrations: tuple[float, ...],
    paths: ShoePaths | None,
    rounds: int = ROUNDS,
    seed: int = 0,
    buffer: int = DEFAULT_BUFFER,
    jobs: int = 1,
    more: Sequence[AttackRow] = (),
) -> AttackResult:
    """Every attack's rows: the dealt shoes', the shoe paths', the simulated counters' and
    ``more`` (the caller's own simulated counters, say)."""
    size = check_multiple(shoes, multiple)
    deepest = reached(shoes)
    depths = sorted({p for p in penetrations if p <= deepest} | {deepest})
    first = attack(shoes, spread, multiple, penetrations, None, buffer)
    enter = pick_entry(shoes, counter)
    extra: list[AttackRow] = []
    if paths is not None and paths.paths:
        extra += no_mid_shoe_rows(paths, spread, size, depths, depths[-1])
    csm_back = next(
        r for r in first.attack(AttackKind.BACK_COUNT).rows if r.shuffle.is_csm and r.bound
    )
    extra.append(replace(csm_back, attack=AttackKind.NO_MID_SHOE))
    extra += simulated_rows(rules, strategy, counter, enter, rounds, seed, depths[-1], buffer, jobs)
    extra += more
    return attack(shoes, spread, multiple, penetrations, counter, buffer, extra)


def attack_command(
    *,
    rules: Rules,
    spread: tuple[int, int],
    bonus_multiple: Fraction | None,
    count: str,
    paths: int,
    rounds: int,
    buffer: int,
    samples: int,
    seed: int,
    penetration: float,
    run: Run,
) -> AttackResult:
    """Every attack a casino must consider, each with its bound and the best practical
    counter's figure, per round dealt and per round played, by penetration and under a
    continuous shuffler (a tray of ``buffer`` cards), and the verdict they give.

    ``count`` is the practical counter's count (its Kelly ramp within ``spread`` and its
    index plays); ``paths`` shoes dealt round by round give the bound with no mid-shoe
    entry; ``rounds`` simulated rounds measure the practical counter with no mid-shoe entry
    and under the shuffler.  ``bonus_multiple`` is the most the Bonus wager is raised to,
    in main wagers: by default 2, or twice the rules' Bonus ratio if that is more (at most
    100).  A store keeps the result whole: the same arguments again read it back (the
    simulated counters, most of the cost, are kept nowhere else).
    """
    multiple = attack_multiple(bonus_multiple, rules.bonus_ratio)  # refused before work
    check_penetration(penetration, rules.decks)

    def compute() -> AttackResult:
        name, tags, shoes = counted_shoes(
            rules, count, run.cache, lambda: dealt_shoes(rules, samples, seed, penetration, run)
        )
        plays = index_plays(shoes, name, tags)
        bets = optimal_bets(shoes, name, tags, spread, KELLY_BANKROLL, indices=plays)
        game = solve_game(rules, exact=True, cache=run.cache)
        strategy = played_strategy("chart", rules, lambda: game, run.cache)
        found = _paths(rules, strategy, paths, seed, shoes, run) if paths else None
        return attack_study(
            rules,
            shoes,
            strategy,
            PracticalCounter(name, tags, bets, plays),
            spread=spread,
            multiple=multiple,
            penetrations=(*(p for p in (0.5, 0.67, 0.75) if p < penetration), penetration),
            paths=found,
            rounds=rounds,
            seed=seed,
            buffer=buffer,
            jobs=run.jobs,
        )

    if run.cache is None:
        return compute()
    settings = {  # everything the rows depend on but the rules, never the workers
        "spread": list(spread),
        "bonus_multiple": str(multiple),
        "count": count,
        "paths": paths,
        "rounds": rounds,
        "buffer": buffer,
        "samples": samples,
        "seed": seed,
        "penetration": penetration,
        "strategy": "chart",
        "chunk_rounds": CHUNK_ROUNDS,
    }
    return run.cache.fetch(ATTACK, Key(rules, settings=settings), compute)


def _paths(
    rules: Rules, strategy: Strategy, paths: int, seed: int, shoes: DealtShoes, run: Run
) -> ShoePaths:
    """The shoe paths, from the run's store when it holds them, dealt to the study's reach."""
    depth = reached(shoes)

    def compute() -> ShoePaths:
        return shoe_paths(rules, strategy, paths, seed, depth, run.jobs)

    settings = {"paths": paths, "seed": seed, "penetration": depth, "strategy": strategy.name}
    if run.cache is None:
        return compute()
    return run.cache.fetch(SHOE_PATHS, Key(rules, settings=settings), compute)
