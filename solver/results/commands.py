"""Each command's result by the command's name: the names the command table gives them.

A command, its API function and its result share one word (``cbj hold`` →
``solver.hold`` → :data:`HoldResult`).  Where a result type was named before for what it
holds (``HoldCheck``, ``TableOfPlayers``), it keeps that name too; the name here is the
one the API's signatures and the docs use.

>>> HoldResult.__name__, SeatsResult.__name__
('HoldCheck', 'TableOfPlayers')
"""

from __future__ import annotations

from typing import TypeAlias

from solver.results.game import Advice, DecisionGraph, GameResult
from solver.results.hold import HoldCheck, HoldSeries
from solver.results.paytable import PaySolution, SearchResult
from solver.results.practice_state import PracticeTurn
from solver.results.protection import Counts, EffectsOfRemoval
from solver.results.seats import TableOfPlayers
from solver.results.simulation import SimulationResult
from solver.results.written import Written

SolveResult = GameResult
AdviseResult = Advice
HoldResult = HoldCheck
HoldSeriesResult = HoldSeries
SeatsResult = TableOfPlayers
SimulateResult = SimulationResult
EorResult = EffectsOfRemoval
CountResult = Counts
PaytableSolveResult = PaySolution
PaytableSearchResult = SearchResult
PracticeStartResult = PracticeTurn
PracticePlayResult = PracticeTurn
TablesResult = Written
GraphResult: TypeAlias = Written | DecisionGraph
ReportResult: TypeAlias = Written | str | bytes
