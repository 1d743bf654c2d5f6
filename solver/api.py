"""The library's front door: one function per ``cbj`` command, each returning a result.

Every function takes the rules as ``rules=`` (a :class:`~solver.model.rules.Rules`) or as
keyword options named like the command's (``decks=1``, ``paytable="15:4:1"``), cards as
text (``"As Kd"``) or :class:`~solver.model.cards.Card` values, and returns a frozen
result that carries its rules and whose ``to_json()`` is the document that
``cbj <command> --format json`` prints.  Nothing here touches the disk unless asked:
pass ``cache=`` to reuse solved games, ``output=`` to write a file.

>>> import solver
>>> solver.bonus(decks=6).expected_value
Fraction(-45, 311)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, TypedDict, Unpack, overload

from solver.model.cards import RANKS, VALUES, Card, Shoe, parse_cards, parse_value
from solver.model.errors import (
    BackendError,
    CardError,
    CountError,
    DesignError,
    RulesError,
    SimulationError,
    StrategyError,
)
from solver.model.outcomes import DEFAULT_ROUND_BAND, POLICY_NAMES, BonusOutcome
from solver.model.rules import (
    TABULATED_RATIOS,
    DealerNatural,
    NaturalBeats,
    Paytable,
    RulePreset,
    Rules,
    parse_ratio,
    preset_named,
)

if TYPE_CHECKING:  # the solver is loaded by the functions that need it (pathlib too)
    from pathlib import Path

    from solver.cache import CacheCleared, CacheInfo
    from solver.exact.bonus import BonusResult
    from solver.exact.dealer import DealerResult
    from solver.exact.design import (
        EdgeKind,
        PaySolution,
        SearchResult,
        Variants,
    )
    from solver.exact.game import Advice, GameResult, GameStore, ProgressCallback
    from solver.exact.graph import DecisionGraph
    from solver.exact.policies import StrategiesResult
    from solver.exact.protection import (
        Counts,
        EffectsOfRemoval,
        Tags,
    )
    from solver.exact.shoe_states import ShoeStates
    from solver.exact.strategy import Chart
    from solver.present.files import Written
    from solver.present.seats import TableOfPlayers
    from solver.sim import ExactFigure, SimulationResult
    from solver.sim.counter import Counter

#: Cards as text (``"As 10h K"``) or as values.
Cards = str | Iterable[Card | str]


class RuleOptions(TypedDict, total=False):
    """The rules as keyword options, named like the CLI's; text or values.

    ``preset`` names a set of rules to start from (``casino-edition``, ``vegas-21``);
    the other options override it.
    """

    preset: str | None
    decks: int | str | None
    dealer_stands_on: int | str | None
    blackjack_pays: Fraction | int | str | None
    dealer_natural: DealerNatural | str | None
    natural_beats: NaturalBeats | str | None
    natural_beats_multi_card_21: bool | None
    paytable: Paytable | str | None
    bonus_ratio: Fraction | int | str | None


def make_rules(rules: Rules | None, options: RuleOptions) -> Rules:
    """``rules`` with any options given applied on top (the preset, or the defaults, when
    ``rules`` is None).

    >>> make_rules(None, {"preset": "vegas-21", "decks": "2"}).dealer_natural.value
    'bonus_card'
    """
    given = Rules.from_options(**options)
    if rules is None:
        return given
    if options.get("preset") is not None:
        raise RulesError("give either rules= or a preset, not both")
    changed = {name: getattr(given, name) for name, value in options.items() if value is not None}
    if "natural_beats_multi_card_21" in changed:  # an alias, folded into natural_beats
        del changed["natural_beats_multi_card_21"]
        changed["natural_beats"] = given.natural_beats
    return replace(rules, **changed)


def _cards(cards: Cards) -> tuple[Card, ...]:
    """Cards given as text or as values, parsed."""
    if isinstance(cards, str):
        return parse_cards(cards)
    return tuple(c if isinstance(c, Card) else Card.parse(c) for c in cards)


# --- Small results: the rules, the Bonus wager, the dealer --------------------------------


@dataclass(frozen=True, slots=True)
class RulesResult:
    """The rules in force (``cbj rules``), and the preset they started from if one was named."""

    rules: Rules
    preset: RulePreset | None = None

    def to_json(self) -> dict[str, Any]:
        """The rules as ``cbj rules --format json`` prints them (with the preset's sources)."""
        document: dict[str, Any] = {"rules": self.rules.to_json()}
        if self.preset is not None:
            document["preset"] = self.preset.to_json()
        return document


def rules(*, rules: Rules | None = None, **options: Unpack[RuleOptions]) -> RulesResult:
    """The rules in force, each validated; with ``preset=``, which rules it sets and why.

    >>> rules(decks=1).rules.decks
    1
    >>> rules(preset="vegas-21").preset.rules[-1].name
    'natural_beats'
    """
    named = options.get("preset")
    return RulesResult(make_rules(rules, options), None if named is None else preset_named(named))


def bonus(
    *,
    removed: Cards = (),
    symbolic: bool = False,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> BonusResult:
    """The Bonus wager's exact return table from a full shoe less ``removed`` cards."""
    from solver.exact.bonus import BonusResult, analyse_bonus

    analysis = analyse_bonus(make_rules(rules, options), _cards(removed))
    expression = str(analysis.symbolic_expected_value()) if symbolic else None
    return BonusResult(analysis, expression)


def dealer(
    *,
    bonus: str | int = "all",
    removed: Cards = (),
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> DealerResult:
    """The dealer's final result for the Bonus card ``bonus`` (a value, or ``"all"``)."""
    from solver.exact.dealer import DealerResult, dealer_distribution

    played = make_rules(rules, options)
    cards = _cards(removed)
    shoe = Shoe.full(played.decks).remove(cards)
    if isinstance(bonus, int) and not isinstance(bonus, bool):
        bonuses = [parse_value(str(bonus))]
    elif str(bonus).strip().lower() == "all":
        bonuses = list(VALUES)
    else:
        bonuses = [parse_value(str(bonus))]
    rows = tuple(
        (b, dealer_distribution(played, b, shoe.remove([Card(RANKS[b - 1])]).value_counts()))
        for b in bonuses
    )
    return DealerResult(played, cards, rows)


# --- The game: solve, advise, chart --------------------------------------------------------


@overload
def solve(
    *,
    removed: Cards = ...,
    exact: Literal[True],
    jobs: int = ...,
    cache: GameStore | None = ...,
    progress: ProgressCallback | None = ...,
    rules: Rules | None = ...,
    **options: Unpack[RuleOptions],
) -> GameResult[Fraction]: ...


@overload
def solve(
    *,
    removed: Cards = ...,
    exact: Literal[False] = ...,
    jobs: int = ...,
    cache: GameStore | None = ...,
    progress: ProgressCallback | None = ...,
    rules: Rules | None = ...,
    **options: Unpack[RuleOptions],
) -> GameResult[float]: ...


@overload
def solve(
    *,
    removed: Cards = ...,
    exact: bool = ...,
    jobs: int = ...,
    cache: GameStore | None = ...,
    progress: ProgressCallback | None = ...,
    rules: Rules | None = ...,
    **options: Unpack[RuleOptions],
) -> GameResult[Any]: ...


def solve(
    *,
    removed: Cards = (),
    exact: bool = False,
    jobs: int = 1,
    cache: GameStore | None = None,
    progress: ProgressCallback | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> GameResult[Any]:
    """Optimal play for every hand, the main wager, the Bonus wager and the whole round.

    ``exact=True`` gives every figure as a ``Fraction``; ``jobs`` workers share the Bonus
    card values; ``cache`` (a :class:`~solver.exact.game.GameStore`) reuses earlier solves.
    """
    from solver.exact.game import solve_game

    played = make_rules(rules, options)
    return solve_game(played, _cards(removed), exact, jobs, progress, cache)


def advise(
    *,
    bonus: Card | str,
    hand: Cards,
    seen: Cards = (),
    exact: bool = False,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> Advice[Any]:
    """Stand and hit values for one hand against the Bonus card, and the better choice."""
    from solver.exact.game import advise as advise_hand

    bonus_cards = _cards([bonus] if isinstance(bonus, Card) else bonus)
    if len(bonus_cards) != 1:
        raise CardError(f"the Bonus card is exactly one card, got {bonus!r}")
    played = make_rules(rules, options)
    return advise_hand(played, bonus_cards[0], _cards(hand), _cards(seen), exact=exact)


def chart(
    *, cache: GameStore | None = None, rules: Rules | None = None, **options: Unpack[RuleOptions]
) -> Chart:
    """The best printable hit/stand chart, its exact EV and its cost against perfect play."""
    from solver.exact.game import solve_game
    from solver.exact.strategy import stored_chart

    played = make_rules(rules, options)
    return stored_chart(played, solve_game(played, exact=True, cache=cache), cache)


# --- The simulator ----------------------------------------------------------------------------


def bonus_figure(rules: Rules, removed: Iterable[Card] = ()) -> ExactFigure:
    """The Bonus wager's exact EV and outcome probabilities, for the simulator to meet."""
    from solver.exact.bonus import analyse_bonus
    from solver.sim import ExactFigure

    analysis = analyse_bonus(rules, removed)
    probabilities = {line.outcome.value: line.probability for line in analysis.lines}
    return ExactFigure(analysis.expected_value, probabilities)


def simulate(
    *,
    rounds: int,
    seed: int | None = None,
    seats: int = 1,
    strategy: str = "optimal",
    penetration: float | None = None,
    fresh_shoe: bool = False,
    jobs: int = 1,
    removed: Cards = (),
    counter: str | Mapping[str, int] | None = None,
    spread: str | tuple[int, int] | None = None,
    ramp: str | Sequence[tuple[float, int]] | None = None,
    wong_out: str | float | None = None,
    cache: GameStore | None = None,
    progress: Callable[[int], None] | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> SimulationResult:
    """Deal ``rounds`` rounds with the independent simulator, beside the exact figures.

    The shoe is reshuffled after ``penetration`` of it is dealt (0.75 when not given), or
    every round with ``fresh_shoe``.  ``optimal`` and ``chart`` are played from the exact
    solver's decision tables; their exact main-wager figure (and always the Bonus wager's)
    is attached for the z-scores.  ``counter`` (a system name, ``best-level-1`` to ``3``,
    or tags ``"A=-1,2=1,..."``) seats a card counter at seat 1 who bets by the true count
    within ``spread`` (``"1-8"`` when not given) along ``ramp`` (``"TC:UNITS,..."``), and
    sits out below ``wong_out``.
    """
    from solver.exact.game import solve_game
    from solver.exact.policies import realistic_play
    from solver.exact.strategy import exact_main, strategy_source
    from solver.sim import ExactFigure, parse_strategy
    from solver.sim import simulate as run_simulation
    from solver.sim.run import check_deal
    from solver.sim.strategies import TABLE_STRATEGIES

    if fresh_shoe and penetration is not None:
        raise SimulationError(
            "give a penetration (--penetration) or a fresh shoe (--fresh-shoe), not both"
        )
    if counter is not None and fresh_shoe:
        raise SimulationError(
            "a counter (--counter) needs a shoe dealt to a cut card, not a fresh shoe"
        )
    played = make_rules(rules, options)
    cards = _cards(removed)
    cut = None if fresh_shoe else 0.75 if penetration is None else penetration
    # Bad settings fail before any exact figure is solved.
    check_deal(played, rounds, seed=seed, seats=seats, penetration=cut, jobs=jobs, removed=cards)
    counting = _counter(played, cards, counter, spread, ramp, wong_out, jobs, cache)
    solved: list[GameResult[Fraction]] = []

    def game() -> GameResult[Fraction]:
        if not solved:
            solved.append(solve_game(played, exact=True, cache=cache))
        return solved[0]

    strategy_played = parse_strategy(
        strategy, lambda kind: strategy_source(game(), kind, cache), played.dealer_stands_on
    )
    exact: dict[str, ExactFigure] = {}
    if strategy_played.name in TABLE_STRATEGIES and not cards:
        # A fresh shoe matches this figure exactly; dealing to a cut card approximately.
        kind = "chart" if strategy_played.name == "chart" else "optimal"
        mean, probabilities = exact_main(game(), kind, cache)
        exact["main"] = ExactFigure(mean, probabilities)
    elif not cards:
        # The other named policies are evaluated exactly too (solver.exact.policies).
        policy = realistic_play(played, [strategy_played.name], game(), cache).policies[0]
        outcomes = {k: Fraction(p) for k, p in policy.game.outcomes.items()}
        exact["main"] = ExactFigure(policy.main_ev, outcomes)
    if all(c.suit is not None for c in cards):  # else the simulator refuses the shoe
        exact["bonus"] = bonus_figure(played, cards)
    return run_simulation(
        played,
        strategy_played,
        rounds,
        seed=seed,
        seats=seats,
        penetration=cut,
        jobs=jobs,
        removed=cards,
        exact=exact,
        progress=progress,
        counter=counting,
    )


def _counter(
    played: Rules,
    removed: tuple[Card, ...],
    name: str | Mapping[str, int] | None,
    spread: str | tuple[int, int] | None,
    ramp: str | Sequence[tuple[float, int]] | None,
    wong_out: str | float | None,
    jobs: int,
    cache: GameStore | None,
) -> Counter | None:
    """The simulated counter asked for; a best count is found from the shoe's exact EORs."""
    from solver.model.counts import count_tags
    from solver.sim.counter import Counter, parse_bets

    if name is None:
        for option, value in (("--spread", spread), ("--ramp", ramp), ("--wong-out", wong_out)):
            if value is not None:
                raise CountError(f"{option} is for a card counter: give --counter too")
        return None
    bets = parse_bets("1-8" if spread is None else spread, ramp, wong_out)
    if not isinstance(name, str):
        label, tags = count_tags(",".join(f"{r}={t}" for r, t in name.items()))
    elif best := re.fullmatch(r"\s*best-level-([123])\s*", name.lower()):
        from solver.exact.protection import best_count

        effects = _effects(played, tuple(removed), False, jobs, cache)
        label = f"best-level-{best.group(1)}"
        tags = best_count(effects.effects["round"], int(best.group(1)))
    elif "=" in name:
        label, tags = count_tags(name)
    else:
        try:
            label, tags = count_tags(name)
        except CountError as error:
            raise CountError(f"{error}, best-level-1 to 3, or tags 'A=-1,2=1,...'") from None
    return Counter(label, tags, *bets)


# --- Realistic play, the Bonus ratio and volatility -----------------------------------------


def strategies(
    *,
    names: Sequence[str] | str = POLICY_NAMES,
    bonus_ratios: Sequence[Fraction | int | str] | str = TABULATED_RATIOS,
    removed: Cards = (),
    jobs: int = 1,
    cache: GameStore | None = None,
    progress: ProgressCallback | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> StrategiesResult:
    """Exact main EV, round EV, round house edge and cost against optimal play of each policy.

    ``names`` lists the policies (``optimal``, ``chart``, ``stand-on:K``, ``never-bust``,
    ``mimic-dealer``, ``always-stand``; text is a comma list).  The result also carries
    optimal play's round at each of ``bonus_ratios`` (each at least 1/2) and its
    volatility at the rules' ratio.  ``removed`` cards are out of the shoe (with suits).
    """
    from solver.exact.game import solve_game
    from solver.exact.policies import realistic_play, simple_policy
    from solver.exact.ratios import ratio_table, round_moments, volatility
    from solver.exact.volatility import check_ratio, parse_ratios
    from solver.sim.strategies import TABLE_STRATEGIES

    played = make_rules(rules, options)
    listed = names.split(",") if isinstance(names, str) else list(names)
    if not listed or any(not n.strip() for n in listed):
        raise StrategyError(f"strategies {names!r}: give names separated by commas")
    ratios = (
        parse_ratios(bonus_ratios)
        if isinstance(bonus_ratios, str)
        else tuple(check_ratio(r) for r in bonus_ratios)
    )
    for name in listed:  # refuse unknown names before the long solve
        if name.strip().lower() not in TABLE_STRATEGIES:
            simple_policy(name, played)
    game = solve_game(played, _cards(removed), True, jobs, progress, cache)
    result = realistic_play(played, listed, game, cache)
    moments = round_moments(game)
    return replace(
        result,
        ratios=ratio_table(moments, ratios),
        volatility=volatility(moments, played.bonus_ratio),
    )


def seats(
    *,
    seats: Sequence[int] | str = "1-7",
    rounds: int | None = None,
    seed: int | None = None,
    strategy: str = "optimal",
    jobs: int = 1,
    cache: GameStore | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> TableOfPlayers:
    """The casino's hold per table-round and its SD with each number of seats (1 to 7).

    ``seats`` is a list or text (``"1-7"``, ``"1,3,5"``).  The Bonus wager's figures are
    exact; the main wager's and the round's are simulated, ``rounds`` table-rounds per
    number of seats (200,000 when not given), every seat playing ``strategy`` (a name as
    for :func:`simulate`) from a fresh shoe each round.
    """
    from solver.exact.game import solve_game
    from solver.exact.seats import parse_seat_counts
    from solver.exact.strategy import strategy_source
    from solver.present.seats import DEFAULT_ROUNDS, check_run, table_of_players
    from solver.sim import parse_strategy

    played = make_rules(rules, options)
    counts = parse_seat_counts(seats) if isinstance(seats, str) else tuple(seats)
    if not counts:
        raise SimulationError("seats is empty: give numbers of seats from 1 to 7, e.g. 1-7")
    chosen = DEFAULT_ROUNDS if rounds is None else rounds
    check_run(chosen, seed)  # before the solve that optimal and chart play need
    policy = parse_strategy(
        strategy,
        lambda kind: strategy_source(solve_game(played, exact=True, cache=cache), kind, cache),
        played.dealer_stands_on,
    )
    return table_of_players(played, policy, counts, chosen, seed=seed, jobs=jobs)


# --- Designing the game: paytables and rule variants ---------------------------------------------


def _edge_target(
    bonus_edge: str | Fraction | None, round_edge: str | Fraction | None, what: str
) -> tuple[EdgeKind, str | Fraction]:
    """The one of a (Bonus edge, round edge) pair that was given."""
    from solver.exact.design import EdgeKind

    given = [(k, v) for k, v in ((EdgeKind.BONUS, bonus_edge), (EdgeKind.ROUND, round_edge)) if v]
    if len(given) != 1:
        raise DesignError(f"give exactly one {what}: a bonus edge or a round edge")
    return given[0]


def paytable_solve(
    *,
    solve_for: BonusOutcome | str,
    suited_match: Fraction | int | str | None = None,
    rank_match: Fraction | int | str | None = None,
    adjacent: Fraction | int | str | None = None,
    target_bonus_edge: Fraction | str | None = None,
    target_round_edge: Fraction | str | None = None,
    cache: GameStore | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> PaySolution:
    """The exact pay of tier ``solve_for`` that gives the target house edge."""
    from solver.exact.design import (
        PAY_TIERS,
        edge_model,
        parse_edge,
        parse_pay,
        solve_pay,
        with_pay,
    )

    tiers = {t.value: t for t in PAY_TIERS}
    tier = tiers.get(str(solve_for))
    if tier is None:
        raise DesignError(f"cannot solve for {str(solve_for)!r}: use one of {', '.join(tiers)}")
    kind, target = _edge_target(target_bonus_edge, target_round_edge, "target")
    played = make_rules(rules, options)
    given = {
        BonusOutcome.SUITED_MATCH: suited_match,
        BonusOutcome.RANK_MATCH: rank_match,
        BonusOutcome.ADJACENT: adjacent,
    }
    if given[tier] is not None:
        raise DesignError(f"{tier.value} is the pay being solved for: leave it out")
    table = played.paytable
    for t, pay in given.items():
        if pay is not None:
            table = with_pay(table, t, parse_pay(str(pay), t))
    edge = target if isinstance(target, Fraction) else parse_edge(target, "target")
    model = edge_model(played, cache=cache)
    return solve_pay(model, tier, kind, edge, table, played.bonus_ratio)


def paytable_search(
    *,
    round_edge_range: str | None = None,
    bonus_edge_range: str | None = None,
    max_pay: int = 50,
    top: int = 10,
    cache: GameStore | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> SearchResult:
    """Whole-unit paytables whose house edge lies in a band, closest to its middle first."""
    from solver.exact.design import edge_model, parse_band, search_paytables

    if round_edge_range is None and bonus_edge_range is None:
        round_edge_range = DEFAULT_ROUND_BAND
    kind, band = _edge_target(bonus_edge_range, round_edge_range, "edge range")
    played = make_rules(rules, options)
    model = edge_model(played, cache=cache)
    return search_paytables(model, kind, parse_band(str(band)), played.bonus_ratio, max_pay, top)


def _listed(values: Sequence[Any] | str, parse: Callable[[str], Any], what: str) -> tuple[Any, ...]:
    """A comma-separated text or a sequence of values, each parsed."""
    if not isinstance(values, str):
        return tuple(parse(str(v)) if isinstance(v, str) else v for v in values)
    if not values.strip():
        return ()
    items = [item.strip() for item in values.split(",")]
    if not all(items):
        raise RulesError(f"{what} {values!r} has an empty item: separate values with commas")
    return tuple(parse(item) for item in items)


def _whole(what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        digits = text.strip().lstrip("+-")
        if not (digits.isascii() and digits.isdigit()) or len(text) > 6:
            raise RulesError(f"{what} {text!r} is not a whole number")
        return int(text)

    return parse


def _natural(text: str) -> DealerNatural:
    try:
        return DealerNatural(text)
    except ValueError:
        choices = ", ".join(d.value for d in DealerNatural)
        raise RulesError(f"dealer natural {text!r} is unknown: use one of {choices}") from None


def variants(
    *,
    decks: Sequence[int | str] | str = (),
    dealer_stands_on: Sequence[int | str] | str = (),
    blackjack_pays: Sequence[Fraction | str] | str = (),
    dealer_natural: Sequence[DealerNatural | str] | str = (),
    exact: bool = False,
    jobs: int = 1,
    cache: GameStore | None = None,
    progress: ProgressCallback | None = None,
    rules: Rules | None = None,
    preset: str | None = None,
    natural_beats: NaturalBeats | str | None = None,
    natural_beats_multi_card_21: bool | None = None,
    paytable: Paytable | str | None = None,
    bonus_ratio: Fraction | int | str | None = None,
) -> Variants:
    """Main EV, Bonus EV and round edge for every combination of the rule values listed."""
    from solver.exact.design import Variants, solve_variants, variant_rules

    base = make_rules(
        rules,
        RuleOptions(
            preset=preset,
            natural_beats=natural_beats,
            natural_beats_multi_card_21=natural_beats_multi_card_21,
            paytable=paytable,
            bonus_ratio=bonus_ratio,
        ),
    )
    combinations = variant_rules(
        base,
        decks=_listed(decks, _whole("decks"), "decks"),
        dealer_stands_on=_listed(dealer_stands_on, _whole("dealer stands on"), "totals"),
        blackjack_pays=_listed(blackjack_pays, lambda t: parse_ratio(t, "blackjack pays"), "pays"),
        dealer_natural=_listed(dealer_natural, _natural, "naturals"),
    )
    found = solve_variants(combinations, exact=exact, jobs=jobs, progress=progress, cache=cache)
    return Variants(base, found)


# --- Files: the strategy tables and the report ----------------------------------------------------


def tables(
    output_dir: str | Path = "strategy_tables",
    *,
    cache: GameStore | None = None,
    progress: ProgressCallback | None = None,
) -> Written:
    """Write the ``strategy_tables/`` collection: every variant's chart in every format.

    The folder is checked first (it must be new, empty or a collection already), built
    aside and swapped in whole, so an interrupted run leaves the old collection intact.
    """
    from solver.exact.game import solve_game
    from solver.exact.strategy import stored_chart
    from solver.present.collection import VARIANTS, is_collection, write_collection
    from solver.present.files import Written, check_output_dir, folder_swap

    target = check_output_dir(str(output_dir), is_collection)
    charts = [
        stored_chart(v.rules, solve_game(v.rules, exact=True, cache=cache), cache) for v in VARIANTS
    ]
    with folder_swap(target) as building:
        built = write_collection(building, charts, progress=progress)
    paths = tuple(target / path.relative_to(building) for path in built)
    return Written(Rules(), paths, tuple(charts))


def graph(
    output: str | Path | None = None,
    *,
    bonus: Card | str,
    hand: Cards = (),
    exact: bool = False,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> Written | DecisionGraph:
    """The player's decision graph against ``bonus``, from ``hand`` or every first card.

    Written to ``output`` (``.graphml``, ``.gexf``, ``.dot``, or a picture: ``.svg``,
    ``.png``, ``.pdf``) when given; else the graph itself, whose ``to_json()`` lists it.
    """
    from pathlib import Path

    from solver.exact.graph import decision_graph
    from solver.present.files import Written, check_writable, write_atomic
    from solver.present.graph import graph_format, render_graph

    bonus_cards = _cards([bonus] if isinstance(bonus, Card) else bonus)
    if len(bonus_cards) != 1:
        raise CardError(f"the Bonus card is exactly one card, got {bonus!r}")
    if isinstance(hand, str) and not hand.strip():
        raise CardError("the hand is empty: give cards, e.g. '9 3', or leave it out for all")
    fmt = graph_format(Path(output)) if output is not None else None
    if output is not None:
        check_writable(Path(output))
    played = make_rules(rules, options)
    result = decision_graph(played, bonus_cards[0], _cards(hand), exact=exact)
    if output is None or fmt is None:
        return result
    write_atomic(Path(output), render_graph(result, fmt))
    return Written(played, (Path(output),))


def report(
    output: str | Path | None = None,
    *,
    format: str | None = None,
    jobs: int = 1,
    shoe_samples: int | None = None,
    counter_rounds: int | None = None,
    table_rounds: int | None = None,
    simulation_rounds: int | None = None,
    cache: GameStore | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> Written | str | bytes:
    """A PAR-style report of the game.

    Written to ``output`` (HTML or PDF, as ``format`` or the extension says; the path is
    checked before any work), else returned: HTML text, or PDF bytes if ``format="pdf"``.
    ``shoe_samples`` (shoes solved per depth) and ``counter_rounds`` (rounds per
    simulated counter) size the game-protection section, ``table_rounds`` (table-rounds
    per number of seats) the table of players and ``simulation_rounds`` the simulation
    cross-check (``None``: each one's default).
    """
    from pathlib import Path

    from solver.present.files import Written, choose_format
    from solver.present.report import (
        REPORT_FORMATS,
        build_report,
        check_report_path,
        render_html,
        render_pdf,
        write_report,
    )

    played = make_rules(rules, options)
    if output is not None:
        chosen = check_report_path(Path(output), format)
    else:
        chosen = choose_format(None, format, REPORT_FORMATS, "html")
    document = build_report(
        played,
        jobs=jobs,
        cache=cache,
        shoe_samples=shoe_samples,
        counter_rounds=counter_rounds,
        table_rounds=table_rounds,
        simulation_rounds=simulation_rounds,
    )
    if output is None:
        return render_pdf(document) if chosen == "pdf" else render_html(document)
    return Written(played, (write_report(document, Path(output), chosen),))


def cache_info(
    directory: str | Path | None = None, *, warn: Callable[[str], None] | None = None
) -> CacheInfo:
    """Where the disk cache is, its size on disk, its entries and its size cap."""
    from solver.cache import Cache

    return Cache(directory, warn=warn).info()


def cache_clear(
    directory: str | Path | None = None, *, warn: Callable[[str], None] | None = None
) -> CacheCleared:
    """Delete every entry of the disk cache."""
    from solver.cache import Cache, CacheCleared

    cache = Cache(directory, warn=warn)
    return CacheCleared(cache.directory, cache.clear())


# --- Game protection: effects of removal and counts ----------------------------------------------


def eor(
    *,
    removed: Cards = (),
    exact: bool = False,
    jobs: int = 1,
    cache: GameStore | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> EffectsOfRemoval[Any]:
    """The exact change in each wager's EV when one card of each rank leaves the shoe."""
    played = make_rules(rules, options)
    return _effects(played, _cards(removed), exact, jobs, cache)


def count(
    *,
    tags: str | Mapping[str, int] | None = None,
    system: str | None = None,
    removed: Cards = (),
    exact: bool = False,
    jobs: int = 1,
    cache: GameStore | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> Counts:
    """Betting correlation and EV per true count of a count (or of the usual ones and the best).

    Give ``tags`` (``"A=-1,2=1,..."`` or a mapping by rank) or a ``system`` name, or neither
    for Hi-Lo, KO, Hi-Opt I, Omega II and the best counts of level 1, 2 and 3.
    """
    from solver.exact.protection import judge_counts

    chosen = _chosen_count(tags, system)
    played = make_rules(rules, options)
    return judge_counts(_effects(played, _cards(removed), exact, jobs, cache), chosen)


def _effects(
    rules: Rules, removed: tuple[Card, ...], exact: bool, jobs: int, cache: GameStore | None
) -> EffectsOfRemoval[Any]:
    """:func:`~solver.exact.protection.effects_of_removal`, kept in ``cache`` when that is a
    :class:`~solver.cache.MemoryCache` (``count`` after ``eor`` finds them once)."""
    from solver.cache import MemoryCache
    from solver.exact.protection import effects_of_removal

    def compute() -> EffectsOfRemoval[Any]:
        return effects_of_removal(rules, removed, exact=exact, jobs=jobs, cache=cache)

    if isinstance(cache, MemoryCache):
        return cache.effects_of_removal(rules, removed, exact, compute)
    return compute()


def _chosen_count(
    tags: str | Mapping[str, int] | None, system: str | None
) -> dict[str, Tags] | None:
    """The count named by ``system`` or given as ``tags`` (text or a mapping), if either."""
    from solver.exact.protection import parse_tags, system_tags

    if tags is not None and system is not None:
        raise CountError("give tags (--tags) or a system (--system), not both")
    if system is not None:
        return {system.strip().lower(): system_tags(system)}
    if tags is not None:
        text = tags if isinstance(tags, str) else ",".join(f"{r}={t}" for r, t in tags.items())
        return {"tags": parse_tags(text)}
    return None


def shoe_states(
    *,
    samples: int,
    depths: str | Sequence[float | str] = "0.25,0.5,0.75,0.83",
    seed: int | None = None,
    system: str | None = None,
    tags: str | Mapping[str, int] | None = None,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    cache: GameStore | None = None,
    progress: ProgressCallback | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> ShoeStates:
    """Deal ``samples`` random shoes to each depth, solve each, and summarise what they do.

    Per depth: the spread of the round's and the main wager's EV, the fit of the round EV
    on the true count of ``system`` (or ``tags``; Hi-Lo when neither) and the error of
    the linear EOR estimate.  ``seed`` (a fresh one, reported, when ``None``) fixes every
    state whatever ``jobs`` or ``backend``: ``local`` (``jobs`` processes) or ``dask``
    (the cluster at ``scheduler``, else ``$DASK_SCHEDULER_ADDRESS``).  ``cache`` only
    keeps the full shoe's solves behind the EORs.
    """
    from solver.exact.protection import round_effects, system_tags
    from solver.exact.shoe_states import (
        cards_dealt,
        check_samples,
        check_seed,
        new_seed,
        parse_depths,
        study_shoe_states,
    )
    from solver.model.parallel import check_jobs, scheduler_address

    chosen = _chosen_count(tags, system) or {"hi-lo": system_tags("hi-lo")}
    ((name, tagged),) = chosen.items()
    played = make_rules(rules, options)
    parsed = parse_depths(depths)
    for depth in parsed:  # refused before the solves, not after
        cards_dealt(played, depth)
    check_samples(samples)
    seed = new_seed() if seed is None else check_seed(seed)
    if backend not in ("local", "dask"):
        raise BackendError(f"backend {backend!r} is unknown: use local or dask")
    check_jobs(jobs)
    if backend == "dask":
        scheduler = scheduler_address(scheduler)
    effects = round_effects(played, jobs=1 if backend == "dask" else jobs, cache=cache)
    return study_shoe_states(
        effects,
        parsed,
        samples,
        seed,
        name,
        tagged,
        jobs=jobs,
        backend="dask" if backend == "dask" else "processes",
        scheduler=scheduler,
        progress=progress,
    )
