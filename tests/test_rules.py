"""Rules as data: defaults follow the foundation table; bad values raise RulesError."""

from __future__ import annotations

from fractions import Fraction

import pytest

from solver.model.errors import RulesError
from solver.model.rules import DealerNatural, Paytable, Rules, parse_ratio


def test_defaults_are_the_documented_reading() -> None:
    rules = Rules()
    assert rules.decks == 6
    assert rules.bonus_ratio == Fraction(1, 2)
    assert rules.paytable == Paytable(
        suited_match=Fraction(15), rank_match=Fraction(4), adjacent=Fraction(1)
    )
    assert rules.blackjack_pays == Fraction(3, 2)
    assert rules.dealer_stands_on == 18
    assert rules.dealer_natural is DealerNatural.WITH_BONUS
    assert rules.natural_beats_multi_card_21 is True


def test_rules_are_keyword_only_and_frozen() -> None:
    with pytest.raises(TypeError):
        Rules(6)  # type: ignore[call-arg]
    with pytest.raises(AttributeError):
        Rules().decks = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"decks": 0}, "decks 0"),
        ({"decks": 9}, "decks 9"),
        ({"bonus_ratio": Fraction(2, 5)}, "below 1/2"),
        ({"dealer_stands_on": 11}, "11"),
        ({"dealer_stands_on": 22}, "22"),
        ({"dealer_natural": "sometimes"}, "sometimes"),
        ({"blackjack_pays": 0}, "more than 0"),
    ],
)
def test_clause_options_out_of_range_are_named(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("3:2", Fraction(3, 2)),
        ("6:5", Fraction(6, 5)),
        ("1/2", Fraction(1, 2)),
        ("0.5", Fraction(1, 2)),
        ("2", 2),
    ],
)
def test_ratios_parse_exactly(text: str, value: Fraction) -> None:
    assert parse_ratio(text) == value


@pytest.mark.parametrize("text", ["15:4", "15:4:1:1", "a:b:c", "15:-4:1", "15::1"])
def test_malformed_paytables_are_rejected(text: str) -> None:
    with pytest.raises(RulesError, match="pay"):
        Paytable.parse(text)


def test_paytable_accepts_decimal_pays() -> None:
    assert Paytable.parse("15:4.5:1").rank_match == Fraction(9, 2)
    assert str(Paytable.parse("15:4.5:1")) == "15:4.5:1"


def test_json_of_rules_names_every_option() -> None:
    assert set(Rules().to_json()) == {
        "decks",
        "bonus_ratio",
        "paytable",
        "blackjack_pays",
        "dealer_stands_on",
        "dealer_natural",
        "natural_beats_multi_card_21",
    }
