"""The Bonus wager (clause 4) against brute-force enumeration of ordered card pairs."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver
from solver.exact.bonus import analyse_bonus, combinations_by_values
from solver.model.cards import RANKS, SUITS, Card, Shoe, parse_cards
from solver.model.errors import RulesError, ShoeError
from solver.model.outcomes import BonusOutcome, bonus_outcome
from solver.model.paytable import LOSE, Tier, tier_named
from solver.model.rules import Paytable, Rules
from solver.studies.verification import bonus_return_by_suit

from .conftest import physical_cards


def brute_force_counts(shoe: Shoe) -> Counter[str]:
    """Deal every ordered pair of distinct physical cards and classify it."""
    return Counter(bonus_outcome(p, c) for p, c in permutations(physical_cards(shoe), 2))


def test_clause_4_tiers() -> None:
    def outcome(a: str, b: str) -> str:
        return str(bonus_outcome(Card.parse(a), Card.parse(b)))

    assert outcome("7s", "7s") == "suited_match"
    assert outcome("7s", "7h") == "rank_match"
    assert outcome("As", "2h") == "adjacent"
    assert outcome("Kd", "Ac") == "adjacent"  # 4.c.i: the ace touches the king
    assert outcome("10d", "Jc") == "adjacent"
    assert outcome("Jd", "Kc") == "loss"  # 4.c.ii: ranks, not blackjack values
    assert outcome("Jd", "Qc") == "adjacent"
    assert outcome("3d", "5c") == "loss"


@pytest.mark.parametrize("decks", [1, 2, 6])
def test_exact_probabilities_match_brute_force(decks: int) -> None:
    shoe = Shoe.full(decks)
    analysis = analyse_bonus(Rules(decks=decks))
    brute = brute_force_counts(shoe)
    n = shoe.total * (shoe.total - 1)
    for line in analysis.lines:
        assert line.combinations == brute[line.outcome]
        assert line.probability == Fraction(brute[line.outcome], n)


def test_six_deck_default_expected_value_by_hand() -> None:
    # Derived by hand: of the 311 cards left after the player's card, 5 are the same
    # card, 18 the same rank in another suit, 48 an adjacent rank and 240 lose.
    assert analyse_bonus().expected_value == Fraction(5 * 15 + 18 * 4 + 48 * 1 - 240, 311)


def test_removed_cards_match_brute_force() -> None:
    removed = parse_cards("As Ah 2s Kd Kd 7c")
    shoe = Shoe.full(2).remove(removed)
    brute = brute_force_counts(shoe)
    analysis = analyse_bonus(Rules(decks=2), removed)
    assert {ln.outcome: ln.combinations for ln in analysis.lines} == dict(brute)


def test_suitless_removed_cards_are_refused_for_the_bonus() -> None:
    with pytest.raises(ShoeError, match="suits"):
        analyse_bonus(Rules(), parse_cards("K"))


def test_moments_follow_from_the_return_table() -> None:
    analysis = analyse_bonus()
    mean = analysis.expected_value
    second = sum((ln.pays**2 * ln.probability for ln in analysis.lines), Fraction(0))
    assert analysis.variance == second - mean**2
    assert analysis.hit_frequency == 1 - analysis.lines[-1].probability
    assert analysis.house_edge == -mean


def test_value_pair_table_adds_up_to_the_outcome_counts() -> None:
    shoe = Shoe.full(6)
    table = combinations_by_values(shoe)
    assert sum(sum(cell.values()) for cell in table.values()) == 312 * 311
    # A player ten-value card and a Bonus ace: 96 * 24 pairs, adjacent only for K-A.
    assert table[(10, 1)][BonusOutcome.ADJACENT] == 24 * 24


pay = st.fractions(min_value=0, max_value=100, max_denominator=4)
card_text = st.sampled_from([f"{r}{s}" for r in RANKS for s in SUITS])


@settings(max_examples=40, deadline=None)
@given(st.lists(card_text, max_size=12), pay, pay, pay, st.integers(1, 8))
def test_probabilities_sum_to_one_and_ev_is_linear_in_pays(
    removed: list[str], s: Fraction, r: Fraction, a: Fraction, decks: int
) -> None:
    cards = parse_cards(removed)
    try:
        Shoe.full(decks).remove(cards)
    except ShoeError:
        return
    rules = Rules(decks=decks, paytable=Paytable(suited_match=s, rank_match=r, adjacent=a))
    analysis = analyse_bonus(rules, cards)
    assert sum(ln.probability for ln in analysis.lines) == 1
    assert all(ln.combinations >= 0 for ln in analysis.lines)
    import sympy  # here, not at collection: about a second of every worker's start-up

    expression = analysis.symbolic_expected_value()
    value = expression.subs(
        {"S": sympy.Rational(s), "R": sympy.Rational(r), "A": sympy.Rational(a)}
    )
    assert Fraction(str(value)) == analysis.expected_value


# --- Paytables of named tiers ---------------------------------------------------------------

FOUR_TIERS = "suited-match=15,rank-match=4,suited-adjacent=2,adjacent=1"


def pair_kind(player: Card, bonus: Card) -> str:
    """The four-tier paytable's outcome, written here from the tiers' words alone."""
    step = abs(player.rank.order - bonus.rank.order)
    apart = min(step, 13 - step)
    same_suit = player.suit == bonus.suit
    if apart == 0:
        return "suited_match" if same_suit else "rank_match"
    if apart == 1:
        return "suited_adjacent" if same_suit else "adjacent"
    return LOSE


def test_a_four_tier_bonus_ev_is_its_combinations_counted_by_brute_force() -> None:
    cards = physical_cards(Shoe.full(6))
    brute = Counter(pair_kind(a, b) for a, b in permutations(cards, 2))
    # The counts of the 48,516 unordered two-card combinations of six decks.
    assert {k: n // 2 for k, n in brute.items() if k != LOSE} == {
        "suited_match": 780,
        "rank_match": 2808,
        "suited_adjacent": 1872,
        "adjacent": 5616,
    }
    rules = Rules(paytable=Paytable.parse(FOUR_TIERS))
    analysis = analyse_bonus(rules)
    assert {str(ln.outcome): ln.combinations for ln in analysis.lines} == dict(brute)
    pays = {"suited_match": 15, "rank_match": 4, "suited_adjacent": 2, "adjacent": 1, LOSE: -1}
    total = len(cards) * (len(cards) - 1)
    assert analysis.expected_value == Fraction(sum(pays[k] * n for k, n in brute.items()), total)
    assert analysis.to_json()["paytable"] == {
        "suited_match": "15", "rank_match": "4", "suited_adjacent": "2", "adjacent": "1"
    }  # fmt: skip


def holds_by_hand(tier: Tier, player: Card, bonus: Card) -> bool:
    step = abs(player.rank.order - bonus.rank.order)
    if min(step, 13 - step) != tier.distance:
        return False
    if tier.rank is not None and tier.rank not in (player.rank.order, bonus.rank.order):
        return False
    return tier.suited is None or (player.suit == bonus.suit) is tier.suited


@pytest.mark.parametrize(
    "text",
    [
        "suited-ace-match=50,match=5,king-adjacent=3,adjacent=1",
        "unsuited-queen-adjacent=7,suited-match=20",
        "ace-adjacent=3,suited-adjacent=2,unsuited-adjacent=1",
    ],
)
def test_any_tier_list_with_removed_cards_matches_every_pair_dealt(text: str) -> None:
    paytable = Paytable.parse(text)
    removed = parse_cards("As Ah 2s Kd Kd Qc 7c")
    shoe = Shoe.full(2).remove(removed)
    brute: Counter[str] = Counter()
    for a, b in permutations(physical_cards(shoe), 2):
        reached = next((t.name for t in paytable.tiers if holds_by_hand(t, a, b)), LOSE)
        brute[reached] += 1
    analysis = analyse_bonus(Rules(decks=2, paytable=paytable), removed)
    assert {str(ln.outcome): ln.combinations for ln in analysis.lines if ln.combinations} == dict(
        brute
    )
    assert [str(ln.outcome) for ln in analysis.lines] == list(paytable.outcomes)


def test_tier_lists_parse_print_and_paste_back() -> None:
    table = Paytable.parse(" Suited-Match=15 , rank_match=4.5, suited-adjacent=5/2,adjacent=1")
    assert str(table) == "suited-match=15,rank-match=4.5,suited-adjacent=2.5,adjacent=1"
    assert Paytable.parse(str(table)) == table and eval(repr(table)) == table
    assert table.pay("suited-adjacent") == Fraction(5, 2) and table.suited_adjacent == 2.5
    assert Paytable.parse("suited-match=15,unsuited-match=4,adjacent=1") == Paytable()
    assert str(Paytable.parse("suited-match=15,rank-match=4,adjacent=1")) == "15:4:1"
    assert tier_named("suited-ace-match").rank == 0 and tier_named("KING-adjacent").rank == 12


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("suited-match=15,adjacent", "malformed"),
        ("suited-match=15,,adjacent=1", "malformed"),
        ("suited-pair=15", "unknown"),
        ("suited-one-match=15", "unknown"),
        ("adjacent=1,adjacent=2", "twice"),
        ("adjacent=1,suited-adjacent=2", "never paid"),
        ("match=5,suited-ace-match=50", "never paid"),
        ("suited-match=-1", "negative"),
        ("suited-match=20000", "out of range"),
        ("15:4", "malformed"),
        (",".join(["adjacent=1"] * 17), "at most"),
    ],
)  # fmt: skip
def test_bad_tier_lists_are_refused_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Paytable.parse(text)


def test_named_tier_rules_round_trip_through_json_and_the_cache_key() -> None:
    rules = Rules(decks=2, paytable=Paytable.parse(FOUR_TIERS))
    assert Rules.from_canonical(rules.canonical()) == rules
    assert rules.canonical()["paytable"][2] == ["suited-adjacent", [2, 1]]
    assert Rules(decks=2).canonical()["paytable"] == [[15, 1], [4, 1], [1, 1]]
    assert rules.paytable != Paytable() and rules.canonical() != Rules(decks=2).canonical()


@pytest.mark.parametrize(
    "text", [FOUR_TIERS, "suited-ace-match=50,match=5,king-adjacent=3,adjacent=1"]
)
def test_the_simulator_settles_named_tiers_as_the_paytable_does(text: str) -> None:
    from solver.sim.deal import bonus_tier_table, deal_stacked
    from solver.sim.strategies import StandOn

    paytable = Paytable.parse(text)
    table = bonus_tier_table(paytable.tiers)
    cards = [Card.parse(f"{r}{s}") for r in RANKS for s in SUITS]  # in code order
    for a, first in enumerate(cards):
        for b, second in enumerate(cards):
            assert paytable.outcomes[table[a, b]] == paytable.outcome(first, second)
    rules = Rules(paytable=paytable)
    [seat] = deal_stacked(parse_cards("Ks Qs 10d 10c 10h"), rules, StandOn(0))
    assert seat.bonus == paytable.outcome(Card.parse("Ks"), Card.parse("Qs"))
    assert seat.bonus_net == paytable.net(seat.bonus)


def test_a_simulation_under_named_tiers_counts_each_tier() -> None:
    from solver.sim.run import simulate
    from solver.sim.strategies import StandOn

    rules = Rules(paytable=Paytable.parse(FOUR_TIERS))
    result = simulate(rules, StandOn(17), rounds=2000, seed=7)
    frequencies = result.overall.bonus.frequencies
    assert list(frequencies) == list(rules.paytable.outcomes)
    assert sum(frequencies.values()) == 2000 and frequencies["suited_adjacent"] > 0


tier_names = st.sampled_from(
    [f"{s}{r}{k}" for s in ("", "suited-", "unsuited-") for r in ("", "ace-", "king-", "ten-")
     for k in ("match", "adjacent")]
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(tier_names, pay), min_size=1, max_size=6))
def test_tier_lists_print_and_parse_back_or_are_refused(items: list[tuple[str, Fraction]]) -> None:
    text = ",".join(f"{name}={pay.numerator}/{pay.denominator}" for name, pay in items)
    try:
        table = Paytable.parse(text)
    except RulesError as error:
        assert "\n" not in str(error)
        return
    assert Paytable.parse(str(table)) == table
    assert Rules.from_canonical(Rules(paytable=table).canonical()).paytable == table
    assert sum(ln.probability for ln in analyse_bonus(Rules(decks=1, paytable=table)).lines) == 1


def test_each_suits_bonus_return_is_the_games_under_a_paytable_of_its_own_tiers() -> None:
    """The report's by-suit invariant under ``--paytable match=5`` (issue 41: it asked the
    clause's tiers of a paytable that has only ``match``, and the report failed)."""
    played = solver.rules(paytable="match=5").rules
    expected = solver.bonus(paytable="match=5").expected_value
    assert bonus_return_by_suit(played) == {str(suit): expected for suit in SUITS}
