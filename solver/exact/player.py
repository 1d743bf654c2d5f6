"""The player's optimal hit/stand play for every hand, by backward induction.

For one Bonus card and one shoe (the cards left once the Bonus card and any seen cards
are out), every hand the player can hold is listed once as a composition
(:mod:`solver.exact.player_hands`).  The dealer's distribution is priced for all of them in
one batch (:mod:`solver.exact.dealer`); then, from the largest hands down, each hand's value
is the better of standing and hitting, where hitting averages the values of the hands one
card larger.

Two arithmetics: floats (numpy, vectorised over hands of the same size), and exact
integers.  In the exact pass every value at a hand of ``m`` cards is an integer over the
common denominator ``D(m) = padded_falling(N - m, T - m)`` (``N`` cards in the shoe,
``T`` = the largest hand plus the dealer's deepest hand), so that ``D(m) = (N - m) D(m+1)``:
a hit is a plain integer sum and a decision a plain integer comparison.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from solver.exact import kernel
from solver.exact.dealer import (
    dealer_probabilities,
    dealer_residues,
    exact_dealer,
    falling_floats,
    fast_path_fits,
    float_inputs,
)
from solver.exact.dealer_hands import dealer_ends
from solver.exact.modular import extend, padded_falling, primes_above
from solver.exact.player_hands import (
    MOST_CARDS,
    HandSpace,
    Ints,
    checked_roots,
    hand_space,
    showdown_classes,
    showdown_tables,
    space_outputs,
    universe,
    universe_most,
)
from solver.exact.values import (
    ExactOutcomes,
    ExactValues,
    Flags,
    FloatOutcomes,
    FloatValues,
    Numerators,
)
from solver.model.cards import ValueCounts
from solver.model.rules import Rules

#: Float values of standing and hitting closer than this are re-decided exactly.
TIE_TOLERANCE = 1e-9


Number = Fraction | float


@dataclass(frozen=True, slots=True)
class PlayerSolution:
    """Optimal play for every hand of a :class:`HandSpace`, with its values.

    ``stand`` and ``hit`` are expected values of the main wager; ``hitting`` says whether
    optimal play draws (ties stand); ``outcomes`` are the probabilities of (win, push,
    lose) when the hand is played on optimally.  Values are exact fractions when solved
    exactly, floats otherwise.
    """

    rules: Rules
    space: HandSpace
    stand: Sequence[Number]
    hit: Sequence[Number]
    hitting: Sequence[bool]
    outcomes: Sequence[tuple[Number, Number, Number]]

    def hits(self, hand: ValueCounts) -> bool:
        """Whether optimal play draws a card to ``hand`` (ties stand)."""
        return self.hitting[self.space.index(hand)]

    def near_tie(self, tolerance: float = TIE_TOLERANCE) -> bool:
        """Whether standing and hitting are within ``tolerance`` for some hand."""
        n = len(self.hit)
        hit, stand = self.hit, self.stand
        if isinstance(hit, FloatValues) and isinstance(stand, FloatValues):
            gaps = np.asarray(hit) - np.asarray(stand)
        else:
            gaps = np.fromiter(hit, np.float64, n) - np.fromiter(stand, np.float64, n)
        return bool((np.abs(gaps) < tolerance).any())

    def to_float(self) -> PlayerSolution:
        """The same solution with every value as a float (decisions kept as solved)."""
        return PlayerSolution(
            self.rules,
            self.space,
            tuple(float(v) for v in self.stand),
            tuple(float(v) for v in self.hit),
            self.hitting,
            tuple((float(w), float(p), float(lose)) for w, p, lose in self.outcomes),
        )

    def value(self, hand: ValueCounts) -> Number:
        """Expected value of the main wager from ``hand`` with optimal play."""
        i = self.space.index(hand)
        return max(self.stand[i], self.hit[i])


def solve_float(rules: Rules, space: HandSpace) -> PlayerSolution:
    """Optimal play with float arithmetic: standing's sums by showdown class, then the
    backward induction by hand size, in one kernel call after the dealer's."""
    n = len(space.hands)
    dealer = dealer_probabilities(rules, space.bonus, space.draws)
    stand_vec, stand, hit = np.empty((n, 3)), np.empty(n), np.empty(n)
    hitting = np.empty(n, dtype=np.int64)
    played, value = np.empty((n + 1, 3)), np.empty(n + 1)
    kernel.solve_hands(
        dealer,
        space.hands,
        space.children,
        space.draws,
        space.sizes,
        *showdown_tables(rules, space.bonus),
        sum(space.shoe),
        stand_vec,
        stand,
        hit,
        hitting,
        played,
        value,
    )
    return PlayerSolution(
        rules,
        space,
        FloatValues(stand),
        FloatValues(hit),
        Flags(hitting.astype(bool)),
        FloatOutcomes(played[:n]),
    )


def solve_exact(rules: Rules, space: HandSpace) -> PlayerSolution:
    """Optimal play in exact integer arithmetic (see the module docstring).

    Vectorised modulo several primes when every shoe holds the dealer's longest hand
    (:func:`solve_exact_modular`), else hand by hand in Python integers.
    """
    left = sum(space.shoe) - space.sizes
    if len(space.hands) and fast_path_fits(rules, space.bonus, left):
        return solve_exact_modular(rules, space)
    return solve_exact_plain(rules, space)


def _residues(values: Sequence[int], primes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``values[j] mod primes[k]`` at ``[k, j]``."""
    return np.array([[v % int(q) for v in values] for q in primes], dtype=np.int64)


def solve_exact_modular(rules: Rules, space: HandSpace) -> PlayerSolution:
    """:func:`solve_exact_plain`'s numerators modulo several primes, vectorised by hand size.

    The numerators are the same integers over the same denominators ``D(m)``; each is
    carried modulo primes whose product exceeds ``2 * D(0)``, so it is rebuilt exactly.
    A decision compares two numerators: it is read from the float values alongside,
    except where those are within :data:`TIE_TOLERANCE`, where both numerators are
    compared exactly by their Garner digits.  The floats come from the numerators
    themselves (hitting's averaged as a float solve averages them), their error below
    1e-14, far inside the tolerance, so every decision is the exact one.
    """
    total = sum(space.shoe)
    depth = dealer_ends(rules, space.bonus).depth
    top = int(space.sizes.max()) + depth
    denominator = [padded_falling(total - m, top - m) for m in range(top + 1)]
    primes = primes_above(denominator[0])
    p = np.array(primes, dtype=np.int64)
    # Standing: the dealer's counts (over falling(N - m, depth)) summed by class, lifted.
    # They need fewer primes than the player's values: extend them to the rest.
    few = primes_above(padded_falling(int((total - space.sizes).max()), depth))
    dealer = dealer_residues(rules, space.bonus, space.draws, few)
    classes = showdown_classes(rules, space)
    lift = _residues(
        [padded_falling(total - m - depth, top - m - depth) for m in range(top + 1)], p
    )[:, space.sizes]
    bust_lift = _residues(denominator, p)
    # The sums by class, below the few primes' product as the counts are, extended
    # (three columns, not every result's) and lifted in the pass.  The float values that
    # pick each play come from the numerators too: every decision is the exact one.
    f = np.array(few, dtype=np.int64)
    sums = np.empty((len(f), len(space.hands), 3), dtype=np.int64)
    kernel.stand_modular(sums, dealer, classes, np.ones((len(f), len(space.hands)), np.int64), f)
    sums = np.concatenate([sums, extend(sums, few, primes[len(few) :])])
    n = len(space.hands)
    table = np.empty((len(primes), n, 5), dtype=np.int64)
    hitting = np.empty(n, dtype=np.int64)
    kernel.player_exact(
        table,
        hitting,
        space.sizes,
        space.draws,
        space.children,
        total - space.sizes,
        sums,
        np.ascontiguousarray(lift),
        bust_lift,
        np.array([float(d) for d in denominator]),
        p,
        TIE_TOLERANCE,
    )
    denominators = [denominator[m] for m in space.sizes.tolist()]
    numerators = Numerators(
        table,
        primes,
        (denominators, denominators, None, None, None),
    )
    return PlayerSolution(
        rules,
        space,
        ExactValues(numerators.column(0), denominators),
        ExactValues(numerators.column(1), denominators),
        tuple(hitting.astype(bool).tolist()),
        ExactOutcomes([numerators.column(c) for c in (2, 3, 4)], denominators),
    )


def solve_exact_plain(rules: Rules, space: HandSpace) -> PlayerSolution:
    """Optimal play hand by hand in Python integers: any shoe, and the tests' twin."""
    n = len(space.hands)
    total = sum(space.shoe)
    dealer = exact_dealer(rules, space.bonus, space.draws)
    depth = dealer_ends(rules, space.bonus).depth
    classes = showdown_classes(rules, space).tolist()
    top = int(space.sizes.max()) + depth
    denominator = [padded_falling(total - m, top - m) for m in range(top + 1)]
    # Numerators over denominator[size] of (win, push, lose) standing and played on.
    stand_vec: list[tuple[int, int, int]] = []
    for i in range(n):
        m = int(space.sizes[i])
        lift = padded_falling(total - m - depth, top - m - depth)
        sums = [0, 0, 0]
        for count, k in zip(dealer.counts[i], classes[i], strict=True):
            sums[k] += count
        stand_vec.append((sums[0] * lift, sums[1] * lift, sums[2] * lift))
    played: list[tuple[int, int, int]] = [(0, 0, 0)] * n
    hitting = [False] * n
    hit_vec: list[tuple[int, int, int]] = [(0, 0, 0)] * n
    draws = space.draws.tolist()
    children = space.children.tolist()
    sizes = space.sizes.tolist()
    for i in sorted(range(n), key=lambda i: -sizes[i]):
        w = p = lose = 0
        for count, child in zip(draws[i], children[i], strict=True):
            if count == 0:
                continue
            if child == n:
                lose += count * denominator[sizes[i] + 1]
            else:
                cw, cp, cl = played[child]
                w, p, lose = w + count * cw, p + count * cp, lose + count * cl
        hit_vec[i] = (w, p, lose)
        chosen = stand_vec[i]
        if w - lose > chosen[0] - chosen[2]:
            chosen = hit_vec[i]
            hitting[i] = True
        played[i] = chosen
    stand: list[Number] = []
    hit: list[Number] = []
    outcomes: list[tuple[Number, Number, Number]] = []
    for i in range(n):
        d = denominator[int(space.sizes[i])]
        sw, _, sl = stand_vec[i]
        stand.append(Fraction(sw - sl, d))
        hw, _, hl = hit_vec[i]
        hit.append(Fraction(hw - hl, d))
        pw, pp, pl = played[i]
        outcomes.append((Fraction(pw, d), Fraction(pp, d), Fraction(pl, d)))
    return PlayerSolution(rules, space, tuple(stand), tuple(hit), tuple(hitting), tuple(outcomes))


class ShoeGroupArrays(NamedTuple):
    """The shoe groups of a hand space's shoes as the kernels' one-call solve takes them
    (``kernel.solve_float``): each level's parents, held counts and bounds (rows of the
    universe's length), each shoe's last group and each level's (groups, distinct counts)."""

    parents: npt.NDArray[np.int64]
    held: npt.NDArray[np.int64]
    bounds: npt.NDArray[np.int64]
    group: npt.NDArray[np.int64]
    sizes: npt.NDArray[np.int64]

    @classmethod
    def empty(cls, u: int) -> ShoeGroupArrays:
        """Arrays for a universe of ``u`` hands, for the kernel to fill."""
        parents, held = np.empty((10, u), dtype=np.int64), np.empty((10, u), dtype=np.int64)
        bounds, group = np.empty((10, u + 1), dtype=np.int64), np.empty(u, dtype=np.int64)
        return cls(parents, held, bounds, group, np.empty((10, 2), dtype=np.int64))


class KeptSpace(NamedTuple):
    """What a hand space's solve leaves for the next solve of the same hands: its shoe
    groups, and its hands, keys, children and sizes (read-only), which depend on the hands
    alone (a game's ten Bonus cards' solutions share them, and so do the shoes of a study
    that hold the same hands; only the draws differ).  ``rows`` are the arrays of the
    universe's length the kernel wrote them to, which later calls hand it to read."""

    groups: ShoeGroupArrays
    hands: npt.NDArray[np.int64]
    keys: npt.NDArray[np.int64]
    children: npt.NDArray[np.int64]
    sizes: npt.NDArray[np.int64]
    rows: tuple[Ints, Ints, Ints, Ints]


#: The last few hand spaces solved, by their hands (a game's ten Bonus cards share one;
#: the kernels read its shoe groups rather than group the same shoes again).
_GROUPS: dict[bytes, KeptSpace] = {}
_GROUPS_LOCK = threading.Lock()
GROUPS_KEPT = 16


def solve_player(
    rules: Rules, bonus: int, shoe: ValueCounts, roots: Iterable[ValueCounts], exact: bool = False
) -> PlayerSolution:
    """Optimal play for every hand reachable from ``roots`` (cards by value, Bonus card out).

    A float solve is one kernel call (:func:`solve_float_shoe`) where every shoe the dealer
    draws from holds its deepest hand, as :func:`hand_space` and :func:`solve_float` would
    give it.
    """
    if exact:
        return solve_exact(rules, hand_space(bonus, shoe, roots))
    if sum(shoe) - MOST_CARDS < dealer_ends(rules, bonus).depth:
        return solve_float(rules, hand_space(bonus, shoe, roots))
    return solve_float_shoe(rules, bonus, shoe, roots)


def solve_float_shoe(
    rules: Rules, bonus: int, shoe: ValueCounts, roots: Iterable[ValueCounts]
) -> PlayerSolution:
    """:func:`hand_space`, then :func:`solve_float`, in one kernel call: the hands, the
    dealer's distributions for their shoes and the player's pass, with no Python between.
    Every shoe left once a hand is out must hold the dealer's deepest hand."""
    limit, root_array = checked_roots(shoe, roots)
    inputs = float_inputs(rules, bonus)
    table = falling_floats(inputs.depth, int(limit.max()))
    # The shoe groups depend on the hands only: the hands that fit in the shoe (no universe
    # hand holds more of a value than universe_most) and hold a root.
    key = np.minimum(limit, universe_most()).tobytes() + root_array.tobytes()
    kept = _GROUPS.get(key)
    # Where the hand space is kept, the kernel reads its hands rather than list them again
    # (a tenth of a solve) and writes only the draws.
    if kept is None:
        hands, keys, children, draws, sizes, _ = space_outputs()
    else:
        hands, keys, children, sizes = kept.rows
        draws = np.empty_like(hands)
    u = len(keys)
    stand, hit, hitting = np.empty(u), np.empty(u), np.empty(u, dtype=np.int64)
    played = np.empty((u + 1, 3))
    groups = ShoeGroupArrays.empty(u) if kept is None else kept.groups
    n = kernel.solve_float(
        *universe(),
        limit,
        root_array,
        inputs.ways,
        inputs.folds,
        inputs.take,
        table,
        inputs.lengths,
        inputs.wide,
        inputs.starts,
        inputs.results,
        inputs.width,
        *showdown_tables(rules, bonus),
        inputs.depth,
        *groups,
        0 if kept is None else len(kept.hands),
        hands,
        keys,
        children,
        draws,
        sizes,
        stand,
        hit,
        hitting,
        played,
    )
    if kept is None:  # kept for later solves (the kernel writes the groups only then)
        shared = (hands[:n], keys[:n], children[:n], sizes[:n])
        for array in shared:
            array.flags.writeable = False
        kept = KeptSpace(groups, *shared, (hands, keys, children, sizes))
        with _GROUPS_LOCK:  # a game's threads solve its Bonus cards side by side
            _GROUPS[key] = kept
            while len(_GROUPS) > GROUPS_KEPT:
                del _GROUPS[next(iter(_GROUPS))]
    # The kept arrays in place of this call's equal ones.
    space = HandSpace(bonus, shoe, kept.hands, kept.keys, kept.children, draws[:n], kept.sizes)
    return PlayerSolution(
        rules,
        space,
        FloatValues(stand[:n]),
        FloatValues(hit[:n]),
        Flags(hitting[:n].astype(bool)),
        FloatOutcomes(played[:n]),
    )
