"""A solved game: every starting pair, the main wager under optimal play, and the round.

:func:`solver.exact.game.solve_game` finds these; the types here hold what it finds and
derive every figure from it as one short sum.  Also here: one hand's advice
(``cbj advise``), the dealer's final-result distributions (``cbj dealer``) and the
player's decision graph (``cbj graph``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar, cast

from solver.model.cards import VALUES, Card, ValueCounts, value_label
from solver.model.hands import describe_hand, is_player_blackjack
from solver.model.numbers import exact_json, float_json, number_json
from solver.model.outcomes import MAIN_OUTCOMES, main_payoffs
from solver.model.rules import Rules
from solver.results.bonus import BonusAnalysis
from solver.results.frames import Shown, Tabular
from solver.results.kinds import Kind
from solver.results.volatility import PendingVolatility, Volatility

#: A probability or an expected value: exact, or a float from a fast solve.
Number = Fraction | float


class Solution(Protocol):
    """The player's optimal play against one Bonus card, as the solver keeps it in a game
    (:class:`solver.exact.player.PlayerSolution`): a result names only what it reads."""

    def hits(self, hand: ValueCounts) -> bool:
        """Whether optimal play draws a card to ``hand`` (ties stand)."""
        ...

    def value(self, hand: ValueCounts) -> Number:
        """Expected value of the main wager from ``hand`` with optimal play."""
        ...


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


@dataclass(frozen=True, slots=True, repr=False)
class GameResult(Tabular, Generic[N]):
    """The main wager under composition-dependent optimal play, and the whole round.

    ``GameResult[Fraction]`` is an exact solve, ``GameResult[float]`` a float one; the
    per-Bonus-card ``solutions`` are derived data and take no part in comparisons (a
    cached game reads them back only when first used).  :attr:`volatility` is the round
    over sessions, from the session's exact distribution: the API's ``solve`` adds it
    (:func:`solver.exact.volatility.with_volatility`, as ``volatility_source``, convolved
    when first read), a bare solve leaves it ``None``.
    """

    rules: Rules
    removed: tuple[Card, ...]
    exact: bool
    starts: tuple[Start[N], ...]
    solutions: Mapping[int, Solution] = field(compare=False, repr=False)
    bonus: BonusAnalysis | None
    round_lines: tuple[RoundLine[N], ...]
    volatility_source: Volatility | PendingVolatility | None = field(
        default=None, compare=False, repr=False
    )

    @property
    def volatility(self) -> Volatility | None:
        """The round over sessions (computed when first read), or ``None`` for a bare solve."""
        source = self.volatility_source
        return source.get() if isinstance(source, PendingVolatility) else source

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
    def return_to_player(self) -> N:
        """The main wager's return to player per unit staked: 1 plus its EV."""
        return 1 + self.expected_value

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
    def round_return_to_player(self) -> N:
        """The round's return to player per unit of the total wagered: 1 less its house edge."""
        return 1 - self.round_house_edge

    @property
    def round_hit_frequency(self) -> N:
        """Probability that a round ends with a net gain."""
        return self._sum(line.probability for line in self.round_lines if line.net > 0)

    @property
    def round_variance(self) -> N:
        """Variance of a round's net result."""
        second = self._sum(line.net**2 * line.probability for line in self.round_lines)
        return second - self.round_expected_value**2

    def to_json(self) -> dict[str, Any]:
        """The whole solve as the document ``cbj solve --format json`` prints."""
        volatility = self.volatility
        document: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "removed": [str(c) for c in self.removed],
            "exact": self.exact,
            "main": {
                "expected_value": number_json(self.expected_value),
                "house_edge": number_json(-self.expected_value),
                "rtp": number_json(self.return_to_player),
                "hit_frequency": number_json(self.outcomes["blackjack"] + self.outcomes["win"]),
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
                "rtp": number_json(self.round_return_to_player),
                "hit_frequency": number_json(self.round_hit_frequency),
                "variance": number_json(self.round_variance),
                "round_sd": float_json(math.sqrt(self.round_variance)),
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


#: Probability of each (main outcome, Bonus outcome) pair of a round.
JointOutcomes = dict[tuple[str, str], Number]


@dataclass(frozen=True, slots=True, repr=False)
class Advice(Shown, Generic[N]):
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


# --- The dealer --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, repr=False)
class DealerResult(Tabular):
    """The exact distribution of the dealer's final result for each Bonus card value."""

    rules: Rules
    removed: tuple[Card, ...]
    rows: tuple[tuple[int, dict[str, Fraction]], ...]
    """``(Bonus card value, {result: probability})`` in Bonus card order."""

    def to_json(self) -> dict[str, Any]:
        """The distributions as ``cbj dealer --format json`` prints them."""
        return {
            "rules": self.rules.to_json(),
            "tables": [
                {
                    "bonus": value_label(bonus),
                    "removed": [str(c) for c in self.removed],
                    "outcomes": {label: exact_json(p) for label, p in distribution.items()},
                }
                for bonus, distribution in self.rows
            ],
        }


# --- The decision graph ------------------------------------------------------------------------

#: The node every busting draw leads to.
BUST: ValueCounts = (0,) * 10


@dataclass(frozen=True, slots=True)
class HandNode:
    """One composition of own cards and what it is worth."""

    hand: ValueCounts
    stand: Number
    hit: Number
    hits: bool
    """Whether optimal play draws (ties stand)."""
    root: bool
    """Whether the hand is one the graph starts from."""


@dataclass(frozen=True, slots=True)
class HitEdge:
    """Drawing a card of value ``card`` to ``source``, leading to ``target`` (or :data:`BUST`)."""

    source: ValueCounts
    target: ValueCounts
    card: int
    probability: Fraction


@dataclass(frozen=True, slots=True, repr=False)
class DecisionGraph(Tabular):
    """Every hand reachable from the roots against one Bonus card, and every draw."""

    rules: Rules
    bonus: Card
    nodes: tuple[HandNode, ...]
    edges: tuple[HitEdge, ...]

    def to_json(self) -> dict[str, Any]:
        """The graph as JSON: hands by their cards (``bust`` for a busted hand), exact numbers."""

        def name(hand: ValueCounts) -> str:
            return "bust" if hand == BUST else describe_hand(hand)

        return {
            "rules": self.rules.to_json(),
            "bonus": str(self.bonus),
            "nodes": [
                {
                    "hand": name(n.hand),
                    "stand": number_json(n.stand),
                    "hit": number_json(n.hit),
                    "decision": "hit" if n.hits else "stand",
                    "root": n.root,
                }
                for n in self.nodes
            ],
            "edges": [
                {
                    "from": name(e.source),
                    "to": name(e.target),
                    "card": e.card,
                    "probability": exact_json(e.probability),
                }
                for e in self.edges
            ],
        }


#: Solved games, kept by their rules, removed cards and arithmetic.
GAME: Kind[GameResult[Any]] = Kind("game", GameResult)
