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
