"""``cbj paytable search``: every whole-unit paytable in a band, exactly the ones brute
force over every paytable finds (three tiers and four named ones), each hit's round
figures against every pair of physical cards dealt; bad bands and tiers refused in one
line."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from typing import Any

import pytest

from solver.exact.paytable import EdgeModel, search_paytables
from solver.model.errors import DesignError
from solver.model.paytable import parse_band
from solver.model.rules import Paytable
from solver.results.game import GameResult
from solver.results.paytable import EdgeKind
from tests.paytables import (
    FOUR,
    RATIO,
    bonus_under,
    brute_bonus_edge,
    dealt_round,
    four_model,
    fresh,
    model,
    refused_in_one_line,
    round_edge,
    run,
    whole_paytables,
)

__all__ = ["four_model", "fresh", "model"]  # the fixtures (tests/paytables.py)


def test_bonus_search_finds_exactly_what_brute_force_finds(model: Any) -> None:
    band = (Fraction(5, 100), Fraction(15, 100))
    result = search_paytables(model, EdgeKind.BONUS, band, RATIO, max_pay=14, top=1000)
    brute: dict[Paytable, Fraction] = {}
    for table in whole_paytables(14):
        edge = bonus_under(table).house_edge
        if band[0] <= edge <= band[1]:
            brute[table] = edge
    assert result.matches == len(brute) == len(result.hits) > 10
    assert {h.paytable: h.bonus_edge for h in result.hits} == brute
    middle = (band[0] + band[1]) / 2
    distances = [abs(h.bonus_edge - middle) for h in result.hits]
    assert distances == sorted(distances)


def test_round_search_hits_agree_with_every_card_pair_dealt(
    model: Any, fresh: GameResult[Fraction]
) -> None:
    band = (Fraction(1, 100), Fraction(3, 100))
    result = search_paytables(model, EdgeKind.ROUND, band, RATIO, max_pay=40, top=5)
    assert result.matches >= 5 and len(result.hits) == 5
    for hit in result.hits:
        net = dealt_round(fresh, hit.paytable, RATIO)
        assert band[0] <= hit.round_edge <= band[1]
        assert hit.round_edge == round_edge(net, RATIO)
        assert hit.bonus_edge == bonus_under(hit.paytable).house_edge
        assert hit.round_hit_frequency == sum(p for v, p in net.items() if v > 0)
        mean = sum(v * p for v, p in net.items())
        variance = sum(v * v * p for v, p in net.items()) - mean**2
        assert hit.round_standard_deviation == pytest.approx(float(variance) ** 0.5, rel=1e-12)


def test_round_search_count_matches_brute_force_over_every_paytable(
    model: Any, fresh: GameResult[Fraction]
) -> None:
    band = (Fraction(0), Fraction(2, 100))
    count = 0
    for table in whole_paytables(12):
        bonus = bonus_under(table).expected_value
        edge = -(fresh.expected_value + RATIO * bonus) / (1 + RATIO)
        count += band[0] <= edge <= band[1]
    result = search_paytables(model, EdgeKind.ROUND, band, RATIO, max_pay=12, top=1)
    assert result.matches == count > 0


@pytest.mark.parametrize("text", ["1%", "1%:2%:3%", ":2%", "3%:1%", "x:1%"])
def test_malformed_bands_are_refused(text: str) -> None:
    with pytest.raises(DesignError):
        parse_band(text)


def test_cli_search_lists_paytables_in_the_band(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["paytable", "search", "--decks", "2", "--max-pay", "20", "--top", "3"]
    status, out, _ = run([*argv, "--round-edge-range", "1%:4%", "--format", "json"], capsys)
    assert status == 0
    doc = json.loads(out)
    assert doc["band"]["kind"] == "round" and len(doc["paytables"]) == 3
    for row in doc["paytables"]:
        assert Fraction(1, 100) <= Fraction(row["round_house_edge"]["exact"]) <= Fraction(1, 25)
    status, out, _ = run([*argv, "--format", "csv"], capsys)
    assert status == 0 and out.count("\n") == 4  # the header and a paytable a line


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["search", "--round-edge-range", "2%-3%"], "malformed"),
        (["search", "--bonus-edge-range", "3%:1%"], "empty"),
        (["search", "--max-pay", "0"], "max pay 0"),
    ],
)  # fmt: skip
def test_cli_bad_design_input_is_one_line_and_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    refused_in_one_line(argv, message, capsys)


# --- Named tiers ----------------------------------------------------------------------------


def test_a_four_tier_search_finds_exactly_what_brute_force_finds(four_model: EdgeModel) -> None:
    band = (Fraction(2, 100), Fraction(12, 100))
    result = search_paytables(four_model, EdgeKind.BONUS, band, RATIO, max_pay=9, top=1000)
    names = [t.name for t in FOUR.tiers]
    brute = {}
    for pays in itertools.product(range(1, 10), repeat=4):
        if list(pays) == sorted(pays, reverse=True):
            edge = brute_bonus_edge(dict(zip(names, map(Fraction, pays), strict=True)))
            if band[0] <= edge <= band[1]:
                brute[pays] = edge
    assert result.matches == len(brute) == len(result.hits) > 10
    assert {tuple(int(p) for p in h.paytable.pays): h.bonus_edge for h in result.hits} == brute
    assert all(h.paytable.tiers == FOUR.tiers for h in result.hits)
    assert result.to_json()["tiers"] == [t.option for t in FOUR.tiers]


def test_cli_searches_named_tiers(capsys: pytest.CaptureFixture[str]) -> None:
    search = ["paytable", "search", "--decks", "2", "--max-pay", "12", "--top", "2"]
    status, out, _ = run([*search, "--tiers", "suited-match,rank-match,suited-adjacent,adjacent",
                          "--bonus-edge-range", "2%:12%", "--format", "json"], capsys)  # fmt: skip
    assert status == 0
    doc = json.loads(out)
    assert doc["tiers"] == ["suited-match", "rank-match", "suited-adjacent", "adjacent"]
    assert [set(row["pays"]) for row in doc["paytables"]] == [set(FOUR.as_dict())] * 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["search", "--tiers", "suited-match,,adjacent"], "separated by commas"),
        (["search", "--tiers", "match,suited-match"], "never paid"),
        (["search", "--tiers", "a,b,c,d,e"], "unknown"),
        (["search", "--tiers", "ace-adjacent,suited-match,rank-match,suited-adjacent,adjacent",
          "--max-pay", "200"], "steps"),
    ],
)  # fmt: skip
def test_cli_bad_tier_input_is_one_line_and_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    refused_in_one_line(argv, message, capsys)


def test_a_named_tier_search_is_the_commands_json(capsys: pytest.CaptureFixture[str]) -> None:
    import solver
    from solver.store.disk import Cache

    tiers = "suited-match,rank-match,suited-adjacent,adjacent"
    argv = ["paytable", "search", "--decks", "2", "--tiers", tiers, "--max-pay", "8"]
    status, out, _ = run([*argv, "--format", "json"], capsys)
    assert status == 0
    found = solver.paytable_search(tiers=tiers, max_pay=8, decks=2, cache=Cache())
    assert found.to_json() == json.loads(out)
