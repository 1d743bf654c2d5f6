"""The workbench's Practice page as HTML: the table, the grade of each decision, the score.

Pure: a practice turn in (:class:`~solver.results.practice_state.PracticeTurn`), escaped
HTML out, in parts the page's script puts in place one by one (the table, the grade, the
buttons, the score); the whole page, for a browser without the script, is made of the same
parts.  Each exact figure carries its fraction in ``data-exact``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from html import escape

from solver.model.cards import Card, value_label
from solver.model.catalogue import DRILL, PRACTICE_CHART, PRACTICE_PENETRATION, PRACTICE_SEED
from solver.model.cells import Action, Actions, cell_name, cell_of
from solver.model.hands import best_total, hand_of
from solver.model.numbers import int_text
from solver.model.outcomes import MainOutcome
from solver.model.rule_table import RULES_BY_NAME
from solver.model.rules import Rules
from solver.present.fields import param_field
from solver.present.long_numbers import exact_html
from solver.present.practice_history import chart_rows_html, hand_types_html, history_html
from solver.present.practice_stats import accuracy, of_session
from solver.present.style import amount, decimals, signed
from solver.present.wording import rules_sentence
from solver.results.figures import heading
from solver.results.practice import Drill, Grade, PracticeState, Score, Settlement
from solver.results.practice_history import PracticeHistory
from solver.results.practice_state import PracticeTurn
from solver.results.practice_stats import SessionStats

_SUITS = {"s": ("\u2660", "spades"), "h": ("\u2665", "hearts"), "d": ("\u2666", "diamonds"),
          "c": ("\u2663", "clubs")}  # fmt: skip
_RESULT_WORDS = {
    MainOutcome.BLACKJACK: "blackjack",
    MainOutcome.WIN: "you win",
    MainOutcome.PUSH: "a push (a tie)",
    MainOutcome.LOSE: "you lose",
}
_PLAY_WORDS = {Action.HIT: "hit", Action.STAND: "stand", Action.NONE: "no play"}


def _exact(value: Fraction) -> str:
    text = int_text(value.numerator)
    return text if value.denominator == 1 else f"{text}/{int_text(value.denominator)}"


def _number(value: Fraction, attribute: str) -> str:
    """An exact figure to two decimals unless more are needed (:func:`decimals`), its
    fraction in ``data-exact``."""
    return f'<span {attribute} data-exact="{_exact(value)}">{decimals(value)}</span>'


def card_html(card: Card) -> str:
    """A card as the table shows it: rank and suit sign, red or black, its name for a
    screen reader."""
    sign, name = _SUITS[str(card.suit)] if card.suit else ("", "")
    colour = " red" if card.suit is not None and card.suit.value in "hd" else ""
    rank = str(card.rank)
    return (
        f'<span class="card{colour}" data-card="{escape(str(card))}" role="img" '
        f'aria-label="{escape(rank)} of {name}">{escape(rank)}{sign}</span>'
    )


def _cards(cards: tuple[Card, ...]) -> str:
    return "".join(card_html(c) for c in cards)


def _total(cards: tuple[Card, ...], bonus: Card | None = None) -> str:
    """The hand's chart cell (``hard 13``), and its best total with the Bonus card when
    that is better."""
    hand = hand_of(c.points for c in cards)
    hard = sum(v * n for v, n in enumerate(hand, start=1))
    if hard > 21:
        return f"{hard}: over 21"
    cell = cell_of(hand)
    best = cell[1] if bonus is None else best_total(hand, bonus.points)
    joined = f" ({best} with the Bonus card)" if best != cell[1] else ""
    return cell_name(cell) + joined


def rule_words(rules: Rules, name: str) -> str:
    """A rule in force as the table names it: ``rule 7, dealer stands: at a best total ...``."""
    rule = RULES_BY_NAME[name]
    return f"rule {rule.clause}, {rule.label.lower()}: {rule.words(getattr(rules, name))}"


def _shoe_line(state: PracticeState) -> str:
    setup = state.setup
    size = 52 * setup.rules.decks
    drill = setup.drill.words.split(",")[0]
    return (
        f'<p class="shoe-line">Round <span data-round>{state.rounds}</span> · shoe '
        f"{state.shoes}, {state.dealt} of {size} cards dealt (reshuffled after {setup.cut()}) · "
        f"{escape(drill)} · {escape(setup.chart_name)} · seed <span data-seed>{setup.seed}</span>"
        "</p>"
    )


def table_html(state: PracticeState, settled: Settlement | None) -> str:
    """The table: the Bonus card, the player's hand as it grows (or the round played out),
    and the rules in force."""
    hand = state.hand
    if hand is None and settled is None:
        return _shoe_line(state) + '<p class="idle">Press Deal (N) for the next round.</p>'
    bonus = hand.bonus if hand is not None else settled.bonus  # type: ignore[union-attr]
    cards = hand.cards if hand is not None else settled.player  # type: ignore[union-attr]
    dealt = (
        f" <small>(dealt to {escape(_total(cards[: hand.dealt]))} by the drill)</small>"
        if hand is not None and hand.dealt > 1
        else ""
    )
    dealer = (
        f'<div class="spot dealer"><p class="spot-name">Dealer</p>{_cards(settled.dealer)}</div>'
        if settled is not None and settled.dealer
        else ""
    )
    spots = (
        '<div class="spots">'
        f'<div class="spot"><p class="spot-name">Bonus card</p>{card_html(bonus)}</div>'
        f'<div class="spot"><p class="spot-name">Your cards</p>'
        f'<div class="hand" data-hand="{escape(" ".join(map(str, cards)))}">{_cards(cards)}</div>'
        f"</div>{dealer}</div>"
        f'<p class="total" data-total>{escape(_total(cards, bonus))}{dealt}</p>'
    )
    played = "" if settled is None else settlement_html(state.rules, settled)
    return _shoe_line(state) + spots + played


def _short(card: Card) -> str:
    return f"{card.rank}{_SUITS[str(card.suit)][0]}" if card.suit else str(card.rank)


def settlement_html(rules: Rules, settled: Settlement) -> str:
    """The round played out: the dealer's draw, the main wager and the Bonus wager, each
    with the rule that settles it, and the round's result."""
    lines = []
    if settled.main is MainOutcome.BLACKJACK:
        lines.append(
            ("Main wager", "your card and the Bonus card make 21: a blackjack, paid at once: "
             f"{_net(settled.main_net)}", rule_words(rules, "blackjack_pays"))
        )  # fmt: skip
    elif settled.player_total is None:
        lines.append(
            ("Main wager", f"your own cards went over 21, so it loses: {_net(settled.main_net)}; "
             "the dealer does not draw", "rule 6")
        )  # fmt: skip
    else:
        lines += _showdown(rules, settled)
    bonus_rules = f"{rule_words(rules, 'paytable')}; {rule_words(rules, 'bonus_ratio')}"
    staked = settled.bonus_net * rules.bonus_ratio
    pair = f"{_short(settled.player[0])} and {_short(settled.bonus)}"
    if settled.bonus_outcome == "loss":
        said = f"{pair} are no match: it loses"
    else:
        tier = settled.bonus_outcome.replace("_", " ")
        tier = f"a {tier}" if tier.endswith("match") else f"{tier} ranks"
        said = f"{pair} are {tier}, paid {_pay(settled.bonus_net)} to 1"
    lines.append(("Bonus wager", f"{said}: {_net(staked)}", bonus_rules))
    items = "".join(
        f"<li><strong>{escape(what)}</strong>: {escape(said)}. "
        f'<small class="rule">{escape(why[0].upper() + why[1:])}.</small></li>'
        for what, said, why in lines
    )
    total = (
        f'<li><strong>In all</strong>: <span data-net="{_exact(settled.round_net)}">'
        f"{escape(_net(settled.round_net))}</span> main-wager units.</li>"
    )
    return (
        f'<div class="settled" data-result="{settled.main.value}">'
        f'<ul class="how">{items}{total}</ul></div>'
    )


def _pay(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


def _net(value: Fraction) -> str:
    return signed(value, 2) if value else "0"


def _showdown(rules: Rules, settled: Settlement) -> list[tuple[str, str, str]]:
    """The dealer's draw and the main wager's showdown, each with its rule."""
    drew = " ".join(_short(c) for c in settled.dealer)
    stands = rule_words(rules, "dealer_stands_on")
    result = _RESULT_WORDS[settled.main]
    net = _net(settled.main_net)
    if settled.dealer_total is None:
        return [
            ("Dealer", f"drew {drew} and went over 21", f"{stands}; rule 7"),
            ("Main wager", f"{result}: {net}", "rule 7"),
        ]
    if settled.dealer_natural:
        natural = f"{rule_words(rules, 'dealer_natural')}; {rule_words(rules, 'natural_beats')}"
        return [
            ("Dealer", f"drew {drew}: a natural 21", natural),
            ("Main wager", f"your {settled.player_total} against it: {result}, {net}", natural),
        ]
    return [
        ("Dealer", f"drew {drew} and stands on {settled.dealer_total}", stands),
        (
            "Main wager",
            f"your {settled.player_total} against the dealer's {settled.dealer_total}: "
            f"{result}, {net}",
            "rule 8",
        ),
    ]


#: A piece of a sentence: words, or a figure (its name in ``data-cost`` and its value).
Piece = str | tuple[str, Fraction]


def cost_pieces(grade: Grade) -> tuple[Piece, ...]:
    """What the decision's cell costs played the other way, said once: each time it comes
    up and made every time (per 100 rounds), in main bets.

    A cell the chart never reaches has no cost per round; a mistake there is priced on
    this hand against perfect play for it.  A chart of the player's own may play a cell
    worse than the other way: then it is that play which costs.
    """
    each, per_100 = grade.per_mistake, grade.per_100_rounds
    if each is None:
        if not grade.mistake:
            return ("Playing by the chart never reaches this hand, so the other way costs "
                    "nothing per round.",)  # fmt: skip
        return ("This mistake cost ", ("hand", grade.hand_cost), " of your main bet on this "
                "hand; playing by the chart never reaches it.")  # fmt: skip
    if each == 0:
        return ("Both plays are worth the same here.",)
    if each < 0:
        return (f"Here {grade.chart_name} plays the worse way: it costs ", ("each", -each),
                " of your main bet each time; every time, ", ("per-100", -per_100),
                " per 100 rounds.")  # fmt: skip
    opening = "This mistake costs " if grade.mistake else "Playing it the other way would cost "
    every = "; made every time, " if grade.mistake else "; every time, "
    return (opening, ("each", each), " of your main bet each time", every,
            ("per-100", per_100), " per 100 rounds.")  # fmt: skip


def cost_words(grade: Grade) -> str:
    """:func:`cost_pieces` as plain text, two decimals unless more are needed.

    ``This mistake costs 0.25 of your main bet each time; made every time, 0.23 per 100
    rounds.``
    """
    return "".join(p if isinstance(p, str) else decimals(p[1]) for p in cost_pieces(grade))


def perfect_words(grade: Grade) -> str:
    """Perfect play for this very hand in this shoe, beside the chart's play."""
    play = "hits" if grade.perfect.value == "hit" else "stands"
    if grade.perfect.action is grade.chart:
        return f"Perfect play for this very hand in this shoe {play} too."
    return (
        f"Perfect play for this very hand in this shoe {play}: the cards seen make it an "
        "exception to the chart."
    )


def _piece_html(piece: Piece) -> str:
    if isinstance(piece, str):
        return escape(piece)
    name, value = piece
    return f'<span data-figure="{name}" data-exact="{_exact(value)}">{decimals(value)}</span>'


def grade_html(grade: Grade | None, chart: Actions | None = None) -> str:
    """The last decision's grade: right or a mistake against the chart (after a mistake,
    the chart's rows around the hand with its cell highlighted), what playing the cell the
    other way costs, said once (:func:`cost_words`), and perfect play for this very hand;
    the exact fractions folded away."""
    if grade is None:
        return ""
    cell = f"{cell_name(grade.cell)} against a Bonus {value_label(grade.bonus.points)}"
    verdict = "wrong" if grade.mistake else "right"
    said = "Mistake" if grade.mistake else "Right"
    head = (
        f'<p class="verdict {verdict}">{said}: {escape(grade.chart_name)} says '
        f"<strong>{_PLAY_WORDS[grade.chart]}</strong> on {escape(cell)}.</p>"
    )
    cost = "".join(_piece_html(p) for p in cost_pieces(grade))
    evs = (
        f"stand {escape(signed(grade.stand, 4))}, hit {escape(signed(grade.hit, 4))}; "
        f"{grade.seen} cards seen"
    )
    highlight = grade.highlight
    rows = (
        chart_rows_html(chart, grade.cell, grade.bonus.points, grade.chart_name)
        if grade.mistake and chart is not None
        else ""
    )
    return (
        f'<div class="grade" data-mistake="{str(grade.mistake).lower()}" '
        f'data-cell="{escape(cell_name(grade.cell))}" data-bonus="{grade.bonus.points}" '
        f'data-column="{escape(highlight["bonus"])}" '
        f'data-play="{grade.play.value}" data-chart="{grade.chart.value}" '
        f'data-perfect="{grade.perfect.value}" data-seen-count="{grade.seen}">'
        f'{head}<p class="cost">{cost}</p>{rows}<p>{escape(perfect_words(grade))}</p>'
        '<details class="exact"><summary>The exact figures</summary>'
        "<p>EV given up on this hand against perfect play: "
        + _number(grade.hand_cost, 'data-cost="hand"')
        + f" ({evs})</p><p>The other way every time, per 100 rounds: "
        + _number(grade.per_100_rounds, 'data-cost="cell"')
        + f"</p><p>EV given up on this hand: {exact_html(grade.hand_cost)}</p>"
        f"<p>Per 100 rounds: {exact_html(grade.per_100_rounds)}</p>"
        f"<p>Stand: {exact_html(grade.stand)}; hit: {exact_html(grade.hit)}</p>"
        "</details></div>"
    )


def score_html(score: Score, stats: SessionStats | None = None) -> str:
    """The running score (with the session's statistics, its accuracy and streaks) and the
    hands to review, the costliest first."""
    cost = score.cost_per_100_rounds
    learning = () if stats is None else (
        (heading("practice_accuracy").capitalize(),
         f'<span data-score="accuracy">{accuracy(stats.total)}</span>'),
        (heading("practice_streak").capitalize(),
         f'<span data-score="streak">{stats.streak}</span> (best '
         f'<span data-score="best-streak">{stats.best_streak}</span>)'),
    )  # fmt: skip
    figures = (
        ("Decisions", f'<span data-score="decisions">{score.decisions}</span>'),
        *learning,
        ("Mistakes against the chart", f'<span data-score="mistakes">{score.mistakes}</span>'),
        (
            "What those cells cost, each played that way every time",
            _number(cost, 'data-score="cost"') + " per 100 rounds",
        ),
        (
            "Decisions unlike perfect play for the hand and shoe",
            f'<span data-score="unlike-perfect">{score.unlike_perfect}</span>',
        ),
        (
            "EV given up against perfect play, all hands",
            f'<span data-score="given-up">{decimals(score.given_up)}</span> main bets',
        ),
        (
            "Rounds played, and their result",
            f'<span data-score="rounds">{score.rounds}</span>, '
            f'<span data-score="net" data-exact="{_exact(score.net)}">'
            f"{escape(amount(score.net, 2))}</span> units",
        ),
    )
    rows = "".join(f"<div><dt>{name}</dt><dd>{value}</dd></div>" for name, value in figures)
    review = score.review()
    listed = "".join(
        f'<li data-review="{escape(cell_name(m.flip.cell))} v {value_label(m.flip.bonus)}">'
        f"{escape(cell_name(m.flip.cell))} against a Bonus {value_label(m.flip.bonus)}: "
        + _number(m.flip.per_100_rounds, 'data-cost="review"')
        + f" per 100 rounds (missed {m.times} time{'s' if m.times > 1 else ''})</li>"
        for m in review
    )
    cells = (
        f'<h3>Hands to review, the costliest first</h3><ol class="review">{listed}</ol>'
        if review
        else "<p>No hands to review yet.</p>"
    )
    kinds = "" if stats is None else hand_types_html(of_session(stats), "This session by kind of "
                                                     "hand, Bonus card and total")  # fmt: skip
    return f'<h2>This session</h2><dl class="score">{rows}</dl>{kinds}{cells}'


@dataclass(frozen=True, slots=True)
class Buttons:
    """Which of the table's buttons a state enables: the decisions, or the next deal."""

    deciding: bool

    def html(self) -> str:
        """Hit and Stand (keys H and S), and Deal (key N)."""
        off = ' disabled aria-disabled="true"'
        decide = "" if self.deciding else off
        deal = off if self.deciding else ""
        return (
            f'<button type="submit" name="play" value="hit" class="play hit"{decide}>'
            "Hit <kbd>H</kbd></button>"
            f'<button type="submit" name="play" value="stand" class="play stand"{decide}>'
            "Stand <kbd>S</kbd></button>"
            f'<button type="submit" name="play" value="deal" class="play deal"{deal}>'
            "Deal <kbd>N</kbd></button>"
        )


def turn_parts(
    turn: PracticeTurn, chart: Actions | None = None, history: PracticeHistory | None = None
) -> dict[str, str]:
    """The page's parts after a turn, by the id of the element each fills (``chart``: the
    chart learned, its rows shown after a mistake; ``history``: the player's across
    sessions, with this turn)."""
    state = turn.state
    more = {} if history is None else {"history": history_html(history)}
    return {
        **more,
        "table": table_html(state, turn.settled),
        "grade": grade_html(turn.grade, chart),
        "buttons": Buttons(state.hand is not None).html(),
        "score": score_html(state.score, state.stats)
        + f'<p class="rules-line">{escape(rules_sentence(state.rules))}</p>',
    }


def empty_parts() -> dict[str, str]:
    """The parts before a session starts."""
    return {
        "table": '<p class="idle">Choose a drill below, then press Start a session.</p>',
        "grade": "",
        "buttons": Buttons(False).html(),
        "score": score_html(Score()),
    }


DRILL_CHOICES = tuple((d.value, d.words) for d in Drill)


#: The controls of the player's history: kept in the browser, so the script's alone (it
#: shows them).
HISTORY_CONTROLS = (
    '<div class="history-controls" hidden>'
    '<details class="more"><summary>Export or import your practice</summary>'
    "<p>Your practice is kept in this browser only. Export it to a file to keep it or move "
    "it to another browser; import such a file to carry on from it.</p>"
    '<button type="button" id="history-export" class="secondary">Export to a file</button>'
    '<div class="field"><label for="history-import">Import a file</label>'
    '<input type="file" id="history-import" accept=".json,application/json" '
    'aria-describedby="history-said"></div>'
    '</details><p id="history-said" role="status"></p></div>'
)


def practice_body(
    parts: Mapping[str, str], setup: str, state: str, open_setup: bool = False
) -> str:
    """The Practice page: the grade, the table and the buttons, then the session's score,
    the player's practice across sessions (filled by the script from the browser's
    storage) and the session's settings (beside them on a wide screen, open before a
    session or to show an error); one form, whose buttons post a play (the script posts
    them itself, with the history)."""
    shown = " open" if open_setup else ""
    return (
        '<form id="practice" class="practice" method="post" action="/practice">'
        f'<input type="hidden" name="state" id="practice-state" value="{escape(state)}">'
        '<input type="hidden" name="history" id="practice-history" value="">'
        '<div class="play-area">'
        f'<div id="grade" aria-live="polite">{parts["grade"]}</div>'
        f'<section id="table" class="felt" aria-live="polite">{parts["table"]}</section>'
        '<p class="error" id="practice-error" role="alert"></p>'
        f'<div id="buttons" class="actions">{parts["buttons"]}</div></div>'
        '<div class="side">'
        f'<section id="score" aria-live="polite">{parts["score"]}</section>'
        f'<section id="history">{parts.get("history", "")}</section>{HISTORY_CONTROLS}'
        f'<details id="setup" class="setup"{shown}><summary>Session: drill, chart, seed, rules'
        f"</summary>{setup}</details></div></form>"
    )


def _field(name: str, label: str, control: str, hint: str, errors: Mapping[str, str]) -> str:
    invalid = " invalid" if name in errors else ""
    return (
        f'<div class="field{invalid}"><label for="f-{name}">{escape(label)}</label>{control}'
        f'<small id="help-{name}">{escape(hint)}</small>'
        f'<p class="error" id="error-{name}" role="alert">{escape(errors.get(name, ""))}</p></div>'
    )


def setup_html(values: Mapping[str, str], errors: Mapping[str, str], rules_fields: str) -> str:
    """The session's settings: the drill, the chart to learn, the seed, the penetration and
    the rules, with the button that starts a session."""
    invalid = ' aria-invalid="true"' if "chart" in errors else ""
    chart = (
        '<input type="file" id="f-chart" accept=".csv,.json,text/csv,application/json" '
        f'aria-describedby="help-chart error-chart"{invalid}>'
        f'<input type="hidden" name="chart_text" id="f-chart_text" '
        f'value="{escape(values.get("chart_text", ""))}">'
        f'<input type="hidden" name="chart_name" id="f-chart_name" '
        f'value="{escape(values.get("chart_name", ""))}">'
    )
    words = dict(DRILL_CHOICES)
    # merge: drop the three str() when this draws with templates (the fields are Markup)
    return (
        '<div class="setup-fields">'
        + str(param_field(DRILL, values.get("drill", ""), errors, words=words.__getitem__))
        + _field("chart", "Your own chart (optional)", chart, PRACTICE_CHART.hint, errors)
        + str(param_field(PRACTICE_SEED, values.get("seed", ""), errors, "a new one"))
        + str(param_field(PRACTICE_PENETRATION, values.get("penetration", ""), errors, "0.75"))
        + f'</div><details class="rules-more"><summary>Rules</summary>{rules_fields}</details>'
        '<button type="submit" name="play" value="start" class="start">Start a session</button>'
    )
