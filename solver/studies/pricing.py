"""A solved game priced again for another paytable or Bonus ratio, without a solve.

The main wager's play does not depend on the Bonus paytable or the Bonus ratio, so a game
solved under the :func:`neutral` rules answers every paytable and ratio by re-pricing its
starting pairs (:meth:`~solver.exact.paytable.EdgeModel.priced`), in milliseconds: the
workbench's store keeps games so, and answers the designer's every paytable at once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from solver.exact.paytable import EdgeModel, neutral
from solver.model.cards import Card
from solver.model.rules import Rules
from solver.results.game import GameResult

__all__ = ["neutral", "repriced"]


def repriced(game: GameResult[Any], rules: Rules, removed: tuple[Card, ...]) -> GameResult[Any]:
    """``game``, solved under the rules but for their paytable and ratio, priced for
    ``rules``' paytable and ratio, and carrying ``removed`` as the cards out of its shoe."""
    if game.rules == rules and game.removed == removed:
        return game
    priced = EdgeModel(game).priced(rules.paytable, rules.bonus_ratio)
    return replace(priced, removed=removed)
