"""What the best player can win: ``cbj indices``, ``cbj bet`` and ``cbj attack``.

All three read one study, shoes dealt at random depths and solved
(:func:`solver.exact.dealt_shoes.deal_shoes`), kept in the store under the rules, sample
size, seed and penetration, so that the three commands and a second run deal it once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Unpack

from solver.api.progress import step_progress
from solver.api.protection import cached_effects
from solver.api.rules import RuleOptions, make_rules
from solver.exact.attack import PracticalCounter, attack_multiple, reached
from solver.exact.betting import optimal_bets
from solver.exact.chart import stored_chart
from solver.exact.count_search import best_playing_count
from solver.exact.dealt_shoes import DEFAULT_DECISIONS, check_penetration, deal_shoes
from solver.exact.game import ProgressCallback, solve_game
from solver.exact.indices import index_plays
from solver.exact.protection import best_count
from solver.exact.shoe_states import check_samples, check_seed
from solver.model.checks import check_rounds, checked, shown, whole_in
from solver.model.counts import Tags, count_tags
from solver.model.errors import BackendError, CountError
from solver.model.parallel import check_jobs, scheduler_address
from solver.model.rules import Rules
from solver.model.shuffles import DEFAULT_BUFFER, Shuffle
from solver.results.attack import AttackResult
from solver.results.betting import BetResult
from solver.results.dealt_shoes import DEALT_SHOES, DealtShoes
from solver.results.indices import IndicesResult
from solver.results.kinds import Key, Store
from solver.sim import Strategy
from solver.sim.counter import parse_spread
from solver.studies.attack import PATHS, ROUNDS, SHOE_PATHS, ShoePaths, attack_study, shoe_paths
from solver.studies.protection import KELLY_BANKROLL
from solver.studies.simulation import played_strategy

#: Shoes dealt and solved when no size is given (about 70 ms each for 6 decks).
SAMPLES = 2000
#: The seed when none is given (the figures are reproducible by default).
SEED = 39
#: The share of the shoe dealt before the cut card.
PENETRATION = 0.83
#: The most shoe paths ``cbj attack`` deals (each a few seconds of solves).
MAX_PATHS = 10_000


def dealt_shoes(
    rules: Rules,
    samples: int,
    seed: int,
    penetration: float,
    jobs: int,
    backend: str,
    scheduler: str | None,
    cache: Store | None,
    progress: ProgressCallback | None,
) -> DealtShoes:
    """The dealt-shoe study, from ``cache`` when it holds it."""
    check_samples(samples)
    check_seed(seed)
    check_penetration(penetration, rules.decks)
    check_jobs(jobs)
    if backend not in ("local", "dask"):
        raise BackendError(f"backend {shown(backend)} is unknown: use local or dask")
    if backend == "dask":
        scheduler = scheduler_address(scheduler)

    def compute() -> DealtShoes:
        chart = stored_chart(rules, solve_game(rules, exact=True, cache=cache), cache)
        return deal_shoes(
            rules,
            chart,
            samples,
            seed,
            penetration,
            DEFAULT_DECISIONS,
            jobs,
            "dask" if backend == "dask" else "processes",
            scheduler,
            progress,
        )

    settings = {
        "samples": samples,
        "seed": seed,
        "penetration": penetration,
        "decisions": DEFAULT_DECISIONS,
    }
    return (
        compute()
        if cache is None
        else cache.fetch(DEALT_SHOES, Key(rules, settings=settings), compute)
    )


def chosen_count(rules: Rules, count: str, cache: Store | None) -> tuple[str, Tags]:
    """A count by name (published, ``best-level-1`` to ``5``) or as tags."""
    if best := re.fullmatch(r"\s*best-level-([1-5])\s*", count.lower()):
        effects = cached_effects(rules, (), False, 1, cache)
        return f"best-level-{best.group(1)}", best_count(
            effects.effects["round"], int(best.group(1))
        )
    try:
        return count_tags(count)
    except CountError as error:
        raise CountError(
            f"{error}, best-level-1 to 5, best-playing-1 or 2, or tags 'A=-1,2=1,...'"
        ) from None


#: A count found by the playing search on the dealt shoes themselves.
PLAYING = re.compile(r"\s*best-playing-([12])\s*")


def counted_shoes(
    rules: Rules, count: str, cache: Store | None, shoes: Callable[[], DealtShoes]
) -> tuple[str, Tags, DealtShoes]:
    """The count (as :func:`chosen_count`, or ``best-playing-1`` or ``2``: the count whose
    true count best follows the decisions' gains on the even-numbered dealt shoes) and the
    dealt shoes; a bad count is refused before the shoes are dealt."""
    playing = PLAYING.fullmatch(count.lower())
    chosen = None if playing else chosen_count(rules, count, cache)
    dealt = shoes()
    if chosen is not None:
        return (*chosen, dealt)
    found = best_playing_count(dealt, int(playing.group(1)) if playing else 0)
    return f"best-playing-{found.level}", found.tags, dealt


@checked
def indices(
    *,
    count: str = "best-level-2",
    samples: int = SAMPLES,
    seed: int = SEED,
    penetration: float = PENETRATION,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> IndicesResult:
    """The true count at which each chart decision worth most flips, ranked by value."""
    played = make_rules(rules, options)
    bar = step_progress(progress, "dealt shoes")

    def shoes() -> DealtShoes:
        return dealt_shoes(played, samples, seed, penetration, jobs, backend, scheduler, cache, bar)

    name, tags, dealt = counted_shoes(played, count, cache, shoes)
    return index_plays(dealt, name, tags)


@checked
def bet(
    *,
    count: str = "best-level-2",
    spread: str = "1-8",
    bankroll: float = 1000.0,
    kelly_fraction: float = 1.0,
    rounds_per_hour: int = 100,
    target_ruin: float = 0.05,
    indices: bool = False,
    samples: int = SAMPLES,
    seed: int = SEED,
    penetration: float = PENETRATION,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> BetResult:
    """The growth-optimal (Kelly) ramp within a spread, with SCORE, DI, N0 and win rates,
    for a counter who plays the chart (and with ``indices`` the count's index plays)."""
    played = make_rules(rules, options)
    bar = step_progress(progress, "dealt shoes")
    units = parse_spread(spread)
    if not 1 <= rounds_per_hour <= 10_000:
        raise CountError(f"rounds per hour {shown(rounds_per_hour)} must be from 1 to 10,000")
    name, tags, shoes = counted_shoes(
        played,
        count,
        cache,
        lambda: dealt_shoes(
            played, samples, seed, penetration, jobs, backend, scheduler, cache, bar
        ),
    )
    plays = index_plays(shoes, name, tags) if indices else None
    return optimal_bets(
        shoes, name, tags, units, bankroll, kelly_fraction, rounds_per_hour, target_ruin, plays
    )


@checked
def attack(
    *,
    spread: str = "1-8",
    bonus_multiple: str | None = None,
    count: str = "best-level-2",
    paths: int = PATHS,
    rounds: int = ROUNDS,
    buffer: int = DEFAULT_BUFFER,
    samples: int = SAMPLES,
    seed: int = SEED,
    penetration: float = PENETRATION,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> AttackResult:
    """Every attack a casino must consider, each with its bound and the best practical
    counter's figure, per round dealt and per round played, by penetration and under a
    continuous shuffler (a tray of ``buffer`` cards), and the verdict they give.

    ``count`` is the practical counter's count (its Kelly ramp within ``spread`` and its
    index plays); ``paths`` shoes dealt round by round give the bound with no mid-shoe
    entry; ``rounds`` simulated rounds measure the practical counter with no mid-shoe entry
    and under the shuffler.  ``bonus_multiple`` is the most the Bonus wager is raised to,
    in main wagers: by default 2, or twice the rules' Bonus ratio if that is more (at most
    100).
    """
    played = make_rules(rules, options)
    bar = step_progress(progress, "dealt shoes")
    units = parse_spread(spread)
    multiple = attack_multiple(bonus_multiple, played.bonus_ratio)
    if not whole_in(paths, 0, MAX_PATHS):
        raise CountError(f"paths {shown(paths)} is invalid: give 0 to {MAX_PATHS:,} shoes")
    check_rounds(rounds, "rounds", CountError)
    Shuffle.csm(buffer)  # a tray out of range is refused before any work
    study = (played, samples, seed, penetration, jobs, backend, scheduler, cache, bar)
    name, tags, shoes = counted_shoes(played, count, cache, partial(dealt_shoes, *study))
    plays = index_plays(shoes, name, tags)
    bets = optimal_bets(shoes, name, tags, units, KELLY_BANKROLL, indices=plays)
    game = solve_game(played, exact=True, cache=cache)
    strategy = played_strategy("chart", played, lambda: game, cache)
    found = _paths(played, strategy, paths, seed, shoes, jobs, cache) if paths else None
    return attack_study(
        played,
        shoes,
        strategy,
        PracticalCounter(name, tags, bets, plays),
        spread=units,
        multiple=multiple,
        penetrations=(*(p for p in (0.5, 0.67, 0.75) if p < penetration), penetration),
        paths=found,
        rounds=rounds,
        seed=seed,
        buffer=buffer,
        jobs=jobs,
    )


def _paths(
    played: Rules,
    strategy: Strategy,
    paths: int,
    seed: int,
    shoes: DealtShoes,
    jobs: int,
    cache: Store | None,
) -> ShoePaths:
    """The shoe paths, from ``cache`` when it holds them, dealt to the study's reach."""
    depth = reached(shoes)

    def compute() -> ShoePaths:
        return shoe_paths(played, strategy, paths, seed, depth, jobs)

    settings = {"paths": paths, "seed": seed, "penetration": depth, "strategy": strategy.name}
    if cache is None:
        return compute()
    return cache.fetch(SHOE_PATHS, Key(played, settings=settings), compute)
