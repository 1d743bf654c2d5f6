"""Every label an output prints that is no figure: the dimensions tables run over.

With the figure catalogue (:mod:`solver.results.figures`) these are every label the
report, the terminal's tables, the CSV headers and the workbench print: a test reads every
output and fails on a label neither names (:func:`known_label`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from solver.model.rules import Rules
from solver.results.figures import FIGURES, heading, quantity_heading, short_heading
from solver.results.sweep import variables


class Dimension(NamedTuple):
    """What a table's rows or columns run over where they are not figures: its label in
    every output, its key in JSON, what it means, and the values that head columns."""

    label: str
    json_key: str
    meaning: str
    values: tuple[str, ...] = ()
    """Values that stand as column headers (a Bonus card's ``A`` ... ``10``)."""


_CARDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K")
_TOTALS = tuple(str(t) for t in range(12, 22))

_FIXED: tuple[Dimension, ...] = (
    Dimension("figure", "", "The figure a row shows, named by the catalogue."),
    Dimension("value", "", "A figure's value, in the figure's own format."),
    Dimension("exact", "exact", "A figure's exact fraction (a dash where it has none)."),
    Dimension("unit", "", "The unit of a CSV cell's number: %, 1 in N or to 1."),
    Dimension("table", "", "Which table of a command's output a CSV row belongs to."),
    Dimension("rounds", "rounds", "Rounds in a session or dealt by a simulation."),
    Dimension(
        "Bonus card", "bonus", "The community Bonus card's value (10 = 10, J, Q, K).", _CARDS
    ),
    Dimension("player card", "player", "The player's own first card's value."),
    Dimension("rank", "rank", "A card's rank.", _CARDS),
    Dimension("outcome", "outcome", "How a wager ends: a main outcome or a Bonus tier."),
    Dimension("main wager", "main", "The main wager's outcome in a pair of outcomes."),
    Dimension("Bonus wager", "bonus", "The Bonus wager's outcome in a pair of outcomes."),
    Dimension("wager", "wager", "The main wager, the Bonus wager or the whole round."),
    Dimension("basis", "", "What a figure is per: its basis."),
    Dimension("pays", "pays", "What a tier or an outcome pays, to 1."),
    Dimension("tier", "tier", "A tier of the Bonus paytable."),
    Dimension("paytable", "paytable", "A Bonus paytable, its pays best tier first."),
    Dimension("pay", "pay", "A tier's pay, to 1."),
    Dimension("vs exact pay", "", "Whether a whole pay lies below or above the exact one."),
    Dimension(
        "dealer's result", "outcomes", "The dealer's final result.", ("bust", *_TOTALS, "natural")
    ),
    Dimension("hand", "hand", "A chart row: the total of the player's own cards."),
    Dimension("own \\ Bonus", "", "A chart's corner: own totals down, Bonus cards across."),
    Dimension("cell", "cell", "A chart cell: own total against Bonus card."),
    Dimension("#", "", "An exception's number, as its chart cell marks it."),
    Dimension("chart", "action", "The chart's action in a cell: H hit or S stand."),
    Dimension("better", "better", "The action better for the hands listed."),
    Dimension("best", "best", "The best chart's action in a cell."),
    Dimension(
        "own cards to play the other way",
        "hands",
        "The hands of an exception cell better played the other way.",
    ),
    Dimension("choice", "choice", "Stand or hit, and the decision."),
    Dimension("decision", "decision", "A decision: a hand against a Bonus card, or stand/hit."),
    Dimension("play", "play", "The play an index makes."),
    Dimension("strategy", "name", "A way of playing: optimal, the chart, stand-on:K, ..."),
    Dimension("player's play", "name", "A way of playing, in words."),
    Dimension("Bonus ratio", "ratio", "The Bonus wager per unit of main wager."),
    Dimension("seats", "seats", "Players at one table."),
    Dimension("seat", "seat", "A seat at the table, 1 acting first."),
    Dimension("rule", "rule", "A rule of the game."),
    Dimension("option", "", "The command-line option that sets a rule."),
    Dimension("default", "", "A rule's default value."),
    Dimension("meaning", "", "What a rule means."),
    Dimension("source", "source", "Where a preset's value comes from."),
    Dimension("rules changed", "rules", "The rules a variant changes."),
    Dimension("decks", "decks", "Decks in the shoe."),
    Dimension("stands on", "dealer_stands_on", "The total the dealer stands on."),
    Dimension("blackjack", "blackjack_pays", "What a blackjack pays."),
    Dimension("dealer natural", "dealer_natural", "Which dealer 21s are naturals."),
    Dimension("count", "name", "A card-counting system."),
    Dimension("tags", "tags", "A count's tag for each rank."),
    Dimension("true count", "true_count", "The running count per deck left."),
    Dimension("depth", "depth", "The share of the shoe dealt."),
    Dimension("cards left", "cards_left", "Cards left in a shoe dealt to a depth."),
    Dimension(
        "percentile",
        "percentiles",
        "A level of a distribution.",
        ("P5", "P25", "P50", "P75", "P95"),
    ),
    Dimension("penetration", "penetration", "The share of the shoe dealt before the shuffle."),
    Dimension("shoes", "states", "Shoes solved."),
    Dimension("player", "name", "A player of the Bonus attack."),
    Dimension("attack", "attack", "An attack a casino must consider, in a few words."),
    Dimension("shuffle", "shuffle", "How the shoe is shuffled: a cut card, or a shuffler."),
    Dimension("finding", "", "One sentence of a verdict, computed from the rows it names."),
    Dimension("method", "method", "How a row's figures were found, and from how many samples."),
    Dimension("how", "how", "How a player of the attack plays, in words."),
    Dimension("table-rounds", "rounds", "Rounds of a whole table, every seat dealt."),
    Dimension("observed", "observed", "What the casino's books show over the rounds."),
    Dimension("expected", "expected", "What the game's distribution expects over the rounds."),
    Dimension("band", "bands", "The range a result falls in with the level before it."),
    Dimension("date", "date", "A period of a daily file, as the file names it."),
    Dimension("flag", "", "Whether a period lies outside its 95% band, and after Holm's too."),
    Dimension("trigger", "trigger", "When a Bonus attacker raises the Bonus wager."),
    Dimension("ramp", "ramp", "A bet ramp: units from each true count."),
    Dimension("net", "net", "A net result after a session, in main-wager units."),
    Dimension("shoe", "shoe", "How the shoe is dealt: fresh each round, or to a cut card."),
    Dimension("example", "", "A worked example: what it shows."),
    Dimension("dealer", "", "The dealer's cards in a worked example."),
    Dimension("round net", "", "A worked example's round net, main-wager units."),
    Dimension("invariant", "", "A property the figures must hold."),
    Dimension("found", "", "What a check found."),
    Dimension("check", "", "What is checked."),
    Dimension("acceptance rule", "", "When a check passes, fixed before the run."),
    Dimension("result", "", "Whether a check passes."),
    Dimension("item", "", "A line of the reproducibility manifest."),
    Dimension("field", "", "A field of the title block."),
    Dimension("entry", "", "A field's entry."),
    Dimension("detail", "", "More about a figure."),
    Dimension("verdict", "verdict", "What a check concludes, in words."),
    Dimension("whole round", "round", "The whole round: the main wager and the Bonus wager."),
    Dimension("counter", "counter", "A simulated card counter, by how it plays."),
    Dimension("definition", "", "What a figure means, on what basis, found how."),
    Dimension("95% interval", "ci95", "A figure's 95% confidence interval: low to high."),
)
#: Every dimension a table runs over: with :data:`FIGURES`, every label an output prints
#: (a sweep's column of the rule it varies among them; a tier's pay is matched by its form).
DIMENSIONS: tuple[Dimension, ...] = (
    *_FIXED,
    *(
        Dimension(v.label, "value", f"The {v.label} a sweep sets, each row to one value.")
        for v in variables(Rules())
        if v.rule is not None and v.label not in {d.label for d in _FIXED}
    ),
)

#: Each dimension by its label.
DIMENSIONS_BY_LABEL: dict[str, Dimension] = {d.label: d for d in DIMENSIONS}


def known_label(text: str) -> bool:
    """Whether ``text`` is a label the catalogue gives: a figure's (in any of its forms,
    with a CSV unit after it), a dimension's, or a value that heads a dimension's column.

    >>> known_label("round house edge (%)"), known_label("Bonus card"), known_label("edge")
    (True, True, False)
    >>> known_label("B: 10:5:2"), known_label("suited ace match pay (to 1)")
    (True, True)
    """
    known = text in _KNOWN_LABELS or text in _UNIT_LABELS
    return known or bool(_LETTERED.match(text) or _TIER_PAY.match(text))


#: A paytable lettered as the report's title block letters it, heading its column: ``A: 15:4:1``.
_LETTERED = re.compile(r"^[A-Z]: \S+$")
#: A tier's pay, heading the column of a sweep that varies it: ``suited match pay (to 1)``.
_TIER_PAY = re.compile(r"^[a-z]+(?: [a-z]+)* pay \(to 1\)$")


_KNOWN_LABELS: frozenset[str] = frozenset(
    {
        *(form for f in FIGURES for form in (heading(f.key), short_heading(f.key), f.label)),
        *(quantity_heading(f.key) for f in FIGURES),
        *(d.label for d in DIMENSIONS),
        *(v for d in DIMENSIONS for v in d.values),
    }
)
_UNIT_LABELS: frozenset[str] = frozenset(
    f"{label} ({f.fmt.unit})"
    for f in FIGURES
    if f.fmt.unit
    for label in (heading(f.key), short_heading(f.key), quantity_heading(f.key))
)


#: Every key a JSON document holds that is neither a figure's (:attr:`Figure.json`) nor a
#: rule's nor data (a card, an outcome, a tier): what it holds. With the catalogue, every
#: name the JSON writes; docs/glossary.md lists them.
JSON_FIELDS: dict[str, str] = {
    "exact": "a number's exact fraction, as text",
    "float": "a number's nearest float",
    "rules": "the rules the result was computed under, as the options take them",
    "removed": "cards out of the shoe before the deal",
    "seen": "other cards known to be out of the shoe",
    "main": "the main wager's figures (or the main wager of a pair of outcomes)",
    "bonus": "the Bonus wager's figures, or the Bonus card",
    "round": "the whole round's figures",
    "outcome": "a wager's outcome: blackjack, win, push, loss, or a Bonus tier",
    "outcomes": "each outcome's chance, or the dealer's results by Bonus card",
    "pays": "what an outcome or a tier pays, to 1",
    "expected_value": "a wager's EV, in a wager's object (the main wager's, the Bonus "
    "wager's, the round's, a starting pair's)",
    "house_edge": "a wager's house edge, in a wager's object",
    "rtp": "a wager's return to player, in a wager's object",
    "hit_frequency": "a wager's hit frequency, in a wager's object",
    "standard_deviation": "the main wager's or the Bonus wager's SD, in its object (the "
    "round's is round_sd everywhere), or another spread named by its object",
    "variance": "a wager's variance, in a wager's object",
    "return_table": "the round's net results, each with its probability and return",
    "by_start": "every starting pair: player card, Bonus card, chance, decision and EV",
    "player": "the player's own first card",
    "decision": "the decision on a hand, or the hand an index plays",
    "volatility": "the round over sessions: the volatility index and the sessions",
    "sessions": "a session's figures for each length",
    "rounds": "rounds in a session or dealt by a simulation",
    "method": "how a session's figures were found: exact, FFT or normal",
    "error_bound": "the most an FFT's probability may be off",
    "confidence": "the confidence of the volatility index's interval",
    "strategies": "each strategy's figures",
    "strategy": "the strategy played",
    "name": "a strategy's, a count's or a player's name",
    "bonus_ratios": "the round at each Bonus ratio",
    "ratio": "a Bonus ratio",
    "paytables": "each paytable found, with its figures",
    "paytable": "a Bonus paytable, its pays best tier first",
    "band": "the house edge band searched: its kind, low and high",
    "kind": "which house edge: the Bonus wager's or the round's",
    "low": "a range's or a band's low end",
    "high": "a range's or a band's high end",
    "matches": "paytables found in the band",
    "max_pay": "the largest whole pay searched",
    "candidates": "whole pays beside the exact solution",
    "solve_for": "the tier whose pay is solved",
    "target": "the target house edge",
    "variants": "each variant's headline figures",
    "main_expected_value": "a variant's main wager EV",
    "bonus_expected_value": "a variant's Bonus wager EV",
    "tables": "the dealer's results for each Bonus card",
    "title": "a chart's title",
    "columns": "a chart's columns: the Bonus card values",
    "rows": "a chart's, a table of players' rows",
    "hand": "a hand, or a chart's row",
    "actions": "a chart row's action under each Bonus card",
    "legend": "what a chart's letters mean",
    "optimal": "the composition-dependent optimum's EV beside a chart",
    "optimal_expected_value": "the composition-dependent optimum's main wager EV",
    "exceptions": "a chart's hands better played the other way",
    "cost_per_100_rounds": "a cell's cost per 100 rounds",
    "stand": "the EV of standing",
    "hit": "the EV of hitting",
    "seats": "players at the table",
    "seed": "the simulation's seed",
    "vary": "the rule or tier's pay a sweep varies, as the options spell it",
    "label": "what a sweep varies, in plain words",
    "in_force": "the value in force of what a sweep varies, or whether a point is it",
    "points": "a sweep's values, each with its figures",
    "value": "the value a sweep's point sets",
    "fresh_shoe": "whether each round is dealt from a freshly shuffled shoe",
    "ci95": "a 95% confidence interval",
    "shoe": "how the shoe is dealt: its penetration",
    "penetration": "the share of the shoe dealt before the shuffle",
    "chi_square": "a chi-square test of outcome counts: statistic, degrees of freedom, p",
    "statistic": "a chi-square statistic",
    "dof": "degrees of freedom",
    "per_seat": "each seat's figures",
    "counter": "the simulated card counter and its figures",
    "system": "a count's name",
    "tags": "a count's tag for each rank",
    "spread": "the smallest and largest bet",
    "ramp": "a bet ramp: units from each true count",
    "ramp_text": "the ramp as cbj simulate --ramp takes it",
    "wong_out": "the true count below which a counter sits out",
    "indices": "index plays, each with its figures",
    "rounds_by_bet": "rounds played at each bet",
    "rounds_sat_out": "rounds a counter sat out",
    "win_rate_per_100": "a simulated counter's win per 100 rounds (simulate's name)",
    "edge_ci95": "the 95% interval of the edge against a counter",
    "wagered_per_round": "what a counter wagers per round, main and Bonus",
    "by_true_count": "a seat's round at one unit by true count",
    "true_count": "a true count",
    "count": "the count used",
    "samples": "shoes dealt and solved",
    "depths": "each depth's figures",
    "depth": "a share of the shoe dealt",
    "cards_dealt": "cards dealt to reach a depth",
    "cards_left": "cards left at a depth",
    "full_shoe": "the full shoe's EVs",
    "fit": "the least-squares line of the EV on the true count",
    "eor_prediction": "how well the linear EOR estimate predicts a shoe's EV",
    "base": "the full shoe's EV of each wager",
    "cards": "cards in the full shoe",
    "whole_deck": "one whole deck removed: the linear estimate and the exact change",
    "systems": "each count's figures",
    "bound": "the perfect-information bound at each penetration",
    "states": "shoes solved at a penetration",
    "bonus_attack": "the Bonus wager's attack: its players and the Bonus EV over shoes",
    "bonus_multiple": "the most the Bonus wager is raised to, times the main wager",
    "players": "each player of the attack",
    "trigger": "when a player raises the Bonus wager",
    "tracker_correlation": "the rank tracker's correlation with the Bonus EV",
    "interval_95": "a 95% interval: its low and high ends",
    "play": "how a counter plays its hands",
    "kelly": "the Kelly bankroll and fraction bets are sized for",
    "fraction": "a share of the full Kelly bet",
    "win_per_round": "a counter's win per round",
    "rounds_per_hour": "rounds played per hour",
    "target_ruin": "the risk of ruin a bankroll is sized for",
    "cell": "a chart cell: soft or hard, total and Bonus card",
    "soft": "whether a total is soft",
    "total": "a hand's total",
    "chart": "a chart, or the chart's action in a cell",
    "deviation": "the play an index makes",
    "side": "which side of the index deviates",
    "gain_of_played_indices_per_100_rounds": "what playing every index gains per 100 rounds",
    "casino_win": "the casino's net win",
    "level": "a band's or a quantile's level",
    "verdict": "the hold check's verdict in words",
    "lattice_step": "the step of the lattice the net results lie on",
    "distribution": "every net result with its probability",
    "normal_approximation": "the same figures from a normal distribution, for comparison",
    "ruin": "the chance of ruin within the session and ever",
    "within_rounds": "the chance of ruin within the session",
    "within_rounds_error_bound": "the most that chance may be off",
    "unlimited": "the chance of ruin ever, and how it was found",
    "rounds_iterated": "rounds iterated to find the chance of ruin ever",
    "adjustment_coefficient": "the walk's adjustment coefficient (ruin ever)",
    "definition": "what ruin means",
    "units": "a result's unit, or the bet in units",
    "bankroll": "units of the main wager a player can lose, or a Kelly bankroll",
    "attack": "an attack a casino must consider: every-round, back-count, no-mid-shoe-entry, "
    "bonus-only",
    "attacks": "each attack with its name and what the attacker does",
    "shuffle": "how the shoe is shuffled: a cut card at a depth, or a continuous shuffler",
    "buffer": "a continuous shuffler's tray: the cards held back before they are dealt again",
    "bonus_capped": "whether the Bonus wager is capped at the rules' ratio in this row",
    "how": "how a player of the attack plays, in words",
    "reached": "the deepest share of the shoe the dealt shoes reached",
    "cannot_be_beaten": "the verdict: every attack's bound at or below zero per round dealt",
    "beats_the_game": "the practical counter's 95% interval per round dealt lies above zero",
    "countermeasures": "what a casino can do against an attack, each with its figures",
    "ends_it": "the countermeasure brings the attack's bound and practical counter to zero",
    "bound_per_100_dealt": "the perfect-information bound's win per 100 rounds dealt",
    "practical_per_100_dealt": "the best practical counter's win per 100 rounds dealt",
    "mid_shoe_entry": "whether the simulated counter may sit down in the middle of a shoe",
    "win_rate_per_100_dealt": "a simulated counter's win per 100 rounds dealt at the seat",
    "bands": "the bands the result may fall in, by level",
    "observed": "what the casino's books show over the rounds checked",
    "expected": "what the game's exact distribution expects over the rounds checked",
    "handle": "every seat's main and Bonus wagers over the rounds, in main units",
    "drop": "the cash and markers exchanged for chips, in main units",
    "normal_p_value": "the tail probability by a normal approximation, for reference",
}
