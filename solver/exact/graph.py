"""The player's decision graph: every own-hand composition, its values, and the hits between.

For one Bonus card, each node is a composition of the player's own cards with the main
wager's expected value of standing and of hitting and the optimal decision; each edge is
one card drawn, with its exact probability given the cards left in the shoe. A draw that
busts the hand leads to the single node :data:`~solver.results.game.BUST`. Pure: the solver's
:class:`~solver.exact.player.PlayerSolution` read out as plain values, nothing written.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from solver.exact.player import solve_player
from solver.model.cards import VALUES, Card, Shoe
from solver.model.errors import HandError
from solver.model.hands import hand_of, hard_total, is_player_blackjack
from solver.model.rules import Rules
from solver.results.game import BUST, DecisionGraph, HandNode, HitEdge


def decision_graph(
    rules: Rules, bonus: Card, hand: Iterable[Card] = (), exact: bool = False
) -> DecisionGraph:
    """The decision graph against ``bonus``, from ``hand`` or else from every first card.

    Without ``hand`` the roots are the player's possible first cards, less the one that
    makes a blackjack with the Bonus card (paid at once, nothing to decide).
    """
    cards = tuple(hand)
    base = Shoe.full(rules.decks).remove([bonus]).value_counts()
    if cards:
        Shoe.full(rules.decks).remove((bonus, *cards))  # every card must be in the shoe
        root = hand_of(c.points for c in cards)
        if hard_total(root) > 21:
            raise HandError(f"hand {' '.join(map(str, cards))} has busted: nothing to decide")
        if len(cards) == 1 and is_player_blackjack(cards[0].points, bonus.points):
            raise HandError("own card and Bonus card make a blackjack, paid at once")
        roots = [root]
    else:
        roots = [
            hand_of([v])
            for v in VALUES
            if base[v - 1] > 0 and not is_player_blackjack(v, bonus.points)
        ]
    solution = solve_player(rules, bonus.points, base, roots, exact=exact)
    space = solution.space
    hands = [tuple(int(n) for n in h) for h in space.hands]
    root_set = set(roots)
    nodes = tuple(
        HandNode(h, solution.stand[i], solution.hit[i], solution.hitting[i], h in root_set)
        for i, h in enumerate(hands)
    )
    total = sum(base)
    edges = []
    for i, h in enumerate(hands):
        left = total - int(space.sizes[i])
        for v in VALUES:
            count = int(space.draws[i, v - 1])
            if count == 0:
                continue
            child = int(space.children[i, v - 1])
            target = BUST if child == len(hands) else hands[child]
            edges.append(HitEdge(h, target, v, Fraction(count, left)))
    return DecisionGraph(rules, bonus, nodes, tuple(edges))
