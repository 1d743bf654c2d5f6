"""Write docs/validation.md: exact figures against the independent simulator.

    python scripts/validation.py --rounds 10000000 > docs/validation.md

For each rule variant the exact solver gives the main wager's EV under composition-
dependent optimal play, the Bonus wager's EV and the round's EV; the simulator deals
fresh shoes, plays the solver's decisions and reports its own means with standard errors.
"""

from __future__ import annotations

import argparse
from fractions import Fraction

from solver.api.functions import simulate
from solver.model.rules import DealerNatural, Paytable, Rules

VARIANTS = [
    ("default", Rules()),
    ("2 decks, dealer stands on 17", Rules(decks=2, dealer_stands_on=17)),
    ("1 deck, blackjack pays 6:5", Rules(decks=1, blackjack_pays=Fraction(6, 5))),
    ("8 decks, naturals of own cards only", Rules(decks=8, dealer_natural=DealerNatural.OWN_CARDS)),
    (
        "natural ties every 21, paytable 20:5:1, bonus ratio 1",
        Rules(
            natural_beats_multi_card_21=False,
            paytable=Paytable.parse("20:5:1"),
            bonus_ratio=Fraction(1),
        ),
    ),
]


#: The evidence beside this page's table that no run of the script produces.
PUBLISHED = (
    "Against published tables: `tests/test_published_dealer.py` reproduces, to their "
    "printed precision, standard blackjack's dealer tables (the Wizard of Odds' blackjack "
    "appendix 2B, wizardofodds.com/games/blackjack/appendix/2b/, and appendix 2; "
    "BlackjackInfo's dealer outcome probabilities; one and two decks, dealer stands on soft "
    "17, every up card; in `tests/data/`, each citing its source) with the exact dealer under "
    "`--dealer-bonus must_use --dealer-stands-on 17 --dealer-natural bonus_card`, the "
    "Bonus card as the up card ([rules.md](rules.md))."
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print("# Validation: exact figures against the simulator\n")
    print(
        "Produced by `python scripts/validation.py "
        f"--rounds {args.rounds} --seed {args.seed}` (see the script's docstring). "
        "Each variant is simulated with fresh shoes, the solver's composition-dependent "
        "optimal decisions and an independent settlement of every round "
        "([simulation.md](simulation.md)). `z` is (simulated - exact) / standard error; "
        "about 95% of them should lie within ±2 if both are right.\n"
    )
    print("| rules | wager | exact | simulated | std error | z |")
    print("|---|---|---|---|---|---|")
    for index, (label, rules) in enumerate(VARIANTS):
        result = simulate(
            rounds=args.rounds,
            rules=rules,
            strategy="optimal",
            seed=args.seed + index,  # independent streams per variant
            penetration=None,
            jobs=args.jobs,
        )
        for wager in ("main", "bonus", "round"):
            estimate = result.overall[wager]
            exact = float(estimate.exact) if estimate.exact is not None else float("nan")
            z = (estimate.mean - exact) / estimate.standard_error
            print(
                f"| {label} | {wager} | {exact:+.6f} | {estimate.mean:+.6f} | "
                f"{estimate.standard_error:.6f} | {z:+.2f} |"
            )
    print(f"\n{args.rounds:,} rounds per variant; seeds {args.seed} + the variant's position.")
    print(f"\n{PUBLISHED}")


if __name__ == "__main__":
    main()
