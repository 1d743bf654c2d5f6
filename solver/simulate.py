"""Monte Carlo simulation of whole rounds, written independently of the exact solver.

The simulator deals physical cards (rank and suit) from shuffled shoes, settles the
Bonus wager and plays the main hand out for a given player strategy, then reports
sample means, standard errors and outcome frequencies.  It shares only the parsing of
cards and rules, the Bonus outcome names and the exact Bonus analysis it is checked
against; every total, bust, natural and settlement below is its own, read straight
from the rule text and ``docs/rules.md``, so that agreement with the exact solver means
something.

Speed comes from dealing many rounds at once: a *lane* is one table with its own shoe,
hands are small integer codes into a table of every possible composition, and the
game advances one draw at a time for all lanes together.  A shoe is shuffled lazily
(Fisher-Yates one card at a time), which makes a fresh shoe free: rewinding its read
position is a reshuffle.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cache
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from solver.bonus import BONUS_OUTCOMES, BonusOutcome, analyse_bonus
from solver.cards import SUITS, Card, Shoe, ValueCounts
from solver.errors import ShoeError, SimulationError, StrategyError
from solver.rules import DealerNatural, Rules

Codes = npt.NDArray[np.intp]
Flags = npt.NDArray[np.bool_]

#: Rounds per chunk: the unit of work and of seeding, fixed so results do not depend on jobs.
CHUNK_ROUNDS = 1 << 17
#: Lanes dealt side by side with a fresh shoe every round.  More lanes means fewer numpy
#: calls per round, but past ~2 MiB of shoes the random card swaps fall out of cache.
FRESH_LANES = 1 << 12
#: Most lanes dealt side by side in penetration mode.
PENETRATION_LANES = 1 << 10
#: Rounds each lane plays from its own shoe, reshuffling at the cut card, in penetration mode.
SESSION_ROUNDS = 1 << 7
#: z of a two-sided 95% normal interval.
Z95 = 1.959963984540054


class MainOutcome(StrEnum):
    """How the main wager ended for one seat."""

    BLACKJACK = "blackjack"
    WIN = "win"
    PUSH = "push"
    LOSE = "lose"


MAIN_OUTCOMES: tuple[MainOutcome, ...] = tuple(MainOutcome)
_BLACKJACK, _WIN, _PUSH, _LOSE = range(4)
_SUITED_MATCH, _RANK_MATCH, _ADJACENT, _BONUS_LOSE = range(4)  # the order of BONUS_OUTCOMES


class Wager(StrEnum):
    """The figures a simulation estimates per seat and round."""

    MAIN = "main"
    BONUS = "bonus"
    ROUND = "round"
    """Main net plus ``bonus_ratio`` times Bonus net."""


# ---------------------------------------------------------------------------------------
# Totals, written here from the rule text (not shared with the exact solver)
# ---------------------------------------------------------------------------------------


def _hard(hand: ValueCounts) -> int:
    """Total of own cards with every ace as 1."""
    return sum(value * n for value, n in enumerate(hand, start=1))


def _soft(total: int, has_ace: bool) -> int:
    """Count one ace as 11 when that keeps the total within 21."""
    return total + 10 if has_ace and total + 10 <= 21 else total


def _best(hand: ValueCounts, bonus: int) -> int:
    """Best total of 21 or less from own cards, adding the Bonus card or not (0 if bust).

    ``bonus`` 0 means the own cards alone.
    """
    hard = _hard(hand)
    if hard > 21:
        return 0
    alone = _soft(hard, hand[0] > 0)
    if bonus == 0:
        return alone
    joined = _soft(hard + bonus, hand[0] > 0 or bonus == 1)
    return joined if alone < joined <= 21 else alone


@dataclass(frozen=True, slots=True, eq=False)
class _HandSpace:
    """Every own-card composition that has not busted, numbered, with lookup tables.

    Index 0 is the empty hand and the last index, ``bust``, stands for every busted hand.
    ``step[s, v]`` is hand ``s`` after a card of value ``v``; ``best[b, s]`` its best total
    with Bonus card value ``b`` (``b = 0``: own cards alone), 0 for the bust state;
    ``cards_in_21[s]`` how many cards its 21 takes if it has one (clause 9: own cards if
    they make 21 alone, else one more for the Bonus card).
    """

    hands: tuple[ValueCounts, ...]
    index: Mapping[ValueCounts, int]
    step: Codes
    cards: Codes
    best: Codes
    cards_in_21: Codes

    @property
    def bust(self) -> int:
        """Index of the bust state."""
        return len(self.hands)


@cache
def _hand_space() -> _HandSpace:
    """Number every composition of values 1..10 with hard total at most 21."""
    hands: list[ValueCounts] = []

    def walk(value: int, prefix: tuple[int, ...], total: int) -> None:
        if value > 10:
            hands.append(prefix)
            return
        n = 0
        while total + n * value <= 21:
            walk(value + 1, (*prefix, n), total + n * value)
            n += 1

    walk(1, (), 0)
    hands.sort(key=lambda h: (sum(h), h[::-1]))
    index = {h: i for i, h in enumerate(hands)}
    bust = len(hands)
    step = np.full((bust + 1, 11), bust, dtype=np.intp)
    for i, hand in enumerate(hands):
        for value in range(1, 11):
            grown = (*hand[: value - 1], hand[value - 1] + 1, *hand[value:])
            step[i, value] = index.get(grown, bust)
    cards = np.array([sum(h) for h in hands] + [0], dtype=np.intp)
    best = np.zeros((11, bust + 1), dtype=np.intp)
    for b in range(11):
        for i, hand in enumerate(hands):
            best[b, i] = _best(hand, b)
    cards_in_21 = cards + (best[0] != 21)
    return _HandSpace(tuple(hands), index, step, cards, best, cards_in_21)


# ---------------------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------------------


@runtime_checkable
class Strategy(Protocol):
    """A player policy: hit or stand, given the Bonus card's value and the own cards.

    ``hand`` is a composition of the player's own cards by value (``hand[v - 1]`` cards of
    value ``v``, ace = 1); the Bonus card is never part of it.  The simulator asks once per
    possible hand and compiles the answers into a lookup array before dealing.
    """

    @property
    def name(self) -> str:
        """Short name used in output, e.g. ``stand-on:17``."""
        ...

    def hits(self, bonus: int, hand: ValueCounts) -> bool:
        """True to take another card, False to stand."""
        ...


@dataclass(frozen=True, slots=True)
class StandOn:
    """Stand once the best total (own cards, with or without the Bonus card) reaches ``threshold``.

    >>> StandOn(17).hits(bonus=7, hand=(0, 0, 0, 0, 0, 0, 0, 0, 0, 1))
    False
    """

    threshold: int

    def __post_init__(self) -> None:
        if not 0 <= self.threshold <= 22:
            raise StrategyError(
                f"stand-on:{self.threshold} is out of range: use a total from 0 to 22"
            )

    @property
    def name(self) -> str:
        """``stand-on:K``."""
        return f"stand-on:{self.threshold}"

    def hits(self, bonus: int, hand: ValueCounts) -> bool:
        """Hit while the best total is below the threshold."""
        return _best(hand, bonus) < self.threshold


#: A decision table: (Bonus card value 1..10, own hand composition) -> hit?
DecisionTable = Mapping[tuple[int, ValueCounts], bool]


@dataclass(frozen=True, slots=True)
class TableStrategy:
    """A table-driven policy, e.g. the exact solver's composition-dependent optimum.

    Hands the table does not list are played by ``default``: a fixed answer (``False``:
    stand) or another strategy.
    """

    decisions: DecisionTable
    default: bool | Strategy = False
    label: str = "table"

    @property
    def name(self) -> str:
        """The table's label."""
        return self.label

    def hits(self, bonus: int, hand: ValueCounts) -> bool:
        """Look the hand up; fall back to the default."""
        found = self.decisions.get((bonus, tuple(hand)))
        if found is not None:
            return bool(found)
        if isinstance(self.default, bool):
            return self.default
        return self.default.hits(bonus, hand)

    @classmethod
    def of(cls, strategy: Strategy, label: str | None = None) -> TableStrategy:
        """Tabulate another strategy over every hand that has not busted."""
        hands = _hand_space().hands
        decisions = {(b, h): strategy.hits(b, h) for b in range(1, 11) for h in hands if sum(h)}
        return cls(decisions, label=label or f"table({strategy.name})")


def parse_strategy(text: str, rules: Rules) -> Strategy:
    """Build the strategy named ``stand-on:K``, ``optimal`` or ``chart``.

    ``optimal`` and ``chart`` are decision tables from the exact solver
    (:func:`solver.strategy.strategy_source`): the simulator plays them, it never asks the
    solver for a value.

    >>> parse_strategy("stand-on:17", Rules()).name
    'stand-on:17'
    """
    cleaned = text.strip().lower()
    match = re.fullmatch(r"stand-on:(\d+)", cleaned)
    if match:
        return StandOn(int(match.group(1)))
    if cleaned in ("optimal", "chart"):
        from solver.strategy import strategy_source

        return TableStrategy(
            strategy_source(rules, "chart" if cleaned == "chart" else "optimal"), label=cleaned
        )
    raise StrategyError(f"unknown strategy {text!r}: use optimal, chart or stand-on:K (e.g. 17)")


def _compile(strategy: Strategy, shoe: ValueCounts) -> Flags:
    """The strategy as a lookup array ``hit[bonus value, hand index]``.

    Only hands the shoe can deal are asked about; the rest stay False (stand).
    """
    space = _hand_space()
    hit = np.zeros((11, space.bust + 1), dtype=np.bool_)
    for i, hand in enumerate(space.hands):
        if sum(hand) and all(n <= left for n, left in zip(hand, shoe, strict=True)):
            for b in range(1, 11):
                if hand[b - 1] < shoe[b - 1]:
                    hit[b, i] = bool(strategy.hits(b, hand))
    return hit


# ---------------------------------------------------------------------------------------
# Cards and shoes
# ---------------------------------------------------------------------------------------

#: Card code = 4 * rank order + suit index (as in ``Shoe.counts``); value and rank by code.
_VALUE_OF = np.array([min(r + 1, 10) for r in range(13) for _ in range(4)], dtype=np.intp)
_RANK_OF = np.array([r for r in range(13) for _ in range(4)], dtype=np.intp)


def card_code(card: Card) -> int:
    """The simulator's code of a card with a suit (``4 * rank order + suit index``)."""
    if card.suit is None:
        raise ShoeError(f"card {card} needs a suit: the Bonus wager depends on suits")
    return 4 * card.rank.order + SUITS.index(card.suit)


def shoe_codes(shoe: Shoe) -> npt.NDArray[np.uint8]:
    """Every physical card of a shoe as codes, in rank-and-suit order."""
    if not shoe.suits_known:
        raise ShoeError("the simulator deals physical cards: give every removed card its suit")
    return np.repeat(np.arange(52, dtype=np.uint8), shoe.counts)


class _Shoes:
    """One shoe per lane, shuffled lazily: each draw picks a random card still undealt.

    ``rows`` holds every lane's cards back to back; positions below ``next`` are dealt.
    A stacked shoe (no random generator) deals its cards in the order given.
    """

    def __init__(
        self,
        cards: npt.NDArray[np.uint8],
        lanes: int,
        rng: np.random.Generator | None,
        cut: int | None,
    ) -> None:
        self.size = len(cards)
        self.rows = np.tile(cards, lanes)
        self.next = np.zeros(lanes, dtype=np.intp)
        self.start = np.zeros(lanes, dtype=np.intp)
        self.rng = rng
        self.cut = cut

    def begin_round(self, n: int) -> None:
        """Start a round on lanes ``0..n-1``, reshuffling where the shoe is done."""
        head = self.next[:n]
        if self.cut is None:
            head[:] = 0
        else:
            head[head >= self.cut] = 0
        self.start[:n] = head

    def draw(self, lanes: Codes) -> Codes:
        """Deal the next card of each lane listed."""
        at = self.next[lanes]
        if at.size and at.max() >= self.size:
            self._reshuffle_discards(lanes[at >= self.size])
            at = self.next[lanes]
        here = lanes * self.size + at
        if self.rng is None:
            there = here
        else:
            there = here + (self.rng.random(lanes.size) * (self.size - at)).astype(np.intp)
        card = self.rows[there]
        self.rows[there] = self.rows[here]
        self.rows[here] = card
        self.next[lanes] = at + 1
        drawn: Codes = card.astype(np.intp)
        return drawn

    def _reshuffle_discards(self, lanes: Codes) -> None:
        """Shoe empty mid-round: the discards become the new shoe, the table keeps its cards."""
        if self.rng is None:
            raise ShoeError("the stacked cards ran out before the round was over")
        for lane in lanes.tolist():
            start = int(self.start[lane])
            if start == 0:
                raise ShoeError(
                    f"one round used all {self.size} cards of the shoe: use fewer seats or "
                    "more decks"
                )
            row = self.rows[lane * self.size : (lane + 1) * self.size]
            row[:] = np.concatenate((row[start:], row[:start]))
            self.next[lane] = self.size - start
            self.start[lane] = 0


# ---------------------------------------------------------------------------------------
# One round on many lanes
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class _Table:
    """Everything a chunk needs to play: rules, strategy array and the starting shoe."""

    rules: Rules
    hit: Flags
    """``hit[bonus value, hand]``: the strategy as a lookup array."""
    stops: Flags
    """``stops[bonus value, hand]``: the dealer stops drawing (bust, or best total reached)."""
    cards: npt.NDArray[np.uint8]
    seats: int
    cut: int | None

    @classmethod
    def make(
        cls,
        rules: Rules,
        strategy: Strategy,
        cards: npt.NDArray[np.uint8],
        seats: int,
        cut: int | None,
    ) -> _Table:
        """Compile the strategy and the dealer's stopping rule (clause 7) into arrays."""
        space = _hand_space()
        bust = np.arange(space.bust + 1) == space.bust
        stops = (space.best >= rules.dealer_stands_on) | bust[None, :]
        shoe = tuple(int(n) for n in np.bincount(_VALUE_OF[cards], minlength=11)[1:])
        return cls(rules, _compile(strategy, shoe), stops, cards, seats, cut)


def _bonus_outcomes(own: Codes, bonus: Codes) -> Codes:
    """Bonus wager tiers (clause 4) of each seat card against the Bonus card, by code."""
    own_rank, bonus_rank = _RANK_OF[own], _RANK_OF[bonus]
    outcome = np.full(own.shape, _BONUS_LOSE, dtype=np.intp)
    outcome[(own_rank - bonus_rank) % 13 == 1] = _ADJACENT
    outcome[(own_rank - bonus_rank) % 13 == 12] = _ADJACENT
    outcome[own_rank == bonus_rank] = _RANK_MATCH
    outcome[own == bonus] = _SUITED_MATCH
    return outcome


def _play_round(shoes: _Shoes, n: int, table: _Table) -> tuple[Codes, Codes]:
    """Deal and settle one round on lanes ``0..n-1``: main and Bonus outcome codes per seat."""
    space = _hand_space()
    rules, bust = table.rules, space.bust
    everyone = np.arange(n, dtype=np.intp)
    shoes.begin_round(n)
    own = np.stack([shoes.draw(everyone) for _ in range(table.seats)])  # clause 3
    bonus = shoes.draw(everyone)
    bonus_outcome = _bonus_outcomes(own, bonus[None, :])  # clause 4
    b = _VALUE_OF[bonus]

    first = _VALUE_OF[own]
    blackjack = (first + b[None, :] == 11) & ((first == 1) | (b[None, :] == 1))  # clause 5
    hands = space.step[0, first]
    for seat in range(table.seats):  # clause 6, each seat in turn
        hand = hands[seat]
        drawing = np.flatnonzero(~blackjack[seat])
        while drawing.size:
            drawing = drawing[table.hit[b[drawing], hand[drawing]]]
            if not drawing.size:
                break
            hand[drawing] = space.step[hand[drawing], _VALUE_OF[shoes.draw(drawing)]]
            drawing = drawing[hand[drawing] != bust]
    standing = ~blackjack & (hands != bust)

    dealer = np.zeros(n, dtype=np.intp)  # clause 7: the dealer plays if anyone still stands
    drawing = np.flatnonzero(standing.any(axis=0))
    while drawing.size:
        dealer[drawing] = space.step[dealer[drawing], _VALUE_OF[shoes.draw(drawing)]]
        drawing = drawing[~table.stops[b[drawing], dealer[drawing]]]

    dealer_bust = dealer == bust
    dealer_total = space.best[b, dealer]
    dealer_cards = space.cards[dealer]
    natural = np.zeros(n, dtype=np.bool_)  # clause 9
    if rules.dealer_natural is not DealerNatural.NONE:
        natural |= (dealer_cards == 2) & (space.best[0, dealer] == 21)
    if rules.dealer_natural is DealerNatural.WITH_BONUS:
        natural |= (dealer_cards == 1) & (dealer_total == 21)

    player_total = space.best[b[None, :], hands]  # clause 8
    main = np.full(hands.shape, _LOSE, dtype=np.intp)
    main[standing & (player_total == dealer_total[None, :])] = _PUSH
    if rules.natural_beats_multi_card_21:
        beaten = (player_total == 21) & natural[None, :]
        beaten &= space.cards_in_21[hands] >= 3
        main[standing & beaten] = _LOSE
    main[standing & ((player_total > dealer_total[None, :]) | dealer_bust[None, :])] = _WIN
    main[blackjack] = _BLACKJACK
    return main, bonus_outcome


# ---------------------------------------------------------------------------------------
# Chunks: the unit of work, seeding and parallelism
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Tally:
    """What one chunk found: joint outcome counts per seat, and squares of seat sums."""

    joint: npt.NDArray[np.int64]
    """``joint[seat, main outcome, bonus outcome]`` counts of seat-rounds."""
    squares: npt.NDArray[np.float64]
    """Sums over rounds of (sum over seats of net)^2 for main, Bonus and round."""


def _pays(rules: Rules) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """Net result per unit of each main outcome and each Bonus outcome."""
    main = (rules.blackjack_pays, Fraction(1), Fraction(0), Fraction(-1))
    table = rules.paytable
    bonus = (table.suited_match, table.rank_match, table.adjacent, Fraction(-1))
    return main, bonus


def _run_chunk(table: _Table, rounds: int, seed: np.random.SeedSequence) -> _Tally:
    """Play ``rounds`` rounds with a random generator of its own.

    With a fresh shoe, up to ``FRESH_LANES`` rounds are dealt at once.  With a cut card,
    up to ``PENETRATION_LANES`` lanes each play about ``SESSION_ROUNDS`` consecutive rounds
    from their own shoe, which starts freshly shuffled.
    """
    if table.cut is None:
        lanes = min(rounds, FRESH_LANES)
    else:
        lanes = max(1, min(PENETRATION_LANES, rounds // SESSION_ROUNDS))
    shoes = _Shoes(table.cards, lanes, np.random.default_rng(seed), table.cut)
    main_pay, bonus_pay = (np.array([float(p) for p in pays]) for pays in _pays(table.rules))
    ratio = float(table.rules.bonus_ratio)
    joint = np.zeros((table.seats, 4, 4), dtype=np.int64)
    squares = np.zeros(3, dtype=np.float64)
    done = 0
    while done < rounds:
        n = min(lanes, rounds - done)
        main, bonus = _play_round(shoes, n, table)
        for seat in range(table.seats):
            joint[seat] += np.bincount(main[seat] * 4 + bonus[seat], minlength=16).reshape(4, 4)
        main_sum = main_pay[main].sum(axis=0)
        bonus_sum = bonus_pay[bonus].sum(axis=0)
        round_sum = main_sum + ratio * bonus_sum
        squares += [float(np.dot(x, x)) for x in (main_sum, bonus_sum, round_sum)]
        done += n
    return _Tally(joint, squares)


def _chunks(rounds: int, chunk_rounds: int) -> list[int]:
    """Split ``rounds`` into chunks of ``chunk_rounds`` (the last one shorter)."""
    full, rest = divmod(rounds, chunk_rounds)
    return [chunk_rounds] * full + ([rest] if rest else [])


def _tallies(
    table: _Table,
    sizes: Sequence[int],
    seeds: Sequence[np.random.SeedSequence],
    jobs: int,
    progress: Callable[[int], None] | None,
) -> Iterator[_Tally]:
    """Run every chunk, in parallel through joblib when ``jobs`` is not 1, in chunk order."""
    if jobs == 1 or len(sizes) == 1:
        results: Iterable[_Tally] = (
            _run_chunk(table, n, s) for n, s in zip(sizes, seeds, strict=True)
        )
    else:
        from joblib import Parallel, delayed

        try:
            parallel = Parallel(n_jobs=jobs, return_as="generator")
        except ValueError:  # a backend that cannot stream results, e.g. multiprocessing
            parallel = Parallel(n_jobs=jobs)
        results = parallel(
            delayed(_run_chunk)(table, n, s) for n, s in zip(sizes, seeds, strict=True)
        )
    for size, tally in zip(sizes, results, strict=True):
        if progress is not None:
            progress(size)
        yield tally


# ---------------------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------------------


def chi_square_sf(statistic: float, dof: int) -> float:
    """Upper tail probability of a chi-square distribution with ``dof`` degrees of freedom.

    >>> round(chi_square_sf(7.814727903251178, 3), 6)
    0.05
    """
    if dof < 1:
        raise ValueError(f"degrees of freedom {dof} must be at least 1")
    if statistic <= 0:
        return 1.0
    half = statistic / 2
    if dof % 2 == 0:
        term = total = math.exp(-half)
        for i in range(1, dof // 2):
            term *= half / i
            total += term
        return min(1.0, total)
    total = math.erfc(math.sqrt(half))
    term = math.exp(-half) * math.sqrt(half) / math.gamma(1.5)
    for i in range(1, (dof + 1) // 2):
        total += term
        term *= half / (i + 0.5)
    return min(1.0, total)


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """Pearson's goodness-of-fit test of outcome counts against exact probabilities."""

    statistic: float
    dof: int
    p_value: float

    @classmethod
    def test(cls, observed: Mapping[str, int], expected: Mapping[str, Fraction]) -> ChiSquare:
        """Compare counts with probabilities; outcomes of probability 0 must never occur."""
        n = sum(observed.values())
        statistic = 0.0
        cells = 0
        for name, p in expected.items():
            seen = observed.get(name, 0)
            if p == 0:
                if seen:
                    return cls(math.inf, max(cells, 1), 0.0)
                continue
            cells += 1
            statistic += (seen - n * float(p)) ** 2 / (n * float(p))
        dof = max(cells - 1, 1)
        return cls(statistic, dof, chi_square_sf(statistic, dof))

    def to_json(self) -> dict[str, Any]:
        """The test as plain JSON values."""
        return {"statistic": _finite(self.statistic), "dof": self.dof, "p_value": self.p_value}


@dataclass(frozen=True, slots=True)
class ExactFigure:
    """An exact expectation to check a simulated wager against.

    ``probabilities``, keyed like the estimate's frequencies, adds a chi-square test.
    """

    mean: Fraction | float
    probabilities: Mapping[str, Fraction] | None = None


@dataclass(frozen=True, slots=True)
class Estimate:
    """Sample statistics of one wager's net result per seat and round."""

    rounds: int
    """Seat-rounds behind the figures."""
    mean: float
    standard_error: float
    frequencies: Mapping[str, int]
    exact: Fraction | float | None = None
    chi_square: ChiSquare | None = None

    @property
    def ci95(self) -> tuple[float, float]:
        """95% confidence interval of the mean (normal approximation)."""
        half = Z95 * self.standard_error
        return (self.mean - half, self.mean + half)

    @property
    def z(self) -> float | None:
        """Standard errors between the sample mean and the exact figure, when there is one."""
        if self.exact is None or not self.standard_error > 0:
            return None
        return (self.mean - float(self.exact)) / self.standard_error

    def to_json(self) -> dict[str, Any]:
        """The estimate as plain JSON values (exact figures as ``{"exact", "float"}``)."""
        document: dict[str, Any] = {
            "mean": self.mean,
            "standard_error": _finite(self.standard_error),
            "ci95": [_finite(x) for x in self.ci95],
            "frequencies": dict(self.frequencies),
        }
        if self.exact is not None:
            document["exact"] = _exact_json(self.exact)
            document["z"] = self.z
        if self.chi_square is not None:
            document["chi_square"] = self.chi_square.to_json()
        return document


def _finite(x: float) -> float | None:
    """A float for JSON, None where it is not finite."""
    return x if math.isfinite(x) else None


def _exact_json(value: Fraction | float) -> dict[str, Any]:
    """An exact figure as JSON: ``p/q`` text and float (float only if it is not exact)."""
    if isinstance(value, Fraction):
        text = str(value.numerator) if value.denominator == 1 else str(value)
        return {"exact": text, "float": float(value)}
    return {"float": float(value)}


def _estimate(
    n: int,
    mean: Fraction,
    second: Fraction | float,
    frequencies: Mapping[str, int],
    exact: ExactFigure | None,
    scale: int = 1,
) -> Estimate:
    """Mean and standard error from the first two sample moments of a per-round sum.

    ``mean`` and ``second`` are moments of the per-round sum over ``scale`` seats; the
    estimate is per seat.
    """
    variance = float(second) - float(mean) ** 2
    standard_error = math.sqrt(max(variance, 0.0) / (n - 1)) / scale if n > 1 else math.nan
    chi = None
    if exact is not None and exact.probabilities is not None:
        chi = ChiSquare.test(frequencies, exact.probabilities)
    return Estimate(
        rounds=n * scale,
        mean=float(mean / scale),
        standard_error=standard_error,
        frequencies=frequencies,
        exact=None if exact is None else exact.mean,
        chi_square=chi,
    )


@dataclass(frozen=True, slots=True)
class SeatStatistics:
    """Estimates of the main wager, the Bonus wager and the whole round."""

    main: Estimate
    bonus: Estimate
    round: Estimate

    def __getitem__(self, wager: Wager | str) -> Estimate:
        estimate: Estimate = getattr(self, Wager(wager).value)
        return estimate

    def to_json(self) -> dict[str, Any]:
        """Each wager's estimate as JSON."""
        return {w.value: self[w].to_json() for w in Wager}


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """Counts of a simulation run and the settings that produced them."""

    rules: Rules
    rounds: int
    seats: int
    strategy: str
    penetration: float | None
    """Share of the shoe dealt before a reshuffle; None for a fresh shoe every round."""
    seed: int
    removed: tuple[Card, ...]
    joint: tuple[tuple[tuple[int, ...], ...], ...]
    """``joint[seat][main outcome][bonus outcome]``: seat-rounds of each pair of outcomes."""
    squares: tuple[float, float, float]
    """Sums over rounds of the squared seat-summed net of main, Bonus and round."""
    exact: Mapping[Wager, ExactFigure] = field(default_factory=dict)

    def seat(self, index: int) -> SeatStatistics:
        """Statistics of one seat (0 is the first to act)."""
        return self._statistics(self.joint[index], None, 1)

    @property
    def overall(self) -> SeatStatistics:
        """Statistics per seat and round over every seat; seats share a round's cards."""
        summed = tuple(
            tuple(sum(seat[m][b] for seat in self.joint) for b in range(4)) for m in range(4)
        )
        if self.seats == 1:
            return self._statistics(summed, None, 1)
        return self._statistics(summed, self.squares, self.seats)

    def _statistics(
        self,
        joint: Sequence[Sequence[int]],
        squares: tuple[float, float, float] | None,
        scale: int,
    ) -> SeatStatistics:
        n = self.rounds
        main_pay, bonus_pay = _pays(self.rules)
        ratio = self.rules.bonus_ratio
        cells = [(m, b, joint[m][b]) for m in range(4) for b in range(4)]

        def moments(value: Callable[[int, int], Fraction], k: int) -> tuple[Fraction, Fraction]:
            mean = sum((value(m, b) * c for m, b, c in cells), Fraction(0)) / n
            second = sum((value(m, b) ** 2 * c for m, b, c in cells), Fraction(0)) / n
            return mean, (second if squares is None else Fraction(squares[k]) / n)

        exact = self._exact_figures()
        estimates = []
        frequencies: list[dict[str, int]] = [
            {o.value: sum(joint[i][b] for b in range(4)) for i, o in enumerate(MAIN_OUTCOMES)},
            {o.value: sum(joint[m][i] for m in range(4)) for i, o in enumerate(BONUS_OUTCOMES)},
            {
                f"{mo.value}/{bo.value}": joint[m][b]
                for m, mo in enumerate(MAIN_OUTCOMES)
                for b, bo in enumerate(BONUS_OUTCOMES)
            },
        ]
        values: list[Callable[[int, int], Fraction]] = [
            lambda m, b: main_pay[m],
            lambda m, b: bonus_pay[b],
            lambda m, b: main_pay[m] + ratio * bonus_pay[b],
        ]
        for k, wager in enumerate(Wager):
            mean, second = moments(values[k], k)
            figure = exact.get(wager)
            if scale > 1 and figure is not None:
                figure = ExactFigure(figure.mean)  # seat-rounds share cards: no chi-square
            estimates.append(_estimate(n, mean, second, frequencies[k], figure, scale))
        return SeatStatistics(*estimates)

    def _exact_figures(self) -> dict[Wager, ExactFigure]:
        """Exact figures given, with the round's derived from main and Bonus when possible."""
        figures = dict(self.exact)
        main, bonus = figures.get(Wager.MAIN), figures.get(Wager.BONUS)
        if Wager.ROUND not in figures and main is not None and bonus is not None:
            mean = main.mean + self.rules.bonus_ratio * bonus.mean
            figures[Wager.ROUND] = ExactFigure(mean)
        return figures

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON document, carrying the rules and settings that made it."""
        overall = self.overall
        document: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "rounds": self.rounds,
            "seats": self.seats,
            "strategy": self.strategy,
            "shoe": "fresh" if self.penetration is None else {"penetration": self.penetration},
            "seed": self.seed,
            "removed": [str(c) for c in self.removed],
            **overall.to_json(),
        }
        if self.seats > 1:
            document["per_seat"] = [self.seat(i).to_json() for i in range(self.seats)]
        return document


def exact_bonus(rules: Rules, removed: Iterable[Card] = ()) -> ExactFigure:
    """The Bonus wager's exact EV and outcome probabilities, from ``analyse_bonus``."""
    analysis = analyse_bonus(rules, removed)
    probabilities = {line.outcome.value: line.probability for line in analysis.lines}
    return ExactFigure(analysis.expected_value, probabilities)


# ---------------------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------------------


def simulate(
    rules: Rules,
    strategy: Strategy,
    rounds: int,
    *,
    seed: int | None = None,
    seats: int = 1,
    penetration: float | None = 0.75,
    jobs: int = 1,
    removed: Iterable[Card] = (),
    exact: Mapping[Wager | str, ExactFigure] | None = None,
    chunk_rounds: int = CHUNK_ROUNDS,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Deal ``rounds`` rounds at a table of ``seats`` players all following ``strategy``.

    Args:
        rules: The rules to play by.
        strategy: The players' policy (every seat plays the same one).
        rounds: Rounds to deal.
        seed: Root of every random number; None picks one (reported in the result).
        seats: Players sharing the Bonus card and the dealer's hand.
        penetration: Share of the shoe dealt before a reshuffle, in (0, 1];
            None shuffles a fresh shoe for every round.
        jobs: Worker processes (joblib ``n_jobs``); results do not depend on it.
        removed: Cards out of the shoe before it is shuffled (each with its suit).
        exact: Exact figures to compare against, by wager; the Bonus wager's is added
            from ``analyse_bonus`` unless given.
        chunk_rounds: Rounds per seeded chunk; results depend on it, not on ``jobs``.
        progress: Called with the number of rounds each finished chunk played.

    Returns:
        The outcome counts, with statistics by seat and overall.
    """
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise SimulationError(f"rounds {rounds!r} must be a whole number of at least 1")
    if isinstance(seats, bool) or not isinstance(seats, int) or seats < 1:
        raise SimulationError(f"seats {seats!r} must be a whole number of at least 1")
    if penetration is not None and not 0 < penetration <= 1:
        raise SimulationError(
            f"penetration {penetration!r} is out of range: give a share of the shoe in (0, 1]"
        )
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise SimulationError(f"seed {seed!r} must be a whole number of 0 or more")
    if jobs == 0:
        raise SimulationError("jobs 0 is invalid: use 1, a number of processes, or -1 for all")
    if chunk_rounds < 1:
        raise SimulationError(f"chunk size {chunk_rounds} must be at least 1")
    removed = tuple(removed)
    shoe = Shoe.full(rules.decks).remove(removed)
    cards = shoe_codes(shoe)
    if len(cards) < seats + 2:
        raise ShoeError(f"a shoe of {len(cards)} cards cannot deal {seats} seat(s) a round")
    cut = None if penetration is None else max(1, round(penetration * len(cards)))
    table = _Table.make(rules, strategy, cards, seats, cut)

    root = np.random.SeedSequence(seed)
    sizes = _chunks(rounds, chunk_rounds)
    seeds = root.spawn(len(sizes))
    joint = np.zeros((seats, 4, 4), dtype=np.int64)
    squares = np.zeros(3, dtype=np.float64)
    for tally in _tallies(table, sizes, seeds, jobs, progress):
        joint += tally.joint
        squares += tally.squares

    figures = {Wager(k): v for k, v in (exact or {}).items()}
    figures.setdefault(Wager.BONUS, exact_bonus(rules, removed))
    return SimulationResult(
        rules=rules,
        rounds=rounds,
        seats=seats,
        strategy=strategy.name,
        penetration=penetration,
        seed=int(root.entropy),  # type: ignore[arg-type]
        removed=removed,
        joint=tuple(tuple(tuple(int(c) for c in row) for row in seat) for seat in joint.tolist()),
        squares=(float(squares[0]), float(squares[1]), float(squares[2])),
        exact=figures,
    )


@dataclass(frozen=True, slots=True)
class SeatRound:
    """How one seat's round ended, from a stacked shoe."""

    main: MainOutcome
    bonus: BonusOutcome
    main_net: Fraction
    bonus_net: Fraction
    round_net: Fraction


def deal_stacked(
    cards: Sequence[Card], rules: Rules, strategy: Strategy, seats: int = 1
) -> tuple[SeatRound, ...]:
    """Play one round from cards in a known order, to check settlement by hand.

    The order is: one card per seat, the Bonus card, then each seat's draws in turn,
    then the dealer's.  Raises :class:`ShoeError` if the cards run out.

    >>> cards = [Card.parse("As"), Card.parse("Kh")]
    >>> [seat.main.value for seat in deal_stacked(cards, Rules(), StandOn(17))]
    ['blackjack']
    """
    codes = np.array([card_code(c) for c in cards], dtype=np.uint8)
    if len(codes) < seats + 1:
        raise ShoeError(f"{len(codes)} stacked cards cannot deal {seats} seat(s) and the Bonus")
    table = _Table.make(rules, strategy, codes, seats, None)
    main, bonus = _play_round(_Shoes(codes, 1, None, None), 1, table)
    main_pay, bonus_pay = _pays(rules)
    return tuple(
        SeatRound(
            MAIN_OUTCOMES[int(main[s, 0])],
            BONUS_OUTCOMES[int(bonus[s, 0])],
            main_pay[int(main[s, 0])],
            bonus_pay[int(bonus[s, 0])],
            main_pay[int(main[s, 0])] + rules.bonus_ratio * bonus_pay[int(bonus[s, 0])],
        )
        for s in range(seats)
    )
