"""Every attack a casino must consider, each with its own bound, and the verdict they give.

An **attack** is a way of playing (every round within a spread; back-counting, with or
without mid-shoe entry; raising the Bonus wager alone), measured for two players: the
**perfect-information** player, who knows every card left (an upper bound on what any
player of that attack can win), and the **best practical counter** the count search found.
Each row gives the win per 100 rounds *dealt* at the player's seat (the rounds sat out count
as nothing: what says whether the game can be beaten) and per 100 rounds *played* (the
player's own edge), by shuffle (a cut card at each penetration the dealt shoes reached, a
continuous shuffler) and with each countermeasure (a Bonus cap).

The verdict is computed from the rows (:func:`verdict`): the game cannot be beaten only if
every attack's bound is below zero; otherwise it names the attacks that beat it (a practical
counter whose interval lies above zero) or that cannot be ruled out (a bound not below
zero), and for each the countermeasures that end it, each with the figure that says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from solver.model.numbers import exact_json, float_json
from solver.model.rules import Rules
from solver.model.shuffles import Shuffle
from solver.results.frames import Tabular
from solver.results.kinds import Kind


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean per 100 rounds with its standard error (0: exact), and its 95% interval."""

    mean: float
    se: float

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval (mean +- 1.96 SE)."""
        return (self.mean - 1.96 * self.se, self.mean + 1.96 * self.se)

    @property
    def above_zero(self) -> bool:
        """The whole interval above zero."""
        return self.interval[0] > 0

    @property
    def below_zero(self) -> bool:
        """The whole interval below zero."""
        return self.interval[1] < 0

    @property
    def cannot_win(self) -> bool:
        """The whole interval at or below zero: nothing to win (an attack that never finds a
        round to play wins exactly nothing)."""
        return self.interval[1] <= 0

    def to_json(self) -> dict[str, Any]:
        """The mean and its interval (null where no round was played, the interval null
        where one was: JSON has no NaN).

        >>> Estimate(math.nan, math.nan).to_json()
        {'float': None, 'interval_95': None}
        """
        if math.isnan(self.mean):
            return {"float": None, "interval_95": None}
        low, high = self.interval
        if math.isnan(low) or math.isnan(high):  # one round played: no spread to measure
            return {"float": self.mean, "interval_95": None}
        return {"float": self.mean, "interval_95": [low, high]}


class AttackKind(StrEnum):
    """The attacks a casino must consider."""

    PLAY_ALL = "play-all"
    BACK_COUNT = "back-count"
    NO_MID_SHOE = "back-count-no-mid-shoe"
    BONUS_RAISE = "bonus-raise"


#: Each attack's name, definition and short label, in the order every output lists them.
ATTACKS: dict[AttackKind, tuple[str, str, str]] = {
    AttackKind.PLAY_ALL: (
        "plays every round within the spread",
        "Plays every round dealt, the spread's top bet on a favourable round and its bottom "
        "otherwise.",
        "every round",
    ),
    AttackKind.BACK_COUNT: (
        "back-counts, entering mid-shoe",
        "Watches, and bets the spread's top only on the rounds that favour him, entering "
        "and leaving at any round.",
        "back-count",
    ),
    AttackKind.NO_MID_SHOE: (
        "back-counts with no mid-shoe entry",
        "May sit down only at a shuffle: plays from there within the spread and leaves for "
        "the rest of the shoe when it turns against him.",
        "no mid-shoe entry",
    ),
    AttackKind.BONUS_RAISE: (
        "raises the Bonus wager only",
        "Plays every round at one unit on the main wager and raises the Bonus wager when it "
        "favours him.",
        "Bonus only",
    ),
}


class Player(StrEnum):
    """Who plays an attack."""

    PERFECT = "perfect information"
    PRACTICAL = "best practical counter"


@dataclass(frozen=True, slots=True)
class AttackRow:
    """One attack by one player under one shuffle (and countermeasure): its wins.

    ``dealt`` is the win per 100 rounds dealt at the seat, ``played`` per 100 rounds played
    (``None`` when no round is played), ``share`` the share of rounds played; ``method``
    says where the figure comes from (``dealt shoes``, ``shoe paths``, ``simulated``,
    ``exact``), ``samples`` how many states, shoes or rounds it rests on, ``how`` the
    player's trigger or counter in words, ``cap`` whether the Bonus is capped at the rules'
    ratio (the countermeasure).
    """

    attack: AttackKind
    player: Player
    shuffle: Shuffle
    dealt: Estimate
    played: Estimate | None
    share: float
    method: str
    samples: int
    how: str = ""
    cap: bool = False
    raised_ev: float | None = None
    """Raising the Bonus: its EV per Bonus unit over the rounds raised (the player's)."""

    @property
    def bound(self) -> bool:
        """Whether the row is an upper bound (the perfect-information player's)."""
        return self.player is Player.PERFECT

    @property
    def unseen(self) -> bool:
        """A sampled figure of exactly nothing: no state or shoe of the sample gave the
        attack a round to win on, which does not show that none would."""
        return self.method != "exact" and self.dealt.mean == 0 and self.dealt.se == 0

    @property
    def cannot_win(self) -> bool:
        """The attack wins nothing here: the interval at or below zero, a sampled figure of
        exactly zero aside (:attr:`unseen`)."""
        return self.dealt.cannot_win and not self.unseen

    @property
    def depth(self) -> float | None:
        """The cut card's penetration (None under a shuffler)."""
        return None if self.shuffle.is_csm else self.shuffle.penetration

    def to_json(self) -> dict[str, Any]:
        """One entry of ``rows``."""
        return {
            "attack": self.attack.value,
            "player": self.player.value,
            "shuffle": self.shuffle.to_json(),
            "bonus_capped": self.cap,
            "method": self.method,
            "samples": self.samples,
            "how": self.how,
            "win_per_100_dealt": self.dealt.to_json(),
            "win_per_100_played": None if self.played is None else self.played.to_json(),
            "share_played": float_json(self.share),
            "bonus_ev_when_raised": None if self.raised_ev is None else float_json(self.raised_ev),
        }


@dataclass(frozen=True, slots=True)
class Attack:
    """An attack and every row measured of it."""

    kind: AttackKind
    rows: tuple[AttackRow, ...]

    @property
    def name(self) -> str:
        """The attack in words."""
        return ATTACKS[self.kind][0]

    @property
    def definition(self) -> str:
        """What the attacker does, in a sentence."""
        return ATTACKS[self.kind][1]

    @property
    def short(self) -> str:
        """The attack in a narrow column."""
        return ATTACKS[self.kind][2]

    def to_json(self) -> dict[str, Any]:
        """One entry of ``attacks`` (its rows are in ``rows``, each naming its attack)."""
        return {"attack": self.kind.value, "name": self.name, "definition": self.definition}


@dataclass(frozen=True, slots=True)
class BonusSpread:
    """The Bonus wager's EV per Bonus unit over the dealt shoes."""

    mean: float
    percentiles: dict[int, float]
    positive_share: float
    tracker_correlation: float | None

    def to_json(self) -> dict[str, Any]:
        """Mean, percentiles, the share positive and the tracker's correlation."""
        return {
            "mean": float_json(self.mean),
            "percentiles": {str(p): float_json(v) for p, v in self.percentiles.items()},
            "positive_share": float_json(self.positive_share),
            "tracker_correlation": None
            if self.tracker_correlation is None
            else float_json(self.tracker_correlation),
        }


@dataclass(frozen=True, slots=True)
class Countermeasure:
    """What one countermeasure leaves of an attack: the row that measures it, and whether
    it ends the attack (the bound's interval below zero, and no practical counter ahead)."""

    name: str
    row: AttackRow | None
    """The bound under the countermeasure (``None``: none was measured)."""
    ends: bool
    practical: AttackRow | None = None
    """The best practical counter under the countermeasure, where one was measured."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One attack the verdict names: its bound as dealt, the practical counter's figure,
    whether it beats the game, and each countermeasure."""

    attack: Attack
    bound: AttackRow | None
    """The perfect-information bound as dealt (``None``: none was measured)."""
    practical: AttackRow | None
    beats: bool
    """The practical counter's interval per round dealt lies above zero."""
    measures: tuple[Countermeasure, ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The game against every attack, as dealt (a cut card at ``depth``, the deepest
    penetration the dealt shoes reached, and no Bonus cap)."""

    depth: float
    unbeatable: bool
    """Every attack's bound lies at or below zero (none can win)."""
    findings: tuple[Finding, ...]
    """The attacks whose bound does not lie below zero."""

    def to_json(self) -> dict[str, Any]:
        """The verdict's findings as JSON values."""
        return {
            "depth": self.depth,
            "cannot_be_beaten": self.unbeatable,
            "attacks": [
                {
                    "attack": f.attack.kind.value,
                    "bound_per_100_dealt": None if f.bound is None else f.bound.dealt.to_json(),
                    "practical_per_100_dealt": None
                    if f.practical is None
                    else f.practical.dealt.to_json(),
                    "beats_the_game": f.beats,
                    "countermeasures": [
                        {
                            "name": m.name,
                            "ends_it": m.ends,
                            "bound_per_100_dealt": None if m.row is None else m.row.dealt.to_json(),
                            "practical_per_100_dealt": None
                            if m.practical is None
                            else m.practical.dealt.to_json(),
                        }
                        for m in f.measures
                    ],
                }
                for f in self.findings
            ],
        }


def _as_dealt(rows: tuple[AttackRow, ...], player: Player, depth: float) -> AttackRow | None:
    """The attack's row for ``player`` under the cut card at ``depth``, uncapped: of the
    practical counters, the one whose interval reaches highest."""
    found = [r for r in rows if r.player is player and not r.cap and r.depth == depth]
    return max(found, key=lambda r: r.dealt.interval[0]) if found else None


def _ended(bound: AttackRow | None, practical: AttackRow | None) -> bool:
    """A countermeasure ends an attack: its bound below zero, or (with no bound measured)
    the practical counter's interval below zero."""
    if bound is not None:
        return bound.cannot_win and (practical is None or not practical.dealt.above_zero)
    return practical is not None and practical.dealt.below_zero


def _measures(
    attack: Attack, attacks: dict[AttackKind, Attack], depth: float
) -> tuple[Countermeasure, ...]:
    """Each countermeasure's bound and the practical counter's figure under it."""
    rows = attack.rows
    csm = [r for r in rows if r.shuffle.is_csm and not r.cap]
    csm_bound = next((r for r in csm if r.bound), None)
    csm_practical = next((r for r in csm if not r.bound), None)
    measures = [
        Countermeasure(
            "a continuous shuffler", csm_bound, _ended(csm_bound, csm_practical), csm_practical
        )
    ]
    if attack.kind is AttackKind.BACK_COUNT and AttackKind.NO_MID_SHOE in attacks:
        other = attacks[AttackKind.NO_MID_SHOE].rows
        bound = _as_dealt(other, Player.PERFECT, depth)
        practical = _as_dealt(other, Player.PRACTICAL, depth)
        measures.append(
            Countermeasure("no mid-shoe entry", bound, _ended(bound, practical), practical)
        )
    shallower = sorted(
        (r for r in rows if r.bound and not r.cap and r.depth is not None and r.depth < depth),
        key=lambda r: -(r.depth or 0.0),
    )
    cut = next((r for r in shallower if r.cannot_win), None)
    measures.append(Countermeasure("a shallower cut card", cut, cut is not None))
    capped = next((r for r in rows if r.cap and r.bound), None)
    if capped is not None:
        measures.append(
            Countermeasure("a Bonus cap at the rules' ratio", capped, _ended(capped, None))
        )
    return tuple(measures)


def verdict(attacks: tuple[Attack, ...], depth: float) -> Verdict:
    """The verdict the attacks' rows give, as dealt at ``depth`` (see the module)."""
    by_kind = {a.kind: a for a in attacks}
    findings = []
    unmeasured = False
    for attack in attacks:
        bound = _as_dealt(attack.rows, Player.PERFECT, depth)
        practical = _as_dealt(attack.rows, Player.PRACTICAL, depth)
        if bound is None and practical is None:
            unmeasured = True  # nothing says this attack cannot win
            continue
        ruled_out = bound is not None and bound.cannot_win
        beats = practical is not None and practical.dealt.above_zero
        if ruled_out and not beats:
            continue
        findings.append(Finding(attack, bound, practical, beats, _measures(attack, by_kind, depth)))
    return Verdict(depth, not findings and not unmeasured, tuple(findings))


@dataclass(frozen=True, slots=True, repr=False)
class AttackResult(Tabular):
    """``cbj attack``: every attack's rows, the Bonus wager's spread, and the verdict.

    ``penetration`` is the study's cut card and ``reached`` the deepest share of the shoe a
    dealt shoe reached (a shoe keeps at least a few cards back, so a 1-deck study reaches
    half its cards whatever the cut card): no row is given beyond it.
    """

    rules: Rules
    samples: int
    seed: int
    spread: tuple[int, int]
    bonus_multiple: Fraction
    penetration: float
    reached: float
    attacks: tuple[Attack, ...]
    bonus: BonusSpread

    @property
    def verdict(self) -> Verdict:
        """The verdict the rows give (:func:`verdict`)."""
        return verdict(self.attacks, self.depth)

    @property
    def depth(self) -> float:
        """The deepest penetration with a row: the study's, or the deepest reached."""
        depths = [r.depth for a in self.attacks for r in a.rows if r.depth is not None]
        return max(depths) if depths else self.reached

    def attack(self, kind: AttackKind) -> Attack:
        """The attack of ``kind``."""
        return next(a for a in self.attacks if a.kind is kind)

    def to_json(self) -> dict[str, Any]:
        """The document ``cbj attack --format json`` prints."""
        return {
            "rules": self.rules.to_json(),
            "samples": self.samples,
            "seed": self.seed,
            "spread": list(self.spread),
            "bonus_multiple": exact_json(self.bonus_multiple),
            "penetration": self.penetration,
            "reached": self.reached,
            "attacks": [a.to_json() for a in self.attacks],
            "rows": [r.to_json() for a in self.attacks for r in a.rows],
            "bonus_ev": self.bonus.to_json(),
            "verdict": self.verdict.to_json(),
        }


#: ``cbj attack``'s results, kept whole by their rules and settings: a second run with the
#: same arguments (another ``--format``, say) reads it back instead of simulating again.
ATTACK: Kind[AttackResult] = Kind("attack", AttackResult)
