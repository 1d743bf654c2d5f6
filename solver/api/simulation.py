"""The simulator's commands: ``cbj simulate`` and ``cbj seats``, beside the exact figures."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Unpack

from solver.api.advantage import SAMPLES, SEED, dealt_shoes
from solver.api.chart_file import chart_for
from solver.api.progress import round_progress
from solver.api.protection import cached_effects
from solver.api.rules import Cards, RuleOptions, given_cards, make_rules
from solver.exact.game import solve_game
from solver.exact.indices import index_plays
from solver.exact.protection import best_count
from solver.exact.seats import parse_seat_counts
from solver.model.cards import Card
from solver.model.checks import checked
from solver.model.counts import count_tags
from solver.model.errors import CountError, SimulationError
from solver.model.rules import Rules
from solver.model.shuffles import Shuffle
from solver.results.kinds import Store
from solver.results.seats import TableOfPlayers
from solver.results.simulation import Counter, SimulationResult
from solver.sim.counter import parse_bets
from solver.sim.run import check_deal
from solver.studies.seats import DEFAULT_ROUNDS, check_run, table_of_players
from solver.studies.simulation import once, played_strategy, simulate_beside_exact


@checked
def simulate(
    *,
    rounds: int,
    seed: int | None = None,
    seats: int = 1,
    strategy: str = "optimal",
    penetration: float | None = None,
    fresh_shoe: bool = False,
    csm: int | None = None,
    jobs: int = 1,
    removed: Cards = (),
    counter: str | Mapping[str, int] | None = None,
    spread: str | tuple[int, int] | None = None,
    ramp: str | Sequence[tuple[float, int]] | None = None,
    wong_out: str | float | None = None,
    mid_shoe_entry: bool = True,
    indices: bool = False,
    index_samples: int = SAMPLES,
    cache: Store | None = None,
    progress: Callable[[int], None] | bool | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> SimulationResult:
    """Deal ``rounds`` rounds with the independent simulator, beside the exact figures.

    The shoe is reshuffled after ``penetration`` of it is dealt (0.75 when not given), or
    every round with ``fresh_shoe``, or dealt by a continuous shuffler whose tray holds
    ``csm`` cards (each round's cards go back in before the next).  ``optimal`` and
    ``chart`` are played from the exact solver's decision tables; their exact main-wager
    figure (and always the Bonus wager's) is attached for the z-scores.  ``counter`` (a
    system name, ``best-level-1`` to ``3``, or tags ``"A=-1,2=1,..."``) seats a card
    counter at seat 1 who bets by the true count within ``spread`` (``"1-8"`` when not
    given) along ``ramp`` (``"TC:UNITS,..."``), and sits out below ``wong_out`` (with
    ``mid_shoe_entry`` false it sits down only at a shuffle and leaves until the next below
    ``wong_out``).  With ``indices`` the counter (playing ``strategy="chart"``) also plays
    the count's index plays, found as :func:`~solver.api.advantage.indices` finds them from
    ``index_samples`` dealt shoes at the simulation's penetration.
    """
    if sum((fresh_shoe, penetration is not None, csm is not None)) > 1:
        raise SimulationError(
            "give one of a penetration (--penetration), a fresh shoe (--fresh-shoe) or a "
            "continuous shuffler (--csm)"
        )
    shuffle = None if csm is None else Shuffle.csm(csm)
    if counter is not None and fresh_shoe:
        raise SimulationError(
            "a counter (--counter) needs a shoe dealt to a cut card, not a fresh shoe"
        )
    played = make_rules(rules, options)
    cards = given_cards(removed)
    cut = None if fresh_shoe or shuffle else 0.75 if penetration is None else penetration
    # Bad settings fail before any exact figure is solved.
    check_deal(played, rounds, seed=seed, seats=seats, penetration=cut, jobs=jobs, removed=cards)
    counting = _counter(played, cards, counter, spread, ramp, wong_out, jobs, cache)
    if counting is not None and not mid_shoe_entry:
        counting = replace(counting, mid_shoe_entry=False)
    elif not mid_shoe_entry:
        raise CountError("no mid-shoe entry is for a card counter: give --counter too")
    if indices:
        counting = _with_indices(played, counting, strategy, index_samples, cut, jobs, cache)
    chart = chart_for(strategy)
    game = once(lambda: solve_game(played, exact=True, cache=cache))
    return simulate_beside_exact(
        played,
        played_strategy(strategy, played, game, cache, chart),
        rounds,
        game,
        seed=seed,
        seats=seats,
        penetration=cut,
        jobs=jobs,
        removed=cards,
        cache=cache,
        progress=round_progress(progress, "dealing", rounds),
        counter=counting,
        chart=chart,
        shuffle=shuffle,
    )


def _counter(
    played: Rules,
    removed: tuple[Card, ...],
    name: str | Mapping[str, int] | None,
    spread: str | tuple[int, int] | None,
    ramp: str | Sequence[tuple[float, int]] | None,
    wong_out: str | float | None,
    jobs: int,
    cache: Store | None,
) -> Counter | None:
    """The simulated counter asked for; a best count is found from the shoe's exact EORs."""
    if name is None:
        for option, value in (("--spread", spread), ("--ramp", ramp), ("--wong-out", wong_out)):
            if value is not None:
                raise CountError(f"{option} is for a card counter: give --counter too")
        return None
    bets = parse_bets("1-8" if spread is None else spread, ramp, wong_out)
    if not isinstance(name, str):
        label, tags = count_tags(",".join(f"{r}={t}" for r, t in name.items()))
    elif best := re.fullmatch(r"\s*best-level-([123])\s*", name.lower()):
        effects = cached_effects(played, tuple(removed), False, jobs, cache)
        label = f"best-level-{best.group(1)}"
        tags = best_count(effects.effects["round"], int(best.group(1)))
    elif "=" in name:
        label, tags = count_tags(name)
    else:
        try:
            label, tags = count_tags(name)
        except CountError as error:
            raise CountError(f"{error}, best-level-1 to 3, or tags 'A=-1,2=1,...'") from None
    return Counter(label, tags, *bets)


def _with_indices(
    played: Rules,
    counter: Counter | None,
    strategy: str,
    samples: int,
    penetration: float | None,
    jobs: int,
    cache: Store | None,
) -> Counter:
    """The counter playing its count's index plays, from the dealt-shoe study."""
    if counter is None:
        raise CountError("--indices is for a card counter: give --counter too")
    if strategy.strip().lower() != "chart":
        raise CountError(
            f"index plays change the chart's play: give --strategy chart, not {strategy[:40]!r}"
        )
    shoes = dealt_shoes(
        played, samples, SEED, penetration or 0.75, jobs, "local", None, cache, None
    )
    found = index_plays(shoes, counter.name, counter.tags)
    return replace(counter, indices=found.rules_played())


@checked
def seats(
    *,
    seats: Sequence[int] | str = "1-7",
    rounds: int | None = None,
    seed: int | None = None,
    strategy: str = "optimal",
    jobs: int = 1,
    cache: Store | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> TableOfPlayers:
    """The casino's hold per table-round and its SD with each number of seats (1 to 7).

    ``seats`` is a list or text (``"1-7"``, ``"1,3,5"``).  The Bonus wager's figures are
    exact; the main wager's and the round's are simulated, ``rounds`` table-rounds per
    number of seats (200,000 when not given), every seat playing ``strategy`` (a name as
    for :func:`simulate`) from a fresh shoe each round.
    """
    played = make_rules(rules, options)
    counts = parse_seat_counts(seats) if isinstance(seats, str) else tuple(seats)
    if not counts:
        raise SimulationError("seats is empty: give numbers of seats from 1 to 7, e.g. 1-7")
    chosen = DEFAULT_ROUNDS if rounds is None else rounds
    check_run(chosen, seed)  # before the solve that optimal and chart play need
    policy = played_strategy(
        strategy,
        played,
        lambda: solve_game(played, exact=True, cache=cache),
        cache,
        chart_for(strategy),
    )
    return table_of_players(played, policy, counts, chosen, seed=seed, jobs=jobs)
