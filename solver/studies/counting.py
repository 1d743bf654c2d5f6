"""What a counter can do against the game, as computations: ``eor``, ``count`` and
``shoe-states`` (how the shoe moves the edge), and ``indices``, ``bet`` and ``attack``
(what the best player wins).

The last three read one study, shoes dealt at random depths and solved
(:func:`solver.exact.dealt_shoes.deal_shoes`), kept in the store under the rules, sample
size, seed and penetration, so that the three commands and a second run deal it once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from solver.exact.betting import optimal_bets
from solver.exact.chart import stored_chart
from solver.exact.count_search import best_playing_count
from solver.exact.dealt_shoes import DEFAULT_DECISIONS, check_penetration, deal_shoes
from solver.exact.game import solve_game
from solver.exact.indices import index_plays
from solver.exact.protection import best_count, effects_of_removal, judge_counts, round_effects
from solver.exact.shoe_states import (
    cards_dealt,
    default_depths,
    new_seed,
    parse_depths,
    study_shoe_states,
)
from solver.model.cards import Card
from solver.model.counts import Tags, count_tags, system_tags
from solver.model.errors import CountError
from solver.model.parallel import scheduler_address
from solver.model.rules import Rules
from solver.results.betting import BetResult
from solver.results.dealt_shoes import DEALT_SHOES, DealtShoes
from solver.results.indices import IndicesResult
from solver.results.kinds import Key, Store
from solver.results.protection import EFFECTS, Counts, EffectsOfRemoval, ShoeStates
from solver.results.run import Run


def cached_effects(
    rules: Rules, removed: tuple[Card, ...], exact: bool, jobs: int, cache: Store | None
) -> EffectsOfRemoval[Any]:
    """:func:`~solver.exact.protection.effects_of_removal`, kept in ``cache`` if given
    (``count`` after ``eor`` finds them once)."""

    def compute() -> EffectsOfRemoval[Any]:
        return effects_of_removal(rules, removed, exact=exact, jobs=jobs, cache=cache)

    if cache is None:
        return compute()
    return cache.fetch(EFFECTS, Key(rules, removed, exact), compute)


def eor(*, rules: Rules, removed: tuple[Card, ...], exact: bool, run: Run) -> EffectsOfRemoval[Any]:
    """The exact change in each wager's EV when one card of each rank leaves the shoe."""
    return cached_effects(rules, removed, exact, run.jobs, run.cache)


def chosen_count(tags: Tags | None, system: str | None) -> dict[str, Tags] | None:
    """The count named by ``system`` or given as ``tags``, if either."""
    if tags is not None and system is not None:
        raise CountError("give tags (--tags) or a system (--system), not both")
    if system is not None:
        return {system.strip().lower(): system_tags(system)}
    return None if tags is None else {"tags": tags}


def count(
    *,
    rules: Rules,
    tags: Tags | None,
    system: str | None,
    removed: tuple[Card, ...],
    exact: bool,
    run: Run,
) -> Counts:
    """Betting correlation and EV per true count of a count (or of the usual ones and the best)."""
    chosen = chosen_count(tags, system)
    return judge_counts(cached_effects(rules, removed, exact, run.jobs, run.cache), chosen)


def _backend(run: Run) -> tuple[str, str | None]:
    """The executor a run names (``processes`` or ``dask``) and its scheduler's address."""
    if run.backend == "dask":
        return "dask", scheduler_address(run.scheduler)
    return "processes", run.scheduler


def shoe_states(
    *,
    rules: Rules,
    samples: int,
    depths: str | tuple[float | str, ...] | None,
    seed: int | None,
    system: str | None,
    tags: Tags | None,
    run: Run,
) -> ShoeStates:
    """Deal ``samples`` random shoes to each depth, solve each, and summarise what they do."""
    chosen = chosen_count(tags, system) or {"hi-lo": system_tags("hi-lo")}
    ((name, tagged),) = chosen.items()
    parsed = default_depths(rules) if depths is None else parse_depths(depths)
    for depth in parsed:  # refused before the solves, not after
        cards_dealt(rules, depth)
    backend, scheduler = _backend(run)
    effects = round_effects(rules, jobs=1 if backend == "dask" else run.jobs, cache=run.cache)
    return study_shoe_states(
        effects,
        parsed,
        samples,
        new_seed() if seed is None else seed,
        name,
        tagged,
        jobs=run.jobs,
        backend="dask" if backend == "dask" else "processes",
        scheduler=scheduler,
        progress=run.progress,
    )


def dealt_shoes(rules: Rules, samples: int, seed: int, penetration: float, run: Run) -> DealtShoes:
    """The dealt-shoe study, from the run's store when it holds it."""
    check_penetration(penetration, rules.decks)
    backend, scheduler = _backend(run)
    cache = run.cache

    def compute() -> DealtShoes:
        chart = stored_chart(rules, solve_game(rules, exact=True, cache=cache), cache)
        return deal_shoes(
            rules,
            chart,
            samples,
            seed,
            penetration,
            DEFAULT_DECISIONS,
            run.jobs,
            "dask" if backend == "dask" else "processes",
            scheduler,
            run.progress,
        )

    settings = {
        "samples": samples,
        "seed": seed,
        "penetration": penetration,
        "decisions": DEFAULT_DECISIONS,
    }
    key = Key(rules, settings=settings)
    return compute() if cache is None else cache.fetch(DEALT_SHOES, key, compute)


def chosen_tags(rules: Rules, count: str, cache: Store | None) -> tuple[str, Tags]:
    """A count by name (published, ``best-level-1`` to ``5``) or as tags."""
    if best := re.fullmatch(r"\s*best-level-([1-5])\s*", count.lower()):
        effects = cached_effects(rules, (), False, 1, cache)
        level = int(best.group(1))
        return f"best-level-{level}", best_count(effects.effects["round"], level)
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
    """The count (as :func:`chosen_tags`, or ``best-playing-1`` or ``2``: the count whose
    true count best follows the decisions' gains on the even-numbered dealt shoes) and the
    dealt shoes; a bad count is refused before the shoes are dealt."""
    playing = PLAYING.fullmatch(count.lower())
    chosen = None if playing else chosen_tags(rules, count, cache)
    dealt = shoes()
    if chosen is not None:
        return (*chosen, dealt)
    found = best_playing_count(dealt, int(playing.group(1)) if playing else 0)
    return f"best-playing-{found.level}", found.tags, dealt


def indices(
    *, rules: Rules, count: str, samples: int, seed: int, penetration: float, run: Run
) -> IndicesResult:
    """The true count at which each chart decision worth most flips, ranked by value."""
    check_penetration(penetration, rules.decks)
    name, tags, dealt = counted_shoes(
        rules, count, run.cache, lambda: dealt_shoes(rules, samples, seed, penetration, run)
    )
    return index_plays(dealt, name, tags)


def bet(
    *,
    rules: Rules,
    count: str,
    spread: tuple[int, int],
    bankroll: float,
    kelly_fraction: float,
    rounds_per_hour: int,
    target_ruin: float,
    indices: bool,
    samples: int,
    seed: int,
    penetration: float,
    run: Run,
) -> BetResult:
    """The growth-optimal (Kelly) ramp within a spread, with SCORE, DI, N0 and win rates,
    for a counter who plays the chart (and with ``indices`` the count's index plays)."""
    check_penetration(penetration, rules.decks)
    name, tags, shoes = counted_shoes(
        rules, count, run.cache, lambda: dealt_shoes(rules, samples, seed, penetration, run)
    )
    plays = index_plays(shoes, name, tags) if indices else None
    return optimal_bets(
        shoes, name, tags, spread, bankroll, kelly_fraction, rounds_per_hour, target_ruin, plays
    )
