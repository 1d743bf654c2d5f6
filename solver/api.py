"""The library's front door: one function per ``cbj`` command, each returning a result.

Every function takes the rules as ``rules=`` (a :class:`~solver.model.rules.Rules`) or as
keyword options named like the command's (``decks=1``, ``paytable="15:4:1"``), cards as
text (``"As Kd"``) or :class:`~solver.model.cards.Card` values, and returns a frozen
result whose ``to_json()`` is the document ``cbj <command> --format json`` prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from solver.exact.bonus import analyse_bonus
from solver.exact.strategy import exact_main, strategy_source
from solver.model.cards import Card, parse_cards
from solver.model.rules import Rules
from solver.sim import ExactFigure, SimulationResult, parse_strategy
from solver.sim import simulate as run_simulation

Cards = str | Iterable[Card | str]


def _cards(cards: Cards) -> tuple[Card, ...]:
    """Cards given as text or as values, parsed."""
    if isinstance(cards, str):
        return parse_cards(cards)
    return tuple(c if isinstance(c, Card) else Card.parse(c) for c in cards)


def bonus_figure(rules: Rules, removed: Iterable[Card] = ()) -> ExactFigure:
    """The Bonus wager's exact EV and outcome probabilities, for the simulator to meet."""
    analysis = analyse_bonus(rules, removed)
    probabilities = {line.outcome.value: line.probability for line in analysis.lines}
    return ExactFigure(analysis.expected_value, probabilities)


def simulate(
    rounds: int,
    *,
    rules: Rules | None = None,
    seed: int | None = None,
    seats: int = 1,
    strategy: str = "optimal",
    penetration: float | None = 0.75,
    jobs: int = 1,
    removed: Cards = (),
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Deal ``rounds`` rounds with the independent simulator and compare with exact figures.

    ``penetration=None`` shuffles a fresh shoe every round.  ``optimal`` and ``chart`` are
    played from the exact solver's decision tables; their exact main-wager figure (and
    always the Bonus wager's) is attached for the z-scores.
    """
    rules = rules or Rules()
    cards = _cards(removed)
    played = parse_strategy(strategy, lambda kind: strategy_source(rules, kind))
    exact: dict[str, ExactFigure] = {}
    if played.name in ("optimal", "chart") and not cards:
        # A fresh shoe matches this figure exactly; dealing to a cut card approximately.
        mean, probabilities = exact_main(rules, "chart" if played.name == "chart" else "optimal")
        exact["main"] = ExactFigure(mean, probabilities)
    if all(c.suit is not None for c in cards):  # else the simulator refuses the shoe
        exact["bonus"] = bonus_figure(rules, cards)
    return run_simulation(
        rules,
        played,
        rounds,
        seed=seed,
        seats=seats,
        penetration=penetration,
        jobs=jobs,
        removed=cards,
        exact=exact,
        progress=progress,
    )
