"""A simulation beside its exact figures: the independent simulator checked by the solver.

The simulator (:mod:`solver.sim`) never imports the exact solver; this study hands it the
exact figures it is measured against (the main wager's EV and outcome probabilities for
the strategy played, and always the Bonus wager's), so every estimate carries its z-score.
``cbj simulate`` and the report's cross-check both run :func:`simulate_beside_exact`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction

from solver.exact.bonus import analyse_bonus
from solver.exact.chart import exact_main, strategy_source
from solver.exact.strategies import realistic_play
from solver.model.cards import Card
from solver.model.cells import Actions
from solver.model.rules import DealerBonus, Rules
from solver.model.shuffles import Shuffle
from solver.results.game import GameResult
from solver.results.kinds import Store
from solver.results.simulation import Counter, ExactFigure, SimulationResult
from solver.sim import Strategy, parse_strategy, simulate
from solver.sim.strategies import TABLE_STRATEGIES

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
