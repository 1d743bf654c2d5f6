"""The game's figures as tables for people (``cbj solve``, ``cbj bonus``, the volatility of
``cbj strategies``): every label, basis and format from the figure catalogue.

Pure: results in, :class:`~solver.present.tables.Table` out; each cell that shows a figure
carries its catalogue key (:attr:`Table.keys`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.model.cards import value_label
from solver.model.outcomes import main_payoffs
from solver.model.rules import Rules
from solver.present.formats import Format
from solver.present.style import (
    Cell,
    cell,
    count_cell,
    exact_cell,
    lattice_places,
    range_cell,
    show,
    written,
)
from solver.present.tables import Table, dealer_table, dumps, render_tables, rules_notes
from solver.present.wording import to_one
from solver.results.figures import (
    SIGN_CONVENTION,
    NumberFormat,
    Style,
    heading,
    outcome_words,
    quantity_heading,
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


def net_step(rules: Rules) -> Fraction:
    """The step of the lattice a round's net results lie on: every main pay plus the Bonus
    ratio times every Bonus pay is a whole multiple of it.

    >>> net_step(Rules()), net_step(Rules(bonus_ratio=Fraction(3, 4)))
    (Fraction(1, 2), Fraction(1, 4))
    """
    bonus = [*rules.paytable.as_dict().values(), Fraction(-1)]
    nets = [
        Fraction(m) + rules.bonus_ratio * b for m in main_payoffs(rules).values() for b in bonus
    ]
    denominator = math.lcm(*(n.denominator for n in nets))
    return Fraction(math.gcd(*(int(n * denominator) for n in nets)), denominator)


def session_places(rules: Rules) -> int:
    """The places a session's net results are written to: those of its lattice."""
    return lattice_places(net_step(rules))


PAYS_FORMAT = NumberFormat(Style.TO_ONE, 0)


def pays_text(pays: Fraction) -> str:
    """What an outcome pays, to 1 (``3 to 2`` for a blackjack), and ``\u22121`` for a loss."""
    return to_one(pays) if pays > 0 else written(NumberFormat(Style.DECIMAL), pays)


def pays_cell(pays: Fraction) -> Cell:
    """:func:`pays_text` as a cell, its plain number in a CSV."""
    return Cell(pays_text(pays), (float(pays) if pays.denominator > 1 else int(pays),))


def figure_table(
    title: str, shown: Sequence[Shown], notes: tuple[str, ...], exact: bool = False
) -> Table:
    """A table of figures, one a row: its catalogue heading and its value (and its exact
    fraction, ``exact``)."""
    rows = tuple(
        (heading(key), cell(key, value), *((exact_cell(value),) if exact else ()))
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
        ("main_loss", outcomes["loss"]),
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
            f"The player holds the edge on the main wager: {show('main_ev_by_bonus_card', ev)} "
            "of each unit bet, "
            "with perfect play."
        )
    if ev < 0:
        edge = show("main_house_edge", -ev)
        return f"The house holds the edge on the main wager: {edge} of each unit bet."
    return "Neither side holds an edge on the main wager: it breaks even."


def _round_sentence(game: GameResult[Any]) -> str:
    """Who holds the edge on the whole round, in plain words."""
    edge = game.round_house_edge
    ratio = game.rules.bonus_ratio
    if edge > 0:
        side = (
            "The house holds the edge on the whole round: "
            f"{show('round_house_edge', edge)} of all money bet"
        )
    elif edge < 0:
        side = (
            "The player holds the edge on the whole round: "
            f"{show('round_house_edge', -edge)} of all money bet"
        )
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


def volatility_table(volatility: Volatility | None, title: str, rules: Rules) -> Table:
    """The player's net result over sessions: its exact mean and SD, and the ranges (to the
    places of the lattice of ``rules``' nets) and the chance of being ahead read off the
    session's own distribution."""
    if volatility is None:
        return Table(title, ("rounds",), (), ("No round: removed cards were given without suits.",))
    keys = ("session_mean", "session_sd", "session_range90", "session_range95", "session_ahead")
    places = session_places(rules)
    rows = tuple(
        (
            count_cell(s.rounds),
            cell("session_mean", s.mean),
            cell("session_sd", s.standard_deviation),
            range_cell("session_range90", *s.range90, places),
            range_cell("session_range95", *s.range95, places),
            cell("session_ahead", s.probability_ahead),
        )
        for s in volatility.sessions
    )
    how = "; ".join(METHOD_WORDS[m] for m in volatility.methods)
    bound = volatility.error_bound
    within = f" (every probability within {bound_text(bound)})" if bound else ""
    return Table(
        title,
        ("rounds", *(heading(k) for k in keys)),
        rows,
        (
            f"the player's net result after n rounds, in main-wager units, with "
            f"{volatility.ratio} on the Bonus per unit on the main wager",
            f"{heading('volatility_index')} {show('volatility_index', volatility.index)} "
            f"({heading('round_sd')} {show('round_sd', volatility.standard_deviation)} "
            "\u00d7 1.6449, the z of a two-sided 90% interval)",
            "mean and SD exact; ranges (5% to 95% and 2.5% to 97.5% points) and the chance of "
            f"being ahead from the session's own distribution: {how}{within}",
        ),
        tuple((None, *keys) for _ in rows),
    )


def bound_text(bound: float) -> str:
    """An error bound to two significant figures, rounded up (a bound never understated).

    >>> bound_text(5.21e-08), bound_text(5.0e-11)
    ('5.3e\u221208', '5.0e\u221211')
    """
    exponent = math.floor(math.log10(bound)) - 1
    mantissa = math.ceil(round(bound / 10**exponent, 6)) * 10**exponent
    return f"{mantissa:.1e}".replace("-", "\u2212")


def by_bonus_card_table(game: GameResult[Any]) -> Table:
    """The main wager EV given each Bonus card."""
    values = game.by_bonus_card()
    rows = tuple(
        (
            value_label(c),
            cell("main_ev_by_bonus_card", v),
            *((exact_cell(v),) if game.exact else ()),
        )
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
            cell("start_probability", s.probability),
            s.decision,
            cell("start_ev", game.start_value(s)),
            *((exact_cell(game.start_value(s)),) if game.exact else ()),
        )
        for s in game.starts
    )
    return Table(
        "Starting pairs",
        (
            "player card",
            "Bonus card",
            heading("start_probability"),
            "decision",
            heading("start_ev"),
            *extra,
        ),
        rows,
        rules_notes(game.rules),
        tuple(
            (None, None, "start_probability", None, "start_ev", *(None,) * len(extra)) for _ in rows
        ),
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
        tables.append(
            volatility_table(game.volatility, "The player's net result over sessions", game.rules)
        )
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
        volatility_table(game.volatility, "The player's net result over sessions", game.rules),
        by_bonus_card_table(game),
        starts_table(game),
    ]


def bonus_tables(analysis: BonusAnalysis) -> tuple[Table, Table]:
    """The Bonus wager's return table, then its figures (``cbj bonus``)."""
    keys = ("bonus_combinations", "bonus_probability", "bonus_return")
    rows: tuple[tuple[str, ...], ...] = tuple(
        (
            outcome_words(line.outcome),
            pays_cell(line.pays),
            cell("bonus_combinations", line.combinations),
            cell("bonus_probability", line.probability),
            cell("bonus_return", line.return_),
        )
        for line in analysis.lines
    )
    rows += (
        (
            "total",
            "",
            cell("bonus_combinations", analysis.total_combinations),
            cell("bonus_probability", 1),
            cell("bonus_return", analysis.expected_value),
        ),
    )
    removed = " ".join(str(c) for c in analysis.removed) or "none"
    notes = (*rules_notes(analysis.rules), f"removed cards: {removed}")
    table = Table(
        f"Bonus wager, paytable {analysis.rules.paytable}",
        ("outcome", "pays", *(quantity_heading(k) for k in keys)),
        rows,
        notes,
        tuple((None, None, *keys) for _ in rows),
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


def game_text(game: GameResult[Any], fmt: str, comments: bool = False) -> str:
    """``cbj solve``'s output: a summary in plain words as a table, else its tables (or JSON;
    a CSV with its ``#`` lines when ``comments``)."""
    if fmt == Format.JSON:
        return dumps(game.to_json())
    if fmt == Format.TABLE:
        return game_summary(game)
    return render_tables(game_tables(game), Format(fmt), comments)


def bonus_text(result: BonusResult, fmt: str, comments: bool = False) -> str:
    """``cbj bonus``' output: its tables (or JSON), then the EV as a function of the pays."""
    if fmt == Format.JSON:
        return dumps(result.to_json())
    text = render_tables(bonus_tables(result.analysis), Format(fmt), comments)
    expression = result.symbolic_expected_value
    if expression is None:
        return text
    return f"{text}\n\nexpected value as a function of the pays S, R, A: {expression}"


def dealer_tables(result: DealerResult) -> Table:
    """``cbj dealer``'s table: the dealer's final result for each Bonus card."""
    return dealer_table(result.rules, result.removed, result.rows)
