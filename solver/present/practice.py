"""The workbench's Practice page as HTML: the table, the grade of each decision, the score.

Pure: a practice turn in (:class:`~solver.results.practice_state.PracticeTurn`), HTML out,
drawn by the templates of ``templates/practice/``, in parts the page's script puts in place
one by one (the table, the grade, the buttons, the score); the whole page, for a browser
without the script, is made of the same parts.  Each exact figure carries its fraction in
``data-exact``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction

from solver.model.cards import Card, value_label
from solver.model.catalogue import DRILL, PRACTICE_CHART, PRACTICE_PENETRATION, PRACTICE_SEED
from solver.model.cells import Action, Actions, cell_name, cell_of
from solver.model.hands import best_total, hand_of
from solver.model.numbers import int_text
from solver.model.outcomes import MainOutcome
from solver.model.params import Param
from solver.model.rule_table import RULES_BY_NAME
from solver.model.rules import Rules
from solver.present.fields import param_field
from solver.present.long_numbers import exact_html
from solver.present.practice_history import chart_rows_html, hand_types_html, history_html
from solver.present.practice_stats import accuracy, of_session
from solver.present.style import amount, decimals, signed
from solver.present.templates import Markup, macro, render
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


def _figure(value: Fraction, text: str | None = None, **more: object) -> dict[str, object]:
    """An exact figure for a template: its fraction (``exact``, for ``data-exact``) and its
    text, two decimals unless more are needed (:func:`decimals`)."""
    return {"exact": _exact(value), "text": decimals(value) if text is None else text, **more}


def _card(card: Card) -> dict[str, object]:
    """A card as the table shows it: rank and suit sign, red or black, its suit's name for a
    screen reader."""
    sign, name = _SUITS[str(card.suit)] if card.suit else ("", "")
    red = card.suit is not None and card.suit.value in "hd"
    return {"code": str(card), "rank": str(card.rank), "sign": sign, "suit": name, "red": red}


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


def _shoe(state: PracticeState) -> dict[str, object]:
    setup = state.setup
    return {
        "rounds": state.rounds,
        "shoes": state.shoes,
        "dealt": state.dealt,
        "size": 52 * setup.rules.decks,
        "cut": setup.cut(),
        "drill": setup.drill.words.split(",")[0],
        "chart": setup.chart_name,
        "seed": setup.seed,
    }


def table_html(state: PracticeState, settled: Settlement | None) -> Markup:
    """The table: the Bonus card, the player's hand as it grows (or the round played out),
    and the rules in force."""
    hand = state.hand
    if hand is None and settled is None:
        return render("practice/table.html", shoe=_shoe(state), hand=None)
    bonus = hand.bonus if hand is not None else settled.bonus  # type: ignore[union-attr]
    cards = hand.cards if hand is not None else settled.player  # type: ignore[union-attr]
    shown = {
        "bonus": _card(bonus),
        "cards": [_card(c) for c in cards],
        "code": " ".join(map(str, cards)),
        "dealer": [_card(c) for c in settled.dealer] if settled is not None else [],
        "total": _total(cards, bonus),
        "dealt": _total(cards[: hand.dealt]) if hand is not None and hand.dealt > 1 else "",
        "settled": Markup() if settled is None else settlement_html(state.rules, settled),
    }
    return render("practice/table.html", shoe=_shoe(state), hand=shown)


def _short(card: Card) -> str:
    return f"{card.rank}{_SUITS[str(card.suit)][0]}" if card.suit else str(card.rank)


def settlement_html(rules: Rules, settled: Settlement) -> Markup:
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
    return render(
        "practice/settled.html",
        result=settled.main.value,
        lines=[(what, said, why[:1].upper() + why[1:]) for what, said, why in lines],
        net=_figure(settled.round_net, _net(settled.round_net)),
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


def _piece(piece: Piece) -> dict[str, object]:
    if isinstance(piece, str):
        return {"text": piece, "figure": ""}
    name, value = piece
    return _figure(value, figure=name)


def _exact_long(value: Fraction) -> Markup:
    return exact_html(value)


def grade_html(grade: Grade | None, chart: Actions | None = None) -> Markup:
    """The last decision's grade: right or a mistake against the chart (after a mistake,
    the chart's rows around the hand with its cell highlighted), what playing the cell the
    other way costs, said once (:func:`cost_words`), and perfect play for this very hand;
    the exact fractions folded away."""
    if grade is None:
        return Markup()
    rows = (
        chart_rows_html(chart, grade.cell, grade.bonus.points, grade.chart_name)
        if grade.mistake and chart is not None
        else Markup()
    )
    return render(
        "practice/grade.html",
        grade=grade,
        cell=cell_name(grade.cell),
        against=f"{cell_name(grade.cell)} against a Bonus {value_label(grade.bonus.points)}",
        column=grade.highlight["bonus"],
        chart_play=_PLAY_WORDS[grade.chart],
        cost=[_piece(p) for p in cost_pieces(grade)],
        rows=rows,
        perfect=perfect_words(grade),
        stand=signed(grade.stand, 4),
        hit=signed(grade.hit, 4),
        hand_cost=_figure(grade.hand_cost, long=_exact_long(grade.hand_cost)),
        per_100=_figure(grade.per_100_rounds, long=_exact_long(grade.per_100_rounds)),
        stand_long=_exact_long(grade.stand),
        hit_long=_exact_long(grade.hit),
    )


def score_html(
    score: Score, stats: SessionStats | None = None, rules: Rules | None = None
) -> Markup:
    """The running score (with the session's statistics, its accuracy and streaks), the
    hands to review, the costliest first, and the rules in force (when given)."""
    learning = None if stats is None else {
        "accuracy_label": heading("practice_accuracy").capitalize(),
        "accuracy": accuracy(stats.total),
        "streak_label": heading("practice_streak").capitalize(),
        "streak": stats.streak,
        "best": stats.best_streak,
    }  # fmt: skip
    review = [
        _figure(
            m.flip.per_100_rounds,
            key=f"{cell_name(m.flip.cell)} v {value_label(m.flip.bonus)}",
            hand=f"{cell_name(m.flip.cell)} against a Bonus {value_label(m.flip.bonus)}",
            missed=f"{m.times} time{'s' if m.times > 1 else ''}",
        )
        for m in score.review()
    ]
    kinds = Markup() if stats is None else hand_types_html(
        of_session(stats), "This session by kind of hand, Bonus card and total"
    )  # fmt: skip
    return render(
        "practice/score.html",
        score=score,
        stats=learning,
        cost=_figure(score.cost_per_100_rounds),
        given_up=decimals(score.given_up),
        net=_figure(score.net, amount(score.net, 2)),
        kinds=kinds,
        review=review,
        rules="" if rules is None else rules_sentence(rules),
    )


def buttons_html(deciding: bool) -> Markup:
    """Hit and Stand (keys H and S) enabled while deciding, else Deal (key N)."""
    return render("practice/buttons.html", deciding=deciding)


def turn_parts(
    turn: PracticeTurn, chart: Actions | None = None, history: PracticeHistory | None = None
) -> dict[str, Markup]:
    """The page's parts after a turn, by the id of the element each fills (``chart``: the
    chart learned, its rows shown after a mistake; ``history``: the player's across
    sessions, with this turn)."""
    state = turn.state
    more = {} if history is None else {"history": history_html(history)}
    return {
        **more,
        "table": table_html(state, turn.settled),
        "grade": grade_html(turn.grade, chart),
        "buttons": buttons_html(state.hand is not None),
        "score": score_html(state.score, state.stats, state.rules),
    }


_BEFORE = "Choose a drill below, then press Start a session."


def empty_parts() -> dict[str, Markup]:
    """The parts before a session starts."""
    return {
        "table": macro("practice/bits.html", "idle", _BEFORE),
        "grade": Markup(),
        "buttons": buttons_html(False),
        "score": score_html(Score()),
    }


DRILL_CHOICES = tuple((d.value, d.words) for d in Drill)


def practice_body(
    parts: Mapping[str, Markup], setup: Markup, state: str, open_setup: bool = False
) -> Markup:
    """The Practice page: the grade, the table and the buttons, then the session's score,
    the player's practice across sessions (filled by the script from the browser's
    storage) and the session's settings (beside them on a wide screen, open before a
    session or to show an error); one form, whose buttons post a play (the script posts
    them itself, with the history)."""
    return render(
        "practice/page.html",
        parts=parts,
        history=parts.get("history", Markup()),
        setup=setup,
        state=state,
        open_setup=open_setup,
    )


def _field(
    param: Param,
    values: Mapping[str, str],
    errors: Mapping[str, str],
    shown: str = "",
    words: Callable[[str], str] | None = None,
) -> Markup:
    """The field of one of the catalogue's parameters (:func:`param_field`)."""
    return param_field(param, values.get(param.name, ""), errors, shown, words)


def setup_html(
    values: Mapping[str, str], errors: Mapping[str, str], rules_fields: Markup
) -> Markup:
    """The session's settings: the drill, the chart to learn, the seed, the penetration and
    the rules, with the button that starts a session."""
    chart = {
        "text": values.get("chart_text", ""),
        "name": values.get("chart_name", ""),
        "hint": PRACTICE_CHART.hint,
        "error": errors.get("chart", ""),
        "invalid": "chart" in errors,
    }
    return render(
        "practice/setup.html",
        drill=_field(DRILL, values, errors, words=dict(DRILL_CHOICES).__getitem__),
        chart=chart,
        seed=_field(PRACTICE_SEED, values, errors, "a new one"),
        penetration=_field(PRACTICE_PENETRATION, values, errors, "0.75"),
        rules=rules_fields,
    )
