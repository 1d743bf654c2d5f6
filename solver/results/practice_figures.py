"""The trainer's figures: what a mistake costs and the player's own practice record.

Part of the one figure catalogue (:data:`solver.results.figures.FIGURES` holds them in its
order); apart only to keep that module short.
"""

from __future__ import annotations

from solver.results.figure_fields import (
    COUNT_FORMAT,
    EXACT,
    Basis,
    H,
    Method,
    N,
    NumberFormat,
    P,
    Style,
    Z,
    _dec,
    _f,
)

PRACTICE_FIGURES = (
    _f(
        "mistake_cost",
        N,
        "cost of a mistake each time",
        Basis.MAIN_UNIT,
        H,
        EXACT,
        "What playing one cell of the chart the other way costs on average each time the cell "
        "comes up: its cost per round over how often play by the chart reaches it.",
        fmt=_dec(2),
    ),
    _f(
        "practice_decisions",
        N,
        "decisions",
        Basis.NONE,
        Z,
        Method.PLAYED,
        "The hit-or-stand decisions the player has made in practice.",
        fmt=COUNT_FORMAT,
    ),
    _f(
        "practice_mistakes",
        N,
        "mistakes",
        Basis.NONE,
        Z,
        Method.PLAYED,
        "The decisions played unlike the chart the player learns.",
        fmt=COUNT_FORMAT,
    ),
    _f(
        "practice_accuracy",
        N,
        "accuracy",
        Basis.NONE,
        Z,
        Method.PLAYED,
        "The share of the player's decisions played as the chart learned plays them, in %.",
        fmt=NumberFormat(Style.PERCENT, 1),
    ),
    _f(
        "practice_streak",
        N,
        "streak",
        Basis.NONE,
        Z,
        Method.PLAYED,
        "Decisions in a row played as the chart plays them, up to the last one.",
        fmt=COUNT_FORMAT,
    ),
    _f(
        "practice_best_streak",
        N,
        "best streak",
        Basis.NONE,
        Z,
        Method.PLAYED,
        "The longest run of decisions in a row played as the chart plays them.",
        fmt=COUNT_FORMAT,
    ),
    _f(
        "practice_given_up",
        N,
        "EV given up in practice",
        Basis.MAIN_UNIT,
        H,
        Method.PLAYED,
        "The EV each of the player's decisions gave up against perfect play for its very hand "
        "and shoe, added up, in main-wager units.",
        fmt=_dec(2),
    ),
    _f(
        "practice_mistake_cost",
        N,
        "cost of the mistakes made",
        Basis.MAIN_UNIT,
        H,
        Method.PLAYED,
        "Each mistake's cost each time its cell comes up (the chart's figure), added up over "
        "the player's mistakes, in main-wager units.",
        fmt=_dec(2),
    ),
    _f(
        "practice_trend",
        N,
        "accuracy trend",
        Basis.NONE,
        P,
        Method.PLAYED,
        "Accuracy over the later half of the last 100 decisions less that over the earlier "
        "half, in percentage points: positive when the player is improving.",
        fmt=NumberFormat(Style.PERCENT, 1, plus=True),
    ),
)
