"""Effects of removal, counts and shoe states as tables for people (``cbj eor``, ``cbj count``,
``cbj shoe-states``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.model.counts import LABELS
from solver.present.style import cell, count_cell, number_cell, show, thousands
from solver.present.tables import Table, rules_notes
from solver.results.figures import heading, short_heading

if TYPE_CHECKING:
    from solver.results.protection import Counts, EffectsOfRemoval, ShoeStates

#: What each wager column of the EOR table measures.
WAGER_MEANINGS = {
    "main": "main wager, optimal play re-optimised for the depleted shoe",
    "main_chart": "main wager, the undepleted shoe's printable chart",
    "bonus": "Bonus wager per Bonus unit, the removed card's suit at random among those left",
    "round": "whole round per main unit, main + bonus ratio x bonus",
}
#: The wagers an EOR is measured on, in the solver's order.
WAGERS = tuple(WAGER_MEANINGS)
#: Each wager's EOR figure (its key stays the JSON's wager).
EOR_KEYS = {"main": "eor_main", "main_chart": "eor_main_chart", "bonus": "eor_bonus",
            "round": "eor_round"}  # fmt: skip
#: Each wager's words in the whole-deck table's rows.
WAGER_WORDS = {
    "main": "main wager (optimal play)",
    "main_chart": "main wager (chart)",
    "bonus": "Bonus wager",
    "round": "round",
}


def _removed_note(removed: tuple[Any, ...]) -> tuple[str, ...]:
    return (f"shoe: full less {' '.join(map(str, removed))}",) if removed else ()


def eor_tables(result: EffectsOfRemoval[Any]) -> list[Table]:
    """The EOR of each rank on each wager (times 10,000), and the whole-deck check."""
    kind = "exact fractions, shown as decimals" if result.exact else "floating point"
    keys = tuple(EOR_KEYS[w] for w in WAGERS)
    rows = tuple(
        (label, *(cell(k, result.effects[w][label]) for w, k in zip(WAGERS, keys, strict=True)))
        for label in LABELS
    )
    notes = (
        *rules_notes(result.rules),
        *_removed_note(result.removed),
        f"EV change x 10,000 when one card of the rank leaves a shoe of {result.cards} cards "
        f"(each the difference of two full solves; {kind})",
        *(f"{WAGER_WORDS[w]}: {meaning}" for w, meaning in WAGER_MEANINGS.items()),
        "base EVs: "
        + ", ".join(f"{WAGER_WORDS[w]} {show('main_ev', result.base[w])}" for w in WAGERS),
    )
    eors = Table(
        "Effects of removal",
        ("rank", *(short_heading(k) for k in keys)),
        rows,
        notes,
        tuple((None, *keys) for _ in rows),
    )
    deck_keys = ("deck_linear_estimate", "deck_exact_change", "deck_estimate_error")
    deck_rows = []
    for w in WAGERS:
        linear = result.whole_deck.linear[w]
        true = None if result.whole_deck.exact is None else result.whole_deck.exact[w]
        deck_rows.append(
            (
                WAGER_WORDS[w],
                cell(deck_keys[0], linear),
                cell(deck_keys[1], true),
                cell(deck_keys[2], None if true is None else true - linear),
            )
        )
    deck_notes: tuple[str, ...] = (
        "linear estimate: the sum of the EORs of the 52 cards of one deck; exact: two full "
        "solves, with and without those 52 cards",
    )
    if result.whole_deck.exact is None:
        deck_notes += ("this shoe cannot spare a whole deck, so there is no exact change",)
    deck = Table(
        "Removing one whole deck: linear estimate against exact change",
        ("wager", *(short_heading(k) for k in deck_keys)),
        tuple(deck_rows),
        deck_notes,
        tuple((None, *deck_keys) for _ in deck_rows),
    )
    return [eors, deck]


#: The figures of each count's row, after its name and tags.
COUNT_KEYS = ("betting_correlation_main", "betting_correlation_round", "ev_per_true_count_main",
              "ev_per_true_count_round")  # fmt: skip


def count_table(result: Counts) -> Table:
    """Each count's tags, betting correlations and EV per true count."""
    rows = tuple(
        (
            s.name,
            " ".join(f"{s.tags[r]:+d}" if s.tags[r] else "0" for r in LABELS),
            cell(COUNT_KEYS[0], s.betting_correlation["main"]),
            cell(COUNT_KEYS[1], s.betting_correlation["round"]),
            cell(COUNT_KEYS[2], s.ev_per_true_count["main"]),
            cell(COUNT_KEYS[3], s.ev_per_true_count["round"]),
        )
        for s in result.systems
    )
    notes = (
        *rules_notes(result.rules),
        *_removed_note(result.eor.removed),
        "tags in rank order " + " ".join(LABELS),
        "BC: Pearson correlation over a deck's 52 cards between tag and exact EOR",
        "EV/TC: EV change per unit of true count, a linear estimate (see docs/protection.md)",
    )
    return Table(
        "Card counts",
        ("count", "tags", *(short_heading(k) for k in COUNT_KEYS)),
        rows,
        notes,
        tuple((None, None, *COUNT_KEYS) for _ in rows),
    )


#: The figures of the spread table's columns, after the depth and the cards left.
SPREAD_KEYS = ("shoe_round_ev", "shoe_round_ev_sd")


def shoe_states_tables(result: ShoeStates) -> list[Table]:
    """The round EV's spread by depth, then its fit on the true count and the EOR estimate."""
    count = f"{result.system} (tags {' '.join(str(result.tags[r]) for r in LABELS)})"
    percentiles = tuple(result.depths[0].round.percentiles)  # a study has a depth
    notes = (
        *rules_notes(result.rules),
        f"{thousands(result.samples)} random shoes per depth, seed {result.seed}; each solved "
        "in floating point under composition-dependent optimal play",
        "round EV per main unit: main wager + bonus ratio x Bonus wager; full shoe "
        f"{show('round_ev', result.full_shoe['round'])} "
        f"(main {show('main_ev', result.full_shoe['main'])})",
        "P5..P95: percentiles of the round EV of a shoe",
    )
    spread_keys = (None, None, *SPREAD_KEYS, *("shoe_round_ev_percentile" for _ in percentiles),
                   "positive_share", "shoe_main_ev", "shoe_main_positive_share")  # fmt: skip
    spread_rows = tuple(
        (
            number_cell(d.depth),
            count_cell(d.cards_left),
            cell("shoe_round_ev", d.round.mean),
            cell("shoe_round_ev_sd", d.round.standard_deviation),
            *(cell("shoe_round_ev_percentile", d.round.percentiles[p]) for p in percentiles),
            cell("positive_share", d.round.positive_share),
            cell("shoe_main_ev", d.main.mean),
            cell("shoe_main_positive_share", d.main.positive_share),
        )
        for d in result.depths
    )
    spread = Table(
        "Round EV of shoes dealt to each depth",
        (
            "depth",
            "cards left",
            *(heading(k) for k in SPREAD_KEYS),
            *(f"P{p}" for p in percentiles),
            heading("positive_share"),
            heading("shoe_main_ev"),
            heading("shoe_main_positive_share"),
        ),
        spread_rows,
        notes,
        tuple(spread_keys for _ in spread_rows),
    )
    fit_keys = (
        "true_count_sd",
        "slope_per_true_count",
        "fit_intercept",
        "r_squared",
        "eor_estimate_error",
        "eor_estimate_max_error",
        "eor_estimate_r_squared",
    )
    fit_rows = tuple(
        (
            number_cell(d.depth),
            cell(fit_keys[0], d.true_count.standard_deviation),
            cell(fit_keys[1], d.fit.slope),
            cell(fit_keys[2], d.fit.intercept),
            cell(fit_keys[3], d.fit.r_squared),
            cell(fit_keys[4], d.eor_prediction.mean_absolute_error),
            cell(fit_keys[5], d.eor_prediction.max_error),
            cell(fit_keys[6], d.eor_prediction.r_squared),
        )
        for d in result.depths
    )
    fit = Table(
        "Round EV against the true count, and the linear EOR estimate",
        ("depth", *(heading(k) for k in fit_keys)),
        fit_rows,
        (
            f"true count: running count of the dealt cards with {count}, over decks left "
            "(cards left / 52); slope, intercept, R\u00b2: least squares of round EV on it",
            "EOR estimate: full-shoe round EV + the dealt cards' round EORs (cbj eor); "
            "error = solved - estimate; R\u00b2 = 1 - SS(error) / SS(solved about its mean)",
        ),
        tuple((None, *fit_keys) for _ in fit_rows),
    )
    return [spread, fit]
