"""The report's "Game protection" section: the attacks a casino must consider, each with its
bound and the best practical counter's figure, and the verdict they give.

The figures come from :func:`solver.studies.protection.protection_study` (the same code
as ``cbj eor``, ``cbj count``, ``cbj indices``, ``cbj bet`` and ``cbj attack``); this module
lays them out, and the verdict's sentences are ``cbj attack``'s
(:func:`solver.present.advantage.verdict_lines`), computed from the rows, so the section
changes with the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from solver.model.counts import LABELS, Tags
from solver.present.advantage import (
    dealt_up_to,
    estimate_text,
    row_text,
    signed_count,
    verdict_lines,
)
from solver.present.report.blocks import Grid, Section, Text, column_keys
from solver.present.style import minus, minus_numbers, show, signed, thousands
from solver.results.attack import AttackResult, AttackRow
from solver.results.betting import BetResult
from solver.results.figures import heading, short_heading
from solver.results.indices import IndexPlay, IndicesResult

#: Index plays shown in the report, the most valuable first.
INDICES_SHOWN = 4

if TYPE_CHECKING:
    from solver.results.protection import (
        CountSystem,
        EffectsOfRemoval,
        ProtectionStudy,
    )

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
                "Can a player beat the game by watching the cards, and what ends it if he "
                "can? The effect of removal (EOR) of a rank is the change in a wager's "
                "expected value when one card of that rank leaves the full shoe (two full "
                "solves, not a linear estimate); the counts follow them. Then every attack "
                "a casino must consider, each measured for the player who knows every card "
                "left (its bound) and for the best practical counter, per round dealt at "
                "his seat (the rounds he sits out count as nothing) and per round he plays."
            ),
            _eor_grid(eor),
            _counts_grid(study.systems, eor),
            _attack_grid(study.attack),
            _indices_grid(study.indices),
            _betting_grid(study.betting),
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


def _verdict(study: ProtectionStudy) -> str:
    """The section's conclusion: ``cbj attack``'s verdict, then the counts' figures."""
    best, efficiency = study.best, study.indices.efficiency
    counts = (
        f"The best level-2 count (betting correlation {best.betting_correlation['round']:.3f}) "
        f"with its Kelly ramp and index plays wins {signed(100 * study.betting.win, 2)} per "
        "100 rounds"
        + (
            f", its indices capturing {100 * efficiency:.0f}% of perfect deviation."
            if efficiency is not None
            else "."
        )
    )
    return minus_numbers(
        "Verdict. "
        + " ".join(verdict_lines(study.attack, brief=True))
        + f" {counts} Assumptions: every card dealt is seen; samples of the stated sizes, "
        "not exact."
    )


def _tc(value: float | None, key: str = "index_true_count") -> str:
    if value is None or abs(value) > 20:
        return "\u2013"
    return minus(signed_count(value))


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
        for p in [p for p in result.plays if p.played][:INDICES_SHOWN]
    )
    efficiency = result.efficiency
    return Grid(
        ("decision", "play", *(short_heading(k) for k in INDEX_KEYS)),
        rows,
        keys=column_keys(rows, (None, None, *INDEX_KEYS)),
        caption=f"Index plays of the best level-2 count that gain ({thousands(result.samples)} "
        f"solved shoes dealt {dealt_up_to(result.rules.decks, result.penetration)}; "
        "gains per 100 rounds), the most valuable "
        f"first. {heading('playing_efficiency').capitalize()}: "
        + ("n/a" if efficiency is None else show("playing_efficiency", efficiency))
        + ".",
    )


#: The figures of an index play's row, after its decision and play.
INDEX_KEYS = ("index_true_count", "index_interval", "index_eor_estimate", "index_gain",
              "perfect_gain")  # fmt: skip


def _interval(key: str, value: float, low: float, high: float) -> str:
    """A figure with its 95% interval, as every output writes it."""
    return f"{show(key, value)} ({show(key, low)} to {show(key, high)})"


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


def _tray(result: AttackResult) -> int | None:
    """The shuffler's tray in the rows."""
    return next(
        (r.shuffle.buffer for a in result.attacks for r in a.rows if r.shuffle.is_csm), None
    )


def _shuffle(row: AttackRow) -> str:
    """A row's shuffle in a narrow cell: ``cut 0.83``, ``cut 0.83 capped``, ``CSM 20``."""
    if row.shuffle.is_csm:
        return f"CSM {row.shuffle.buffer}"
    return f"cut {row.depth:g}" + (" capped" if row.cap else "")


def _attack_grid(result: AttackResult) -> Grid:
    """Every attack's rows in one grid."""
    rows = []
    for attack in result.attacks:
        for r in attack.rows:
            rows.append(
                (
                    attack.short if r is attack.rows[0] else "",
                    "bound" if r.bound else "simulated" if r.method == "simulated" else "counter",
                    _shuffle(r),
                    minus_numbers(row_text(r, short=True)),
                    minus(estimate_text(r.played)),
                    f"{100 * r.share:.1f}%",
                )
            )
    grid_rows = tuple(rows)
    b = result.bonus
    return Grid(
        (
            "attack",
            "player",
            "shuffle",
            f"{short_heading('attack_win_dealt')} (95%)",
            f"{short_heading('attack_win_played')} (95%)",
            short_heading("share_played"),
        ),
        grid_rows,
        caption="Each attack (every round; back-count: bets only when the shoe favours it; "
        "no mid-shoe entry: sits down only at a shuffle; Bonus only: raises the Bonus alone) "
        "as played by a player who knows every card left (bound: no player of that attack "
        "wins more) and by the best practical counter (counter: the best level-2 count, its "
        f"Kelly ramp within {result.spread[0]}\u2013{result.spread[1]}, on "
        f"{thousands(result.samples)} dealt shoes; simulated: the simulator's counters). Wins "
        "in main units per 100 rounds dealt (a round sat out counts as nothing; 0 of N: no "
        "round to win on in N samples) and per 100 played; cut cards only as deep as a dealt "
        f"shoe reached ({result.reached:g}); capped: the Bonus held to the rules' ratio; CSM: "
        f"a shuffler with a tray of {_tray(result)} cards. Bonus EV per Bonus unit over the "
        f"shoes: mean {minus(signed(b.mean, 4))}, positive in {100 * b.positive_share:.1f}%.",
        keys=column_keys(
            grid_rows,
            (None, None, None, "attack_win_dealt", "attack_win_played", "share_played"),
        ),
    )
