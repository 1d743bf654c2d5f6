"""What a row of the figure catalogue is made of: bases, signs, methods, wagers, number
formats and the :class:`Figure` itself, and the words every figure's definition shares.

The rows are :data:`solver.results.figures.FIGURES` (as :mod:`solver.model.rule_fields`
makes the rows of :mod:`solver.model.rule_table`).
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

#: The sign convention of every figure, stated once.
SIGN_CONVENTION = (
    "Expected values (EV), returns and net results are the player's: negative when the player "
    "loses. House edges and holds are the casino's: positive when the casino wins. So a house "
    "edge is minus the player's EV per unit wagered, and the return to player (RTP) is 100% "
    "minus the house edge."
)


class _Worded(Enum):
    """An enumeration whose values are (a few words for a label, a sentence's words)."""

    @property
    def short(self) -> str:
        """In a label: ``per main unit``, ``simulated``."""
        return str(self.value[0])

    @property
    def words(self) -> str:
        """In a definition: ``per unit staked on the main wager``."""
        return str(self.value[1])


class Basis(_Worded):
    """What a figure is per: its short words for labels, its long words for definitions."""

    MAIN_UNIT = ("per main unit", "per unit staked on the main wager")
    BONUS_UNIT = ("per Bonus unit", "per unit staked on the Bonus wager")
    TOTAL_WAGERED = (
        "per unit wagered",
        "per unit of the total wagered in a round (main wager plus Bonus wager)",
    )
    ROUND = ("per round", "in one round")
    HUNDRED_ROUNDS = ("per 100 rounds", "per 100 rounds played, in main-wager units")
    HUNDRED_DEALT = (
        "per 100 rounds dealt",
        "per 100 rounds dealt at the player's seat, played or sat out, in main-wager units",
    )
    HUNDRED_PLAYED = (
        "per 100 rounds played",
        "per 100 rounds the player has a wager on, in main-wager units",
    )
    HANDLE = (
        "over handle",
        "over the handle: every seat's main and Bonus wagers over the rounds (the house "
        "edge's basis)",
    )
    DROP = (
        "over drop",
        "over the drop: the cash and markers exchanged for chips at the table (what a "
        "casino's books call hold)",
    )
    SESSION = ("after n rounds", "over a session of n rounds, in main-wager units")
    TABLE_ROUND = (
        "per table-round",
        "per round of a whole table (every seat's wagers together), in main-wager units",
    )
    CARD = ("per card removed", "per card of one rank taken out of the full shoe")
    TRUE_COUNT = ("per true count", "per unit of true count, in main-wager units")
    CYCLE = ("out of the cycle", "out of the full cycle of equally likely deals")
    PAY = ("per unit of pay", "per unit added to one tier's pay, in percentage points")
    SHOE = ("per shoe", "over shoes dealt at random to a given depth")
    NONE = ("", "a pure number")


class Sign(Enum):
    """Whose view a figure's sign takes."""

    PLAYER = "the player's: positive when the player gains"
    HOUSE = "the casino's: positive when the casino wins"
    NONE = "none: a chance, a spread, a count or a test statistic"


class Method(_Worded):
    """How a figure is found: a few words for a label, a sentence for the glossary."""

    EXACT = ("exact", "exact: rational arithmetic over every deal")
    FLOAT = (
        "exact model, floating point",
        "the exact model in floating point (agreeing with the rational solve to 1e-12)",
    )
    CONVOLUTION = (
        "exact distribution",
        "the session's exact distribution: the round's exact return table convolved n times "
        "(by FFT beyond 20 rounds, every probability within a stated error bound)",
    )
    NORMAL = ("normal approximation", "a normal distribution of the exact mean and SD")
    LINEAR = ("linear estimate", "a linear estimate from the effects of removal")
    SIMULATION = ("simulated", "the independent simulator, its rounds and seed stated")
    PLAYED = ("counted in practice", "counted over the player's own practice decisions")


class Wager(Enum):
    """The wager a figure belongs to, in the words that open its label."""

    MAIN = "main wager"
    BONUS = "Bonus wager"
    ROUND = "round"
    TABLE = "table"
    NONE = ""


class Style(Enum):
    """The kind of number a figure is written as (its :class:`NumberFormat`)."""

    DECIMAL = "decimal"
    PERCENT = "percentage"
    SIGNIFICANT = "percentage to two significant figures"
    PROBABILITY = "probability"
    ODDS = "odds"
    TO_ONE = "odds paid"
    COUNT = "whole count"
    FRACTION = "exact fraction"


class NumberFormat(NamedTuple):
    """How every output writes a figure: its style, places and sign, and its unit.

    >>> NumberFormat(Style.PERCENT, 4).words, NumberFormat(Style.DECIMAL, 6, plus=True).words
    ('percentage to 4 places', 'signed decimal to 6 places')
    """

    style: Style
    places: int = 0
    plus: bool = False
    """A plus sign before a positive value (the player's signed amounts)."""
    scale: int = 1
    """Written times this (an effect of removal per 10,000 cards' worth)."""

    @property
    def unit(self) -> str:
        """The unit of the plain number a CSV cell holds, for its header: ``%``, ``1 in N``."""
        units = {
            Style.PERCENT: "%",
            Style.SIGNIFICANT: "%",
            Style.ODDS: "1 in N",
            Style.TO_ONE: "to 1",
        }
        if self.scale != 1:
            return f"x {self.scale:,}"
        return units.get(self.style, "")

    @property
    def words(self) -> str:
        """The format in words, for the glossary."""
        sign = "signed " if self.plus else ""
        scale = f", times {self.scale:,}" if self.scale != 1 else ""
        if self.style is Style.DECIMAL:
            return f"{sign}decimal to {self.places} places{scale}"
        if self.style is Style.PERCENT:
            return f"{sign}percentage to {self.places} places"
        if self.style is Style.PROBABILITY:
            return (
                f"decimal to {self.places} places; below 0.001 in scientific notation to "
                "3 significant figures"
            )
        if self.style is Style.TO_ONE:
            return f"N to 1, N to {self.places} places"
        if self.style is Style.ODDS:
            return "1 in N, N to 3 significant figures"
        return str(self.style.value)


def _dec(places: int, plus: bool = False, scale: int = 1) -> NumberFormat:
    return NumberFormat(Style.DECIMAL, places, plus, scale)


#: The formats figures share.
EV_FORMAT = _dec(6, plus=True)
SD_FORMAT = _dec(4)
PERCENT_FORMAT = NumberFormat(Style.PERCENT, 4)
SIGNED_PERCENT = NumberFormat(Style.PERCENT, 4, plus=True)
SMALL_PERCENT = NumberFormat(Style.SIGNIFICANT, 2)
PROBABILITY_FORMAT = NumberFormat(Style.PROBABILITY, 6)
ODDS_FORMAT = NumberFormat(Style.ODDS)
COUNT_FORMAT = NumberFormat(Style.COUNT)
RANGE_FORMAT = _dec(1, plus=True)
UNITS_FORMAT = _dec(2, plus=True)


class Figure(NamedTuple):
    """One reported figure: everything every output says about it, as data."""

    key: str
    """Its name in the catalogue and in JSON (the workbench's ``data-figure`` is it with
    dashes); :attr:`json` where the JSON names it otherwise."""
    wager: Wager
    quantity: str
    """What it measures in plain words, without the wager (``house edge``)."""
    basis: Basis
    sign: Sign
    method: Method
    definition: str
    """One sentence a person reads in the report's Definitions and the glossary."""
    short: str = ""
    """The label in a narrow column or on a phone, if shorter than :attr:`label`."""
    fmt: NumberFormat = EV_FORMAT
    """How every output writes it."""
    json_key: str = ""
    """Its one key in JSON documents, where that is not :attr:`key`."""

    @property
    def label(self) -> str:
        """The wager and the quantity: ``round house edge``."""
        if self.wager in (Wager.NONE, Wager.TABLE):
            return self.quantity
        wager = "round" if self.wager is Wager.ROUND else self.wager.value
        return f"{wager} {self.quantity}"

    @property
    def percent(self) -> bool:
        """Written as a percentage, everywhere."""
        return self.fmt.style in (Style.PERCENT, Style.SIGNIFICANT)

    @property
    def json(self) -> str:
        """Its key in every JSON document that holds it."""
        return self.json_key or self.key


def _default_format(quantity: str, sign: Sign) -> NumberFormat:
    """A figure's format when its row gives none: by what it measures."""
    if quantity in ("house edge", "RTP", "element of risk"):
        return PERCENT_FORMAT
    if "chance" in quantity or quantity in ("probability", "hit frequency"):
        return PROBABILITY_FORMAT
    if "SD" in quantity or quantity == "variance":
        return SD_FORMAT
    return EV_FORMAT if sign is Sign.PLAYER else _dec(6)


def _f(
    key: str,
    wager: Wager,
    quantity: str,
    basis: Basis,
    sign: Sign,
    method: Method,
    definition: str,
    short: str = "",
    fmt: NumberFormat | None = None,
    json_key: str = "",
) -> Figure:
    found = fmt or _default_format(quantity, sign)
    return Figure(key, wager, quantity, basis, sign, method, definition, short, found, json_key)


M, B, R, T, N = Wager.MAIN, Wager.BONUS, Wager.ROUND, Wager.TABLE, Wager.NONE
P, H, Z = Sign.PLAYER, Sign.HOUSE, Sign.NONE
EXACT, FLOAT, SIM = Method.EXACT, Method.FLOAT, Method.SIMULATION


#: What a quantity measured of each wager means, whichever the wager: a table that lists
#: the quantity once (the report's Definitions) defines it so, each wager's basis beside.
QUANTITIES: dict[str, str] = {
    "EV": "The player's expected net result per unit of its basis (the play stated; "
    "composition-dependent optimal play unless said otherwise).",
    "house edge": "The casino's expected win per unit staked, in %: minus the player's EV on "
    "the same basis; below zero when the player holds the edge.",
    "RTP": "Return to player: what a wager pays back on average per unit staked, in % (100% "
    "minus its house edge).",
    "SD": "Standard deviation of the net result, in units of its basis.",
    "variance": "Variance of the net result, in squared units of its basis.",
    "hit frequency": "The chance of a net win (a push not counted).",
    "probability": "The chance of one outcome (the round's: one pair of main and Bonus outcomes).",
    "return": "One outcome's share of the EV: its probability times its net pay.",
    "combinations": "How many of the equally likely cases of the full cycle end in an outcome "
    "(the Bonus wager's: ordered pairs of physical cards).",
    "hold": "The casino's expected win on a whole table's wagers per table-round.",
    "SD per table-round": "Standard deviation of the casino's result on a whole table per "
    "table-round.",
    "stake": "What is staked in a round, in main-wager units: the round's is the total wagered.",
    "top award": "The largest net pay, per unit of its basis.",
    "odds of the top award": "The chance of the largest pay, as \u201c1 in N\u201d.",
    "effect of removal": "The EV change, per unit of its basis, when one card of a rank "
    "leaves the full shoe: two full solves in floating point, times 10,000.",
    "betting correlation": "The correlation over a deck's 52 cards between a count's tags "
    "and the EORs; 1 is perfect.",
    "EV gained per true count": "The linear estimate of the EV gained per unit of true count "
    "(the running count per deck left).",
    "EV of a shoe": "The EV of a shoe dealt to a depth, under optimal play for the cards "
    "left, averaged over shoes.",
    "share of positive shoes": "The share of shoes dealt to a depth whose EV is above zero.",
}


#: The outcomes of the wagers in the words every output prints (JSON keeps its names).
OUTCOME_WORDS: dict[str, str] = {
    "blackjack": "blackjack",
    "win": "win",
    "push": "push",
    "loss": "loss",
}


def outcome_words(name: str) -> str:
    """A wager's outcome in words: a main outcome, a Bonus tier (``suited_match``) or a loss.

    >>> outcome_words("loss"), outcome_words("suited_match"), outcome_words("push")
    ('loss', 'suited match', 'push')
    """
    return OUTCOME_WORDS.get(str(name), str(name).replace("_", " "))
