"""The result of the exhaustive search for the best linear count of a level."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.model.counts import Tags
from solver.model.numbers import float_json


@dataclass(frozen=True, slots=True)
class CountSearch:
    """The count of tags ``-level..level`` best correlated with one wager's EORs.

    ``vectors`` tag vectors were covered (every one of ``(2 * level + 1) ** groups``, the
    tens J, Q and K sharing the ten's tag); ``candidates`` is how many pairs of half-vector
    classes the search compared to cover them (see :mod:`solver.exact.count_search`).
    """

    level: int
    wager: str
    tags: Tags
    correlation: float
    vectors: int
    candidates: int

    @property
    def deck_sum(self) -> int:
        """Sum of the tags of one deck's 52 cards (0: a balanced count)."""
        return 4 * sum(self.tags.values())

    def to_json(self) -> dict[str, Any]:
        """The search as one entry of ``searches`` in ``cbj count --format json``."""
        return {
            "level": self.level,
            "wager": self.wager,
            "tags": dict(self.tags),
            "betting_correlation": float_json(self.correlation),
            "vectors_searched": self.vectors,
            "candidates_compared": self.candidates,
        }


@dataclass(frozen=True, slots=True)
class PlayingSearch:
    """The count of tags ``-level..level`` whose true count best follows the gains of
    deviating from the chart, over every vector (see :mod:`solver.exact.count_search`).

    ``score`` is the mean over the followed decisions, each weighted by what deviating
    exactly when it pays is worth, of the size of the correlation between the true count
    and the decision's gain across ``shoes`` dealt shoes.
    """

    level: int
    tags: Tags
    score: float
    vectors: int
    shoes: int

    def to_json(self) -> dict[str, Any]:
        """The search as plain JSON values."""
        return {
            "level": self.level,
            "tags": dict(self.tags),
            "playing_correlation": float_json(self.score),
            "vectors_searched": self.vectors,
            "shoes": self.shoes,
        }
