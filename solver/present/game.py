"""The game's figures as tables for people (``cbj solve``, ``cbj bonus``, the volatility of
``cbj strategies``): every label, basis and format from the figure catalogue.

Pure: results in, :class:`~solver.present.tables.Table` out; each cell that shows a figure
carries its catalogue key (:attr:`Table.keys`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.model.cards import value_label
from solver.model.numbers import number, percent, signed
from solver.present.formats import Format
from solver.present.tables import Table, dealer_table, dumps, render_tables, rules_notes
from solver.present.wording import to_one
from solver.results.figures import (
    SIGN_CONVENTION,
    Sign,
    figure,
    heading,
    outcome_words,
)
from solver.results.volatility import METHOD_WORDS

if TYPE_CHECKING:
    from solver.results.bonus import BonusAnalysis, BonusResult
    from solver.results.game import DealerResult, GameResult
    from solver.results.volatility import Volatility

#: The terminal's words for the sign convention (the catalogue's, said once per output).
SIGNS_NOTE = f"signs: {SIGN_CONVENTION}"

#: A figure shown: its catalogue key and its value.
Shown = tuple[str, Any]


def cli_value(key: str, value: Fraction | float) -> str:
    """A figure's value as the terminal prints it: percentages to four places, the player's
    amounts signed to six, spreads to four, chances to six.

    >>> cli_value("round_house_edge", Fraction(1, 80)), cli_value("main_ev", -0.5)
    ('1.2500%', '-0.500000')
    """
    found = figure(key)
    if found.percent:
        return percent(value)
    if found.sign is Sign.PLAYER:
        return signed(value)
    if found.quantity in ("SD", "volatility index", "SD of the net result"):
        return number(value, 4)
    return number(value)


def _exact_text(value: Any) -> str:
    """A figure's exact fraction, or a dash where it has none (a square root)."""
    return str(value) if isinstance(value, Fraction | int) else "-"


def figure_table(
    title: str, shown: Sequence[Shown], notes: tuple[str, ...], exact: bool = False
) -> Table:
    """A table of figures, one a row: its catalogue heading and its value (and its exact
    fraction, ``exact``)."""
    rows = tuple(
        (heading(key), cli_value(key, value), *((_exact_text(value),) if exact else ()))
        for key, value in shown
    )
    keys = tuple((None, key, *((None,) if exact else ())) for key, _ in shown)
    return Table(title, ("figure", "value", *(("exact",) if exact else ())), rows, notes, keys)


def game_figures(game: GameResult[Any]) -> list[Shown]:
    """Every headline figure of a solve, in the order every output lists them."""
    outcomes = game.outcomes
    ev = game.expected_value
    shown: list[Shown] = [
        ("main_ev", ev),
        ("main_house_edge", -ev),
        ("main_rtp", game.return_to_player),
        ("main_hit_frequency", outcomes["blackjack"] + outcomes["win"]),
        ("main_sd", game.standard_deviation),
        ("main_blackjack", outcomes["blackjack"]),
        ("main_win", outcomes["win"]),
        ("main_push", outcomes["push"]),
        ("main_loss", outcomes["lose"]),
    ]
    bonus = game.bonus
    if bonus is not None:
        round_ev = game.round_expected_value
        shown += [
            ("bonus_ev", bonus.expected_value),
            ("bonus_house_edge", bonus.house_edge),
            ("bonus_rtp", bonus.return_to_player),
            ("bonus_hit_frequency", bonus.hit_frequency),
            ("bonus_sd", bonus.standard_deviation),
            ("round_ev", round_ev),
            ("round_ev_per_wagered", round_ev / (1 + game.rules.bonus_ratio)),
            ("round_house_edge", game.round_house_edge),
            ("round_rtp", game.round_return_to_player),
            ("round_hit_frequency", game.round_hit_frequency),
            ("round_sd", game.round_variance**0.5),
        ]
        if game.volatility is not None:
            shown.append(("volatility_index", game.volatility.index))
    return shown


def _edge_sentence(game: GameResult[Any]) -> str:
    """Who holds the edge on the main wager, in plain words."""
    ev = game.expected_value
    if ev > 0:
        return (
            f"The player holds the edge on the main wager: {percent(ev)} of each unit bet, "
            "with perfect play."
        )
    if ev < 0:
        return f"The house holds the edge on the main wager: {percent(-ev)} of each unit bet."
    return "Neither side holds an edge on the main wager: it breaks even."


def _round_sentence(game: GameResult[Any]) -> str:
    """Who holds the edge on the whole round, in plain words."""
    edge = game.round_house_edge
    ratio = game.rules.bonus_ratio
    if edge > 0:
        side = f"The house holds the edge on the whole round: {percent(edge)} of all money bet"
    elif edge < 0:
        side = f"The player holds the edge on the whole round: {percent(-edge)} of all money bet"
    else:
        side = "Neither side holds an edge on the whole round"
    return f"{side} (1 unit on the main wager and {ratio} on the Bonus)."


def _basis_note(game: GameResult[Any]) -> str:
    return (
        "each wager's figures per unit staked on it; the round's per main unit (1 on the main "
        f"wager and {game.rules.bonus_ratio} on the Bonus) unless its label says per unit "
        "wagered; house edges and RTPs in % of the amount they are per"
    )


def _game_notes(game: GameResult[Any]) -> tuple[str, ...]:
    removed = " ".join(map(str, game.removed)) or "none"
    arithmetic = "exact fractions" if game.exact else "floating point"
    return (
        *rules_notes(game.rules),
        f"cards already out of the shoe: {removed}; arithmetic: {arithmetic}",
        _basis_note(game),
        SIGNS_NOTE,
    )


def summary_table(game: GameResult[Any]) -> Table:
    """The solve's headline figures, one a row (an ``exact`` column after an exact solve)."""
    return figure_table("Summary", game_figures(game), _game_notes(game), game.exact)


def _range_text(bounds: tuple[float, float]) -> str:
    low, high = bounds
    return f"{low:+,.1f} to {high:+,.1f}"


def volatility_table(volatility: Volatility | None, title: str) -> Table:
    """The player's net result over sessions: its exact mean and SD, and the ranges and the
    chance of being ahead read off the session's own distribution."""
    if volatility is None:
        return Table(title, ("rounds",), (), ("No round: removed cards were given without suits.",))
    keys = ("session_mean", "session_sd", "session_range90", "session_range95", "session_ahead")
    rows = tuple(
        (
            f"{s.rounds:,}",
            f"{float(s.mean):+,.2f}",
            f"{s.standard_deviation:,.2f}",
            _range_text(s.range90),
            _range_text(s.range95),
            number(s.probability_ahead, 4),
        )
        for s in volatility.sessions
    )
    how = "; ".join(METHOD_WORDS[m] for m in volatility.methods)
    bound = volatility.error_bound
    within = f" (every probability within {bound:.1e})" if bound else ""
    return Table(
        title,
        ("rounds", *(heading(k) for k in keys)),
        rows,
        (
            f"the player's net result after n rounds, in main-wager units, with "
            f"{volatility.ratio} on the Bonus per unit on the main wager",
            f"{heading('volatility_index')} {volatility.index:.4f} (round SD "
            f"{volatility.standard_deviation:.4f} x 1.6449, the z of a two-sided 90% interval)",
            "mean and SD exact; ranges (5% to 95% and 2.5% to 97.5% points) and the chance of "
            f"being ahead from the session's own distribution: {how}{within}",
        ),
        tuple((None, *keys) for _ in rows),
    )


def by_bonus_card_table(game: GameResult[Any]) -> Table:
    """The main wager EV given each Bonus card."""
    values = game.by_bonus_card()
    rows = tuple(
        (value_label(c), signed(v), *((_exact_text(v),) if game.exact else ()))
        for c, v in values.items()
    )
    extra = ("exact",) if game.exact else ()
    return Table(
        "Main wager EV by Bonus card",
        ("Bonus card", heading("main_ev_by_bonus_card"), *extra),
        rows,
        rules_notes(game.rules),
        tuple((None, "main_ev_by_bonus_card", *((None,) if extra else ())) for _ in rows),
    )


def starts_table(game: GameResult[Any]) -> Table:
    """Every starting pair: its probability, the decision on the one-card hand and its EV."""
    extra = ("exact",) if game.exact else ()
    rows = tuple(
        (
            value_label(s.player),
            value_label(s.bonus),
            number(s.probability, 12),
            s.decision,
            signed(game.start_value(s), 12),
            *((_exact_text(game.start_value(s)),) if game.exact else ()),
        )
        for s in game.starts
    )
    return Table(
        "Starting pairs",
        ("player card", "Bonus card", "probability", "decision", "main wager EV", *extra),
        rows,
        rules_notes(game.rules),
    )


def game_summary(game: GameResult[Any]) -> str:
    """A human summary of a solve (``cbj solve``) that explains itself in plain words."""
    lines = [
        "Community Blackjack (Casino Edition): the player's best possible play",
        "(every decision made knowing the exact cards in the hand and the Bonus card)",
        "",
        _edge_sentence(game),
    ]
    if game.bonus is not None:
        lines.append(_round_sentence(game))
    else:
        lines.append("Bonus wager and round: not computed (removed cards were given without suits)")
    tables = [summary_table(game)]
    if game.volatility is not None:
        tables.append(volatility_table(game.volatility, "The player's net result over sessions"))
    tables.append(by_bonus_card_table(game))
    body = render_tables(tables, Format.TABLE)
    more = "More: --format csv or md for every table, --format json for everything."
    return "\n".join(lines) + "\n\n" + body + "\n\n" + more


def game_tables(game: GameResult[Any]) -> list[Table]:
    """The solve as tables (for CSV and Markdown): summary, volatility, by Bonus card, by start.

    An exact solve adds an ``exact`` column of fractions to each table.
    """
    return [
        summary_table(game),
        volatility_table(game.volatility, "The player's net result over sessions"),
        by_bonus_card_table(game),
        starts_table(game),
    ]


def bonus_tables(analysis: BonusAnalysis) -> tuple[Table, Table]:
    """The Bonus wager's return table, then its figures (``cbj bonus``)."""
    keys = ("bonus_combinations", "bonus_probability", "bonus_return")
    rows = tuple(
        (
            outcome_words(line.outcome),
            to_one(line.pays) if line.pays >= 0 else "-1",
            str(line.combinations),
            number(line.probability),
            signed(line.return_),
        )
        for line in analysis.lines
    )
    rows += (
        ("total", "", str(analysis.total_combinations), number(1), signed(analysis.expected_value)),
    )
    removed = " ".join(str(c) for c in analysis.removed) or "none"
    notes = (*rules_notes(analysis.rules), f"removed cards: {removed}")
    table = Table(
        f"Bonus wager, paytable {analysis.rules.paytable}",
        ("outcome", "pays", "combinations", "probability", "return"),
        rows,
        notes,
        (*((None, None, *keys) for _ in analysis.lines), (None, None, keys[0], None, None)),
    )
    shown: list[Shown] = [
        ("bonus_ev", analysis.expected_value),
        ("bonus_house_edge", analysis.house_edge),
        ("bonus_rtp", analysis.return_to_player),
        ("bonus_hit_frequency", analysis.hit_frequency),
        ("bonus_sd", analysis.standard_deviation),
    ]
    figures = figure_table(
        "Bonus wager figures",
        shown,
        ("per unit staked on the Bonus wager; house edge and RTP in %", SIGNS_NOTE),
        exact=True,
    )
    return table, figures


def game_text(game: GameResult[Any], fmt: str) -> str:
    """``cbj solve``'s output: a summary in plain words as a table, else its tables (or JSON)."""
    if fmt == Format.JSON:
        return dumps(game.to_json())
    if fmt == Format.TABLE:
        return game_summary(game)
    return render_tables(game_tables(game), Format(fmt))


def bonus_text(result: BonusResult, fmt: str) -> str:
    """``cbj bonus``' output: its tables (or JSON), then the EV as a function of the pays."""
    if fmt == Format.JSON:
        return dumps(result.to_json())
    text = render_tables(bonus_tables(result.analysis), Format(fmt))
    expression = result.symbolic_expected_value
    if expression is None:
        return text
    return f"{text}\n\nexpected value as a function of the pays S, R, A: {expression}"


def dealer_tables(result: DealerResult) -> Table:
    """``cbj dealer``'s table: the dealer's final result for each Bonus card."""
    return dealer_table(result.rules, result.removed, result.rows)
