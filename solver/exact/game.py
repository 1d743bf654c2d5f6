"""The whole game: every starting pair, the main wager under optimal play, and the round.

A round starts with the player's card and the Bonus card, two cards from the shoe.  For
each Bonus card value the player's optimal play is solved once (:mod:`solver.exact.player`) for
every hand; each starting pair then either is a clause 5 blackjack or is worth its one-card
hand played on optimally.  The Bonus wager shares those two cards, so the round's joint
distribution pairs each starting pair's main outcomes with its Bonus outcomes exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from solver.exact.bonus import (
    BonusAnalysis,
    ValuePairCounts,
    analyse_bonus,
    combinations_by_values,
)
from solver.exact.volatility import game_volatility
from solver.model.cards import VALUES, Card, Shoe, ValueCounts, value_label
from solver.model.errors import HandError, RulesError, ShoeError
from solver.model.hands import hand_of, hard_total, is_player_blackjack
from solver.model.numbers import exact_json, float_json, number_json
from solver.model.outcomes import MAIN_OUTCOMES, bonus_pay, main_payoffs
from solver.model.parallel import parallel_map
from solver.model.rules import Rules

if TYPE_CHECKING:  # the player's solver (and numpy) load only when a game is solved
    from solver.exact.player import Number, PlayerSolution
    from solver.exact.volatility import Volatility

#: The arithmetic of a result: ``Fraction`` for an exact solve, ``float`` for a fast one.
N = TypeVar("N", Fraction, float)


@dataclass(frozen=True, slots=True)
class Start(Generic[N]):
    """One starting pair (player's card value, Bonus card value) and how it plays out."""

    player: int
    bonus: int
    probability: N
    hits: bool
    outcomes: dict[str, N]  # keyed by MAIN_OUTCOMES

    @property
    def blackjack(self) -> bool:
        """The pair is a clause 5 blackjack, settled at once."""
        return is_player_blackjack(self.player, self.bonus)

    @property
    def decision(self) -> str:
        """``blackjack`` (paid at once), ``hit`` or ``stand`` on the one-card hand."""
        return "blackjack" if self.blackjack else "hit" if self.hits else "stand"


@dataclass(frozen=True, slots=True)
class RoundLine(Generic[N]):
    """One net result of a whole round (main wager 1, Bonus wager ``bonus_ratio``)."""

    net: Fraction
    probability: N


@dataclass(frozen=True, slots=True)
class GameResult(Generic[N]):
    """The main wager under composition-dependent optimal play, and the whole round.

    ``GameResult[Fraction]`` is an exact solve, ``GameResult[float]`` a float one; the
    per-Bonus-card ``solutions`` are derived data and take no part in comparisons (a
    cached game reads them back only when first used).
    """

    rules: Rules
    removed: tuple[Card, ...]
    exact: bool
    starts: tuple[Start[N], ...]
    solutions: Mapping[int, PlayerSolution] = field(compare=False, repr=False)
    bonus: BonusAnalysis | None
    round_lines: tuple[RoundLine[N], ...]

    def _sum(self, terms: Iterable[N]) -> N:
        return cast(N, sum(terms, Fraction(0) if self.exact else 0.0))

    @property
    def outcomes(self) -> dict[str, N]:
        """Probabilities of the main wager's results: blackjack, win, push, lose."""
        return {
            k: self._sum(s.probability * s.outcomes[k] for s in self.starts) for k in MAIN_OUTCOMES
        }

    def _payoffs(self) -> dict[str, Fraction]:
        return main_payoffs(self.rules)

    @property
    def expected_value(self) -> N:
        """Expected net result of one unit on the main wager."""
        pay = self._payoffs()
        return self._sum(p * pay[k] for k, p in self.outcomes.items())

    @property
    def variance(self) -> N:
        """Variance of the main wager's net result."""
        pay = self._payoffs()
        second = self._sum(p * pay[k] ** 2 for k, p in self.outcomes.items())
        return second - self.expected_value**2

    @property
    def standard_deviation(self) -> float:
        """Standard deviation of the main wager's net result."""
        return math.sqrt(self.variance)

    def by_bonus_card(self) -> dict[int, N]:
        """Expected value of the main wager given the Bonus card's value."""
        pay = self._payoffs()
        result: dict[int, N] = {}
        for c in VALUES:
            starts = [s for s in self.starts if s.bonus == c]
            weight = self._sum(s.probability for s in starts)
            if weight:
                value = self._sum(
                    s.probability * s.outcomes[k] * pay[k] for s in starts for k in MAIN_OUTCOMES
                )
                result[c] = value / weight
        return result

    def start_value(self, start: Start[N]) -> N:
        """Expected value of the main wager from one starting pair."""
        pay = self._payoffs()
        return self._sum(start.outcomes[k] * pay[k] for k in MAIN_OUTCOMES)

    # The whole round.
    @property
    def round_expected_value(self) -> N:
        """Expected net result of a round: one unit main plus ``bonus_ratio`` on the Bonus."""
        return self._sum(line.net * line.probability for line in self.round_lines)

    @property
    def round_house_edge(self) -> N:
        """Expected loss per unit of total amount wagered in a round."""
        return -self.round_expected_value / (1 + self.rules.bonus_ratio)

    @property
    def round_hit_frequency(self) -> N:
        """Probability that a round ends with a net gain."""
        return self._sum(line.probability for line in self.round_lines if line.net > 0)

    @property
    def round_variance(self) -> N:
        """Variance of a round's net result."""
        second = self._sum(line.net**2 * line.probability for line in self.round_lines)
        return second - self.round_expected_value**2

    @property
    def volatility(self) -> Volatility | None:
        """How far the round's net wanders over sessions, or ``None`` without the Bonus wager."""
        return game_volatility(self)

    def to_json(self) -> dict[str, Any]:
        """The whole solve as the document ``cbj solve --format json`` prints."""
        volatility = self.volatility
        document: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "removed": [str(c) for c in self.removed],
            "exact": self.exact,
            "main": {
                "expected_value": number_json(self.expected_value),
                "outcomes": {k: number_json(p) for k, p in self.outcomes.items()},
                "variance": number_json(self.variance),
                "standard_deviation": float_json(self.standard_deviation),
            },
            "by_bonus_card": {
                value_label(c): number_json(v) for c, v in self.by_bonus_card().items()
            },
            "by_start": [
                {
                    "player": value_label(s.player),
                    "bonus": value_label(s.bonus),
                    "probability": number_json(s.probability),
                    "decision": s.decision,
                    "expected_value": number_json(self.start_value(s)),
                }
                for s in self.starts
            ],
            "bonus": self.bonus.to_json() if self.bonus else None,
            "round": None,
            "volatility": None if volatility is None else volatility.to_json(),
        }
        if self.bonus is not None:
            document["round"] = {
                "bonus_ratio": exact_json(self.rules.bonus_ratio),
                "expected_value": number_json(self.round_expected_value),
                "house_edge": number_json(self.round_house_edge),
                "hit_frequency": number_json(self.round_hit_frequency),
                "variance": number_json(self.round_variance),
                "standard_deviation": float_json(math.sqrt(self.round_variance)),
                "return_table": [
                    {
                        "net": exact_json(line.net),
                        "probability": number_json(line.probability),
                        "return": number_json(line.net * line.probability),
                    }
                    for line in self.round_lines
                ],
            }
        return document


JointOutcomes = dict[tuple[str, str], "Number"]


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


def _round_lines(
    rules: Rules,
    shoe: Shoe,
    starts: dict[tuple[int, int], Start[Any]],
    exact: bool,
    pairs: ValuePairCounts | None = None,
) -> tuple[RoundLine[Any], ...]:
    """Joint distribution of (main net, Bonus net) over ordered starting card pairs."""
    pay_main = main_payoffs(rules)
    nets: dict[tuple[str, str], Fraction] = {
        (k, outcome): pay_main[k] + bonus_pay(rules.paytable, outcome) * rules.bonus_ratio
        for k in MAIN_OUTCOMES
        for outcome in rules.paytable.outcomes
    }
    # Each pair's line by its place among the nets in order: a Fraction's hash, taken for
    # every term, cost more than the sums.  Each line adds its terms as they come, from 0.
    distinct = sorted(set(nets.values()))
    place = {pair: distinct.index(net) for pair, net in nets.items()}
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


ProgressCallback = Callable[[int, int], None]


class GameStore(Protocol):
    """Somewhere solved games are kept between runs (a disk cache, say): all that
    :func:`solve_game` asks of a store."""

    def game(
        self,
        rules: Rules,
        removed: tuple[Card, ...],
        exact: bool,
        compute: Callable[[], GameResult[Any]],
    ) -> GameResult[Any]:
        """The stored game for these inputs, or ``compute()`` (then stored)."""
        ...


def solve_game(
    rules: Rules | None = None,
    removed: Iterable[Card] = (),
    exact: bool = False,
    jobs: int = 1,
    progress: ProgressCallback | None = None,
    cache: GameStore | None = None,
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
        return cache.game(
            rules, removed, exact, lambda: solve_game(rules, removed, exact, jobs, progress)
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
        for p in VALUES:
            ways = counts[c - 1] * (counts[p - 1] - (p == c))
            if ways == 0:
                continue
            # int / int rounds the exact quotient once, as float(Fraction(...)) does.
            probability: Number = (
                Fraction(ways, total * (total - 1)) if exact else ways / (total * (total - 1))
            )
            if is_player_blackjack(p, c):
                outcomes = dict.fromkeys(MAIN_OUTCOMES, zero) | {"blackjack": zero + 1}
                starts[(p, c)] = Start(p, c, probability, False, outcomes)
                continue
            i = solution.space.index(hand_of([p]))
            win, push, lose = solution.outcomes[i]
            outcomes = {"blackjack": zero, "win": win, "push": push, "lose": lose}
            starts[(p, c)] = Start(p, c, probability, solution.hitting[i], outcomes)
    if shoe.suits_known:
        pairs = combinations_by_values(shoe, rules.paytable)
        bonus: BonusAnalysis | None = analyse_bonus(rules, removed, pairs)
        lines = _round_lines(rules, shoe, starts, exact, pairs)
    else:
        bonus, lines = None, ()
    return GameResult(rules, removed, exact, tuple(starts.values()), solutions, bonus, lines)


@dataclass(frozen=True, slots=True)
class Advice(Generic[N]):
    """Optimal decision for one hand: the values of standing and of hitting."""

    rules: Rules
    bonus: Card
    hand: tuple[Card, ...]
    seen: tuple[Card, ...]
    stand: N
    hit: N

    @property
    def decision(self) -> str:
        """``hit`` when hitting is worth strictly more, else ``stand``."""
        return "hit" if self.hit > self.stand else "stand"

    def to_json(self) -> dict[str, Any]:
        """The advice as the document ``cbj advise --format json`` prints."""
        return {
            "rules": self.rules.to_json(),
            "bonus": str(self.bonus),
            "hand": [str(c) for c in self.hand],
            "seen": [str(c) for c in self.seen],
            "stand": number_json(self.stand),
            "hit": number_json(self.hit),
            "decision": self.decision,
        }


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
