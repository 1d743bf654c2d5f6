"""``cbj paytable solve``: a solved pay meets its target edge exactly (the Bonus's, against
the Bonus analysed afresh; the round's, against every pair of physical cards dealt and a
game solved afresh), its candidates are practical pays with exact edges, and what cannot
be solved for is refused in one line."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from solver.exact.bonus import analyse_bonus
from solver.exact.game import round_lines_for, solve_game
from solver.exact.paytable import (
    EdgeModel,
    practical_pays,
    solve_pay,
    with_pay,
)
from solver.model.cards import Shoe
from solver.model.errors import DesignError, RulesError
from solver.model.outcomes import PAY_TIERS
from solver.model.paytable import parse_edge
from solver.model.rules import Paytable, Rules
from solver.results.game import GameResult
from solver.results.paytable import EdgeKind
from tests.paytables import (
    FOUR,
    RATIO,
    RULES,
    brute_bonus_edge,
    dealt_round,
    four_model,
    fresh,
    model,
    refused_in_one_line,
    round_edge,
    run,
)

from .conftest import physical_cards

__all__ = ["four_model", "fresh", "model"]  # the fixtures (tests/paytables.py)


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
    ],
)  # fmt: skip
def test_cli_bad_design_input_is_one_line_and_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    refused_in_one_line(argv, message, capsys)


# --- Named tiers ----------------------------------------------------------------------------


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


def test_cli_solves_for_a_named_tier(capsys: pytest.CaptureFixture[str]) -> None:
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
    ],
)  # fmt: skip
def test_cli_bad_tier_input_is_one_line_and_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    refused_in_one_line(argv, message, capsys)


def test_a_named_tier_s_solution_is_the_commands_json(capsys: pytest.CaptureFixture[str]) -> None:
    import solver
    from solver.store.disk import Cache

    argv = ["paytable", "solve", "--decks", "2", "--paytable", str(FOUR), "--format", "json"]
    status, out, _ = run([*argv, "--solve-for", "rank-match", "--target-bonus-edge", "5%"], capsys)
    assert status == 0
    solved = solver.paytable_solve(
        solve_for="rank-match", target_bonus_edge="5%", decks=2, paytable=FOUR, cache=Cache()
    )
    assert solved.to_json() == json.loads(out)


def test_a_tier_a_paytable_lacks_is_named_with_the_tiers_it_has() -> None:
    """Issue 41: "... is not in paytable match=5: use one of match" did not say why."""
    with pytest.raises(RulesError) as error:
        Paytable.parse("match=5").tier("suited-match")
    assert str(error.value) == (
        "Bonus tier suited-match is not in paytable match=5, whose tiers are its own: use match"
    )
