"""The figure catalogue: every figure the project reports, as one row of data (STYLE.md point 1).

Each :class:`Figure` holds a figure's key (its name in JSON), the wager it belongs to and
the quantity it measures in plain words, its basis (what it is per), its sign convention,
the method that finds it and a one-sentence definition.  The labels and headers of the
CLI's tables, the report's grids, captions and Definitions section, the workbench's pages,
the CSV headers and ``docs/glossary.md`` come from :data:`FIGURES`; adding a figure is one
row here (``python scripts/glossary_doc.py`` then writes the glossary afresh).

A figure's label carries its basis wherever two figures share a label on different bases
(the round's EV per main unit and per unit wagered), so that no output can print one
number under a name another output uses for a different basis:

>>> heading("round_ev"), heading("round_ev_per_wagered"), heading("round_house_edge")
('round EV per main unit', 'round EV per unit wagered', 'round house edge')
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

#: The sign convention of every figure, stated once.
SIGN_CONVENTION = (
    "Expected values (EV), returns and net results are the player's: negative when the player "
    "loses. House edges and holds are the casino's: positive when the casino wins. So a house "
    "edge is minus the player's EV per unit wagered, and the return to player (RTP) is 100% "
    "minus the house edge."
)


class _Worded(Enum):
    """An enumeration whose values are (a few words for a label, a sentence's words)."""

    @property
    def short(self) -> str:
        """In a label: ``per main unit``, ``simulated``."""
        return str(self.value[0])

    @property
    def words(self) -> str:
        """In a definition: ``per unit staked on the main wager``."""
        return str(self.value[1])


class Basis(_Worded):
    """What a figure is per: its short words for labels, its long words for definitions."""

    MAIN_UNIT = ("per main unit", "per unit staked on the main wager")
    BONUS_UNIT = ("per Bonus unit", "per unit staked on the Bonus wager")
    TOTAL_WAGERED = (
        "per unit wagered",
        "per unit of the total wagered in a round (main wager plus Bonus wager)",
    )
    ROUND = ("per round", "in one round")
    HUNDRED_ROUNDS = ("per 100 rounds", "per 100 rounds played, in main-wager units")
    HUNDRED_DEALT = (
        "per 100 rounds dealt",
        "per 100 rounds dealt at the player's seat, played or sat out, in main-wager units",
    )
    HUNDRED_PLAYED = (
        "per 100 rounds played",
        "per 100 rounds the player has a wager on, in main-wager units",
    )
    HANDLE = (
        "over handle",
        "over the handle: every seat's main and Bonus wagers over the rounds (the house "
        "edge's basis)",
    )
    DROP = (
        "over drop",
        "over the drop: the cash and markers exchanged for chips at the table (what a "
        "casino's books call hold)",
    )
    SESSION = ("after n rounds", "over a session of n rounds, in main-wager units")
    TABLE_ROUND = (
        "per table-round",
        "per round of a whole table (every seat's wagers together), in main-wager units",
    )
    CARD = ("per card removed", "per card of one rank taken out of the full shoe")
    TRUE_COUNT = ("per true count", "per unit of true count, in main-wager units")
    CYCLE = ("out of the cycle", "out of the full cycle of equally likely deals")
    PAY = ("per unit of pay", "per unit added to one tier's pay, in percentage points")
    SHOE = ("per shoe", "over shoes dealt at random to a given depth")
    NONE = ("", "a pure number")


class Sign(Enum):
    """Whose view a figure's sign takes."""

    PLAYER = "the player's: positive when the player gains"
    HOUSE = "the casino's: positive when the casino wins"
    NONE = "none: a chance, a spread, a count or a test statistic"


class Method(_Worded):
    """How a figure is found: a few words for a label, a sentence for the glossary."""

    EXACT = ("exact", "exact: rational arithmetic over every deal")
    FLOAT = (
        "exact model, floating point",
        "the exact model in floating point (agreeing with the rational solve to 1e-12)",
    )
    CONVOLUTION = (
        "exact distribution",
        "the session's exact distribution: the round's exact return table convolved n times "
        "(by FFT beyond 20 rounds, every probability within a stated error bound)",
    )
    NORMAL = ("normal approximation", "a normal distribution of the exact mean and SD")
    LINEAR = ("linear estimate", "a linear estimate from the effects of removal")
    SIMULATION = ("simulated", "the independent simulator, its rounds and seed stated")


class Wager(Enum):
    """The wager a figure belongs to, in the words that open its label."""

    MAIN = "main wager"
    BONUS = "Bonus wager"
    ROUND = "round"
    TABLE = "table"
    NONE = ""


class Figure(NamedTuple):
    """One reported figure: everything every output says about it, as data."""

    key: str
    """Its name in JSON and in :data:`FIGURES_BY_KEY` (the workbench's ``data-figure`` is it
    with dashes)."""
    wager: Wager
    quantity: str
    """What it measures in plain words, without the wager (``house edge``)."""
    basis: Basis
    sign: Sign
    method: Method
    definition: str
    """One sentence a person reads in the report's Definitions and the glossary."""
    short: str = ""
    """The label in a narrow column or on a phone, if shorter than :attr:`label`."""
    percent: bool = False
    """Printed as a percentage (house edges, returns to player), everywhere."""

    @property
    def label(self) -> str:
        """The wager and the quantity: ``round house edge``."""
        if self.wager in (Wager.NONE, Wager.TABLE):
            return self.quantity
        wager = "round" if self.wager is Wager.ROUND else self.wager.value
        return f"{wager} {self.quantity}"


def _f(
    key: str,
    wager: Wager,
    quantity: str,
    basis: Basis,
    sign: Sign,
    method: Method,
    definition: str,
    short: str = "",
) -> Figure:
    percent = quantity in PERCENT_QUANTITIES or key in PERCENT_KEYS
    return Figure(key, wager, quantity, basis, sign, method, definition, short, percent)


#: Quantities (and other figures) printed as percentages.
PERCENT_QUANTITIES = frozenset({"house edge", "RTP", "element of risk"})
PERCENT_KEYS = frozenset(
    {
        "main_ev_by_bonus_card",
        "chart_ev",
        "chart_cost",
        "counter_house_edge",
        "positive_share",
        "exception_gain",
        "share_played",
        "win_over_handle",
        "casino_hold",
    }
)


M, B, R, T, N = Wager.MAIN, Wager.BONUS, Wager.ROUND, Wager.TABLE, Wager.NONE
P, H, Z = Sign.PLAYER, Sign.HOUSE, Sign.NONE
EXACT, FLOAT, SIM = Method.EXACT, Method.FLOAT, Method.SIMULATION

#: Every figure the project reports, wager by wager, then sessions, strategies, design,
#: protection and verification.
FIGURES: tuple[Figure, ...] = (
    # --- The main wager -------------------------------------------------------------------
    _f("main_ev", M, "EV", Basis.MAIN_UNIT, P, EXACT,
       "The player's expected net result of one unit staked on the main wager, under the "
       "play stated (composition-dependent optimal play unless said otherwise)."),
    _f("main_house_edge", M, "house edge", Basis.MAIN_UNIT, H, EXACT,
       "The casino's expected win per unit staked on the main wager, in %: minus the main "
       "wager EV; below zero when the player holds the edge on the main wager alone."),
    _f("main_rtp", M, "RTP", Basis.MAIN_UNIT, P, EXACT,
       "Return to player: what the main wager pays back on average per unit staked, in % "
       "(100% plus the main wager EV)."),
    _f("main_sd", M, "SD", Basis.MAIN_UNIT, Z, EXACT,
       "Standard deviation of the main wager's net result, in units of the main wager.",
       "main SD"),
    _f("main_variance", M, "variance", Basis.MAIN_UNIT, Z, EXACT,
       "Variance of the main wager's net result, in squared units of the main wager."),
    _f("main_hit_frequency", M, "hit frequency", Basis.ROUND, Z, EXACT,
       "The chance that the main wager wins (a blackjack or a win; a push not counted)."),
    _f("main_blackjack", M, "chance of a blackjack", Basis.ROUND, Z, EXACT,
       "The chance that the player's card and the Bonus card make 21, paid at once."),
    _f("main_win", M, "chance of a win", Basis.ROUND, Z, EXACT,
       "The chance that the main wager wins even money (a blackjack not counted)."),
    _f("main_push", M, "chance of a push", Basis.ROUND, Z, EXACT,
       "The chance that the main wager is a push: equal totals, the stake returned."),
    _f("main_loss", M, "chance of a loss", Basis.ROUND, Z, EXACT,
       "The chance that the main wager loses: a player bust, or a lower total."),
    _f("main_probability", M, "probability", Basis.ROUND, Z, EXACT,
       "The chance of one outcome of the main wager: a blackjack, a win, a push or a loss."),
    _f("main_return", M, "return", Basis.MAIN_UNIT, P, EXACT,
       "One outcome's share of the main wager EV: its probability times its net pay."),
    _f("main_ev_by_bonus_card", M, "EV by Bonus card", Basis.MAIN_UNIT, P, EXACT,
       "The main wager EV given the Bonus card dealt, in % of the main wager."),
    _f("main_combinations", M, "combinations", Basis.CYCLE, Z, EXACT,
       "How many of the main wager's equally likely cases end in an outcome: its "
       "probability times the cycle, the least common denominator of the probabilities."),
    # --- The Bonus wager -----------------------------------------------------------------
    _f("bonus_ev", B, "EV", Basis.BONUS_UNIT, P, EXACT,
       "The player's expected net result of one unit staked on the Bonus wager."),
    _f("bonus_house_edge", B, "house edge", Basis.BONUS_UNIT, H, EXACT,
       "The casino's expected win per unit staked on the Bonus wager, in %."),
    _f("bonus_rtp", B, "RTP", Basis.BONUS_UNIT, P, EXACT,
       "Return to player: what the Bonus wager pays back on average per unit staked, in % "
       "(100% minus its house edge)."),
    _f("bonus_sd", B, "SD", Basis.BONUS_UNIT, Z, EXACT,
       "Standard deviation of the Bonus wager's net result, in units of the Bonus wager.",
       "Bonus SD"),
    _f("bonus_variance", B, "variance", Basis.BONUS_UNIT, Z, EXACT,
       "Variance of the Bonus wager's net result, in squared units of the Bonus wager."),
    _f("bonus_hit_frequency", B, "hit frequency", Basis.ROUND, Z, EXACT,
       "The chance that the Bonus wager wins (any tier reached)."),
    _f("bonus_probability", B, "probability", Basis.ROUND, Z, EXACT,
       "The chance of one outcome of the Bonus wager: a tier reached, or a loss."),
    _f("bonus_combinations", B, "combinations", Basis.CYCLE, Z, EXACT,
       "How many ordered (player card, Bonus card) pairs of physical cards reach an outcome."),
    _f("bonus_return", B, "return", Basis.BONUS_UNIT, P, EXACT,
       "One outcome's share of the Bonus wager EV: its probability times its net pay."),
    # --- The whole round ----------------------------------------------------------------
    _f("round_wagered", R, "total wagered", Basis.MAIN_UNIT, Z, EXACT,
       "What a round stakes: one unit on the main wager plus the Bonus ratio on the Bonus."),
    _f("round_ev", R, "EV", Basis.MAIN_UNIT, P, EXACT,
       "The player's expected net result of a round (one unit on the main wager and the "
       "Bonus ratio on the Bonus wager), in main-wager units."),
    _f("round_ev_per_wagered", R, "EV", Basis.TOTAL_WAGERED, P, EXACT,
       "The round EV divided by the total wagered: minus the round's house edge."),
    _f("round_house_edge", R, "house edge", Basis.TOTAL_WAGERED, H, EXACT,
       "The casino's expected win per unit of the total wagered in a round, in %."),
    _f("round_rtp", R, "RTP", Basis.TOTAL_WAGERED, P, EXACT,
       "Return to player of the whole round: what the round pays back on average per unit of "
       "the total wagered, in % (100% minus the round's house edge)."),
    _f("round_sd", R, "SD", Basis.MAIN_UNIT, Z, EXACT,
       "Standard deviation of a round's net result, in main-wager units.", "round SD"),
    _f("round_variance", R, "variance", Basis.MAIN_UNIT, Z, EXACT,
       "Variance of a round's net result, in squared main-wager units."),
    _f("round_hit_frequency", R, "hit frequency", Basis.ROUND, Z, EXACT,
       "The chance that a round ends with a net gain for the player."),
    _f("round_net", R, "net", Basis.MAIN_UNIT, P, EXACT,
       "What a round's outcome pays the player, main and Bonus wagers together."),
    _f("round_probability", R, "probability", Basis.ROUND, Z, EXACT,
       "The chance of one (main outcome, Bonus outcome) pair in a round."),
    _f("round_combinations", R, "combinations", Basis.CYCLE, Z, EXACT,
       "How many of the round's equally likely cases end in an outcome pair."),
    _f("round_return", R, "return", Basis.MAIN_UNIT, P, EXACT,
       "One outcome pair's share of the round EV: its probability times its net."),
    _f("round_return_per_wagered", R, "return", Basis.TOTAL_WAGERED, P, EXACT,
       "One outcome pair's share of the round EV per unit of the total wagered."),
    _f("odds", N, "odds", Basis.ROUND, Z, EXACT,
       "A probability p said as \u201c1 in N\u201d, N = 1/p."),
    _f("true_odds", N, "true odds", Basis.ROUND, Z, EXACT,
       "The odds (1 \u2212 p) to p against an outcome of probability p; a wager whose pay is "
       "below the true odds of its outcome pays the casino its edge."),
    _f("top_award", N, "top award", Basis.NONE, P, EXACT,
       "The largest pay of a wager (the round's in main-wager units)."),
    _f("top_award_odds", N, "odds of the top award", Basis.ROUND, Z, EXACT,
       "The chance of a wager's largest pay, as \u201c1 in N\u201d."),
    _f("element_of_risk", R, "element of risk", Basis.TOTAL_WAGERED, H, EXACT,
       "The casino's expected win per unit of the total staked once every decision is made; "
       "this game adds no stake after the deal, so it equals the house edge."),
    # --- Sessions -------------------------------------------------------------------------
    _f("volatility_index", R, "volatility index", Basis.MAIN_UNIT, Z, EXACT,
       "The round SD times 1.6449, the z of a two-sided 90% normal interval."),
    _f("session_mean", N, "expected net result", Basis.SESSION, P, EXACT,
       "The player's expected net result after n rounds: n times the round EV."),
    _f("session_sd", N, "SD of the net result", Basis.SESSION, Z, EXACT,
       "The standard deviation of the net result after n rounds: \u221an times the round SD."),
    _f("session_range90", N, "90% range", Basis.SESSION, Z, Method.CONVOLUTION,
       "The net results from the 5% point to the 95% point of the session's distribution."),
    _f("session_range95", N, "95% range", Basis.SESSION, Z, Method.CONVOLUTION,
       "The net results from the 2.5% point to the 97.5% point of the session's distribution."),
    _f("session_ahead", N, "chance of being ahead", Basis.SESSION, Z, Method.CONVOLUTION,
       "The chance that the net result after n rounds is above zero."),
    _f("session_even", N, "chance of breaking even", Basis.SESSION, Z, Method.CONVOLUTION,
       "The chance that the net result after n rounds is exactly zero."),
    _f("session_behind", N, "chance of being behind", Basis.SESSION, Z, Method.CONVOLUTION,
       "The chance that the net result after n rounds is below zero."),
    _f("session_quantile", N, "point of the net result", Basis.SESSION, P, Method.CONVOLUTION,
       "The net result at a level q of the session's distribution: the smallest net x with a "
       "chance of at least q of finishing at x or below."),
    _f("largest_likely_loss", N, "largest likely loss", Basis.SESSION, H, Method.CONVOLUTION,
       "The loss exceeded with a chance below 1%: minus the 1% point, or 0."),
    _f("ruin_within", N, "chance of ruin within the session", Basis.SESSION, Z,
       Method.CONVOLUTION,
       "The chance that the running net result reaches minus the bankroll within n rounds."),
    _f("ruin_unlimited", N, "chance of ruin ever", Basis.SESSION, Z, Method.CONVOLUTION,
       "The chance that the running net result ever reaches minus the bankroll, rounds "
       "without end."),
    _f("session_normal", N, "normal approximation", Basis.SESSION, Z, Method.NORMAL,
       "The same session figure from a normal distribution of the exact mean and SD, shown "
       "beside the exact figure for comparison only."),
    # --- Strategies and the chart ---------------------------------------------------------
    _f("strategy_cost", M, "EV given up", Basis.MAIN_UNIT, H, EXACT,
       "What a strategy gives up against composition-dependent optimal play: the optimal "
       "main wager EV minus the strategy's (the round loses the same)."),
    _f("chart_ev", M, "EV with the chart", Basis.MAIN_UNIT, P, EXACT,
       "The main wager EV when every hand is played by the printed chart."),
    _f("chart_cost", M, "EV the chart gives up", Basis.MAIN_UNIT, H, EXACT,
       "The optimal main wager EV minus the chart's: what playing the chart costs per round."),
    _f("cell_cost", M, "cost of a cell played the other way", Basis.HUNDRED_ROUNDS, H, EXACT,
       "What playing one cell of the chart the other way costs, per 100 rounds, in main-wager "
       "units."),
    _f("exception_gain", M, "gain per round", Basis.MAIN_UNIT, P, EXACT,
       "What playing an exception's hands the other way adds to the main wager EV per round: "
       "how often they occur times the gain when they do."),
    # --- The dealer and the paytable ------------------------------------------------------
    _f("dealer_result", N, "chance of the dealer's result", Basis.ROUND, Z, EXACT,
       "The chance of each final dealer result (bust, 18 to 21, a natural) given the Bonus "
       "card, from the full shoe less that card."),
    _f("edge_per_pay", R, "house edge change", Basis.PAY, H, EXACT,
       "How much the round's house edge moves when one tier's pay rises by one unit."),
    _f("break_even_pay", N, "break-even pay", Basis.NONE, Z, EXACT,
       "The pay of one tier, the others unchanged, at which the round's house edge is 0."),
    _f("pay_solution", N, "pay for the target edge", Basis.NONE, Z, EXACT,
       "The exact pay of one tier that gives a target house edge."),
    # --- A table of players ------------------------------------------------------------------
    _f("bonus_hold", B, "hold", Basis.TABLE_ROUND, H, EXACT,
       "The casino's expected win on the Bonus wagers of a whole table per table-round."),
    _f("bonus_table_sd", B, "SD per table-round", Basis.TABLE_ROUND, Z, EXACT,
       "Standard deviation of the casino's result on a table's Bonus wagers per table-round."),
    _f("main_hold", M, "hold", Basis.TABLE_ROUND, H, SIM,
       "The casino's expected win on the main wagers of a whole table per table-round."),
    _f("main_table_sd", M, "SD per table-round", Basis.TABLE_ROUND, Z, SIM,
       "Standard deviation of the casino's result on a table's main wagers per table-round."),
    _f("round_hold", R, "hold", Basis.TABLE_ROUND, H, SIM,
       "The casino's expected win on a whole table's rounds per table-round."),
    _f("round_table_sd", R, "SD per table-round", Basis.TABLE_ROUND, Z, SIM,
       "Standard deviation of the casino's result on a whole table per table-round."),
    # --- Game protection ------------------------------------------------------------------
    _f("eor", N, "effect of removal", Basis.CARD, P, FLOAT,
       "The change in a wager's EV when one card of a rank leaves the full shoe (two full "
       "solves), per unit of that wager."),
    _f("betting_correlation", N, "betting correlation", Basis.NONE, Z, FLOAT,
       "The correlation over a deck's 52 cards between a count's tags and the EORs; 1 is "
       "perfect."),
    _f("ev_per_true_count", N, "EV gained", Basis.TRUE_COUNT, P, Method.LINEAR,
       "The linear estimate of the EV gained per unit of true count (the running count per "
       "deck left)."),
    _f("shoe_round_ev", R, "EV of a shoe", Basis.SHOE, P, FLOAT,
       "The round EV per main unit of a shoe dealt to a depth, under optimal play for the "
       "cards left: its mean, SD and percentiles over shoes."),
    _f("positive_share", N, "share of positive shoes", Basis.SHOE, Z, FLOAT,
       "The share of shoes dealt to a depth whose round EV is above zero."),
    _f("slope_per_true_count", R, "EV slope", Basis.TRUE_COUNT, P, FLOAT,
       "The least-squares slope of a shoe's round EV on its true count."),
    _f("r_squared", N, "R\u00b2", Basis.NONE, Z, FLOAT,
       "The share of the shoe EVs' variance the count explains."),
    _f("counter_win", N, "counter's win", Basis.HUNDRED_ROUNDS, P, SIM,
       "A simulated counter's net win per 100 rounds played, in main-wager units."),
    _f("average_bet", N, "average bet", Basis.MAIN_UNIT, Z, SIM,
       "A simulated counter's average main wager per round played, in main-wager units."),
    _f("counter_house_edge", N, "house edge against the counter", Basis.TOTAL_WAGERED, H, SIM,
       "The casino's win per unit of the counter's total wagered, in %."),
    _f("counter_sd", N, "SD per round", Basis.MAIN_UNIT, Z, SIM,
       "Standard deviation of a counter's net result per round played, in main-wager units."),
    _f("n0", N, "N0", Basis.NONE, Z, SIM,
       "Rounds a counter must play for the expected win to equal one standard deviation."),
    _f("attack_win_dealt", N, "win", Basis.HUNDRED_DEALT, P, FLOAT,
       "What an attack wins per 100 rounds dealt at its seat, the rounds it sits out counted "
       "as nothing: the figure that says whether the game can be beaten.", "win/100 dealt"),
    _f("attack_win_played", N, "win", Basis.HUNDRED_PLAYED, P, FLOAT,
       "What an attack wins per 100 rounds it has a wager on: its edge as the player sees "
       "it, larger than per round dealt when it sits rounds out.", "win/100 played"),
    _f("share_played", N, "share of rounds played", Basis.NONE, Z, FLOAT,
       "The share of the rounds dealt at its seat on which an attack has a wager, in %.",
       "played"),
    _f("bonus_ev_when_raised", B, "EV when raised", Basis.BONUS_UNIT, P, FLOAT,
       "The Bonus wager's mean EV per Bonus unit over the rounds an attack raises it (the "
       "player's: positive when raising gains)."),
    # --- The hold check --------------------------------------------------------------------
    _f("win_over_handle", T, "win over handle", Basis.HANDLE, H, Method.CONVOLUTION,
       "The casino's win over the handle (every seat's main and Bonus wagers), in %: the "
       "house edge's basis, which casinos rarely know."),
    _f("casino_hold", T, "hold (win over drop)", Basis.DROP, H, Method.CONVOLUTION,
       "The casino's win over the drop (the cash and markers exchanged for chips), in %: "
       "what a casino's books call hold; the drop is given, or a stated share of the handle."),
    _f("hold_tail", N, "tail probability", Basis.SESSION, Z, Method.CONVOLUTION,
       "The probability of a casino result at least as far from its expectation as the one "
       "observed, either side, from the exact distribution of the table-rounds."),
    _f("holm_tail", N, "tail after Holm's correction", Basis.SESSION, Z, Method.CONVOLUTION,
       "A period's tail probability adjusted for testing every period of the series (Holm's "
       "step-down): below 5% means outside the 95% band even so."),
    # --- Verification ---------------------------------------------------------------------
    _f("simulated_mean", N, "simulated mean", Basis.NONE, P, SIM,
       "The simulator's average net result per round of a wager, per unit of that wager."),
    _f("standard_error", N, "standard error", Basis.NONE, Z, SIM,
       "The standard deviation of a simulated mean: the per-round SD over \u221arounds."),
    _f("z_score", N, "z", Basis.NONE, Z, SIM,
       "The distance between a simulated mean and the exact value in standard errors; "
       "accepted when |z| is below 3."),
    _f("chi_square_p", N, "chi-square p", Basis.NONE, Z, SIM,
       "Pearson's chi-square test of simulated outcome counts against the exact "
       "probabilities: the chance of a larger statistic if the exact figures are right; "
       "accepted when p is at least 0.001."),
)  # fmt: skip

#: The figures measured of each wager, a row per quantity, the main wager's, the Bonus
#: wager's and the round's key in turn: the rows of every table that sets the wagers side by
#: side (the report's Summary, the workbench's Game page).
WAGER_FIGURES: tuple[tuple[str, str, str], ...] = (
    ("main_ev", "bonus_ev", "round_ev"),
    ("main_house_edge", "bonus_house_edge", "round_house_edge"),
    ("main_rtp", "bonus_rtp", "round_rtp"),
    ("main_hit_frequency", "bonus_hit_frequency", "round_hit_frequency"),
    ("main_sd", "bonus_sd", "round_sd"),
)

#: Each figure by its key.
FIGURES_BY_KEY: dict[str, Figure] = {f.key: f for f in FIGURES}

#: What a quantity measured of each wager means, whichever the wager: a table that lists
#: the quantity once (the report's Definitions) defines it so, each wager's basis beside.
QUANTITIES: dict[str, str] = {
    "EV": "The player's expected net result per unit of its basis (the play stated; "
    "composition-dependent optimal play unless said otherwise).",
    "house edge": "The casino's expected win per unit staked, in %: minus the player's EV on "
    "the same basis; below zero when the player holds the edge.",
    "RTP": "Return to player: what a wager pays back on average per unit staked, in % (100% "
    "minus its house edge).",
    "SD": "Standard deviation of the net result, in units of its basis.",
    "variance": "Variance of the net result, in squared units of its basis.",
    "hit frequency": "The chance of a net win (a push not counted).",
    "probability": "The chance of one outcome (the round's: one pair of main and Bonus outcomes).",
    "return": "One outcome's share of the EV: its probability times its net pay.",
    "combinations": "How many of the equally likely cases of the full cycle end in an outcome "
    "(the Bonus wager's: ordered pairs of physical cards).",
    "hold": "The casino's expected win on a whole table's wagers per table-round.",
    "SD per table-round": "Standard deviation of the casino's result on a whole table per "
    "table-round.",
}

#: A label shared by figures on different bases, so every one of them names its basis.
_SHARED_LABELS: frozenset[str] = frozenset(
    f.label for f in FIGURES if len({g.basis for g in FIGURES if g.label == f.label}) > 1
)


def figure(key: str) -> Figure:
    """The catalogue's figure called ``key`` (a ``KeyError`` names a key that is not there).

    >>> figure("bonus_house_edge").basis.short
    'per Bonus unit'
    """
    return FIGURES_BY_KEY[key]


def heading(key: str) -> str:
    """A figure's label as every output prints it: with its basis where another figure
    shares the label on another basis.

    >>> heading("main_ev"), heading("session_ahead")
    ('main wager EV', 'chance of being ahead')
    """
    f = FIGURES_BY_KEY[key]
    return f"{f.label} {f.basis.short}" if f.label in _SHARED_LABELS else f.label


def short_heading(key: str) -> str:
    """A figure's label for a narrow column: its short form, else :func:`heading`."""
    f = FIGURES_BY_KEY[key]
    return f.short or heading(key)


def quantity_heading(key: str) -> str:
    """A figure's quantity with its basis where shared, for a grid whose columns name the
    wager (``EV per main unit`` under "whole round")."""
    f = FIGURES_BY_KEY[key]
    return f"{f.quantity} {f.basis.short}" if f.label in _SHARED_LABELS else f.quantity


#: The outcomes of the wagers in the words every output prints (JSON keeps its names).
OUTCOME_WORDS: dict[str, str] = {
    "blackjack": "blackjack",
    "win": "win",
    "push": "push",
    "lose": "loss",
}


def outcome_words(name: str) -> str:
    """A wager's outcome in words: a main outcome, a Bonus tier (``suited_match``) or a loss.

    >>> outcome_words("lose"), outcome_words("suited_match"), outcome_words("push")
    ('loss', 'suited match', 'push')
    """
    return OUTCOME_WORDS.get(str(name), str(name).replace("_", " "))
