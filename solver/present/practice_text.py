"""``cbj practice`` for people: a practice turn as lines of plain text for a terminal.

Pure: a practice turn's parts in (the state, the grade, the round played out), lines out.
The grade's words are the Practice page's (:func:`~solver.present.practice.cost_words`,
:func:`~solver.present.practice.perfect_words`), so a mistake costs the same, said the
same way, in both.

>>> from solver.model.cards import Card
>>> card_text(Card.parse("10h")), card_text(Card.parse("7"))
('10♥', '7')
"""

from __future__ import annotations

from collections.abc import Callable

from solver.model.cards import VALUES, Card, value_label
from solver.model.cells import Action, Cell, cell_name, cell_of
from solver.model.hands import best_total, hand_of, hard_total
from solver.model.outcomes import MainOutcome
from solver.present.practice import cost_words, perfect_words
from solver.present.practice_stats import accuracy
from solver.present.style import signed
from solver.results.practice import Grade, PracticeState, Settlement
from solver.results.practice_history import PracticeHistory
from solver.results.practice_stats import SessionStats

#: Each suit's sign.
SUIT_SIGNS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
#: How the main wager ended, in words.
RESULTS = {
    MainOutcome.BLACKJACK: "blackjack",
    MainOutcome.WIN: "you win",
    MainOutcome.PUSH: "a push",
    MainOutcome.LOSE: "you lose",
}
#: The keys a session takes, as its first lines say them.
KEYS = "h hit, s stand, Enter (or n) the next round, q quit"


def card_text(card: Card) -> str:
    """A card as the terminal shows it: its rank and its suit's sign."""
    return f"{card.rank}{SUIT_SIGNS[str(card.suit)]}" if card.suit else str(card.rank)


def cards_text(cards: tuple[Card, ...]) -> str:
    """Cards, each as :func:`card_text`, separated by spaces."""
    return " ".join(card_text(c) for c in cards)


def total_text(cards: tuple[Card, ...], bonus: Card) -> str:
    """The hand's chart cell (``hard 13``), and its best total with the Bonus card where
    that is more, or that it is over 21."""
    hand = hand_of(c.points for c in cards)
    if hard_total(hand) > 21:
        return f"{hard_total(hand)}: over 21"
    cell = cell_of(hand)
    best = best_total(hand, bonus.points)
    return cell_name(cell) + (f" ({best} with the Bonus card)" if best != cell[1] else "")


def hand_lines(state: PracticeState) -> list[str]:
    """The round in play: its number and the shoe, the Bonus card, the player's cards."""
    hand = state.hand
    if hand is None:
        return []
    setup = state.setup
    shoe = f"shoe {state.shoes}, {state.dealt} of {52 * setup.rules.decks} cards dealt"
    return [
        f"Round {state.rounds} ({shoe})",
        f"  Bonus card {card_text(hand.bonus)} \u00b7 your cards {cards_text(hand.cards)} "
        f"\u00b7 {total_text(hand.cards, hand.bonus)}",
    ]


def grade_lines(grade: Grade, row: str = "") -> list[str]:
    """The decision's grade: right or a mistake against the chart, on which cell; after a
    mistake its cost, said once, and the chart's ``row`` with the cell marked; perfect play
    for this very hand where it differs."""
    play = "hit" if grade.chart is Action.HIT else "stand"
    cell = f"{cell_name(grade.cell)} against a Bonus {value_label(grade.bonus.points)}"
    said = "Mistake" if grade.mistake else "Right"
    lines = [f"{said}: {grade.chart_name} says {play} on {cell}."]
    if grade.mistake:
        lines += [cost_words(grade), *([row] if row else [])]
    if grade.mistake or grade.perfect.action is not grade.chart:
        lines.append(perfect_words(grade))
    return lines


#: Each play as a chart writes it.
LETTERS = {Action.HIT: "H", Action.STAND: "S", Action.NONE: "-"}


def chart_row(cell: Cell, bonus: int, action: Callable[[Cell, int], Action]) -> str:
    """The chart's row of ``cell``, each Bonus card's play, the column of the Bonus card
    ``bonus`` marked by brackets: the cell the page highlights after a mistake.

    >>> chart_row((False, 16), 10, lambda cell, b: Action.STAND if 1 < b < 7 else Action.HIT)
    'The chart, hard 16: A H · 2 S · 3 S · 4 S · 5 S · 6 S · 7 H · 8 H · 9 H · [10 H]'
    """
    plays = (f"{value_label(b)} {LETTERS[action(cell, b)]}" for b in VALUES)
    marked = (f"[{play}]" if b == bonus else play for b, play in zip(VALUES, plays, strict=True))
    return f"The chart, {cell_name(cell)}: " + " \u00b7 ".join(marked)


def settlement_line(settled: Settlement) -> str:
    """The round played out, in one line: the dealer's draw, each wager, the round."""
    if settled.main is MainOutcome.BLACKJACK:
        dealer = "Blackjack: your card and the Bonus card make 21"
    elif settled.player_total is None:
        dealer = "Your cards went over 21; the dealer does not draw"
    elif settled.dealer_total is None:
        dealer = f"Dealer drew {cards_text(settled.dealer)} and went over 21"
    else:
        natural = " (a natural)" if settled.dealer_natural else ""
        dealer = f"Dealer drew {cards_text(settled.dealer)}: {settled.dealer_total}{natural}"
    bonus = "no match" if settled.bonus_outcome == "loss" else settled.bonus_outcome
    return (
        f"{dealer}. Main wager: {RESULTS[settled.main]}, {_net(settled.main_net)}; Bonus "
        f"wager: {bonus.replace('_', ' ')}; the round {_net(settled.round_net)} main bets."
    )


def _net(value: object) -> str:
    return signed(value, 2) if value else "0"  # type: ignore[arg-type]


def score_line(stats: SessionStats, history: PracticeHistory | None) -> str:
    """The session's accuracy and streak, and across sessions where a history is kept."""
    total = stats.total
    line = (
        f"Accuracy {accuracy(total)} of {total.decisions} \u00b7 streak {stats.streak} "
        f"(best {stats.best_streak})"
    )
    if history is not None and history.sessions:
        line += (
            f" \u00b7 all sessions: {accuracy(history.total)} of {history.total.decisions}, "
            f"streak {history.streak} (best {history.best})"
        )
    return line
