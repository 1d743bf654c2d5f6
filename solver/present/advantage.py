"""``cbj indices``, ``cbj bet`` and ``cbj attack`` for people.

Pure: results in, tables out.  The indices print as a chart: the chart's rows and Bonus
card columns, each followed decision's cell holding its index (``S>=+2.5``: stand at a
true count of +2.5 and above).
"""

from __future__ import annotations

from solver.model.cards import VALUES, value_label
from solver.model.cells import ROWS, cell_name
from solver.model.counts import LABELS, Tags
from solver.present.tables import Table, rules_notes
from solver.results.attack import AttackResult, Estimate
from solver.results.betting import BetResult
from solver.results.indices import IndexPlay, IndicesResult

#: Indices beyond this true count in size are never reached in practice.
REACHED = 20


def _tc(value: float | None) -> str:
    if value is None:
        return "never"
    if abs(value) <= REACHED:
        text = f"{value:+.1f}"
        return "+0.0" if text == "-0.0" else text
    return f">{REACHED:+d}" if value > 0 else f"<{-REACHED:+d}"


def _tags(tags: Tags) -> str:
    return " ".join(f"{r}{tags[r]:+d}" for r in LABELS[:10])


def index_cell(play: IndexPlay) -> str:
    """The text of a decision's chart cell, e.g. ``S>=+2.5``.

    >>> index_cell(IndexPlay(((False, 16), 10), True, 0.04, True, -1.0, 1.0, 0.2, 0.5, 0.6))
    'S>=+0.0'
    """
    side = ">=" if play.at_least else "<="
    return f"{play.deviation[0].upper()}{side}{_tc(play.index)}"


def indices_tables(result: IndicesResult) -> tuple[Table, Table]:
    """The indices as a chart, and ranked with their intervals and values."""
    cells = {
        p.decision: index_cell(p)
        for p in result.plays
        if p.index is not None and abs(p.index) <= REACHED
    }
    used = [row for row in ROWS if any((row, b) in cells for b in VALUES)]
    grid = tuple((cell_name(row), *(cells.get((row, b), "") for b in VALUES)) for row in used)
    notes = (
        *rules_notes(result.rules),
        f"count {result.system}: {_tags(result.tags)}",
        f"{result.samples:,} shoes dealt up to {result.penetration:g} of the shoe, seed "
        f"{result.seed}; S>=x: stand from true count x up; H<=x: hit at x and below",
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


def attack_tables(result: AttackResult) -> tuple[Table, Table]:
    """The perfect-information bound by penetration, and the Bonus attack."""
    bound = Table(
        "The perfect-information bound: no counter can win more",
        ("penetration", "shoes", "share positive", "win per 100 rounds (95% interval)"),
        tuple(
            (f"{r.penetration:g}", f"{r.states:,}", f"{r.positive_share:.4f}", _estimate(r.win))
            for r in result.bound
        ),
        (
            *rules_notes(result.rules),
            f"knows every card left, plays perfectly, Bonus at {result.bonus_multiple} x main "
            f"when positive; bets {result.spread[1]} units on a positive round, "
            f"{result.spread[0]} otherwise",
        ),
    )
    p = result.bonus_percentiles
    bonus = Table(
        f"The Bonus wager's attack: raising it to {result.bonus_multiple} x the main wager",
        ("player", "trigger", "share raised", "edge when raised", "gain per 100 rounds"),
        tuple(
            (
                pl.name,
                pl.trigger,
                f"{pl.share:.4f}",
                "-" if pl.edge is None else f"{pl.edge:+.4f}",
                _estimate(pl.win),
            )
            for pl in result.players
        ),
        (
            f"Bonus EV per unit over the shoes: mean {result.bonus_mean:+.4f}, 5%/50%/95% "
            f"{p[5]:+.4f}/{p[50]:+.4f}/{p[95]:+.4f}, positive in "
            f"{result.bonus_positive_share:.2%}",
            "the tracker's threshold is picked on the even-numbered shoes and its figures "
            "measured on the odd-numbered ones",
            "tracker's correlation with the Bonus EV: "
            + (
                "n/a" if result.tracker_correlation is None else f"{result.tracker_correlation:.3f}"
            ),
        ),
    )
    return bound, bonus
