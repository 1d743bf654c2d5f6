"""The report's front matter as a lab files it: the title block, the rules of play with
worked examples, and the definitions with the report's one sign convention.

Pure: the figures of :func:`solver.studies.report.report_figures` in, blocks out. The
clauses' readings are the rule table's own words (:data:`~solver.model.rule_table.RULE_TABLE`),
so they follow the rules in force.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.model.hands import best_total, hand_of, hard_total
from solver.model.rule_table import RULE_TABLE, RULES_BY_NAME
from solver.model.rules import PresetName, Rules
from solver.present.report.blocks import Grid, Section, Text
from solver.present.style import show
from solver.present.wording import differences_in_words, to_one
from solver.results.figures import (
    FIGURES,
    QUANTITIES,
    SIGN_CONVENTION,
    Figure,
    Method,
    Wager,
    heading,
    outcome_words,
)
from solver.results.report import chart_differences

if TYPE_CHECKING:
    from solver.model.cards import Card
    from solver.model.cells import Actions
    from solver.results.report import ReportFigures, WorkedExample


@dataclass(frozen=True, slots=True)
class Prepared:
    """Who the report is prepared by and for, a note of what this revision changed, and the
    game's table limits and procedures as the casino gives them.

    Blank fields print as lines to fill in by hand; blank limits and procedures are left out.
    """

    by: str = ""
    for_: str = ""
    note: str = ""
    limits: str = ""
    procedures: str = ""


#: What an empty field of the title block prints.
BLANK = "\u2014" * 12

#: The game's name under each preset's rules; any other rules are the game's own.
PRESET_GAMES = {
    PresetName.CASINO_EDITION: "Community Blackjack (Casino Edition)",
    PresetName.VEGAS_21: "Vegas 21 (Community Blackjack)",
}


def game_title(rules: Rules) -> str:
    """The game's name as the report's title gives it: a preset's only when the rules are
    the preset's.

    >>> game_title(Rules()), game_title(Rules(decks=2))
    ('Community Blackjack (Casino Edition)', 'Community Blackjack, own rules: 2 decks')
    """
    for preset, name in PRESET_GAMES.items():
        if Rules.from_preset(preset.value) == rules:
            return name
    return f"{OWN_RULES}: {differences_in_words(rules, Rules())}"


#: The name of the game under rules that are no preset's.
OWN_RULES = "Community Blackjack, own rules"


def title_and_subtitle(rules: Rules, subtitle: str) -> tuple[str, str]:
    """The report's title and subtitle: the game's name, its own rules (if no preset's)
    leading the subtitle so that the title stays one line.

    >>> title_and_subtitle(Rules(decks=2), "PAR sheet")
    ('Community Blackjack, own rules', '2 decks: PAR sheet')
    """
    name = game_title(rules)
    if not name.startswith(OWN_RULES):
        return name, subtitle
    return OWN_RULES, f"{name.removeprefix(OWN_RULES + ': ')}: {subtitle}"


def _reading(rules: Rules, name: str) -> str:
    """A rule's setting in plain words, from the rule table."""
    return RULES_BY_NAME[name].words(getattr(rules, name))


def rules_version(rules: Rules) -> str:
    """The rules as a short hash of their JSON, with the preset they equal if any."""
    digest = hashlib.sha256(
        json.dumps(rules.to_json(), sort_keys=True).encode("utf-8")
    ).hexdigest()[:12]
    named = [p.value for p in PresetName if Rules.from_preset(p.value) == rules]
    return f"{digest} ({named[0]})" if named else f"{digest} (no preset: own rules)"


def title_fields(rules: Rules, prepared: Prepared) -> tuple[tuple[str, str], ...]:
    """The title block's fields after the game, rules, paytable, software and date: the
    rules' hash, the people, the revision, and the limits and procedures when given."""
    return (
        ("Rules hash", rules_version(rules)),
        ("Prepared by", prepared.by or BLANK),
        ("Prepared for", prepared.for_ or BLANK),
        ("Revision note", prepared.note or BLANK),
        *((("Table limits", prepared.limits),) if prepared.limits else ()),
        *((("Procedures", prepared.procedures),) if prepared.procedures else ()),
    )


# --- Rules of play ------------------------------------------------------------------------

Clause = tuple[str, str]

#: Every clause of the rule text in order: its title and its text. The readings in force
#: follow each, from the rows of the rule table that read that clause.
CLAUSES: tuple[Clause, ...] = (
    (
        "Shoe",
        "The game is dealt from standard 52-card decks shuffled together in a shoe. Every "
        "exact figure assumes a freshly shuffled shoe each round; the effect of dealing to a "
        "cut card is measured under Method and verification.",
    ),
    (
        "Wagers",
        "Each player makes two mandatory wagers, the main wager and the Bonus wager; the "
        "Bonus wager is at least half the main wager.",
    ),
    (
        "Deal",
        "Each player receives one card of their own, and one community Bonus card is dealt "
        "face up for the whole table. The dealer has no card yet.",
    ),
    (
        "Bonus wager",
        "The Bonus wager is settled at once on the player's card and the Bonus card. Same "
        "rank and suit: suited match. Same rank, other suit: rank match. Ranks exactly one "
        "apart, the ace next to both the 2 and the king: adjacent. Ranks decide, not "
        "blackjack values: a 10 and a jack are adjacent, a jack and a king are not. Anything "
        "else loses, and only the best tier reached pays.",
    ),
    (
        "Blackjack",
        "If the player's card and the Bonus card make 21 (an ace and a ten-value card), the "
        "main wager wins at once, whatever the dealer later draws, and the hand is over.",
    ),
    (
        "Player draws",
        "Otherwise the player may stand at any point, even on the single card, or take "
        "another card. The player busts, and loses the main wager at once, when the hard "
        "total of their own cards (every ace counted as 1) goes over 21. The Bonus card never "
        "causes a bust: standing, the player adds it to the total or not, whichever is better.",
    ),
    (
        "Dealer draws",
        "Once the players are done, the dealer draws one or more cards until its total "
        "reaches the standing total below. Its total is the highest of 21 or less from its "
        "own cards, one ace counting 11 where that fits, and the Bonus card counted as the "
        "reading below says. By the rule text the dealer busts when the hard total of its own "
        "cards passes 21, and every player still in wins even money. The dealer does not draw "
        "when every player has busted or had a blackjack.",
    ),
    (
        "Showdown",
        "Otherwise both sides take their best total of 21 or less, each choosing whether to "
        "add the Bonus card. The higher total wins even money; equal totals push.",
    ),
    (
        "Dealer natural",
        "A two-card dealer 21 is a natural. It beats every player total below 21, as any "
        "dealer 21 does. A player 21 counts the Bonus card as a card when it needs it; where "
        "21 can be made both with and without it, the smaller number of cards counts. Which "
        "two-card 21s are naturals, and which player 21s they beat, are readings:",
    ),
)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _player_hand(example: WorkedExample) -> str:
    hand = hand_of(c.points for c in example.player)
    if hard_total(hand) > 21:
        return f"{_cards(example.player)}: busts ({hard_total(hand)} in own cards)"
    if example.result.main.value == "blackjack":
        return f"{_cards(example.player)}: 21 with the Bonus card, a blackjack"
    return f"{_cards(example.player)}: best total {best_total(hand, example.bonus.points)}"


def _dealer_hand(example: WorkedExample) -> str:
    if not example.dealer:
        return "does not draw"
    if example.dealer_total is None:
        return f"{_cards(example.dealer)}: busts"
    natural = ", a natural" if example.dealer_natural else ""
    return f"{_cards(example.dealer)}: total {example.dealer_total}{natural}"


def example_rows(
    examples: Sequence[WorkedExample], chart: Actions | None = None
) -> tuple[tuple[str, ...], ...]:
    """One row per worked example: what it shows, the hands and the result as settled.

    A player who plays a hand otherwise than ``chart`` (the printed chart) is labelled as
    playing a different strategy, the chart's play named beside it.
    """
    rows = []
    for i, ex in enumerate(examples, start=1):
        result = ex.result
        clauses = ", ".join(str(c) for c in ex.deal.clauses)
        word = "clause" if len(ex.deal.clauses) == 1 else "clauses"
        other = () if chart is None else chart_differences(ex, chart)
        note = f" (not the chart's play, shown for the rule: {'; '.join(other)})" if other else ""
        rows.append(
            (
                f"{i}. {ex.deal.shows} ({word} {clauses})",
                str(ex.bonus),
                _player_hand(ex) + note,
                _dealer_hand(ex),
                f"{outcome_words(result.main.value)}, {show('round_net', result.main_net)}",
                f"{outcome_words(result.bonus)}, {show('round_net', result.bonus_net)}",
                show("round_net", result.round_net),
            )
        )
    return tuple(rows)


def game_section(figures: ReportFigures, prepared: Prepared) -> Section:
    """The game in brief, its table limits and procedures when given, and worked examples
    (every clause of the rules in full: Annex A)."""
    rules = figures.rules
    ratio = rules.bonus_ratio
    pays = "; ".join(
        f"{outcome_words(name)} {to_one(pay)}" for name, pay in rules.paytable.as_dict().items()
    )
    brief = (
        f"Each player stakes a main wager and a Bonus wager of {ratio} of it or more, and gets "
        "one card; one community Bonus card is dealt face up for the table. The Bonus wager "
        f"is settled at once on the player's card and the Bonus card ({pays}; anything else "
        "loses). A player's card and the Bonus card making 21 is a blackjack, paid "
        f"{to_one(rules.blackjack_pays)} at once. Otherwise the player hits or stands on the "
        "total of their own cards, adding the Bonus card when it helps, and busts over a hard "
        f"21. The dealer then draws and stands {_reading(rules, 'dealer_stands_on')} "
        f"({RULES_BY_NAME['dealer_bonus'].label.lower()}: {_reading(rules, 'dealer_bonus')}). "
        "The higher total wins even money and equal "
        f"totals push. Dealer naturals: {_reading(rules, 'dealer_natural')}; a dealer natural "
        f"beats {_reading(rules, 'natural_beats')}. Annex A gives every clause of the rules "
        "and the reading in force where the text leaves a point open."
    )
    lead = (
        "Eight rounds dealt card by card show the clauses at work, each settled by the "
        "independent simulator under the rules in force."
    )
    stated = [
        Text(f"{label}: {text}")
        for label, text in (("Table limits", prepared.limits), ("Procedures", prepared.procedures))
        if text
    ]
    return Section(
        "The game",
        (
            Text(brief),
            *stated,
            Text(lead),
            Grid(
                (
                    "example",
                    "Bonus card",
                    "player",
                    "dealer",
                    "main wager",
                    "Bonus wager",
                    "round net",
                ),
                example_rows(figures.examples, figures.chart),
                caption="Worked examples (the descriptions are of the default reading). Cards "
                "in the order dealt: the player's, the Bonus "
                "card, the player's draws, the dealer's; each player plays as the strategy "
                "chart says, unless the row names the chart's play. Nets in units of each "
                f"wager; the round's in main-wager units with {ratio} on the Bonus.",
                numeric=False,
            ),
        ),
    )


def clauses_section(figures: ReportFigures) -> Section:
    """The complete rules of play in numbered clauses, each reading stated (Annex A)."""
    rules = figures.rules
    clauses = []
    for n, (title, text) in enumerate(CLAUSES, start=1):
        readings = "; ".join(
            f"{rule.label}: {rule.words(getattr(rules, rule.name))}"
            for rule in RULE_TABLE
            if rule.clause == n
        )
        stated = f" Reading in force: {readings}." if readings else ""
        clauses.append(Text(f"{n}. {title}. {text}{stated}"))
    return Section(
        "Rules of play",
        (
            Text(
                "The rule text's nine clauses, as this analysis reads them. Where the text "
                "leaves a point open, the reading in force is stated with the clause "
                "(docs/rules.md names the option that changes it)."
            ),
            *clauses,
        ),
    )


# --- Definitions --------------------------------------------------------------------------


def definition_rows(keys: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The sign convention, then each figure of ``keys`` in the catalogue's order as it
    defines it: its label, and its definition with its basis (and its method when not
    exact).

    A quantity shown for several wagers (EV, house edge, ...) is one row: the catalogue's
    words for the quantity, each wager's basis after it.
    """
    shown = [f for f in FIGURES if f.key in set(keys)]
    rows = [("sign convention", SIGN_CONVENTION)]
    done: set[str] = set()
    for found in shown:
        family = [f for f in shown if f.quantity == found.quantity]
        if found.quantity in QUANTITIES and len(family) > 1:
            if found.quantity in done:
                continue
            done.add(found.quantity)
            bases = (
                family[0].basis.short
                if len({f.basis for f in family}) == 1
                else "; ".join(f"{_WAGER_WORDS[f.wager]} {f.basis.short}" for f in family)
            )
            methods = {f.method for f in family} - {Method.EXACT}
            method = "".join(f" Method: {m.short} ({_wagers_by(family, m)})." for m in methods)
            rows.append((found.quantity, f"{QUANTITIES[found.quantity]}{_basis(bases)}{method}"))
            continue
        method = "" if found.method is Method.EXACT else f" Method: {found.method.short}."
        basis = _basis(found.basis.short) if found.basis.short not in heading(found.key) else ""
        rows.append((heading(found.key), f"{found.definition}{basis}{method}"))
    return tuple(rows)


def _basis(words: str) -> str:
    return f" Basis: {words}." if words else ""


_WAGER_WORDS = {Wager.MAIN: "main", Wager.BONUS: "Bonus", Wager.ROUND: "round"}


def _wagers_by(family: Sequence[Figure], method: Method) -> str:
    return ", ".join(f.wager.value for f in family if f.method is method)


def definitions_section(keys: Sequence[str]) -> Section:
    """Every figure the report prints (``keys``), defined once, with the one sign convention."""
    return Section(
        "Definitions",
        (
            Grid(
                ("figure", "definition"),
                definition_rows(keys),
                caption="Every figure the tables of this report print, under the label the "
                "tables use, as the project's figure catalogue defines it (docs/glossary.md "
                "lists them all, with their formats). Exact unless the definition says "
                "otherwise.",
                numeric=False,
            ),
        ),
    )
