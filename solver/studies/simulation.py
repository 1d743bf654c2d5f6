"""A simulation beside its exact figures: the independent simulator checked by the solver.

The simulator (:mod:`solver.sim`) never imports the exact solver; this study hands it the
exact figures it is measured against (the main wager's EV and outcome probabilities for
the strategy played, and always the Bonus wager's), so every estimate carries its z-score.
``cbj simulate`` and the report's cross-check both run :func:`simulate_beside_exact`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from fractions import Fraction

from solver.exact.bonus import analyse_bonus
from solver.exact.chart import exact_main, strategy_source
from solver.exact.game import solve_game
from solver.exact.indices import index_plays
from solver.exact.protection import best_count
from solver.exact.seats import parse_seat_counts
from solver.exact.strategies import realistic_play
from solver.model.cards import Card
from solver.model.catalogue import SEATS_ROUNDS_DEFAULT, STUDY_SEED
from solver.model.cells import Actions
from solver.model.counts import count_tags
from solver.model.errors import CountError, SimulationError
from solver.model.rules import DealerBonus, Rules
from solver.model.shuffles import Shuffle
from solver.results.game import GameResult
from solver.results.kinds import Store
from solver.results.report import PlayerStrategy
from solver.results.run import Run
from solver.results.seats import TableOfPlayers
from solver.results.simulation import Counter, ExactFigure, SimulationResult
from solver.sim import Strategy, parse_strategy, simulate
from solver.sim.counter import parse_bets
from solver.sim.run import check_deal
from solver.sim.strategies import TABLE_STRATEGIES
from solver.studies.counting import cached_effects, dealt_shoes
from solver.studies.seats import check_run, table_of_players

#: A game solved on first use (the named policies other than optimal and chart need none
#: for the simulator, but their exact figure does).
GameSource = Callable[[], GameResult[Fraction]]


def bonus_figure(rules: Rules, removed: Iterable[Card] = ()) -> ExactFigure:
    """The Bonus wager's exact EV and outcome probabilities, for the simulator to meet."""
    analysis = analyse_bonus(rules, removed)
    probabilities = {str(line.outcome): line.probability for line in analysis.lines}
    return ExactFigure(analysis.expected_value, probabilities)


def main_figure(
    rules: Rules,
    strategy: Strategy,
    game: GameResult[Fraction],
    cache: Store | None = None,
    chart: Actions | None = None,
) -> ExactFigure:
    """The main wager's exact EV (and outcome probabilities) under ``strategy``, full shoe.

    ``optimal`` and ``chart`` come from the game and its chart; the other named policies,
    and a ``chart`` read from a file, are evaluated exactly by
    :func:`~solver.exact.strategies.realistic_play`.
    """
    if strategy.name in TABLE_STRATEGIES:
        # A fresh shoe matches this figure exactly; dealing to a cut card approximately.
        kind = "chart" if strategy.name == "chart" else "optimal"
        mean, probabilities = exact_main(game, kind, cache)
        return ExactFigure(mean, probabilities)
    charts = {} if chart is None else {strategy.name: chart}
    policy = realistic_play(rules, [strategy.name], game, cache, charts).policies[0]
    outcomes = {k: Fraction(p) for k, p in policy.game.outcomes.items()}
    return ExactFigure(policy.main_ev, outcomes)


def exact_figures(
    rules: Rules,
    strategy: Strategy,
    game: GameSource,
    removed: tuple[Card, ...] = (),
    cache: Store | None = None,
    chart: Actions | None = None,
) -> dict[str, ExactFigure]:
    """The exact figures a simulation of ``strategy`` is checked against.

    The main wager's only from a full shoe (the solver's figures are of a full shoe); the
    Bonus wager's whenever every removed card has its suit (else the simulator refuses it).
    """
    exact: dict[str, ExactFigure] = {}
    if not removed:
        exact["main"] = main_figure(rules, strategy, game(), cache, chart)
    if all(c.suit is not None for c in removed):
        exact["bonus"] = bonus_figure(rules, removed)
    return exact


def played_strategy(
    name: str,
    rules: Rules,
    game: GameSource,
    cache: Store | None = None,
    chart: Actions | None = None,
) -> Strategy:
    """The policy ``name`` for the simulator, ``optimal`` and ``chart`` read off ``game``
    (and ``chart:FILE`` off ``chart``, the chart read from that file)."""
    return parse_strategy(
        name,
        lambda kind: strategy_source(game(), kind, cache, chart),
        rules.dealer_stands_on,
        rules.dealer_bonus is DealerBonus.MUST_USE,
    )


def once(solve: GameSource) -> GameSource:
    """``solve``, called at most once: later calls return the first call's game."""
    solved: list[GameResult[Fraction]] = []

    def game() -> GameResult[Fraction]:
        if not solved:
            solved.append(solve())
        return solved[0]

    return game


def simulate_beside_exact(
    rules: Rules,
    strategy: Strategy,
    rounds: int,
    game: GameSource,
    *,
    seed: int | None = None,
    seats: int = 1,
    penetration: float | None = 0.75,
    jobs: int = 1,
    removed: tuple[Card, ...] = (),
    cache: Store | None = None,
    progress: Callable[[int], None] | None = None,
    counter: Counter | None = None,
    chart: Actions | None = None,
    shuffle: Shuffle | None = None,
) -> SimulationResult:
    """Deal ``rounds`` rounds of ``strategy`` with the simulator, its exact figures attached.

    ``chart`` is the chart a ``chart:FILE`` strategy plays; ``shuffle`` how the cards are
    shuffled, when a continuous shuffler deals.
    """
    return simulate(
        rules,
        strategy,
        rounds,
        seed=seed,
        seats=seats,
        penetration=penetration,
        jobs=jobs,
        removed=removed,
        exact=exact_figures(rules, strategy, game, removed, cache, chart),
        progress=progress,
        counter=counter,
        shuffle=shuffle,
    )


def simulate_command(
    *,
    rules: Rules,
    rounds: int,
    seed: int | None,
    seats: int,
    strategy: PlayerStrategy,
    penetration: float | None,
    fresh_shoe: bool,
    csm: int | None,
    removed: tuple[Card, ...],
    counter: str | Mapping[str, int] | None,
    spread: tuple[int, int] | None,
    ramp: tuple[tuple[float, int], ...] | None,
    wong_out: float | None,
    mid_shoe_entry: bool,
    indices: bool,
    index_samples: int,
    run: Run,
) -> SimulationResult:
    """Deal ``rounds`` rounds with the independent simulator, beside the exact figures.

    The shoe is reshuffled after ``penetration`` of it is dealt (0.75 when not given), or
    every round with ``fresh_shoe``, or dealt by a continuous shuffler whose tray holds
    ``csm`` cards (each round's cards go back in before the next); ``counter`` seats a card
    counter at seat 1 who bets by the true count within ``spread`` along ``ramp`` and sits
    out below ``wong_out`` (with ``mid_shoe_entry`` false it sits down only at a shuffle and
    leaves until the next below ``wong_out``), and with ``indices`` plays the count's index
    plays (found from ``index_samples`` dealt shoes at the simulation's penetration).
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
    cut = None if fresh_shoe or shuffle else 0.75 if penetration is None else penetration
    # Bad settings fail before any exact figure is solved.
    check_deal(
        rules, rounds, seed=seed, seats=seats, penetration=cut, jobs=run.jobs, removed=removed
    )
    counting = _counter(rules, removed, counter, spread, ramp, wong_out, run)
    if counting is not None and not mid_shoe_entry:
        counting = replace(counting, mid_shoe_entry=False)
    elif not mid_shoe_entry:
        raise CountError("no mid-shoe entry is for a card counter: give --counter too")
    if indices:
        counting = _with_indices(rules, counting, strategy, index_samples, cut, run)
    game = once(lambda: solve_game(rules, exact=True, cache=run.cache))
    dealt = [0]

    def progress(rounds_dealt: int) -> None:
        dealt[0] += rounds_dealt
        if run.progress is not None:
            run.progress(dealt[0], rounds)

    return simulate_beside_exact(
        rules,
        played_strategy(strategy.name, rules, game, run.cache, strategy.chart),
        rounds,
        game,
        seed=seed,
        seats=seats,
        penetration=cut,
        jobs=run.jobs,
        removed=removed,
        cache=run.cache,
        progress=progress,
        counter=counting,
        chart=strategy.chart,
        shuffle=shuffle,
    )


def _counter(
    played: Rules,
    removed: tuple[Card, ...],
    name: str | Mapping[str, int] | None,
    spread: tuple[int, int] | None,
    ramp: tuple[tuple[float, int], ...] | None,
    wong_out: float | None,
    run: Run,
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
        effects = cached_effects(played, removed, False, run.jobs, run.cache)
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
    strategy: PlayerStrategy,
    samples: int,
    penetration: float | None,
    run: Run,
) -> Counter:
    """The counter playing its count's index plays, from the dealt-shoe study."""
    if counter is None:
        raise CountError("--indices is for a card counter: give --counter too")
    if strategy.key != "chart":
        given = strategy.name[:40]
        raise CountError(
            f"index plays change the chart's play: give --strategy chart, not {given!r}"
        )
    study = Run(run.jobs, "local", None, run.cache, None)
    shoes = dealt_shoes(played, samples, STUDY_SEED.default, penetration or 0.75, study)
    found = index_plays(shoes, counter.name, counter.tags)
    return replace(counter, indices=found.rules_played())


def seats_command(
    *,
    rules: Rules,
    seats: str | tuple[int, ...],
    rounds: int | None,
    seed: int | None,
    strategy: PlayerStrategy,
    run: Run,
) -> TableOfPlayers:
    """The casino's hold per table-round and its SD with each number of seats (1 to 7):
    the Bonus wager's exact, the main wager's and the round's simulated, ``rounds``
    table-rounds per number of seats, every seat playing ``strategy`` from a fresh shoe."""
    counts = parse_seat_counts(seats) if isinstance(seats, str) else tuple(seats)
    if not counts:
        raise SimulationError("seats is empty: give numbers of seats from 1 to 7, e.g. 1-7")
    chosen = SEATS_ROUNDS_DEFAULT if rounds is None else rounds
    check_run(chosen, seed)  # before the solve that optimal and chart play need
    policy = played_strategy(
        strategy.name,
        rules,
        lambda: solve_game(rules, exact=True, cache=run.cache),
        run.cache,
        strategy.chart,
    )
    return table_of_players(rules, policy, counts, chosen, seed=seed, jobs=run.jobs)
