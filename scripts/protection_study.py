"""The full-size game-protection study of a game, as Markdown: what docs/protection-study.md holds.

    python scripts/protection_study.py --samples 2000 --rounds 10000000 --paths 40 \\
        --jobs 2 > docs/protection-study.md

Every figure comes from the library (``cbj indices``, ``cbj bet``, ``cbj attack`` and
``cbj simulate``'s functions) over one dealt-shoe study kept in the disk cache, so a second
run deals no shoe again.  Seven parts:

1. the conditions: date, machine, load, sizes, seeds and wall times;
2. counts: the best by betting correlation (EORs, complete search) and by playing
   correlation (searched on the even-numbered shoes), each count's playing efficiency
   measured on the odd-numbered shoes (out of sample);
3. the index plays of the best level-2 count, ranked;
4. Kelly betting with that count, keeping to the chart and playing its indices;
5. the independent simulator against the predictions: the indices' gain at a flat bet,
   and the Kelly ramp's win;
6. every attack's rows (``cbj attack``: each attack's bound and the best practical counter,
   per round dealt and played, by penetration, under a continuous shuffler and with the
   Bonus capped) and the verdict they give;
7. the checks the attack rests on: the round under a continuous shuffler against the exact
   full shoe, and the simulated ace-count back-counter of docs/protection.md against the
   back-counter's bound.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

import solver
from solver.exact.count_search import best_playing_count
from solver.exact.indices import index_plays
from solver.model.catalogue import STUDY_SEED
from solver.model.counts import LABELS, system_tags
from solver.model.rules import Rules
from solver.model.shuffles import DEFAULT_BUFFER
from solver.present.advantage import attack_tables
from solver.present.formats import Format
from solver.present.tables import render_tables
from solver.results.attack import AttackKind
from solver.results.run import Run
from solver.store.disk import Cache
from solver.studies.counting import chosen_tags, dealt_shoes

#: The dealt-shoe study's seed (``cbj indices``' default).
SEED: int = STUDY_SEED.default

T = TypeVar("T")
TIMES: list[tuple[str, float, float, float]] = []


def timed(label: str, work: Callable[[], T]) -> T:
    """``work()``, its wall time and the load before and after noted under ``label``."""
    before, start = os.getloadavg()[0], time.perf_counter()
    result = work()
    TIMES.append((label, time.perf_counter() - start, before, os.getloadavg()[0]))
    return result


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def tags_text(tags: dict[str, int]) -> str:
    """A count's ten tags, tens once: ``A-2 2+1 ... T+2``."""
    return " ".join(f"{r}{tags[r]:+d}" for r in LABELS[:10])


def signed(value: float, places: int = 1) -> str:
    """``value`` with its sign, no minus on a zero."""
    text = f"{value:+.{places}f}"
    return text.replace("-", "+") if float(text) == 0 else text


def interval(mean: float, se: float, places: int = 3) -> str:
    """``mean [low, high]`` at 95%."""
    return f"{mean:+.{places}f} [{mean - 1.96 * se:+.{places}f}, {mean + 1.96 * se:+.{places}f}]"


def main() -> None:
    """Run the study and print it."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--penetration", type=float, default=0.83)
    parser.add_argument("--paths", type=int, default=40)
    args = parser.parse_args()
    rules, cache, pen, jobs = Rules(), Cache(), args.penetration, args.jobs
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    shoes = timed(
        f"{args.samples:,} dealt shoes, --jobs {jobs}",
        lambda: dealt_shoes(rules, args.samples, SEED, pen, Run(jobs=jobs, cache=cache)),
    )
    study = {"samples": args.samples, "seed": SEED, "penetration": pen, "jobs": jobs}
    best_name, best_tags = chosen_tags(rules, "best-level-2", cache)

    counts: list[tuple[str, dict[str, int], str]] = [
        ("hi-lo", system_tags("hi-lo"), "published"),
        ("best-level-1", chosen_tags(rules, "best-level-1", cache)[1], "betting, EORs"),
        (best_name, best_tags, "betting, EORs"),
    ]
    for level in (1, 2):
        found = timed(
            f"playing search, level {level}",
            lambda level=level: best_playing_count(shoes, level),  # type: ignore[misc]
        )
        counts.append((f"best-playing-{level}", found.tags, "playing, even shoes"))
    odd = shoes.every_other(1)
    count_rows = []
    for name, tags, source in counts:
        judged = index_plays(odd, name, tags)
        efficiency = judged.efficiency
        count_rows.append(
            (
                name,
                source,
                tags_text(tags),
                "n/a" if efficiency is None else f"{efficiency:.3f}",
                interval(judged.gain, judged.gain_se, 4),
            )
        )

    indices = timed(
        "index plays",
        lambda: solver.indices(rules=rules, samples=args.samples, penetration=pen, cache=cache),
    )
    bets = {
        play: timed(
            f"Kelly ramp ({'indices' if play else 'chart'})",
            lambda play=play: solver.bet(  # type: ignore[misc]
                rules=rules, samples=args.samples, penetration=pen, indices=play, cache=cache
            ),
        )
        for play in (False, True)
    }
    attack = timed(
        f"every attack ({args.paths} shoe paths, {args.rounds:,} rounds a counter)",
        lambda: solver.attack(
            rules=rules,
            samples=args.samples,
            penetration=pen,
            paths=args.paths,
            rounds=args.rounds,
            jobs=jobs,
            cache=cache,
        ),
    )
    csm = timed(
        f"round under a shuffler, {args.rounds:,} rounds",
        lambda: solver.simulate(
            rules=rules, rounds=args.rounds, seed=74, csm=DEFAULT_BUFFER, jobs=jobs, cache=cache
        ),
    )
    aces = timed(
        "simulated ace-count back-counter",
        lambda: solver.simulate(
            rules=rules,
            rounds=args.rounds,
            seed=2026,
            penetration=pen,
            counter="A=-1,2=0,3=0,4=0,5=0,6=0,7=0,8=0,9=0,T=0",
            ramp="1:2,1.5:4,2:8",
            wong_out="0.5",
            jobs=jobs,
            cache=cache,
        ),
    )

    def simulated(seed: int, **options: Any) -> tuple[float, float]:
        result = solver.simulate(
            rules=rules,
            rounds=args.rounds,
            seed=seed,
            strategy="chart",
            penetration=pen,
            counter="best-level-2",
            index_samples=args.samples,
            jobs=jobs,
            cache=cache,
            **options,
        )
        assert result.counter is not None
        return 100 * result.counter.mean, 100 * result.counter.standard_error

    plain = timed("simulated counter, flat bet", lambda: simulated(71, spread="1-1"))
    indexed = timed(
        "simulated counter, flat bet, indices",
        lambda: simulated(72, spread="1-1", indices=True),
    )
    kelly = bets[True]
    ramp = kelly.ramp_text  # a flat bet too, as the smallest bet from the lowest count
    ramped = timed(
        "simulated counter, Kelly ramp, indices",
        lambda: simulated(
            73, spread=f"{kelly.spread[0]}-{kelly.spread[1]}", ramp=ramp, indices=True
        ),
    )

    print("# Game protection: the full-size study of the default game\n")
    print(
        f"Written by `python scripts/protection_study.py --samples {args.samples} --rounds "
        f"{args.rounds} --paths {args.paths} --jobs {jobs}` on {started}: {platform.machine()}, "
        f"{os.cpu_count()} cores shared with other work (load averages below), Python "
        f"{platform.python_version()}. The default rules (6 decks, Bonus wager 1/2, 15:4:1); "
        f"{args.samples:,} shoes dealt at random depths up to {pen:g} of the shoe "
        f"(seed {study['seed']}) and each solved; simulations of {args.rounds:,} rounds each "
        "at one seat, the shoe cut at the same depth. Win figures are per 100 rounds in "
        "main units with 95% intervals. What each figure means: docs/protection.md.\n"
    )
    print("## Wall times\n")
    print(
        table(
            ("step", "wall (s)", "load before / after"),
            [(a, f"{b:.1f}", f"{c:.1f} / {d:.1f}") for a, b, c, d in TIMES],
        )
    )
    print("\n## Counts\n")
    print(
        "Best by betting correlation: the complete search over the round's EORs. Best by "
        "playing correlation: the complete search over the dealt shoes numbered 0, 2, 4, "
        "... Each count's playing efficiency and the gain of its played indices are "
        "measured on the shoes numbered 1, 3, 5, ... (out of sample; its indices fitted "
        "there too).\n"
    )
    print(table(("count", "found by", "tags", "playing efficiency", "indices' gain"), count_rows))
    print("\n## Index plays of the best level-2 count (all shoes)\n")
    print(
        f"Playing efficiency {indices.efficiency or 0:.3f}; every played index together "
        f"gains {interval(indices.gain, indices.gain_se, 4)}.\n"
    )
    print(
        table(
            ("decision", "play", "index", "95% interval", "EOR estimate", "value", "perfect"),
            [
                (
                    p.name,
                    p.deviation,
                    ("≥ " if p.at_least else "≤ ")
                    + (signed(p.index) if p.index is not None else "never"),
                    "-" if p.low is None or p.high is None else f"{p.low:+.1f} to {p.high:+.1f}",
                    "-" if p.linear is None else f"{p.linear:+.1f}",
                    f"{p.value:+.4f}",
                    f"{p.perfect:+.4f}",
                )
                for p in indices.plays[:12]
            ],
        )
    )
    print("\n## Kelly betting with the best level-2 count\n")
    rows = []
    for bet in bets.values():
        rows.append(
            (
                bet.play,
                bet.ramp_text,
                interval(100 * bet.win, 100 * bet.win_se),
                f"{bet.sd:.3f}",
                f"{bet.di:.2f}",
                f"{bet.score:.2f}",
                "no edge" if bet.n0 is None else f"{bet.n0:,.0f}",
                "no edge" if bet.bankroll is None else f"{bet.bankroll:,.0f}",
            )
        )
    print(
        table(
            (
                "hands played by",
                "ramp (TC:units)",
                "win per 100",
                "SD",
                "DI",
                "SCORE",
                "N0",
                "bankroll for 5% ruin (diffusion)",
            ),
            rows,
        )
    )
    print("\n## The simulator against the predictions\n")
    gain = indexed[0] - plain[0]
    gain_se = math.hypot(indexed[1], plain[1])
    print(
        table(
            ("check", "predicted (dealt shoes)", "simulated", "difference in SEs"),
            [
                (
                    "indices' gain, flat bet",
                    interval(indices.gain, indices.gain_se, 3),
                    interval(gain, gain_se, 3),
                    f"{(gain - indices.gain) / math.hypot(gain_se, indices.gain_se):+.2f}",
                ),
                (
                    "Kelly ramp with indices: win",
                    interval(100 * kelly.win, 100 * kelly.win_se),
                    interval(*ramped),
                    f"{(ramped[0] - 100 * kelly.win) / math.hypot(ramped[1], 100 * kelly.win_se):+.2f}",  # noqa: E501
                ),
            ],
        )
    )
    print(f"\nFlat bet without indices: {interval(*plain)} per 100 rounds.")
    print("\n## Every attack, and what ends it\n")
    for shown in attack_tables(attack):
        print(render_tables([shown], Format.MD))
        print()
    print("\n## The checks the attack rests on\n")
    round_ev = csm.overall.round
    stats = aces.counter
    assert stats is not None
    bound = next(
        r
        for r in attack.attack(AttackKind.BACK_COUNT).rows
        if r.bound and not r.cap and r.depth == pen
    )
    dealt = (100 * stats.mean_dealt, 100 * stats.standard_error_dealt)
    print(
        table(
            ("check", "figure", "against", "in SEs"),
            [
                (
                    f"round EV under a shuffler (tray {DEFAULT_BUFFER}), {args.rounds:,} rounds",
                    interval(100 * round_ev.mean, 100 * round_ev.standard_error, 3),
                    f"exact full shoe {100 * float(round_ev.exact or 0):+.3f}",
                    f"{round_ev.z:+.2f}",
                ),
                (
                    "ace-count back-counter (--wong-out 0.5), per 100 rounds dealt",
                    interval(*dealt, 3),
                    f"back-counter's bound at {pen:g}: "
                    + interval(bound.dealt.mean, bound.dealt.se, 2),
                    f"{(bound.dealt.mean - dealt[0]) / math.hypot(bound.dealt.se, dealt[1]):+.2f}",
                ),
            ],
        )
    )
    share = stats.rounds_played / stats.rounds_dealt
    print(
        f"\nThe ace-count back-counter played {100 * share:.1f}% of the rounds dealt"
        f" and won {interval(100 * stats.mean, 100 * stats.standard_error, 2)} "
        "per 100 rounds played."
    )


if __name__ == "__main__":
    main()
