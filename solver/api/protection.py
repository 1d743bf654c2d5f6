"""Game protection: ``cbj eor``, ``cbj count`` and ``cbj shoe-states``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Unpack

from solver.api.progress import step_progress
from solver.api.rules import Cards, RuleOptions, given_cards, make_rules
from solver.exact.game import ProgressCallback
from solver.exact.protection import effects_of_removal, judge_counts, round_effects
from solver.exact.shoe_states import (
    cards_dealt,
    check_samples,
    check_seed,
    default_depths,
    new_seed,
    parse_depths,
    study_shoe_states,
)
from solver.model.cards import Card
from solver.model.checks import checked, shown
from solver.model.counts import Tags, parse_tags, system_tags
from solver.model.errors import BackendError, CountError
from solver.model.parallel import check_jobs, scheduler_address
from solver.model.rules import Rules
from solver.results.kinds import Key, Store
from solver.results.protection import EFFECTS, Counts, EffectsOfRemoval, ShoeStates


@checked
def eor(
    *,
    removed: Cards = (),
    exact: bool = False,
    jobs: int = 1,
    cache: Store | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> EffectsOfRemoval[Any]:
    """The exact change in each wager's EV when one card of each rank leaves the shoe."""
    played = make_rules(rules, options)
    return cached_effects(played, given_cards(removed), exact, jobs, cache)


@checked
def count(
    *,
    tags: str | Mapping[str, int] | None = None,
    system: str | None = None,
    removed: Cards = (),
    exact: bool = False,
    jobs: int = 1,
    cache: Store | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> Counts:
    """Betting correlation and EV per true count of a count (or of the usual ones and the best).

    Give ``tags`` (``"A=-1,2=1,..."`` or a mapping by rank) or a ``system`` name, or neither
    for Hi-Lo, KO, Hi-Opt I, Omega II and the best counts of level 1, 2 and 3.
    """
    chosen = _chosen_count(tags, system)
    played = make_rules(rules, options)
    return judge_counts(cached_effects(played, given_cards(removed), exact, jobs, cache), chosen)


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


def _chosen_count(
    tags: str | Mapping[str, int] | None, system: str | None
) -> dict[str, Tags] | None:
    """The count named by ``system`` or given as ``tags`` (text or a mapping), if either."""
    if tags is not None and system is not None:
        raise CountError("give tags (--tags) or a system (--system), not both")
    if system is not None:
        return {system.strip().lower(): system_tags(system)}
    if tags is not None:
        text = tags if isinstance(tags, str) else ",".join(f"{r}={t}" for r, t in tags.items())
        return {"tags": parse_tags(text)}
    return None


@checked
def shoe_states(
    *,
    samples: int,
    depths: str | Sequence[float | str] | None = None,
    seed: int | None = None,
    system: str | None = None,
    tags: str | Mapping[str, int] | None = None,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> ShoeStates:
    """Deal ``samples`` random shoes to each depth, solve each, and summarise what they do.

    ``depths`` are shares of the shoe dealt; by default 0.25, 0.5, 0.75 and 0.83, those of
    them that leave half a deck in the rules' shoe.

    Per depth: the spread of the round's and the main wager's EV, the fit of the round EV
    on the true count of ``system`` (or ``tags``; Hi-Lo when neither) and the error of
    the linear EOR estimate.  ``seed`` (a fresh one, reported, when ``None``) fixes every
    state whatever ``jobs`` or ``backend``: ``local`` (``jobs`` processes) or ``dask``
    (the cluster at ``scheduler``, else ``$DASK_SCHEDULER_ADDRESS``).  ``cache`` only
    keeps the full shoe's solves behind the EORs.
    """
    chosen = _chosen_count(tags, system) or {"hi-lo": system_tags("hi-lo")}
    ((name, tagged),) = chosen.items()
    played = make_rules(rules, options)
    parsed = default_depths(played) if depths is None else parse_depths(depths)
    for depth in parsed:  # refused before the solves, not after
        cards_dealt(played, depth)
    check_samples(samples)
    seed = new_seed() if seed is None else check_seed(seed)
    if backend not in ("local", "dask"):
        raise BackendError(f"backend {shown(backend)} is unknown: use local or dask")
    check_jobs(jobs)
    if backend == "dask":
        scheduler = scheduler_address(scheduler)
    effects = round_effects(played, jobs=1 if backend == "dask" else jobs, cache=cache)
    return study_shoe_states(
        effects,
        parsed,
        samples,
        seed,
        name,
        tagged,
        jobs=jobs,
        backend="dask" if backend == "dask" else "processes",
        scheduler=scheduler,
        progress=step_progress(progress, "shoe states"),
    )
