"""Exact probability and optimal-strategy solver for Community Blackjack (Casino Edition).

Everything ``cbj`` does is one function here, named like the command::

    >>> import solver
    >>> game = solver.solve(decks=6, exact=True)
    >>> game.expected_value > 0
    True
    >>> from importlib.metadata import version
    >>> solver.__version__ == version("community-blackjack")
    True

Each public name is loaded from its module when first used (:data:`_HOMES` lists them
once, and ``__all__`` is made from it), so ``import solver`` stays quick and a command
loads only what it needs.  ``__init__.pyi`` gives type checkers each name's real type
(a test holds it to :data:`_HOMES`).  ``__version__`` is the installed distribution's
version, read from its metadata (written once, in ``pyproject.toml``) when first asked for.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

#: Every public name, listed once under the module it lives in.
_HOMES = {
    # each command's function, written by `python scripts/commands_code.py`; do not edit
    "solver.api.functions": (
        "advise attack bet bonus cache_clear cache_info chart chart_check chart_costs "
        "count dealer eor graph hold hold_series indices paytable_search paytable_solve "
        "practice_play practice_start report rules seats session shoe_states simulate "
        "solve strategies sweep tables variants"
    ),
    # end of what scripts/commands_code.py writes
    "solver.model.cards": "Card Rank Shoe Suit parse_cards",
    "solver.model.errors": (
        "BackendError CardError CbjError CountError DesignError HandError OutputError "
        "PracticeError ReportError RulesError SessionError ShoeError SimulationError StrategyError"
    ),
    "solver.model.outcomes": "BonusOutcome MainOutcome",
    # each rule's kind, written from the rule table by `python scripts/rules_code.py`; do not edit
    "solver.model.rule_table": "DealerBonus DealerNatural NaturalBeats",
    # end of what scripts/rules_code.py writes
    "solver.model.rules": "Paytable Rules",
    "solver.present.plots": "plot_chart plot_ev_by_true_count plot_session",
    "solver.results.attack": "AttackResult",
    "solver.results.betting": "BetResult",
    "solver.results.bonus": "BonusAnalysis BonusResult",
    "solver.results.charts": "Chart ChartCheck ChartCosts",
    "solver.results.commands": (
        "AdviseResult CountResult EorResult GraphResult HoldResult HoldSeriesResult "
        "PaytableSearchResult "
        "PaytableSolveResult PracticePlayResult PracticeStartResult ReportResult SeatsResult "
        "SimulateResult SolveResult TablesResult"
    ),
    "solver.results.count_search": "CountSearch",
    "solver.results.game": "Advice DealerResult DecisionGraph GameResult",
    "solver.results.hold": "HoldCheck HoldSeries",
    "solver.results.indices": "IndicesResult",
    "solver.results.kinds": "Key Kind Store",
    "solver.results.paytable": "PaySolution SearchResult Variants",
    "solver.results.practice": "Drill Grade PracticeState Score Settlement",
    "solver.results.practice_state": "PracticeTurn",
    "solver.results.protection": "Counts EffectsOfRemoval ShoeStates",
    "solver.results.rules": "RulesResult",
    "solver.results.run": "Run",
    "solver.results.seats": "TableOfPlayers",
    "solver.results.session": "SessionResult",
    "solver.results.simulation": "SimulationResult",
    "solver.results.strategies": "StrategiesResult",
    "solver.results.sweep": "SweepResult",
    "solver.results.written": "Written",
    "solver.store.cache": "CacheClearResult",
    "solver.store.disk": "Cache CacheCleared CacheInfo DiskCache",
    "solver.store.memory": "MemoryCache",
}
_WHERE = {name: module for module, names in _HOMES.items() for name in names.split()}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    if name == "__version__":
        from solver.model.version import package_version  # as the names below: when asked

        globals()[name] = package_version()
        return globals()[name]
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
