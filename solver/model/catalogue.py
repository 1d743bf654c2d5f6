"""The parameter catalogue: every parameter a command takes, once (STYLE.md point 1).

Each entry is a :class:`~solver.model.params.Param`: its kind, range, default, the one
reader of its value or its text, its help, its label and its messages.  The command table
(:mod:`solver.api.table`) names each command's parameters from here; the API reads its
keywords, the CLI makes its options and the workbench its fields from the same entries,
so one text is read one way everywhere.  The rules are not here: they are the rule
table's (:data:`~solver.model.rule_table.RULE_TABLE`), and a command takes them as one
group.  Where a command words a parameter its own way, :meth:`Param.but` says so.

>>> SESSION_ROUNDS.read("12,000"), TARGET_BONUS_EDGE.read("2.5%")
(12000, Fraction(1, 40))
>>> SEED.read("3/4")
Traceback (most recent call last):
...
solver.model.errors.SimulationError: seed '3/4' is not a whole number, e.g. 7
"""

from __future__ import annotations

import re
from fractions import Fraction

from solver.model.cards import Card, parse_cards
from solver.model.checks import MAX_ROUNDS, MAX_SEED
from solver.model.counts import parse_ramp, parse_spread, parse_tags, spread_pair
from solver.model.daily import checked_text
from solver.model.errors import (
    CountError,
    DesignError,
    OutputError,
    PracticeError,
    ReportError,
    SessionError,
    ShoeError,
    SimulationError,
)
from solver.model.outcomes import DEFAULT_ROUND_BAND, POLICY_NAMES, parse_mix, strategy_name
from solver.model.parallel import check_jobs
from solver.model.params import (
    Kind,
    Param,
    as_given,
    cards_of,
    carried,
    having,
    mapping_of,
    of_kinds,
    sequence_of,
)
from solver.model.paytable import (
    MAX_SEARCH_PAY,
    MAX_TOP,
    parse_tiers,
)
from solver.model.readers import (
    edge_reader,
    read_band,
    read_card,
    read_hand,
    read_paytables,
    read_player,
    read_practice_chart,
    read_system,
    read_target,
    read_tier,
)
from solver.model.rule_table import RULES_BY_NAME
from solver.model.shuffles import DEFAULT_BUFFER, MAX_BUFFER

# --- Limits and defaults that several layers share ------------------------------------------

#: The longest session, in rounds; the largest bankroll, in main units.
MAX_SESSION_ROUNDS = 100_000
MAX_BANKROLL = 10**12
#: The largest casino result the hold check reads, in main units either way.
MOST_UNITS = 10**12
#: Most samples per depth (about 10^9 states: far beyond a day on a large cluster).
MAX_SAMPLES = 10**9
#: Shoes the report deals for the indices, the Kelly ramp and the bound, per shoe sample.
DEALT_PER_SAMPLE = 4
#: Shoes dealt and solved when no size is given (about 70 ms each for 6 decks).
SAMPLES_DEFAULT = 2000
#: Table-rounds simulated for each number of seats when the caller does not say.
SEATS_ROUNDS_DEFAULT = 200_000
#: The report's study sizes unless asked otherwise: shoes solved per depth, rounds per
#: simulated counter, table-rounds per number of seats, rounds of the cross-check.
#: The longest run the hold check reads, in table-rounds.
MAX_HOLD_ROUNDS = 10**9
SHOE_SAMPLES_DEFAULT = 50
COUNTER_ROUNDS_DEFAULT = 2_000_000
TABLE_ROUNDS_DEFAULT = 50_000
SIMULATION_ROUNDS_DEFAULT = 10_000_000
#: How a hand may be written, for the help and for the error of a word that is no card.
HAND_FORMS = "--hand '9 7', --hand 9,7, --hand 9 7 or --hand 97 (suits optional: 9h 7s)"
#: What ``--strategy`` takes, for its help: every command that plays a strategy says the same.
STRATEGY_HELP = (
    "optimal, chart, chart:FILE (a chart file, as cbj chart --format csv or json writes it), "
    "stand-on:K (stand once the best total reaches K), never-bust, mimic-dealer or "
    "always-stand."
)

# --- The entries ------------------------------------------------------------------------------
# A table of data, laid out by hand: one entry per parameter, its wording for a command
# beside it (``.but``).
# fmt: off
W, N, T, C = Kind.WHOLE, Kind.NUMBER, Kind.TEXT, Kind.CHOICE
F, P, V = Kind.FLAG, Kind.PATH, Kind.VALUE

# Cards and hands.
REMOVED = Param("removed", T, "Cards already out of the shoe (with suits).", default=(),
                parse=parse_cards, value=cards_of("removed"), takes="Cards", example="As 10h")
SEEN = REMOVED.but(name="seen", help="Other cards known to be out of the shoe.",
                   value=cards_of("seen"))
BONUS_CARD = Param("bonus", T, "The Bonus card, e.g. 7 or 7h.", required=True, parse=read_card,
                   value=of_kinds("bonus", "a Card or str", Card), takes="Card | str", example="7")
HAND = Param("hand", T, f"The player's own cards: {HAND_FORMS}.", required=True,
             parse=parse_cards, value=cards_of("hand"), takes="Cards", example="9 7")
#: The hand a decision graph starts from (every first card when not given).
START_HAND = HAND.but(help=f"Start from these own cards: {HAND_FORMS} (default: all).",
                      required=False, default=(), parse=read_hand)
#: ``cbj dealer``'s Bonus card: a value, or ``all`` (read by the dealer's table).
BONUS_VALUE = Param("bonus", T, "Bonus card value A, 2..10, or 'all' for one row per value.",
                    default="all", value=of_kinds("bonus", "str or int", int), takes="str | int",
                    shown_default="all")

# How the game is computed, and the run settings (:data:`RUN_PARAMS`).
EXACT = Param("exact", F, "Exact fractions (slower) instead of floats.", default=False,
              label="Exact fractions (an exact solve: a few seconds for new rules)")
SYMBOLIC = Param("symbolic", F, "Also print the EV as an expression of the pays.", default=False)
JOBS = Param("jobs", W, "Worker processes for the exact solve.", default=1, example="2",
             check=check_jobs, shown_default="1")
BACKEND = Param("backend", C, "Solve the shoes here or on a Dask cluster.", default="local",
                choices=("local", "dask"), shown_default="local")
SCHEDULER = Param("scheduler", T, "The Dask scheduler (default: $DASK_SCHEDULER_ADDRESS).")
CACHE = Param("cache", V, "Solve afresh instead of using the disk cache.", flag="--no-cache",
              value=having("cache", "a Store (with fetch) or None", "fetch"), takes="Store | None")
PROGRESS = Param("progress", V, "", flag="-", takes="ProgressCallback | bool | None",
                 value=having("progress", "a function, True, False or None", either=True))

# Strategies.
STRATEGY = Param("strategy", T, STRATEGY_HELP, default="optimal", label="The players' strategy",
                 parse=strategy_name, example="stand-on:17", shown_default="optimal")
NAMES = Param("names", T, "Policies to evaluate, separated by commas; chart:FILE plays a chart "
              "file (docs/charts.md).", default=POLICY_NAMES,
              value=sequence_of("names", "str", str), takes="Sequence[str] | str",
              flag="--strategies", shown_default=",".join(POLICY_NAMES))
BONUS_RATIOS = Param("bonus_ratios", T, "Bonus ratios (each at least 1/2) at which to show "
                     "optimal play's round.", default="1/2,3/4,1,3/2,2",
                     value=sequence_of("bonus_ratios", "Fraction, int or str", Fraction, int, str),
                     takes="Sequence[Fraction | int | str] | str",
                     shown_default="1/2,3/4,1,3/2,2")
METHOD = Param("method", C, "exact fractions (up to 100 rounds), floats by FFT with an error "
               "bound, or auto (exact up to 20 rounds).", default="auto", label="Method",
               choices=("auto", "exact", "fft"), error=SessionError, shown_default="auto")
HOLD_METHOD = METHOD.but(help="exact fractions, floats by FFT with an error bound (to 10^8 "
                         "rounds), the saddlepoint tail (from 10^4 rounds), or auto (exact to 20 "
                         "rounds, FFT to 10^6, saddlepoint beyond).",
                         choices=("auto", "exact", "fft", "saddlepoint"))

# Sessions and the hold check.
SESSION_ROUNDS = Param("rounds", W, "Rounds in the session (1 to 100,000).", required=True,
                       low=1, high=MAX_SESSION_ROUNDS, error=SessionError, example="10,000",
                       label="Rounds")
HOLD_ROUNDS = SESSION_ROUNDS.but(help="Table-rounds dealt (1 to 10^9); not with --from.",
                                 label="Table-rounds dealt", high=MAX_HOLD_ROUNDS, required=False,
                                 example="100,000", hint="Table-rounds, 1 to 1,000,000,000.")
BANKROLL = Param("bankroll", N, "Units of the main wager you can lose: adds the probability of "
                 "ruin, e.g. 100.", low=0, high=MAX_BANKROLL, open=(True, False),
                 limits="use a positive number of units up to 1,000,000,000,000, e.g. 100, 12.5 "
                 "or 25/2", error=SessionError, example="100", metavar="TEXT")
#: A share or an amount the hold check reads itself (its messages, :mod:`solver.exact.hold`).
_SHARE = of_kinds("hold", "a number or its text", int, Fraction, float, str)
HOLD = Param("hold", T, "The casino's hold, its win over the drop: 12%, 0.12 or 3/25.",
             takes="Fraction | float | str", value=_SHARE, label="Observed hold", example="12%",
             hint="The casino's win over the drop (the chips bought): 12%, 0.12 or 3/25.")
RESULT = Param("result", T, "The casino's win in main units, e.g. 250.", label="or win",
               takes="Fraction | int | str", value=of_kinds("result", "a number or its text", int,
               Fraction, str), hint="The casino's win in main units, e.g. 250 or -12.5.",
               example="250")
WIN_OVER_HANDLE = HOLD.but(name="win_over_handle", help="Or its win over the handle (all wagers): "
                           "2.5%.", value=of_kinds("win_over_handle", "a number or its text", int,
                           Fraction, float, str), label="or win over handle", example="2.5%",
                           hint="The casino's win over every wager made: 2.5%.")
DROP = Param("drop", T, "The table's drop over the rounds, in main units.", label="Drop",
             example="5,000", hint="The chips bought at the table over the rounds, in main "
             "units (a hold needs it, or a drop-to-handle ratio).")
DROP_TO_HANDLE = Param("drop_to_handle", T, "Or the drop as a share of the handle, e.g. 0.2 (one "
                       "chip bought per five wagered).", label="or drop-to-handle ratio",
                       example="0.2", hint="The drop as a share of everything wagered, e.g. "
                       "0.2.")
HOLD_SEATS = Param("seats", W, "Seats at the table (1 to 7).", default=1, low=1, high=7,
                   error=SimulationError, label="Seats", example="3", shown_default="1",
                   hint="Seats sharing the dealer and the Bonus card.")
MIX = Param("strategy", T, "What the players played: one strategy (optimal, chart, chart:FILE, "
            "stand-on:K, never-bust, mimic-dealer, always-stand) or a mix, '10% optimal, 60% "
            "chart, 30% mimic-dealer'.", default="optimal", shown_default="optimal",
            label="The players' strategy, or a mix", example="10% optimal, 90% chart",
            files="solver.api.chart_file:mix", check=lambda text: parse_mix(text) and text,
            hint="One strategy for every seat, or shares "
            "adding to 100%: '10% optimal, 60% chart, 30% mimic-dealer'.")
DAILY = Param("daily", P, "A daily file (CSV: date, rounds or hours, win, drop): check every "
              "period.", flag="--from", metavar="FILE", files="solver.api.reading:daily_text")
DAILY_TEXT = Param("text", T, "", flag="-", label="Daily results",
                   example="date,rounds,win,drop\n2026-01-01,1800,4200,30000",
                   check=checked_text,
                   hint="Or check each day: CSV of date, rounds (or hours), win and drop, typed "
                   "or read from a file, at most 4,000 characters (cbj hold --from takes longer "
                   "files).")
UNIT = Param("unit", T, "With --from: the money a main unit stands for (the file's amounts are "
             "money).", default="1", shown_default="1", label="Money per main unit",
             example="25", hint="The money one main unit stands for: the daily amounts are money.")

# The simulator.
SIM_ROUNDS = Param("rounds", W, "Rounds to deal.", required=True, low=1, high=MAX_ROUNDS,
                   error=SimulationError, example="1,000,000")
SEED = Param("seed", W, "Seed; the same seed gives the same result.", low=0, high=MAX_SEED,
             limits="use 0 to 2**128 - 1", error=SimulationError, example="7")
SEATS = Param("seats", W, "Players sharing Bonus card and dealer.", default=1, low=1,
              error=SimulationError, example="3", shown_default="1")
CSM = Param("csm", W, "Deal from a continuous shuffler whose tray holds this many cards (e.g. "
            "20): each round's cards go back in before the next.", low=0, high=MAX_BUFFER,
            error=SimulationError, example="20", words="a shuffler's tray")
MID_SHOE_ENTRY = Param("mid_shoe_entry", F, "The counter sits down only at a shuffle, and leaves "
                       "until the next once the true count falls below --wong-out.", default=True,
                       flag="--no-mid-shoe-entry")
SIM_PENETRATION = Param("penetration", N, "Share of the shoe dealt before a reshuffle, in "
                        "(0, 1].  [default: 0.75]", low=0, high=1, open=(True, False),
                        limits="give a share of the shoe in (0, 1]", as_float=True,
                        error=SimulationError, example="0.75")
FRESH_SHOE = Param("fresh_shoe", F, "Shuffle a fresh shoe for every round.", default=False)
COUNTER = Param("counter", T, "Seat a card counter at seat 1 using this count: hi-lo, ko, "
                "hi-opt-i, omega-ii, best-level-1..3, or tags 'A=-1,2=1,...,T=-1'.",
                value=mapping_of("counter", "str to int", str),
                takes="str | Mapping[str, int]")
SPREAD = Param("spread", T, "Smallest-largest bet in units.", default="1-8", parse=parse_spread,
               value=spread_pair, takes="str | tuple[int, int]",
               example="1-8", shown_default="1-8")
SIM_SPREAD = SPREAD.but(help="The counter's smallest and largest bet.  [default: 1-8]",
                        default=None, shown_default="")
RAMP = Param("ramp", T, "The counter's bets by true count, 'TC:UNITS,...' (bet UNITS from TC "
             "up).  [default: the smallest bet, then one unit more per true count from 2]",
             parse=parse_ramp, value=sequence_of("ramp", "(true count, units) pairs", tuple),
             takes="str | Sequence[tuple[float, int]]")
WONG_OUT = Param("wong_out", N, "The counter sits out below this true count.", low=-100,
                 high=100, limits="use a true count from -100 to 100", as_float=True,
                 error=CountError, words="wong-out true count", metavar="TEXT", example="-1")
SIM_INDICES = Param("indices", F, "The counter also plays its count's index plays (with "
                    "--strategy chart).", default=False)
SEAT_COUNTS = Param("seats", T, "Numbers of players at the table, 1 to 7: a range, a list or "
                    "both, e.g. 1-7 or 1,3,5.", default="1-7", shown_default="1-7",
                    value=sequence_of("seats", "int", int), takes="Sequence[int] | str")
SEATS_ROUNDS = SIM_ROUNDS.but(help="Table-rounds simulated for each number of seats.",
                              required=False, shown_default=f"{SEATS_ROUNDS_DEFAULT}")

# Studies of dealt shoes, counts and bets.
SAMPLES = Param("samples", W, "Shoes dealt at random depths and solved.", low=2, high=MAX_SAMPLES,
                default=SAMPLES_DEFAULT, error=ShoeError, example="2,000",
                shown_default=f"{SAMPLES_DEFAULT}")
INDEX_SAMPLES = SAMPLES.but(name="index_samples", help="Shoes dealt and solved to find the index "
                            "plays (as cbj indices).")
STATE_SAMPLES = SAMPLES.but(help="Random shoes dealt to each depth.", default=None,
                            required=True, shown_default="")
STUDY_SEED = SEED.but(help="Seed of the deal.", default=39, error=ShoeError, shown_default="39")
STATES_SEED = SEED.but(help="Seed; a fresh one is reported if not given.", error=ShoeError)
STUDY_PENETRATION = Param("penetration", N, "Share of the shoe dealt before the cut card.",
                          default=0.83, low=0, high=1, open=(True, True), as_float=True,
                          limits="give a share strictly between 0 and 1", error=ShoeError,
                          example="0.83", shown_default="0.83")
COUNT = Param("count", T, "The count: best-level-1..5 (betting), best-playing-1..2 (index "
              "plays), hi-lo, ko, hi-opt-i, omega-ii or tags 'A=-1,...'.", default="best-level-2",
              shown_default="best-level-2")
ATTACK_COUNT = COUNT.but(help="The practical counter's count (its Kelly ramp and index plays): "
                         "best-level-1..5, best-playing-1..2, hi-lo, ko, hi-opt-i, omega-ii or "
                         "tags 'A=-1,...'.")
BET_BANKROLL = Param("bankroll", N, "Bankroll in units the Kelly bets are sized to.",
                     default=1000.0, low=0, high=10**12, open=(True, False), as_float=True,
                     limits="give a positive number of units", error=CountError,
                     words="Kelly bankroll", shown_default="1000.0", example="1000")
KELLY_FRACTION = Param("kelly_fraction", N, "Share of the full Kelly bet, e.g. 0.5.", default=1.0,
                       low=0, high=1, open=(True, False),
                       limits="give a share above 0 and at most 1",
                       as_float=True, error=CountError, words="Kelly fraction",
                       shown_default="1.0", example="0.5")
ROUNDS_PER_HOUR = Param("rounds_per_hour", W, "", default=100, low=1, high=10_000,
                        error=CountError, example="100", shown_default="100")
TARGET_RUIN = Param("target_ruin", N, "Risk of ruin the bankroll figure is for.", default=0.05,
                    low=0, high=1, open=(True, True),
                    limits="give a share strictly between 0 and 1",
                    as_float=True, error=CountError, words="target risk of ruin",
                    shown_default="0.05", example="0.05")
BET_INDICES = SIM_INDICES.but(help="The counter also plays its count's index plays.")
BONUS_MULTIPLE = Param("bonus_multiple", N, "The most the Bonus wager is raised to, times the "
                       "main wager; default 2, or twice the rules' Bonus ratio if more (at most "
                       "100).", low=0, high=10**6, error=CountError, words="Bonus multiple",
                       metavar="TEXT", example="2")
PATHS = Param("paths", W, "Whole shoes dealt round by round and solved, for the bound with no "
              "mid-shoe entry.", default=40, low=0, high=10_000, error=CountError,
              shown_default="40", example="40")
ATTACK_ROUNDS = Param("rounds", W, "Rounds of each simulated counter (no mid-shoe entry; under a "
                      "shuffler).", default=2_000_000, low=1, high=MAX_ROUNDS, error=CountError,
                      shown_default="2000000", example="2,000,000")
BUFFER = CSM.but(name="buffer", help="The continuous shuffler's tray, in cards.",
                 default=DEFAULT_BUFFER, shown_default=str(DEFAULT_BUFFER))
DEPTHS = Param("depths", T, "Shares of the shoe dealt, each between 0 and 1, separated by "
               "commas; default 0.25,0.5,0.75,0.83, those that leave half a deck.",
               takes="str | Sequence[float | str]",
               value=sequence_of("depths", "float or str", float, str))
SYSTEM = Param("system", T, "A published count: hi-lo, ko, hi-opt-i, omega-ii.", parse=read_system)
TAGS = Param("tags", T, "A tag per rank, e.g. 'A=-1,2=1,...,9=0,T=-1'.", parse=parse_tags,
             value=mapping_of("tags", "ranks to tags", parse_tags), takes="str | Mapping[str, int]")

# Designing the paytable.
SOLVE_FOR = Param("solve_for", T, "The tier whose pay is solved for: any tier of --paytable, "
                  "e.g. rank_match or suited-adjacent (docs/designer.md).", required=True,
                  value=read_tier, takes="Tier | str",
                  label="Solve for the pay of", hint="The other pays are the paytable's above.")
SUITED_MATCH, RANK_MATCH, ADJACENT = (
    Param(name, T, f"Pay of the {name.replace('_', ' ')} tier to 1 (default: from --paytable).",
          value=of_kinds(name, "a number or its text", int, Fraction), takes="Fraction | int | str")
    for name in ("suited_match", "rank_match", "adjacent")
)
PAYS = Param("pays", V, "", value=mapping_of("pays", "tier names to pays", as_given), flag="-",
             takes="Mapping[str, Fraction | int | str] | None")
TARGET_BONUS_EDGE = Param("target_bonus_edge", T, "Bonus wager house edge, e.g. 0.05, 1/20, 5%.",
                          parse=read_target, value=edge_reader("target_bonus_edge", "target"),
                          takes="Fraction | str", error=DesignError,
                          label="Target house edge", example="2%",
                          hint="A decimal (0.02), a fraction (1/50) or a percentage (2%).")
TARGET_ROUND_EDGE = TARGET_BONUS_EDGE.but(name="target_round_edge", help="Round house edge per "
                                          "total wagered, e.g. 2%.",
                                          value=edge_reader("target_round_edge", "target"))
ROUND_EDGE_RANGE = Param("round_edge_range", T, "Band LO:HI of the round house edge (default "
                         f"{DEFAULT_ROUND_BAND} if no band).", parse=read_band, error=DesignError,
                         label="House edge band", example=DEFAULT_ROUND_BAND,
                         hint="LO:HI, e.g. 1%:2%.")
BONUS_EDGE_RANGE = ROUND_EDGE_RANGE.but(name="bonus_edge_range",
                                        help="Band LO:HI of the Bonus house edge.")
MAX_PAY = Param("max_pay", W, "Highest pay to try, to 1.", default=50, low=1, high=MAX_SEARCH_PAY,
                error=DesignError, label="Largest pay", example="50", shown_default="50")
TOP = Param("top", W, "Paytables to list.", default=10, low=1, high=MAX_TOP, error=DesignError,
            label="Paytables to list", example="10", shown_default="10")
TIERS = Param("tiers", T, "Tiers to pay, best first, e.g. suited-match,rank-match,"
              "suited-adjacent,adjacent (default: suited-match,rank-match,adjacent; "
              "docs/designer.md).", parse=parse_tiers, value=parse_tiers,
              takes="str | Sequence[Tier | str]", label="Tiers to pay",
              example="suited-match,rank-match,adjacent")

# Files.
OUTPUT = Param("output", P, "Write to this file instead of stdout (- is stdout).",
               flag="-o/--output", metavar="FILE")
OUTPUT_DIR = Param("output_dir", P, "Folder to (re)write: new, empty, or a collection already; "
                   "it is replaced whole.", default="strategy_tables", metavar="TEXT",
                   shown_default="strategy_tables")
DIRECTORY = Param("directory", P, "", flag="-")
WARN = Param("warn", V, "", value=having("warn", "a function or None"), flag="-",
             takes="Callable[[str], None] | None")
CHECK = Param("file", P, "Price the chart in FILE (CSV or JSON as cbj chart writes): its EV, its "
              "cost, and each cell that differs from the best chart.", required=True,
              flag="--check", metavar="FILE")
COSTS = Param("costs", F, "The best chart with each cell's cost per 100 rounds of playing it the "
              "other way.", default=False)

# The report.
SHOE_SAMPLES, COUNTER_ROUNDS, TABLE_ROUNDS, SIMULATION_ROUNDS = (
    Param(name, W, f"{words}  [default: {default}]", low=low, high=high, error=ReportError,
          example=f"{default:,}", label=label, hint=hint)
    for name, words, low, high, default, label, hint in (
        ("shoe_samples", "Game protection: its size, 4 dealt shoes (and 1/25 of a whole "
         "shoe) a sample", 2, MAX_SAMPLES // DEALT_PER_SAMPLE,
         SHOE_SAMPLES_DEFAULT, "Shoe samples",
         "Game protection: 4 dealt shoes, 1/25 of a whole shoe, each."),
        ("counter_rounds", "Game protection: rounds dealt to each simulated counter", 1,
         MAX_ROUNDS, COUNTER_ROUNDS_DEFAULT, "Counter rounds",
         "Rounds per simulated card counter."),
        ("table_rounds", "A table of players: table-rounds dealt for each number of seats", 1,
         MAX_ROUNDS, TABLE_ROUNDS_DEFAULT, "Table rounds",
         "Simulated table-rounds per number of seats."),
        ("simulation_rounds", "Simulation cross-check: rounds dealt, with a fresh shoe and with "
         "a cut card", 1, MAX_ROUNDS, SIMULATION_ROUNDS_DEFAULT, "Simulation rounds",
         "Rounds of the simulator's cross-check."),
    )
)
PREPARED_BY, PREPARED_FOR, REVISION_NOTE, TABLE_LIMITS, PROCEDURES = (
    Param(name, T, words, default="", label=label)
    for name, label, words in (
        ("prepared_by", "Prepared by", "Title block: who prepared the report."),
        ("prepared_for", "Prepared for", "Title block: whom the report is for."),
        ("revision_note", "Revision note", "Title block: what this revision changed."),
        ("table_limits", "Table limits", "The game's table limits, stated when given."),
        ("procedures", "Procedures", "The game's procedures, stated when given."),
    )
)
CORE_ONLY = Param("core_only", F, "Write the core alone, without the annexes.", default=False,
                  label="The core alone (leave out the annexes)")
PAYTABLES = Param("paytables", T, f"{RULES_BY_NAME['paytable'].help} Repeat to compare "
                  "paytables, lettered A, B, ... in order  [default: 15:4:1]", default=(),
                  parse=lambda text: read_paytables(re.split(r"[\s;]+", text.strip())),
                  value=read_paytables, example="e.g. 20:5:1 12:4:1", label="More paytables",
                  takes="Sequence[Paytable | str]",
                  flag="--paytable", multiple=True, hint="Set beside the rules' own paytable (A) "
                  "as B, C, ...; separate them with spaces.")
REPORT_FORMAT = Param("format", C, "Output format  [default: from -o's extension, else html]",
                      choices=("html", "pdf"), error=OutputError, label="Format", example="html",
                      hint="HTML (phone and print) or PDF.")
REPORT_STRATEGY = STRATEGY.but(help="The player's strategy, set beside perfect play, the printed "
                               "chart and mimicking the dealer, and played in the volatility "
                               f"section: {STRATEGY_HELP}", value=read_player,
                               takes="str | PlayerStrategy", label="The player's strategy")

# Sensitivity (``cbj sweep``): one rule or pay over a range.
_SWEEP_NUMBER = "Fraction | float | int | str"
VARY = Param("vary", T, "The rule or pay to vary: decks, bonus-ratio, blackjack-pays, "
             "dealer-stands-on, or a tier of the paytable in force (suited-match, rank-match, "
             "adjacent, ...).", required=True, label="Vary", example="suited-match",
             error=DesignError, hint="The rule or pay set to each value of the range; every "
             "other rule stays as the game sets it.")
SWEEP_FROM = Param("start", T, "The first value, e.g. 10, 1.5 or 3:2.", required=True,
                   flag="--from", metavar="NUMBER", label="From", example="10",
                   value=of_kinds("start", "a number or its text", int, Fraction, float),
                   takes=_SWEEP_NUMBER)
SWEEP_TO = SWEEP_FROM.but(name="stop", help="The last value (always solved).", flag="--to",
                          label="To", example="30",
                          value=of_kinds("stop", "a number or its text", int, Fraction, float))
SWEEP_STEP = SWEEP_FROM.but(name="step", help="The step between values  [default: 1 for a "
                            "whole-number rule, else a tenth of the range]", flag="",
                            required=False, label="Step", example="5",
                            value=of_kinds("step", "a number or its text", int, Fraction, float))
SWEEP_JOBS = JOBS.but(help="Worker processes solving the values, -1 for all cores; same results.")
PLOT = Param("plot", P, "Also write the plot to FILE: .png, .svg, or .html (the table and the "
             "plot on one page).  [default: no plot written]", metavar="FILE", error=OutputError)

# Practice.
DRILL = Param("drill", C, "Which hands a session deals: every hand as dealt, hard or soft "
              "totals only, the costliest plausible mistakes, close calls, or the player's own "
              "mistakes as their reviews fall due.", default="dealt", label="Drill",
              choices=("dealt", "hard", "soft", "costly", "close", "mistakes"),
              error=PracticeError, hint="Which hands are dealt: all of them as the shoe deals "
              "them, one kind of total, the cells where a plausible mistake costs most (as "
              "often as it costs), the closest calls, or your own mistakes again when due.")
PRACTICE_SEED = SEED.but(help="Seed of the session's shoe: the same seed deals the same "
                         "session.", error=PracticeError, label="Seed", hint="The same seed and "
                         "the same decisions deal the same cards again.")
PRACTICE_PENETRATION = Param("penetration", N, "Share of the shoe dealt before a reshuffle: "
                             "0.75, 3/4 or 75%.", low=Fraction(1, 10), high=1, label="Penetration",
                             limits="deal from 0.1 to 1 of the shoe before a reshuffle",
                             error=PracticeError, example="75%", hint="The share of the shoe "
                             "dealt before it is reshuffled: 0.75, 3/4 or 75%.")
PRACTICE_CHART = Param("chart", V, "The chart learned: a file as cbj chart writes it (default: "
                       "the printed best chart).", value=read_practice_chart,
                       hint="A chart file as cbj chart writes it (CSV or JSON, edited as you "
                       "like), to learn instead of the printed chart. It is read in this page "
                       "and sent with each play; the server keeps nothing.",
                       takes="str | Path | ChartGrid | None")
HISTORY = Param("history", V, "", value=carried("history", "PracticeHistory", "schedule"),
                takes="PracticeHistory | Mapping[str, Any]")
STATE = Param("state", V, "", required=True, value=carried("state", "PracticeState", "setup"),
              takes="PracticeState | Mapping[str, Any]")
PLAY = Param("play", C, "", required=True, choices=("hit", "stand", "deal"), error=PracticeError)
CHART_FILE = PRACTICE_CHART.but(metavar="FILE", help="The chart to learn: a file as cbj chart "
                               "writes it, CSV or JSON  [default: the printed best chart]")
HISTORY_FILE = Param("history_file", P, "Keep your statistics in FILE  [default: "
                     "practice-history.json in your data folder, said as the session starts]",
                     flag="--history", metavar="FILE", error=PracticeError)
NO_HISTORY = Param("no_history", F, "Keep no statistics: write no file.", default=False)
# fmt: on

# How one command words a parameter of another's (the same entry, its own help).
# fmt: off
SOLVE_JOBS = JOBS.but(help="Workers sharing the Bonus card values: threads for floats, processes "
                      "for --exact.")
STUDY_JOBS = JOBS.but(help="Local worker processes, -1 for all cores; same results.")
SIM_JOBS = JOBS.but(help="Worker processes, -1 for all cores; results do not depend on it.")
PARALLEL_JOBS = JOBS.but(help="Parallel workers.")
BONUS_REMOVED = REMOVED.but(help="Cards already out of the shoe, e.g. 'As 10h Kd'.")
DEALER_REMOVED = REMOVED.but(help="Cards already out of the shoe (suits optional).")
SUITED_REMOVED = REMOVED.but(help="Cards out of the shoe, with suits, e.g. 'As 10h'.")
ADVISE_EXACT = EXACT.but(help="Exact fractions instead of floats.")
COUNT_EXACT = EXACT.but(help="Exact EORs and slopes (slower) instead of floats.")
VARIANTS_EXACT = EXACT.but(help="Exact main-wager EVs (slower) instead of floats.")
GRAPH_EXACT = EXACT.but(help="Exact fractions as extra attributes (slower).")
SERIES_RATE = ROUNDS_PER_HOUR.but(help="With --from and an hours column: table-rounds per "
                                  "table-hour.", default=60, shown_default="60",
                                  error=SessionError, label="Rounds per table-hour",
                                  hint="Table-rounds an hour of play deals, for hours columns.")
SEATS_STRATEGY = STRATEGY.but(help=f"What every seat plays: {STRATEGY_HELP}")
STATES_SYSTEM = SYSTEM.but(help="Count for the true count: hi-lo (default), ko, ...")
STATES_TAGS = TAGS.but(help="A tag per rank instead, e.g. 'A=-1,2=1,...,T=-1'.")
STATES_BACKEND = BACKEND.but(help="Solve the shoes here, or on a Dask cluster (pip install "
                             "'community-blackjack[dask]').")
STATES_SCHEDULER = SCHEDULER.but(help="The Dask scheduler, e.g. tcp://10.0.0.5:8786 (default: "
                                 "$DASK_SCHEDULER_ADDRESS).")
CHART_OUTPUT = OUTPUT.but(help="Write to this file instead of stdout (format from its extension; "
                          "- is stdout).")
CHART_CHECK = CHECK.but(required=False)
REPORT_OUTPUT = OUTPUT.but(help="Write to this file, .html or .pdf (default, or -: HTML on "
                           "stdout).")
GRAPH_OUTPUT = OUTPUT.but(help="File to write: .graphml, .gexf or .dot (or a picture: .svg, .png, "
                          ".pdf); - writes GraphML to stdout.")
# fmt: on

# The workbench's server (``cbj serve``, the web app's own command).
# fmt: off
HOST = Param("host", T, "Address to listen on.", default="127.0.0.1", shown_default="127.0.0.1")
PORT = Param("port", W, "Port to listen on.", default=8021, low=1, high=65_535, example="8021",
             shown_default="8021")
OPEN = Param("open", F, "Open the workbench in a browser.", default=False)
WARM_UP = Param("warm_up", F, "Solve the default game, its chart and its costs and draw the chart "
                "in the background from the start, before anyone asks.", default=True)
MEMORY_MB = Param("memory_mb", W, "The server's memory cap: solved games and built files are kept "
                  "within it, the least recently used dropped first.", default=1024, low=256,
                  high=1_048_576, words="memory MB", example="1024", shown_default="1024")
# fmt: on

# Output formats (the CLI's ``--format``; the report's is an API keyword too).  A format's
# example is the one printed when neither ``--format`` nor ``-o``'s extension names one.
# fmt: off
FORMAT = Param("format", C, "Output format.", default="table", choices=("table", "json", "csv",
               "md"), error=OutputError, shown_default="table", example="table")
SESSION_FORMAT = FORMAT.but(help="Output format: text, or a plot of the distribution (png, svg, "
                            "html)  [default: from -o's extension, else table]", default=None,
                            choices=("table", "csv", "json", "md", "png", "svg", "html"),
                            shown_default="")
HOLD_FORMAT = SESSION_FORMAT.but(help="Output format: text; with --from also the control chart "
                                 "(png, pdf, svg, html)  [default: from -o's extension, else "
                                 "table]", choices=("table", "json", "csv", "md", "png", "pdf",
                                 "svg", "html"))
VARIANTS_FORMAT = FORMAT.but(choices=("table", "csv", "json", "md"))
CHART_FORMAT = FORMAT.but(help="Output format  [default: from -o's extension, else md; table "
                          "for --check, --costs]", default=None, shown_default="", example="md",
                          choices=("csv", "json", "md", "html", "pdf", "svg", "png", "table"))
COMMENTS = Param("comments", F, "CSV: each table's title and notes as # lines before the data.",
                 default=False)
# fmt: on

#: Every entry, in the order above.
CATALOGUE: tuple[Param, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, Param))
#: The run settings: the :class:`~solver.results.kinds.Run` a computation is handed.
RUN_PARAMS: dict[str, Param] = {p.name: p for p in (JOBS, BACKEND, SCHEDULER, CACHE, PROGRESS)}
