"""Numbers with documented ranges, checked before any arithmetic; searches in bounded memory."""

from __future__ import annotations

import time
import tracemalloc
from fractions import Fraction

import pytest

from solver.exact.paytable import (
    MAX_SEARCH_CANDIDATES,
    EdgeModel,
    edge_model,
    search_paytables,
)
from solver.model.errors import CbjError, DesignError, RulesError, StrategyError
from solver.model.paytable import MAX_TOP, parse_band, parse_edge
from solver.model.rules import (
    MAX_BLACKJACK_PAY,
    MAX_BONUS_RATIO,
    MAX_PAY,
    Paytable,
    Rules,
    parse_ratio,
)
from solver.results.paytable import EdgeKind
from solver.sim.strategies import parse_strategy
from solver.store.memory import MemoryCache

BIG = "9" * 400
HUGE = "9" * 5000


def one_line(error: pytest.ExceptionInfo[CbjError]) -> None:
    text = str(error.value)
    assert "\n" not in text and len(text) < 300, text


@pytest.mark.parametrize(
    "build",
    [
        lambda: Paytable.parse(f"{BIG}:4:1"),
        lambda: Paytable.parse(f"1/{BIG}:4:1"),
        lambda: Paytable.parse(f"{HUGE}:4:1"),
        lambda: Rules(bonus_ratio=parse_ratio(BIG)),
        lambda: Rules(bonus_ratio=parse_ratio(f"1.{BIG}")),
        lambda: Rules(blackjack_pays=parse_ratio(f"{BIG}:1")),
        lambda: Rules(blackjack_pays=parse_ratio(f"1:{BIG}")),
        lambda: Rules(bonus_ratio=Fraction(10**400)),
        lambda: Paytable(suited_match=Fraction(10**400)),
    ],
)
def test_overlong_or_huge_pays_and_ratios_are_one_line_errors(build: object) -> None:
    with pytest.raises(RulesError) as error:
        build()  # type: ignore[operator]
    one_line(error)


def test_the_range_ends_are_accepted_and_just_beyond_refused() -> None:
    Paytable(suited_match=MAX_PAY)
    Rules(bonus_ratio=MAX_BONUS_RATIO, blackjack_pays=MAX_BLACKJACK_PAY)
    with pytest.raises(RulesError, match="out of range"):
        Paytable(adjacent=MAX_PAY + Fraction(1, 10**30))
    with pytest.raises(RulesError, match="out of range"):
        Rules(bonus_ratio=MAX_BONUS_RATIO + 1)
    with pytest.raises(RulesError, match="out of range"):
        Rules(blackjack_pays=MAX_BLACKJACK_PAY + 1)


@pytest.mark.parametrize(
    "text", [BIG, f"{BIG}%", f"0.{BIG}", f"1/{BIG}", "1001", "-100001%", "101%", "\u0665%"]
)
def test_edges_out_of_range_or_overlong_are_one_line_errors(text: str) -> None:
    with pytest.raises(DesignError) as error:
        parse_edge(text)
    one_line(error)


def test_edge_range_ends_are_accepted() -> None:
    assert parse_band("-100000%:100%") == (Fraction(-1000), Fraction(1))


@pytest.mark.parametrize("text", [f"stand-on:{HUGE}", f"stand-on:{BIG}", "stand-on:\u0661\u0667"])
def test_huge_or_foreign_stand_on_totals_are_one_line_errors(text: str) -> None:
    with pytest.raises(StrategyError) as error:
        parse_strategy(text)
    one_line(error)


@pytest.fixture(scope="module")
def model(games: MemoryCache) -> EdgeModel:
    return edge_model(Rules(decks=2), cache=games)


def test_a_band_too_big_to_search_in_a_minute_is_refused_at_once(model: EdgeModel) -> None:
    start = time.perf_counter()
    with pytest.raises(DesignError, match="narrow the edge range or lower --max-pay") as error:
        search_paytables(model, EdgeKind.ROUND, parse_band("-100:1"), Fraction(1, 2), 1000)
    assert time.perf_counter() - start < 10
    assert f"{MAX_SEARCH_CANDIDATES:,}" in str(error.value)
    one_line(error)


def test_a_search_keeps_only_top_candidates_in_memory(model: EdgeModel) -> None:
    band = parse_band("-100:1")
    tracemalloc.start()
    try:
        result = search_paytables(model, EdgeKind.BONUS, band, Fraction(1, 2), 80, top=3)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.matches == sum(r for s in range(1, 81) for r in range(1, s + 1))
    assert len(result.hits) == 3
    # Every one of the ~88,000 candidates as a (distance, (s, r, a)) tuple would need about
    # 20 MB; the bounded heap needs about 50 kB.  (Tracing every allocation makes the search
    # ten times slower, so it searches pays up to 80, not 120.)
    assert peak < 2 * 1024 * 1024


@pytest.mark.parametrize("top", [0, MAX_TOP + 1, 10**50])
def test_top_out_of_range_is_refused(model: EdgeModel, top: int) -> None:
    with pytest.raises(DesignError, match="top"):
        search_paytables(model, EdgeKind.BONUS, parse_band("0:1%"), Fraction(1, 2), 10, top)
