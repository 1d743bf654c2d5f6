"""``cbj indices``, ``cbj bet`` and ``cbj attack`` for people.

Pure: results in, tables out.  The indices print as a chart: the chart's rows and Bonus
card columns, each followed decision's cell holding its index (``S>=+2.5``: stand at a
true count of +2.5 and above).
"""

from __future__ import annotations

from solver.model.cards import VALUES, value_label
from solver.model.cells import ROWS, cell_name
from solver.model.counts import LABELS, Tags
from solver.present.style import (
    Cell,
    cell,
    count_cell,
    interval_cell,
    minus,
    number_cell,
    show,
    thousands,
)
from solver.present.tables import AT_LEAST, AT_MOST, Table, rules_notes
from solver.results.attack import AttackResult, Estimate
from solver.results.betting import BetResult
from solver.results.figures import figure, heading, short_heading
from solver.results.indices import IndexPlay, IndicesResult

#: Indices beyond this true count in size are never reached in practice.
REACHED = 20


def _tc(value: float | None) -> str:
    if value is None:
        return "never"
    if abs(value) <= REACHED:
        return show("index_true_count", value)
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
        if p.index is not None and abs(p.index) <= REACHED
    }
    used = [row for row in ROWS if any((row, b) in cells for b in VALUES)]
    grid = tuple((cell_name(row), *(cells.get((row, b), "") for b in VALUES)) for row in used)
    notes = (
        *rules_notes(result.rules),
        f"count {result.system}: {_tags(result.tags)}",
        f"{thousands(result.samples)} shoes dealt up to {result.penetration:g} of the shoe, seed "
        f"{result.seed}; S{AT_LEAST}x: stand from true count x up; H{AT_MOST}x: hit at x and "
        "below",
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
            f"{thousands(result.samples)} shoes dealt up to {result.penetration:g}; spread "
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


def attack_tables(result: AttackResult) -> tuple[Table, Table]:
    """The perfect-information bound by penetration, and the Bonus attack."""
    bound_rows = tuple(
        (
            number_cell(r.penetration),
            count_cell(r.states),
            cell("bound_positive_share", r.positive_share),
            _estimate("bound_win", r.win),
        )
        for r in result.bound
    )
    bound = Table(
        "The perfect-information bound: no counter can win more",
        ("penetration", "shoes", heading("bound_positive_share"), heading("bound_win")),
        bound_rows,
        (
            *rules_notes(result.rules),
            f"knows every card left, plays perfectly, Bonus at {result.bonus_multiple} x main "
            f"when positive; bets {result.spread[1]} units on a positive round, "
            f"{result.spread[0]} otherwise; wins with their 95% intervals",
        ),
        tuple((None, None, "bound_positive_share", "bound_win") for _ in bound_rows),
    )
    p = result.bonus_percentiles
    attack_keys = ("raised_share", "raised_edge", "attack_gain")
    player_rows = tuple(
        (
            pl.name,
            pl.trigger,
            cell("raised_share", pl.share),
            cell("raised_edge", pl.edge),
            _estimate("attack_gain", pl.win),
        )
        for pl in result.players
    )
    bonus = Table(
        f"The Bonus wager's attack: raising it to {result.bonus_multiple} x the main wager",
        ("player", "trigger", *(heading(k) for k in attack_keys)),
        player_rows,
        (
            f"Bonus EV per unit over the shoes: mean {show('bonus_ev', result.bonus_mean)}, "
            f"5%/50%/95% {show('bonus_ev', p[5])}/{show('bonus_ev', p[50])}/"
            f"{show('bonus_ev', p[95])}, positive in "
            f"{show('bound_positive_share', result.bonus_positive_share)}",
            "the tracker's threshold is picked on the even-numbered shoes and its figures "
            "measured on the odd-numbered ones",
            "tracker's correlation with the Bonus EV: "
            + (
                "n/a" if result.tracker_correlation is None else f"{result.tracker_correlation:.3f}"
            ),
        ),
        tuple((None, None, *attack_keys) for _ in player_rows),
    )
    return bound, bonus
