"""Designing the game: ``cbj paytable solve``, ``cbj paytable search`` and ``cbj variants``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Unpack

from solver.api.rules import RuleOptions, make_rules
from solver.exact.game import GameStore, ProgressCallback
from solver.exact.paytable import (
    EdgeKind,
    PaySolution,
    SearchResult,
    Variants,
    edge_model,
    parse_band,
    parse_edge,
    parse_pay,
    search_paytables,
    solve_pay,
    solve_variants,
    variant_rules,
    with_pay,
)
from solver.model.errors import DesignError, RulesError
from solver.model.outcomes import DEFAULT_ROUND_BAND, PAY_TIERS, BonusOutcome
from solver.model.rules import (
    DealerBonus,
    DealerNatural,
    NaturalBeats,
    Paytable,
    Rules,
    parse_ratio,
)


def _edge_target(
    bonus_edge: str | Fraction | None, round_edge: str | Fraction | None, what: str
) -> tuple[EdgeKind, str | Fraction]:
    """The one of a (Bonus edge, round edge) pair that was given."""
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
    dealer_bonus: DealerBonus | str | None = None,
    natural_beats: NaturalBeats | str | None = None,
    natural_beats_multi_card_21: bool | None = None,
    paytable: Paytable | str | None = None,
    bonus_ratio: Fraction | int | str | None = None,
) -> Variants:
    """Main EV, Bonus EV and round edge for every combination of the rule values listed."""
    base = make_rules(
        rules,
        RuleOptions(
            preset=preset,
            dealer_bonus=dealer_bonus,
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
