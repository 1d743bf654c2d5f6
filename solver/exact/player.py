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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from solver.exact import kernel
from solver.exact.dealer import (
    dealer_probabilities,
    dealer_residues,
    exact_dealer,
    fast_path_fits,
)
from solver.exact.dealer_hands import dealer_ends
from solver.exact.modular import extend, padded_falling, primes_above, rebuild
from solver.exact.player_hands import (
    LOSE,
    PUSH,
    WIN,
    HandSpace,
    hand_space,
    showdown_classes,
    showdown_tables,
)
from solver.exact.values import (
    ExactOutcomes,
    ExactValues,
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
    hitting: tuple[bool, ...]
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
    """Optimal play with float arithmetic, vectorised over hands of equal size."""
    n = len(space.hands)
    dealer = dealer_probabilities(rules, space.bonus, space.draws)
    compiled = kernel.native()
    if compiled is not None:
        tables = showdown_tables(rules, space.bonus)
        stand_vec, stand, hit, hitting, played = kernel.solve_hands(compiled, space, dealer, tables)
        return PlayerSolution(
            rules,
            space,
            FloatValues(stand),
            FloatValues(hit),
            tuple(hitting.tolist()),
            FloatOutcomes(played[:n]),
        )
    classes = showdown_classes(rules, space)
    stand_vec = np.stack([(dealer * (classes == k)).sum(axis=1) for k in (WIN, PUSH, LOSE)], 1)
    stand = stand_vec[:, WIN] - stand_vec[:, LOSE]
    # Hands renumbered by size, so that each size is one slice (no gather or scatter).
    # Sizes are below 22: as bytes, numpy's stable sort is a radix sort (the same order).
    by_size = np.argsort(space.sizes.astype(np.int8), kind="stable")
    place = np.empty(n + 1, dtype=np.int64)
    place[by_size] = np.arange(n)
    place[n] = n  # the busted hand
    # np.take rather than [by_size]: numpy's fancy indexing of rows is many times slower.
    kids = np.take(place, np.take(space.children, by_size, axis=0))
    left = sum(space.shoe) - space.sizes[by_size]
    chances = np.take(space.draws, by_size, axis=0) / np.maximum(left, 1)[:, None]  # each value
    stand_sorted = stand[by_size]
    stand_vec_sorted = np.take(stand_vec, by_size, axis=0)
    top = int(space.sizes.max(initial=0))  # no hands (no roots): an empty solution
    ends = np.searchsorted(space.sizes[by_size], np.arange(top + 2)).tolist()
    hit = np.zeros(n)
    hitting = np.zeros(n, dtype=bool)
    played = np.zeros((n + 1, 3))
    played[n] = (0.0, 0.0, 1.0)  # the busted hand
    value = np.zeros(n + 1)
    value[n] = -1.0
    for size in range(len(ends) - 2, 0, -1):
        rows = slice(ends[size], ends[size + 1])
        weights = chances[rows]
        children = kids[rows]
        hit[rows] = (weights * value[children]).sum(axis=1)
        hit_vec = np.einsum("rv,rvk->rk", weights, played[children])
        choose = hitting[rows] = hit[rows] > stand_sorted[rows]
        value[rows] = np.where(choose, hit[rows], stand_sorted[rows])
        played[rows] = np.where(choose[:, None], hit_vec, stand_vec_sorted[rows])
    back = place[:n]
    return PlayerSolution(
        rules,
        space,
        FloatValues(stand),
        FloatValues(hit[back]),
        tuple(hitting[back].tolist()),
        FloatOutcomes(np.take(played, back, axis=0)),
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
    rebuilt and compared exactly (on the compiled kernel, by their Garner digits).  Float
    error is below 1e-14, far inside the tolerance, so every decision is the exact one
    whichever way the floats are made (on the compiled kernel, standing's come from its
    numerators rather than from the float dealer's).
    """
    total = sum(space.shoe)
    depth = dealer_ends(rules, space.bonus).depth
    top = int(space.sizes.max()) + depth
    denominator = [padded_falling(total - m, top - m) for m in range(top + 1)]
    primes = primes_above(denominator[0])
    p = np.array(primes, dtype=np.int64)
    pk = p[:, None]
    # Standing: the dealer's counts (over falling(N - m, depth)) summed by class, lifted.
    # They need fewer primes than the player's values: extend them to the rest.
    few = primes_above(padded_falling(int((total - space.sizes).max()), depth))
    dealer = dealer_residues(rules, space.bonus, space.draws, few)
    classes = showdown_classes(rules, space)
    lift = _residues(
        [padded_falling(total - m - depth, top - m - depth) for m in range(top + 1)], p
    )[:, space.sizes]
    bust_lift = _residues(denominator, p)
    compiled = kernel.native()
    if compiled is not None:
        # The sums by class, below the few primes' product as the counts are, extended
        # (three columns, not every result's) and lifted in C: the same residues.  The
        # float values of standing come from them too (no float fold): every decision
        # is still the exact one.
        f = np.array(few, dtype=np.int64)
        sums = kernel.stand_modular(compiled, dealer, classes, np.ones_like(lift[: len(f)]), f)
        sums = np.concatenate([sums, extend(sums, few, primes[len(few) :])])
        scale = np.array([float(d) for d in denominator])
        table, hitting = kernel.player_exact(
            compiled, space, (sums, lift, scale), bust_lift, p, TIE_TOLERANCE
        )
    else:
        dealer = np.concatenate([dealer, extend(dealer, few, primes[len(few) :])])
        by_class = [(dealer * np.equal(classes.T, k)[None]).sum(axis=1) for k in (WIN, PUSH, LOSE)]
        stand = np.stack([c % pk * lift % pk for c in by_class], axis=2)  # (prime, hand, w/p/l)
        chances = dealer_probabilities(rules, space.bonus, space.draws)
        win, lose = ((chances * (classes == k)).sum(axis=1) for k in (WIN, LOSE))
        table, hitting = _pass_modular(space, (stand, win - lose), bust_lift, primes)
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
        tuple(hitting.tolist()),
        ExactOutcomes([numerators.column(c) for c in (2, 3, 4)], denominators),
    )


def _pass_modular(
    space: HandSpace,
    standing: tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]],
    bust_lift: npt.NDArray[np.int64],
    primes: Sequence[int],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """:func:`solve_exact_modular`'s backward pass on numpy, a hand size at a time.

    ``standing`` holds standing's residues (prime, hand, w/p/l) and float values,
    ``bust_lift`` each ``D(m)`` modulo each prime.  Returns the numerators (prime, hand,
    (standing's net, hitting's net, played win, push, lose)) and whether each hand hits.
    """
    stand, stand_float = standing
    n = len(space.hands)
    pk = np.array(primes, dtype=np.int64)[:, None]
    played = np.zeros((len(primes), n + 1, 3), dtype=np.int64)
    hit = np.zeros((len(primes), n, 3), dtype=np.int64)
    value = np.zeros(n + 1)
    value[n] = -1.0
    hitting = np.zeros(n, dtype=bool)
    left = sum(space.shoe) - space.sizes
    for size in range(int(space.sizes.max()), 0, -1):
        rows = np.flatnonzero(space.sizes == size)
        played[:, n] = 0
        played[:, n, LOSE] = bust_lift[:, size + 1]  # a busted hand loses, over D(size + 1)
        kids = space.children[rows]
        draws = space.draws[rows]
        hit[:, rows] = np.einsum("rv,prvk->prk", draws, played[:, kids]) % pk[:, :, None]
        hit_float = (draws * value[kids]).sum(axis=1) / left[rows]
        choose = hit_float > stand_float[rows]
        close = np.flatnonzero(np.abs(hit_float - stand_float[rows]) < TIE_TOLERANCE)
        if len(close):
            picked = rows[close]
            margins = np.stack([hit[:, picked], stand[:, picked]], axis=1)  # (p, 2, r, 3)
            exact = rebuild(margins, primes)
            for j, (h, s) in enumerate(zip(exact[0], exact[1], strict=True)):
                choose[close[j]] = h[WIN] - h[LOSE] > s[WIN] - s[LOSE]
        hitting[rows] = choose
        played[:, rows] = np.where(choose[None, :, None], hit[:, rows], stand[:, rows])
        value[rows] = np.where(choose, hit_float, stand_float[rows])
    # Net values are signed: shift them by D(m) so that every rebuilt integer is in range.
    shift = bust_lift[:, space.sizes]
    nets = [(v[:, :, WIN] - v[:, :, LOSE] + shift) % pk for v in (stand, hit)]
    return np.stack([*nets, *np.moveaxis(played[:, :n], 2, 0)], axis=2), hitting


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


def solve_player(
    rules: Rules, bonus: int, shoe: ValueCounts, roots: Iterable[ValueCounts], exact: bool = False
) -> PlayerSolution:
    """Optimal play for every hand reachable from ``roots`` (cards by value, Bonus card out)."""
    space = hand_space(bonus, shoe, roots)
    return solve_exact(rules, space) if exact else solve_float(rules, space)
