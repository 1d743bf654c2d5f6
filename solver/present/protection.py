"""Effects of removal, counts and shoe states as tables for people (``cbj eor``, ``cbj count``,
``cbj shoe-states``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.model.counts import LABELS
from solver.model.numbers import signed
from solver.present.tables import Table, rules_notes

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
#: Each wager's column heading (its key stays the JSON's).
WAGER_WORDS = {
    "main": "main wager (optimal play)",
    "main_chart": "main wager (chart)",
    "bonus": "Bonus wager",
    "round": "round",
}


def _removed_note(removed: tuple[Any, ...]) -> tuple[str, ...]:
    return (f"shoe: full less {' '.join(map(str, removed))}",) if removed else ()


def eor_tables(result: EffectsOfRemoval[Any]) -> list[Table]:
    """The EOR of each rank on each wager (in units of 1/10,000), and the whole-deck check."""
    kind = "exact fractions, shown as decimals" if result.exact else "floating point"
    rows = tuple(
        (label, *(signed(result.effects[w][label] * 10_000, 3) for w in WAGERS)) for label in LABELS
    )
    notes = (
        *rules_notes(result.rules),
        *_removed_note(result.removed),
        f"EV change x 10,000 when one card of the rank leaves a shoe of {result.cards} cards "
        f"(each the difference of two full solves; {kind})",
        *(f"{WAGER_WORDS[w]}: {meaning}" for w, meaning in WAGER_MEANINGS.items()),
        "base EVs: " + ", ".join(f"{WAGER_WORDS[w]} {signed(result.base[w])}" for w in WAGERS),
    )
    eors = Table("Effects of removal", ("rank", *(WAGER_WORDS[w] for w in WAGERS)), rows, notes)
    deck_rows = []
    for w in WAGERS:
        linear = result.whole_deck.linear[w]
        true = None if result.whole_deck.exact is None else result.whole_deck.exact[w]
        deck_rows.append(
            (
                WAGER_WORDS[w],
                signed(linear),
                "-" if true is None else signed(true),
                "-" if true is None else signed(true - linear),
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
        ("wager", "linear estimate", "exact change", "exact - linear"),
        tuple(deck_rows),
        deck_notes,
    )
    return [eors, deck]


def count_table(result: Counts) -> Table:
    """Each count's tags, betting correlations and EV per true count."""
    rows = tuple(
        (
            s.name,
            " ".join(f"{s.tags[r]:+d}" if s.tags[r] else "0" for r in LABELS),
            f"{s.betting_correlation['main']:.4f}",
            f"{s.betting_correlation['round']:.4f}",
            signed(s.ev_per_true_count["main"]),
            signed(s.ev_per_true_count["round"]),
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
        ("count", "tags", "BC main", "BC round", "EV/TC main", "EV/TC round"),
        rows,
        notes,
    )


def _maybe(value: float | None, digits: int = 6) -> str:
    return "-" if value is None else signed(value, digits)


def shoe_states_tables(result: ShoeStates) -> list[Table]:
    """The round EV's spread by depth, then its fit on the true count and the EOR estimate."""
    count = f"{result.system} (tags {' '.join(str(result.tags[r]) for r in LABELS)})"
    percentiles = tuple(result.depths[0].round.percentiles)  # a study has a depth
    notes = (
        *rules_notes(result.rules),
        f"{result.samples:,} random shoes per depth, seed {result.seed}; each solved in "
        "floating point under composition-dependent optimal play",
        "round EV per main unit: main wager + bonus ratio x Bonus wager; full shoe "
        f"{signed(result.full_shoe['round'])} (main {signed(result.full_shoe['main'])})",
        "SD: sample standard deviation; P5..P95: percentiles; > 0: share of shoes with a "
        "positive round EV; main: the main wager's mean EV and share above zero",
    )
    spread = Table(
        "Round EV of shoes dealt to each depth",
        (
            "depth",
            "cards left",
            "mean",
            "SD",
            *(f"P{p}" for p in percentiles),
            "> 0",
            "main mean",
            "main > 0",
        ),
        tuple(
            (
                f"{d.depth:g}",
                str(d.cards_left),
                signed(d.round.mean),
                f"{d.round.standard_deviation:.6f}",
                *(signed(d.round.percentiles[p]) for p in percentiles),
                f"{d.round.positive_share:.1%}",
                signed(d.main.mean),
                f"{d.main.positive_share:.1%}",
            )
            for d in result.depths
        ),
        notes,
    )
    fit = Table(
        "Round EV against the true count, and the linear EOR estimate",
        (
            "depth",
            "TC SD",
            "slope per TC",
            "intercept",
            "R2",
            "EOR mean abs error",
            "EOR max error",
            "EOR R2",
        ),
        tuple(
            (
                f"{d.depth:g}",
                f"{d.true_count.standard_deviation:.3f}",
                _maybe(d.fit.slope),
                _maybe(d.fit.intercept),
                "-" if d.fit.r_squared is None else f"{d.fit.r_squared:.4f}",
                f"{d.eor_prediction.mean_absolute_error:.6f}",
                f"{d.eor_prediction.max_error:.6f}",
                "-" if d.eor_prediction.r_squared is None else f"{d.eor_prediction.r_squared:.4f}",
            )
            for d in result.depths
        ),
        (
            f"true count: running count of the dealt cards with {count}, over decks left "
            "(cards left / 52); slope, intercept, R2: least squares of round EV on it",
            "EOR estimate: full-shoe round EV + the dealt cards' round EORs (cbj eor); "
            "error = solved - estimate; R2 = 1 - SS(error) / SS(solved about its mean)",
        ),
    )
    return [spread, fit]
