"""Realistic play: the exact value of simple hit/stand policies, against optimal play.

A PAR sheet's edge assumes perfect play; a casino also wants the edge against the way
people play, and a player the price of a rule of thumb.  Each policy here says hit or
stand for every (Bonus card value, own cards); it is evaluated exactly by the same
backward pass as the optimum (:mod:`solver.exact.player`), with the policy's choice in
place of the better of the two.  The Bonus wager does not depend on play, so each policy's
round is the optimal round's Bonus wager paired with the policy's main outcomes.

Policies (names as ``cbj strategies`` and ``cbj simulate --strategy`` spell them):

* ``optimal``: composition-dependent optimal play;
* ``chart``: the best printable chart (:func:`solver.exact.chart.best_chart`);
* ``stand-on:K`` (K = 12 to 21): hit while the best total, counting the Bonus card when it
  helps, is below K;
* ``never-bust``: hit only while no card can bust the hand (own hard total 11 or less),
  and never on a best total of 21;
* ``mimic-dealer``: hit until the dealer's stopping rule would stop (clause 7), that is
  ``stand-on:T`` with T the dealer's threshold (for a dealer who must use the Bonus card,
  T counted on own cards plus the Bonus card always, as that dealer counts);
* ``always-stand``: stand on the first card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache, partial

import numpy as np
import numpy.typing as npt

from solver.exact.chart import stored_chart, verify_chart
from solver.exact.dealer import dealer_residues, exact_dealer, fast_path_fits
from solver.exact.dealer_hands import dealer_ends, dealer_tree
from solver.exact.game import round_lines_for, solutions_of, solve_game
from solver.exact.modular import extend, padded_falling, primes_above, rebuild
from solver.exact.player_hands import HandSpace, hand_space, showdown_classes
from solver.model.cards import VALUES, Shoe, ValueCounts
from solver.model.cells import Action, Actions, cell_of
from solver.model.checks import shown
from solver.model.errors import StrategyError
from solver.model.hands import (
    best_total,
    hand_of,
    hard_total,
    is_player_blackjack,
    with_bonus_best,
)
from solver.model.outcomes import MAIN_OUTCOMES, POLICY_NAMES, strategy_name
from solver.model.process import check_stop
from solver.model.rules import DealerBonus, Rules
from solver.results.game import GameResult, Start
from solver.results.kinds import Store
from solver.results.strategies import PolicyResult, StrategiesResult

#: A policy: hit (True) or stand for a Bonus card value and the own cards.
Policy = Callable[[int, ValueCounts], bool]


def stand_on(threshold: int) -> Policy:
    """Hit while the best total (with the Bonus card when it helps) is below ``threshold``.

    >>> stand_on(17)(10, hand_of([7])), stand_on(17)(10, hand_of([6]))
    (False, True)
    """

    def hits(bonus: int, hand: ValueCounts) -> bool:
        return best_total(hand, bonus) < threshold

    return hits


def never_bust(bonus: int, hand: ValueCounts) -> bool:
    """Hit only while no card can bust (own hard total at most 11) and the best total is not 21.

    >>> [never_bust(9, hand_of(cards)) for cards in ([5, 6], [10, 2], [1, 10])]
    [True, False, False]
    """
    return hard_total(hand) <= 11 and best_total(hand, bonus) < 21


def stand_on_with_bonus(threshold: int) -> Policy:
    """Hit while own cards plus the Bonus card, always counted, are below ``threshold``.

    That is how a dealer who must use the Bonus card counts (``dealer_bonus must_use``);
    over 21 it stands.

    >>> stand_on_with_bonus(18)(10, hand_of([7])), stand_on_with_bonus(18)(10, hand_of([10, 5]))
    (True, False)
    """

    def hits(bonus: int, hand: ValueCounts) -> bool:
        return with_bonus_best(hard_total(hand), hand[0] > 0, bonus) < threshold

    return hits


def always_stand(bonus: int, hand: ValueCounts) -> bool:
    """Never hit."""
    del bonus, hand
    return False


def simple_policy(name: str, rules: Rules) -> Policy:
    """The policy named ``stand-on:K``, ``never-bust``, ``mimic-dealer`` or ``always-stand``.

    >>> simple_policy("mimic-dealer", Rules())(10, hand_of([7]))
    True
    """
    cleaned = strategy_name(name).strip().lower()  # a name of no strategy is refused here
    if cleaned.startswith("stand-on:"):
        return stand_on(int(cleaned.removeprefix("stand-on:")))
    if cleaned == "never-bust":
        return never_bust
    if cleaned == "mimic-dealer":
        if rules.dealer_bonus is DealerBonus.MUST_USE:
            return stand_on_with_bonus(rules.dealer_stands_on)
        return stand_on(rules.dealer_stands_on)
    if cleaned == "always-stand":
        return always_stand
    raise StrategyError(f"strategy {shown(name)} is played from a decision table, not a policy")


Outcome = tuple[Fraction, Fraction, Fraction]  # win, push, lose


@dataclass(frozen=True, slots=True)
class _StandTable:
    """Exact standing outcomes of every hand against one Bonus card, as integer numerators.

    A hand of ``m`` cards has its (win, push, lose) numerators over ``denominator[m]``,
    with ``denominator[m] = (cards left) * denominator[m + 1]``: hitting needs no division.
    The space's arrays are kept as lists too, with the hands largest first, for every
    policy played on the table.
    """

    space: HandSpace
    stand: tuple[tuple[int, int, int], ...]
    denominator: tuple[int, ...]
    hands: list[tuple[int, ...]]
    sizes: list[int]
    draws: list[list[int]]
    children: list[list[int]]
    order: list[int]


def _stand_table(rules: Rules, space: HandSpace) -> _StandTable:
    """Standing outcomes for every hand of ``space`` (the same scheme as the exact optimum)."""
    total = sum(space.shoe)
    dealer = exact_dealer(rules, space.bonus, space.draws)
    depth = dealer_tree(rules, space.bonus).depth
    classes = showdown_classes(rules, space).tolist()
    top = int(space.sizes.max()) + depth
    denominator = tuple(padded_falling(total - m, top - m) for m in range(top + 1))
    sizes = space.sizes.tolist()
    # Lifts a hand's dealer counts to the common denominator; one per hand size.
    lifts = {m: padded_falling(total - m - depth, top - m - depth) for m in set(sizes)}
    stand: list[tuple[int, int, int]] = []
    for i, m in enumerate(sizes):
        lift = lifts[m]
        sums = [0, 0, 0]
        for count, k in zip(dealer.counts[i], classes[i], strict=True):
            sums[k] += count
        stand.append((sums[0] * lift, sums[1] * lift, sums[2] * lift))
    return _StandTable(
        space,
        tuple(stand),
        denominator,
        hands=[tuple(row) for row in space.hands.tolist()],
        sizes=sizes,
        draws=space.draws.tolist(),
        children=space.children.tolist(),
        order=sorted(range(len(sizes)), key=lambda i: -sizes[i]),
    )


def _play(table: _StandTable, policy: Policy, roots: Iterable[int]) -> dict[int, Outcome]:
    """(win, push, lose) of the ``roots`` hands (indices) played on by ``policy``."""
    bonus = table.space.bonus
    hands, sizes, draws, children = table.hands, table.sizes, table.draws, table.children
    n = len(hands)
    played: list[tuple[int, int, int]] = [(0, 0, 0)] * n
    for i in table.order:
        if not policy(bonus, hands[i]) or sum(draws[i]) == 0:
            played[i] = table.stand[i]
            continue
        w = p = lose = 0
        for count, child in zip(draws[i], children[i], strict=True):
            if count == 0:
                continue
            if child == n:
                lose += count * table.denominator[sizes[i] + 1]
            else:
                cw, cp, cl = played[child]
                w, p, lose = w + count * cw, p + count * cp, lose + count * cl
        played[i] = (w, p, lose)
    out: dict[int, Outcome] = {}
    for i in roots:
        d = table.denominator[sizes[i]]
        w, p, lose = played[i]
        out[i] = (Fraction(w, d), Fraction(p, d), Fraction(lose, d))
    return out


@dataclass(frozen=True, slots=True)
class _ModularTable:
    """:class:`_StandTable`'s numerators modulo several primes, for shoes where every hand
    leaves the dealer's longest hand (as :func:`solver.exact.player.solve_exact_modular`).

    ``stand[k, i]`` holds hand ``i``'s (win, push, lose) numerators modulo ``primes[k]``,
    ``lose[k, m]`` a busted hand's lose numerator over ``denominator[m]``; ``by_size``
    lists the hands of each size, largest first.  Every numerator is below its
    denominator, so the primes (whose product exceeds twice the largest) rebuild it exactly.
    """

    space: HandSpace
    hands: list[tuple[int, ...]]
    primes: list[int]
    stand: npt.NDArray[np.int64]
    lose: npt.NDArray[np.int64]
    denominator: tuple[int, ...]
    by_size: list[tuple[int, npt.NDArray[np.int64]]]
    can_draw: npt.NDArray[np.bool_]


def _residues(values: Iterable[int], primes: Sequence[int]) -> npt.NDArray[np.int64]:
    """``values[j] mod primes[k]`` at ``[k, j]``."""
    listed = list(values)
    return np.array([[v % q for v in listed] for q in primes], dtype=np.int64)


def _modular_table(rules: Rules, space: HandSpace) -> _ModularTable:
    """Standing outcomes of every hand of ``space`` modulo primes (see :class:`_ModularTable`)."""
    total = sum(space.shoe)
    depth = dealer_ends(rules, space.bonus).depth
    top = int(space.sizes.max()) + depth
    denominator = tuple(padded_falling(total - m, top - m) for m in range(top + 1))
    primes = primes_above(denominator[0])
    p = np.array(primes, dtype=np.int64)[:, None]
    # The dealer's counts (over falling(N - m, depth)) need fewer primes: extended to the rest.
    few = primes_above(padded_falling(int((total - space.sizes).max()), depth))
    dealer = dealer_residues(rules, space.bonus, space.draws, few)
    dealer = np.concatenate([dealer, extend(dealer, few, primes[len(few) :])])
    classes = showdown_classes(rules, space)
    lift = _residues(
        (padded_falling(total - m - depth, top - m - depth) for m in range(top + 1)), primes
    )[:, space.sizes]
    by_class = [(dealer * np.equal(classes.T, k)[None]).sum(axis=1) for k in range(3)]
    stand = np.stack([c % p * lift % p for c in by_class], axis=2)  # (prime, hand, w/p/l)
    stand.setflags(write=False)  # kept by _player: never changed in place
    sizes = space.sizes
    return _ModularTable(
        space,
        hands=[tuple(row) for row in space.hands.tolist()],
        primes=primes,
        stand=stand,
        lose=_residues(denominator, primes),
        denominator=denominator,
        by_size=[(m, np.flatnonzero(sizes == m)) for m in range(int(sizes.max()), 0, -1)],
        can_draw=space.draws.sum(axis=1) > 0,
    )


def _play_modular(table: _ModularTable, policy: Policy, roots: Iterable[int]) -> dict[int, Outcome]:
    """:func:`_play` modulo the table's primes, one hand size at a time."""
    space = table.space
    n = len(table.hands)
    bonus = space.bonus
    hits = np.fromiter((policy(bonus, hand) for hand in table.hands), bool, n) & table.can_draw
    primes = np.array(table.primes, dtype=np.int64)[:, None, None]
    played = np.zeros((len(table.primes), n + 1, 3), dtype=np.int64)
    for size, rows in table.by_size:
        played[:, n] = 0
        played[:, n, 2] = table.lose[:, size + 1]  # a busted hand loses
        played[:, rows] = table.stand[:, rows]
        drawing = rows[hits[rows]]
        if len(drawing):
            children = played[:, space.children[drawing]]
            played[:, drawing] = np.einsum("rv,prvk->prk", space.draws[drawing], children) % primes
    listed = list(roots)
    rebuilt = rebuild(played[:, listed], table.primes).tolist()
    out: dict[int, Outcome] = {}
    for i, (w, p, lose) in zip(listed, rebuilt, strict=True):
        d = table.denominator[int(space.sizes[i])]
        out[i] = (Fraction(w, d), Fraction(p, d), Fraction(lose, d))
    return out


#: Plays a policy from the given hands (indices of the space): their (win, push, lose).
Player = Callable[[Policy, Iterable[int]], dict[int, Outcome]]


@lru_cache(maxsize=len(VALUES))
def _player(rules: Rules, bonus: int, shoe: ValueCounts) -> tuple[HandSpace, Player]:
    """Every hand drawn to from one card of ``shoe`` against ``bonus``, and how policies are
    played on them: modulo primes where the shoe always holds the dealer's longest hand,
    else in Python integers.

    Kept for the last game's Bonus cards (a pure function of immutable values): a command
    and its library call, or a table of strategies then a simulation with one of them,
    price the standing hands once (nearly all of a policy's cost).
    """
    roots = [hand_of([p]) for p in VALUES if shoe[p - 1] > 0]
    space = hand_space(bonus, shoe, roots)
    if fast_path_fits(rules, bonus, sum(shoe) - space.sizes):
        return space, partial(_play_modular, _modular_table(rules, space))
    return space, partial(_play, _stand_table(rules, space))


def evaluate_policies(
    game: GameResult[Fraction], policies: Mapping[str, Policy]
) -> tuple[PolicyResult, ...]:
    """Exact results of each named policy, from the shoe and rules of an exact ``game``."""
    if not game.exact:
        raise StrategyError("policies are evaluated exactly: solve the game with exact=True")
    rules = game.rules
    shoe = Shoe.full(rules.decks).remove(game.removed)
    counts = shoe.value_counts()
    total = sum(counts)
    outcomes: dict[str, dict[tuple[int, int], Outcome]] = {name: {} for name in policies}
    for c in VALUES:
        if counts[c - 1] == 0:
            continue
        base = tuple(n - (v == c) for v, n in enumerate(counts, start=1))
        space, play = _player(rules, c, base)
        starters = {
            p: space.index(hand_of([p]))
            for p in VALUES
            if base[p - 1] > 0 and not is_player_blackjack(p, c)
        }
        for name, policy in policies.items():
            check_stop()  # a stopped job stops between two policies' plays
            played = play(policy, starters.values())
            for p, i in starters.items():
                outcomes[name][(p, c)] = played[i]
    results = []
    zero = Fraction(0)
    for name in policies:
        starts = []
        for c in VALUES:
            for p in VALUES:
                ways = counts[c - 1] * (counts[p - 1] - (p == c))
                if ways == 0:
                    continue
                probability = Fraction(ways, total * (total - 1))
                start_outcomes: dict[str, Fraction]
                if is_player_blackjack(p, c):
                    start_outcomes = {str(k): zero for k in MAIN_OUTCOMES}
                    start_outcomes["blackjack"] = zero + 1
                    starts.append(Start(p, c, probability, False, start_outcomes))
                    continue
                w, push, lose = outcomes[name][(p, c)]
                start_outcomes = {"blackjack": zero, "win": w, "push": push, "loss": lose}
                hits = policies[name](c, hand_of([p]))
                starts.append(Start(p, c, probability, hits, start_outcomes))
        played_game = replace(
            game, starts=tuple(starts), solutions={}, round_lines=(), volatility_source=None
        )
        lines = round_lines_for(rules, played_game) if game.bonus is not None else ()
        results.append(PolicyResult(name, replace(played_game, round_lines=lines)))
    return tuple(results)


def optimal_policy(game: GameResult[Fraction]) -> Policy:
    """Composition-dependent optimal play of ``game`` as a policy (ties stand)."""
    tables = {c: solution for c, solution in solutions_of(game).items()}
    # Each Bonus card's decisions by hand, made on first use: a policy is asked about every
    # hand of a space, and a dictionary answers faster than a search of the space's keys.
    decisions: dict[int, dict[ValueCounts, bool]] = {}

    def hits(bonus: int, hand: ValueCounts) -> bool:
        known = decisions.get(bonus)
        if known is None:
            solution = tables[bonus]
            hands = map(tuple, solution.space.hands.tolist())
            known = decisions[bonus] = dict(zip(hands, solution.hitting, strict=True))
        found = known.get(hand)
        return tables[bonus].hits(hand) if found is None else found  # unknown: HandError

    return hits


def chart_policy(game: GameResult[Fraction], cache: Store | None = None) -> Policy:
    """The best printable chart as a policy (kept in ``cache``, if given)."""
    return cells_policy(stored_chart(game.rules, game, cache))


def cells_policy(chart: Actions) -> Policy:
    """Any chart (the best, or one read from a file) as a policy: its cell's action."""

    def hits(bonus: int, hand: ValueCounts) -> bool:
        return chart.action(cell_of(hand), bonus) is Action.HIT

    return hits


def realistic_play(
    rules: Rules,
    names: Iterable[str] = POLICY_NAMES,
    game: GameResult[Fraction] | None = None,
    cache: Store | None = None,
    charts: Mapping[str, Actions] | None = None,
) -> StrategiesResult:
    """Exact main EV, round EV, round house edge and cost of each policy in ``names``.

    ``game`` is the exact solution under ``rules`` (solved here when not given; pass a
    cached one to save the time); ``cache`` keeps the best chart.  A name of ``charts``
    (``chart:FILE``, say) is played by that chart's cells.
    """
    game = game or solve_game(rules, exact=True, cache=cache)
    if game.rules != rules or not game.exact:
        raise StrategyError("the game passed in must be solved exactly under the same rules")
    charts = charts or {}
    keys = (n.strip() if n.strip() in charts else n.strip().lower() for n in names)
    policies = {name: policy_for(name, game, cache, charts) for name in dict.fromkeys(keys)}
    return StrategiesResult(rules, Fraction(game.expected_value), evaluate_policies(game, policies))


def policy_for(
    name: str,
    game: GameResult[Fraction],
    cache: Store | None = None,
    charts: Mapping[str, Actions] | None = None,
) -> Policy:
    """The policy a strategy's name (as :func:`realistic_play` reads it) plays in ``game``:
    a chart of ``charts``, ``optimal``, ``chart`` or a simple policy."""
    charts = charts or {}
    if name in charts:
        verify_chart(game, charts[name], name)
        return cells_policy(charts[name])
    if name == "optimal":
        return optimal_policy(game)
    if name == "chart":
        return chart_policy(game, cache)
    return simple_policy(name, game.rules)
