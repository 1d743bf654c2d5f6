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

from solver.results.figure_fields import (
    COUNT_FORMAT,
    EXACT,
    FLOAT,
    ODDS_FORMAT,
    PERCENT_FORMAT,
    PROBABILITY_FORMAT,
    QUANTITIES,
    RANGE_FORMAT,
    SD_FORMAT,
    SIGN_CONVENTION,
    SIGNED_PERCENT,
    SIM,
    SMALL_PERCENT,
    UNITS_FORMAT,
    B,
    Basis,
    Figure,
    H,
    M,
    Method,
    N,
    NumberFormat,
    P,
    R,
    Sign,
    Style,
    T,
    Wager,
    Z,
    _dec,
    _f,
    outcome_words,
)
from solver.results.practice_figures import PRACTICE_FIGURES

__all__ = [
    "FIGURES",
    "FIGURES_BY_KEY",
    "QUANTITIES",
    "SIGN_CONVENTION",
    "STAKE_FIGURES",
    "WAGER_FIGURES",
    "Basis",
    "Figure",
    "Method",
    "NumberFormat",
    "Sign",
    "Style",
    "Wager",
    "figure",
    "heading",
    "outcome_words",
    "quantity_heading",
    "short_heading",
]

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
       "The chance that the player's card and the Bonus card make 21, paid at once.",
       json_key="blackjack"),
    _f("main_win", M, "chance of a win", Basis.ROUND, Z, EXACT,
       "The chance that the main wager wins even money (a blackjack not counted).",
       json_key="win"),
    _f("main_push", M, "chance of a push", Basis.ROUND, Z, EXACT,
       "The chance that the main wager is a push: equal totals, the stake returned.",
       json_key="push"),
    _f("main_loss", M, "chance of a loss", Basis.ROUND, Z, EXACT,
       "The chance that the main wager loses: a player bust, or a lower total.",
       json_key="loss"),
    _f("main_probability", M, "probability", Basis.ROUND, Z, EXACT,
       "The chance of one outcome of the main wager: a blackjack, a win, a push or a loss.",
       json_key="probability"),
    _f("main_return", M, "return", Basis.MAIN_UNIT, P, EXACT,
       "One outcome's share of the main wager EV: its probability times its net pay.",
       json_key="return"),
    _f("main_ev_by_bonus_card", M, "EV by Bonus card", Basis.MAIN_UNIT, P, EXACT,
       "The main wager EV given the Bonus card dealt, in % of the main wager.",
       fmt=NumberFormat(Style.PERCENT, 2, plus=True), json_key="by_bonus_card"),
    _f("main_combinations", M, "combinations", Basis.CYCLE, Z, EXACT,
       "How many of the main wager's equally likely cases end in an outcome: its "
       "probability times the cycle, the least common denominator of the probabilities.",
       fmt=COUNT_FORMAT, json_key="combinations"),
    _f("main_stake", M, "stake", Basis.MAIN_UNIT, Z, EXACT,
       "What the main wager stakes: one unit, the unit of every main-unit figure.",
       fmt=NumberFormat(Style.FRACTION)),
    _f("main_top_award", M, "top award", Basis.MAIN_UNIT, P, EXACT,
       "The main wager's largest net pay per unit staked: a blackjack's.", fmt=_dec(2, True)),
    _f("main_top_award_odds", M, "odds of the top award", Basis.ROUND, Z, EXACT,
       "The chance of the main wager's largest pay, as \u201c1 in N\u201d.", fmt=ODDS_FORMAT),
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
       "The chance of one outcome of the Bonus wager: a tier reached, or a loss.",
       json_key="probability"),
    _f("bonus_combinations", B, "combinations", Basis.CYCLE, Z, EXACT,
       "How many ordered (player card, Bonus card) pairs of physical cards reach an outcome.",
       fmt=COUNT_FORMAT, json_key="combinations"),
    _f("bonus_return", B, "return", Basis.BONUS_UNIT, P, EXACT,
       "One outcome's share of the Bonus wager EV: its probability times its net pay.",
       json_key="return"),
    _f("bonus_stake", B, "stake", Basis.MAIN_UNIT, Z, EXACT,
       "What the Bonus wager stakes per unit on the main wager: the Bonus ratio.",
       fmt=NumberFormat(Style.FRACTION), json_key="bonus_ratio"),
    _f("bonus_top_award", B, "top award", Basis.BONUS_UNIT, P, EXACT,
       "The Bonus wager's largest net pay per unit staked: its best tier's.", fmt=_dec(2, True)),
    _f("bonus_top_award_odds", B, "odds of the top award", Basis.ROUND, Z, EXACT,
       "The chance of the Bonus wager's largest pay, as \u201c1 in N\u201d.", fmt=ODDS_FORMAT),
    # --- The whole round ----------------------------------------------------------------
    _f("round_wagered", R, "stake", Basis.MAIN_UNIT, Z, EXACT,
       "What a round stakes: one unit on the main wager plus the Bonus ratio on the Bonus, "
       "the total wagered.", fmt=NumberFormat(Style.FRACTION), json_key="wagered"),
    _f("round_ev", R, "EV", Basis.MAIN_UNIT, P, EXACT,
       "The player's expected net result of a round (one unit on the main wager and the "
       "Bonus ratio on the Bonus wager), in main-wager units.", json_key="round_ev"),
    _f("round_ev_per_wagered", R, "EV", Basis.TOTAL_WAGERED, P, EXACT,
       "The round EV divided by the total wagered: minus the round's house edge.",
       json_key="round_ev_per_wagered"),
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
       "What a round's outcome pays the player, main and Bonus wagers together.",
       fmt=_dec(2, True), json_key="net"),
    _f("round_probability", R, "probability", Basis.ROUND, Z, EXACT,
       "The chance of one (main outcome, Bonus outcome) pair in a round.",
       json_key="probability"),
    _f("round_combinations", R, "combinations", Basis.CYCLE, Z, EXACT,
       "How many of the round's equally likely cases end in an outcome pair.",
       fmt=COUNT_FORMAT, json_key="combinations"),
    _f("round_return", R, "return", Basis.MAIN_UNIT, P, EXACT,
       "One outcome pair's share of the round EV: its probability times its net.",
       json_key="return"),
    _f("round_return_per_wagered", R, "return", Basis.TOTAL_WAGERED, P, EXACT,
       "One outcome pair's share of the round EV per unit of the total wagered.",
       json_key="return_per_wagered"),
    _f("round_top_award", R, "top award", Basis.MAIN_UNIT, P, EXACT,
       "The round's largest net result in main-wager units: the best main outcome with the "
       "best Bonus tier.", fmt=_dec(2, True)),
    _f("round_top_award_odds", R, "odds of the top award", Basis.ROUND, Z, EXACT,
       "The chance of the round's largest net result, as \u201c1 in N\u201d.", fmt=ODDS_FORMAT),
    _f("odds", N, "odds", Basis.ROUND, Z, EXACT,
       "A probability p said as \u201c1 in N\u201d, N = 1/p.", fmt=ODDS_FORMAT),
    _f("true_odds", N, "true odds", Basis.ROUND, Z, EXACT,
       "The odds (1 \u2212 p) to p against an outcome of probability p; a wager whose pay is "
       "below the true odds of its outcome pays the casino its edge.",
       fmt=NumberFormat(Style.TO_ONE, 2)),
    _f("element_of_risk", R, "element of risk", Basis.TOTAL_WAGERED, H, EXACT,
       "The casino's expected win per unit of the total staked once every decision is made; "
       "this game adds no stake after the deal, so it equals the house edge."),
    # --- Sessions -------------------------------------------------------------------------
    _f("volatility_index", R, "volatility index", Basis.MAIN_UNIT, Z, EXACT,
       "The round SD times 1.6449, the z of a two-sided 90% normal interval.",
       fmt=SD_FORMAT, json_key="index"),
    _f("session_mean", N, "expected net result", Basis.SESSION, P, EXACT,
       "The player's expected net result after n rounds: n times the round EV.",
       fmt=UNITS_FORMAT, json_key="mean"),
    _f("session_sd", N, "SD of the net result", Basis.SESSION, Z, EXACT,
       "The standard deviation of the net result after n rounds: \u221an times the round SD.",
       fmt=_dec(2), json_key="sd"),
    _f("session_range90", N, "90% range", Basis.SESSION, Z, Method.CONVOLUTION,
       "The net results from the 5% point to the 95% point of the session's distribution, "
       "to the places of its lattice (half units when the Bonus ratio is 1/2).",
       fmt=RANGE_FORMAT, json_key="range90"),
    _f("session_range95", N, "95% range", Basis.SESSION, Z, Method.CONVOLUTION,
       "The net results from the 2.5% point to the 97.5% point of the session's "
       "distribution, to the places of its lattice.", fmt=RANGE_FORMAT, json_key="range95"),
    _f("session_ahead", N, "chance of being ahead", Basis.SESSION, Z, Method.CONVOLUTION,
       "The chance that the net result after n rounds is above zero.",
       json_key="probability_ahead"),
    _f("session_even", N, "chance of breaking even", Basis.SESSION, Z, Method.CONVOLUTION,
       "The chance that the net result after n rounds is exactly zero.",
       json_key="probability_even"),
    _f("session_behind", N, "chance of being behind", Basis.SESSION, Z, Method.CONVOLUTION,
       "The chance that the net result after n rounds is below zero.",
       json_key="probability_behind"),
    _f("session_quantile", N, "point of the net result", Basis.SESSION, P, Method.CONVOLUTION,
       "The net result at a level q of the session's distribution: the smallest net x with a "
       "chance of at least q of finishing at x or below.", fmt=RANGE_FORMAT,
       json_key="quantiles"),
    _f("largest_likely_loss", N, "largest likely loss", Basis.SESSION, H, Method.CONVOLUTION,
       "The loss exceeded with a chance below 1%: minus the 1% point, or 0.", fmt=_dec(1)),
    _f("ruin_within", N, "chance of ruin within the session", Basis.SESSION, Z,
       Method.CONVOLUTION,
       "The chance that the running net result reaches minus the bankroll within n rounds."),
    _f("ruin_unlimited", N, "chance of ruin ever", Basis.SESSION, Z, Method.CONVOLUTION,
       "The chance that the running net result ever reaches minus the bankroll, rounds "
       "without end."),
    _f("session_normal", N, "normal approximation", Basis.SESSION, Z, Method.NORMAL,
       "The same session figure from a normal distribution of the exact mean and SD, shown "
       "beside the exact figure for comparison only, in that figure's format.",
       json_key="normal"),
    _f("session_probability", N, "chance of this net", Basis.SESSION, Z, Method.CONVOLUTION,
       "The chance of one net result after n rounds.", json_key="probability"),
    _f("session_cumulative", N, "chance of this net or less", Basis.SESSION, Z,
       Method.CONVOLUTION, "The chance that the net result after n rounds is at most this one."),
    # --- Strategies and the chart ---------------------------------------------------------
    _f("strategy_cost", M, "EV given up", Basis.MAIN_UNIT, H, EXACT,
       "What a strategy gives up against composition-dependent optimal play: the optimal "
       "main wager EV minus the strategy's (the round loses the same).", json_key="cost"),
    _f("chart_ev", M, "EV with the chart", Basis.MAIN_UNIT, P, EXACT,
       "The main wager EV when every hand is played by the printed chart.",
       fmt=SIGNED_PERCENT, json_key="expected_value"),
    _f("chart_cost", M, "EV the chart gives up", Basis.MAIN_UNIT, H, EXACT,
       "The optimal main wager EV minus the chart's: what playing the chart costs per round.",
       fmt=SMALL_PERCENT, json_key="cost"),
    _f("cell_cost", M, "cost of a cell played the other way", Basis.HUNDRED_ROUNDS, H, EXACT,
       "What playing one cell of the chart the other way costs, per 100 rounds, in main-wager "
       "units.", "cost per 100 rounds", fmt=_dec(3), json_key="per_100_rounds"),
    _f("exception_frequency", M, "how often an exception occurs", Basis.ROUND, Z, EXACT,
       "How often a round reaches one of an exception cell's hands when the chart is played, "
       "as \u201c1 in N\u201d.", "how often", fmt=ODDS_FORMAT, json_key="frequency"),
    _f("exception_gain_when", M, "gain when an exception occurs", Basis.MAIN_UNIT, P, EXACT,
       "What playing an exception's hands the other way adds to the main wager EV when one "
       "of them is held.", "gain when it occurs", fmt=SMALL_PERCENT, json_key="gain"),
    _f("exception_gain", M, "gain per round", Basis.MAIN_UNIT, P, EXACT,
       "What playing an exception's hands the other way adds to the main wager EV per round: "
       "how often they occur times the gain when they do.", "gain per round",
       fmt=SMALL_PERCENT, json_key="gain_per_round"),
    _f("hand_ev", M, "EV of the choice", Basis.MAIN_UNIT, P, EXACT,
       "The main wager EV of one hand if the player makes this choice and plays on "
       "optimally.", "expected value"),
    _f("start_probability", N, "chance of the starting pair", Basis.ROUND, Z, EXACT,
       "The chance that a round starts with this player card and Bonus card.",
       json_key="probability"),
    _f("start_ev", M, "EV of the starting pair", Basis.MAIN_UNIT, P, EXACT,
       "The main wager EV of a round that starts with this player card and Bonus card, "
       "played optimally.", json_key="expected_value"),
    *PRACTICE_FIGURES,
    # --- The dealer and the paytable ------------------------------------------------------
    _f("dealer_result", N, "chance of the dealer's result", Basis.ROUND, Z, EXACT,
       "The chance of each final dealer result (bust, 18 to 21, a natural) given the Bonus "
       "card, from the full shoe less that card; overall, averaged over the Bonus card."),
    _f("edge_per_pay", R, "house edge change", Basis.PAY, H, EXACT,
       "How much the round's house edge moves when one tier's pay rises by one unit, in "
       "percentage points.", fmt=_dec(4, True), json_key="slope"),
    _f("break_even_pay", N, "break-even pay", Basis.NONE, Z, EXACT,
       "The pay of one tier, the others unchanged, at which the round's house edge is 0.",
       fmt=NumberFormat(Style.TO_ONE, 4)),
    _f("pay_solution", N, "pay for the target edge", Basis.NONE, Z, EXACT,
       "The exact pay of one tier that gives a target house edge, or a whole pay beside it.",
       "pay", fmt=NumberFormat(Style.FRACTION), json_key="pay"),
    # --- A table of players ------------------------------------------------------------------
    _f("bonus_hold", B, "hold", Basis.TABLE_ROUND, H, EXACT,
       "The casino's expected win on the Bonus wagers of a whole table per table-round.",
       fmt=_dec(3, True), json_key="hold"),
    _f("bonus_table_sd", B, "SD per table-round", Basis.TABLE_ROUND, Z, EXACT,
       "Standard deviation of the casino's result on a table's Bonus wagers per table-round.",
       json_key="sd"),
    _f("bonus_hold_simulated", B, "hold, simulated", Basis.TABLE_ROUND, H, SIM,
       "The simulated casino's win on a table's Bonus wagers per table-round, beside the "
       "exact hold as a check.", fmt=_dec(3, True), json_key="simulated"),
    _f("main_hold", M, "hold", Basis.TABLE_ROUND, H, SIM,
       "The casino's expected win on the main wagers of a whole table per table-round.",
       fmt=_dec(3, True), json_key="hold"),
    _f("main_table_sd", M, "SD per table-round", Basis.TABLE_ROUND, Z, SIM,
       "Standard deviation of the casino's result on a table's main wagers per table-round.",
       json_key="sd"),
    _f("round_hold", R, "hold", Basis.TABLE_ROUND, H, SIM,
       "The casino's expected win on a whole table's rounds per table-round.",
       fmt=_dec(3, True), json_key="hold"),
    _f("round_table_sd", R, "SD per table-round", Basis.TABLE_ROUND, Z, SIM,
       "Standard deviation of the casino's result on a whole table per table-round.",
       json_key="sd"),
    # --- A casino's hold --------------------------------------------------------------------
    _f("casino_win", N, "casino win", Basis.SESSION, H, EXACT,
       "The casino's net win over a table's rounds, in main-wager units: the players' loss.",
       fmt=_dec(2, True)),
    # --- Game protection ------------------------------------------------------------------
    _f("eor_main", M, "effect of removal", Basis.CARD, P, FLOAT,
       "The change in the main wager EV (optimal play re-optimised for the shoe left) when "
       "one card of a rank leaves the full shoe: two full solves, times 10,000.",
       "main wager EOR", fmt=_dec(2, True, 10_000), json_key="main"),
    _f("eor_main_chart", M, "effect of removal with the chart", Basis.CARD, P, FLOAT,
       "The same for the main wager played by the full shoe's printed chart, times 10,000.",
       "main wager EOR, chart", fmt=_dec(2, True, 10_000), json_key="main_chart"),
    _f("eor_bonus", B, "effect of removal", Basis.CARD, P, FLOAT,
       "The change in the Bonus wager EV per Bonus unit when one card of a rank leaves the "
       "full shoe, times 10,000.", "Bonus wager EOR", fmt=_dec(2, True, 10_000),
       json_key="bonus"),
    _f("eor_round", R, "effect of removal", Basis.CARD, P, FLOAT,
       "The change in the round EV per main unit (the main wager's plus the Bonus ratio "
       "times the Bonus wager's) when one card of a rank leaves the full shoe, times 10,000.",
       "round EOR", fmt=_dec(2, True, 10_000), json_key="round"),
    _f("deck_linear_estimate", N, "linear estimate of a deck's removal", Basis.MAIN_UNIT, P,
       Method.LINEAR, "The sum of the effects of removal of the 52 cards of one deck.",
       "linear estimate", json_key="linear_estimate"),
    _f("deck_exact_change", N, "exact change on a deck's removal", Basis.MAIN_UNIT, P, FLOAT,
       "The EV change when one whole deck leaves the shoe: two full solves.", "exact change",
       json_key="exact_change"),
    _f("deck_estimate_error", N, "exact change less the linear estimate", Basis.MAIN_UNIT, P,
       FLOAT, "What the effects of removal miss of a whole deck's removal: the effect of a "
       "smaller shoe.", "exact - linear", json_key="difference"),
    _f("betting_correlation_main", M, "betting correlation", Basis.NONE, Z, FLOAT,
       "The correlation over a deck's 52 cards between a count's tags and the main wager's "
       "EORs; 1 is perfect.", "BC main", fmt=_dec(3), json_key="betting_correlation"),
    _f("betting_correlation_round", R, "betting correlation", Basis.NONE, Z, FLOAT,
       "The correlation over a deck's 52 cards between a count's tags and the round's EORs; "
       "1 is perfect.", "BC round", fmt=_dec(3), json_key="betting_correlation"),
    _f("ev_per_true_count_main", M, "EV gained per true count", Basis.TRUE_COUNT, P,
       Method.LINEAR, "The linear estimate of the main wager EV gained per unit of true count "
       "(the running count per deck left).", "EV/TC main", json_key="ev_per_true_count"),
    _f("ev_per_true_count_round", R, "EV gained per true count", Basis.TRUE_COUNT, P,
       Method.LINEAR, "The linear estimate of the round EV gained per unit of true count.",
       "EV/TC round", json_key="ev_per_true_count"),
    _f("shoe_round_ev", R, "EV of a shoe", Basis.SHOE, P, FLOAT,
       "The round EV per main unit of a shoe dealt to a depth, under optimal play for the "
       "cards left, averaged over shoes.", "mean EV", fmt=_dec(4, True), json_key="mean"),
    _f("shoe_round_ev_sd", R, "SD of the EV of a shoe", Basis.SHOE, Z, FLOAT,
       "The standard deviation over shoes dealt to a depth of their round EVs.", "SD",
       fmt=_dec(4), json_key="sd"),
    _f("shoe_round_ev_percentile", R, "percentile of the EV of a shoe", Basis.SHOE, P, FLOAT,
       "The round EV below which the stated share of shoes dealt to a depth fall.",
       fmt=_dec(4, True), json_key="percentiles"),
    _f("positive_share", R, "share of positive shoes", Basis.SHOE, Z, FLOAT,
       "The share of shoes dealt to a depth whose round EV is above zero.", "positive",
       fmt=NumberFormat(Style.PERCENT, 1)),
    _f("shoe_main_ev", M, "EV of a shoe", Basis.SHOE, P, FLOAT,
       "The main wager EV of a shoe dealt to a depth, averaged over shoes.", fmt=_dec(4, True),
       json_key="mean"),
    _f("shoe_main_positive_share", M, "share of positive shoes", Basis.SHOE, Z, FLOAT,
       "The share of shoes dealt to a depth whose main wager EV is above zero.",
       fmt=NumberFormat(Style.PERCENT, 1), json_key="positive_share"),
    _f("true_count_sd", N, "SD of the true count", Basis.SHOE, Z, FLOAT,
       "The standard deviation of the true count over shoes dealt to a depth.", fmt=_dec(3),
       json_key="sd"),
    _f("slope_per_true_count", R, "EV slope", Basis.TRUE_COUNT, P, FLOAT,
       "The least-squares slope of a shoe's round EV on its true count.", "slope per TC",
       fmt=_dec(5, True), json_key="slope"),
    _f("fit_intercept", R, "EV at true count 0", Basis.SHOE, P, FLOAT,
       "The least-squares line's round EV at a true count of 0.", fmt=_dec(4, True),
       json_key="intercept"),
    _f("r_squared", N, "R\u00b2", Basis.NONE, Z, FLOAT,
       "The share of the shoe EVs' variance the count explains.", fmt=_dec(3)),
    _f("eor_estimate_error", N, "mean error of the EOR estimate", Basis.SHOE, Z, FLOAT,
       "The mean absolute difference between a shoe's solved round EV and the estimate from "
       "the full shoe's EV and the dealt cards' EORs.", fmt=_dec(6),
       json_key="mean_absolute_error"),
    _f("eor_estimate_max_error", N, "largest error of the EOR estimate", Basis.SHOE, Z, FLOAT,
       "The largest such difference over the shoes.", fmt=_dec(6), json_key="max_error"),
    _f("eor_estimate_r_squared", N, "R\u00b2 of the EOR estimate", Basis.NONE, Z, FLOAT,
       "One less the errors' sum of squares over the solved EVs' sum of squares about their "
       "mean.", fmt=_dec(3), json_key="r_squared"),
    _f("counter_win", N, "counter's win per 100 rounds", Basis.HUNDRED_ROUNDS, P, SIM,
       "A counter's net win per 100 rounds played, in main-wager units.", "win per 100 rounds",
       fmt=_dec(2, True), json_key="win_per_100_rounds"),
    _f("counter_win_per_hour", N, "counter's win per hour", Basis.NONE, P, SIM,
       "A counter's net win per hour at the rounds per hour stated, in main-wager units.",
       fmt=_dec(2, True), json_key="win_per_hour"),
    _f("average_bet", N, "average bet", Basis.MAIN_UNIT, Z, SIM,
       "A simulated counter's average main wager per round played, in main-wager units.",
       fmt=_dec(2)),
    _f("counter_house_edge", N, "house edge against the counter", Basis.TOTAL_WAGERED, H, SIM,
       "The casino's win per unit of the counter's total wagered, in %.",
       fmt=NumberFormat(Style.PERCENT, 2, True), json_key="edge"),
    _f("counter_sd", N, "SD per round", Basis.MAIN_UNIT, Z, SIM,
       "Standard deviation of a counter's net result per round played, in main-wager units.",
       fmt=_dec(2), json_key="sd_per_round"),
    _f("counter_rounds", N, "rounds played", Basis.NONE, Z, SIM,
       "The rounds a simulated counter played (a round sat out not counted).",
       fmt=COUNT_FORMAT, json_key="rounds_played"),
    _f("n0", N, "N0", Basis.NONE, Z, SIM,
       "Rounds a counter must play for the expected win to equal one standard deviation; "
       "none without an edge.", fmt=COUNT_FORMAT),
    _f("desirability_index", N, "DI", Basis.NONE, Z, SIM,
       "Desirability index: 1,000 times the win per round over the SD per round (negative "
       "without an edge).", fmt=_dec(2, True), json_key="di"),
    _f("score", N, "SCORE", Basis.HUNDRED_ROUNDS, Z, SIM,
       "The win per 100 rounds of a 10,000-unit bankroll bet at full Kelly: DI\u00b2 when "
       "the counter has an edge, 0 without one.", fmt=_dec(2)),
    _f("ruin_bankroll", N, "bankroll for the risk of ruin", Basis.MAIN_UNIT, Z,
       Method.NORMAL, "The bankroll, in main-wager units, with the target chance of ever "
       "losing it (a diffusion approximation).", fmt=COUNT_FORMAT,
       json_key="bankroll_for_target_ruin_by_diffusion"),
    _f("bin_share", N, "share of rounds", Basis.TRUE_COUNT, Z, FLOAT,
       "The share of rounds dealt at a true count.", json_key="share"),
    _f("bin_round_ev", R, "EV at the true count", Basis.TRUE_COUNT, P, FLOAT,
       "The round EV per main unit of the shoes at a true count, averaged.", json_key="ev"),
    _f("bin_fitted_ev", R, "fitted EV at the true count", Basis.TRUE_COUNT, P, FLOAT,
       "The least-squares line's round EV at a true count.", json_key="fitted_ev"),
    _f("bin_variance", R, "variance at the true count", Basis.TRUE_COUNT, Z, FLOAT,
       "The variance of a round's net result at a true count.", fmt=_dec(3),
       json_key="variance"),
    _f("bin_units", N, "bet", Basis.MAIN_UNIT, Z, FLOAT,
       "The optimal bet at a true count, in whole main-wager units within the spread.",
       fmt=COUNT_FORMAT, json_key="units"),
    _f("index_true_count", N, "index", Basis.TRUE_COUNT, Z, FLOAT,
       "The true count at which a close decision flips to the play named.",
       "true count", fmt=_dec(1, True), json_key="index"),
    _f("index_interval", N, "95% interval of the index", Basis.TRUE_COUNT, Z, FLOAT,
       "The true counts between which the index lies with 95% confidence, from the solved "
       "shoes.", "95% interval", fmt=_dec(1, True), json_key="interval_95"),
    _f("index_eor_estimate", N, "index by the EORs", Basis.TRUE_COUNT, Z, Method.LINEAR,
       "The index a linear estimate from the effects of removal gives.", "EOR estimate",
       fmt=_dec(1, True), json_key="linear_estimate"),
    _f("index_gain", N, "index gain", Basis.HUNDRED_ROUNDS, P, FLOAT,
       "What playing an index adds to the main wager per 100 rounds, in main-wager units.",
       "gain", fmt=_dec(4, True), json_key="value_per_100_rounds"),
    _f("perfect_gain", N, "perfect deviation gain", Basis.HUNDRED_ROUNDS, P, FLOAT,
       "What playing the decision perfectly in every shoe adds per 100 rounds: the most an "
       "index could gain.", "perfect", fmt=_dec(4, True), json_key="perfect_value_per_100_rounds"),
    _f("playing_efficiency", N, "playing efficiency", Basis.NONE, Z, FLOAT,
       "The indices' gain over the gain of perfect deviation in every decision.",
       fmt=_dec(2), json_key="playing_efficiency"),
    _f("attack_win_dealt", N, "win", Basis.HUNDRED_DEALT, P, FLOAT,
       "What an attack wins per 100 rounds dealt at its seat, the rounds it sits out counted "
       "as nothing: the figure that says whether the game can be beaten.", "win/100 dealt",
       json_key="win_per_100_dealt",
       fmt=_dec(2, True)),
    _f("attack_win_played", N, "win", Basis.HUNDRED_PLAYED, P, FLOAT,
       "What an attack wins per 100 rounds it has a wager on: its edge as the player sees "
       "it, larger than per round dealt when it sits rounds out.", "win/100 played",
       json_key="win_per_100_played",
       fmt=_dec(2, True)),
    _f("share_played", N, "share of rounds played", Basis.NONE, Z, FLOAT,
       "The share of the rounds dealt at its seat on which an attack has a wager, in %.",
       "played", fmt=NumberFormat(Style.PERCENT, 1)),
    _f("bonus_ev_when_raised", B, "EV when raised", Basis.BONUS_UNIT, P, FLOAT,
       "The Bonus wager's mean EV per Bonus unit over the rounds an attack raises it (the "
       "player's: positive when raising gains).", fmt=_dec(4, True)),
    # --- The hold check --------------------------------------------------------------------
    _f("win_over_handle", T, "win over handle", Basis.HANDLE, H, Method.CONVOLUTION,
       "The casino's win over the handle (every seat's main and Bonus wagers), in %: the "
       "house edge's basis, which casinos rarely know.",
       fmt=NumberFormat(Style.PERCENT, 3, plus=True)),
    _f("casino_hold", T, "hold (win over drop)", Basis.DROP, H, Method.CONVOLUTION,
       "The casino's win over the drop (the cash and markers exchanged for chips), in %: "
       "what a casino's books call hold; the drop is given, or a stated share of the handle.",
       fmt=NumberFormat(Style.PERCENT, 3, plus=True)),
    _f("hold_tail", N, "tail probability", Basis.SESSION, Z, Method.CONVOLUTION,
       "The probability of a casino result at least as far from its expectation as the one "
       "observed, either side, from the exact distribution of the table-rounds.",
       fmt=PROBABILITY_FORMAT),
    _f("holm_tail", N, "tail after Holm's correction", Basis.SESSION, Z, Method.CONVOLUTION,
       "A period's tail probability adjusted for testing every period of the series (Holm's "
       "step-down): below 5% means outside the 95% band even so.", fmt=PROBABILITY_FORMAT),
    # --- Verification ---------------------------------------------------------------------
    _f("simulated_mean", N, "simulated mean", Basis.NONE, P, SIM,
       "The simulator's average net result per round of a wager, per unit of that wager.",
       json_key="mean"),
    _f("standard_error", N, "standard error", Basis.NONE, Z, SIM,
       "The standard deviation of a simulated mean: the per-round SD over \u221arounds.",
       "std error", fmt=_dec(6)),
    _f("z_score", N, "z", Basis.NONE, Z, SIM,
       "The distance between a simulated mean and the exact value in standard errors; "
       "accepted when |z| is below 3.", fmt=_dec(2, True), json_key="z"),
    _f("chi_square_p", N, "chi-square p", Basis.NONE, Z, SIM,
       "Pearson's chi-square test of simulated outcome counts against the exact "
       "probabilities: the chance of a larger statistic if the exact figures are right; "
       "accepted when p is at least 0.001.", fmt=NumberFormat(Style.PROBABILITY, 3),
       json_key="p_value"),
    _f("simulated_count", N, "count", Basis.NONE, Z, SIM,
       "How many simulated rounds (or seat-rounds) ended in an outcome.",
       fmt=COUNT_FORMAT, json_key="frequencies"),
    _f("simulated_share", N, "share", Basis.NONE, Z, SIM,
       "The share of simulated rounds that ended in an outcome: the count over the rounds.",
       fmt=PROBABILITY_FORMAT),
    _f("simulated_round_house_edge", R, "house edge, simulated", Basis.TOTAL_WAGERED, H, SIM,
       "The simulated casino's win per unit of the total wagered, with its 95% interval.",
       fmt=PERCENT_FORMAT),
    _f("simulated_round_ev", R, "EV at the true count, simulated", Basis.MAIN_UNIT, P, SIM,
       "A simulated seat's round EV at one unit, over the rounds dealt at a true count.",
       json_key="mean"),
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
#: The rows that follow them in the report's Summary.
STAKE_FIGURES: tuple[tuple[str, str, str], ...] = (
    ("main_stake", "bonus_stake", "round_wagered"),
    ("main_top_award", "bonus_top_award", "round_top_award"),
    ("main_top_award_odds", "bonus_top_award_odds", "round_top_award_odds"),
)

#: Each figure by its key.
FIGURES_BY_KEY: dict[str, Figure] = {f.key: f for f in FIGURES}


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
