"""Results as DataFrames and as HTML: ``to_frame()`` says what the JSON says, cell for cell.

Every table-like result is built here, small, and each of its tables is compared with its
JSON document by a walk of the JSON written apart from :func:`solver.results.frames.flatten`:
every float column equals the JSON's floats, every ``.exact`` column the JSON's exact
strings, every other column the JSON's values, and no field is left out.  Its
``_repr_html_`` (what Jupyter shows) is parsed as HTML.
"""

from __future__ import annotations

import html
import math
import sys
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pandas
import pytest

import solver
from solver.model.counts import LABELS
from solver.model.paytable import RANK_WORDS
from solver.model.rules import Rules
from solver.results import frames
from solver.results.figures import FIGURES_BY_KEY, heading
from solver.results.frames import TABLES, Labelled, Named, Records, Shown, Tabular
from solver.store.memory import MemoryCache
from solver.studies.sweep import solve_sweep
from tests.test_chart_file import csv_of, flipped

Make = Callable[[MemoryCache, Path], Any]


def _chart_check(store: MemoryCache, folder: Path) -> Any:
    path = folder / "mine.csv"
    path.write_text(csv_of(flipped(solver.chart(cache=store), ((False, 16), 10))))
    return solver.chart_check(file=path, cache=store)


#: One result of each table-like type (two where a float and an exact one differ), small.
CASES: dict[str, Make] = {
    "game-exact": lambda store, _: solver.solve(exact=True, cache=store),
    "game-float": lambda store, _: solver.solve(decks=1, cache=store),
    "game-removed": lambda store, _: solver.solve(decks=1, removed="A 5", cache=store),
    "bonus": lambda store, _: solver.bonus(removed="As"),
    "bonus-analysis": lambda store, _: solver.solve(exact=True, cache=store).bonus,
    "dealer": lambda store, _: solver.dealer(bonus=7),
    "graph": lambda store, _: solver.graph(bonus="7", hand="9"),
    "chart": lambda store, _: solver.chart(cache=store),
    "chart-costs": lambda store, _: solver.chart_costs(cache=store),
    "chart-check": _chart_check,
    "strategies": lambda store, _: solver.strategies(names="optimal,never-bust", cache=store),
    "paytable-solve": lambda store, _: solver.paytable_solve(
        solve_for="adjacent", target_bonus_edge="5%", cache=store
    ),
    "paytable-search": lambda store, _: solver.paytable_search(top=3, cache=store),
    "variants": lambda store, _: solver.variants(decks="1,2", cache=store),
    "eor": lambda store, _: solver.eor(decks=1, cache=store),
    "count": lambda store, _: solver.count(decks=1, cache=store),
    "shoe-states": lambda store, _: solver.shoe_states(
        samples=2, depths="0.25,0.5", seed=1, decks=1, cache=store
    ),
    "session": lambda store, _: solver.session(rounds=50, bankroll=20, cache=store),
    "simulate": lambda store, _: solver.simulate(
        rounds=4_000, seed=7, counter="hi-lo", spread="1-4", cache=store
    ),
    "seats": lambda store, _: solver.seats(seats="1,3", rounds=2_000, seed=3, cache=store),
    "indices": lambda store, _: solver.indices(samples=4, decks=1, cache=store),
    "bet": lambda store, _: solver.bet(samples=4, decks=1, cache=store),
    "attack": lambda store, _: solver.attack(
        samples=4, paths=1, rounds=2_000, decks=1, cache=store
    ),
    "hold": lambda store, _: solver.hold(rounds=50, hold="12%", drop="400", cache=store),
    "sweep": lambda store, _: solve_sweep(Rules(), "decks", 1, 3, exact=True, cache=store),
    "hold-series": lambda store, _: solver.hold_series(
        text="date,rounds,win,drop\n2026-01-01,40,5,300\n2026-01-02,50,-3,300\n", cache=store
    ),
}
#: The cases that take seconds: dealt out first.
SLOW = {
    *("chart", "chart-costs", "chart-check", "strategies", "eor", "count", "shoe-states"),
    *("indices", "bet", "attack"),
}

#: Results with a JSON document but no table in it, and why.
NOT_TABLES = {
    "Advice": "two values and a decision",
    "CacheCleared": "a count of entries removed",
    "CacheInfo": "the cache's place and size",
    "Grade": "one decision of a practice session, graded",
    "PracticeTurn": "one play of a practice session: a grade, a round, the state",
    "CountSearch": "one count's tags and its correlation",
    "Rules": "one set of rules",
    "RulesResult": "one set of rules (cbj rules' table is the rule table, docs/rules.md)",
    "Score": "a practice session's running score",
    "Settlement": "one round of a practice session, played out",
}


@pytest.fixture(scope="module", params=[pytest.param(c, marks=_m) for c, _m in [
    (c, [pytest.mark.slow] if c in SLOW else []) for c in CASES
]])  # fmt: skip
def result(request: pytest.FixtureRequest, games: MemoryCache, tmp_path_factory: Any) -> Any:
    return CASES[request.param](games, tmp_path_factory.mktemp("frames"))


def json_rows(document: Mapping[str, Any], table: frames.Table) -> list[dict[str, Any]]:
    """The JSON objects a table's rows come from, each with its label where it has one."""

    def at(path: str) -> Any:
        value: Any = document
        for part in path.split("."):
            value = None if value is None else value[part]
        return value

    if isinstance(table, Records):
        return list(at(table.path) or [])
    if isinstance(table, Named):
        return [{table.index: p.split(".")[-1], **at(p)} for p in table.paths if at(p) is not None]
    names = table.names or tuple(p.split(".")[-1] for p in table.paths)
    first = at(table.paths[0]) or {}
    return [
        {table.index: label, **{n: at(p)[label] for n, p in zip(names, table.paths, strict=True)}}
        for label in first
    ]


def leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every field of a JSON object by its dotted path; a number (exact and float) is one field."""
    if isinstance(value, dict) and not ("float" in value and set(value) <= {"exact", "float"}):
        for key, inner in value.items():
            yield from leaves(inner, f"{path}.{key}" if path else key)
    else:
        yield path, value


def exact_text(value: Fraction) -> str:
    """A fraction as the JSON writes it: ``p/q``, or ``n`` when whole."""
    return (
        f"{value.numerator}" if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def same(cell: Any, value: Any) -> bool:
    """Whether a frame's cell holds a JSON value (a list as a tuple, null as None or NaN)."""
    if isinstance(value, list):
        return bool(tuple(value) == cell)
    if value is None:
        return cell is None or (isinstance(cell, float) and math.isnan(cell))
    return bool(cell == value)


def test_every_table_is_its_json_cell_for_cell(result: Any) -> None:
    document = result.to_json()
    assert issubclass(type(result), Tabular)
    for name, table in TABLES[type(result).__name__].items():
        frame = result.to_frame(name).reset_index()
        expected = json_rows(document, table)
        assert len(frame) == len(expected), name
        seen: set[str] = set()
        for i, record in enumerate(expected):
            for path, value in leaves(record):
                if isinstance(value, dict):  # a number: its float, and its exact value if given
                    cell = frame.at[i, path]
                    assert same(cell, value["float"]), (name, i, path, cell, value)
                    assert isinstance(cell, float), (name, path)
                    if "exact" in value:
                        exact = frame.at[i, f"{path}.exact"]
                        assert isinstance(exact, Fraction) and exact_text(exact) == value["exact"]
                        seen.add(f"{path}.exact")
                else:
                    assert same(frame.at[i, path], value), (name, i, path, value)
                seen.add(path)
        assert set(frame.columns) == seen or not expected, name


def test_every_frame_is_indexed_by_the_fields_that_tell_its_rows_apart(result: Any) -> None:
    document = result.to_json()
    for name, table in TABLES[type(result).__name__].items():
        frame = result.to_frame(name)
        keys = table.keys() if isinstance(table, Records) else (table.index,)
        names = list(frame.index.names)
        if not any(key.endswith(".*") for key in keys):
            assert names == list(keys), (name, names)
        else:  # the rules a variant changes
            assert names and all(n.startswith("rules.") for n in names), names
        if len(frame) > 0:
            assert frame.index.is_unique, (name, frame.index[frame.index.duplicated()][:3])
            assert len(frame) == len(json_rows(document, table))


def test_card_columns_are_ordered_categoricals_in_card_order(games: MemoryCache) -> None:
    starts = solver.solve(decks=1, cache=games).to_frame().reset_index()
    assert starts["player"].dtype == "category" and starts["player"].cat.ordered
    assert list(starts["bonus"].cat.categories) == ["A", *map(str, range(2, 11))]
    assert starts.sort_values("bonus")["bonus"].iloc[-1] == "10"  # not between "1" and "2"
    ranks = solver.eor(decks=1, cache=games).to_frame().sort_index().index
    assert list(ranks) == ["A", *map(str, range(2, 10)), "T", "J", "Q", "K"]


def test_a_repr_is_a_short_summary_with_the_kind_the_rules_and_the_headlines(
    result: Any,
) -> None:
    shown = repr(result)
    kind = type(result).__name__
    assert len(shown) < 600, (kind, len(shown))
    lines = shown.splitlines()
    assert lines[0].split()[0] == kind
    named = set(result.to_json()["rules"])
    assert lines[1] == "  rules: " + result.rules.summary(omit=set(result.rules.to_json()) - named)
    document = result.to_json()
    for name, path in frames.HEADLINES[kind]:  # each figure the document has, by its label
        label = heading(name) if name in FIGURES_BY_KEY else name
        wanted = frames.at(document, path) is not None
        assert any(line.startswith(f"  {label}: ") for line in lines) == wanted, (kind, label)
    sizes = [f"{n} ({len(json_rows(document, table))})" for n, table in TABLES[kind].items()]
    assert lines[-1] == f"  tables: {', '.join(sizes)}; to_frame(name) gives each"


def test_the_game_repr_names_its_headline_figures_to_their_printed_places(
    games: MemoryCache,
) -> None:
    game = solver.solve(exact=True, cache=games)
    lines = repr(game).splitlines()
    assert lines[0] == "GameResult (exact)"
    assert f"  main wager EV: {float(game.expected_value):.6f}" in lines
    assert f"  round house edge: {float(game.round_house_edge):.4%}" in lines
    assert len(repr(solver.solve())) < 600


def test_a_long_rules_line_is_cut_in_a_repr_and_whole_in_the_result() -> None:
    tiers = ",".join(f"suited-{rank}-match={n + 2}" for n, rank in enumerate(RANK_WORDS))
    bonus = solver.bonus(paytable=tiers + ",rank-match=1")
    rules_line = repr(bonus).splitlines()[1]
    assert len(rules_line) == len("  rules: ") + frames.RULES_LINE and rules_line.endswith("\u2026")
    assert len(repr(bonus)) < 600 and len(bonus.rules.summary()) > frames.RULES_LINE


def test_every_public_result_has_a_short_repr(games: MemoryCache, tmp_path: Path) -> None:
    """The results with no table too: a few lines, or a dataclass that pastes back."""
    start = solver.practice_start(seed=1, cache=games)
    turn = solver.practice_play(start.state, "hit", cache=games)
    assert turn.grade is not None
    made = {
        "Advice": solver.advise(bonus="10", hand="9 7"),
        "CacheCleared": solver.cache_clear(tmp_path / "cache"),
        "CacheInfo": solver.cache_info(tmp_path / "cache"),
        "Grade": turn.grade,
        "PracticeTurn": turn,
        "RulesResult": solver.rules(preset="vegas-21"),
        "Score": turn.state.score,
        "CountSearch": solver.CountSearch(1, "round", dict.fromkeys(LABELS, 0), 0.5, 6561, 90),
    }
    for name, value in made.items():
        assert type(value).__name__ == name
        assert len(repr(value)) < 600, (name, len(repr(value)))
    assert set(NOT_TABLES) - {"Rules", "Settlement"} <= set(made)


def test_the_first_table_is_the_default_and_to_frames_has_them_all(result: Any) -> None:
    names = list(TABLES[type(result).__name__])
    assert result.to_frame().equals(result.to_frame(names[0]))
    every = result.to_frames()
    assert list(every) == names
    for name, frame in every.items():
        assert frame.equals(result.to_frame(name))


class Page(HTMLParser):
    """An HTML fragment's open tags (which must all close), captions and text."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.captions: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open.pop() == tag, f"</{tag}> closes nothing"

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] == "caption":
            self.captions.append(data)
        self.text.append(data)


def test_jupyter_shows_the_rules_figures_and_tables(result: Any) -> None:
    page = Page()
    page.feed(result._repr_html_())
    page.close()
    assert page.open == []
    text = "".join(page.text)
    named = set(result.to_json()["rules"])
    assert result.rules.summary(omit=set(result.rules.to_json()) - named) in text
    assert ("Bonus pays" in text) == ("paytable" in named)
    shown = [caption.split(":")[0] for caption in page.captions]
    tables = TABLES[type(result).__name__]
    # The single figures first (a dealer's or a variants' document has none), then each
    # table that has rows.
    expected = [n for n, t in tables.items() if json_rows(result.to_json(), t)]
    assert shown in (expected, ["figures", *expected])
    first = result.to_frame().reset_index()
    if len(first) > frames.HTML_ROWS:
        assert f"the first {frames.HTML_ROWS} shown" in "".join(page.captions)


def test_a_number_shows_its_float_with_its_exact_value_as_a_tooltip(
    games: MemoryCache,
) -> None:
    game = solver.solve(exact=True, cache=games)
    page = html.unescape(game._repr_html_())
    edge = game.round_house_edge
    assert f'title="exact: {edge}" style="text-align:right">{float(edge):.6g}<' in page
    assert "by_start: 100 rows, the first 12 shown (to_frame('by_start') has them all)" in page


def test_advice_is_shown_without_a_table() -> None:
    advice = solver.advise(bonus="10", hand="9 7")
    assert isinstance(advice, Shown) and not isinstance(advice, Tabular)
    page = Page()
    page.feed(advice._repr_html_())
    assert page.captions == ["figures: 5 rows"]  # the seen cards, none, are left out
    assert "decisionhit" in "".join(page.text).replace(" ", "")


def public_results() -> dict[str, type]:
    """The public types of :mod:`solver` that are a command's result (they have ``to_json``),
    by their own names (``HoldResult`` is ``HoldCheck`` by the command's name)."""
    found = {}
    for name in solver.__all__:
        value = getattr(solver, name)
        if isinstance(value, type) and callable(getattr(value, "to_json", None)):
            found[value.__name__] = value
    return found


def test_every_result_with_a_table_has_to_frame() -> None:
    results = public_results()
    tabular = {name for name, kind in results.items() if issubclass(kind, Tabular)}
    assert set(results) - tabular == set(NOT_TABLES)
    assert all(issubclass(results[name], Shown) for name in tabular)


def test_every_table_names_a_tabular_result_and_every_case_is_tested() -> None:
    classes = {kind.__name__: kind for kind in public_results().values()}
    assert all(issubclass(classes[name], Tabular) for name in TABLES)
    assert {name for name, kind in classes.items() if issubclass(kind, Tabular)} == set(TABLES)


def test_an_unknown_table_is_named_with_those_there_are() -> None:
    bonus = solver.bonus()
    with pytest.raises(solver.CbjError, match=r"BonusResult has no table 'lines': it has outcomes"):
        bonus.to_frame("lines")


def test_without_pandas_the_error_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"pip install pandas \(.*pip install '\.\[frames\]'"):
        solver.bonus().to_frame()


def test_a_frame_keeps_exact_fractions_and_floats_as_numbers() -> None:
    frame = solver.bonus().to_frame()
    assert frame.index.name == "outcome" and list(frame.index)[-1] == "loss"
    assert frame["probability"].dtype == "float64"
    assert frame["probability.exact"].sum() == 1  # exact: the probabilities sum to one
    assert frame["return.exact"].sum() == solver.bonus().expected_value


def test_a_labelled_table_puts_each_mapping_in_a_column(games: MemoryCache) -> None:
    eor = solver.eor(decks=1, cache=games)
    frame = eor.to_frame()
    assert list(frame.index) == list(eor.effects["main"])
    assert list(frame.columns) == ["main", "main_chart", "bonus", "round"]
    assert frame.loc["A", "main"] == eor.effects["main"]["A"]


def test_an_absent_table_is_an_empty_frame(games: MemoryCache) -> None:
    run = solver.simulate(rounds=1_000, seed=2, cache=games)  # no counter at seat 1
    assert run.to_frame("by_true_count").empty
    assert isinstance(run.to_frame("wagers"), pandas.DataFrame)
    assert list(run.to_frame("wagers").index) == ["main", "bonus", "round"]


def test_labelled_columns_default_to_the_paths_last_part() -> None:
    assert Labelled(("a.b", "c"), "x").columns() == ("b", "c")
    assert Labelled(("a.b",), "x", names=("y",)).columns() == ("y",)
