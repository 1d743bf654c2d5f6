"""The simulator's kernel: its compiled extension or its numpy twin, chosen once.

``solver/sim/_deal.c`` (the simulator's own, built at install beside the exact side's
where a C compiler works) and ``solver/sim/_deal_numpy.py`` have the same ``play`` with the
same signature; neither imports anything of the exact side, and neither does this module.
The choice is :mod:`solver.model.kernels`' (``CBJ_KERNEL``, ``CBJ_REQUIRE_COMPILED``, read
once), shared with the solver: ``solver.exact.kernel.use`` moves the simulator too.

Both twins deal the same rounds for the same seed: each draws the chunk's generator's
doubles, one per card in the order the rule text's round (``deal.deal_round``) draws them
(``Generator.random`` fills its doubles one call of the bit generator's ``next_double``
each).  The compiled twin steps PCG64 itself, from the state read here and written back
after each call, and calls any other bit generator through its C interface
(``bit_generator.capsule``); the generator is the chunk's own, which no other thread
draws from.  Each hands back each round's sums of nets for numpy to square and add.

The twins play the rules through tables (hands, totals, the strategy, the dealer's
stopping rule and naturals) and a code for the natural's strength, so they know the rules
in :data:`KNOWN_RULES`; rules with any other rule away from its default are dealt by the
numpy twin, the rule text's own round (:func:`knows`).  Seat 1's index plays (a counter
who changes its play by the true count) come in as data too (``deal.IndexPlays``: for
each Bonus value and hand the rule that covers it, each rule's true count, side and
play), so either twin deals them.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from solver.model import kernels
from solver.model.errors import ShoeError
from solver.model.kernels import KernelName
from solver.model.rules import Rules
from solver.sim import _deal_numpy
from solver.sim._deal_numpy import STEPS_PCG64, play  # rebound to the chosen twin below
from solver.sim.deal import BEATS, IndexPlays, Shoes, Table, round_tables

#: The rules whose every value the twins play (through the round's tables and codes).
KNOWN_RULES = (
    "decks",
    "bonus_ratio",
    "paytable",
    "blackjack_pays",
    "dealer_stands_on",
    "dealer_natural",
    "natural_beats",
    "dealer_bonus",
)
__all__ = [
    "BATCHES",
    "COMPILED",
    "KNOWN_RULES",
    "STEPS_PCG64",
    "available",
    "current",
    "knows",
    "play",
    "play_rounds",
]

#: Round batches (``lanes`` rounds each) played per call of the kernel.
BATCHES = 32

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def _load() -> ModuleType | None:
    """The compiled extension, or None where it was not built."""
    try:
        return importlib.import_module("solver.sim._deal")
    except ImportError:
        return None


COMPILED = _load()


def available() -> bool:
    """Whether the simulator's compiled extension was built and loads."""
    return COMPILED is not None


def knows(rules: Rules) -> bool:
    """Whether the kernels' tables play ``rules``: every rule but theirs at the default.

    >>> knows(Rules(decks=2, dealer_stands_on=17))
    True
    """
    if rules.natural_beats not in BEATS:
        return False
    return rules == Rules(**{name: getattr(rules, name) for name in KNOWN_RULES})


def current() -> KernelName:
    """The twin the simulator runs now (for the rules it knows): ``compiled`` or ``numpy``."""
    return kernels.current(globals())


def _tables(table: Table) -> tuple[npt.NDArray[Any], ...]:
    """The round's lookup tables, flat and contiguous, in the kernels' argument order."""
    t = round_tables(table)
    flat = (t.value_of, t.tier, t.pair, t.step, t.best, t.dealer_best, t.cards_in_21)
    ints = tuple(np.ascontiguousarray(a, dtype=a.dtype).ravel() for a in flat)
    flags = tuple(np.ascontiguousarray(a).ravel() for a in (t.hit, t.draws, t.natural))
    return (*ints, *flags)


def _index_tables(first: IndexPlays | None) -> tuple[npt.NDArray[Any] | None, ...]:
    """Seat 1's index plays, flat and contiguous, in the kernels' argument order (rule by
    Bonus value and hand, true counts, sides, plays); all None where it plays none."""
    if first is None:
        return None, None, None, None
    return (
        np.ascontiguousarray(first.rule, dtype=np.int64).ravel(),
        np.ascontiguousarray(first.at, dtype=np.float64),
        np.ascontiguousarray(first.at_least, dtype=np.bool_),
        np.ascontiguousarray(first.hit, dtype=np.bool_),
    )


def _pcg64_words(bits: np.random.BitGenerator) -> tuple[int, int, int, int] | None:
    """PCG64's state and increment as four 64-bit words (high first), or None for another
    generator (the kernel then calls it through its capsule)."""
    state = bits.state
    if state.get("bit_generator") != "PCG64":
        return None
    value, increment = int(state["state"]["state"]), int(state["state"]["inc"])
    mask = (1 << 64) - 1
    return value >> 64, value & mask, increment >> 64, increment & mask


def play_rounds(
    table: Table,
    shoes: Shoes,
    rng: np.random.Generator,
    lanes: int,
    rounds: int,
    pays: tuple[Floats, Floats, float],
    joint: Ints,
    counting: bool,
    first: IndexPlays | None = None,
) -> Iterator[tuple[Floats, Ints | None]]:
    """Deal ``rounds`` rounds on ``lanes`` lanes of ``shoes`` with the chosen twin's ``play``
    (the numpy twin's for rules the kernels do not know: see :func:`knows`).

    Adds every seat's outcomes to ``joint`` and yields, for each round of up to ``lanes``
    lanes in turn, the lanes' sums over the seats of the main, Bonus and round nets (a
    (3, n) array) and, if ``counting``, what a counter at seat 1 saw before the deal and
    how its seat ended: running count, cards dealt, main and Bonus outcome codes (4, n).
    Each array yielded is overwritten after the next one.  Seat 1 makes the index plays
    ``first`` (its shoes must keep the count: ``shoes.tags``).  ``rng`` is the chunk's own
    generator (no other thread draws from it, so no lock is taken).
    """
    twin = play if knows(table.rules) else _deal_numpy.play
    steps = STEPS_PCG64 if knows(table.rules) else _deal_numpy.STEPS_PCG64
    main_pay, bonus_pay, ratio = pays
    value_of, tier, pair, step, best, dealer_best, cards_in_21, hit, draws, natural = _tables(table)
    beats = BEATS[table.rules.natural_beats]  # the rules the twins know have one
    index_play, index_at, index_at_least, index_hit = _index_tables(first)
    drift = 0 if first is None else first.drift
    sums = np.empty(BATCHES * 3 * lanes, dtype=np.float64)
    seen = np.empty(BATCHES * 4 * lanes, dtype=np.int64) if counting else None
    tags = None if shoes.tags is None else np.ascontiguousarray(shoes.tags, dtype=np.int64)
    cut = -1 if shoes.cut is None else shoes.cut
    bits = rng.bit_generator
    done = 0
    while done < rounds:
        pcg = _pcg64_words(bits) if steps else None
        played, failed, (high, low) = twin(
            shoes.rows,
            shoes.next,
            shoes.start,
            shoes.running,
            tags,
            cut,
            value_of,
            tier,
            pair,
            step,
            best,
            dealer_best,
            cards_in_21,
            hit,
            draws,
            natural,
            beats,
            table.seats,
            index_play,
            index_at,
            index_at_least,
            index_hit,
            drift,
            main_pay,
            bonus_pay,
            ratio,
            bits,
            pcg,
            lanes,
            rounds - done,
            BATCHES,
            joint.reshape(-1),
            sums,
            seen,
            shoes.tray,
            -1 if shoes.buffer is None else shoes.buffer,
        )
        if pcg is not None:  # the twin stepped PCG64 on its own copy of the state
            state = bits.state
            state["state"]["state"] = high << 64 | low
            bits.state = state
        if failed >= 0:
            raise ShoeError(
                f"one round used all {shoes.size} cards of the shoe: use fewer seats or more decks"
            )
        batch = 0
        while played > 0:
            n = min(lanes, rounds - done)
            yield (
                sums[batch * 3 * lanes : batch * 3 * lanes + 3 * n].reshape(3, n),
                None
                if seen is None
                else seen[batch * 4 * lanes : batch * 4 * lanes + 4 * n].reshape(4, n),
            )
            batch += 1
            played -= n
            done += n


kernels.bind(globals(), _deal_numpy, COMPILED, "the simulator's")
