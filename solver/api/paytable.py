"""Designing the game: ``cbj paytable solve``, ``cbj paytable search`` and ``cbj variants``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Unpack

from solver.api.progress import step_progress
from solver.api.rules import RuleOptions, VariantOptions, make_rules
from solver.exact.game import ProgressCallback
from solver.exact.paytable import (
    check_edge,
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
from solver.model.checks import checked, fraction_bits, shown
from solver.model.errors import DesignError, RulesError
from solver.model.outcomes import DEFAULT_ROUND_BAND
from solver.model.paytable import BONUS_TIERS, MAX_PAY, MAX_TIERS, Tier, tier_named
from solver.model.rule_table import RULE_TABLE
from solver.model.rules import Paytable, Rules
from solver.results.kinds import Store
from solver.results.paytable import EdgeKind, PaySolution, SearchResult, Variants


def _edge_target(
    bonus_edge: str | Fraction | None, round_edge: str | Fraction | None, what: str
) -> tuple[EdgeKind, str | Fraction]:
    """The one of a (Bonus edge, round edge) pair that was given."""
    given = [(k, v) for k, v in ((EdgeKind.BONUS, bonus_edge), (EdgeKind.ROUND, round_edge)) if v]
    if len(given) != 1:
        raise DesignError(f"give exactly one {what}: a bonus edge or a round edge")
    return given[0]


@checked
def paytable_solve(
    *,
    solve_for: Tier | str,
    suited_match: Fraction | int | str | None = None,
    rank_match: Fraction | int | str | None = None,
    adjacent: Fraction | int | str | None = None,
    pays: Mapping[str, Fraction | int | str] | None = None,
    target_bonus_edge: Fraction | str | None = None,
    target_round_edge: Fraction | str | None = None,
    cache: Store | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> PaySolution:
    """The exact pay of tier ``solve_for`` (any tier of the paytable) that gives the target edge.

    ``suited_match``, ``rank_match``, ``adjacent`` and ``pays`` (by tier name) override
    pays of the paytable in force.
    """
    kind, target = _edge_target(target_bonus_edge, target_round_edge, "target")
    played = make_rules(rules, options)
    table = played.paytable
    try:
        tier = table.tier(solve_for if isinstance(solve_for, str) else solve_for.name)
    except RulesError as error:
        hint = "" if "unknown" in str(error) else "; list it in --paytable with any pay"
        raise DesignError(f"cannot solve for {str(solve_for)[:40]!r}: {error}{hint}") from None
    given: dict[str, Fraction | int | str] = dict(pays or {})
    for name, pay in (("suited_match", suited_match), ("rank_match", rank_match)):
        if pay is not None:
            given[name] = pay
    if adjacent is not None:
        given["adjacent"] = adjacent
    for name, pay in given.items():
        named = table.tier(name)
        if named == tier:
            raise DesignError(f"{tier.name} is the pay being solved for: leave it out")
        if isinstance(pay, (int, Fraction)) and fraction_bits(Fraction(pay)) > 64:  # past any pay
            raise RulesError(f"{named.name} pay {shown(pay)} is out of range: use 0 to {MAX_PAY}")
        table = with_pay(table, named.name, parse_pay(str(pay), named.name))
    if isinstance(target, Fraction):
        edge = check_edge(target, "target")
    else:
        edge = parse_edge(target, "target")
    model = edge_model(played, cache=cache)
    return solve_pay(model, tier, kind, edge, table, played.bonus_ratio)


@checked
def parse_tiers(text: str | Sequence[Tier | str]) -> tuple[Tier, ...]:
    """Tiers named in a comma list (``suited-match,rank-match,suited-adjacent,adjacent``).

    >>> [t.name for t in parse_tiers("suited-match, adjacent")]
    ['suited_match', 'adjacent']
    """
    items = text.split(",") if isinstance(text, str) else list(text)
    if (
        not items
        or len(items) > MAX_TIERS
        or any(isinstance(i, str) and not i.strip() for i in items)
    ):
        raise DesignError(
            f"tiers {shown(text)}: name 1 to {MAX_TIERS} tiers separated by commas, best first, "
            "e.g. suited-match,rank-match,suited-adjacent,adjacent"
        )
    tiers = tuple(tier_named(i) if isinstance(i, str) else i for i in items)
    Paytable([0] * len(tiers), tiers)  # each tier listed once and reachable
    return tiers


@checked
def paytable_search(
    *,
    round_edge_range: str | None = None,
    bonus_edge_range: str | None = None,
    max_pay: int = 50,
    top: int = 10,
    tiers: str | Sequence[Tier | str] | None = None,
    cache: Store | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> SearchResult:
    """Whole-unit paytables whose house edge lies in a band, closest to its middle first.

    ``tiers`` names the tiers searched, best first (clause 4's three when not given).
    """
    if round_edge_range is None and bonus_edge_range is None:
        round_edge_range = DEFAULT_ROUND_BAND
    kind, band = _edge_target(bonus_edge_range, round_edge_range, "edge range")
    searched = BONUS_TIERS if tiers is None else parse_tiers(tiers)
    played = make_rules(rules, options)
    model = edge_model(played, cache=cache, tiers=searched)
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


@checked
def variants(
    *,
    exact: bool = False,
    jobs: int = 1,
    cache: Store | None = None,
    progress: ProgressCallback | bool | None = None,
    rules: Rules | None = None,
    **options: Unpack[VariantOptions],
) -> Variants:
    """Main EV, Bonus EV and round edge for every combination of the rule values listed.

    Each rule with common values in the rule table (``decks``, ``dealer_stands_on``, ...)
    takes several, as a sequence or as text separated by commas; the others take one.
    """
    given: dict[str, Any] = dict(options)
    listed = {
        rule.name: _listed(given.pop(rule.name) or (), rule.parse, rule.what)
        for rule in RULE_TABLE
        if rule.common and rule.name in given
    }
    base = make_rules(rules, given)
    combinations = variant_rules(base, listed)
    bar = step_progress(progress, "variants")
    found = solve_variants(combinations, exact=exact, jobs=jobs, progress=bar, cache=cache)
    return Variants(base, found)
