"""A deliberately plain second implementation of the game, written from the rule text.

It shares nothing with the solver's arithmetic: totals come from trying every ace as 1
or 11, the dealer and the player are played card by card over every order the shoe can
deal, and optimal play is found by exhaustive search.  It is slow and only meant for tiny
shoes, where it is the solver's dumb twin.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

from solver.model.rules import DealerNatural, NaturalBeats, Rules

Shoe = tuple[int, ...]  # cards left of each value 1..10
Cards = tuple[int, ...]  # own cards as sorted values


@cache
def totals(cards: Cards) -> set[int]:
    """Every total the cards can make, each ace counted as 1 or as 11."""
    aces = cards.count(1)
    rest = sum(c for c in cards if c != 1)
    return {rest + sum(choice) for choice in product((1, 11), repeat=aces)}


def best(cards: Cards, bonus: int) -> int | None:
    """Highest total of at most 21, with or without the Bonus card; None if none."""
    options = {t for t in totals(cards) | totals((*cards, bonus)) if t <= 21}
    return max(options) if options else None


def hard(cards: Cards) -> int:
    return sum(cards)


def draw(shoe: Shoe, value: int) -> tuple[Fraction, Shoe]:
    left = list(shoe)
    left[value - 1] -= 1
    return Fraction(shoe[value - 1], sum(shoe)), tuple(left)


def dealer_final(cards: Cards, bonus: int, reading: DealerNatural) -> str:
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
    return _dealer(shoe, bonus, rules.dealer_stands_on, rules.dealer_natural, cards)


@cache
def _dealer(
    shoe: Shoe, bonus: int, stands_on: int, reading: DealerNatural, cards: Cards
) -> dict[str, Fraction]:
    """:func:`dealer`, memoised on only the rules the dealer's play reads."""
    total = best(cards, bonus)
    if cards and (hard(cards) > 21 or (total is not None and total >= stands_on)):
        return {dealer_final(cards, bonus, reading): Fraction(1)}
    if sum(shoe) == 0:
        raise RuntimeError("shoe ran out")
    out: dict[str, Fraction] = {}
    for value in range(1, 11):
        if shoe[value - 1]:
            p, rest = draw(shoe, value)
            after = tuple(sorted((*cards, value)))
            for k, q in _dealer(rest, bonus, stands_on, reading, after).items():
                out[k] = out.get(k, Fraction(0)) + p * q
    return out


def settle(cards: Cards, bonus: int, result: str, rules: Rules) -> int:
    """Main-wager result (+1, 0, -1) of a standing player against a dealer result."""
    mine = best(cards, bonus)
    assert mine is not None
    if result == "bust":
        return 1
    if result == "natural":
        if mine < 21:
            return -1
        if rules.natural_beats is NaturalBeats.NON_BLACKJACK:
            return -1
        in_21 = len(cards) if 21 in totals(cards) else len(cards) + 1
        return -1 if rules.natural_beats is NaturalBeats.MULTI_CARD_21 and in_21 >= 3 else 0
    theirs = int(result)
    return (mine > theirs) - (mine < theirs)


Outcome = tuple[Fraction, Fraction, Fraction]  # win, push, lose


def stand(cards: Cards, shoe: Shoe, bonus: int, rules: Rules) -> Outcome:
    w = p = lose = Fraction(0)
    for result, q in dealer(shoe, bonus, rules).items():
        r = settle(cards, bonus, result, rules)
        w, p, lose = w + q * (r == 1), p + q * (r == 0), lose + q * (r == -1)
    return (w, p, lose)


Policy = int | str | None


def stands(cards: Cards, bonus: int, policy: int | str) -> bool:
    """Whether a fixed policy stands: ``K`` (stand on a best total of K or more), or by name.

    ``never-bust`` stands once a ten could bust the own cards, or on 21; ``always-stand``
    always does.
    """
    if policy == "never-bust":
        return hard(cards) + 10 > 21 or best(cards, bonus) == 21
    if policy == "always-stand":
        return True
    assert isinstance(policy, int)
    return (best(cards, bonus) or 0) >= policy


@cache
def play(cards: Cards, shoe: Shoe, bonus: int, rules: Rules, policy: Policy = None) -> Outcome:
    """Outcome of a hand played optimally (``policy`` None; ties stand) or by a fixed policy."""
    standing = stand(cards, shoe, bonus, rules)
    if sum(shoe) == 0:
        return standing
    w = p = lose = Fraction(0)
    for value in range(1, 11):
        if shoe[value - 1]:
            q, rest = draw(shoe, value)
            after = tuple(sorted((*cards, value)))
            if hard(after) > 21:
                lose += q
            else:
                cw, cp, cl = play(after, rest, bonus, rules, policy)
                w, p, lose = w + q * cw, p + q * cp, lose + q * cl
    if policy is not None:
        return standing if stands(cards, bonus, policy) else (w, p, lose)
    return (w, p, lose) if w - lose > standing[0] - standing[2] else standing


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
                    "lose": Fraction(0),
                }
            else:
                w, push, lose = play((p,), rest, c, rules, policy)
                outcomes = {"blackjack": Fraction(0), "win": w, "push": push, "lose": lose}
            out[(p, c)] = (pc * pp, outcomes)
    return out


def main_ev(shoe: Shoe, rules: Rules, policy: Policy = None) -> Fraction:
    pays: dict[str, Fraction] = {
        "blackjack": rules.blackjack_pays,
        "win": Fraction(1),
        "push": Fraction(0),
        "lose": Fraction(-1),
    }
    return sum(
        (
            prob * sum(q * pays[k] for k, q in outcomes.items())
            for prob, outcomes in game(shoe, rules, policy).values()
        ),
        Fraction(0),
    )
