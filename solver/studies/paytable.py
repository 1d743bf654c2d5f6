"""Designing the game, as computations: ``paytable solve``, ``paytable search`` and
``variants``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from solver.exact.paytable import (
    edge_model,
    parse_pay,
    search_paytables,
    solve_pay,
    solve_variants,
    variant_rules,
    with_pay,
)
from solver.model.checks import fraction_bits, shown
from solver.model.errors import DesignError, RulesError
from solver.model.outcomes import DEFAULT_ROUND_BAND
from solver.model.paytable import (
    BONUS_TIERS,
    MAX_PAY,
    Tier,
    check_edge,
    parse_band,
    parse_edge,
    parse_tiers,
)
from solver.model.rules import Rules
from solver.results.paytable import EdgeKind, PaySolution, SearchResult, Variants
from solver.results.run import Run


def _edge_target(
    bonus_edge: str | Fraction | None, round_edge: str | Fraction | None, what: str
) -> tuple[EdgeKind, str | Fraction]:
    """The one of a (Bonus edge, round edge) pair that was given."""
    pairs = ((EdgeKind.BONUS, bonus_edge), (EdgeKind.ROUND, round_edge))
    given = [(k, v) for k, v in pairs if v is not None and v != ""]
    if len(given) != 1:
        raise DesignError(f"give exactly one {what}: a bonus edge or a round edge")
    return given[0]


def paytable_solve(
    *,
    rules: Rules,
    solve_for: str,
    suited_match: Fraction | int | str | None,
    rank_match: Fraction | int | str | None,
    adjacent: Fraction | int | str | None,
    pays: Mapping[str, Fraction | int | str] | None,
    target_bonus_edge: Fraction | None,
    target_round_edge: Fraction | None,
    run: Run,
) -> PaySolution:
    """The exact pay of tier ``solve_for`` (any tier of the paytable) that gives the target
    edge; ``suited_match``, ``rank_match``, ``adjacent`` and ``pays`` (by tier name)
    override pays of the paytable in force."""
    kind, target = _edge_target(target_bonus_edge, target_round_edge, "target")
    table = rules.paytable
    try:
        tier = table.tier(solve_for)
    except RulesError as error:
        hint = "" if "unknown" in str(error) else "; list it in --paytable with any pay"
        raise DesignError(f"cannot solve for {solve_for[:40]!r}: {error}{hint}") from None
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
    edge = check_edge(target, "target") if isinstance(target, Fraction) else parse_edge(target)
    model = edge_model(rules, cache=run.cache)
    return solve_pay(model, tier, kind, edge, table, rules.bonus_ratio)


def paytable_search(
    *,
    rules: Rules,
    round_edge_range: str | None,
    bonus_edge_range: str | None,
    max_pay: int,
    top: int,
    tiers: str | Sequence[Tier | str] | None,
    run: Run,
) -> SearchResult:
    """Whole-unit paytables whose house edge lies in a band, closest to its middle first;
    ``tiers`` names the tiers searched, best first (clause 4's three when not given)."""
    if round_edge_range is None and bonus_edge_range is None:
        round_edge_range = DEFAULT_ROUND_BAND
    kind, band = _edge_target(bonus_edge_range, round_edge_range, "edge range")
    searched = BONUS_TIERS if tiers is None else parse_tiers(tiers)
    model = edge_model(rules, cache=run.cache, tiers=searched)
    return search_paytables(model, kind, parse_band(str(band)), rules.bonus_ratio, max_pay, top)


def variants(
    *, rules: Rules, listed: Mapping[str, tuple[Any, ...]], exact: bool, run: Run
) -> Variants:
    """Main EV, Bonus EV and round edge for every combination of the rule values listed."""
    combinations = variant_rules(rules, listed)
    found = solve_variants(
        combinations, exact=exact, jobs=run.jobs, progress=run.progress, cache=run.cache
    )
    return Variants(rules, found)
