"""The workbench's pages (``cbj serve``) as HTML: results and form states in, text out.

Pure like the rest of :mod:`solver.present`: every figure comes in a result (a solved
game, a paytable solution or search, a chart), every field from the rule table, and
every page drawn by the templates of ``templates/workbench/``, which escape every text.
The pages load one style sheet and one script, both served by the app (no inline
script: the app's Content-Security-Policy forbids it); without the script the forms
still work, and a page still being computed refreshes itself.

>>> "Game" in page("Game", "/", Markup(), {})
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from solver.model.outcomes import MAIN_OUTCOMES
from solver.model.rule_table import RULE_TABLE
from solver.present.game import pays_text, session_places
from solver.present.long_numbers import exact_html
from solver.present.style import show, show_range, thousands
from solver.present.templates import Markup, macro, render
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
#: The template of the workbench's small pieces (its macros).
PARTS = "workbench/parts.html"


def link(path: str, query: Mapping[str, str]) -> str:
    """A path with its query string (fields left blank are left out).

    >>> link("/chart", {"decks": "2", "paytable": ""})
    '/chart?decks=2'
    """
    given = {k: v for k, v in query.items() if v}
    return path + ("?" + urlencode(given) if given else "")


def _links(here: str, query: Mapping[str, str]) -> list[dict[str, object]]:
    """The navigation's links, each keeping the rules, the page's own marked current."""
    return [
        {"href": link(path, query), "name": name, "current": path == here} for path, name in PAGES
    ]


def site_header(here: str, query: Mapping[str, str], extra: Markup | None = None) -> Markup:
    """The navigation bar every page has (each link keeps the rules), and ``extra`` after it
    (the Chart page's downloads); styled by ``/static/site.css`` alone."""
    return macro(PARTS, "site_header", _links(here, query), extra or Markup())


def page(
    title: str, here: str, body: Markup, query: Mapping[str, str], busy: bool = False
) -> Markup:
    """A whole page: the navigation (each link keeps the rules), then ``body``.

    ``busy`` pages refresh themselves every second when the script does not run.
    """
    links = _links(here, query)
    scripts = ["/static/practice.js"] if here == "/practice" else []
    return render(
        "workbench/page.html",
        title=title,
        here=here,
        body=body,
        links=links,
        game=GAME,
        scripts=scripts,
        busy=busy,
    )


# Figures.


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure as a page shows it: its text, its float (and fraction, and a range's top)
    for the data attributes scripts and tests read, its fraction written out if shown."""

    name: str
    value: str
    text: str
    exact: str = ""
    high: str = ""
    fraction: Markup | None = None


#: A table's cell: a figure, or text (HTML when Markup).
Cell = str | Figure


def _figure(name: str, value: Fraction | float, text: str, exact: bool) -> Figure:
    """A figure of a table: its text, with its float (and fraction) for data attributes."""
    if not isinstance(value, Fraction):
        return Figure(name, repr(float(value)), text)
    return Figure(
        name,
        repr(float(value)),
        text,
        f"{value.numerator}/{value.denominator}",
        fraction=exact_html(value) if exact else None,
    )


def html_table(
    caption: str,
    headers: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    kind: str = "",
) -> Markup:
    """A table whose caption stands above its box, the box scrolling sideways on its own
    when the table is wider than the page (a labelled region, with a cue the script shows
    when it does).  Caption and headers are text; each cell a :class:`Figure`, text
    (escaped) or Markup (inserted as it is)."""
    return macro(PARTS, "table", caption, headers, rows, kind)


@dataclass(frozen=True, slots=True)
class _Table:
    """A table of the Game page, for its template."""

    caption: str
    headers: Sequence[str]
    rows: Sequence[Sequence[Cell]]
    kind: str = ""


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


def _wagers(game: GameResult[Any], outcomes: dict[str, Any]) -> _Table:
    values = _wager_values(game, outcomes)
    rows: list[list[Cell]] = []
    for column, name in enumerate(("Main wager", "Bonus wager", "Whole round")):
        keys = [row[column] for row in WAGER_FIGURES]
        if keys[0] not in values:
            continue
        figures = (
            _figure(key.replace("_", "-"), values[key][0], values[key][1], game.exact)
            for key in keys
        )
        rows.append([name, *figures])
    ratio = game.rules.bonus_ratio
    return _Table(
        "Each wager per unit staked on it; the whole round per main unit (1 on the main wager, "
        f"{ratio} on the Bonus), its house edge and RTP per unit of the {1 + ratio} wagered",
        ("wager", *(quantity_heading(row[0]) for row in WAGER_FIGURES)),
        rows,
        "figures",
    )


def _outcomes(game: GameResult[Any], outcomes: dict[str, Any]) -> _Table:
    rows: list[list[Cell]] = [
        [
            outcome_words(k),
            _figure(
                "main-probability", outcomes[k], show("main_probability", outcomes[k]), game.exact
            ),
            _figure("odds", outcomes[k], show("odds", outcomes[k]), False),
        ]
        for k in MAIN_OUTCOMES
    ]
    return _Table("Main wager: chance of each outcome", ("outcome", "probability", "odds"), rows)


def _bonus_table(game: GameResult[Any]) -> list[_Table]:
    if game.bonus is None:
        return []
    rows: list[list[Cell]] = [
        [
            outcome_words(line.outcome),
            pays_text(line.pays),
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
    table = _Table(
        "Bonus wager: return table, per unit staked on the Bonus",
        ("outcome", "pays", "probability", "odds", "return"),
        rows,
    )
    return [table]


def _range_figure(name: str, bounds: tuple[float, float], places: int) -> Figure:
    """A session range as text, its ends in data attributes."""
    low, high = bounds
    text = show_range(name.replace("-", "_"), low, high, places)
    return Figure(name, repr(low), text, high=repr(high))


#: The volatility table's figures, in its columns' order.
SESSION_KEYS = ("session_mean", "session_range90", "session_range95", "session_ahead")


def _volatility(volatility: Volatility | None, places: int) -> list[_Table]:
    if volatility is None:
        return []
    rows: list[list[Cell]] = [
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
    return [_Table(caption, ("rounds", *(heading(k) for k in SESSION_KEYS)), rows)]


def _who_holds(game: GameResult[Any]) -> tuple[str, str]:
    """Who holds the main wager's edge (a clause), and the whole round's (blank without a
    Bonus wager)."""
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
        return main, ""
    edge = game.round_house_edge
    return main, "the house" if edge > 0 else "the player" if edge < 0 else "neither side"


def game_figures(game: GameResult[Any]) -> Markup:
    """Every figure of a solved game: each wager's edge, results, Bonus returns, volatility."""
    outcomes = game.outcomes
    main, side = _who_holds(game)
    tables = [
        _wagers(game, outcomes),
        _outcomes(game, outcomes),
        *_bonus_table(game),
        *_volatility(game.volatility, session_places(game.rules)),
    ]
    return render(
        "workbench/game.html",
        rules=rules_sentence(game.rules).rstrip("."),
        arithmetic="exact fractions" if game.exact else "floating point",
        main=main,
        side=side,
        tables=tables,
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


def progress_html(progress: Progress | None, back: str = "") -> Markup:
    """A progress bar (indeterminate when the work cannot count its steps); hidden if None.

    A job that can be stopped gets a Stop button, which comes back to ``back`` (a path).

    >>> "2nd in its queue" in progress_html(Progress("drawing", position=2))
    True
    """
    if progress is None:
        return macro(PARTS, "progress", None)
    share = f", {100 * progress.done // progress.total}%" if progress.total else ""
    steps = f" ({progress.done} of {progress.total}{share})" if progress.total else ""
    words = f"{progress.label}{steps}, {progress.seconds:.0f} s"
    if progress.position:
        words = f"{progress.label}: waiting, {_ordinal(progress.position)} in its queue"
    return macro(PARTS, "progress", progress, words, back)


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ..., ``11th``, ``21st``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def idle_html(what: str, start: bool = False) -> Markup:
    """The place of results not asked for yet: a line saying which button computes them.

    ``start``: the page's script starts the work at once (a POST of the page's address).
    """
    return macro(PARTS, "idle", what, start)


def _shown(key: str, value: Fraction | None) -> dict[str, str]:
    """A headline figure: its text (a dash when there is none yet) and its float."""
    if value is None:
        return {"text": "\u2014", "value": ""}
    return {"text": show(key, value), "value": repr(float(value))}


def headline_html(game: GameResult[Any] | None, chart_ev: Fraction | None = None) -> Markup:
    """The Game page's headline figures, the main wager's EV with perfect play (the
    composition-dependent optimum) and the round's house edge, for the summary that stays in
    view as the rules are changed (dashes before a solve); beside the EV, the printed
    chart's (``chart_ev``) once the chart has been searched (the Chart page leads with it)."""
    ev = None if game is None else game.expected_value
    edge = None if game is None or game.bonus is None else game.round_house_edge
    chart = None if chart_ev is None or game is None else _shown("main_ev", chart_ev)
    main = _shown("main_ev", ev)
    return macro(PARTS, "headline", main, _shown("round_house_edge", edge), chart)


def chart_lead(chart_ev: Fraction, optimal_ev: Fraction) -> Markup:
    """The Chart page's first line: the main wager's EV with the printed chart, and beside
    it with perfect play (the Game page's headline figure)."""
    return macro(PARTS, "chart_lead", _shown("chart_ev", chart_ev), _shown("chart_ev", optimal_ev))


def game_body(
    fields: Markup,
    figures: Markup,
    progress: Progress | None,
    back: str = "",
    summary: Markup | None = None,
) -> Markup:
    """The Game page: a summary of the headline figures that stays in view, then the rules
    form beside the figures (or the progress of their solve).

    The form posts (a solve is work: only a POST starts it); the page's address keeps the
    rules, and the script asks for the figures as the designer types.
    """
    return render(
        "workbench/game_body.html",
        summary=summary or headline_html(None),
        fields=fields,
        progress=progress_html(progress, back),
        busy=progress is not None,
        figures=figures,
    )


def message(text: str) -> Markup:
    """A short paragraph of plain text."""
    return macro(PARTS, "message", text)
