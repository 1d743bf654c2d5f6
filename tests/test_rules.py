"""Rules as data: defaults follow the foundation table; bad values raise RulesError."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from solver.model.checks import is_whole, whole_number
from solver.model.errors import RulesError, SimulationError
from solver.model.rules import (
    PRESETS,
    RULE_TABLE,
    DealerNatural,
    NaturalBeats,
    Paytable,
    PresetName,
    Rules,
    parse_ratio,
)


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
    assert rules.natural_beats is NaturalBeats.MULTI_CARD_21


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
        ({"natural_beats": "everything"}, "everything"),
        ({"natural_beats_multi_card_21": "yes"}, "True or False"),
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


@pytest.mark.parametrize(
    "text", ["20:5:2", "15:4.5:1", "suited-match=15, rank-match=4, adjacent=1"]
)
def test_rules_read_a_paytable_given_as_its_text(text: str) -> None:
    # Rules' own message says "a Paytable or its text": the text is the parsed Paytable.
    assert Rules(paytable=text) == Rules(paytable=Paytable.parse(text))  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["15:4", "a:b:c"])
def test_rules_refuse_a_bad_paytable_text_as_parse_does(text: str) -> None:
    with pytest.raises(RulesError, match="pay"):
        Rules(paytable=text)  # type: ignore[arg-type]


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
        "dealer_bonus",
        "dealer_natural",
        "natural_beats",
    }
    assert list(Rules().to_json()) == [rule.name for rule in RULE_TABLE]


@pytest.mark.parametrize(
    ("alias", "given", "expected"),
    [
        (True, None, NaturalBeats.MULTI_CARD_21),
        (False, None, NaturalBeats.NOTHING),
        (True, NaturalBeats.NON_BLACKJACK, NaturalBeats.NON_BLACKJACK),
        (False, NaturalBeats.NOTHING, NaturalBeats.NOTHING),
        (None, NaturalBeats.NON_BLACKJACK, NaturalBeats.NON_BLACKJACK),
    ],
)
def test_clause_9_old_yes_no_option_is_an_alias_of_natural_beats(
    alias: bool | None, given: NaturalBeats | None, expected: NaturalBeats
) -> None:
    kwargs: dict[str, object] = {"natural_beats_multi_card_21": alias}
    if given is not None:
        kwargs["natural_beats"] = given
    rules = Rules(**kwargs)  # type: ignore[arg-type]
    assert rules.natural_beats is expected
    # The alias is folded in: equal rules compare, hash and print alike.
    assert rules == Rules(natural_beats=expected)
    assert hash(rules) == hash(Rules(natural_beats=expected))
    assert rules.natural_beats_multi_card_21 is None


@pytest.mark.parametrize(
    ("alias", "given"),
    [(True, NaturalBeats.NOTHING), (False, NaturalBeats.NON_BLACKJACK)],
)
def test_clause_9_contradicting_alias_is_refused(alias: bool, given: NaturalBeats) -> None:
    with pytest.raises(RulesError, match="contradicts"):
        Rules(natural_beats_multi_card_21=alias, natural_beats=given)


def test_casino_edition_preset_is_the_default_reading() -> None:
    assert Rules.from_preset("casino-edition") == Rules()
    assert PRESETS[PresetName.CASINO_EDITION].to_rules() == Rules()


def test_vegas_21_preset_sets_the_two_card_readings_and_keeps_the_rest() -> None:
    vegas = Rules.from_preset("vegas-21")
    assert vegas.dealer_natural is DealerNatural.BONUS_CARD
    assert vegas.natural_beats is NaturalBeats.NON_BLACKJACK
    assert vegas == Rules(
        dealer_natural=DealerNatural.BONUS_CARD, natural_beats=NaturalBeats.NON_BLACKJACK
    )
    preset = PRESETS[PresetName.VEGAS_21]
    sources = {rule.name: rule.source for rule in preset.rules}
    assert "must include the community card" in sources["dealer_natural"]
    assert "main wager loses" in sources["natural_beats"]
    assert "does not print" in sources["paytable"]
    assert {rule.name for rule in preset.rules} == set(Rules().to_json())


def test_options_given_with_a_preset_override_it() -> None:
    assert Rules.from_preset("vegas-21", decks=2).decks == 2
    assert Rules.from_preset("vegas-21", dealer_natural="none").dealer_natural is (
        DealerNatural.NONE
    )
    assert Rules.from_preset("vegas-21", natural_beats=None).natural_beats is (
        NaturalBeats.NON_BLACKJACK
    )
    # The old yes/no option replaces the preset's natural strength.
    assert Rules.from_preset("vegas-21", natural_beats_multi_card_21=False).natural_beats is (
        NaturalBeats.NOTHING
    )


@pytest.mark.parametrize(
    ("name", "overrides", "message"),
    [
        ("vegas", {}, "vegas"),
        ("", {}, "casino-edition, vegas-21"),
        ("vegas-21", {"decks": 12}, "decks 12"),
        ("vegas-21", {"bonus_ratio": Fraction(1, 3)}, "below 1/2"),
        ("vegas-21", {"shoes": 2}, "shoes"),
    ],
)
def test_bad_presets_and_overrides_are_named(
    name: str, overrides: dict[str, object], message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_preset(name, **overrides)


def test_preset_json_lists_every_rule_with_its_source() -> None:
    data = PRESETS[PresetName.VEGAS_21].to_json()
    assert data["preset"] == "vegas-21"
    assert {row["rule"]: row["value"] for row in data["rules"]} == Rules.from_preset(
        "vegas-21"
    ).to_json()
    assert all(row["source"] for row in data["rules"])


@pytest.mark.parametrize("value", [True, False, 2.0, "2", None, Fraction(2)])
def test_whole_number_refuses_anything_but_an_int(value: object) -> None:
    with pytest.raises(RulesError, match="must be a whole number from 1 to 8"):
        whole_number(value, "decks", 1, 8)


@pytest.mark.parametrize(
    ("low", "high", "value", "message"),
    [
        (1, 8, 0, "decks 0 is out of range: use 1 to 8"),
        (1, None, 0, "decks 0 is out of range: use 1 or more"),
        (None, 8, 9, "decks 9 is out of range: use at most 8"),
    ],
)
def test_whole_number_names_its_range(
    low: int | None, high: int | None, value: int, message: str
) -> None:
    with pytest.raises(RulesError) as error:
        whole_number(value, "decks", low, high)
    assert str(error.value) == message
    assert whole_number(4, "decks", low, high) == 4


def test_whole_number_raises_the_callers_error() -> None:
    with pytest.raises(SimulationError, match="rounds 0"):
        whole_number(0, "rounds", 1, error=SimulationError)
    assert is_whole(3) and not is_whole(True) and not is_whole("3")


@pytest.mark.parametrize(
    ("given", "text"),
    [
        ({"paytable": (20, 5, 2)}, {"paytable": "20:5:2"}),
        ({"paytable": [20, 5, "2.5"]}, {"paytable": "20:5:2.5"}),
        ({"paytable": ((41, 2), 5, 2)}, {"paytable": "20.5:5:2"}),
        (
            {
                "paytable": {
                    "suited-match": 15,
                    "rank_match": 4,
                    "suited-adjacent": 2,
                    "adjacent": 1,
                }
            },
            {"paytable": "suited-match=15,rank-match=4,suited-adjacent=2,adjacent=1"},
        ),
        ({"blackjack_pays": (6, 5)}, {"blackjack_pays": "6:5"}),
        ({"blackjack_pays": [6, 5]}, {"blackjack_pays": "6:5"}),
        ({"bonus_ratio": (3, 4)}, {"bonus_ratio": "3/4"}),
    ],
)
def test_a_list_or_tuple_form_reads_as_its_text(
    given: dict[str, Any], text: dict[str, Any]
) -> None:
    assert Rules.from_options(**given) == Rules.from_options(**text)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"paytable": (15, 4)}, "a paytable of 3 tiers has 3 pays, not 2"),
        ({"paytable": {"match": 2, "suited-match": 9}}, "suited-match is never paid"),
        ({"blackjack_pays": (3, 0)}, r"blackjack pays \(3, 0\) divides by 0"),
        ({"blackjack_pays": (3, 2, 1)}, r"\(3, 2, 1\) is not a pair of whole numbers"),
        ({"blackjack_pays": (1.5, 1)}, r"\(1.5, 1\) is not a pair of whole numbers"),
        ({"bonus_ratio": (-1, 2)}, "bonus ratio -1/2 is negative"),
        ({"paytable": (15, "x", 1)}, "rank_match pay 'x' is not a number"),
    ],
)
def test_a_bad_list_or_tuple_form_is_named(given: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_options(**given)
