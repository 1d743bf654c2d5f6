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
from solver.present.tables import Table, rules_notes
from solver.results.attack import (
    Attack,
    AttackKind,
    AttackResult,
    AttackRow,
    Countermeasure,
    Estimate,
)
from solver.results.betting import BetResult
from solver.results.figures import heading
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
        return signed_count(value)
    return f">{REACHED:+d}" if value > 0 else f"<{-REACHED:+d}"


def _tags(tags: Tags) -> str:
    return " ".join(f"{r}{tags[r]:+d}" for r in LABELS[:10])


def index_cell(play: IndexPlay) -> str:
    """The text of a decision's chart cell, e.g. ``S>=+2.5``.

    >>> index_cell(IndexPlay(((False, 10), 9), False, -0.049, True, -1.0, 1.0, 0.2, 0.5, 0.6))
    'H>=-0.0'
    """
    side = ">=" if play.at_least else "<="
    return f"{play.deviation[0].upper()}{side}{_tc(play.index)}"


def indices_tables(result: IndicesResult) -> tuple[Table, Table]:
    """The indices as a chart, and ranked with their intervals and values."""
    cells = {p.decision: index_cell(p) for p in result.plays if p.played}
    used = [row for row in ROWS if any((row, b) in cells for b in VALUES)]
    grid = tuple((cell_name(row), *(cells.get((row, b), "") for b in VALUES)) for row in used)
    notes = (
        *rules_notes(result.rules),
        f"count {result.system}: {_tags(result.tags)}",
        f"{result.samples:,} shoes dealt up to {result.penetration:g} of the shoe, seed "
        f"{result.seed}; S>=x: stand from true count x up; H<=x: hit at x and below",
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
    ranked = Table(
        "Index plays ranked by value (main wager, per 100 rounds)",
        ("decision", "play", "index", "95% interval", "linear EOR", "value", "perfect"),
        tuple(
            (
                p.name,
                p.deviation,
                "-" if p.index is None else ("≥ " if p.at_least else "≤ ") + _tc(p.index),
                f"{_tc(p.low)} to {_tc(p.high)}",
                _tc(p.linear),
                f"{p.value:+.4f}",
                f"{p.perfect:+.4f}",
            )
            for p in result.plays
        ),
        (
            "playing efficiency (the indices' value over perfect deviation): "
            + ("n/a" if efficiency is None else f"{efficiency:.3f}"),
            f"playing every index within {REACHED} true counts that gains: "
            f"{result.gain:+.4f} per 100 rounds (standard error {result.gain_se:.4f})",
        ),
    )
    return chart, ranked


def _estimate(e: Estimate) -> str:
    low, high = e.interval
    return f"{e.mean:+.3f} ({low:+.3f} to {high:+.3f})"


def bet_tables(result: BetResult) -> tuple[Table, Table]:
    """The Kelly ramp by true count, and the counter's figures."""
    ramp = Table(
        "Optimal bet by true count (Kelly, whole units within the spread)",
        ("true count", "share of rounds", "round EV", "fitted EV", "variance", "units"),
        tuple(
            (
                f"{b.low:+d}",
                f"{b.share:.4f}",
                f"{b.mean:+.4f}",
                f"{b.fitted:+.4f}",
                f"{b.variance:.3f}",
                str(b.units),
            )
            for b in result.bins
        ),
        (
            *rules_notes(result.rules),
            f"count {result.system}: {_tags(result.tags)}",
            f"{result.samples:,} shoes dealt up to {result.penetration:g}; spread "
            f"{result.spread[0]}-{result.spread[1]}, Kelly bankroll {result.kelly_bankroll:g} "
            f"units at {result.kelly_fraction:g} Kelly; hands played by the {result.play}",
            "the bet follows the fitted EV (a least-squares line on the true count)",
        ),
    )
    n0, bankroll = result.n0, result.bankroll
    low, high = (100 * (result.win + s * 1.96 * result.win_se) for s in (-1, 1))
    figures = Table(
        "What the ramp wins (main units)",
        ("figure", "value"),
        (
            ("ramp (cbj simulate --ramp)", result.ramp_text),
            ("win per 100 rounds", f"{100 * result.win:+.3f} ({low:+.3f} to {high:+.3f})"),
            (
                f"win per hour ({result.rounds_per_hour} rounds)",
                f"{result.win * result.rounds_per_hour:+.3f}",
            ),
            ("SD per round", f"{result.sd:.3f}"),
            ("DI", f"{result.di:.2f}"),
            ("SCORE", f"{result.score:.2f}"),
            ("N0 (rounds)", "no edge" if n0 is None else f"{n0:,.0f}"),
            (
                f"bankroll for {result.target_ruin:.0%} risk of ruin (diffusion approximation)",
                "no edge" if bankroll is None else f"{bankroll:,.0f} units",
            ),
        ),
    )
    return ramp, figures


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


def attack_table(result: AttackResult, attack: Attack) -> Table:
    """One attack's rows: each player, shuffle and countermeasure, per round dealt and
    played (raising the Bonus: its EV when raised, too)."""
    dealt, played = heading("attack_win_dealt"), heading("attack_win_played")
    bonus = attack.kind is AttackKind.BONUS_RAISE
    rows = tuple(
        (
            r.player.value,
            _shuffle_cell(r),
            row_text(r),
            estimate_text(r.played),
            f"{100 * r.share:.1f}%",
            *(("-" if r.raised_ev is None else f"{r.raised_ev:+.4f}",) if bonus else ()),
            f"{r.method}, {r.samples:,}",
            r.how,
        )
        for r in attack.rows
    )
    figures: tuple[str | None, ...] = ("attack_win_dealt", "attack_win_played", "share_played")
    if bonus:
        figures = (*figures, "bonus_ev_when_raised")
    return Table(
        f"Attack: {attack.name}",
        ("player", "shuffle", f"{dealt} [95%]", f"{played} [95%]", heading("share_played"),
         *((heading("bonus_ev_when_raised"),) if bonus else ()), "source, size", "how"),
        rows,
        (attack.definition,),
        tuple((None, None, *figures, None, None) for _ in rows),
    )  # fmt: skip


def verdict_lines(result: AttackResult) -> tuple[str, ...]:
    """The verdict in sentences, each computed from the rows it names (:func:`verdict`)."""
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
        if not_ends:
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
                f"{result.samples:,} shoes dealt up to {result.penetration:g}, seed "
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
