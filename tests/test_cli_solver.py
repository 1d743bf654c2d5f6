"""`cbj dealer`, `cbj solve` and `cbj advise` as a user runs them."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from solver.exact.dealer import dealer_distribution
from solver.model.cards import Shoe, parse_cards
from solver.model.rules import Rules

from .conftest import run_cli


def fraction(number: dict[str, Any]) -> Fraction:
    return Fraction(number["exact"])


def test_dealer_json_has_ten_exact_tables(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["dealer", "--format", "json"], capsys)
    doc = json.loads(out)
    assert status == 0 and doc["rules"]["dealer_stands_on"] == 18
    assert [t["bonus"] for t in doc["tables"]] == [
        "A",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
    ]
    for table in doc["tables"]:
        assert list(table["outcomes"]) == ["bust", "18", "19", "20", "21", "natural"]
        assert sum(fraction(p) for p in table["outcomes"].values()) == 1


def test_dealer_row_is_the_shoe_less_bonus_and_removed_cards(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run_cli(
        [
            "dealer",
            "--bonus",
            "7",
            "--removed",
            "K 5 5",
            "--dealer-stands-on",
            "17",
            "--format",
            "json",
        ],
        capsys,
    )
    assert status == 0
    (table,) = json.loads(out)["tables"]
    rules = Rules(dealer_stands_on=17)
    shoe = Shoe.full(6).remove(parse_cards("K 5 5 7")).value_counts()
    expected = dealer_distribution(rules, 7, shoe)
    assert {k: fraction(v) for k, v in table["outcomes"].items()} == expected
    assert table["removed"] == ["K", "5", "5"]


def solve_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    status, out, _ = run_cli(["solve", "--format", "json", *argv], capsys)
    assert status == 0
    document: dict[str, Any] = json.loads(out)
    return document


def test_solve_exact_and_float_agree_and_round_adds_up(capsys: pytest.CaptureFixture[str]) -> None:
    fast = solve_json(["--no-cache"], capsys)
    exact = solve_json(["--exact"], capsys)
    assert set(exact) >= {
        "rules",
        "main",
        "by_bonus_card",
        "by_start",
        "bonus",
        "round",
        "volatility",
    }
    assert "exact" not in fast["main"]["expected_value"]
    main_ev = fraction(exact["main"]["expected_value"])
    assert abs(float(main_ev) - fast["main"]["expected_value"]["float"]) < 1e-12
    for key in ("expected_value", "house_edge", "hit_frequency", "variance"):
        assert abs(float(fraction(exact["round"][key])) - fast["round"][key]["float"]) < 1e-12
    bonus_ev = fraction(exact["bonus"]["expected_value"])
    ratio = fraction(exact["round"]["bonus_ratio"])
    assert fraction(exact["round"]["expected_value"]) == main_ev + ratio * bonus_ev
    assert sum(fraction(s["probability"]) for s in exact["by_start"]) == 1
    assert sum(fraction(p) for p in exact["main"]["outcomes"].values()) == 1
    assert fraction(exact["volatility"]["round_variance"]) == fraction(exact["round"]["variance"])
    assert exact["volatility"]["index"]["float"] == pytest.approx(
        fast["volatility"]["index"]["float"], rel=1e-9
    )
    pays: dict[str, Fraction] = {
        "blackjack": Fraction(3, 2),
        "win": Fraction(1),
        "push": Fraction(0),
        "loss": Fraction(-1),
    }
    assert main_ev == sum(fraction(p) * pays[k] for k, p in exact["main"]["outcomes"].items())


def test_solve_is_read_back_from_the_cache(capsys: pytest.CaptureFixture[str]) -> None:
    first = solve_json(["--decks", "2"], capsys)
    again = solve_json(["--decks", "2"], capsys)
    assert first == again


@pytest.mark.parametrize("fmt", ["table", "csv", "md"])
def test_solve_text_formats_name_the_rules(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    comments = ["--comments"] if fmt == "csv" else []  # a CSV's notes are comments, asked for
    status, out, _ = run_cli(["solve", "--format", fmt, "--decks", "1", *comments], capsys)
    assert status == 0 and "rules: 1 deck;" in out and "1 decks" not in out


def test_suitless_removed_cards_skip_the_bonus_but_solve_the_main_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    document = solve_json(["--removed", "K Q 5", "--no-cache"], capsys)
    assert document["bonus"] is None and document["round"] is None
    assert document["volatility"] is None
    assert document["main"]["expected_value"]["float"] != 0


def test_advise_json_keys_and_decision(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(
        ["advise", "--bonus", "7", "--hand", "9 4", "--format", "json", "--exact"], capsys
    )
    doc = json.loads(out)
    assert status == 0 and doc["decision"] == "stand"
    assert fraction(doc["stand"]) > fraction(doc["hit"])


def test_advise_agrees_with_the_full_solve(capsys: pytest.CaptureFixture[str]) -> None:
    solved = solve_json(["--exact"], capsys)
    start = next(s for s in solved["by_start"] if s["player"] == "6" and s["bonus"] == "2")
    _, out, _ = run_cli(
        ["advise", "--bonus", "2", "--hand", "6", "--format", "json", "--exact"], capsys
    )
    doc = json.loads(out)
    assert doc["decision"] == start["decision"]
    assert max(fraction(doc["stand"]), fraction(doc["hit"])) == fraction(start["expected_value"])


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["advise", "--bonus", "7", "--hand", "10 10 5"], "busted"),
        (["advise", "--bonus", "10", "--hand", "A"], "blackjack"),
        (["advise", "--bonus", "7", "--hand", "As As", "--decks", "1"], "As"),
        (["advise", "--bonus", "7 8", "--hand", "9"], "exactly one"),
        (["advise", "--bonus", "7", "--hand", ""], "at least"),
        (["dealer", "--bonus", "11"], "11"),
        (["solve", "--dealer-stands-on", "25"], "25"),
        (["solve", "--jobs", "0"], "jobs"),
        (["solve", "--blackjack-pays", "three"], "three"),
    ],
)
def test_bad_input_is_one_line_with_status_2(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(argv, capsys)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and named in err
