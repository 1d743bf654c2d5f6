"""The practice table: ``solver.practice_start`` deals a session's first round and
``solver.practice_play`` plays one decision (or deals the next round), grading it.

A session is one :class:`~solver.results.practice.PracticeState`, handed back with every
turn and sent with the next play (as the page does, or as its JSON,
``turn.to_json()["state"]``): nothing is kept anywhere else.  Each decision is graded
exactly against the chart learned and against perfect play for that hand and shoe
(:mod:`solver.exact.practice`); the game and the printed chart's costs are solved once per
rule set (seconds) and kept in ``cache``, or without one in memory (:data:`KEPT`: the last
few rule sets'), so that a session's plays do not solve its game again.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, Unpack

from solver.api.chart_file import load_chart
from solver.api.rules import RuleOptions, make_rules
from solver.exact.chart import verify_chart
from solver.exact.chart_costs import stored_costs
from solver.exact.game import solve_game
from solver.exact.practice import grade_play
from solver.model.chart_file import ChartGrid
from solver.model.checks import MAX_SEED, checked, finite_fraction, short_number, shown, whole_in
from solver.model.errors import PracticeError
from solver.model.rules import Rules
from solver.results.kinds import Store
from solver.results.practice import DEFAULT_PENETRATION, Drill, Play, PracticeSetup, PracticeState
from solver.results.practice_history import PracticeHistory, read_history
from solver.results.practice_state import PracticeTurn, read_state
from solver.store.memory import LatestCache
from solver.studies.practice import deal, hit, recorded, seen_cards, stand, start_state

#: The plays :func:`practice_play` takes: a decision, or the next round's deal.
PLAYS = ("hit", "stand", "deal")
#: The least penetration a session may choose (a tenth of the shoe).
MIN_PENETRATION = Fraction(1, 10)
#: Where sessions played without a ``cache`` keep their solved games and charts' costs: the
#: latest eight results (a game and its costs for each of the last four rule sets).
KEPT = LatestCache(size=8)


def parse_drill(text: str) -> Drill:
    """A drill by its name (``dealt``, ``hard``, ``soft``, ``costly``).

    >>> parse_drill(" Costly ").value
    'costly'
    """
    try:
        return Drill(text.strip().lower())
    except ValueError:
        raise PracticeError(
            f"drill {text[:24]!r} is unknown: use one of {', '.join(d.value for d in Drill)}"
        ) from None


def parse_penetration(value: str | float | Fraction | None) -> Fraction:
    """A share of the shoe dealt before a reshuffle: ``0.75``, ``3/4`` or ``75%``; None is
    the default (3/4).

    >>> parse_penetration("75%"), parse_penetration(0.8), parse_penetration(None)
    (Fraction(3, 4), Fraction(4, 5), Fraction(3, 4))
    """
    if value is None:
        return DEFAULT_PENETRATION
    if isinstance(value, Fraction | int):
        share = Fraction(value)
    elif isinstance(value, float):
        share = finite_fraction(value, "penetration", PracticeError)
    else:
        text = value.strip()
        percent = text.endswith("%")
        number = text.removesuffix("%").strip()
        if not re.fullmatch(r"\d{1,6}(\.\d{1,6})?|\d{1,6}/\d{1,6}", number, flags=re.ASCII) or (
            number.endswith("/0")
        ):
            raise PracticeError(
                f"penetration {text[:24]!r} is not a share of the shoe: write 0.75, 3/4 or 75%"
            )
        share = Fraction(number) / (100 if percent else 1)
    if not MIN_PENETRATION <= share <= 1:
        raise PracticeError(
            f"penetration {short_number(share)} is out of range: deal from 0.1 to 1 of the shoe "
            "before a reshuffle"
        )
    return share


def _setup(
    played: Rules,
    seed: int | None,
    drill: str,
    penetration: str | float | Fraction | None,
    chart: str | Path | ChartGrid | None,
) -> PracticeSetup:
    """The session's settings, each checked before any solve."""
    if seed is None:
        seed = secrets.randbelow(10**9)
    elif not whole_in(seed, 0, MAX_SEED):
        raise PracticeError(f"seed {shown(seed)} must be a whole number from 0 to 2**128 - 1")
    grid = load_chart(chart) if isinstance(chart, str | Path) else chart
    return PracticeSetup(played, seed, parse_penetration(penetration), parse_drill(drill), grid)


@checked
def practice_start(
    *,
    seed: int | None = None,
    drill: str = "dealt",
    penetration: str | float | None = None,
    chart: str | Path | ChartGrid | None = None,
    history: PracticeHistory | Mapping[str, Any] | None = None,
    cache: Store | None = None,
    rules: Rules | None = None,
    **options: Unpack[RuleOptions],
) -> PracticeTurn:
    """A practice session under the rules, its first round dealt.

    ``seed`` makes the session replayable (a fresh one when None, shown in the state);
    ``drill`` is ``dealt`` (every hand as dealt), ``hard`` or ``soft`` (hard or soft
    totals only), ``costly`` (the costliest plausible mistakes, in proportion to their
    cost), ``close`` (close calls) or ``mistakes`` (the player's own, spaced);
    ``penetration`` is the share of the shoe dealt before a reshuffle (``0.75``, ``3/4``,
    ``75%``; 3/4 when None); ``chart`` is the chart learned, a file as ``cbj chart``
    writes it (or one read already), the printed best chart when None; ``history`` is the
    player's practice history (or its JSON, checked), whose review schedule the session
    carries on (``drill="mistakes"`` deals the cells it holds as they fall due).
    """
    played = make_rules(rules, options)
    setup = _setup(played, seed, drill, penetration, chart)
    cache = KEPT if cache is None else cache
    game = solve_game(played, exact=True, cache=cache)
    costs = stored_costs(game, cache)
    if setup.chart is not None:
        verify_chart(game, setup.chart, setup.chart.name)
    past = history if isinstance(history, PracticeHistory | None) else read_history(history)
    schedule = None if past is None else past.schedule
    state, settled = deal(start_state(setup, schedule), costs)
    return PracticeTurn(state, None, settled)


@checked
def practice_play(
    state: PracticeState | Mapping[str, Any], play: str, *, cache: Store | None = None
) -> PracticeTurn:
    """One play of a session: ``hit`` or ``stand`` (graded), or ``deal`` the next round.

    ``state`` is the last turn's (or its JSON, read as untrusted input and checked).
    """
    current = state if isinstance(state, PracticeState) else read_state(state)
    chosen = play.strip().lower()
    if chosen not in PLAYS:
        raise PracticeError(f"play {play[:16]!r} is unknown: use one of {', '.join(PLAYS)}")
    cache = KEPT if cache is None else cache
    game = solve_game(current.rules, exact=True, cache=cache)
    costs = stored_costs(game, cache)
    if chosen == "deal":
        after, settled = deal(current, costs)
        return PracticeTurn(after, None, settled)
    hand = current.hand
    if hand is None:
        raise PracticeError("no round is in play: deal the next one")
    decided = Play(chosen)
    grade = grade_play(
        current.rules,
        costs,
        game,
        hand.bonus,
        hand.cards,
        seen_cards(current),
        decided,
        current.setup.chart,
    )
    graded = recorded(current, grade)
    after, settled = hit(graded) if decided is Play.HIT else stand(graded)
    return PracticeTurn(after, grade, settled)
