"""The simulated card counter (``cbj simulate --counter``): its count, its bets, its results.

The running count is checked against a brute-force count over the cards of stacked shoes,
the round boundaries against :func:`deal_stacked`, the bets against hand-made ramps, and
a flat-betting counter against the exact solver's round EV.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver
from solver.exact.game import solve_game
from solver.model.cards import Card, Shoe, parse_cards
from solver.model.counts import LABELS, SYSTEMS, rank_label
from solver.model.errors import CountError, ShoeError
from solver.model.outcomes import MainOutcome
from solver.model.rules import Rules
from solver.results.indices import IndexRule
from solver.results.simulation import Counter, SeatRound
from solver.sim import AlwaysStand, StandOn, card_code, deal_stacked, simulate
from solver.sim.counter import bet_units, count_stacked, parse_bets, tag_of_code
from solver.store.memory import MemoryCache

from .conftest import physical_cards, run_cli

#: An unbalanced count, so the drift taken off the true count is not zero.
LOPSIDED = {"A": -2, "2": 1, "3": 2, "4": 0, "5": 1, "6": 3, "7": 0, "8": -1, "9": 1} | {
    r: -1 for r in "TJQK"
}


def tag_of(card: Card, tags: dict[str, int]) -> int:
    return tags[rank_label(card.rank)]


# --- the running and true count over stacked shoes --------------------------------------


@pytest.mark.parametrize(
    ("seed", "tags", "seats"),
    [(1, SYSTEMS["hi-lo"], 1), (2, LOPSIDED, 1), (3, SYSTEMS["ko"], 3), (4, LOPSIDED, 2)],
)
def test_running_and_true_count_equal_a_brute_force_count_of_the_cards_dealt(
    seed: int, tags: dict[str, int], seats: int
) -> None:
    cards = random.Random(seed).sample(physical_cards(Shoe.full(1)), 40)
    counter = Counter("test", tags)
    rules = Rules(decks=1)
    played = count_stacked(cards, rules, StandOn(15), counter, 12, 0.5, seats)
    position, drift = 0, Fraction(sum(tags.values()) * 4, 52)
    for counted in played:
        if position >= 20:  # the cut card: the stacked shoe starts again from its top
            position = 0
        dealt = cards[position : position + len(counted.cards)]
        assert list(counted.cards) == dealt
        assert counted.running == sum(tag_of(c, tags) for c in cards[:position])
        decks_left = Fraction(len(cards) - position, 52)
        assert counted.true_count == float((counted.running - drift * position) / decks_left)
        # The round took exactly its cards: they settle it, and one card fewer cannot.
        assert deal_stacked(dealt, rules, StandOn(15), seats) == counted.seats
        with pytest.raises(ShoeError):
            deal_stacked(dealt[:-1], rules, StandOn(15), seats)
        position += len(counted.cards)
    assert position > 0 and sum(1 for c in played if c.running) > 3


def test_the_bet_follows_the_count_of_a_hand_made_shoe() -> None:
    # Round 1: player 2, Bonus 3, dealer 4 5 6 (15, or 18 with the Bonus: stops): five
    # Hi-Lo +1 cards.  Round 2 then sees a running count of 5 with 47 cards left:
    # true count 5 * 52 / 47 = 5.53, so the default 1-8 ramp bets 5 units.
    top = parse_cards("2s 3s 4s 5s 6s")
    rest = [c for c in physical_cards(Shoe.full(1)) if c not in top]
    counter = Counter("hi-lo", SYSTEMS["hi-lo"])
    first, second = count_stacked([*top, *rest], Rules(decks=1), AlwaysStand(), counter, 2)
    assert (first.running, first.units, len(first.cards)) == (0, 1, 5)
    assert second.running == 5 and second.true_count == 5 * 52 / 47 and second.units == 5


def test_an_index_play_changes_the_counters_play_exactly_where_its_true_count_fires() -> None:
    # Round 1: player T, Bonus A, a blackjack that ends the round: Hi-Lo -2 with 50 cards
    # left, so round 2 sizes up a true count of -2 * 52 / 50 = -2.08.  Round 2: player 5,
    # Bonus 2, a hit of 10: own cards hard 15 (17 with the Bonus card), which the base
    # play (hit below 21) hits again, busting on the next 10, unless the index "stand at
    # -1 and below" fires: then the dealer draws that 10, a 4 and a 10 (2 + 24) and busts.
    top = parse_cards("Ts Ah 5s 2s Th Tc 4h Td")
    rest = [c for c in physical_cards(Shoe.full(1)) if c not in top]
    cards, rules, base = [*top, *rest], Rules(decks=1), StandOn(21)
    stand = IndexRule(False, 15, 2, -1.0, False, False)

    def second_round(*indices: IndexRule) -> tuple[float, tuple[Card, ...], tuple[SeatRound, ...]]:
        counter = Counter("hi-lo", SYSTEMS["hi-lo"], indices=indices)
        _, played = count_stacked(cards, rules, base, counter, 2)
        return played.true_count, played.cards, played.seats

    true_count, dealt, seats = second_round(stand)
    assert true_count == -2 * 52 / 50 and dealt == tuple(top[2:])
    assert seats == deal_stacked(dealt, rules, StandOn(17))  # stood on own 15, 17 in all
    assert seats[0].main is MainOutcome.WIN
    for plain in ((), (replace(stand, index=-3.0),), (replace(stand, bonus=3),)):
        _, dealt, seats = second_round(*plain)
        assert seats == deal_stacked(dealt, rules, base), plain
        assert dealt == tuple(top[2:6]) and seats[0].main is MainOutcome.LOSE  # took the 10


# --- the ramp ----------------------------------------------------------------------------


def test_the_default_ramp_adds_a_unit_per_true_count_from_two_up_to_the_spread() -> None:
    counter = Counter("hi-lo", SYSTEMS["hi-lo"], (1, 8))
    true_counts = [-7.0, 0.0, 1.0, 1.999, 2.0, 2.5, 3.0, 7.99, 8.0, 30.0]
    bets = [1, 1, 1, 1, 2, 2, 3, 7, 8, 8]
    assert bet_units(counter, np.array(true_counts)).tolist() == bets
    two_to_four = Counter("hi-lo", SYSTEMS["hi-lo"], (2, 4))
    assert bet_units(two_to_four, np.array([1.5, 2.0, 3.2, 9.0])).tolist() == [2, 3, 4, 4]


def test_a_given_ramp_is_clamped_to_the_spread_and_wongs_out_below_its_count() -> None:
    spread, ramp, wong_out = parse_bets("2-6", "3:10, -1:1, 1.5:4", "-2")
    assert ramp == ((-1.0, 1), (1.5, 4), (3.0, 10))
    counter = Counter("ko", SYSTEMS["ko"], spread, ramp, wong_out)
    true_counts = [-2.5, -2.0, -1.5, -1.0, 1.4, 1.5, 2.9, 3.0, 12.0]
    assert bet_units(counter, np.array(true_counts)).tolist() == [0, 2, 2, 2, 2, 4, 4, 6, 6]


# --- simulated results --------------------------------------------------------------------


def test_a_flat_betting_counter_wins_the_exact_round_ev(games: MemoryCache) -> None:
    rules = Rules()
    game = solve_game(rules, exact=True, cache=games)
    result = solver.simulate(
        rounds=200_000, seed=13, counter="hi-lo", spread="1-1", penetration=0.83, cache=games
    )
    counter = result.counter
    assert counter is not None and counter.rounds_played == 200_000
    assert counter.average_bet == 1 and counter.wagered_per_round == 1.5
    z = (counter.mean - float(game.round_expected_value)) / counter.standard_error
    assert abs(z) < 3
    assert counter.edge == pytest.approx(counter.mean / 1.5)
    assert counter.mean == pytest.approx(result.overall.round.mean)  # seat 1 is the table


def test_a_counter_betting_three_units_wins_three_times_the_seats_round() -> None:
    counter = Counter("ko", SYSTEMS["ko"], (3, 3))
    result = simulate(Rules(), StandOn(17), 4_000, seed=9, counter=counter, seats=2)
    statistics = result.counter
    assert statistics is not None and statistics.wagered_per_round == 4.5
    assert statistics.mean == pytest.approx(3 * result.seat(0).round.mean)
    assert statistics.sd == pytest.approx(3 * result.seat(0).round.standard_error * 4_000**0.5)
    by_true_count = statistics.rounds_by_true_count
    assert sum(n for _, n, _, _ in by_true_count) == 4_000 and len(by_true_count) > 3
    total = sum(n * mean for _, n, mean, _ in by_true_count)
    assert total == pytest.approx(4_000 * result.seat(0).round.mean)


def test_bets_and_sitting_out_add_up_and_do_not_depend_on_jobs() -> None:
    from joblib import parallel_config

    counter = Counter("hi-lo", SYSTEMS["hi-lo"], (1, 4), wong_out=-1.0)

    def run(jobs: int) -> str:
        result = simulate(
            Rules(), StandOn(17), 6_000, seed=5, jobs=jobs, chunk_rounds=3_000, counter=counter
        )
        return json.dumps(result.to_json())

    with parallel_config(backend="threading"):  # threads: no worker start-up in the test
        one = run(1)
        assert one == run(2)
    document = json.loads(one)["counter"]
    by_bet = {int(u): n for u, n in document["rounds_by_bet"].items()}
    assert sum(by_bet.values()) == 6_000 and by_bet[0] == document["rounds_sat_out"] > 0
    assert {1, 2, 3, 4} <= by_bet.keys()
    average = sum(u * n for u, n in by_bet.items()) / document["rounds_played"]
    assert document["average_bet"] == pytest.approx(average)
    low, high = document["win_rate_per_100"]["ci95"]
    assert low < document["win_rate_per_100"]["mean"] < high
    # The default 1-4 ramp bets by whole true counts, so the bets follow the buckets.
    dealt = {row["true_count"]: row["rounds"] for row in document["by_true_count"]}
    assert by_bet[0] == sum(n for k, n in dealt.items() if k < -1)
    assert by_bet[1] == sum(n for k, n in dealt.items() if -1 <= k < 2)
    assert (by_bet[2], by_bet[3]) == (dealt.get(2, 0), dealt.get(3, 0))
    assert by_bet[4] == sum(n for k, n in dealt.items() if k >= 4)


def test_a_best_count_is_found_from_the_round_eors_of_the_shoe_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The EORs are stubbed (their solves take seconds); best_count is tested on its own."""
    from types import SimpleNamespace

    from solver.exact import protection
    from solver.studies import counting as api_protection

    asked: list[tuple[Rules, tuple[Card, ...]]] = []
    round_eors = {r: Fraction(i * i - 30, 10_000) for i, r in enumerate(LABELS)}

    def stub(rules: Rules, removed: tuple[Card, ...], **_: object) -> SimpleNamespace:
        asked.append((rules, tuple(removed)))
        return SimpleNamespace(effects={"main": {}, "round": round_eors})

    monkeypatch.setattr(api_protection, "effects_of_removal", stub)
    result = solver.simulate(
        rounds=200,
        seed=1,
        strategy="stand-on:16",
        decks=2,
        removed="As",
        counter="Best-Level-2",
        cache=MemoryCache(),
    )
    assert asked == [(Rules(decks=2), tuple(parse_cards("As")))]
    assert result.counter is not None
    counter = result.counter.counter
    assert counter.name == "best-level-2"
    assert counter.tags == protection.best_count(round_eors, 2)


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--counter", "zen"], "zen"),
        (["--counter", "best-level-4"], "best-level-1 to 3"),
        (["--counter", "A=-1,2=1"], "leave out"),
        (["--counter", "hi-lo", "--spread", "8-1"], "8-1"),
        (["--counter", "hi-lo", "--spread", "0-4"], "0-4"),
        (["--counter", "hi-lo", "--spread", "x"], "'x'"),
        (["--counter", "hi-lo", "--ramp", "2"], "'2'"),
        (["--counter", "hi-lo", "--ramp", "2:0"], "2:0"),
        (["--counter", "hi-lo", "--ramp", "1:2,1.0:3"], "twice"),
        (["--counter", "hi-lo", "--wong-out", "x"], "'x'"),
        (["--counter", "hi-lo", "--wong-out", "1e9"], "1e9"),
        (["--spread", "1-4"], "--counter"),
        (["--counter", "hi-lo", "--fresh-shoe"], "fresh shoe"),
    ],
)
def test_bad_counter_options_are_one_line_on_stderr_with_status_2(
    extra: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(
        ["simulate", "--rounds", "10", "--strategy", "stand-on:17", *extra], capsys
    )
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and named in err and "Traceback" not in err


def test_a_counter_must_tag_every_rank() -> None:
    with pytest.raises(CountError, match="every rank"):
        Counter("short", {r: 1 for r in LABELS[:-1]})


def test_dealing_ahead_deals_and_counts_each_lanes_own_number_of_cards() -> None:
    from solver.sim.deal import Shoes

    cards = parse_cards("2s 5h Kd 6c 4h 7h 3d")
    counter = Counter("hi-lo", SYSTEMS["hi-lo"])
    codes = np.array([card_code(c) for c in cards], dtype=np.uint8)
    shoes = Shoes(codes, 3, None, 6, tag_of_code(counter))
    shoes.deal_ahead(np.array([1, 3, 5]))
    assert shoes.next.tolist() == [1, 3, 5]
    assert shoes.running.tolist() == [1, 1, 3]  # 2 | 2 5 K | 2 5 K 6 4


@settings(max_examples=100, deadline=None)
@given(
    text=st.text(max_size=20) | st.from_regex(r"-?[0-9]{1,3}(\.[0-9])?:[0-9]{1,2}", fullmatch=True)
)
def test_any_text_for_the_bets_is_read_or_refused_with_a_count_error(text: str) -> None:
    for spread, ramp, wong_out in ((text, None, None), ("1-8", text, None), ("1-8", None, text)):
        try:
            (low, high), steps, out = parse_bets(spread, ramp, wong_out)
        except CountError:
            continue
        assert 1 <= low <= high <= 1000
        assert out is None or abs(out) <= 100
        assert steps is None or [t for t, _ in steps] == sorted({t for t, _ in steps})


def test_a_shoe_that_runs_dry_mid_round_restarts_the_count_from_the_table() -> None:
    from solver.sim.deal import Shoes

    codes = np.array([card_code(c) for c in parse_cards("2s 3h 4d 5c 6s 2h 3d Jc Ts As")])
    # Hi-Lo counts +4 over these ten cards, so a count kept from before the reshuffle shows.
    tags = tag_of_code(Counter("hi-lo", SYSTEMS["hi-lo"]))
    shoes = Shoes(codes.astype(np.uint8), 1, np.random.default_rng(3), 10, tags)
    lane = np.array([0])
    shoes.begin_round(1)
    for _ in range(8):
        shoes.draw(lane)
    shoes.begin_round(1)  # 2 cards left, short of the cut card: the round goes on
    on_table = [int(shoes.draw(lane)[0]) for _ in range(3)]  # the third from the discards
    assert int(shoes.next[0]) == 3  # the table's two cards, then one from the new shoe
    assert int(shoes.running[0]) == sum(int(tags[c]) for c in on_table)


def test_beginning_a_round_twice_changes_nothing() -> None:
    from solver.sim.deal import Shoes

    codes = np.array([card_code(c) for c in physical_cards(Shoe.full(1))], dtype=np.uint8)
    tags = tag_of_code(Counter("hi-lo", SYSTEMS["hi-lo"]))
    shoes = Shoes(codes, 4, np.random.default_rng(1), 30, tags)
    shoes.deal_ahead(np.array([0, 10, 29, 31]))
    shoes.begin_round(4)
    first = (shoes.start.tolist(), shoes.next.tolist(), shoes.running.tolist())
    shoes.begin_round(4)
    assert (shoes.start.tolist(), shoes.next.tolist(), shoes.running.tolist()) == first
    assert first[0] == [0, 10, 29, 0] and first[2][3] == 0  # lane 4 was past the cut card
