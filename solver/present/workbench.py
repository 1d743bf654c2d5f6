"""The workbench's pages (``cbj serve``) as HTML: results and form states in, text out.

Pure like the rest of :mod:`solver.present`: every figure comes in a result (a solved
game, a paytable solution or search, a chart), every field from the rule table, and
every text is escaped.  The pages load one style sheet and one script, both served by
the app (no inline script: the app's Content-Security-Policy forbids it); without the
script the forms still work, and a page still being computed refreshes itself.

>>> "Game" in page("Game", "/", "", {})
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from solver.model.outcomes import MAIN_OUTCOMES
from solver.model.rule_table import RULE_TABLE
from solver.present.game import pays_text, session_places
from solver.present.long_numbers import exact_html
from solver.present.style import show, show_range, thousands
from solver.present.wording import rules_sentence
from solver.results.figures import WAGER_FIGURES, heading, outcome_words, quantity_heading
from solver.results.volatility import METHOD_WORDS

if TYPE_CHECKING:
    from solver.results.game import GameResult
    from solver.results.volatility import Volatility

#: The fields of the game the pages carry to each other: the preset, each rule, exact.
GAME = " ".join(("preset", *(rule.name for rule in RULE_TABLE), "exact"))
#: The pages, in the navigation's order: path and name.
PAGES = (
    ("/", "Game"),
    ("/paytable", "Paytable"),
    ("/compare", "Compare"),
    ("/sensitivity", "Sensitivity"),
    ("/chart", "Chart"),
    ("/report", "Report"),
    ("/hold", "Hold check"),
    ("/practice", "Practice"),
)


def link(path: str, query: Mapping[str, str]) -> str:
    """A path with its query string (fields left blank are left out).

    >>> link("/chart", {"decks": "2", "paytable": ""})
    '/chart?decks=2'
    """
    given = {k: v for k, v in query.items() if v}
    return path + ("?" + urlencode(given) if given else "")


def site_header(here: str, query: Mapping[str, str], extra: str = "") -> str:
    """The navigation bar every page has (each link keeps the rules), and ``extra`` after it
    (the Chart page's downloads); styled by ``/static/site.css`` alone."""
    nav = "".join(
        f'<a href="{escape(link(path, query))}"'
        + (' aria-current="page"' if path == here else "")
        + f">{name}</a>"
        for path, name in PAGES
    )
    return (
        '<header class="site">'
        '<p class="brand">Community Blackjack workbench</p>'
        f'<nav aria-label="Pages">{nav}</nav>{extra}</header>'
    )


def page(title: str, here: str, body: str, query: Mapping[str, str], busy: bool = False) -> str:
    """A whole page: the navigation (each link keeps the rules), then ``body``.

    ``busy`` pages refresh themselves every second when the script does not run.
    """
    refresh = '<noscript><meta http-equiv="refresh" content="1"></noscript>' if busy else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} - Community Blackjack workbench</title>"
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="/static/site.css">'
        '<link rel="stylesheet" href="/static/workbench.css">'
        f'<script src="/static/workbench.js" defer></script>{_own_script(here)}{refresh}</head>'
        f'<body data-page="{escape(here)}" data-game="{GAME}">{site_header(here, query)}'
        f"<main><h1>{escape(title)}</h1>{body}</main></body></html>\n"
    )


def _own_script(here: str) -> str:
    """A page's own script beside the workbench's (the Practice page's)."""
    return '<script src="/static/practice.js" defer></script>' if here == "/practice" else ""


# Figures.


def _figure(name: str, value: Fraction | float, text: str, exact: bool) -> str:
    """A figure as text, with its float (and fraction) in data attributes for scripts and tests."""
    extra = (
        f' data-exact="{value.numerator}/{value.denominator}"'
        if isinstance(value, Fraction)
        else ""
    )
    fraction = (
        f' <span class="fraction">= {exact_html(value)}</span>'
        if exact and isinstance(value, Fraction)
        else ""
    )
    data = f'data-figure="{name}" data-value="{float(value)!r}"{extra}'
    return f"<span {data}>{escape(text)}</span>{fraction}"


def _row(cells: Sequence[str], head: bool = False) -> str:
    tag = "th" if head else "td"
    first, *rest = cells
    return (
        f'<tr><th scope="row">{first}</th>' + "".join(f"<{tag}>{c}</{tag}>" for c in rest) + "</tr>"
    )


def html_table(
    caption: str, headers: Sequence[str], rows: Sequence[Sequence[str]], kind: str = ""
) -> str:
    """A table whose caption stands above its box, the box scrolling sideways on its own
    when the table is wider than the page (a labelled region, with a cue the script shows
    when it does)."""
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in headers)
    body = "".join(_row(r) for r in rows)
    cls = f' class="{kind}"' if kind else ""
    return (
        f'<div class="table-box"><p class="caption">{escape(caption)}</p>'
        '<p class="cue" hidden>Scroll the table sideways \u2192</p>'
        f'<div class="scroll" role="region" tabindex="0" aria-label="{escape(caption)}">'
        f"<table{cls}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div></div>"
    )


def _wager_values(game: GameResult[Any], outcomes: dict[str, Any]) -> dict[str, tuple[Any, str]]:
    """Each figure of the wager table: its value and its text (the catalogue's format)."""
    # Each of the game's properties sums over every starting pair (in fractions, when
    # exact, a few milliseconds each): each is read once.
    ev = game.expected_value
    values: dict[str, Any] = {
        "main_house_edge": -ev,
        "main_rtp": 1 + ev,
        "main_ev": ev,
        "main_sd": game.standard_deviation,
        "main_hit_frequency": outcomes["blackjack"] + outcomes["win"],
    }
    bonus = game.bonus
    if bonus is not None:
        edge = game.round_house_edge
        values |= {
            "bonus_house_edge": bonus.house_edge,
            "bonus_rtp": bonus.return_to_player,
            "bonus_ev": bonus.expected_value,
            "bonus_sd": bonus.standard_deviation,
            "bonus_hit_frequency": bonus.hit_frequency,
            "round_house_edge": edge,
            "round_rtp": 1 - edge,
            "round_ev": game.round_expected_value,
            "round_sd": math.sqrt(game.round_variance),
            "round_hit_frequency": game.round_hit_frequency,
        }
    return {key: (value, show(key, value)) for key, value in values.items()}


def _wagers(game: GameResult[Any], outcomes: dict[str, Any]) -> str:
    values = _wager_values(game, outcomes)
    rows = []
    for column, name in enumerate(("Main wager", "Bonus wager", "Whole round")):
        keys = [row[column] for row in WAGER_FIGURES]
        if keys[0] not in values:
            continue
        rows.append(
            [
                name,
                *(
                    _figure(key.replace("_", "-"), values[key][0], values[key][1], game.exact)
                    for key in keys
                ),
            ]
        )
    ratio = game.rules.bonus_ratio
    return html_table(
        "Each wager per unit staked on it; the whole round per main unit (1 on the main wager, "
        f"{ratio} on the Bonus), its house edge and RTP per unit of the {1 + ratio} wagered",
        ("wager", *(quantity_heading(row[0]) for row in WAGER_FIGURES)),
        rows,
        "figures",
    )


def _outcomes(game: GameResult[Any], outcomes: dict[str, Any]) -> str:
    rows = [
        [
            escape(outcome_words(k)),
            _figure(
                "main-probability", outcomes[k], show("main_probability", outcomes[k]), game.exact
            ),
            _figure("odds", outcomes[k], show("odds", outcomes[k]), False),
        ]
        for k in MAIN_OUTCOMES
    ]
    return html_table(
        "Main wager: chance of each outcome", ("outcome", "probability", "odds"), rows
    )


def _bonus_table(game: GameResult[Any]) -> str:
    if game.bonus is None:
        return ""
    rows = [
        [
            escape(outcome_words(line.outcome)),
            escape(pays_text(line.pays)),
            _figure(
                "bonus-probability",
                line.probability,
                show("bonus_probability", line.probability),
                game.exact,
            ),
            _figure("odds", line.probability, show("odds", line.probability), False),
            _figure("bonus-return", line.return_, show("bonus_return", line.return_), False),
        ]
        for line in game.bonus.lines
    ]
    return html_table(
        "Bonus wager: return table, per unit staked on the Bonus",
        ("outcome", "pays", "probability", "odds", "return"),
        rows,
    )


def _range_figure(name: str, bounds: tuple[float, float], places: int) -> str:
    """A session range as text, its ends in data attributes."""
    low, high = bounds
    key = name.replace("-", "_")
    return (
        f'<span data-figure="{name}" data-value="{low!r}" data-high="{high!r}">'
        f"{escape(show_range(key, low, high, places))}</span>"
    )


#: The volatility table's figures, in its columns' order.
SESSION_KEYS = ("session_mean", "session_range90", "session_range95", "session_ahead")


def _volatility(volatility: Volatility | None, places: int) -> str:
    if volatility is None:
        return ""
    rows = [
        [
            thousands(s.rounds),
            _figure("session-mean", s.mean, show("session_mean", s.mean), False),
            _range_figure("session-range90", s.range90, places),
            _range_figure("session-range95", s.range95, places),
            _figure(
                "session-ahead",
                s.probability_ahead,
                show("session_ahead", s.probability_ahead),
                False,
            ),
        ]
        for s in volatility.sessions
    ]
    how = "; ".join(METHOD_WORDS[m] for m in volatility.methods)
    caption = (
        f"{heading('volatility_index').capitalize()} "
        f"{show('volatility_index', volatility.index)}: the player's net result after a "
        f"session, in main-wager units; ranges and the chance of being ahead from the "
        f"session's exact distribution ({how})"
    )
    return html_table(caption, ("rounds", *(heading(k) for k in SESSION_KEYS)), rows)


def _who_holds(game: GameResult[Any]) -> str:
    ev = game.expected_value
    main = (
        f"the player holds the main wager's edge, {show('main_ev_by_bonus_card', ev)} of each "
        "unit bet on it "
        "(the casino's house edge is negative)"
        if ev > 0
        else f"the house holds the main wager's edge, {show('main_house_edge', -ev)} of each "
        "unit bet on it"
        if ev < 0
        else "neither side holds an edge on the main wager"
    )
    if game.bonus is None:
        return f'<p class="lead">Under these rules {escape(main)}.</p>'
    edge = game.round_house_edge
    side = "the house" if edge > 0 else "the player" if edge < 0 else "neither side"
    return (
        f'<p class="lead">Under these rules {escape(main)}; {side} holds the edge on the '
        "whole round. Element of risk: the same as the round's house edge, since no wager is "
        "added after the deal (no doubling or splitting).</p>"
    )


def game_figures(game: GameResult[Any]) -> str:
    """Every figure of a solved game: each wager's edge, results, Bonus returns, volatility."""
    arithmetic = "exact fractions" if game.exact else "floating point"
    outcomes = game.outcomes
    return (
        '<p class="rules-line">'
        f"{escape(rules_sentence(game.rules).rstrip('.'))}; {arithmetic}.</p>"
        f"{_who_holds(game)}{_wagers(game, outcomes)}{_outcomes(game, outcomes)}"
        f"{_bonus_table(game)}"
        f"{_volatility(game.volatility, session_places(game.rules))}"
    )


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a piece of work has got: steps done of total (0 of 0 when it cannot tell),
    or its place in its queue (``position`` 1 is next); ``job`` names it for a Stop button."""

    label: str
    done: int = 0
    total: int = 0
    seconds: float = 0.0
    position: int = 0
    job: str = ""


def progress_html(progress: Progress | None, back: str = "") -> str:
    """A progress bar (indeterminate when the work cannot count its steps); hidden if None.

    A job that can be stopped gets a Stop button, which comes back to ``back`` (a path).

    >>> "2nd in its queue" in progress_html(Progress("drawing", position=2))
    True
    """
    if progress is None:
        return '<div id="progress" class="progress" hidden><progress></progress><span></span></div>'
    bar = (
        f'<progress max="{progress.total}" value="{progress.done}"></progress>'
        if progress.total
        else "<progress></progress>"
    )
    share = f", {100 * progress.done // progress.total}%" if progress.total else ""
    steps = f" ({progress.done} of {progress.total}{share})" if progress.total else ""
    words = f"{progress.label}{steps}, {progress.seconds:.0f} s"
    if progress.position:
        words = f"{progress.label}: waiting, {_ordinal(progress.position)} in its queue"
    stop = (
        '<form class="stop" method="post" action="/stop">'
        f'<input type="hidden" name="job" value="{escape(progress.job)}">'
        f'<input type="hidden" name="back" value="{escape(back)}">'
        "<button>Stop</button></form>"
        if progress.job and back
        else ""
    )
    return (
        f'<div id="progress" class="progress" role="status">{bar}<span>{escape(words)}</span>'
        f"{stop}</div>"
    )


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ..., ``11th``, ``21st``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def idle_html(what: str, start: bool = False) -> str:
    """The place of results not asked for yet: a line saying which button computes them.

    ``start``: the page's script starts the work at once (a POST of the page's address).
    """
    flag = ' data-start="true"' if start else ""
    return f'<p class="idle" id="idle"{flag}>{escape(what)}</p>'


def headline_html(game: GameResult[Any] | None, chart_ev: Fraction | None = None) -> str:
    """The Game page's headline figures, the main wager's EV with perfect play (the
    composition-dependent optimum) and the round's house edge, for the summary that stays in
    view as the rules are changed (dashes before a solve); beside the EV, the printed
    chart's (``chart_ev``) once the chart has been searched (the Chart page leads with it)."""
    if game is None:
        main = round_edge = "\u2014"
        data = ("", "")
    else:
        ev = game.expected_value
        edge = game.round_house_edge if game.bonus is not None else None
        main = show("main_ev", ev)
        round_edge = "\u2014" if edge is None else show("round_house_edge", edge)
        data = (
            f' data-value="{float(ev)!r}"',
            "" if edge is None else f' data-value="{float(edge)!r}"',
        )
    beside = (
        ""
        if chart_ev is None or game is None
        else f' <small class="beside">the printed chart <span data-headline="chart-ev" '
        f'data-value="{float(chart_ev)!r}">{escape(show("main_ev", chart_ev))}</span></small>'
    )
    return (
        '<span class="headline">Main wager EV, perfect play <strong data-headline="main-ev"'
        f"{data[0]}>{escape(main)}</strong>{beside}</span>"
        f'<span class="headline">Round house edge <strong data-headline="round-house-edge"'
        f"{data[1]}>{escape(round_edge)}</strong></span>"
    )


def chart_lead(chart_ev: Fraction, optimal_ev: Fraction) -> str:
    """The Chart page's first line: the main wager's EV with the printed chart, and beside
    it with perfect play (the Game page's headline figure)."""
    return (
        '<p class="lead">Main wager EV, the printed chart <strong data-figure="chart-ev" '
        f'data-value="{float(chart_ev)!r}">{escape(show("chart_ev", chart_ev))}</strong> '
        '<small class="beside">perfect play <span data-figure="optimal-ev" '
        f'data-value="{float(optimal_ev)!r}">{escape(show("chart_ev", optimal_ev))}</span>'
        "</small></p>"
    )


def game_body(
    fields: str, figures: str, progress: Progress | None, back: str = "", summary: str = ""
) -> str:
    """The Game page: a summary of the headline figures that stays in view, then the rules
    form beside the figures (or the progress of their solve).

    The form posts (a solve is work: only a POST starts it); the page's address keeps the
    rules, and the script asks for the figures as the designer types.
    """
    busy = ' aria-busy="true"' if progress is not None else ""
    return (
        f'<div id="summary" class="summary" aria-live="polite">{summary or headline_html(None)}'
        "</div>"
        '<div class="columns"><form id="rules" class="rules" method="post" action="/">'
        f'{fields}<button type="submit">Show figures</button></form>'
        f'<section id="results" aria-live="polite">{progress_html(progress, back)}'
        f'<div id="figures"{busy}>{figures}</div></section></div>'
    )


def message(text: str) -> str:
    """A short paragraph of plain text."""
    return f"<p>{escape(text)}</p>"
