"""Paytable design: solved pays meet their targets, searches agree with brute force."""

from __future__ import annotations

import functools
import itertools
import json
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from solver.cli import main
from solver.exact.bonus import analyse_bonus
from solver.exact.game import round_lines_for, solve_game
from solver.exact.paytable import (
    EdgeModel,
    edge_model,
    practical_pays,
    search_paytables,
    solve_pay,
    with_pay,
)
from solver.model.cards import Shoe
from solver.model.errors import DesignError, RulesError
from solver.model.outcomes import PAY_TIERS, bonus_outcome, bonus_pay
from solver.model.paytable import parse_band, parse_edge
from solver.model.rules import Paytable, Rules
from solver.results.bonus import BonusAnalysis
from solver.results.game import GameResult
from solver.results.paytable import EdgeKind
from solver.store.memory import MemoryCache

from .conftest import physical_cards

# Two decks: every Bonus tier can occur (one deck has no suited match) and an exact
# solve takes about a second.
RULES = Rules(decks=2)
RATIO = Fraction(3, 4)


@pytest.fixture(scope="module")
def model(games: MemoryCache) -> Any:
    return edge_model(RULES, cache=games)


@pytest.fixture(scope="module")
def fresh() -> GameResult[Fraction]:
    """The main game solved afresh, apart from the model and its cache."""
    return solve_game(RULES, exact=True)


def dealt_round(
    game: GameResult[Fraction], paytable: Paytable, ratio: Fraction
) -> dict[Fraction, Fraction]:
    """The round's net distribution by dealing every ordered pair of physical cards."""
    starts = {(s.player, s.bonus): s for s in game.starts}
    main_pays: dict[str, Fraction] = {
        "blackjack": game.rules.blackjack_pays,
        "win": Fraction(1),
        "push": Fraction(0),
        "loss": Fraction(-1),
    }
    pairs = card_pairs(game.rules.decks)
    weight = Fraction(1, sum(pairs.values()))
    net: dict[Fraction, Fraction] = {}
    for (player_points, bonus_points, outcome), count in pairs.items():
        bonus_net = ratio * bonus_pay(paytable, outcome)
        start = starts[(player_points, bonus_points)]
        for k, p in start.outcomes.items():
            value = main_pays[k] + bonus_net
            net[value] = net.get(value, Fraction(0)) + count * weight * Fraction(p)
    return net


@functools.cache
def card_pairs(decks: int) -> Counter[tuple[int, int, str]]:
    """Every ordered pair of physical cards (player's card, Bonus card) counted by what
    settles it: the two values and the Bonus outcome (the same for every paytable)."""
    cards = physical_cards(Shoe.full(decks))
    pairs: Counter[tuple[int, int, str]] = Counter()
    for i, player in enumerate(cards):
        for j, bonus in enumerate(cards):
            if i != j:
                pairs[(player.points, bonus.points, bonus_outcome(player, bonus))] += 1
    return pairs


def round_edge(net: dict[Fraction, Fraction], ratio: Fraction) -> Fraction:
    return -sum((v * p for v, p in net.items()), Fraction(0)) / (1 + ratio)


@pytest.mark.parametrize("tier", PAY_TIERS, ids=lambda t: t.value)
def test_solved_pay_gives_exactly_the_target_bonus_edge(model: Any, tier: Any) -> None:
    target = Fraction(3, 100)
    solution = solve_pay(model, tier, EdgeKind.BONUS, target, Paytable(), RATIO)
    rules = replace(RULES, paytable=with_pay(Paytable(), tier, solution.pay))
    assert analyse_bonus(rules).house_edge == target
    assert solution.paytable == rules.paytable


@pytest.mark.parametrize("tier", PAY_TIERS, ids=lambda t: t.value)
def test_solved_pay_gives_exactly_the_target_round_edge(
    model: Any, fresh: GameResult[Fraction], tier: Any
) -> None:
    target = Fraction(1, 50)
    solution = solve_pay(model, tier, EdgeKind.ROUND, target, Paytable(), RATIO)
    assert round_edge(dealt_round(fresh, solution.paytable, RATIO), RATIO) == target


def test_solved_round_pay_holds_in_a_game_solved_afresh_under_it(model: Any) -> None:
    solution = solve_pay(model, PAY_TIERS[1], EdgeKind.ROUND, Fraction(3, 100), Paytable(), RATIO)
    rules = replace(RULES, paytable=solution.paytable, bonus_ratio=RATIO)
    assert solve_game(rules, exact=True).round_house_edge == Fraction(3, 100)


def test_candidates_are_practical_pays_on_both_sides_with_exact_edges(model: Any) -> None:
    solution = solve_pay(
        model, PAY_TIERS[0], EdgeKind.BONUS, Fraction(1, 20), Paytable(), Fraction(1, 2)
    )
    pays = [c.pay for c in solution.candidates]
    assert min(pays) < solution.pay < max(pays)
    assert all((2 * p).denominator == 1 for p in pays)
    for candidate in solution.candidates:
        rules = replace(RULES, paytable=candidate.paytable)
        assert candidate.bonus_edge == analyse_bonus(rules).house_edge


def test_practical_pays_of_a_whole_pay_include_it_and_its_neighbours() -> None:
    whole = [Fraction(n) for n in range(5)]
    assert practical_pays(Fraction(3)) == (
        whole[2],
        Fraction(5, 2),
        whole[3],
        Fraction(7, 2),
        whole[4],
    )
    assert practical_pays(Fraction(1, 4)) == (whole[0], Fraction(1, 2), whole[1])


def test_a_target_needing_a_negative_pay_is_refused(model: Any) -> None:
    with pytest.raises(DesignError, match="below 0"):
        solve_pay(model, PAY_TIERS[2], EdgeKind.BONUS, Fraction(9, 10), Paytable(), RATIO)


def test_a_tier_that_cannot_occur_cannot_be_solved_for() -> None:
    # One deck has no suited match; a few cards are enough to show it.
    small = solve_game(Rules(decks=1), physical_cards(Shoe.full(1))[:36], exact=True)
    with pytest.raises(DesignError, match="never occurs with 1 deck"):
        solve_pay(
            EdgeModel(small),
            PAY_TIERS[0],
            EdgeKind.BONUS,
            Fraction(1, 10),
            Paytable(),
            RATIO,
        )


@functools.cache
def bonus_under(paytable: Paytable) -> BonusAnalysis:
    """The Bonus analysed afresh under ``paytable`` (and :data:`RULES`), once per process:
    the brute-force searches over every whole paytable share the tables they both cover."""
    return analyse_bonus(replace(RULES, paytable=paytable))


def whole_paytables(max_pay: int) -> list[Paytable]:
    return [
        Paytable(suited_match=Fraction(s), rank_match=Fraction(r), adjacent=Fraction(a))
        for s in range(1, max_pay + 1)
        for r in range(1, s + 1)
        for a in range(1, r + 1)
    ]


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


def test_round_lines_for_refuses_rules_that_change_the_main_game(model: Any) -> None:
    with pytest.raises(RulesError, match="only the paytable and the bonus ratio"):
        round_lines_for(replace(RULES, decks=3), model.game)


@pytest.mark.parametrize(
    ("text", "value"),
    [("0.02", Fraction(1, 50)), ("1/50", Fraction(1, 50)), ("2%", Fraction(1, 50)),
     ("-1.5%", Fraction(-3, 200)), (" .5 ", Fraction(1, 2))],
)  # fmt: skip
def test_edges_parse_as_decimals_fractions_or_percentages(text: str, value: Fraction) -> None:
    assert parse_edge(text) == value


@pytest.mark.parametrize("text", ["", "abc", "2%%", "1/0", "1/2%", "--1"])
def test_malformed_edges_are_refused(text: str) -> None:
    with pytest.raises(DesignError):
        parse_edge(text)


@pytest.mark.parametrize("text", ["1%", "1%:2%:3%", ":2%", "3%:1%", "x:1%"])
def test_malformed_bands_are_refused(text: str) -> None:
    with pytest.raises(DesignError):
        parse_band(text)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    out, err = capsys.readouterr()
    return int(stop.value.code or 0), out, err


def test_cli_solve_reports_the_exact_pay_and_candidates(
    model: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["paytable", "solve", "--decks", "2", "--solve-for", "rank_match", "--adjacent", "2"]
    status, out, _ = run([*argv, "--target-round-edge", "1/40", "--format", "json"], capsys)
    assert status == 0
    doc = json.loads(out)
    assert doc["solve_for"] == "rank_match" and doc["target"]["kind"] == "round"
    assert Fraction(doc["target"]["house_edge"]["exact"]) == Fraction(1, 40)
    pay = Fraction(doc["pay"]["exact"])
    table = Paytable(suited_match=Fraction(15), rank_match=pay, adjacent=Fraction(2))
    assert model.edge(EdgeKind.ROUND, table, Fraction(1, 2)) == Fraction(1, 40)
    assert {"pay", "paytable", "bonus_house_edge", "round_house_edge"} <= set(doc["candidates"][0])
    status, out, _ = run([*argv, "--target-bonus-edge", "2.5%"], capsys)
    assert status == 0 and "exact rank match pay x" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "--solve-for", "adjacent", "--target-bonus-edge", "95%"], "below 0"),
        (["solve", "--solve-for", "adjacent", "--target-round-edge", "80%"], "below 0"),
        (["solve", "--solve-for", "adjacent", "--rank-match", "-2", "--target-bonus-edge", "5%"],
         "negative"),
        (["solve", "--solve-for", "adjacent", "--adjacent", "1", "--target-bonus-edge", "5%"],
         "being solved for"),
        (["solve", "--solve-for", "adjacent"], "exactly one target"),
        (["solve", "--solve-for", "adjacent", "--target-bonus-edge", "5%",
          "--target-round-edge", "1%"], "exactly one target"),
        (["solve", "--solve-for", "adjacent", "--target-bonus-edge", "five"], "not a house edge"),
        (["search", "--round-edge-range", "2%-3%"], "malformed"),
        (["search", "--bonus-edge-range", "3%:1%"], "empty"),
        (["search", "--max-pay", "0"], "max pay 0"),
    ],
)  # fmt: skip
def test_cli_bad_design_input_is_one_line_and_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["paytable", *argv, "--decks", "2"], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err


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


def test_cli_variants_lists_every_combination(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["variants", "--decks", "1,2", "--blackjack-pays", "3:2,6:5", "--format", "json"]
    status, out, _ = run(argv, capsys)
    assert status == 0
    rows = json.loads(out)["variants"]
    assert [(r["rules"]["decks"], r["rules"]["blackjack_pays"]) for r in rows] == [
        (1, "3:2"), (1, "6:5"), (2, "3:2"), (2, "6:5")
    ]  # fmt: skip
    for row in rows:
        rules = Rules(decks=row["rules"]["decks"])
        assert Fraction(row["bonus_expected_value"]["exact"]) == analyse_bonus(rules).expected_value
    status, _, err = run(["variants", "--decks", "1,,2"], capsys)
    assert status == 2 and "empty item" in err
    status, _, err = run(["variants", "--dealer-natural", "sometimes"], capsys)
    assert status == 2 and "sometimes" in err


# --- Named tiers ----------------------------------------------------------------------------

FOUR = Paytable.parse("suited-match=15,rank-match=4,suited-adjacent=2,adjacent=1")


@functools.cache
def four_tier_pairs(decks: int) -> Counter[str]:
    """Ordered pairs of physical cards by the four tiers, classified here from their words."""
    cards = physical_cards(Shoe.full(decks))
    counted: Counter[str] = Counter()
    for i, a in enumerate(cards):
        for j, b in enumerate(cards):
            if i != j:
                step = abs(a.rank.order - b.rank.order)
                apart, suited = min(step, 13 - step), a.suit == b.suit
                kind = {0: "match", 1: "adjacent"}.get(apart)
                if kind is None:
                    counted["loss"] += 1
                elif kind == "match":
                    counted["suited_match" if suited else "rank_match"] += 1
                else:
                    counted["suited_adjacent" if suited else "adjacent"] += 1
    return counted


def brute_bonus_edge(pays: dict[str, Fraction]) -> Fraction:
    counted = four_tier_pairs(RULES.decks)
    won = sum((pays[k] * n for k, n in counted.items() if k != "loss"), Fraction(0))
    return -(won - counted["loss"]) / sum(counted.values())


@pytest.fixture(scope="module")
def four_model(model: Any) -> EdgeModel:
    return EdgeModel(model.game, FOUR.tiers)


@pytest.mark.parametrize("kind", list(EdgeKind))
def test_solving_for_suited_adjacent_hits_its_target_edge_exactly(
    four_model: EdgeModel, fresh: GameResult[Fraction], kind: EdgeKind
) -> None:
    target = Fraction(4, 100)
    solution = solve_pay(four_model, "suited-adjacent", kind, target, FOUR, RATIO)
    pays = dict(FOUR.as_dict(), suited_adjacent=solution.pay)
    assert solution.paytable == FOUR.with_pay("suited_adjacent", solution.pay)
    bonus_edge = brute_bonus_edge(pays)
    if kind is EdgeKind.BONUS:
        assert bonus_edge == target
    else:  # the round: the main game's exact EV with the Bonus at the ratio
        assert -(fresh.expected_value + RATIO * -bonus_edge) / (1 + RATIO) == target
    assert analyse_bonus(solution.rules).house_edge == bonus_edge
    assert solution.to_json()["solve_for"] == "suited_adjacent"


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


def test_cli_solves_and_searches_named_tiers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["paytable", "solve", "--decks", "2", "--paytable", str(FOUR)]
    status, out, _ = run(
        [*argv, "--solve-for", "suited-adjacent", "--target-bonus-edge", "4%", "--format", "json"],
        capsys,
    )
    assert status == 0
    doc = json.loads(out)
    pays = {k: Fraction(v) for k, v in doc["rules"]["paytable"].items()}
    assert brute_bonus_edge(pays) == Fraction(4, 100) and doc["solve_for"] == "suited_adjacent"
    status, out, _ = run([*argv, "--solve-for", "suited-adjacent", "--target-bonus-edge", "4%"],
                         capsys)  # fmt: skip
    assert status == 0 and "suited-adjacent=x" in out and "exact suited adjacent pay" in out
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
        (["solve", "--solve-for", "suited-adjacent", "--target-bonus-edge", "5%"],
         "not in paytable"),
        (["solve", "--solve-for", "pair", "--target-bonus-edge", "5%"], "unknown"),
        (["solve", "--paytable", "match=4,adjacent=1", "--solve-for", "match", "--rank-match", "3",
          "--target-bonus-edge", "5%"], "not in paytable"),
        (["solve", "--paytable", "adjacent=1,suited-adjacent=3", "--solve-for", "adjacent",
          "--target-bonus-edge", "5%"], "never paid"),
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
    status, out, err = run(["paytable", *argv, "--decks", "2"], capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_named_tier_results_are_the_commands_json(capsys: pytest.CaptureFixture[str]) -> None:
    import solver
    from solver.store.disk import Cache

    argv = ["paytable", "solve", "--decks", "2", "--paytable", str(FOUR), "--format", "json"]
    status, out, _ = run([*argv, "--solve-for", "rank-match", "--target-bonus-edge", "5%"], capsys)
    assert status == 0
    solved = solver.paytable_solve(
        solve_for="rank-match", target_bonus_edge="5%", decks=2, paytable=FOUR, cache=Cache()
    )
    assert solved.to_json() == json.loads(out)
    tiers = "suited-match,rank-match,suited-adjacent,adjacent"
    argv = ["paytable", "search", "--decks", "2", "--tiers", tiers, "--max-pay", "8"]
    status, out, _ = run([*argv, "--format", "json"], capsys)
    assert status == 0
    found = solver.paytable_search(tiers=tiers, max_pay=8, decks=2, cache=Cache())
    assert found.to_json() == json.loads(out)


def test_a_tier_a_paytable_lacks_is_named_with_the_tiers_it_has() -> None:
    """Issue 41: "... is not in paytable match=5: use one of match" did not say why."""
    with pytest.raises(RulesError) as error:
        Paytable.parse("match=5").tier("suited-match")
    assert str(error.value) == (
        "Bonus tier suited-match is not in paytable match=5, whose tiers are its own: use match"
    )
