"""Exact probability and optimal-strategy solver for Community Blackjack (Casino Edition).

Everything ``cbj`` does is one function here, named like the command::

    >>> import solver
    >>> game = solver.solve(decks=6, exact=True)
    >>> game.expected_value > 0
    True

The functions and types are loaded when first used, so ``import solver`` stays quick.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.api import (
        RulesResult,
        advise,
        bonus,
        cache_clear,
        cache_info,
        chart,
        count,
        dealer,
        eor,
        paytable_search,
        paytable_solve,
        report,
        rules,
        seats,
        shoe_states,
        simulate,
        solve,
        strategies,
        tables,
        variants,
    )
    from solver.exact.bonus import BonusAnalysis, BonusResult
    from solver.exact.dealer import DealerResult
    from solver.exact.design import PaySolution, SearchResult, Variants
    from solver.exact.game import Advice, GameResult, GameStore
    from solver.exact.policies import StrategiesResult
    from solver.exact.protection import Counts, EffectsOfRemoval
    from solver.exact.shoe_states import ShoeStates
    from solver.exact.strategy import Chart
    from solver.model.cards import Card, Rank, Shoe, Suit, parse_cards
    from solver.model.errors import (
        BackendError,
        CardError,
        CbjError,
        CountError,
        DesignError,
        HandError,
        OutputError,
        ReportError,
        RulesError,
        ShoeError,
        SimulationError,
        StrategyError,
    )
    from solver.model.outcomes import BonusOutcome, MainOutcome
    from solver.model.rules import DealerNatural, NaturalBeats, Paytable, Rules
    from solver.present.files import Written
    from solver.sim import SimulationResult
    from solver.store.disk import Cache, CacheCleared, CacheInfo, DiskCache
    from solver.store.memory import MemoryCache
    from solver.store.protocol import Store
    from solver.studies.seats import TableOfPlayers

#: Where each public name lives.
_HOMES = {
    "solver.api": (
        "RulesResult advise bonus cache_clear "
        "cache_info chart count dealer eor paytable_search paytable_solve report rules seats "
        "shoe_states simulate solve strategies tables variants"
    ),
    "solver.exact.bonus": "BonusAnalysis BonusResult",
    "solver.exact.dealer": "DealerResult",
    "solver.exact.design": "PaySolution SearchResult Variants",
    "solver.exact.game": "Advice GameResult GameStore",
    "solver.exact.policies": "StrategiesResult",
    "solver.exact.protection": "Counts EffectsOfRemoval",
    "solver.exact.shoe_states": "ShoeStates",
    "solver.exact.strategy": "Chart",
    "solver.model.cards": "Card Rank Shoe Suit parse_cards",
    "solver.model.errors": (
        "BackendError CardError CbjError CountError DesignError HandError OutputError ReportError "
        "RulesError ShoeError SimulationError StrategyError"
    ),
    "solver.model.outcomes": "BonusOutcome MainOutcome",
    "solver.model.rules": "DealerNatural NaturalBeats Paytable Rules",
    "solver.present.files": "Written",
    "solver.studies.seats": "TableOfPlayers",
    "solver.sim": "SimulationResult",
    "solver.store.disk": "Cache CacheCleared CacheInfo DiskCache",
    "solver.store.memory": "MemoryCache",
    "solver.store.protocol": "Store",
}
_WHERE = {name: module for module, names in _HOMES.items() for name in names.split()}

__all__ = [
    "Advice",
    "BackendError",
    "BonusAnalysis",
    "BonusOutcome",
    "BonusResult",
    "Cache",
    "CacheCleared",
    "CacheInfo",
    "Card",
    "CardError",
    "CbjError",
    "Chart",
    "CountError",
    "Counts",
    "DealerNatural",
    "DealerResult",
    "DesignError",
    "DiskCache",
    "EffectsOfRemoval",
    "GameResult",
    "GameStore",
    "HandError",
    "MainOutcome",
    "MemoryCache",
    "NaturalBeats",
    "OutputError",
    "PaySolution",
    "Paytable",
    "Rank",
    "ReportError",
    "Rules",
    "RulesError",
    "RulesResult",
    "SearchResult",
    "Shoe",
    "ShoeError",
    "ShoeStates",
    "SimulationError",
    "SimulationResult",
    "Store",
    "StrategiesResult",
    "StrategyError",
    "Suit",
    "TableOfPlayers",
    "Variants",
    "Written",
    "advise",
    "bonus",
    "cache_clear",
    "cache_info",
    "chart",
    "count",
    "dealer",
    "eor",
    "parse_cards",
    "paytable_search",
    "paytable_solve",
    "report",
    "rules",
    "seats",
    "shoe_states",
    "simulate",
    "solve",
    "strategies",
    "tables",
    "variants",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
