"""Which kernel deals the simulator's rounds: its compiled extension or numpy.

The compiled kernel (``solver/sim/_deal.c``) is the simulator's own, built at install
beside the exact side's when a C compiler works; it imports nothing from the exact side,
and neither does this module.  The switch is the one both sides read
(:mod:`solver.model.kernels`: ``CBJ_KERNEL``, ``CBJ_REQUIRE_COMPILED``), read again at
every chunk, so ``solver.exact.kernel.use`` (which sets ``CBJ_KERNEL``) moves the
simulator too.

Both kernels deal the same rounds for the same seed: the compiled one draws the chunk's
numpy generator's own doubles, one per card in the order the numpy path draws them
(``Generator.random`` fills its doubles one call of the bit generator's ``next_double``
each).  It steps PCG64 itself, from the state read here and written back after each call,
and calls any other bit generator through its C interface (``bit_generator.capsule``),
under the generator's lock either way.  It hands back each round's sums of nets for numpy
to square and add as before.

The kernel plays the rules through tables (hands, totals, the strategy, the dealer's
stopping rule and naturals) and a code for the natural's strength, so it knows the rules
in :data:`KNOWN_RULES`; rules with any other rule away from its default are dealt by numpy
(:func:`knows`), and so is a counter who changes its play by the count (index plays: the
kernel plays one strategy at every seat).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType

import numpy as np
import numpy.typing as npt

from solver.model.errors import ShoeError
from solver.model.kernels import KernelName, not_built, requested, required
from solver.model.rules import NaturalBeats, Rules
from solver.sim.deal import BLACKJACK_PAIR, VALUE_OF, Shoes, Table, bonus_tier_table
from solver.sim.hands import hand_space

#: The rules whose every value the compiled kernel plays (through its tables and codes).
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
#: The natural's strengths (clause 9) the kernel settles, by its code for each.
BEATS = {NaturalBeats.NOTHING: 0, NaturalBeats.MULTI_CARD_21: 1, NaturalBeats.NON_BLACKJACK: 2}
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


_BUILT = _load()


def available() -> bool:
    """Whether the simulator's compiled extension was built and loads."""
    return _BUILT is not None


def knows(rules: Rules) -> bool:
    """Whether the compiled kernel plays ``rules``: every rule but its own at the default.

    >>> knows(Rules(decks=2, dealer_stands_on=17))
    True
    """
    if rules.natural_beats not in BEATS:
        return False
    return rules == Rules(**{name: getattr(rules, name) for name in KNOWN_RULES})


def current() -> KernelName:
    """The kernel the simulator runs for rules it knows: ``compiled`` or ``numpy``."""
    return "compiled" if requested() == "compiled" and _BUILT is not None else "numpy"


def native(rules: Rules) -> ModuleType | None:
    """The compiled extension if it is to deal under ``rules``, else None (deal on numpy).

    Raises :class:`~solver.model.kernels.KernelError` where the compiled kernel is asked
    for and required (``CBJ_REQUIRE_COMPILED``) but not built.
    """
    if requested() == "numpy":
        return None
    if _BUILT is None:
        if required():
            raise not_built("the simulator's")
        return None
    return _BUILT if knows(rules) else None


def _tables(table: Table) -> tuple[npt.NDArray[np.int64] | npt.NDArray[np.bool_], ...]:
    """The kernel's lookup tables, flat and contiguous, in its argument order."""
    space = hand_space()
    flat = (
        VALUE_OF,
        bonus_tier_table(table.rules.paytable.tiers),  # the paytable's tiers (clause 4)
        BLACKJACK_PAIR,
        space.step,
        space.best,
        table.dealer_total,  # the dealer's totals as the rules count them, 0 if bust
        space.cards_in_21,
    )
    ints = tuple(np.ascontiguousarray(a, dtype=a.dtype).ravel() for a in flat)
    flags = tuple(np.ascontiguousarray(a).ravel() for a in (table.hit, table.draws, table.natural))
    return (*ints, *flags)


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
    module: ModuleType,
    table: Table,
    shoes: Shoes,
    rng: np.random.Generator,
    lanes: int,
    rounds: int,
    pays: tuple[Floats, Floats, float],
    joint: Ints,
    counting: bool,
) -> Iterator[tuple[Floats, Ints | None]]:
    """Deal ``rounds`` rounds on ``lanes`` lanes of ``shoes`` in ``module``, as the numpy loop.

    Adds every seat's outcomes to ``joint`` and yields, for each round of up to ``lanes``
    lanes in turn, the lanes' sums over the seats of the main, Bonus and round nets (a
    (3, n) array) and, if ``counting``, what a counter at seat 1 saw before the deal and
    how its seat ended: running count, cards dealt, main and Bonus outcome codes (4, n).
    Each array yielded is overwritten after the next one.
    """
    main_pay, bonus_pay, ratio = pays
    value_of, tier, pair, step, best, dealer_best, cards_in_21, hit, draws, natural = _tables(table)
    beats = BEATS[table.rules.natural_beats]
    sums = np.empty(BATCHES * 3 * lanes, dtype=np.float64)
    seen = np.empty(BATCHES * 4 * lanes, dtype=np.int64) if counting else None
    tags = None if shoes.tags is None else np.ascontiguousarray(shoes.tags, dtype=np.int64)
    cut = -1 if shoes.cut is None else shoes.cut
    bits = rng.bit_generator
    done = 0
    while done < rounds:
        with bits.lock:
            pcg = _pcg64_words(bits) if module.STEPS_PCG64 else None
            played, failed, (high, low) = module.play(
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
                main_pay,
                bonus_pay,
                ratio,
                bits.capsule,
                pcg,
                lanes,
                rounds - done,
                BATCHES,
                joint.reshape(-1),
                sums,
                seen,
            )
            if pcg is not None:  # the kernel stepped PCG64 on its own copy of the state
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
