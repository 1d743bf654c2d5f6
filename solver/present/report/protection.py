"""The report's "Game protection" section: EORs, counts, shoe states, a counter, a verdict.

The figures come from :func:`solver.studies.protection.protection_study` (the same code
as ``cbj eor``, ``cbj count``, ``cbj shoe-states`` and ``cbj simulate --counter``); this
module lays them out and words the verdict from the numbers, so it changes with the rules.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from solver.model.counts import LABELS, Tags
from solver.present.report.blocks import Grid, Section, Text, column_keys
from solver.present.style import minus, show, signed, thousands
from solver.results.attack import AttackResult, Estimate
from solver.results.betting import BetResult
from solver.results.figures import heading, short_heading
from solver.results.indices import IndexPlay, IndicesResult

#: Index plays shown in the report, the most valuable first.
INDICES_SHOWN = 4

if TYPE_CHECKING:
    from solver.results.protection import (
        CounterPlan,
        CountSystem,
        EffectsOfRemoval,
        ProtectionStudy,
    )
    from solver.results.simulation import CounterStatistics

#: EORs are printed times this.
EOR_SCALE = 10_000
WAGER_NAMES = {
    "main": "main wager, optimal play",
    "main_chart": "main wager, the chart",
    "bonus": "Bonus wager",
    "round": "whole round",
}
#: Each wager's EOR figure in the catalogue.
EOR_KEYS = {"main": "eor_main", "main_chart": "eor_main_chart", "bonus": "eor_bonus",
            "round": "eor_round"}  # fmt: skip


def protection_section(study: ProtectionStudy) -> Section:
    """The "Game protection" section of ``study``."""
    eor = study.eor
    return Section(
        "Game protection",
        (
            Text(
                "Can a player beat the game by watching the cards? The effect of removal "
                "(EOR) of a rank is the change in a wager's expected value when one card of "
                "that rank leaves the full shoe: the difference of two full solves of the "
                "game, in floating point (agreeing with the exact solver to 1e\u221212), not "
                "a linear estimate. The main wager is measured under optimal play "
                "re-optimised for the depleted shoe and under the fixed strategy chart "
                "above; the whole round per main unit adds the Bonus ratio times the Bonus "
                "wager's EOR."
            ),
            _eor_grid(eor),
            _counts_grid(study.systems, eor),
            _states_grid(study),
            _counter_grid(study),
            _indices_grid(study.indices),
            _betting_grid(study.betting),
            _bound_grid(study.attack),
            _bonus_grid(study.attack),
            Text(_verdict(study)),
        ),
    )


#: The ranks worth ten, merged into one column when their EORs all agree (a full shoe).
TEN_RANKS = ("T", "J", "Q", "K")


def _eor_grid(eor: EffectsOfRemoval[Any]) -> Grid:
    cells = {w: {r: show(EOR_KEYS[w], float(eor.effects[w][r])) for r in LABELS}
             for w in WAGER_NAMES}  # fmt: skip
    merged = all(len({cells[w][r] for r in TEN_RANKS}) == 1 for w in WAGER_NAMES)
    columns = [r for r in LABELS if not merged or r not in TEN_RANKS[1:]]
    headers = ["10" if merged and r == "T" else r for r in columns]
    rows = tuple((short_heading(EOR_KEYS[w]), *(cells[w][r] for r in columns)) for w in WAGER_NAMES)
    deck = eor.whole_deck
    exact_change = deck.exact
    whole = (
        " Removing one whole deck: the EORs predict "
        f"{show('deck_linear_estimate', deck.linear['round'])} "
        "on the round"
        + (
            f", two full solves give {show('deck_exact_change', exact_change['round'])}"
            if exact_change is not None
            else ""
        )
        + "; the difference is the effect of a smaller shoe, which no count of single "
        "cards sees."
    )
    ten = " (10 = 10, J, Q, K, whose effects are the same)" if merged else ""
    return Grid(
        ("wager", *headers),
        rows,
        caption=f"Effect of removal (EOR) \u00d7 {thousands(EOR_SCALE)} per card of each rank "
        f"removed from the full shoe of {thousands(eor.cards)} cards{ten}, in units of the "
        "wager (the Bonus wager's per Bonus unit, the round's per main unit; positive: the "
        f"player gains when that card is gone).{whole}",
        compact=True,
        keys=tuple((None, *(EOR_KEYS[w] for _ in headers)) for w in WAGER_NAMES),
    )


def _tags_text(tags: Tags) -> str:
    """The non-zero tags of a count, ranks sharing a tag grouped: ``A \u22121; 2\u20136 +1``."""
    groups: dict[int, list[str]] = {}
    for rank in LABELS:
        if tags[rank]:
            groups.setdefault(tags[rank], []).append("10" if rank == "T" else rank)
    return "; ".join(
        f"{' '.join(ranks)} {minus(f'{tag:+d}')}" for tag, ranks in sorted(groups.items())
    )


def _counts_grid(systems: Sequence[CountSystem], eor: EffectsOfRemoval[Any]) -> Grid:
    rows = tuple(
        (
            "Hi-Lo" if s.name == "hi-lo" else s.name.replace("-", " "),
            _tags_text(s.tags),
            show(COUNT_KEYS[0], s.betting_correlation["main"]),
            show(COUNT_KEYS[1], s.betting_correlation["round"]),
            show(COUNT_KEYS[2], s.ev_per_true_count["main"]),
            show(COUNT_KEYS[3], s.ev_per_true_count["round"]),
        )
        for s in systems
    )
    return Grid(
        ("count", "tags", *(short_heading(k) for k in COUNT_KEYS)),
        rows,
        caption="Card counts: betting correlation (Griffin's: the correlation over a "
        "deck's 52 cards between each card's tag and its EOR; 1 is perfect) and the linear "
        "estimate of the EV gained per unit of true count (running count per deck left, "
        "read against an unbalanced count's drift), in main units. The best counts are the "
        "true optimum of a complete search over every vector of whole tags of at most 1, 2 "
        "or 3 (the tens sharing one tag; balanced and unbalanced). Round EV of the full "
        f"shoe: {show('round_ev', eor.base['round'])} per main unit.",
        keys=column_keys(rows, (None, None, *COUNT_KEYS)),
    )


#: The figures of the counts' columns, after the count and its tags (others 0).
COUNT_KEYS = ("betting_correlation_main", "betting_correlation_round", "ev_per_true_count_main",
              "ev_per_true_count_round")  # fmt: skip


def _states_grid(study: ProtectionStudy) -> Grid:
    samples, plan = study.shoe_samples, study.plan
    rows = tuple(
        (
            f"{d.depth:g}",
            thousands(d.cards_left),
            show("shoe_round_ev", d.round.mean),
            show("shoe_round_ev_sd", d.round.standard_deviation),
            show("shoe_round_ev_percentile", d.round.percentiles[5]),
            show("shoe_round_ev_percentile", d.round.percentiles[95]),
            show("positive_share", d.round.positive_share),
            "" if d.fit.slope is None else show("slope_per_true_count", d.fit.slope),
            "" if d.fit.r_squared is None else show("r_squared", d.fit.r_squared),
        )
        for d in study.depths
    )
    return Grid(
        (
            "depth",
            "cards left",
            short_heading("shoe_round_ev"),
            short_heading("shoe_round_ev_sd"),
            "P5",
            "P95",
            short_heading("positive_share"),
            short_heading("slope_per_true_count"),
            heading("r_squared"),
        ),
        rows,
        keys=column_keys(
            rows,
            (
                None,
                None,
                "shoe_round_ev",
                "shoe_round_ev_sd",
                "shoe_round_ev_percentile",
                "shoe_round_ev_percentile",
                "positive_share",
                "slope_per_true_count",
                "r_squared",
            ),
        ),
        caption=f"Real shoes: at each share of the shoe dealt, {thousands(samples)} shoes "
        f"dealt at random (seed {study.seed}) and each solved under optimal play for "
        "the cards left. Round EV per main unit: mean, standard deviation, percentiles and "
        "the share of shoes where it is positive (worth betting into); then the "
        "least-squares slope of the round EV on the true count of the "
        f"{_count_words(plan)} and its R\u00b2 (the share of the EV's variance the count "
        f"explains). With {thousands(samples)} shoes a share has a standard error of up "
        f"to {50 / math.sqrt(samples):.0f} points; the study's size is a report option.",
    )


def _count_words(plan: CounterPlan) -> str:
    return f"best level-1 count ({_tags_text(plan.tags)})"


def _interval(key: str, value: float, low: float, high: float) -> str:
    """A figure with its 95% interval, as every output writes it."""
    return f"{show(key, value)} ({show(key, low)} to {show(key, high)})"


def _win(stats: CounterStatistics) -> str:
    low, high = stats.ci95
    return _interval("counter_win", 100 * stats.mean, 100 * low, 100 * high)


def _edge(stats: CounterStatistics) -> str:
    """The house edge against the counter (the casino's: positive when it wins), with its
    95% interval; the simulator states the counter's own, player-side edge."""
    low, high = stats.edge_ci95
    return _interval("counter_house_edge", -stats.edge, -high, -low)


def _counter_grid(study: ProtectionStudy) -> Grid:
    plan, spread = study.plan, study.spread
    rows = tuple(
        (
            name,
            show("counter_rounds", stats.rounds_played),
            _win(stats),
            show("average_bet", stats.average_bet),
            _edge(stats),
            show("counter_sd", stats.sd),
        )
        if stats.rounds_played
        else (name, "0", "none played", *("\u2013",) * 3)  # no NaN for no rounds
        for name, stats in (
            ("plays every round", study.every_round),
            (f"sits out below TC {minus(f'{plan.wong_out:g}')}", study.back_counter),
        )
    )
    steps = ", ".join(minus(f"{u} from TC {t:g}") for t, u in plan.ramp)
    return Grid(
        ("counter", *(short_heading(k) for k in COUNTER_KEYS)),
        rows,
        keys=column_keys(rows, (None, *COUNTER_KEYS)),
        caption="A simulated counter (the independent simulator, "
        f"{thousands(study.counter_rounds)} rounds dealt each, seed {study.seed}) at one seat, "
        f"counting every card seen with the {_count_words(plan)}, the shoe reshuffled "
        f"after {study.penetration:g} of it is dealt. Main bet from {spread[0]} to {spread[1]} "
        f"units: 1 unit, then {steps}, the Bonus wager always at the ratio in force; "
        "hands played by optimal play for the full shoe. Results in units, per round "
        "played; 95% intervals take rounds as independent.",
    )


#: The figures of a simulated counter's row, after its name.
COUNTER_KEYS = ("counter_rounds", "counter_win", "average_bet", "counter_house_edge",
                "counter_sd")  # fmt: skip


def _beats(stats: CounterStatistics) -> str:
    """Whether a counter's 95% interval lies above 0, below it, or across it, in words."""
    low, high = stats.ci95
    if low > 0:
        return "beats the game"
    if high < 0:
        return "does not beat the game"
    return "is not measurably ahead or behind at this sample size"


def _verdict(study: ProtectionStudy) -> str:
    """The section's conclusion in words, from the figures above it."""
    eor, plan = study.eor, study.plan
    every_round, back_counter = study.every_round, study.back_counter
    bonus_moves = max(abs(float(v)) for v in eor.effects["bonus"].values())
    bonus_base = float(eor.base["bonus"])
    bonus = (
        "Every Bonus EOR is zero in a full shoe (the ranks wrap round, so all cards are "
        "alike to it): no count of single cards can follow the Bonus wager, which keeps "
        f"costing about {100 * -bonus_base:.1f}% of its stake whatever the count."
        if bonus_moves < 1e-12
        else f"The Bonus wager ({signed(bonus_base)} per Bonus unit) moves by at most "
        f"{signed(bonus_moves * EOR_SCALE, 2)} \u00d7 10\u207b\u2074 per card removed."
    )
    spread = f"{study.spread[0]}\u2013{study.spread[1]}"
    unsure = [s for s in (every_round, back_counter) if s.ci95[0] <= 0 <= s.ci95[1]]
    larger = (
        " More rounds (a report option) would narrow the interval that is not yet decided."
        if unsure
        else ""
    )
    dealt = sum(back_counter.rounds_by_bet)
    share = back_counter.rounds_played / dealt if dealt else 0.0
    sitting = (
        f"(a back-counter, playing {100 * share:.0f}% of the rounds dealt) "
        f"{_beats(back_counter)} ({signed(100 * back_counter.mean, 2)} units per 100 rounds "
        f"played).{larger}"
        if back_counter.rounds_played
        else "(a back-counter) played none of the rounds dealt: more counter rounds (a "
        "report option) would show how one fares."
    )
    bound = study.attack.bound[-1]
    low, high = bound.win.interval
    best = study.best
    efficiency = study.indices.efficiency
    limits = (
        f" The perfect-information bound, which no player can exceed: "
        f"{signed(bound.win.mean, 2)} [{signed(low, 2)}, {signed(high, 2)}] per 100 rounds "
        f"at penetration {bound.penetration:g}; the best level-2 count (BC "
        f"{best.betting_correlation['round']:.3f}) betting Kelly and playing its indices: "
        f"{signed(100 * study.betting.win, 2)}"
        + (
            f", its indices capturing {100 * efficiency:.0f}% of perfect deviation."
            if efficiency is not None
            else "."
        )
    )
    return (
        f"Verdict. A counter using the {_count_words(plan)} with a {spread} spread who "
        f"plays every round {_beats(every_round)} "
        f"({signed(100 * every_round.mean, 2)} units per 100 rounds). One who also sits "
        f"out every round below a true count of {minus(f'{plan.wong_out:g}')} "
        f"{sitting} {bonus}{limits} "
        f"Assumptions: penetration {study.penetration:g}; every card dealt is seen; the "
        "simulated counters play optimally for the full shoe and may sit out; samples of "
        "the stated sizes, not exact."
    )


def _tc(value: float | None, key: str = "index_true_count") -> str:
    if value is None or abs(value) > 20:
        return "\u2013"
    return show(key, value)


def _index_text(play: IndexPlay) -> str:
    """An index with its side (``≥ +2.5``), or the dash alone where none is reached."""
    shown = _tc(play.index)
    if shown == "\u2013":
        return shown
    return ("\u2265 " if play.at_least else "\u2264 ") + shown


def _indices_grid(result: IndicesResult) -> Grid:
    rows = tuple(
        (
            p.name,
            p.deviation,
            _index_text(p),
            f"{_tc(p.low)} to {_tc(p.high)}",
            _tc(p.linear, "index_eor_estimate"),
            show("index_gain", p.value),
            show("perfect_gain", p.perfect),
        )
        for p in result.plays[:INDICES_SHOWN]
    )
    efficiency = result.efficiency
    return Grid(
        ("decision", "play", *(short_heading(k) for k in INDEX_KEYS)),
        rows,
        keys=column_keys(rows, (None, None, *INDEX_KEYS)),
        caption=f"Index plays of the best level-2 count ({thousands(result.samples)} solved "
        f"shoes up to {result.penetration:g}; gains per 100 rounds; \u2013: beyond \u00b120). "
        f"{heading('playing_efficiency').capitalize()}: "
        + ("n/a" if efficiency is None else show("playing_efficiency", efficiency))
        + ".",
    )


#: The figures of an index play's row, after its decision and play.
INDEX_KEYS = ("index_true_count", "index_interval", "index_eor_estimate", "index_gain",
              "perfect_gain")  # fmt: skip


def _estimate(key: str, e: Estimate) -> str:
    low, high = e.interval
    return _interval(key, e.mean, low, high)


def _betting_grid(result: BetResult) -> Grid:
    low, high = (100 * (result.win + k * 1.96 * result.win_se) for k in (-1, 1))
    n0 = "no edge" if result.n0 is None else show("n0", result.n0)
    keys = ("counter_win", "counter_sd", "desirability_index", "score", "n0")
    return Grid(
        ("ramp", *(short_heading(k) for k in keys)),
        (
            (
                minus(result.ramp_text) if result.ramp else "flat at the minimum",
                _interval("counter_win", 100 * result.win, low, high),
                show("counter_sd", result.sd),
                show("desirability_index", result.di),
                show("score", result.score),
                n0,
            ),
        ),
        keys=((None, *keys),),
        caption="Kelly betting with the best level-2 count and its indices (bankroll "
        f"{thousands(round(result.kelly_bankroll))} units, spread {result.spread[0]}\u2013"
        f"{result.spread[1]}); DI = 1,000 \u00d7 win / SD, SCORE = DI\u00b2 when the counter "
        "has an edge, 0 without one.",
    )


def _bound_grid(result: AttackResult) -> Grid:
    rows = tuple(
        (
            f"{r.penetration:g}",
            thousands(r.states),
            show("bound_positive_share", r.positive_share),
            _estimate("bound_win", r.win),
        )
        for r in result.bound
    )
    return Grid(
        ("penetration", "shoes", heading("bound_positive_share"), short_heading("bound_win")),
        rows,
        keys=column_keys(rows, (None, None, "bound_positive_share", "bound_win")),
        caption="The perfect-information bound, which no counter can exceed: every card left "
        f"known, perfect play, the Bonus at {result.bonus_multiple} \u00d7 when positive, "
        f"{result.spread[1]} units on a positive round and {result.spread[0]} otherwise.",
    )


#: The figures of a Bonus attacker's row, after the player and the trigger.
ATTACK_KEYS = ("raised_share", "raised_edge", "attack_gain")


def _bonus_grid(result: AttackResult) -> Grid:
    rows = tuple(
        (
            p.name,
            p.trigger,
            show("raised_share", p.share),
            "\u2013" if p.edge is None else show("raised_edge", p.edge),
            _estimate("attack_gain", p.win),
        )
        for p in result.players
    )
    pct = result.bonus_percentiles
    return Grid(
        ("player", "trigger", *(short_heading(k) for k in ATTACK_KEYS)),
        rows,
        keys=column_keys(rows, (None, None, *ATTACK_KEYS)),
        caption=f"The Bonus attack (Jacobson's format): the Bonus raised to "
        f"{result.bonus_multiple} \u00d7 the main wager when the trigger fires. Bonus EV: mean "
        f"{signed(result.bonus_mean, 4)}, 5th/95th percentiles {signed(pct[5], 4)}/"
        f"{signed(pct[95], 4)}, positive in {100 * result.bonus_positive_share:.1f}% of shoes.",
    )
