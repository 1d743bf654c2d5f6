"""Domain errors: every bad input the library rejects raises one of these."""


class CbjError(ValueError):
    """Base class for every error the solver raises on bad input."""


class CardError(CbjError):
    """A card or list of cards could not be parsed."""


class ShoeError(CbjError):
    """Cards were removed that the shoe does not hold, or a shoe is too small."""


class RulesError(CbjError):
    """A rule, ratio or paytable value is out of range or malformed."""


class HandError(CbjError):
    """A hand that cannot occur in the game (busted, empty, impossible)."""


class StrategyError(CbjError):
    """A player strategy is unknown, malformed or not available."""


class SimulationError(CbjError):
    """A simulation was asked for with settings it cannot run (rounds, seats, shoe)."""


class DesignError(CbjError):
    """A design target or search band that is malformed or that no paytable can meet."""


class ReportError(CbjError):
    """A report cannot be written as asked (an unknown file type, say)."""


class CountError(CbjError):
    """A card-counting system name or tag vector that is unknown or malformed."""


class OutputError(CbjError):
    """An output file or folder that cannot or must not be written as asked."""


class BackendError(CbjError):
    """A parallel backend that is unknown, not installed or cannot be reached."""


class SessionError(CbjError):
    """A session asked for with a number of rounds, bankroll or method it cannot use."""


class PracticeError(CbjError):
    """A practice session's settings or state that cannot be played (a bad drill, seed or
    penetration, a state that does not hold together, a play out of turn)."""
