"""The simulator's kernel in numpy: the twin of ``solver/sim/_deal.c``.

:func:`play` has the compiled ``play``'s signature and fills the same arrays with the same
numbers: it deals each batch of rounds with :func:`solver.sim.deal.deal_round` (the rule
text's own round) on the lanes' shoes, drawing the chunk's generator's doubles as the
compiled twin does.  Which twin runs is chosen once, in :mod:`solver.sim.kernel`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solver.sim.deal import IndexPlays, RoundTables, Shoes, deal_round

__all__ = ["STEPS_PCG64", "play"]

#: Whether :func:`play` steps PCG64 itself from the state it is given: no, it draws from
#: the bit generator (the compiled twin may, and then hands the state back).
STEPS_PCG64 = 0
#: A card code's values (as ``solver/sim/_deal.c`` numbers them): a value index 1..10.
VALUES = 11


def _shoes(
    arrays: tuple[Any, Any, Any, Any, Any], tags: Any, cut: int, bits: Any, buffer: int
) -> Shoes:
    """The lanes' shoes over the caller's own arrays (rows, next, start, running, tray)."""
    rows, next_card, start, running, tray = arrays
    shoes = Shoes.__new__(Shoes)
    lanes = len(next_card)
    shoes.size = len(rows) // lanes
    shoes.rows, shoes.next, shoes.start, shoes.running = rows, next_card, start, running
    shoes.rng = np.random.Generator(bits)
    shoes.cut = None if cut < 0 else cut
    shoes.tags = tags
    shoes.room = 0
    shoes.buffer = None if buffer < 0 else buffer
    shoes.tray = tray
    shoes.begun = np.zeros(lanes, dtype=np.bool_)
    return shoes


def play(
    rows: Any,
    next_card: Any,
    start: Any,
    running: Any,
    tags: Any,
    cut: int,
    value_of: Any,
    tier: Any,
    pair: Any,
    step: Any,
    best: Any,
    dealer_best: Any,
    cards_in_21: Any,
    hit: Any,
    draws: Any,
    natural: Any,
    beats: int,
    seats: int,
    index_play: Any,
    index_at: Any,
    index_at_least: Any,
    index_hit: Any,
    drift: int,
    main_pay: Any,
    bonus_pay: Any,
    ratio: float,
    bits: Any,
    pcg: Any,
    lanes: int,
    rounds: int,
    batches: int,
    joint: Any,
    sums: Any,
    seen: Any,
    tray: Any,
    buffer: int,
    /,
) -> tuple[int, int, tuple[int, int]]:
    """Deal up to ``batches`` rounds of ``lanes`` lanes (``rounds`` at most) from the lanes'
    shoes: add every seat's (main, Bonus) outcome to ``joint`` (seats, 4, Bonus outcomes,
    flat), write each batch's sums over the seats of the main, Bonus and round nets into
    ``sums`` (3 rows of ``lanes``) and, given ``seen``, what a counter at seat 1 saw (running
    count and cards dealt before the deal, its main and Bonus outcomes: 4 rows).  Given
    ``index_play`` (the rule covering each Bonus value and hand, -1 for none), seat 1
    makes rule ``k``'s play ``index_hit[k]`` where the true count at the start of the
    round (the count kept by ``tags``, less ``drift`` per deck seen) is at least
    ``index_at[k]`` (``index_at_least[k]``) or at most it.  Returns (rounds played, -1,
    (0, 0)): a round that uses every card raises ShoeError here."""
    states = len(cards_in_21)
    first = None
    if index_play is not None:
        if tags is None:
            raise ValueError("index plays need the count kept: give tags")
        first = IndexPlays(
            index_play.reshape(VALUES, states),
            index_at,
            index_at_least.view(np.bool_),
            index_hit.view(np.bool_),
            drift,
        )
    tables = RoundTables(
        value_of,
        tier.reshape(52, 52),
        pair.reshape(52, 52).view(np.bool_),
        step.reshape(states, VALUES),
        best.reshape(VALUES, states),
        dealer_best.reshape(VALUES, states),
        cards_in_21,
        hit.reshape(VALUES, states).view(np.bool_),
        draws.reshape(VALUES, states).view(np.bool_),
        natural.reshape(VALUES, states).view(np.bool_),
        beats,
        seats,
    )
    shoes = _shoes((rows, next_card, start, running, tray), tags, cut, bits, buffer)
    kinds = len(bonus_pay)
    tally = joint.reshape(seats, 4, kinds)
    played = batch = 0
    while played < rounds and batch < batches:
        n = min(lanes, rounds - played)
        if seen is not None:  # what a counter sees before the deal begins the round
            shoes.begin_round(n)
            at = batch * 4 * lanes
            seen[at : at + n] = shoes.running[:n]
            seen[at + n : at + 2 * n] = shoes.start[:n]
        main, bonus = deal_round(shoes, n, tables, first)
        for seat in range(seats):
            cells = np.bincount(main[seat] * kinds + bonus[seat], minlength=4 * kinds)
            tally[seat] += cells.reshape(4, kinds)
        main_sum = main_pay[main].sum(axis=0)
        bonus_sum = bonus_pay[bonus].sum(axis=0)
        at = batch * 3 * lanes
        sums[at : at + n] = main_sum
        sums[at + n : at + 2 * n] = bonus_sum
        sums[at + 2 * n : at + 3 * n] = main_sum + ratio * bonus_sum
        if seen is not None:
            at = batch * 4 * lanes
            seen[at + 2 * n : at + 3 * n] = main[0]
            seen[at + 3 * n : at + 4 * n] = bonus[0]
        played += n
        batch += 1
    return played, -1, (0, 0)
