"""The whole game: every starting pair, the main wager under optimal play, and the round.

A round starts with the player's card and the Bonus card, two cards from the shoe.  For
each Bonus card value the player's optimal play is solved once (:mod:`solver.exact.player`) for
every hand; each starting pair then either is a clause 5 blackjack or is worth its one-card
hand played on optimally.  The Bonus wager shares those two cards, so the round's joint
distribution pairs each starting pair's main outcomes with its Bonus outcomes exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache, partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from solver.exact.bonus import ValuePairCounts, analyse_bonus, combinations_by_values
from solver.model.cards import VALUES, Card, Shoe, ValueCounts
from solver.model.errors import HandError, RulesError, ShoeError
from solver.model.hands import hand_of, hard_total, is_player_blackjack
from solver.model.outcomes import MAIN_OUTCOMES, bonus_pay, main_payoffs
from solver.model.parallel import parallel_map
from solver.model.params import ProgressCallback
from solver.model.rules import Rules
from solver.results.bonus import BonusAnalysis
from solver.results.game import GAME, Advice, GameResult, JointOutcomes, RoundLine, Start
from solver.results.kinds import Key, Store

if TYPE_CHECKING:  # the player's solver (and numpy) load only when a game is solved
    from solver.exact.player import Number, PlayerSolution


def _round_terms(
    rules: Rules,
    shoe: Shoe,
    starts: dict[tuple[int, int], Start[Any]],
    exact: bool,
    pairs: ValuePairCounts | None = None,
) -> Iterator[tuple[str, str, Number]]:
    """Every (main outcome, Bonus outcome, probability) term over ordered starting pairs.

    ``pairs``, when given, is ``combinations_by_values(shoe, rules.paytable)``.
    """
    if pairs is None:
        pairs = combinations_by_values(shoe, rules.paytable)
    total = shoe.total * (shoe.total - 1)
    for (p, c), cell in pairs.items():
        start = starts.get((p, c))
        for outcome in cell:
            if cell[outcome] == 0:
                continue
            if start is None:
                raise ShoeError("a starting pair has no main-game solution")  # pragma: no cover
            # int / int rounds the exact quotient once, as float(Fraction(...)) does.
            weight: Number = Fraction(cell[outcome], total) if exact else cell[outcome] / total
            for k in MAIN_OUTCOMES:
                probability = start.outcomes[k]
                if probability:
                    yield k, outcome, weight * probability


@lru_cache(maxsize=64)
def _net_places(rules: Rules) -> tuple[tuple[Fraction, ...], Mapping[tuple[str, str], int]]:
    """The round's nets in order, and each (main outcome, Bonus outcome) pair's place among
    them (a term's line by its place: a Fraction's hash, taken for every term, cost more
    than the sums)."""
    pay_main = main_payoffs(rules)
    nets: dict[tuple[str, str], Fraction] = {
        (k, outcome): pay_main[k] + bonus_pay(rules.paytable, outcome) * rules.bonus_ratio
        for k in MAIN_OUTCOMES
        for outcome in rules.paytable.outcomes
    }
    distinct = tuple(sorted(set(nets.values())))
    return distinct, MappingProxyType({pair: distinct.index(net) for pair, net in nets.items()})


def _round_lines(
    rules: Rules,
    shoe: Shoe,
    starts: dict[tuple[int, int], Start[Any]],
    exact: bool,
    pairs: ValuePairCounts | None = None,
) -> tuple[RoundLine[Any], ...]:
    """Joint distribution of (main net, Bonus net) over ordered starting card pairs."""
    distinct, place = _net_places(rules)
    # Each line adds its terms as they come, from 0.
    sums: list[Number] = [0] * len(distinct)
    seen = [False] * len(distinct)
    for k, outcome, probability in _round_terms(rules, shoe, starts, exact, pairs):
        i = place[k, outcome]
        sums[i] += probability
        seen[i] = True
    return tuple(RoundLine(net, sums[i]) for i, net in enumerate(distinct) if seen[i])


def round_outcomes(game: GameResult[Any]) -> JointOutcomes:
    """Probability of each (main outcome, Bonus outcome) pair in a round of ``game``.

    Pairs that cannot happen (a blackjack with a rank match, say) are left out.
    """
    shoe = Shoe.full(game.rules.decks).remove(game.removed)
    if not shoe.suits_known:
        raise ShoeError("the round needs the suits of every removed card")
    joint: JointOutcomes = {}
    starts = {(s.player, s.bonus): s for s in game.starts}
    for k, outcome, probability in _round_terms(game.rules, shoe, starts, game.exact):
        joint[(k, outcome)] = joint.get((k, outcome), 0) + probability
    return joint


def round_lines_for(rules: Rules, game: GameResult[Any]) -> tuple[RoundLine[Any], ...]:
    """The round's joint distribution under ``rules``, reusing ``game``'s optimal main play.

    The main wager's play and outcomes do not depend on the paytable or the bonus ratio,
    so ``rules`` may differ from ``game.rules`` in those two fields only.
    """
    if replace(rules, paytable=game.rules.paytable, bonus_ratio=game.rules.bonus_ratio) != (
        game.rules
    ):
        raise RulesError(
            "only the paytable and the bonus ratio may change without solving the game again"
        )
    shoe = Shoe.full(rules.decks).remove(game.removed)
    if not shoe.suits_known:
        raise ShoeError("the round needs the suits of every removed card")
    starts = {(s.player, s.bonus): s for s in game.starts}
    return _round_lines(rules, shoe, starts, game.exact)


def _solve_bonus_card(rules: Rules, counts: ValueCounts, bonus: int, exact: bool) -> PlayerSolution:
    """Optimal play for every hand against one Bonus card value (one unit of parallel work)."""
    from solver.exact.player import solve_player

    base: ValueCounts = tuple(n - (v == bonus) for v, n in enumerate(counts, start=1))
    roots = [hand_of([p]) for p in VALUES if base[p - 1] > 0]
    solution = solve_player(rules, bonus, base, roots, exact=exact)
    if not exact and solution.near_tie():
        # Floats cannot be trusted to order two values this close: decide exactly.
        solution = solve_player(rules, bonus, base, roots, exact=True).to_float()
    return solution


def solutions_of(game: GameResult[Any]) -> Mapping[int, PlayerSolution]:
    """``game``'s optimal play by Bonus card value, as the solver's own type.

    A result types them by what it reads (:class:`~solver.results.game.Solution`); every
    game holds the player solver's solutions (or a store's, decoded into them).
    """
    return cast("Mapping[int, PlayerSolution]", game.solutions)


def solve_game(
    rules: Rules | None = None,
    removed: Iterable[Card] = (),
    exact: bool = False,
    jobs: int = 1,
    progress: ProgressCallback | None = None,
    cache: Store | None = None,
) -> GameResult[Any]:
    """Solve the game under ``rules`` from a full shoe less ``removed`` cards.

    ``jobs`` workers share the ten Bonus card values: threads for the float path (its
    time is spent in numpy, which releases the GIL), processes for the exact one (its
    time is spent in Python integers).  ``progress(done, total)`` is called as each value
    is finished.  With a ``cache``, a game solved before is read back instead.
    """
    rules = rules or Rules()
    removed = tuple(removed)
    if cache is not None:
        return cache.fetch(
            GAME,
            Key(rules, removed, exact),
            lambda: solve_game(rules, removed, exact, jobs, progress),
        )
    shoe = Shoe.full(rules.decks).remove(removed)
    counts = shoe.value_counts()
    total = sum(counts)
    if total < 3:
        raise ShoeError(f"a shoe of {total} card(s) cannot deal a round")
    bonuses = [c for c in VALUES if counts[c - 1] > 0]
    results = parallel_map(
        partial(_solve_bonus_card, rules, counts, exact=exact),
        bonuses,
        jobs,
        "processes" if exact else "threads",
        progress,
    )
    solutions = dict(zip(bonuses, results, strict=True))
    zero: Number = Fraction(0) if exact else 0.0
    starts: dict[tuple[int, int], Start[Any]] = {}
    for c, solution in solutions.items():
        ways = {p: counts[c - 1] * (counts[p - 1] - (p == c)) for p in VALUES}
        players = [p for p in VALUES if ways[p]]  # each one-card hand a root of the solve
        places = solution.space.indices([hand_of([p]) for p in players])
        for p, i in zip(players, places, strict=True):
            # int / int rounds the exact quotient once, as float(Fraction(...)) does.
            probability: Number = (
                Fraction(ways[p], total * (total - 1)) if exact else ways[p] / (total * (total - 1))
            )
            if is_player_blackjack(p, c):
                outcomes = dict.fromkeys(MAIN_OUTCOMES, zero) | {"blackjack": zero + 1}
                starts[(p, c)] = Start(p, c, probability, False, outcomes)
                continue
            win, push, lose = solution.outcomes[i]
            outcomes = {"blackjack": zero, "win": win, "push": push, "loss": lose}
            starts[(p, c)] = Start(p, c, probability, solution.hitting[i], outcomes)
    if shoe.suits_known:
        pairs = combinations_by_values(shoe, rules.paytable)
        bonus: BonusAnalysis | None = analyse_bonus(rules, removed, pairs)
        lines = _round_lines(rules, shoe, starts, exact, pairs)
    else:
        bonus, lines = None, ()
    return GameResult(rules, removed, exact, tuple(starts.values()), solutions, bonus, lines)


def advise(
    rules: Rules, bonus: Card, hand: Iterable[Card], seen: Iterable[Card] = (), exact: bool = False
) -> Advice[Any]:
    """Stand and hit values for the player's own cards ``hand`` against Bonus card ``bonus``.

    ``seen`` are other cards known to be out of the shoe (other players' cards, say).
    """
    hand, seen = tuple(hand), tuple(seen)
    if not hand:
        raise HandError("the hand needs at least the player's own first card")
    Shoe.full(rules.decks).remove((bonus, *hand, *seen))  # every card must be in the shoe
    own = hand_of(card.points for card in hand)
    if hard_total(own) > 21:
        raise HandError(
            f"hand {' '.join(map(str, hand))} has busted (hard total {hard_total(own)})"
        )
    if len(hand) == 1 and is_player_blackjack(hand[0].points, bonus.points):
        raise HandError("own card and Bonus card make a blackjack, paid at once: nothing to decide")
    from solver.exact.player import solve_player

    base = Shoe.full(rules.decks).remove((bonus, *seen)).value_counts()
    solution = solve_player(rules, bonus.points, base, [own], exact=exact)
    i = solution.space.index(own)
    return Advice(rules, bonus, hand, seen, solution.stand[i], solution.hit[i])
