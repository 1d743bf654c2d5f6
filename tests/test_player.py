"""The vectorised exact player pass against the plain one, hand by hand in Python integers."""

from __future__ import annotations

import numpy as np
import pytest

from solver.exact import player, values
from solver.exact.player import (
    PlayerSolution,
    solve_exact,
    solve_exact_modular,
    solve_exact_plain,
    solve_float,
)
from solver.exact.player_hands import HandSpace, hand_space
from solver.model.cards import Shoe
from solver.model.errors import HandError
from solver.model.hands import hand_of
from solver.model.rules import DealerNatural, Rules


def space_for(rules: Rules, bonus: int) -> HandSpace:
    counts = Shoe.full(rules.decks).value_counts()
    base = tuple(n - (v == bonus) for v, n in enumerate(counts, start=1))
    return hand_space(bonus, base, [hand_of([p]) for p in range(1, 11) if base[p - 1]])


def assert_same(a: PlayerSolution, b: PlayerSolution) -> None:
    assert a.hitting == b.hitting
    assert a.stand == b.stand
    assert a.hit == b.hit
    assert a.outcomes == b.outcomes


@pytest.mark.parametrize(
    ("rules", "bonus"),
    [
        (Rules(decks=1), 1),
        (Rules(decks=1), 7),
        (Rules(), 10),
        (Rules(decks=8), 5),
        (Rules(dealer_stands_on=17), 2),
        (Rules(dealer_natural=DealerNatural.NONE), 10),
        (Rules(natural_beats_multi_card_21=False), 1),
    ],
    ids=str,
)
def test_modular_pass_equals_the_plain_pass(rules: Rules, bonus: int) -> None:
    space = space_for(rules, bonus)
    assert_same(solve_exact_modular(rules, space), solve_exact_plain(rules, space))


def test_decisions_read_exactly_when_floats_are_close(monkeypatch: pytest.MonkeyPatch) -> None:
    # With a huge tolerance every decision is taken by rebuilding both values exactly.
    rules, space = Rules(decks=1), space_for(Rules(decks=1), 4)
    monkeypatch.setattr(player, "TIE_TOLERANCE", 10.0)
    assert_same(solve_exact_modular(rules, space), solve_exact_plain(rules, space))


def test_exact_solve_takes_the_modular_pass_on_a_full_shoe_and_floats_agree() -> None:
    rules = Rules(decks=2)
    space = space_for(rules, 9)
    exact, fast = solve_exact(rules, space), solve_float(rules, space)
    assert_same(exact, solve_exact_modular(rules, space))
    assert exact.hitting == fast.hitting
    floats = [float(v) for v in fast.stand]
    assert np.allclose([float(v) for v in exact.stand], floats, rtol=0, atol=1e-12)


def test_numerators_read_row_by_row_equal_those_rebuilt_all_at_once() -> None:
    """Scattered reads rebuild rows alone, then (past ROW_READS rows) every row at once."""
    rules = Rules(decks=1)
    space = space_for(rules, 4)
    fresh = solve_exact_modular(rules, space)
    whole = solve_exact_modular(rules, space)
    assert len(whole.hit) > 3 * values.ROW_READS
    everything = list(zip(whole.stand, whole.hit, whole.outcomes, strict=True))
    order = [*range(len(space.hands) - 1, -1, -7), *range(len(space.hands))]
    for i in order:
        assert (fresh.stand[i], fresh.hit[i], fresh.outcomes[i]) == everything[i]


def test_float_values_read_one_by_one_equal_those_made_all_at_once() -> None:
    """A float solve's arrays give the floats and rows a tuple of them would, read either way."""
    rules = Rules(decks=1)
    space = space_for(rules, 4)
    fresh, whole = solve_float(rules, space), solve_float(rules, space)
    everything = list(zip(whole.stand, whole.hit, whole.outcomes, whole.hitting, strict=True))
    order = [*range(len(space.hands) - 1, -1, -7), *range(len(space.hands))]
    for i in order:
        assert (fresh.stand[i], fresh.hit[i], fresh.outcomes[i], fresh.hitting[i]) == everything[i]
    assert type(fresh.stand[-1]) is float and type(fresh.outcomes[0][0]) is float
    assert type(fresh.hitting[0]) is bool and fresh.hitting == tuple(whole.hitting)
    # Each decision is the better value's, ties standing (the flags' own twin).
    assert tuple(whole.hitting) == tuple(h > s for s, h in zip(whole.stand, whole.hit, strict=True))
    assert fresh.stand[-2:] == tuple(whole.stand)[-2:] and fresh.outcomes == everything_rows(whole)
    assert fresh.hit == tuple(whole.hit) and fresh.hit != tuple(whole.hit)[1:]
    assert np.asarray(fresh.hit).tolist() == list(whole.hit)
    # np.asarray reads a solve's array itself (read-only); np.array copies it.
    held = solve_float(rules, space)
    assert not np.asarray(held.stand).flags.writeable and np.array(held.stand).flags.writeable
    assert np.asarray(held.hitting).tolist() == list(whole.hitting)
    with pytest.raises(IndexError):
        solve_float(rules, space).stand[len(space.hands)]


def everything_rows(solution: PlayerSolution) -> tuple[tuple[float, float, float], ...]:
    """The outcome rows as a plain tuple."""
    return tuple((float(w), float(p), float(lose)) for w, p, lose in solution.outcomes)


@pytest.mark.parametrize("decks", [6, 8])
def test_children_are_the_hand_plus_one_card_or_bust(decks: int) -> None:
    # Dumb twin of the children's key arithmetic: a hand plus a card of value v is the hand
    # holding one more v, or a bust (hard total over 21, or no v left).  Six or eight decks
    # hold the 21-ace hand, whose next ace must bust, not carry into the twos' digit.
    space = space_for(Rules(decks=decks), 10)
    index = {tuple(h): i for i, h in enumerate(space.hands.tolist())}
    bust = len(space.hands)
    for i, hand in enumerate(space.hands.tolist()):
        for v in range(1, 11):
            child = list(hand)
            child[v - 1] += 1
            fits = sum(c * (w + 1) for w, c in enumerate(child)) <= 21 and space.draws[i, v - 1]
            assert space.children[i, v - 1] == (index.get(tuple(child), bust) if fits else bust)


def test_hitting_twenty_one_aces_busts() -> None:
    rules = Rules(decks=6)
    space = space_for(rules, 10)
    aces = space.index((21, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    assert solve_float(rules, space).hit[aces] == pytest.approx(-1.0, abs=1e-12)


def test_hands_are_found_together_where_one_by_one_finds_them() -> None:
    space = space_for(Rules(decks=1), 4)
    some = [tuple(hand) for hand in space.hands[::97].tolist()]
    assert space.indices(some) == [space.index(hand) for hand in some]
    assert [tuple(space.hands[i].tolist()) for i in space.indices(some)] == some
    assert space.indices([]) == []
    # Four more fours than a deck holds once the Bonus card is out; and a hand past every key.
    for missing in ((0, 0, 0, 4, 0, 0, 0, 0, 0, 0), (0,) * 9 + (3,)):
        with pytest.raises(HandError, match="cannot be reached"):
            space.indices([*some, missing])


def test_a_games_bonus_cards_share_their_hands_and_keep_their_own_draws() -> None:
    # A later solve of the same hands reads the kept hands, keys, children and sizes in
    # place of its own: each card's space must still be the one hand_space lists for it.
    rules = Rules()
    player._GROUPS.clear()
    counts = Shoe.full(rules.decks).value_counts()
    solved = []
    for bonus in range(1, 11):
        base = tuple(n - (v == bonus) for v, n in enumerate(counts, start=1))
        roots = [hand_of([p]) for p in range(1, 11) if base[p - 1]]
        solved.append(player.solve_player(rules, bonus, base, roots))
        listed = hand_space(bonus, base, roots)
        for field in ("hands", "keys", "children", "draws", "sizes"):
            assert getattr(solved[-1].space, field).tolist() == getattr(listed, field).tolist()
    assert all(s.space.hands is solved[0].space.hands for s in solved)
    assert len({id(s.space.draws) for s in solved}) == 10
    assert not solved[0].space.children.flags.writeable
