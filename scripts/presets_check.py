"""Check presets, realistic policies and session ranges against the independent simulator.

    python scripts/presets_check.py --rounds 2000000 > docs/presets-validation.md

Four parts, all on the full shoe with a fresh shuffle every round:

1. the Vegas 21 preset and ``dealer_natural bonus_card`` with each natural strength,
   played optimally: exact main, Bonus and round EV against the simulator;
2. every policy of ``cbj strategies`` under the default rules: exact main EV
   (:mod:`solver.exact.strategies`) against the simulator playing the same name;
3. sessions of 100 and 1,000 rounds of optimal play: how often the simulated session
   result falls inside the exact-mean, normal-approximation 90% and 95% ranges;
4. a table of 1 to 7 seats: the casino's hold per table-round, exact for the Bonus wager
   (:mod:`solver.exact.seats`), simulated with 95% intervals for the main wager and round.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from fractions import Fraction

from solver.exact.chart import strategy_source
from solver.exact.game import solve_game
from solver.exact.seats import table_bonus
from solver.exact.strategies import realistic_play
from solver.exact.volatility import game_volatility
from solver.model.outcomes import POLICY_NAMES
from solver.model.rules import DealerNatural, NaturalBeats, Rules
from solver.results.game import GameResult
from solver.results.simulation import ExactFigure
from solver.sim import parse_strategy, simulate
from solver.sim.seats import table_estimate
from solver.sim.sessions import coverage, simulate_sessions
from solver.store.disk import default_cache
from solver.studies.simulation import bonus_figure

READINGS = [
    ("vegas-21 preset", Rules.from_preset("vegas-21")),
    *(
        (
            f"dealer_natural bonus_card, natural_beats {beats.value}",
            Rules(dealer_natural=DealerNatural.BONUS_CARD, natural_beats=beats),
        )
        for beats in (NaturalBeats.MULTI_CARD_21, NaturalBeats.NOTHING)
    ),
    (
        "natural_beats non_blackjack (with_bonus naturals)",
        Rules(natural_beats=NaturalBeats.NON_BLACKJACK),
    ),
]


def _row(label: str, wager: str, exact: float, mean: float, error: float) -> str:
    z = (mean - exact) / error
    return f"| {label} | {wager} | {exact:+.6f} | {mean:+.6f} | {error:.6f} | {z:+.2f} |"


def _game(rules: Rules) -> GameResult[Fraction]:
    """The exact game under ``rules``, through the user's disk cache."""
    game: GameResult[Fraction] = solve_game(rules, exact=True, cache=default_cache())
    return game


def _decisions(rules: Rules) -> Callable[[str], dict[tuple[int, tuple[int, ...]], bool]]:
    return lambda kind: strategy_source(_game(rules), kind)


def readings(rounds: int, seed: int, jobs: int) -> None:
    print("## Presets and natural readings, optimal play\n")
    print("| rules | wager | exact | simulated | std error | z |")
    print("|---|---|---|---|---|---|")
    for index, (label, rules) in enumerate(READINGS):
        game = _game(rules)
        exact = {
            "main": ExactFigure(
                Fraction(game.expected_value), {k: Fraction(p) for k, p in game.outcomes.items()}
            ),
            "bonus": bonus_figure(rules),
        }
        strategy = parse_strategy("optimal", _decisions(rules))
        result = simulate(
            rules, strategy, rounds, seed=seed + index, penetration=None, jobs=jobs, exact=exact
        )
        for wager in ("main", "bonus", "round"):
            estimate = result.overall[wager]
            assert estimate.exact is not None
            print(_row(label, wager, float(estimate.exact), estimate.mean, estimate.standard_error))
    print()


def policies(rounds: int, seed: int, jobs: int) -> None:
    rules = Rules()
    game = _game(rules)
    result = realistic_play(rules, POLICY_NAMES, game=game)
    print("## Realistic play under the default rules: main wager\n")
    print("| strategy | wager | exact | simulated | std error | z |")
    print("|---|---|---|---|---|---|")
    for index, policy in enumerate(result.policies):
        strategy = parse_strategy(policy.name, _decisions(rules), rules.dealer_stands_on)
        outcomes = {k: Fraction(p) for k, p in policy.game.outcomes.items()}
        sim = simulate(
            rules,
            strategy,
            rounds,
            seed=seed + 100 + index,
            penetration=None,
            jobs=jobs,
            exact={"main": ExactFigure(policy.main_ev, outcomes)},
        )
        main = sim.overall.main
        print(_row(policy.name, "main", float(policy.main_ev), main.mean, main.standard_error))
    print()


def sessions(seed: int, counts: dict[int, int]) -> None:
    rules = Rules()
    game = _game(rules)
    ranges = game_volatility(game, counts)
    assert ranges is not None
    strategy = parse_strategy("optimal", _decisions(rules))
    print("## Sessions of optimal play: coverage of the exact ranges\n")
    print(
        f"Round EV {float(ranges.mean):+.6f}, SD {ranges.standard_deviation:.6f}, volatility "
        f"index {ranges.index:.4f} (z = 1.6449 for 90%).\n"
    )
    print(
        "| rounds | sessions | in 90% range | in 95% range | ±3 std errors "
        "| P(ahead) exact | P(ahead) simulated |"
    )
    print("|---|---|---|---|---|---|---|")
    for session in ranges.sessions:
        n = counts[session.rounds]
        nets = simulate_sessions(rules, strategy, session.rounds, n, seed=seed + session.rounds)
        in90 = coverage(nets, *session.range90)
        in95 = coverage(nets, *session.range95)
        band = 3 * math.sqrt(0.9 * 0.1 / n)
        print(
            f"| {session.rounds:,} | {n:,} | {in90:.4f} | {in95:.4f} | ±{band:.4f} (90%) | "
            f"{session.probability_ahead:.4f} | {float((nets > 0).mean()):.4f} |"
        )
    print()


def table(rounds: int, seed: int, jobs: int) -> None:
    rules = Rules()
    strategy = parse_strategy("optimal", _decisions(rules))
    print("## A table of players: the casino's hold per table-round (units of the main wager)\n")
    print(
        "| seats | Bonus hold exact | Bonus SD exact | Bonus hold simulated | Bonus SD simulated "
        "| main hold (95% CI) | main SD | round hold (95% CI) | round SD |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for row in table_bonus(rules):
        result = simulate(
            rules,
            strategy,
            rounds,
            seed=seed + 1000 + row.seats,
            seats=row.seats,
            penetration=None,
            jobs=jobs,
        )
        bonus, main, whole = (table_estimate(result, w) for w in ("bonus", "main", "round"))
        cells = [
            f"{row.seats}",
            f"{float(row.hold):.5f}",
            f"{row.standard_deviation:.4f}",
            f"{bonus.hold:.5f} ± {1.96 * bonus.standard_error:.5f}",
            f"{bonus.standard_deviation:.4f}",
            f"{main.hold:.5f} ({main.ci95[0]:.5f}, {main.ci95[1]:.5f})",
            f"{main.standard_deviation:.4f}",
            f"{whole.hold:.5f} ({whole.ci95[0]:.5f}, {whole.ci95[1]:.5f})",
            f"{whole.standard_deviation:.4f}",
        ]
        print("| " + " | ".join(cells) + " |")
    print(f"\n{rounds:,} table-rounds per row, every seat playing optimally, fresh shoe.\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2_000_000)
    parser.add_argument("--policy-rounds", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--table-rounds", type=int, default=500_000)
    parser.add_argument(
        "--part", choices=["all", "readings", "policies", "sessions", "table"], default="all"
    )
    args = parser.parse_args()
    print("# Validation: presets, realistic play and volatility against the simulator\n")
    print(
        f"Produced by `python scripts/presets_check.py --rounds {args.rounds} --policy-rounds "
        f"{args.policy_rounds} --seed {args.seed}`. Fresh shoe every round; `z` is "
        "(simulated - exact) / standard error.\n"
    )
    if args.part in ("all", "readings"):
        readings(args.rounds, args.seed, args.jobs)
    if args.part in ("all", "policies"):
        policies(args.policy_rounds, args.seed, args.jobs)
    if args.part in ("all", "sessions"):
        sessions(args.seed, {100: 20_000, 1_000: 4_000})
    if args.part in ("all", "table"):
        table(args.table_rounds, args.seed, args.jobs)


if __name__ == "__main__":
    main()
