"""Every figure the report shows, computed once: :func:`report_figures`.

The exact solves (the game, its paytable lines, the rule variants, the chart, the dealer),
the table of players, the game-protection study and the simulation cross-check run here;
:mod:`solver.present.report` only lays the :class:`ReportFigures` out.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from solver.exact.chart import Chart, GameChartStore, stored_chart
from solver.exact.dealer import dealer_distribution
from solver.exact.game import GameResult, JointOutcomes, round_outcomes
from solver.exact.paytable import (
    EdgeKind,
    EdgeModel,
    Variant,
    edge_model,
    one_rule_at_a_time,
    solve_variants,
    with_pay,
)
from solver.exact.ratios import RatioRow, ratio_table, round_moments
from solver.exact.seats import SEAT_COUNTS
from solver.exact.volatility import Volatility
from solver.model.cards import RANKS, VALUES, Card, Shoe
from solver.model.errors import ReportError
from solver.model.outcomes import as_outcome
from solver.model.paytable import MAX_PAY
from solver.model.rules import TABULATED_RATIOS, Rules
from solver.sim import SimulationResult, Strategy
from solver.studies.protection import (
    COUNTER_ROUNDS,
    SHOE_SAMPLES,
    ProtectionStudy,
    check_sizes,
    protection_study,
)
from solver.studies.seats import TableOfPlayers, table_of_players
from solver.studies.simulation import played_strategy, simulate_beside_exact
from solver.studies.sizes import check_rounds

#: Rounds the simulator deals for the cross-check, unless asked otherwise, and its seed:
#: enough to see a wrong figure at a few standard errors, few enough that the report
#: builds in seconds.
SIMULATION_ROUNDS = 100_000
SIMULATION_SEED = 20_261_129
#: Table-rounds the simulator deals for each number of seats in the table of players,
#: unless asked otherwise: the per-run cost dominates at this size, and the intervals stay
#: a few hundredths wide.
TABLE_ROUNDS = 50_000

#: A point of a plotted curve: x and y as drawn.
Point = tuple[float, float]
#: The dealer's final-result distribution for each Bonus card value.
DealerRows = list[tuple[int, dict[str, Fraction]]]


@dataclass(frozen=True, slots=True)
class RatioCurve:
    """The round's house edge (%) against the Bonus ratio, and at the ratio in force."""

    points: tuple[Point, ...]
    in_force: Point


@dataclass(frozen=True, slots=True)
class PaySensitivity:
    """How the round's house edge moves with one tier's pay, the others held.

    The edge is an exact straight line in the pay: ``edge`` at the pay in force plus
    ``slope`` per unit of pay; ``line`` is its two ends as plotted, ``(pay, edge)``.
    """

    tier: str
    """The tier's name (a :class:`solver.model.outcomes.BonusOutcome` for clause 4's)."""
    pays: Fraction
    slope: Fraction
    edge: Fraction
    line: tuple[tuple[Fraction, Fraction], tuple[Fraction, Fraction]]

    @property
    def break_even(self) -> Fraction | None:
        """The pay of this tier at which the round's edge is exactly 0 (negative: none).

        None when the pay moves nothing: the tier cannot happen in this shoe (no suited
        match in one deck, where the player's card and the Bonus card differ).
        """
        if self.slope == 0:
            return None
        return self.pays - self.edge / self.slope


@dataclass(frozen=True, slots=True)
class ReportFigures:
    """Every figure of the report on the game under ``rules``, exact where it can be."""

    rules: Rules
    game: GameResult[Fraction]
    """The game under the rules in force, solved exactly from the full shoe."""
    joint: JointOutcomes
    """The round's joint (main, Bonus) outcome probabilities."""
    volatility: Volatility
    ratios: tuple[RatioRow, ...]
    """The round at each tabulated Bonus ratio."""
    ratio_curve: RatioCurve
    dealer: DealerRows
    sensitivity: tuple[PaySensitivity, ...]
    variants: tuple[Variant, ...]
    """The headline figures of each variant, one rule changed from :attr:`rules`."""
    chart: Chart
    table: TableOfPlayers
    protection: ProtectionStudy
    simulation: SimulationResult


def dealer_rows(rules: Rules) -> DealerRows:
    """The dealer's exact final-result distribution for each Bonus card (full shoe less it)."""
    rows = []
    for c in VALUES:
        shoe = Shoe.full(rules.decks).remove([Card(RANKS[c - 1])])
        rows.append((c, dealer_distribution(rules, c, shoe.value_counts())))
    return rows


def ratio_curve(model: EdgeModel, rules: Rules) -> RatioCurve:
    """The round's house edge (%) at Bonus ratios 1/2 to 2 by 1/40, and at the ratio in force.

    Exact values made floats once, for every drawing of the plot.
    """
    current = rules.bonus_ratio
    ratios = [*(Fraction(n, 40) for n in range(20, 81)), current]
    points = [
        (float(r), float(e) * 100)
        for r, e in zip(ratios, model.round_edges(rules.paytable, ratios), strict=True)
    ]
    return RatioCurve(tuple(points[:-1]), points[-1])


def pay_sensitivity(model: EdgeModel, rules: Rules) -> tuple[PaySensitivity, ...]:
    """The round's edge as a line in each tier's pay, from 0 to twice the pay (at least +2,
    at most the largest pay a paytable may hold)."""
    edge = model.linear(EdgeKind.ROUND, rules.bonus_ratio)  # one main EV for every tier
    now = edge(rules.paytable)
    found = []
    for named, slope in zip(edge.tiers, edge.coefficients, strict=True):
        tier = as_outcome(named.name)
        current = rules.paytable.pay(tier)
        ends = (Fraction(0), min(max(2 * current, current + 2), MAX_PAY))
        low, high = ((x, edge(with_pay(rules.paytable, tier, x))) for x in ends)
        found.append(PaySensitivity(tier, current, slope, now, (low, high)))
    return tuple(found)


def optimal_play(game: GameResult[Fraction]) -> Strategy:
    """The exact solver's optimal decisions, for the simulator to play."""
    return played_strategy("optimal", game.rules, lambda: game)


def report_figures(
    rules: Rules,
    jobs: int = 1,
    cache: GameChartStore | None = None,
    shoe_samples: int | None = None,
    counter_rounds: int | None = None,
    table_rounds: int | None = None,
    simulation_rounds: int | None = None,
) -> ReportFigures:
    """Compute every figure of the report on the game under ``rules``.

    ``shoe_samples`` (shoes solved per depth) and ``counter_rounds`` (rounds per simulated
    counter) size the game-protection study, ``table_rounds`` (table-rounds per number of
    seats) the table of players and ``simulation_rounds`` the simulation cross-check;
    ``None`` takes each one's default. Every size is checked before any work.
    """
    samples, counter = check_sizes(
        SHOE_SAMPLES if shoe_samples is None else shoe_samples,
        COUNTER_ROUNDS if counter_rounds is None else counter_rounds,
    )
    table = check_rounds("table rounds", TABLE_ROUNDS if table_rounds is None else table_rounds)
    simulated = check_rounds(
        "simulation rounds", SIMULATION_ROUNDS if simulation_rounds is None else simulation_rounds
    )
    model = edge_model(rules, jobs, cache)
    game = model.priced(rules.paytable, rules.bonus_ratio)
    variants = solve_variants(one_rule_at_a_time(rules), jobs=jobs, cache=cache)
    chart = stored_chart(model.rules, model.game, cache)
    played = optimal_play(game)  # one decision table for the three simulated studies
    volatility = game.volatility
    if volatility is None:
        raise ReportError("the report needs the suits of every card out of the shoe")
    return ReportFigures(
        rules=rules,
        game=game,
        joint=round_outcomes(game),
        volatility=volatility,
        ratios=ratio_table(round_moments(game), TABULATED_RATIOS),
        ratio_curve=ratio_curve(model, rules),
        dealer=dealer_rows(rules),
        sensitivity=pay_sensitivity(model, rules),
        variants=variants,
        chart=chart,
        table=table_of_players(game.rules, played, SEAT_COUNTS, table, seed=SIMULATION_SEED),
        protection=protection_study(
            rules,
            chart,
            played,
            jobs=jobs,
            cache=cache,
            shoe_samples=samples,
            counter_rounds=counter,
        ),
        simulation=simulate_beside_exact(
            game.rules, played, simulated, lambda: game, seed=SIMULATION_SEED, penetration=None
        ),
    )
