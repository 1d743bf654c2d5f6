"""``cbj indices``, ``cbj bet`` and ``cbj attack`` for people.

Pure: results in, tables out.  The indices print as a chart: the chart's rows and Bonus
card columns, each followed decision's cell holding its index (``S>=+2.5``: stand at a
true count of +2.5 and above).
"""

from __future__ import annotations

import math

from solver.model.cards import VALUES, value_label
from solver.model.cells import ROWS, cell_name
from solver.model.counts import LABELS, Tags
from solver.model.shuffles import MIN_CARDS_LEFT, reach
from solver.present.style import (
    Cell,
    cell,
    interval_cell,
    minus,
    number_cell,
    show,
    thousands,
)
from solver.present.tables import AT_LEAST, AT_MOST, Table, rules_notes
from solver.results.attack import (
    Attack,
    AttackKind,
    AttackResult,
    AttackRow,
    Countermeasure,
    Estimate,
)
from solver.results.betting import BetResult
from solver.results.figures import figure, heading, short_heading
from solver.results.indices import IndexPlay, IndicesResult

#: Indices beyond this true count in size are never reached in practice.
REACHED = 20


def signed_count(value: float) -> str:
    """A true count to one place, its sign kept where it rounds to zero.

    >>> signed_count(-0.049), signed_count(0.04), signed_count(-2.46)
    ('-0.0', '+0.0', '-2.5')
    """
    text = f"{value:+.1f}"
    return ("-" if value < 0 else "+") + text[1:]


def _tc(value: float | None) -> str:
    if value is None:
        return "never"
    if abs(value) <= REACHED:
        return minus(signed_count(value))
    return minus(f">{REACHED:+d}" if value > 0 else f"<{-REACHED:+d}")


def _tc_cell(key: str, value: float | None, side: str = "") -> Cell | str:
    """A true count as a cell (after ``side``, \u2265 or \u2264): beyond :data:`REACHED`
    said so, its number kept for a CSV."""
    if value is None:
        return "-"
    text = f"{side} {_tc(value)}" if side else _tc(value)
    return Cell(text, (round(value, 1),), unit=figure(key).fmt.unit)


def _tags(tags: Tags) -> str:
    return " ".join(f"{r}{tags[r]:+d}" for r in LABELS[:10])


def index_cell(play: IndexPlay) -> str:
    """The text of a decision's chart cell, e.g. ``S\u2265+2.5``.

    >>> index_cell(IndexPlay(((False, 16), 10), True, 0.04, True, -1.0, 1.0, 0.2, 0.5, 0.6))
    'S\u2265+0.0'
    >>> index_cell(IndexPlay(((False, 10), 9), False, -0.049, True, -1.0, 1.0, 0.2, 0.5, 0.6))
    'H\u2265\u22120.0'
    """
    side = AT_LEAST if play.at_least else AT_MOST
    return f"{play.deviation[0].upper()}{side}{_tc(play.index)}"


#: The figures of each ranked index's row, after its decision and play.
INDEX_KEYS = ("index_true_count", "index_interval", "index_eor_estimate", "index_gain",
              "perfect_gain")  # fmt: skip


def indices_tables(result: IndicesResult) -> tuple[Table, Table]:
    """The indices as a chart, and ranked with their intervals and values."""
    cells = {
        p.decision: Cell(index_cell(p), (index_cell(p)[:2], round(p.index, 1)), (" play", " index"))
        for p in result.plays
        if p.played and p.index is not None
    }
    used = [row for row in ROWS if any((row, b) in cells for b in VALUES)]
    grid = tuple((cell_name(row), *(cells.get((row, b), "") for b in VALUES)) for row in used)
    notes = (
        *rules_notes(result.rules),
        f"count {result.system}: {_tags(result.tags)}",
        f"{thousands(result.samples)} shoes dealt "
        f"{dealt_up_to(result.rules.decks, result.penetration)}, "
        f"seed {result.seed}; S{AT_LEAST}x: stand from true count x up; H{AT_MOST}x: hit at x and "
        "below",
        "only the indices that gain over the dealt shoes are printed (value above zero, "
        f"within {REACHED} true counts); the ranked table lists every decision followed",
    )
    chart = Table(
        "Index plays: the true count at which each close call flips",
        ("hand", *(value_label(b) for b in VALUES)),
        grid,
        notes,
    )
    efficiency = result.efficiency
    rows = tuple(
        (
            p.name,
            p.deviation,
            _tc_cell("index_true_count", p.index, AT_LEAST if p.at_least else AT_MOST),
            "-"
            if p.low is None or p.high is None
            else Cell(
                f"{_tc(p.low)} to {_tc(p.high)}",
                (round(p.low, 1), round(p.high, 1)),
                (" low", " high"),
            ),
            _tc_cell("index_eor_estimate", p.linear),
            cell("index_gain", p.value),
            cell("perfect_gain", p.perfect),
        )
        for p in result.plays
    )
    ranked = Table(
        "Index plays ranked by value (main wager, per 100 rounds)",
        ("decision", "play", *(short_heading(k) for k in INDEX_KEYS)),
        rows,
        (
            f"{heading('playing_efficiency')} (the indices' gain over perfect deviation's): "
            + ("n/a" if efficiency is None else show("playing_efficiency", efficiency)),
            f"playing every index within {REACHED} true counts that gains: "
            f"{show('index_gain', result.gain)} per 100 rounds (standard error "
            f"{show('index_gain', result.gain_se)})",
            f"true count: the index; side: {AT_LEAST} deviate at it and above, {AT_MOST} at "
            "it and below",
        ),
        tuple((None, None, *INDEX_KEYS) for _ in rows),
    )
    return chart, ranked


def _estimate(key: str, e: Estimate) -> Cell:
    low, high = e.interval
    return interval_cell(key, e.mean, low, high)


#: The figures of each true count's row of the Kelly ramp.
RAMP_KEYS = ("bin_share", "bin_round_ev", "bin_fitted_ev", "bin_variance", "bin_units")


def bet_tables(result: BetResult) -> tuple[Table, Table]:
    """The Kelly ramp by true count, and the counter's figures."""
    rows = tuple(
        (
            number_cell(b.low),
            cell("bin_share", b.share),
            cell("bin_round_ev", b.mean),
            cell("bin_fitted_ev", b.fitted),
            cell("bin_variance", b.variance),
            cell("bin_units", b.units),
        )
        for b in result.bins
    )
    ramp = Table(
        "Optimal bet by true count (Kelly, whole units within the spread)",
        ("true count", *(short_heading(k) for k in RAMP_KEYS)),
        rows,
        (
            *rules_notes(result.rules),
            f"count {result.system}: {_tags(result.tags)}",
            f"{thousands(result.samples)} shoes dealt "
            f"{dealt_up_to(result.rules.decks, result.penetration)}; "
            "spread "
            f"{result.spread[0]}-{result.spread[1]}, Kelly bankroll {result.kelly_bankroll:g} "
            f"units at {result.kelly_fraction:g} Kelly; hands played by the {result.play}",
            "the bet follows the fitted EV (a least-squares line on the true count)",
            f"ramp (cbj simulate --ramp): {result.ramp_text}",
        ),
        tuple((None, *RAMP_KEYS) for _ in rows),
    )
    n0, bankroll = result.n0, result.bankroll
    low, high = (100 * (result.win + s * 1.96 * result.win_se) for s in (-1, 1))
    shown: list[tuple[str, str, Cell | str]] = [
        ("counter_win", heading("counter_win"),
         interval_cell("counter_win", 100 * result.win, low, high)),
        ("counter_win_per_hour", f"{heading('counter_win_per_hour')} "
         f"({result.rounds_per_hour} rounds)",
         cell("counter_win_per_hour", result.win * result.rounds_per_hour)),
        ("counter_sd", heading("counter_sd"), cell("counter_sd", result.sd)),
        ("desirability_index", heading("desirability_index"),
         cell("desirability_index", result.di)),
        ("score", heading("score"), cell("score", result.score)),
        ("n0", heading("n0"), cell("n0", n0)),
        ("ruin_bankroll", f"{heading('ruin_bankroll')} ({result.target_ruin:.0%})",
         cell("ruin_bankroll", bankroll)),
    ]  # fmt: skip
    figures = Table(
        "What the ramp wins (main units)",
        ("figure", "value"),
        tuple((label, text) for _, label, text in shown),
        (
            "N0 and the bankroll: a dash when the ramp has no edge; the bankroll by the "
            "diffusion approximation",
        ),
        tuple((None, key) for key, _, _ in shown),
    )
    return ramp, figures


def dealt_up_to(decks: int, penetration: float, deepest: float | None = None) -> str:
    """How deep a study's shoes were dealt: to the cut card, or where a shoe keeps its last
    cards back before it, as far as they go (``deepest``; by default
    :func:`~solver.model.shuffles.reach`'s).

    >>> dealt_up_to(6, 0.83)
    'up to 0.83 of the shoe'
    >>> dealt_up_to(2, 0.83)
    'up to 0.75 of the shoe, short of the cut card at 0.83, as a shoe keeps its last 26 cards'
    """
    deepest = reach(decks, penetration) if deepest is None else deepest
    if deepest >= penetration:
        return f"up to {penetration:g} of the shoe"
    return (
        f"up to {deepest:g} of the shoe, short of the cut card at {penetration:g}, as a shoe "
        f"keeps its last {MIN_CARDS_LEFT} cards"
    )


def estimate_text(e: Estimate | None, places: int = 2) -> str:
    """A win per 100 rounds with its 95% interval: ``+0.80 [+0.25, +1.35]``, an exact one
    alone, ``-`` for none."""
    if e is None or math.isnan(e.mean):
        return "-"
    if e.se == 0:
        return f"{e.mean:+.{places}f}"
    low, high = e.interval
    return f"{e.mean:+.{places}f} [{low:+.{places}f}, {high:+.{places}f}]"


def row_text(row: AttackRow, short: bool = False) -> str:
    """A row's win per 100 rounds dealt, saying so where a sample saw nothing to win
    (``short``: in a narrow cell)."""
    if row.unseen:
        if short:
            return f"+0.00 (0 of {row.samples:,})"
        what = "nothing to win in any" if row.bound else "played none"
        return f"+0.00 ({what} of {row.samples:,})"
    return estimate_text(row.dealt)


def _shuffle_cell(row: AttackRow) -> str:
    return row.shuffle.short + (", Bonus capped" if row.cap else "")


def _win_cell(key: str, row: AttackRow, e: Estimate | None) -> Cell | str:
    """A win per 100 rounds as a cell: with its 95% interval, exact alone, or none won in
    any of the row's samples (its number 0 in a CSV)."""
    if e is None or math.isnan(e.mean):
        return "-"
    if row.unseen and e is row.dealt:
        what = "nothing to win in any" if row.bound else "played none"
        text = f"{show(key, 0)} ({what} of {thousands(row.samples)})"
        return Cell(text, (0.0,), unit=figure(key).fmt.unit)
    if e.se == 0:
        return cell(key, e.mean)
    low, high = e.interval
    return interval_cell(key, e.mean, low, high)


def attack_table(result: AttackResult, attack: Attack) -> Table:
    """One attack's rows: each player, shuffle and countermeasure, per round dealt and
    played (raising the Bonus: its EV when raised, too)."""
    bonus = attack.kind is AttackKind.BONUS_RAISE
    figures: tuple[str, ...] = ("attack_win_dealt", "attack_win_played", "share_played")
    if bonus:
        figures = (*figures, "bonus_ev_when_raised")
    rows = tuple(
        (
            r.player.value,
            _shuffle_cell(r),
            _win_cell("attack_win_dealt", r, r.dealt),
            _win_cell("attack_win_played", r, r.played),
            cell("share_played", r.share),
            *((cell("bonus_ev_when_raised", r.raised_ev),) if bonus else ()),
            f"{r.method}, {thousands(r.samples)}",
            r.how,
        )
        for r in attack.rows
    )
    return Table(
        f"Attack: {attack.name}",
        ("player", "shuffle", *(heading(k) for k in figures), "method", "how"),
        rows,
        (attack.definition, "wins in main units with their 95% intervals"),
        tuple((None, None, *figures, None, None) for _ in rows),
    )


def verdict_lines(result: AttackResult, brief: bool = False) -> tuple[str, ...]:
    """The verdict in sentences, each computed from the rows it names (:func:`verdict`);
    ``brief`` leaves out the countermeasures that do not end an attack (the report's
    grid shows them)."""
    v = result.verdict
    lines = []
    if result.reached < result.penetration:
        lines.append(
            f"The dealt shoes reach {result.reached:g} of the shoe, short of the cut card the "
            f"study was asked for (a shoe keeps its last cards back): no row goes deeper."
        )
    if v.unbeatable:
        lines.append(
            "The game cannot be beaten by any of these attacks: every bound, as dealt to a "
            f"cut card at {v.depth:g}, lies at or below zero per round dealt."
        )
        return tuple(lines)
    if not v.findings:
        lines.append(
            "No attack measured here beats the game, but not every attack's bound was "
            "measured, so that it cannot be beaten is not shown."
        )
    for f in v.findings:
        practical = (
            "no practical counter was measured"
            if f.practical is None
            else f"the best practical counter ({f.practical.how}) "
            + ("beats the game: " if f.beats else "does not beat it: ")
            + f"{estimate_text(f.practical.dealt)} per 100 rounds dealt"
        )
        bound = (
            "no perfect-information bound was measured"
            if f.bound is None
            else f"the perfect-information bound is {row_text(f.bound)} per 100 "
            f"rounds dealt ({estimate_text(f.bound.played)} per 100 played)"
        )
        lines.append(
            f"A player who {f.attack.name} is not ruled out at a cut card of {v.depth:g}: "
            f"{bound}; {practical}."
        )
        ends = [m for m in f.measures if m.ends and m.row is not None]
        not_ends = [m for m in f.measures if not m.ends]
        if ends:
            lines.append("It ends with " + "; ".join(_measure_words(m) for m in ends) + ".")
        if not_ends and not brief:
            lines.append(
                "It does not end with " + "; ".join(_measure_words(m) for m in not_ends) + "."
            )
    return tuple(lines)


def _measure_words(m: Countermeasure) -> str:
    """A countermeasure and the figures that judge it (per 100 rounds dealt)."""
    if m.row is None and m.practical is None:
        return f"{m.name} (no cut card the study reached brings the bound to zero)"
    shallower = m.row is not None and m.name == "a shallower cut card"
    where = f" at {m.row.depth:g}" if shallower and m.row is not None else ""
    figures = [] if m.row is None else [f"bound {row_text(m.row)}"]
    if m.practical is not None:
        figures.append(f"the practical counter {row_text(m.practical)}")
    return f"{m.name}{where} ({'; '.join(figures)} per 100 rounds dealt)"


def attack_tables(result: AttackResult) -> tuple[Table, ...]:
    """Every attack's table, then the verdict and the Bonus wager's spread."""
    tables = [attack_table(result, a) for a in result.attacks]
    b = result.bonus
    p = b.percentiles
    tables.append(
        Table(
            "Verdict: which attack beats the game, and what ends it",
            ("finding",),
            tuple((line,) for line in verdict_lines(result)),
            (
                *rules_notes(result.rules),
                f"{result.samples:,} shoes dealt "
                f"{dealt_up_to(result.rules.decks, result.penetration, result.reached)}, seed "
                f"{result.seed}; spread {result.spread[0]}-{result.spread[1]}, the Bonus "
                f"raised to {result.bonus_multiple} x main where an attack raises it",
                f"Bonus EV per Bonus unit over the shoes: mean {b.mean:+.4f}, 5%/50%/95% "
                f"{p[5]:+.4f}/{p[50]:+.4f}/{p[95]:+.4f}, positive in {b.positive_share:.2%}",
                "a bound is the perfect-information player's (no player of that attack wins "
                "more, within its interval); rounds sat out count as nothing per round dealt",
            ),
        )
    )
    return tuple(tables)
