"""``solver.advise`` (``cbj advise``) against the brute-force twin (tests/reference.py): on a
tiny shoe, standing is worth what every order of the cards left gives a standing hand,
hitting what every next card and optimal play after it give, and the advice is the better
of the two (a tie stands)."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

import pytest

import solver
from solver.model.cards import Card, Shoe
from solver.model.errors import CbjError
from solver.model.rules import Rules
from tests.test_game import TINY_REMOVED

from . import reference
from .conftest import physical_cards

RULES = Rules(decks=1)
#: The 16 cards the tiny shoe leaves: the Bonus card and the hand come from them, and every
#: other card of the deck is seen.
LEFT = physical_cards(Shoe.full(1).remove(TINY_REMOVED))


def twin(bonus: Card, hand: tuple[Card, ...]) -> tuple[Fraction, Fraction]:
    """Standing's and hitting's EVs by walking every order of the cards left."""
    shoe = Shoe.full(1).remove((*TINY_REMOVED, bonus, *hand)).value_counts()
    own = tuple(sorted(c.points for c in hand))
    win, _, lose = reference.stand(own, shoe, bonus.points, RULES)
    hit = Fraction(0)
    for value, copies in enumerate(shoe, start=1):
        if copies:
            after, rest = reference.with_card(own, value), reference.take(shoe, value)
            if reference.hard(after) > 21:
                outcome = Fraction(-1)
            else:
                w, _, lo = reference.play(after, rest, bonus.points, RULES)
                outcome = w - lo
            hit += Fraction(copies, sum(shoe)) * outcome
    return win - lose, hit


def hands() -> list[tuple[Card, tuple[Card, ...]]]:
    """A Bonus card and two own cards of each distinct kind the tiny shoe can deal (one of
    each set of values), the hands already at 21 left out."""
    found: dict[tuple[int, tuple[int, ...]], tuple[Card, tuple[Card, ...]]] = {}
    for bonus in LEFT:
        rest = [c for c in LEFT if c is not bonus]
        for pair in combinations(rest, 2):
            values = tuple(sorted(c.points for c in pair))
            if reference.best(values, bonus.points) != 21:
                found.setdefault((bonus.points, values), (bonus, pair))
    return [found[k] for k in sorted(found)][::5]


@pytest.mark.parametrize(
    ("bonus", "hand"), [pytest.param(b, h, id=f"{b} {h[0]} {h[1]}") for b, h in hands()]
)
def test_each_value_is_the_twin_s_and_the_advice_is_the_better(
    bonus: Card, hand: tuple[Card, ...]
) -> None:
    advice = solver.advise(bonus=bonus, hand=hand, seen=TINY_REMOVED, exact=True, rules=RULES)
    stand, hit = twin(bonus, hand)
    assert (advice.stand, advice.hit) == (stand, hit)
    assert advice.decision == ("hit" if hit > stand else "stand")


def test_both_decisions_occur_among_the_hands_tried() -> None:
    """The hands above are not all one way: the argmax is tested both ways."""
    decisions = {"hit" if h > s else "stand" for s, h in (twin(b, h) for b, h in hands())}
    assert decisions == {"hit", "stand"}


def test_the_fast_advice_agrees_with_the_exact_one() -> None:
    bonus, hand = Card.parse("7h"), (Card.parse("9s"), Card.parse("5s"))
    exact = solver.advise(bonus=bonus, hand=hand, exact=True, decks=2)
    fast = solver.advise(bonus="7h", hand="9s 5s", decks=2)
    assert math.isclose(fast.stand, exact.stand, abs_tol=1e-12)
    assert math.isclose(fast.hit, exact.hit, abs_tol=1e-12)
    assert fast.decision == exact.decision


@pytest.mark.parametrize(
    ("bonus", "hand", "said"),
    [("Ah", "Ks", "blackjack"), ("7h", "Ks Qs 5d", "busted"), ("7h", "", "at least")],
)
def test_a_hand_with_nothing_to_decide_is_refused(bonus: str, hand: str, said: str) -> None:
    with pytest.raises(CbjError, match=said):
        solver.advise(bonus=bonus, hand=hand, decks=1)
