"""Cards and shoes: parsing (every spelling the CLI accepts) and composition bookkeeping."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.model.cards import RANKS, SUITS, Card, Rank, Shoe, Suit, parse_cards, parse_value
from solver.model.errors import CardError, ShoeError


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("A", Rank.ACE, None),
        ("as", Rank.ACE, Suit.SPADES),
        ("10h", Rank.TEN, Suit.HEARTS),
        ("T", Rank.TEN, None),
        ("td", Rank.TEN, Suit.DIAMONDS),
        ("Kc", Rank.KING, Suit.CLUBS),
        ("q", Rank.QUEEN, None),
        (" 7S ", Rank.SEVEN, Suit.SPADES),
    ],
)
def test_card_spellings(text: str, rank: Rank, suit: Suit | None) -> None:
    assert Card.parse(text) == Card(rank, suit)


@pytest.mark.parametrize("text", ["", "1", "11", "Z", "Ax", "10hh", "B7"])
def test_unknown_cards_are_rejected_with_the_bad_text(text: str) -> None:
    with pytest.raises(CardError, match="unknown card"):
        Card.parse(text)


def test_repr_pastes_back_as_code() -> None:
    card = Card.parse("Qd")
    assert eval(repr(card)) == card


def test_parse_cards_accepts_commas_and_spaces() -> None:
    assert parse_cards("As, 10h  K,2") == (
        Card(Rank.ACE, Suit.SPADES),
        Card(Rank.TEN, Suit.HEARTS),
        Card(Rank.KING),
        Card(Rank.TWO),
    )
    assert parse_cards("") == ()


def test_blackjack_values_of_ranks() -> None:
    assert [r.points for r in RANKS] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert parse_value("J") == 10 and parse_value("a") == 1


def test_clause_1_full_shoe_is_six_standard_decks() -> None:
    shoe = Shoe.full(6)
    assert shoe.total == 312
    assert shoe.value_counts() == (24,) * 9 + (96,)
    assert all(shoe.count(r, s) == 6 for r in RANKS for s in SUITS)


def test_removing_too_many_copies_is_an_error() -> None:
    one_deck = Shoe.full(1)
    with pytest.raises(ShoeError, match="As"):
        one_deck.remove(parse_cards("As As"))
    with pytest.raises(ShoeError):
        one_deck.remove(parse_cards("K K K K K"))
    with pytest.raises(ShoeError):
        one_deck.remove(parse_cards("K K K Ks Kh"))


def test_suitless_removal_takes_the_rank_but_leaves_suits_unknown() -> None:
    shoe = Shoe.full(2).remove(parse_cards("K"))
    assert shoe.rank_counts()[12] == 7 and not shoe.suits_known
    assert shoe.value_counts()[9] == 31


@given(
    st.lists(st.sampled_from([f"{r}{s}" for r in RANKS for s in SUITS] + list(RANKS)), max_size=60)
)
def test_removal_never_leaves_negative_counts_and_is_order_free(texts: list[str]) -> None:
    cards = parse_cards(texts)
    try:
        forward = Shoe.full(1).remove(cards)
    except ShoeError:
        return
    assert all(c >= 0 for c in forward.rank_counts())
    assert forward.total == 52 - len(cards)
    assert Shoe.full(1).remove(reversed(cards)) == forward


@pytest.mark.parametrize(
    ("text", "expected"),
    [("\u212a", "K"), ("\uff21s", "As"), ("\uff11\uff10h", "10h"), ("A\u017f", "As")],
)
def test_compatibility_forms_read_as_their_ascii_letters(text: str, expected: str) -> None:
    """NFKC maps the Kelvin sign to K, fullwidth letters and digits to ASCII, long s to s."""
    assert Card.parse(text) == Card.parse(expected)


@given(st.text(max_size=6))
def test_any_text_is_a_card_or_a_card_error(text: str) -> None:
    try:
        card = Card.parse(text)
    except CardError as error:
        assert "\n" not in str(error)
    else:
        assert str(card).isascii()


@given(st.text(max_size=30))
def test_any_text_is_a_card_list_or_a_card_error(text: str) -> None:
    try:
        cards = parse_cards(text)
    except CardError as error:
        assert "\n" not in str(error)
    else:
        assert all(str(card).isascii() for card in cards)


@pytest.mark.parametrize("text", ["\u0131", "\u0130", "\u00df", "\u0665", "A\u0455"])
def test_look_alikes_that_are_not_ascii_letters_are_refused(text: str) -> None:
    """Dotless i, dotted I, sharp s, an Arabic-Indic five, a Cyrillic s: none is a card."""
    with pytest.raises(CardError, match="unknown card"):
        Card.parse(text)
