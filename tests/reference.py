"""A deliberately plain second implementation of the game, written from the rule text.

It shares nothing with the solver's arithmetic: totals come from trying every ace as 1
or 11, the dealer and the player are played card by card over every order the shoe can
deal, and optimal play is found by exhaustive search.  It is slow and only meant for tiny
shoes, where it is the solver's dumb twin.

Chances are counted, not multiplied: every order of the physical cards left in the shoe
is equally likely, so a result's chance is the number of orders that give it over the
number of orders (``n!`` for ``n`` cards).  The walks count orders in plain integers (a
card of a value with ``k`` copies left starts ``k`` times as many orders), and a
:class:`~fractions.Fraction` is made only at the end.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product
from math import factorial

from solver.model.rules import DealerBonus, DealerNatural, NaturalBeats, Rules

Shoe = tuple[int, ...]  # cards left of each value 1..10
Cards = tuple[int, ...]  # own cards as sorted values
Counts = tuple[int, int, int]  # orders of the shoe's cards that win, push, lose


@cache
def totals(cards: Cards) -> set[int]:
    """Every total the cards can make, each ace counted as 1 or as 11."""
    aces = cards.count(1)
    rest = sum(c for c in cards if c != 1)
    return {rest + sum(choice) for choice in product((1, 11), repeat=aces)}


@cache
def best(cards: Cards, bonus: int) -> int | None:
    """Highest total of at most 21, with or without the Bonus card; None if none."""
    options = {t for t in totals(cards) | totals((*cards, bonus)) if t <= 21}
    return max(options) if options else None


def hard(cards: Cards) -> int:
    return sum(cards)


@cache
def arrangements(cards: int) -> int:
    """How many orders ``cards`` physical cards can come in."""
    return factorial(cards)


@cache
def orders(shoe: Shoe) -> int:
    """How many orders the physical cards left in the shoe can come in."""
    return arrangements(sum(shoe))


def draw(shoe: Shoe, value: int) -> tuple[Fraction, Shoe]:
    left = list(shoe)
    left[value - 1] -= 1
    return Fraction(shoe[value - 1], sum(shoe)), tuple(left)


@cache
def with_card(cards: Cards, value: int) -> Cards:
    """The own cards with one more of ``value``, sorted."""
    return tuple(sorted((*cards, value)))


@cache
def take(shoe: Shoe, value: int) -> Shoe:
    """The shoe less one card of ``value``."""
    return (*shoe[: value - 1], shoe[value - 1] - 1, *shoe[value:])


@cache
def counted(cards: Cards, bonus: int, must_use: bool) -> int | None:
    """The dealer's total: its best (:func:`best`), or, when it must use the Bonus card as
    a standard dealer uses its up card, the highest total of 21 or less of its own cards
    and the Bonus card together; None if bust."""
    if not must_use:
        return None if hard(cards) > 21 else best(cards, bonus)
    options = {t for t in totals((*cards, bonus)) if t <= 21}
    return max(options) if options else None


@cache
def dealer_final(cards: Cards, bonus: int, reading: DealerNatural, must_use: bool = False) -> str:
    if must_use:
        total = counted(cards, bonus, must_use)
        if total is None:
            return "bust"
        with_bonus = (DealerNatural.WITH_BONUS, DealerNatural.BONUS_CARD)
        if len(cards) == 1 and total == 21 and reading in with_bonus:
            return "natural"
        return str(total)
    if hard(cards) > 21:
        return "bust"
    own_pair = len(cards) == 2 and 21 in totals(cards)
    bonus_pair = len(cards) == 1 and 21 in totals((*cards, bonus))
    if own_pair and reading in (DealerNatural.WITH_BONUS, DealerNatural.OWN_CARDS):
        return "natural"
    if bonus_pair and reading in (DealerNatural.WITH_BONUS, DealerNatural.BONUS_CARD):
        return "natural"
    return str(best(cards, bonus))


def dealer(shoe: Shoe, bonus: int, rules: Rules, cards: Cards = ()) -> dict[str, Fraction]:
    """Distribution of the dealer's result by walking every card sequence."""
    ways = _dealer(shoe, bonus, *dealer_play(rules), cards)
    return {k: Fraction(n, orders(shoe)) for k, n in ways.items()}


#: The rules the dealer's play reads: its standing total, its naturals, and whether it
#: must use the Bonus card.
DealerPlay = tuple[int, DealerNatural, bool]


def dealer_play(rules: Rules) -> DealerPlay:
    must_use = rules.dealer_bonus is DealerBonus.MUST_USE
    return (rules.dealer_stands_on, rules.dealer_natural, must_use)


@cache
def dealer_stops(cards: Cards, bonus: int, stands_on: int, must_use: bool = False) -> bool:
    """Whether the dealer draws no more holding ``cards``: bust, or standing on a total."""
    total = counted(cards, bonus, must_use)
    return bool(cards) and (total is None or total >= stands_on)


@cache
def _dealer(
    shoe: Shoe, bonus: int, stands_on: int, reading: DealerNatural, must_use: bool, cards: Cards
) -> dict[str, int]:
    """How many orders of the shoe's cards end the dealer in each result.

    Memoised on only the rules the dealer's play reads.  A card that ends the dealer's
    play is counted here (its orders are those of the cards left), not in a call of its
    own: most states are final, and each would otherwise be a memo entry and a dict.
    """
    if dealer_stops(cards, bonus, stands_on, must_use):
        return {dealer_final(cards, bonus, reading, must_use): orders(shoe)}
    left = sum(shoe)
    if left == 0:
        raise RuntimeError("shoe ran out")
    after_one = arrangements(left - 1)  # the orders of the cards left after any one card
    out: dict[str, int] = {}
    for value in range(1, 11):
        copies = shoe[value - 1]
        if not copies:
            continue
        after, final = dealer_step(cards, value, bonus, stands_on, reading, must_use)
        if final is not None:
            out[final] = out.get(final, 0) + copies * after_one
            continue
        rest = take(shoe, value)
        for k, n in _dealer(rest, bonus, stands_on, reading, must_use, after).items():
            out[k] = out.get(k, 0) + copies * n
    return out


@cache
def dealer_step(
    cards: Cards, value: int, bonus: int, stands_on: int, reading: DealerNatural, must_use: bool
) -> tuple[Cards, str | None]:
    """The dealer's cards after drawing a card of ``value`` to ``cards``, and the dealer's
    result if that card ends the play (else None)."""
    after = with_card(cards, value)
    if dealer_stops(after, bonus, stands_on, must_use):
        return after, dealer_final(after, bonus, reading, must_use)
    return after, None


#: The rules a hand's play and settlement read: the dealer's play and what a natural
#: beats (a small memo key, unlike the whole rules).
Table = tuple[DealerPlay, NaturalBeats]


def table(rules: Rules) -> Table:
    return (dealer_play(rules), rules.natural_beats)


@cache
def settle(cards: Cards, bonus: int, result: str, beats: NaturalBeats) -> int:
    """Main-wager result (+1, 0, -1) of a standing player against a dealer result."""
    mine = best(cards, bonus)
    assert mine is not None
    if result == "bust":
        return 1
    if result == "natural":
        if mine < 21:
            return -1
        if beats is NaturalBeats.NON_BLACKJACK:
            return -1
        in_21 = len(cards) if 21 in totals(cards) else len(cards) + 1
        return -1 if beats is NaturalBeats.MULTI_CARD_21 and in_21 >= 3 else 0
    theirs = int(result)
    return (mine > theirs) - (mine < theirs)


Outcome = tuple[Fraction, Fraction, Fraction]  # win, push, lose


def stand_counts(cards: Cards, shoe: Shoe, bonus: int, rules: Rules) -> Counts:
    """How many orders of the shoe's cards a standing hand wins, pushes and loses."""
    return _stand(cards, shoe, bonus, table(rules))


def _stand(cards: Cards, shoe: Shoe, bonus: int, rules: Table) -> Counts:
    play, beats = rules
    w = p = lose = 0
    for result, n in _dealer(shoe, bonus, *play, ()).items():
        r = settle(cards, bonus, result, beats)
        w, p, lose = w + n * (r == 1), p + n * (r == 0), lose + n * (r == -1)
    return (w, p, lose)


def stand(cards: Cards, shoe: Shoe, bonus: int, rules: Rules) -> Outcome:
    w, p, lose = stand_counts(cards, shoe, bonus, rules)
    n = orders(shoe)
    return (Fraction(w, n), Fraction(p, n), Fraction(lose, n))


#: A fixed policy: ``K``, a name, the dealer's play (mimic the dealer) or None (optimal).
Policy = int | str | DealerPlay | None


def stands(cards: Cards, bonus: int, policy: int | str | DealerPlay) -> bool:
    """Whether a fixed policy stands: ``K`` (stand on a best total of K or more), or by name.

    ``never-bust`` stands once a ten could bust the own cards, or on 21; ``always-stand``
    always does; a :data:`DealerPlay` stands where that dealer would stop drawing.
    """
    if isinstance(policy, tuple):
        stands_on, _, must_use = policy
        return dealer_stops(cards, bonus, stands_on, must_use)
    if policy == "never-bust":
        return hard(cards) + 10 > 21 or best(cards, bonus) == 21
    if policy == "always-stand":
        return True
    assert isinstance(policy, int)
    return (best(cards, bonus) or 0) >= policy


@cache
def _play(cards: Cards, shoe: Shoe, bonus: int, rules: Table, policy: Policy) -> Counts:
    """Orders of the shoe's cards a hand played optimally (``policy`` None; ties stand) or
    by a fixed policy wins, pushes and loses."""
    standing = _stand(cards, shoe, bonus, rules)
    if sum(shoe) == 0:
        return standing
    w = p = lose = 0
    for value in range(1, 11):
        copies = shoe[value - 1]
        if copies:
            rest = take(shoe, value)
            after = with_card(cards, value)
            if hard(after) > 21:
                lose += copies * orders(rest)
            else:
                cw, cp, cl = _play(after, rest, bonus, rules, policy)
                w, p, lose = w + copies * cw, p + copies * cp, lose + copies * cl
    if policy is not None:
        return standing if stands(cards, bonus, policy) else (w, p, lose)
    # Both sides count orders of the same cards, so they compare without dividing.
    return (w, p, lose) if w - lose > standing[0] - standing[2] else standing


def play(cards: Cards, shoe: Shoe, bonus: int, rules: Rules, policy: Policy = None) -> Outcome:
    """Outcome of a hand played optimally (``policy`` None; ties stand) or by a fixed policy."""
    w, p, lose = _play(cards, shoe, bonus, table(rules), policy)
    n = orders(shoe)
    return (Fraction(w, n), Fraction(p, n), Fraction(lose, n))


def game(
    shoe: Shoe, rules: Rules, policy: Policy = None
) -> dict[tuple[int, int], tuple[Fraction, dict[str, Fraction]]]:
    """Every starting pair (player value, Bonus value): its probability and main outcomes."""
    out = {}
    for c in range(1, 11):
        if not shoe[c - 1]:
            continue
        pc, after_bonus = draw(shoe, c)
        for p in range(1, 11):
            if not after_bonus[p - 1]:
                continue
            pp, rest = draw(after_bonus, p)
            if {p, c} == {1, 10}:
                outcomes = {
                    "blackjack": Fraction(1),
                    "win": Fraction(0),
                    "push": Fraction(0),
                    "loss": Fraction(0),
                }
            else:
                w, push, lose = play((p,), rest, c, rules, policy)
                outcomes = {"blackjack": Fraction(0), "win": w, "push": push, "loss": lose}
            out[(p, c)] = (pc * pp, outcomes)
    return out


def main_ev(shoe: Shoe, rules: Rules, policy: Policy = None) -> Fraction:
    pays: dict[str, Fraction] = {
        "blackjack": rules.blackjack_pays,
        "win": Fraction(1),
        "push": Fraction(0),
        "loss": Fraction(-1),
    }
    return sum(
        (
            prob * sum(q * pays[k] for k, q in outcomes.items())
            for prob, outcomes in game(shoe, rules, policy).values()
        ),
        Fraction(0),
    )
