"""Exact distribution of the dealer's final result, for one shoe or thousands at once.

The dealer's drawing rule depends only on its own cards and the Bonus card, never on the
shoe, so the tree of every dealer hand it can pass through is built once per
(rules, Bonus card) and then priced against any number of shoes together.  States are the
dealer's own cards as a composition, level by level (level ``L`` = ``L`` cards drawn);
every transition multiplies by the number of cards of the drawn value still in the shoe.

Two arithmetics share that propagation:

* ``float``: probabilities, dividing by the cards left at every level;
* exact: integer counts of ordered card sequences, kept modulo several primes below
  2**31 so that numpy can vectorise them, then rebuilt by the Chinese remainder theorem.
  Counts for a shoe of ``N`` cards never exceed ``N * (N - 1) * ... `` over the tree's
  depth, so enough primes make the reconstruction exact (see ``docs/dealer.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from solver.model.cards import ValueCounts
from solver.model.errors import ShoeError
from solver.model.hands import add_card, best_total_of, dealer_natural_at, dealer_stops_at
from solver.model.rules import Rules

BUST = "bust"
NATURAL = "natural"

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def outcome_labels(rules: Rules) -> tuple[str, ...]:
    """Dealer results in order: ``bust``, each total from the threshold to 21, ``natural``."""
    return (BUST, *(str(t) for t in range(rules.dealer_stands_on, 22)), NATURAL)


@dataclass(frozen=True, slots=True)
class Level:
    """Transitions out of the dealer states holding the same number of cards.

    Columns (one per non-busting draw) are sorted by target so that ``np.add.reduceat``
    at ``starts`` sums each target's incoming mass: first the ``n_next`` states of the
    next level, then one group per final result named in ``results``.
    """

    parents: IntArray
    values: IntArray
    drawn: IntArray
    starts: IntArray
    n_next: int
    results: IntArray


@dataclass(frozen=True, slots=True)
class DealerTree:
    """Every dealer hand the drawing rule can pass through, for one Bonus card."""

    bonus: int
    labels: tuple[str, ...]
    levels: tuple[Level, ...]

    @property
    def depth(self) -> int:
        """Most cards the dealer can ever draw."""
        return len(self.levels)


@cache
def dealer_tree(rules: Rules, bonus: int) -> DealerTree:
    """Build (once per rules and Bonus card) the dealer's tree of hands."""
    labels = outcome_labels(rules)

    @cache
    def result(hard: int, has_ace: bool, cards: int) -> int | None:
        """Final result of a hand with this summary, or None while the dealer draws."""
        if not dealer_stops_at(hard, has_ace, cards, bonus, rules):
            return None
        if hard > 21:
            return labels.index(BUST)
        if dealer_natural_at(hard, has_ace, cards, bonus, rules):
            return labels.index(NATURAL)
        return labels.index(str(best_total_of(hard, has_ace, bonus)))

    bust = labels.index(BUST)
    # A state is the dealer's own cards with their hard total and whether an ace is among them.
    states: list[tuple[ValueCounts, int, bool]] = [((0,) * 10, 0, False)]
    levels: list[Level] = []
    while states:
        next_index: dict[ValueCounts, int] = {}
        next_states: list[tuple[ValueCounts, int, bool]] = []
        columns: list[tuple[int, int, int, int]] = []  # (target key, parent, value, drawn)
        cards = sum(states[0][0]) + 1
        for parent, (state, hard, has_ace) in enumerate(states):
            for value in range(1, 11):
                final = result(hard + value, has_ace or value == 1, cards)
                drawn = state[value - 1]
                if final is None:
                    child = add_card(state, value)
                    target = next_index.get(child)
                    if target is None:
                        target = next_index[child] = len(next_states)
                        next_states.append((child, hard + value, has_ace or value == 1))
                    columns.append((target, parent, value - 1, drawn))
                elif final != bust:  # bust is 1 minus the rest: no need to carry it
                    columns.append((-1 - final, parent, value - 1, drawn))
        n_next = len(next_states)
        # Next-level states first (keys 0..n_next-1), then final results by label order.
        columns.sort(key=lambda c: c[0] if c[0] >= 0 else n_next - 1 - c[0])
        keys = [c[0] for c in columns]
        starts = [i for i, k in enumerate(keys) if i == 0 or k != keys[i - 1]]
        results = sorted({-1 - k for k in keys if k < 0})
        levels.append(
            Level(
                parents=np.array([c[1] for c in columns], dtype=np.int64),
                values=np.array([c[2] for c in columns], dtype=np.int64),
                drawn=np.array([c[3] for c in columns], dtype=np.int64),
                starts=np.array(starts, dtype=np.int64),
                n_next=n_next,
                results=np.array(results, dtype=np.int64),
            )
        )
        states = next_states
    return DealerTree(bonus, labels, tuple(levels))


def _as_shoe_array(shoes: Sequence[ValueCounts] | IntArray) -> IntArray:
    array = np.asarray(shoes, dtype=np.int64)
    if array.ndim != 2 or array.shape[1] != 10:
        raise ShoeError("shoes must be given as rows of 10 counts, one per value A..10")
    if (array < 0).any():
        raise ShoeError("a shoe cannot hold a negative number of cards")
    return array


def _check_not_exhausted(mass: npt.NDArray[np.generic], left: IntArray, level: int) -> None:
    empty = left <= 0
    if empty.any() and mass[empty].any():
        raise ShoeError(
            f"the shoe can run out of cards after the dealer's {level}th card before the "
            "dealer's hand is finished; give a larger shoe"
        )


def dealer_probabilities(
    rules: Rules, bonus: int, shoes: Sequence[ValueCounts] | IntArray
) -> FloatArray:
    """Float distributions of the dealer's result, one row per shoe.

    ``shoes`` are the cards left (by value) when the dealer starts drawing, the Bonus card
    and the player's cards already taken out.  Columns follow :func:`outcome_labels`.
    """
    tree = dealer_tree(rules, bonus)
    counts = _as_shoe_array(shoes)
    sizes = counts.sum(axis=1)
    by_value = np.ascontiguousarray(counts.T, dtype=np.float64)  # shoes along the fast axis
    out = np.zeros((len(tree.labels), len(counts)))
    mass = np.ones((1, len(counts)))
    for cards, level in enumerate(tree.levels):
        left = sizes - cards
        _check_not_exhausted(mass.T, left, cards)
        weights = by_value[level.values] - level.drawn[:, None]
        flow = np.add.reduceat(mass[level.parents] * weights, level.starts, axis=0)
        flow *= 1.0 / np.where(left > 0, left, 1)
        out[level.results] += flow[level.n_next :]
        mass = flow[: level.n_next]
    out[0] = 1.0 - out[1:].sum(axis=0)
    return np.ascontiguousarray(out.T)


def _is_probable_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n below 3.2e9 (bases 2, 3, 5, 7)."""
    if n < 2 or n % 2 == 0:
        return n == 2
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@cache
def moduli(count: int) -> tuple[int, ...]:
    """The ``count`` largest primes below 2**31: residues multiply within int64."""
    primes: list[int] = []
    candidate = 2**31 - 1
    while len(primes) < count:
        if _is_probable_prime(candidate):
            primes.append(candidate)
        candidate -= 2
    return tuple(primes)


def padded_falling(n: int, k: int) -> int:
    """``n * (n - 1) * ... `` over ``k`` factors, each factor below 1 taken as 1.

    For ``k <= n`` this is the falling factorial: the number of ordered ways to deal ``k``
    cards from ``n``.  Padding keeps it positive for shoes smaller than a tree's depth,
    whose deeper levels carry no probability.
    """
    result = 1
    for i in range(k):
        result *= max(n - i, 1)
    return result


@dataclass(frozen=True, slots=True)
class ExactDealer:
    """Exact dealer distributions: ``counts[i][j] / denominators[i]`` (shoe ``i``, result ``j``)."""

    labels: tuple[str, ...]
    counts: tuple[tuple[int, ...], ...]
    denominators: tuple[int, ...]

    def fractions(self, row: int) -> dict[str, Fraction]:
        """The distribution of shoe ``row`` as exact fractions keyed by result."""
        d = self.denominators[row]
        return {
            label: Fraction(n, d) for label, n in zip(self.labels, self.counts[row], strict=True)
        }


def _counts_modulo(tree: DealerTree, counts: IntArray, prime: int) -> IntArray:
    """Ordered-sequence counts of each result modulo ``prime``, over ``padded_falling(N, depth)``.

    Rows are results, columns shoes (the transpose of the float path's output).
    """
    sizes = counts.sum(axis=1)
    by_value = np.ascontiguousarray(counts.T)
    # tail[L] = padded_falling(N - L, depth - L): lifts counts of L-card hands to the
    # common denominator padded_falling(N, depth).
    tail = np.ones((tree.depth + 1, len(counts)), dtype=np.int64)
    for cards in range(tree.depth - 1, -1, -1):
        factor = np.where(sizes > cards, sizes - cards, 1)
        tail[cards] = tail[cards + 1] * (factor % prime) % prime
    out = np.zeros((len(tree.labels), len(counts)), dtype=np.int64)
    mass = np.ones((1, len(counts)), dtype=np.int64)
    for cards, level in enumerate(tree.levels):
        _check_not_exhausted(mass.T, sizes - cards, cards)
        weights = (by_value[level.values] - level.drawn[:, None]) % prime
        flow = np.add.reduceat(mass[level.parents] * weights % prime, level.starts, axis=0)
        flow %= prime
        lifted = flow[level.n_next :] * tail[cards + 1] % prime
        out[level.results] = (out[level.results] + lifted) % prime
        mass = flow[: level.n_next]
    return out


def exact_dealer(rules: Rules, bonus: int, shoes: Sequence[ValueCounts] | IntArray) -> ExactDealer:
    """Exact distributions of the dealer's result, one per shoe, as integer counts."""
    tree = dealer_tree(rules, bonus)
    counts = _as_shoe_array(shoes)
    sizes = [int(n) for n in counts.sum(axis=1)]
    denominators = [padded_falling(n, tree.depth) for n in sizes]
    bound = max(denominators, default=1)
    primes: list[int] = []
    product = 1
    for prime in moduli(64):
        if product > 2 * bound:
            break
        primes.append(prime)
        product *= prime
    residues = [_counts_modulo(tree, counts, p) for p in primes]
    # Chinese remainder: x = sum r_i * M_i * (M_i^-1 mod p_i)  (mod M).
    basis = [(product // p) * pow(product // p, -1, p) % product for p in primes]
    rows: list[tuple[int, ...]] = []
    for i in range(len(sizes)):
        values = [
            sum(int(r[j, i]) * b for r, b in zip(residues, basis, strict=True)) % product
            for j in range(len(tree.labels))
        ]
        values[0] = denominators[i] - sum(values[1:])
        rows.append(tuple(values))
    return ExactDealer(tree.labels, tuple(rows), tuple(denominators))


def dealer_distribution(rules: Rules, bonus: int, shoe: ValueCounts) -> dict[str, Fraction]:
    """Exact distribution of the dealer's final result from one shoe (cards left by value).

    >>> from solver.model.cards import Shoe
    >>> shoe = Shoe.full(6).value_counts()
    >>> sum(dealer_distribution(Rules(), 10, (*shoe[:9], shoe[9] - 1)).values())
    Fraction(1, 1)
    """
    return exact_dealer(rules, bonus, [shoe]).fractions(0)
