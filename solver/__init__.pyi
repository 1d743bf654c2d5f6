"""Types of the public names that ``solver/__init__.py`` loads on first use.

Each name as its home module types it (a test holds this file to ``_HOMES``).
"""

# each command's function, written by `python scripts/commands_code.py`; do not edit
from solver.api.functions import (
    advise as advise,
)
from solver.api.functions import (
    attack as attack,
)
from solver.api.functions import (
    bet as bet,
)
from solver.api.functions import (
    bonus as bonus,
)
from solver.api.functions import (
    cache_clear as cache_clear,
)
from solver.api.functions import (
    cache_info as cache_info,
)
from solver.api.functions import (
    chart as chart,
)
from solver.api.functions import (
    chart_check as chart_check,
)
from solver.api.functions import (
    chart_costs as chart_costs,
)
from solver.api.functions import (
    count as count,
)
from solver.api.functions import (
    dealer as dealer,
)
from solver.api.functions import (
    eor as eor,
)
from solver.api.functions import (
    graph as graph,
)
from solver.api.functions import (
    hold as hold,
)
from solver.api.functions import (
    hold_series as hold_series,
)
from solver.api.functions import (
    indices as indices,
)
from solver.api.functions import (
    paytable_search as paytable_search,
)
from solver.api.functions import (
    paytable_solve as paytable_solve,
)
from solver.api.functions import (
    practice_play as practice_play,
)
from solver.api.functions import (
    practice_start as practice_start,
)
from solver.api.functions import (
    report as report,
)
from solver.api.functions import (
    rules as rules,
)
from solver.api.functions import (
    seats as seats,
)
from solver.api.functions import (
    session as session,
)
from solver.api.functions import (
    shoe_states as shoe_states,
)
from solver.api.functions import (
    simulate as simulate,
)
from solver.api.functions import (
    solve as solve,
)
from solver.api.functions import (
    strategies as strategies,
)
from solver.api.functions import (
    sweep as sweep,
)
from solver.api.functions import (
    tables as tables,
)
from solver.api.functions import (
    variants as variants,
)

# end of what scripts/commands_code.py writes
from solver.model.cards import (
    Card as Card,
)
from solver.model.cards import (
    Rank as Rank,
)
from solver.model.cards import (
    Shoe as Shoe,
)
from solver.model.cards import (
    Suit as Suit,
)
from solver.model.cards import (
    parse_cards as parse_cards,
)
from solver.model.errors import (
    BackendError as BackendError,
)
from solver.model.errors import (
    CardError as CardError,
)
from solver.model.errors import (
    CbjError as CbjError,
)
from solver.model.errors import (
    CountError as CountError,
)
from solver.model.errors import (
    DesignError as DesignError,
)
from solver.model.errors import (
    HandError as HandError,
)
from solver.model.errors import (
    OutputError as OutputError,
)
from solver.model.errors import (
    PracticeError as PracticeError,
)
from solver.model.errors import (
    ReportError as ReportError,
)
from solver.model.errors import (
    RulesError as RulesError,
)
from solver.model.errors import (
    SessionError as SessionError,
)
from solver.model.errors import (
    ShoeError as ShoeError,
)
from solver.model.errors import (
    SimulationError as SimulationError,
)
from solver.model.errors import (
    StrategyError as StrategyError,
)
from solver.model.outcomes import (
    BonusOutcome as BonusOutcome,
)
from solver.model.outcomes import (
    MainOutcome as MainOutcome,
)

# each rule's kind, written from the rule table by `python scripts/rules_code.py`; do not edit
from solver.model.rule_table import (
    DealerBonus as DealerBonus,
)
from solver.model.rule_table import (
    DealerNatural as DealerNatural,
)
from solver.model.rule_table import (
    NaturalBeats as NaturalBeats,
)

# end of what scripts/rules_code.py writes
from solver.model.rules import (
    Paytable as Paytable,
)
from solver.model.rules import (
    Rules as Rules,
)
from solver.present.plots import plot_chart as plot_chart
from solver.present.plots import plot_ev_by_true_count as plot_ev_by_true_count
from solver.present.plots import plot_session as plot_session
from solver.results.attack import AttackResult as AttackResult
from solver.results.betting import BetResult as BetResult
from solver.results.bonus import BonusAnalysis as BonusAnalysis
from solver.results.bonus import BonusResult as BonusResult
from solver.results.charts import Chart as Chart
from solver.results.charts import ChartCheck as ChartCheck
from solver.results.charts import ChartCosts as ChartCosts
from solver.results.commands import AdviseResult as AdviseResult
from solver.results.commands import CountResult as CountResult
from solver.results.commands import EorResult as EorResult
from solver.results.commands import GraphResult as GraphResult
from solver.results.commands import HoldResult as HoldResult
from solver.results.commands import HoldSeriesResult as HoldSeriesResult
from solver.results.commands import PaytableSearchResult as PaytableSearchResult
from solver.results.commands import PaytableSolveResult as PaytableSolveResult
from solver.results.commands import PracticePlayResult as PracticePlayResult
from solver.results.commands import PracticeStartResult as PracticeStartResult
from solver.results.commands import ReportResult as ReportResult
from solver.results.commands import SeatsResult as SeatsResult
from solver.results.commands import SimulateResult as SimulateResult
from solver.results.commands import SolveResult as SolveResult
from solver.results.commands import TablesResult as TablesResult
from solver.results.count_search import CountSearch as CountSearch
from solver.results.game import Advice as Advice
from solver.results.game import DealerResult as DealerResult
from solver.results.game import DecisionGraph as DecisionGraph
from solver.results.game import GameResult as GameResult
from solver.results.hold import HoldCheck as HoldCheck
from solver.results.hold import HoldSeries as HoldSeries
from solver.results.indices import IndicesResult as IndicesResult
from solver.results.kinds import Key as Key
from solver.results.kinds import Kind as Kind
from solver.results.kinds import Store as Store
from solver.results.paytable import PaySolution as PaySolution
from solver.results.paytable import SearchResult as SearchResult
from solver.results.paytable import Variants as Variants
from solver.results.practice import Drill as Drill
from solver.results.practice import Grade as Grade
from solver.results.practice import PracticeState as PracticeState
from solver.results.practice import Score as Score
from solver.results.practice import Settlement as Settlement
from solver.results.practice_state import PracticeTurn as PracticeTurn
from solver.results.protection import Counts as Counts
from solver.results.protection import EffectsOfRemoval as EffectsOfRemoval
from solver.results.protection import ShoeStates as ShoeStates
from solver.results.rules import RulesResult as RulesResult
from solver.results.run import Run as Run
from solver.results.seats import TableOfPlayers as TableOfPlayers
from solver.results.session import SessionResult as SessionResult
from solver.results.simulation import SimulationResult as SimulationResult
from solver.results.strategies import StrategiesResult as StrategiesResult
from solver.results.sweep import SweepResult as SweepResult
from solver.results.written import Written as Written
from solver.store.cache import CacheClearResult as CacheClearResult
from solver.store.disk import (
    Cache as Cache,
)
from solver.store.disk import (
    CacheCleared as CacheCleared,
)
from solver.store.disk import (
    CacheInfo as CacheInfo,
)
from solver.store.disk import (
    DiskCache as DiskCache,
)
from solver.store.memory import (
    MemoryCache as MemoryCache,
)

__all__: list[str]
__version__: str
