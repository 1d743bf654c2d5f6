"""The command table: every command of ``cbj`` and of :mod:`solver` as one row of data.

A :class:`Command` names its parameters from the catalogue
(:mod:`solver.model.catalogue`), the rules it takes as one group, its compute function
(in :mod:`solver.exact`, :mod:`solver.sim` or :mod:`solver.studies`), its result type,
how its result is shown and any files it writes.  From this table come the typed API
functions (:mod:`solver.api.functions`, written by ``python scripts/commands_code.py``),
every click command (:mod:`solver.cli.commands`), the workbench's forms, the command
guide's tables and the API's fuzz tests.  Adding a command is a row here, its parameters'
entries in the catalogue, its compute function, and ``python scripts/commands_code.py``.

Every reference to another layer is a name (``"solver.studies.game:bonus"``), so that
this table is cheap to import: ``cbj --help`` reads it and loads no command.

>>> [c.name for c in COMMANDS][:4]
['rules', 'bonus', 'solve', 'advise']
>>> COMMANDS_BY_NAME["paytable solve"].function
'paytable_solve'
"""

from __future__ import annotations

from typing import NamedTuple

from solver.model import catalogue as P
from solver.model.params import Param


class Command(NamedTuple):
    """One command: its parameters, its computation, its result and how it is shown."""

    name: str
    """The command's words (``paytable solve``); the API function is :attr:`function`."""
    summary: str
    """The one-line help ``cbj --help`` and ``cbj NAME --help`` print."""
    params: tuple[Param, ...]
    """Every parameter, in the order ``--help`` lists them (the rules' options first)."""
    compute: str
    """``module:function`` computing the result from the read parameters (and ``rules=``,
    ``run=`` when it takes them); its docstring is the API function's."""
    returns: str
    """The API function's result type, as written (names from :data:`TYPES`)."""
    rules: str = "rules"
    """The rules' options it takes: ``rules`` (every one), ``but-paytable`` (the CLI leaves
    ``--paytable`` to the command's own option), ``variants`` (several values of a rule
    with common values) or ``""`` (none)."""
    tables: str = ""
    """``module:function`` giving the tables a text format prints, from the result."""
    render: str = ""
    """``module:function(result, format)`` giving the output itself, text or bytes, where a
    command prints more than tables (a summary, a chart, a plot)."""
    cli_only: tuple[str, ...] = ()
    """Parameters the CLI has and the API function does not (``format``, ``output``)."""
    positional: tuple[str, ...] = ()
    """Parameters the API function takes by position too (a file written)."""
    write: str = ""
    """``module:function`` writing the files the command writes, where it writes any."""
    progress: str = ""
    """What the CLI's progress bar says (none when empty)."""
    cli: bool = True
    """Whether ``cbj`` has the command (a practice session's turns are the library's)."""
    api: bool = True
    """Whether :mod:`solver` has the command's function: a terminal session (``cbj
    practice``) is the CLI's own, played through the library's functions of other rows."""
    gives: str = ""
    """What a command without a function gives, in words (the command guide's column)."""
    extra_args: bool = False
    """The CLI takes the rest of a hand typed without quotes (``--hand 9 7``)."""
    required: tuple[str, ...] = ()
    """Parameters the CLI requires where the API function does not (a file to write)."""
    memory: bool = False
    """Without a cache, its solves are kept in memory (the latest few rule sets'), so that
    one call after another does not solve the same game again (a practice session's)."""

    @property
    def function(self) -> str:
        """The API function's name: the command's words joined by underscores."""
        return self.name.replace(" ", "_").replace("-", "_")

    @property
    def api_params(self) -> tuple[Param, ...]:
        """The parameters the API function takes, in its order."""
        return tuple(p for p in self.params if p.name not in self.cli_only)

    @property
    def run(self) -> tuple[str, ...]:
        """The run settings it takes (:data:`~solver.model.catalogue.RUN_SETTINGS`)."""
        return tuple(p.name for p in self.api_params if p.name in P.RUN_PARAMS)


#: The modules the table's result types and annotations name.
TYPES = {
    "AdviseResult": "solver.results.commands",
    "AttackResult": "solver.results.attack",
    "BetResult": "solver.results.betting",
    "BonusResult": "solver.results.bonus",
    "CacheClearResult": "solver.store.cache",
    "CacheInfo": "solver.store.disk",
    "Chart": "solver.results.charts",
    "ChartCheck": "solver.results.charts",
    "ChartCosts": "solver.results.charts",
    "CountResult": "solver.results.commands",
    "DealerResult": "solver.results.game",
    "EorResult": "solver.results.commands",
    "GameResult": "solver.results.game",
    "GraphResult": "solver.results.commands",
    "HoldResult": "solver.results.commands",
    "HoldSeriesResult": "solver.results.commands",
    "IndicesResult": "solver.results.indices",
    "PaytableSearchResult": "solver.results.commands",
    "PaytableSolveResult": "solver.results.commands",
    "PracticePlayResult": "solver.results.commands",
    "PracticeStartResult": "solver.results.commands",
    "ReportResult": "solver.results.commands",
    "RulesResult": "solver.results.rules",
    "SeatsResult": "solver.results.commands",
    "SessionResult": "solver.results.session",
    "ShoeStates": "solver.results.protection",
    "SimulateResult": "solver.results.commands",
    "SolveResult": "solver.results.commands",
    "StrategiesResult": "solver.results.strategies",
    "SweepResult": "solver.results.sweep",
    "TablesResult": "solver.results.commands",
    "Variants": "solver.results.paytable",
}

#: A printing command's output options: ``--format`` and, for a CSV, ``--comments``; the
#: CLI's own (the API returns the result, not its text).
PRINTED, OUT = (P.FORMAT, P.COMMENTS), ("format", "comments")
#: Options every command that solves the game shares: removed cards, exact, workers, cache.
SOLVING = (P.REMOVED, P.EXACT, P.SOLVE_JOBS, P.CACHE, *PRINTED)
#: The dealt-shoe study's options (``cbj indices``, ``bet``, ``attack``).
STUDY = (P.SAMPLES, P.STUDY_SEED, P.STUDY_PENETRATION, P.STUDY_JOBS, P.BACKEND, P.SCHEDULER,
         P.CACHE, *PRINTED, P.PROGRESS)  # fmt: skip
#: The commands that ``cbj`` groups under one word: the group's help.
GROUPS = {
    "paytable": "Design the Bonus paytable: solve a pay for a target edge, or search paytables.",
    "cache": "The disk cache of solved games: where it is, how big, and clearing it.",
}
#: Commands that live in another client (``cbj serve``, the web app's): module, name, help.
ELSEWHERE = {
    "serve": (
        "solver.web.command",
        "serve",
        "The designer's workbench: a local web app of every figure, live as you type.",
    ),
}

G, S = "solver.studies.game", "solver.studies.strategy"
COUNTING, DESIGN = "solver.studies.counting", "solver.studies.paytable"
# fmt: off
COMMANDS: tuple[Command, ...] = (
    Command("rules", "Print the rules in force, each with its default and meaning.",
            PRINTED, "solver.studies.rules:rules", "RulesResult",
            tables="solver.present.presets:rules_tables", cli_only=OUT),
    Command("bonus", "Exact return table of the Bonus wager.",
            (P.BONUS_REMOVED, P.SYMBOLIC, *PRINTED), f"{G}:bonus", "BonusResult",
            render="solver.present.game:bonus_text", cli_only=OUT),
    Command("solve", "Optimal play, the main wager's EV and the whole round's figures.",
            (*SOLVING, P.PROGRESS), f"{G}:solve", "SolveResult[Any]",
            render="solver.present.game:game_text", cli_only=OUT,
            progress="solving Bonus cards"),
    Command("advise", "Stand and hit values for one hand, and the optimal decision.",
            (P.BONUS_CARD, P.HAND, P.SEEN, P.ADVISE_EXACT, *PRINTED), f"{G}:advise",
            "AdviseResult[Any]", tables="solver.present.tables:advice_table", cli_only=OUT,
            extra_args=True),
    Command("dealer", "Exact distribution of the dealer's final result for each Bonus card.",
            (P.BONUS_VALUE, P.DEALER_REMOVED, *PRINTED), f"{S}:dealer", "DealerResult",
            tables="solver.present.game:dealer_tables", cli_only=OUT),
    Command("chart", "The best printable hit/stand chart and its cost against perfect play.",
            (P.CHART_FORMAT, P.COMMENTS, P.CHART_OUTPUT, P.CHART_CHECK, P.COSTS, P.CACHE),
            f"{S}:chart", "Chart", render="solver.present.charts:render",
            cli_only=("format", "output", "file", "costs", "comments")),
    Command("chart check", "Price a chart file against the best chart and perfect play.",
            (P.CHECK, P.CACHE), f"{S}:chart_check", "ChartCheck",
            tables="solver.present.chart_costs:check_table", cli=False),
    Command("chart costs", "The best chart with each cell's cost of playing it the other way.",
            (P.CACHE,), f"{S}:chart_costs", "ChartCosts",
            tables="solver.present.chart_costs:costs_table", cli=False),
    Command("tables", "Regenerate the strategy_tables/ collection: every variant in every format.",
            (P.OUTPUT_DIR, P.CACHE, P.PROGRESS), "", "TablesResult", rules="",
            positional=("output_dir",), write="solver.api.files:write_tables", progress="charts"),
    Command("strategies", "Exact EV, house edge and cost of realistic strategies; the Bonus "
            "ratio; volatility.", (P.NAMES, P.BONUS_RATIOS, P.SUITED_REMOVED, P.JOBS, P.CACHE,
            *PRINTED, P.PROGRESS), f"{S}:strategies", "StrategiesResult",
            tables="solver.present.strategies:strategies_tables", cli_only=OUT,
            progress="solving Bonus cards"),
    Command("session", "Exact distribution of the net result over a session, and the risk of "
            "ruin.", (P.SESSION_ROUNDS, P.BANKROLL, P.STRATEGY, P.METHOD, P.SUITED_REMOVED,
            P.JOBS, P.CACHE, P.SESSION_FORMAT, P.COMMENTS, P.OUTPUT, P.PROGRESS), f"{S}:session",
            "SessionResult", render="solver.present.session:render",
            cli_only=("format", "output", "comments"), progress="solving Bonus cards"),
    Command("hold", "Whether a table's win, or each day of a pit's, is within what the game "
            "allows.", (P.HOLD_ROUNDS, P.RESULT, P.HOLD, P.WIN_OVER_HANDLE, P.DROP,
            P.DROP_TO_HANDLE, P.HOLD_SEATS, P.MIX, P.DAILY, P.UNIT, P.SERIES_RATE, P.HOLD_METHOD,
            P.JOBS, P.CACHE, P.HOLD_FORMAT, P.COMMENTS, P.OUTPUT, P.PROGRESS), f"{S}:hold",
            "HoldResult", render="solver.present.hold:render",
            cli_only=("daily", "unit", "rounds_per_hour", "format", "comments", "output"),
            progress="solving Bonus cards"),
    Command("hold series", "A pit's daily results, each period and the whole run, against what "
            "the game allows.", (P.DAILY, P.DAILY_TEXT, P.HOLD_SEATS, P.MIX, P.UNIT,
            P.DROP_TO_HANDLE, P.SERIES_RATE, P.HOLD_METHOD, P.JOBS, P.CACHE, P.PROGRESS),
            f"{S}:hold_series", "HoldSeriesResult", render="solver.present.hold:render",
            progress="periods", cli=False),
    Command("seats", "The casino's hold per table-round and its SD for 1 to 7 seats at one "
            "table.", (P.SEAT_COUNTS, P.SEATS_ROUNDS, P.SEED, P.SEATS_STRATEGY, P.SIM_JOBS,
            P.CACHE, *PRINTED), "solver.studies.simulation:seats_command", "SeatsResult",
            tables="solver.present.seats:seats_table", cli_only=OUT),
    Command("simulate", "Monte Carlo simulation of whole rounds, independent of the exact "
            "solver.", (P.SIM_ROUNDS, P.SEED, P.SEATS, P.STRATEGY, P.SIM_PENETRATION,
            P.FRESH_SHOE, P.CSM, P.SIM_JOBS, P.SUITED_REMOVED, P.COUNTER, P.SIM_SPREAD, P.RAMP,
            P.WONG_OUT, P.MID_SHOE_ENTRY, P.SIM_INDICES, P.INDEX_SAMPLES, P.CACHE, *PRINTED,
            P.PROGRESS),
            "solver.studies.simulation:simulate_command", "SimulateResult",
            tables="solver.present.tables:simulation_tables", cli_only=OUT,
            progress="dealing"),
    Command("eor", "Effects of removal: each wager's EV change when one card of each rank "
            "leaves.", SOLVING, f"{COUNTING}:eor", "EorResult[Any]",
            tables="solver.present.protection:eor_tables", cli_only=OUT),
    Command("count", "Betting correlation and EV per true count of card counts for this game.",
            (P.TAGS, P.SYSTEM, P.REMOVED, P.COUNT_EXACT, *SOLVING[2:]), f"{COUNTING}:count",
            "CountResult", tables="solver.present.protection:count_table", cli_only=OUT),
    Command("shoe-states", "Random shoes dealt to each depth, each solved: EV spread, count "
            "fit, EOR estimate.", (P.DEPTHS, P.STATE_SAMPLES, P.STATES_SEED, P.STATES_SYSTEM,
            P.STATES_TAGS, P.STUDY_JOBS, P.STATES_BACKEND, P.STATES_SCHEDULER, P.CACHE,
            *PRINTED, P.PROGRESS), f"{COUNTING}:shoe_states", "ShoeStates",
            tables="solver.present.protection:shoe_states_tables", cli_only=OUT,
            progress="shoe states"),
    Command("indices", "Index plays: the true count at which each close call flips, and what "
            "it is worth.", (P.COUNT, *STUDY), f"{COUNTING}:indices", "IndicesResult",
            tables="solver.present.advantage:indices_tables", cli_only=OUT,
            progress="dealt shoes"),
    Command("bet", "Optimal betting: the Kelly ramp by true count, SCORE, DI, N0 and the "
            "bankroll.", (P.COUNT, P.SPREAD, P.BET_BANKROLL, P.KELLY_FRACTION,
            P.ROUNDS_PER_HOUR, P.TARGET_RUIN, P.BET_INDICES, *STUDY), f"{COUNTING}:bet",
            "BetResult", tables="solver.present.advantage:bet_tables", cli_only=OUT,
            progress="dealt shoes"),
    Command("attack", "Every attack a casino must consider, its bound, and what ends it.",
            (P.SPREAD, P.BONUS_MULTIPLE, P.ATTACK_COUNT, P.PATHS, P.ATTACK_ROUNDS, P.BUFFER,
             *STUDY), "solver.studies.attack:attack_command",
            "AttackResult",
            tables="solver.present.advantage:attack_tables", cli_only=OUT,
            progress="dealt shoes"),
    Command("sweep", "The edge against one rule or pay over a range: each wager's house edge, "
            "the round's edge and SD, as a table and a plot.", (P.VARY, P.SWEEP_FROM, P.SWEEP_TO,
            P.SWEEP_STEP, P.EXACT, P.SWEEP_JOBS, P.CACHE, *PRINTED, P.PLOT, P.PROGRESS),
            "solver.studies.sweep:sweep", "SweepResult", tables="solver.present.sweep:sweep_table",
            cli_only=(*OUT, "plot"), progress="solving values"),
    Command("paytable solve", "Solve exactly for one pay so that the house edge hits a target.",
            (P.SOLVE_FOR, P.SUITED_MATCH, P.RANK_MATCH, P.ADJACENT, P.PAYS,
             P.TARGET_BONUS_EDGE, P.TARGET_ROUND_EDGE, P.CACHE, *PRINTED),
            f"{DESIGN}:paytable_solve", "PaytableSolveResult",
            tables="solver.present.tables:pay_solution_table", cli_only=OUT),
    Command("paytable search", "List whole-unit paytables whose house edge lies in a band.",
            (P.MAX_PAY, P.ROUND_EDGE_RANGE, P.BONUS_EDGE_RANGE, P.TOP, P.TIERS, P.CACHE,
             *PRINTED), f"{DESIGN}:paytable_search", "PaytableSearchResult",
            rules="but-paytable",
            tables="solver.present.tables:search_table", cli_only=OUT),
    Command("variants", "Main EV, Bonus EV and round edge for every combination of the rules "
            "listed.", (P.VARIANTS_EXACT, P.PARALLEL_JOBS, P.CACHE, P.VARIANTS_FORMAT, P.COMMENTS,
            P.PROGRESS), f"{DESIGN}:variants", "Variants", rules="variants",
            tables="solver.present.tables:variants_table", cli_only=OUT,
            progress="variants"),
    Command("report", "A PAR-style math report of the game: HTML or PDF.",
            (P.PAYTABLES, P.REPORT_OUTPUT, P.REPORT_FORMAT, P.SHOE_SAMPLES, P.COUNTER_ROUNDS,
             P.PARALLEL_JOBS, P.CACHE, P.TABLE_ROUNDS, P.SIMULATION_ROUNDS, P.REPORT_STRATEGY,
             P.PREPARED_BY, P.PREPARED_FOR, P.REVISION_NOTE, P.TABLE_LIMITS, P.PROCEDURES,
             P.CORE_ONLY, P.PROGRESS),
            "solver.studies.report:report_figures", "ReportResult", rules="but-paytable",
            positional=("output",), write="solver.api.files:write_report", progress="report"),
    Command("graph", "The player's decision graph (hands, EVs, draws) for Gephi, yEd or "
            "Graphviz.", (P.BONUS_CARD, P.START_HAND, P.GRAPH_EXACT, P.GRAPH_OUTPUT),
            f"{S}:graph", "GraphResult", positional=("output",),
            write="solver.api.files:write_graph", extra_args=True, required=("output",)),
    Command("cache info", "Where the cache is, its size on disk and its number of entries.",
            (P.DIRECTORY, P.WARN, *PRINTED), "solver.store.cache:cache_info", "CacheInfo",
            rules="", tables="solver.present.tables:cache_table", cli_only=OUT,
            positional=("directory",)),
    Command("cache clear", "Delete every cached result.", (P.DIRECTORY, P.WARN),
            "solver.store.cache:cache_clear", "CacheClearResult", rules="",
            positional=("directory",)),
    Command("practice start", "Start a practice session: its first round dealt.",
            (P.PRACTICE_SEED, P.DRILL, P.PRACTICE_PENETRATION, P.PRACTICE_CHART, P.HISTORY,
             P.CACHE),
            "solver.studies.practice:practice_start", "PracticeStartResult", cli=False,
            memory=True),
    Command("practice play", "Play one decision of a practice session, or deal its next round.",
            (P.STATE, P.PLAY, P.CACHE), "solver.studies.practice:practice_play",
            "PracticePlayResult", rules="", positional=("state", "play"), cli=False,
            memory=True),
    Command("practice", "Practise the chart in the terminal: each hit or stand graded, with "
            "accuracy, streak and costs, the statistics kept across sessions.",
            (P.PRACTICE_SEED, P.DRILL, P.PRACTICE_PENETRATION, P.CHART_FILE, P.HISTORY_FILE,
             P.NO_HISTORY, P.CACHE), "solver.studies.practice:practice_start", "", api=False,
            gives="a session at the terminal; its statistics in the history file"),
)
# fmt: on

#: Every command by its words.
COMMANDS_BY_NAME: dict[str, Command] = {c.name: c for c in COMMANDS}
#: Every command by its API function's name.
COMMANDS_BY_FUNCTION: dict[str, Command] = {c.function: c for c in COMMANDS}
