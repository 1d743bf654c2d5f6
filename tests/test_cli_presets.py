"""``--preset`` and the clause 9 options on the command line."""

from __future__ import annotations

import json

import pytest

from solver.model.rules import Rules

from .conftest import run_cli


def test_rules_with_a_preset_list_its_rules_and_their_sources(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run_cli(["rules", "--preset", "vegas-21", "--format", "json"], capsys)
    assert code == 0
    document = json.loads(out)
    assert document["rules"] == Rules.from_preset("vegas-21").to_json()
    sources = {row["rule"]: row["source"] for row in document["preset"]["rules"]}
    assert "must include the community card" in sources["dealer_natural"]
    code, out, _ = run_cli(["rules", "--preset", "vegas-21"], capsys)
    assert "playvegas21.com" in out and "does not print" in out


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], Rules()),
        (["--preset", "casino-edition"], Rules()),
        (["--preset", "vegas-21", "--decks", "2"], Rules.from_preset("vegas-21", decks=2)),
        (
            ["--preset", "vegas-21", "--natural-beats", "multi_card_21"],
            Rules(dealer_natural="bonus_card"),  # type: ignore[arg-type]
        ),
        (["--no-natural-beats-multi-card-21"], Rules(natural_beats="nothing")),  # type: ignore[arg-type]
        (
            ["--preset", "vegas-21", "--no-natural-beats-multi-card-21"],
            Rules(dealer_natural="bonus_card", natural_beats="nothing"),  # type: ignore[arg-type]
        ),
        (["--dealer-natural", "bonus_card"], Rules(dealer_natural="bonus_card")),  # type: ignore[arg-type]
    ],
)
def test_options_given_with_a_preset_override_it(
    argv: list[str], expected: Rules, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(["rules", *argv, "--format", "json"], capsys)
    assert code == 0
    assert json.loads(out)["rules"] == expected.to_json()


@pytest.mark.parametrize(
    "argv",
    [
        ["--preset", "vegas"],
        ["--natural-beats", "everything"],
        ["--dealer-natural", "community"],
        ["--natural-beats", "non_blackjack", "--no-natural-beats-multi-card-21"],
    ],
)
def test_bad_presets_and_readings_get_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(["rules", *argv], capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1


TINY = (
    "Ah Ad Ac 2h 2d 2c 3h 3d 3c 3s 4h 4d 4c 4s 5h 5d 5c 6h 6d 6c 6s 7d 7c 8h 8c 9d 9c "
    "10h 10d Jh Jc Qh Qd Kd Kc Ks"
)


def test_strategies_json_is_the_api_result(capsys: pytest.CaptureFixture[str]) -> None:
    from solver.api.functions import strategies

    argv = ["strategies", "--preset", "vegas-21", "--decks", "1", "--no-cache"]
    argv += ["--strategies", "optimal,stand-on:17,never-bust", "--bonus-ratios", "1/2,2"]
    code, out, _ = run_cli([*argv, "--removed", TINY, "--format", "json"], capsys)
    assert code == 0
    document = json.loads(out)
    result = strategies(
        preset="vegas-21",
        decks=1,
        removed=TINY,
        names=["optimal", "stand-on:17", "never-bust"],
        bonus_ratios=["1/2", "2"],
    )
    assert document == json.loads(json.dumps(result.to_json()))
    assert [row["name"] for row in document["strategies"]] == [
        "optimal",
        "stand-on:17",
        "never-bust",
    ]
    assert document["strategies"][0]["cost"]["exact"] == "0"
    assert [row["ratio"]["exact"] for row in document["bonus_ratios"]] == ["1/2", "2"]
    assert document["volatility"]["index"]["z"] == pytest.approx(1.6448536269514722)


@pytest.mark.parametrize(
    "argv",
    [
        ["--bonus-ratios", "1/3"],
        ["--bonus-ratios", "1/2,,2"],
        ["--strategies", "hit-me"],
        ["--strategies", "stand-on:99"],
        ["--preset", "atlantic-city"],
    ],
)
def test_bad_strategies_options_get_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(["strategies", "--no-cache", *argv], capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["--seats", "0-7"],
        ["--seats", "1,,2"],
        ["--rounds", "0"],
        ["--seed", "-1"],
        ["--strategy", "hit-me"],
    ],
)
def test_bad_seats_options_get_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(["seats", "--no-cache", "--rounds", "10", *argv], capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
