"""Paytable design: solve a pay for a target house edge, search paytables, compare rules.

The main wager's optimal play and EV do not depend on the paytable or the bonus ratio, so
with one exact solve of the main game every house edge is an exact linear function of the
tiers' pays (``S``, ``R``, ``A`` for clause 4's three; any list of named tiers alike):

    bonus edge = -(S p_suited + R p_rank + A p_adjacent - p_lose)
    round edge = -(main EV + r * bonus EV) / (1 + r)        (per total amount wagered)

Which tier a pair of cards reaches depends on the tiers listed, never on their pays, so
the edge stays linear whatever the pays.

Solving for one pay is then one exact division, and a different paytable's round
distribution is re-priced from the solved starting pairs without solving the game again.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

from solver.exact.bonus import analyse_bonus
from solver.exact.game import round_lines_for, solve_game
from solver.model.checks import shown
from solver.model.errors import DesignError, RulesError
from solver.model.numbers import percent
from solver.model.outcomes import as_outcome
from solver.model.parallel import parallel_map
from solver.model.params import ProgressCallback
from solver.model.paytable import (
    BONUS_TIERS,
    LOSE,
    MAX_SEARCH_PAY,
    MAX_TOP,
    Tier,
)
from solver.model.rules import (
    MIN_BONUS_RATIO,
    RULE_TABLE,
    Paytable,
    Rules,
    parse_ratio,
)
from solver.results.bonus import pay_symbols
from solver.results.game import GameResult
from solver.results.kinds import Store
from solver.results.paytable import (
    Candidate,
    EdgeKind,
    PaySolution,
    SearchHit,
    SearchResult,
    Variant,
)

if TYPE_CHECKING:
    import sympy

#: The most candidate paytables a search may rank: about a minute's work at worst.
MAX_SEARCH_CANDIDATES = 20_000_000
#: The most pays of the tiers but the last a search may step through (three tiers up to
#: ``MAX_SEARCH_PAY`` make 500,500).
MAX_SEARCH_RUNS = 500_500


def with_pay(paytable: Paytable, tier: str, pay: Fraction) -> Paytable:
    """``paytable`` with one tier's pay replaced."""
    return paytable.with_pay(tier, pay)


@dataclass(frozen=True, slots=True)
class LinearEdge:
    """A house edge as ``constant + sum(c * pay)``, one coefficient per tier of ``tiers``."""

    constant: Fraction
    coefficients: tuple[Fraction, ...]
    tiers: tuple[Tier, ...] = BONUS_TIERS

    def __call__(self, paytable: Paytable) -> Fraction:
        """The exact edge under ``paytable`` (which must have these tiers)."""
        if paytable.tiers != self.tiers:
            raise DesignError(f"paytable {paytable} does not have the tiers of this edge")
        return self.constant + sum(
            (c * p for c, p in zip(self.coefficients, paytable.pays, strict=True)), Fraction(0)
        )

    def symbolic(self) -> sympy.Expr:
        """The edge as a sympy expression in the pays' symbols (``S``, ``R``, ``A``, ...)."""
        symbols = pay_symbols(Paytable([0] * len(self.tiers), self.tiers))
        terms = zip(self.coefficients, self.tiers, strict=True)
        return _rational(self.constant) + sum(_rational(c) * symbols[t.name] for c, t in terms)


def _rational(value: Fraction) -> sympy.Rational:
    import sympy  # slow to load: only the symbolic forms need it

    return sympy.Rational(value.numerator, value.denominator)


@dataclass(frozen=True, slots=True)
class EdgeModel:
    """The house edges of any paytable and bonus ratio, from one exact solve of the game."""

    game: GameResult[Fraction]
    tiers: tuple[Tier, ...] = BONUS_TIERS
    """The tiers whose pays the edges are linear in."""

    @property
    def rules(self) -> Rules:
        """The rules of the solved game (its paytable and ratio play no part here)."""
        return self.game.rules

    def linear(self, kind: EdgeKind, ratio: Fraction) -> LinearEdge:
        """The ``kind`` house edge at bonus ratio ``ratio`` as a linear function of the pays."""
        if self.game.bonus is None:
            raise DesignError("paytable design needs the suits of every removed card")
        lines = self.game.bonus.lines
        if self.tiers != self.game.rules.paytable.tiers:
            counted = replace(self.game.rules, paytable=Paytable([0] * len(self.tiers), self.tiers))
            lines = analyse_bonus(counted, self.game.removed).lines
        chance = {str(line.outcome): line.probability for line in lines}
        bonus = LinearEdge(chance[LOSE], tuple(-chance[t.name] for t in self.tiers), self.tiers)
        if kind is EdgeKind.BONUS:
            return bonus
        main = Fraction(self.game.expected_value)
        scale = ratio / (1 + ratio)
        return LinearEdge(
            -main / (1 + ratio) + scale * bonus.constant,
            tuple(scale * c for c in bonus.coefficients),
            self.tiers,
        )

    def edge(self, kind: EdgeKind, paytable: Paytable, ratio: Fraction) -> Fraction:
        """The exact ``kind`` house edge under ``paytable`` at bonus ratio ``ratio``."""
        return self.linear(kind, ratio)(paytable)

    def round_edges(self, paytable: Paytable, ratios: Sequence[Fraction]) -> tuple[Fraction, ...]:
        """The exact round house edge under ``paytable`` at each of ``ratios``.

        The same numbers as :meth:`edge` of :attr:`EdgeKind.ROUND` at each ratio, the main
        EV and the Bonus edge found once: ``(r * bonus edge - main EV) / (1 + r)``.
        """
        main = Fraction(self.game.expected_value)
        bonus = self.linear(EdgeKind.BONUS, MIN_BONUS_RATIO)(paytable)
        return tuple((r * bonus - main) / (1 + r) for r in ratios)

    def priced(self, paytable: Paytable, ratio: Fraction) -> GameResult[Fraction]:
        """The solved game under another paytable and ratio (main play reused, not re-solved)."""
        rules = replace(self.game.rules, paytable=paytable, bonus_ratio=ratio)
        return replace(
            self.game,
            rules=rules,
            bonus=analyse_bonus(rules, self.game.removed),
            round_lines=round_lines_for(rules, self.game),
            volatility_source=None,  # the round has changed: its volatility is no longer the game's
        )


def neutral(rules: Rules) -> Rules:
    """The rules with the default paytable and the least Bonus ratio: what a solve of the
    main wager's play depends on (every paytable and ratio is a re-pricing of it).

    >>> neutral(Rules(paytable=Paytable.parse("20:5:1"))) == Rules()
    True
    """
    return replace(rules, paytable=Paytable(), bonus_ratio=MIN_BONUS_RATIO)


def edge_model(
    rules: Rules,
    jobs: int = 1,
    cache: Store | None = None,
    tiers: tuple[Tier, ...] | None = None,
) -> EdgeModel:
    """Solve the main game exactly once for every paytable of ``tiers`` under ``rules``.

    ``tiers`` defaults to those of the rules' paytable.
    """
    game = solve_game(neutral(rules), exact=True, jobs=jobs, cache=cache)
    return EdgeModel(game, rules.paytable.tiers if tiers is None else tiers)


def practical_pays(pay: Fraction) -> tuple[Fraction, ...]:
    """Whole and half units nearest ``pay`` on each side (and ``pay`` if it is one), >= 0.

    >>> [str(p) for p in practical_pays(Fraction(73, 10))]
    ['7', '15/2', '8']
    """
    found: set[Fraction] = set()
    for step in (Fraction(1), Fraction(1, 2)):
        below = math.floor(pay / step) * step
        above = math.ceil(pay / step) * step
        if below == pay:
            below, above = pay - step, pay + step
            found.add(pay)
        found.update((below, above))
    return tuple(sorted(p for p in found if p >= 0))


def solve_pay(
    model: EdgeModel,
    tier: Tier | str,
    kind: EdgeKind,
    target: Fraction,
    paytable: Paytable,
    ratio: Fraction,
) -> PaySolution:
    """Solve exactly for ``tier``'s pay so that the ``kind`` house edge equals ``target``.

    The other pays come from ``paytable``, whose tiers are the model's.  Raises
    :class:`DesignError` when the target needs a negative pay.  The edge is linear in the
    pays (:class:`LinearEdge`), so the pay is one exact division: ``(target - the edge at a
    pay of 0) / the tier's coefficient`` (no sympy, whose import took a second).
    """
    if paytable.tiers != model.tiers:
        raise DesignError(f"paytable {paytable} does not have the tiers of the edge model")
    try:
        solved = paytable.tier(tier if isinstance(tier, str) else tier.name)
    except RulesError as error:
        raise DesignError(f"cannot solve for it: {error}") from None
    edge = model.linear(kind, ratio)
    slope = edge.coefficients[edge.tiers.index(solved)]
    name = as_outcome(solved.name)
    if slope == 0:
        raise DesignError(
            f"the {name} pay cannot move the {kind.value} edge: that tier never occurs "
            f"with {model.rules.decks} deck(s); solve for another tier"
        )
    pay = (target - edge(with_pay(paytable, name, Fraction(0)))) / slope
    if pay < 0:
        ceiling = model.edge(kind, with_pay(paytable, name, Fraction(0)), ratio)
        raise DesignError(
            f"a {kind.value} house edge of {percent(target)} needs {name} to pay "
            f"{float(pay):.4f} to 1, below 0; with the other pays at "
            f"{_others(paytable, solved)} the edge is at most {percent(ceiling)} (a pay of 0)"
        )
    candidates = tuple(
        Candidate(
            with_pay(paytable, name, p),
            p,
            model.edge(EdgeKind.BONUS, with_pay(paytable, name, p), ratio),
            model.edge(EdgeKind.ROUND, with_pay(paytable, name, p), ratio),
        )
        for p in practical_pays(pay)
    )
    rules = replace(model.rules, paytable=with_pay(paytable, name, pay), bonus_ratio=ratio)
    return PaySolution(rules, name, kind, target, pay, candidates)


def _others(paytable: Paytable, tier: Tier) -> str:
    return ", ".join(
        f"{t.name} {pay}" for t, pay in zip(paytable.tiers, paytable.pays, strict=True) if t != tier
    )


def _check_search(model: EdgeModel, max_pay: int, top: int) -> int:
    """Refuse a search too wide to run before any work; the number of leading tiers."""
    if not 1 <= max_pay <= MAX_SEARCH_PAY:
        raise DesignError(f"max pay {shown(max_pay)} is out of range: use 1 to {MAX_SEARCH_PAY}")
    if not 1 <= top <= MAX_TOP:
        raise DesignError(f"top {shown(top)} is out of range: use 1 to {MAX_TOP}")
    leading = len(model.tiers) - 1
    steps = math.comb(max_pay + leading - 1, leading)
    if steps > MAX_SEARCH_RUNS:
        raise DesignError(
            f"{len(model.tiers)} tiers with pays up to {max_pay} make {steps:,} steps, more than "
            f"the {MAX_SEARCH_RUNS:,} a search takes: lower --max-pay or name fewer tiers"
        )
    return leading


def search_paytables(
    model: EdgeModel,
    kind: EdgeKind,
    band: tuple[Fraction, Fraction],
    ratio: Fraction,
    max_pay: int = 50,
    top: int = 10,
) -> SearchResult:
    """Whole-unit paytables of the model's tiers, ``max_pay >= S >= R >= A >= 1`` (each tier's
    pay at most the one before it), whose ``kind`` edge is in ``band``.

    The edge falls as the last tier's pay rises, so for the pays of the tiers before it
    the band's last pays form one interval, found directly rather than by trying each.
    """
    leading = _check_search(model, max_pay, top)
    low, high = band
    edge = model.linear(kind, ratio)
    # Scale everything to integers: the edge times ``scale`` is k0 + sum(k_t pay_t).
    scale = math.lcm(*(c.denominator for c in (edge.constant, *edge.coefficients, low, high)))
    k0, *ks = (int(c * scale) for c in (edge.constant, *edge.coefficients))
    *lead, klast = ks
    top_end, bottom_end, twice_middle = (
        int(high * scale),
        int(low * scale),
        int((low + high) * scale),
    )
    if klast >= 0:
        raise DesignError(
            f"the {model.tiers[-1].option} pay does not lower the edge: that tier never occurs "
            f"with {model.rules.decks} deck(s); search with another last tier"
        )

    def runs() -> Iterator[tuple[tuple[int, ...], int, int, int, int]]:
        """For the leading pays: the scaled edge at a last pay of 0 and the band's interval."""
        if not lead:  # one tier: its pays run from 1 to max_pay
            first = max(1, -((top_end - k0) // -klast))
            last = min(max_pay, (k0 - bottom_end) // -klast)
            if first <= last:
                yield (), 0, k0, first, last  # no leading pays: r is not used
            return
        *outer, inner = lead
        for rising in itertools.combinations_with_replacement(range(1, max_pay + 1), leading - 1):
            prefix = rising[::-1]  # each pay at most the one before it
            start = k0 + sum(k * p for k, p in zip(outer, prefix, strict=True))
            for r in range(1, (prefix[-1] if prefix else max_pay) + 1):
                base = start + inner * r  # the scaled edge at a last pay of 0
                first = max(1, -((top_end - base) // -klast))  # ceil((base - high) / -klast)
                last = min(r, (base - bottom_end) // -klast)
                if first <= last:
                    yield prefix, r, base, first, last

    # Count first (cheap: one step per leading pays), so an overlong search is refused up front.
    matches = sum(last - first + 1 for _, _, _, first, last in runs())
    if matches > MAX_SEARCH_CANDIDATES:
        raise DesignError(
            f"the band holds {matches:,} paytables up to {max_pay}, more than the "
            f"{MAX_SEARCH_CANDIDATES:,} a search ranks in about a minute: narrow the edge "
            "range or lower --max-pay"
        )
    found = (
        (abs(2 * (base + klast * a) - twice_middle), (*prefix, r, a) if lead else (a,))
        for prefix, r, base, first, last in runs()
        for a in range(first, last + 1)
    )
    best = heapq.nsmallest(top, found)  # a heap of ``top`` entries: memory stays bounded
    hits = []
    for _, pays_ in best:
        game = model.priced(Paytable([Fraction(p) for p in pays_], model.tiers), ratio)
        hits.append(
            SearchHit(
                game.rules.paytable,
                model.edge(EdgeKind.BONUS, game.rules.paytable, ratio),
                model.edge(EdgeKind.ROUND, game.rules.paytable, ratio),
                Fraction(game.round_hit_frequency),
                math.sqrt(game.round_variance),
            )
        )
    rules = replace(model.rules, bonus_ratio=ratio)
    return SearchResult(rules, kind, band, max_pay, matches, tuple(hits), model.tiers)


def variant_rules(base: Rules, values: Mapping[str, Sequence[Any]]) -> tuple[Rules, ...]:
    """Every combination of the values given for each rule, by name; a rule given no values
    keeps ``base``'s (the rules vary in the table's order, the first slowest).

    >>> [(r.decks, r.dealer_stands_on) for r in variant_rules(Rules(), {"decks": (1, 2)})]
    [(1, 18), (2, 18)]
    """
    names = [rule.name for rule in RULE_TABLE if values.get(rule.name)]
    return tuple(
        replace(base, **dict(zip(names, combination, strict=True)))
        for combination in itertools.product(*(values[name] for name in names))
    )


def one_rule_at_a_time(base: Rules) -> tuple[Rules, ...]:
    """``base`` first, then each common value of each rule (the rule table's) changed alone."""
    changed = (replace(base, **{rule.name: value}) for rule in RULE_TABLE for value in rule.common)
    return tuple(dict.fromkeys((base, *changed)))


def _variant(rules: Rules, exact: bool, cache: Store | None) -> Variant:
    main = solve_game(neutral(rules), exact=exact, cache=cache).expected_value
    bonus = analyse_bonus(rules).expected_value
    ratio = rules.bonus_ratio
    return Variant(rules, main, bonus, -(main + ratio * bonus) / (1 + ratio))


def solve_variants(
    rules: Sequence[Rules],
    exact: bool = False,
    jobs: int = 1,
    progress: ProgressCallback | None = None,
    cache: Store | None = None,
) -> tuple[Variant, ...]:
    """Headline numbers for each set of rules, solved in parallel processes."""
    variant = partial(_variant, exact=exact, cache=cache)
    return tuple(parallel_map(variant, rules, jobs, "processes", progress))


def parse_pay(text: str, tier: str) -> Fraction:
    """Parse one tier's pay (``12``, ``12.5``, ``25/2``, ``25:2``); negative pays are refused."""
    return parse_ratio(text, f"{tier} pay")
