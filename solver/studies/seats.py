"""A table of players: the casino's result per table-round for 1 to 7 seats (``cbj seats``).

Seats share the Bonus card, the dealer's hand and the shoe, so their results are
correlated and a table's spread is not a single seat's times the seats.  The Bonus
wager's hold and SD are exact (:mod:`solver.exact.seats`); the main wager's and the
round's come from the simulator (:mod:`solver.sim.seats`) with 95% intervals, since no
exact path here follows several players' hands against one dealer.  The simulator's
Bonus figure is kept beside the exact one, with its z-score, as a check of both.

Every figure is in units of the main wager per table-round, from the casino's side
(positive is the casino's win).  Each table-round is dealt from a freshly shuffled shoe,
as the exact Bonus figures assume.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from solver.exact.seats import SEAT_COUNTS, check_seats, table_bonus
from solver.model.catalogue import SEATS_ROUNDS_DEFAULT
from solver.model.checks import check_rounds, check_seed
from solver.model.errors import SimulationError
from solver.model.rules import Rules
from solver.results.seats import SeatsRow, TableOfPlayers
from solver.sim import Strategy, simulate
from solver.sim.seats import table_estimate

#: Table-rounds simulated for each number of seats when the caller does not say.
DEFAULT_ROUNDS = SEATS_ROUNDS_DEFAULT


def check_run(rounds: int, seed: int | None) -> None:
    """Refuse a number of table-rounds or a seed the simulator would refuse, before any work.

    Two rounds at least: a standard error (and the JSON, which has no NaN) needs two.
    """
    check_rounds(rounds)
    if rounds < 2:
        raise SimulationError(f"rounds {rounds} is too few: a standard error needs 2 or more")
    check_seed(seed)


def table_of_players(
    rules: Rules,
    strategy: Strategy,
    seat_counts: Iterable[int] = SEAT_COUNTS,
    rounds: int = DEFAULT_ROUNDS,
    *,
    seed: int | None = None,
    jobs: int = 1,
) -> TableOfPlayers:
    """Exact Bonus figures and ``rounds`` simulated table-rounds for each number of seats.

    Every seat plays ``strategy`` and bets ``rules.bonus_ratio`` on the Bonus.  Without a
    ``seed`` one is drawn (and reported); row k uses ``seed + k``.
    """
    check_run(rounds, seed)
    counts = tuple(dict.fromkeys(map(check_seats, seat_counts)))
    base = secrets.randbits(63) if seed is None else seed
    rows = []
    for exact in table_bonus(rules, counts):
        row_seed = base + exact.seats
        result = simulate(
            rules, strategy, rounds, seed=row_seed, seats=exact.seats, penetration=None, jobs=jobs
        )
        main, bonus, whole = (table_estimate(result, w) for w in ("main", "bonus", "round"))
        rows.append(SeatsRow(exact, main, bonus, whole, row_seed))
    return TableOfPlayers(rules, strategy.name, rounds, base, tuple(rows))
