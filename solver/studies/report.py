"""Every figure the report shows, computed once: :func:`report_figures`.

The exact solves (the game, its paytable lines, the rule variants, the chart, the dealer),
the table of players, the game-protection study and the simulation cross-check run here;
:mod:`solver.present.report` only lays the :class:`ReportFigures` out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from solver.exact.chart import stored_chart
from solver.exact.dealer import dealer_distribution
from solver.exact.game import round_outcomes, solve_game
from solver.exact.paytable import (
    EdgeModel,
    edge_model,
    one_rule_at_a_time,
    solve_variants,
    with_pay,
)
from solver.exact.protection import chart_expected_value
from solver.exact.ratios import ratio_table, round_moments
from solver.exact.seats import SEAT_COUNTS
from solver.exact.strategies import realistic_play, simple_policy
from solver.exact.volatility import game_volatility
from solver.model.cards import RANKS, VALUES, Card, Shoe, parse_cards
from solver.model.catalogue import SIMULATION_ROUNDS_DEFAULT, TABLE_ROUNDS_DEFAULT
from solver.model.counts import LABELS
from solver.model.errors import ReportError
from solver.model.outcomes import as_outcome
from solver.model.paytable import MAX_PAY, Paytable
from solver.model.readers import PAYTABLE_LETTERS
from solver.model.rules import TABULATED_RATIOS, Rules
from solver.results.charts import Chart
from solver.results.game import GameResult, JointOutcomes
from solver.results.kinds import Key, Kind, Store
from solver.results.paytable import VARIANTS, EdgeKind
from solver.results.protection import PROTECTION, EffectsOfRemoval
from solver.results.report import (
    DealerRows,
    Invariant,
    LetteredGame,
    PaySensitivity,
    PlayerStrategy,
    RatioCurve,
    ReportFigures,
)
from solver.results.seats import TABLE_OF_PLAYERS
from solver.results.simulation import SIMULATION, ChiSquare, SimulationResult
from solver.sim import Strategy
from solver.sim.strategies import TABLE_STRATEGIES
from solver.studies.protection import (
    COUNTER_ROUNDS,
    SHOE_SAMPLES,
    check_sizes,
    protection_settings,
    protection_study,
)
from solver.studies.seats import table_of_players
from solver.studies.seeded import SeededDeal
from solver.studies.simulation import exact_figures, played_strategy
from solver.studies.sizes import check_rounds
from solver.studies.verification import (
    SMALL_SHOE,
    bonus_return_by_suit,
    brute_force_main_ev,
    small_shoe_removed,
    worked_examples,
)

#: Rounds the simulator deals for the cross-check (twice: a fresh shoe every round, and a
#: shoe dealt to a cut card), unless asked otherwise, and its seed: ten million rounds put
#: the round's house edge within about \u00b10.05 percentage points at 95%, enough to see a
#: wrong figure of the exact solver or a cut-card effect of that size. Measured: about 20 s
#: (fresh shoe) and 35 s (cut card) of wall time with one worker on the project's shared
#: two-core machine (docs/designer.md); the disk store keeps both for the next report.
SIMULATION_ROUNDS = SIMULATION_ROUNDS_DEFAULT
SIMULATION_SEED = 20_261_129
#: The share of the shoe dealt before the cut card comes out, in the cut-card run.
CUT_PENETRATION = 0.75
#: The realistic strategy the report sets beside perfect play and the printed chart.
REALISTIC_STRATEGY = "mimic-dealer"
#: The letters of the paytables of one report, in order.
LETTERS = PAYTABLE_LETTERS
#: Table-rounds the simulator deals for each number of seats in the table of players,
#: unless asked otherwise: the per-run cost dominates at this size, and the intervals stay
#: a few hundredths wide.
TABLE_ROUNDS = TABLE_ROUNDS_DEFAULT

T = TypeVar("T")


def verify_strategy(player: PlayerStrategy, rules: Rules) -> None:
    """Refuse an unknown strategy name (one line naming the valid ones) before any work."""
    if player.chart is None and player.key not in TABLE_STRATEGIES:
        simple_policy(player.name, rules)


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


def invariants(
    game: GameResult[Fraction],
    joint: JointOutcomes,
    chart: Chart,
    eor: EffectsOfRemoval[Any],
    cache: Store | None = None,
) -> tuple[Invariant, ...]:
    """The checks the report makes as it is built, each with what it found.

    Probabilities sum to exactly 1; a fixed strategy's (the chart's) EORs weighted by the
    cards of each rank sum to 0 (exactly on the small shoe, to rounding on the full one);
    the Bonus return is the same whatever the suit of the player's card; the brute-force
    twin meets the exact solver on a small shoe.
    """
    rules, bonus = game.rules, game.bonus
    checks = []
    main_sum = sum((Fraction(p) for p in game.outcomes.values()), Fraction(0))
    bonus_sum = sum((ln.probability for ln in bonus.lines), Fraction(0)) if bonus else None
    joint_sum = sum((Fraction(p) for p in joint.values()), Fraction(0))
    checks.append(
        Invariant(
            "Probabilities sum to exactly 1 (main wager, Bonus wager, whole round)",
            f"{main_sum}, {bonus_sum}, {joint_sum}",
            main_sum == bonus_sum == joint_sum == 1,
        )
    )
    exact_sum, float_sum = chart_eor_sums(rules, chart, eor, cache)
    checks.append(
        Invariant(
            "The chart's EORs weighted by the cards of each rank sum to 0",
            f"exactly {exact_sum} on the small shoe; {float_sum:.1e} on the full shoe "
            "(floating point)",
            exact_sum == 0 and abs(float_sum) < 1e-9,
        )
    )
    by_suit = bonus_return_by_suit(rules)
    checks.append(
        Invariant(
            "The Bonus return is the same whatever the suit of the player's card",
            ", ".join(f"{suit}: {value}" for suit, value in by_suit.items()),
            len(set(by_suit.values())) == 1
            and bonus is not None
            and next(iter(by_suit.values())) == bonus.expected_value,
        )
    )
    removed = small_shoe_removed(rules.decks)
    small = Shoe.full(rules.decks).remove(removed).value_counts()
    twin = brute_force_main_ev(rules, small)
    solver = Fraction(solve_game(rules, removed, exact=True, cache=cache).expected_value)
    checks.append(
        Invariant(
            f"The brute-force twin agrees with the exact solver on a small shoe ({SMALL_SHOE})",
            f"main wager EV {twin} (every card order) and {solver} (exact solver)",
            twin == solver,
        )
    )
    return tuple(checks)


def chart_eor_sums(
    rules: Rules, chart: Chart, eor: EffectsOfRemoval[Any], cache: Store | None = None
) -> tuple[Fraction, float]:
    """The chart's EORs weighted by the cards of each rank: exact on the small shoe, and
    the report's floating-point EORs on the full shoe."""
    removed = small_shoe_removed(rules.decks)
    small = Shoe.full(rules.decks).remove(removed)
    base = solve_game(rules, removed, exact=True, cache=cache)
    base_ev = Fraction(chart_expected_value(chart, base))
    exact_sum = Fraction(0)
    for card in dict.fromkeys(parse_cards(SMALL_SHOE)):
        copies = small.count(card.rank, card.suit) if card.suit else 0
        after = solve_game(rules, (*removed, card), exact=True, cache=cache)
        exact_sum += copies * (Fraction(chart_expected_value(chart, after)) - base_ev)
    full = Shoe.full(rules.decks).rank_counts()
    float_sum = sum(
        n * float(eor.effects["main_chart"][label]) for n, label in zip(full, LABELS, strict=True)
    )
    return exact_sum, float_sum


def return_table_test(result: SimulationResult, joint: JointOutcomes) -> ChiSquare:
    """Pearson's chi-square of the simulated round's outcomes against the exact return table."""
    expected = {f"{k}/{b}": Fraction(p) for (k, b), p in joint.items()}
    return ChiSquare.test(result.overall["round"].frequencies, expected)


def cross_check(
    game: GameResult[Fraction],
    played: Strategy,
    rounds: int,
    penetration: float | None,
    jobs: int,
    cache: Store | None = None,
) -> SimulationResult:
    """The simulator playing ``played`` beside ``game``'s exact figures, from a store when it
    keeps simulations: the counts depend on the rules, the play, the rounds, the seed and
    the shoe, never on ``jobs`` (seeded chunks)."""
    run = SeededDeal(played, rounds, SIMULATION_SEED, penetration)

    def compute() -> SimulationResult:
        return run.deal(game.rules, jobs, exact=exact_figures(game.rules, played, lambda: game))

    key = Key(game.rules, settings=run.settings)
    return compute() if cache is None else cache.fetch(SIMULATION, key, compute)


#: How many paytables a report sets beside the one in force when none is given.
NEAREST_PAYTABLES = 2


def nearest_paytables(
    model: EdgeModel, rules: Rules, count: int = NEAREST_PAYTABLES
) -> tuple[tuple[Paytable, ...], str]:
    """The paytables a report compares with the one in force when it is given none, and how
    they were chosen, in words for the report's caption.

    The candidates are the nearest whole-number paytables: one tier's pay one unit up or
    down (each pay still at most the one before it, and at least 1). Those whose round house
    edge lies in the same whole-percent band as the paytable in force come first, closest
    in edge first; the rest fill up to ``count``.
    """
    paytable, ratio = rules.paytable, rules.bonus_ratio
    edge = model.edge(EdgeKind.ROUND, paytable, ratio)
    band = math.floor(edge * 100)
    pays = paytable.pays
    found: dict[Paytable, Fraction] = {}
    for i, tier in enumerate(paytable.tiers):
        for step in (-1, 1):
            pay = pays[i] + step
            above = pays[i - 1] if i else MAX_PAY
            below = pays[i + 1] if i + 1 < len(pays) else 1
            if pay.denominator != 1 or not below <= pay <= above:
                continue
            other = paytable.with_pay(tier.name, pay)
            found[other] = model.edge(EdgeKind.ROUND, other, ratio)
    ranked = sorted(
        found, key=lambda t: (math.floor(found[t] * 100) != band, abs(found[t] - edge), str(t))
    )
    chosen = tuple(ranked[:count])
    same = sum(math.floor(found[t] * 100) == band for t in chosen)
    words = (
        f" The report chose {', '.join(str(t) for t in chosen)} itself: the nearest "
        "whole-number paytables (one pay one unit up or down)"
        + (
            f" whose round house edge lies in the same band as the paytable in force, "
            f"{band}% to {band + 1}%"
            if same == len(chosen)
            else f", those in the band of the paytable in force ({band}% to {band + 1}%) first"
        )
        + "; --paytable names others."
    )
    return chosen, words if chosen else ""


def kept(cache: Store | None, kind: Kind[T], key: Key, compute: Callable[[], T]) -> T:
    """The study of ``kind`` under ``key`` from ``cache``, else ``compute()`` (then kept
    there): a second report of the same game reruns none of its studies."""
    return compute() if cache is None else cache.fetch(kind, key, compute)


#: The steps of :func:`report_figures`, for its progress callback.
STEPS = (
    "solving the game",
    "rule variants",
    "the chart",
    "paytables and strategies",
    "worked examples and invariants",
    "table of players",
    "game protection",
    "simulation, fresh shoe",
    "simulation, cut card",
)
#: Called with (steps done, steps in all) as each step of :data:`STEPS` finishes.
StepProgress = Callable[[int, int], None]


def report_figures(
    rules: Rules,
    jobs: int = 1,
    cache: Store | None = None,
    shoe_samples: int | None = None,
    counter_rounds: int | None = None,
    table_rounds: int | None = None,
    simulation_rounds: int | None = None,
    paytables: Sequence[Paytable] = (),
    progress: StepProgress | None = None,
    strategy: PlayerStrategy | None = None,
) -> ReportFigures:
    """Compute every figure of the report on the game under ``rules``.

    ``shoe_samples`` (shoes solved per depth) and ``counter_rounds`` (rounds per simulated
    counter) size the game-protection study, ``table_rounds`` (table-rounds per number of
    seats) the table of players and ``simulation_rounds`` the simulation cross-check;
    ``None`` takes each one's default. Every size is checked before any work.
    ``paytables`` are further paytables (B, C, ...) set beside the rules' own (A).
    ``strategy`` is the player's, set beside perfect play, the printed chart and realistic
    play, and played in the volatility section (``None``: perfect play).
    """
    if len(paytables) + 1 > len(LETTERS):
        raise ReportError(f"a report compares at most {len(LETTERS)} paytables")
    player = strategy or PlayerStrategy()
    verify_strategy(player, rules)
    done = [0]

    def step() -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0], len(STEPS))

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
    step()
    # The variants and the protection study are kept whole, so their float games are not
    # stored one by one: storing one costs about three times its solve.
    variants = kept(
        cache,
        VARIANTS,
        Key(rules, exact=True),
        lambda: solve_variants(one_rule_at_a_time(rules), jobs=jobs),
    )
    step()
    chart = stored_chart(model.rules, model.game, cache)
    step()
    played = optimal_play(game)  # one decision table for the three simulated studies
    chosen = ""
    if not paytables and rules.paytable.standard:
        paytables, chosen = nearest_paytables(model, rules)
    lettered = (
        LetteredGame("A", game),
        *(
            LetteredGame(letter, model.priced(paytable, rules.bonus_ratio))
            for letter, paytable in zip(LETTERS[1:], paytables, strict=False)
        ),
    )
    charts = {} if player.chart is None else {player.key: player.chart}
    names = ("optimal", "chart", REALISTIC_STRATEGY, player.key)
    strategies = realistic_play(game.rules, names, game, cache, charts)
    played_game = next(p.game for p in strategies.policies if p.name == player.key)
    volatility = game_volatility(game if player.perfect else played_game)
    if volatility is None:
        raise ReportError("the report needs the suits of every card out of the shoe")
    step()
    joint = round_outcomes(game)
    examples = worked_examples(game.rules)
    step()
    deal = SeededDeal(played, table, SIMULATION_SEED, None)
    table_of = kept(
        cache,
        TABLE_OF_PLAYERS,
        Key(game.rules, exact=True, settings={**deal.settings, "seats": SEAT_COUNTS}),
        lambda: table_of_players(game.rules, played, SEAT_COUNTS, table, seed=SIMULATION_SEED),
    )
    step()
    protection = kept(
        cache,
        PROTECTION,
        Key(rules, exact=True, settings=protection_settings(played, samples, counter)),
        lambda: protection_study(
            rules,
            chart,
            played,
            counting=played_strategy("chart", game.rules, lambda: game, cache, chart),
            jobs=jobs,
            shoe_samples=samples,
            counter_rounds=counter,
        ),
    )
    checks = invariants(game, joint, chart, protection.eor, cache)
    step()
    fresh = cross_check(game, played, simulated, None, jobs, cache)
    step()
    cut = cross_check(game, played, simulated, CUT_PENETRATION, jobs, cache)
    step()
    sizes = (
        ("shoe_samples", samples),
        ("counter_rounds", counter),
        ("table_rounds", table),
        ("simulation_rounds", simulated),
    )
    return ReportFigures(
        rules=rules,
        game=game,
        joint=joint,
        volatility=volatility,
        ratios=ratio_table(round_moments(game), TABULATED_RATIOS),
        ratio_curve=ratio_curve(model, rules),
        dealer=dealer_rows(rules),
        sensitivity=pay_sensitivity(model, rules),
        variants=variants,
        chart=chart,
        table=table_of,
        protection=protection,
        simulation=fresh,
        cut_card=cut,
        paytables=lettered,
        paytables_chosen=chosen,
        strategies=strategies.policies,
        examples=examples,
        invariants=checks,
        return_table_test=return_table_test(fresh, joint),
        sizes=sizes,
        strategy=player,
    )
