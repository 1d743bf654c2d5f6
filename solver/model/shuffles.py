"""How the cards are shuffled, as data: a shoe shuffled by hand and dealt to a cut card, or a
continuous shuffling machine (CSM) that takes each round's cards back before the next.

A CSM here keeps a *tray* of ``buffer`` cards ready to deal: at the end of each round it
tops the tray up from the cards inside it, then takes the round's cards back and shuffles
them in.  The next round is dealt from the tray first, then from the machine.  So a round
is dealt from the whole shoe, less nothing, except that the tray's cards were drawn while
earlier rounds' cards were out: the one trace of the past a counter could follow.

>>> Shuffle.parse("csm:20").words, Shuffle.parse("0.83").words
('a continuous shuffler (a tray of 20 cards)', 'a shoe dealt to a cut card at 0.83')
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from solver.model.checks import shown
from solver.model.errors import SimulationError

#: Fewest cards a depleted shoe may keep: half a deck.  Below it some rounds could run the
#: shoe dry, which the solver refuses; from it up no dealt shoe has come near.
MIN_CARDS_LEFT = 26


def reach(decks: int, penetration: float) -> float:
    """The deepest share of a ``decks``-deck shoe a round is dealt at with the cut card at
    ``penetration``: the penetration, or less where the shoe keeps its last cards back
    (:data:`MIN_CARDS_LEFT`).

    >>> reach(6, 0.83), reach(2, 0.83), reach(1, 0.83)
    (0.83, 0.75, 0.5)
    """
    total = 52 * decks
    if round(penetration * total) <= total - MIN_CARDS_LEFT:
        return penetration
    return (total - MIN_CARDS_LEFT) / total


#: A shuffler's tray when none is stated: about four rounds of a full table's first cards.
DEFAULT_BUFFER = 20
#: The largest tray, in cards.
MAX_BUFFER = 200


class ShuffleKind(StrEnum):
    """The two ways a table's cards are shuffled."""

    CUT_CARD = "cut-card"
    CSM = "csm"


@dataclass(frozen=True, slots=True)
class Shuffle:
    """A cut-card shoe (``penetration``: the share dealt before the shuffle) or a
    continuous shuffler (``buffer``: the cards in its tray)."""

    kind: ShuffleKind
    penetration: float | None = None
    buffer: int | None = None

    def __post_init__(self) -> None:
        if self.kind is ShuffleKind.CUT_CARD:
            p = self.penetration
            if not isinstance(p, (int, float)) or not math.isfinite(p) or not 0 < p <= 1:
                raise SimulationError(
                    f"penetration {shown(p)} is out of range: give a share of the shoe in (0, 1]"
                )
        else:
            b = self.buffer
            if not isinstance(b, int) or isinstance(b, bool) or not 0 <= b <= MAX_BUFFER:
                raise SimulationError(
                    f"a shuffler's tray of {shown(b)} cards is out of range: give 0 to {MAX_BUFFER}"
                )

    @classmethod
    def cut_card(cls, penetration: float) -> Shuffle:
        """A shoe dealt to a cut card at ``penetration``."""
        return cls(ShuffleKind.CUT_CARD, penetration=penetration)

    @classmethod
    def csm(cls, buffer: int = DEFAULT_BUFFER) -> Shuffle:
        """A continuous shuffler with a tray of ``buffer`` cards."""
        return cls(ShuffleKind.CSM, buffer=buffer)

    @classmethod
    def parse(cls, text: str) -> Shuffle:
        """``0.83`` or ``cut:0.83`` (a cut-card shoe), ``csm`` or ``csm:20`` (a shuffler).

        >>> Shuffle.parse("csm") == Shuffle.csm(), Shuffle.parse("cut:0.5").penetration
        (True, 0.5)
        """
        cleaned = str(text).strip().lower()
        if found := re.fullmatch(r"csm(?::(\d{1,4}))?", cleaned, re.ASCII):
            return cls.csm(DEFAULT_BUFFER if found.group(1) is None else int(found.group(1)))
        if found := re.fullmatch(r"(?:cut:)?(\d?\.\d{1,6}|1|1\.0*)", cleaned, re.ASCII):
            return cls.cut_card(float(found.group(1)))
        raise SimulationError(
            f"shuffle {str(text)[:40]!r} is not a cut card or a shuffler: give a penetration "
            "(0.83, cut:0.83) or csm (csm:20 for a tray of 20 cards)"
        )

    @property
    def is_csm(self) -> bool:
        """Whether a continuous shuffler deals."""
        return self.kind is ShuffleKind.CSM

    @property
    def words(self) -> str:
        """The shuffle in words."""
        if self.is_csm:
            return f"a continuous shuffler (a tray of {self.buffer} cards)"
        return f"a shoe dealt to a cut card at {self.penetration:g}"

    @property
    def short(self) -> str:
        """The shuffle in a table's cell: ``CSM, tray 20`` or ``cut card 0.83``."""
        return f"CSM, tray {self.buffer}" if self.is_csm else f"cut card {self.penetration:g}"

    def __str__(self) -> str:
        return f"csm:{self.buffer}" if self.is_csm else f"cut:{self.penetration:g}"

    def to_json(self) -> dict[str, Any]:
        """The shuffle as JSON values."""
        if self.is_csm:
            return {"kind": self.kind.value, "buffer": self.buffer}
        return {"kind": self.kind.value, "penetration": self.penetration}
