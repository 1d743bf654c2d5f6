"""The printable chart: exact EV by independent evaluation, optimality, formats, collection."""

from __future__ import annotations

import itertools
import json
from bisect import bisect_left
from collections.abc import Callable
from fractions import Fraction
from functools import cache, partial
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.api.functions import tables
from solver.exact.chart import _Column, _roots, best_column, stored_chart
from solver.exact.game import solutions_of, solve_game
from solver.exact.player import PlayerSolution, solve_player
from solver.exact.values import ExactValues
from solver.model.cards import RANKS, SUITS, VALUES, Shoe, parse_cards
from solver.model.cells import ROWS, Action, Cell, cell_of
from solver.model.hands import add_card, best_total_of, hand_of, hard_total, is_player_blackjack
from solver.model.rules import Rules
from solver.present import charts as charts_module
from solver.present.charts import COLOURS, display_rows, exception_cells, render
from solver.present.collection import VARIANTS, Variant
from solver.present.formats import TEXT_FORMATS, ChartFormat
from solver.present.style import one_in, significant_percent
from solver.results.charts import Chart
from solver.results.game import GameResult
from solver.store.memory import MemoryCache
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def game(games: MemoryCache) -> GameResult[Fraction]:
    return solve_game(Rules(), exact=True, cache=games)


@pytest.fixture(scope="module")
def chart(game: GameResult[Fraction], games: MemoryCache) -> Chart:
    return stored_chart(Rules(), game, games)


def hits_on_chart(chart: Chart, bonus: int, cell: Cell) -> bool:
    """The chart says hit in this cell against this Bonus card."""
    return chart.action(cell, bonus) is Action.HIT


Hand = tuple[int, ...]
_stands: dict[int, tuple[PlayerSolution, Callable[[Hand], Fraction]]] = {}


def stand_values(solution: PlayerSolution) -> Callable[[Hand], Fraction]:
    """Each hand's value standing, as the solver found it: looked up once per solution."""
    kept = _stands.get(id(solution))
    if kept is not None and kept[0] is solution:
        return kept[1]
    space = solution.space

    @cache
    def stand(hand: Hand) -> Fraction:
        return Fraction(solution.stand[space.index(hand)])

    _stands[id(solution)] = (solution, stand)
    return stand


def plain_value(
    solution: PlayerSolution, bonus: int, acts: Callable[[Cell], bool]
) -> dict[int, Fraction]:
    """Value of each starting card under a chart, by direct recursion in fractions."""
    shoe = solution.space.shoe
    stand = stand_values(solution)

    @cache
    def value(hand: Hand) -> Fraction:
        if not acts(cell_of(hand)):
            return stand(hand)
        # Each draw's value times its cards left, over all the cards left.
        total = Fraction(0)
        for v in range(1, 11):
            n = shoe[v - 1] - hand[v - 1]
            if n:
                child = add_card(hand, v)
                total += n * (-1 if hard_total(child) > 21 else value(child))
        return total / (sum(shoe) - sum(hand))

    return {
        p: value(hand_of([p]))
        for p in range(1, 11)
        if shoe[p - 1] and not is_player_blackjack(p, bonus)
    }


def test_chart_ev_equals_an_independent_policy_evaluation(
    game: GameResult[Fraction], chart: Chart
) -> None:
    total = Fraction(0)
    by_bonus: dict[int, dict[int, Fraction]] = {}  # every starting card's value at once
    for start in game.starts:
        if start.blackjack:
            total += Fraction(start.probability) * Fraction(3, 2)
            continue
        if start.bonus not in by_bonus:
            solution = solutions_of(game)[start.bonus]
            acts = partial(hits_on_chart, chart, start.bonus)
            by_bonus[start.bonus] = plain_value(solution, start.bonus, acts)
        total += Fraction(start.probability) * by_bonus[start.bonus][start.player]
    assert total == chart.expected_value
    assert chart.expected_value <= chart.optimal_expected_value == game.expected_value


# Per hand, hardest first: (its hard total, its position, its cell, its stand value scaled,
# the value of the cards that bust it, its other draws as (cards of the value left, the
# position of the hand with it)).
Row = tuple[int, int, Cell, int, int, list[tuple[int, int]]]
# The rows, the denominators by hand size, each hand's position and the hard totals negated.
Prepared = tuple[list[Row], list[int], dict[Hand, int], list[int]]
_prepared: dict[int, tuple[PlayerSolution, Prepared]] = {}


def _prepare(solution: PlayerSolution) -> Prepared:
    """What :func:`chart_root_value` needs of a solution whatever the chart: made once each."""
    kept = _prepared.get(id(solution))
    if kept is not None and kept[0] is solution:
        return kept[1]
    space = solution.space
    n0 = sum(space.shoe)
    hands = [tuple(h) for h in space.hands.tolist()]
    where = {hand: i for i, hand in enumerate(hands)}
    # Room for the player's cards and the dealer's (the dealer never holds 21 cards).
    depth = max(map(sum, hands)) + 21
    denominator = [1] * (depth + 2)
    for m in range(depth, -1, -1):
        denominator[m] = max(n0 - m, 1) * denominator[m + 1]
    # Each stand value as held, numerator over denominator: scaled by integer division
    # rather than as a Fraction (which reduces by a gcd of 200-bit integers each time).
    assert isinstance(solution.stand, ExactValues)
    (numerators,), denominators = solution.stand.raw()
    rows = []
    for hard, hand in sorted(((hard_total(h), h) for h in hands), reverse=True):
        i, m = where[hand], sum(hand)
        scaled, remainder = divmod(numerators[i] * denominator[m], denominators[i])
        assert remainder == 0, "stand values must fit the common denominator"
        left = [(v, space.shoe[v - 1] - hand[v - 1]) for v in range(1, 11)]
        bust = -denominator[m + 1] * sum(n for v, n in left if n and hard + v > 21)
        draws = [(n, where[add_card(hand, v)]) for v, n in left if n and hard + v <= 21]
        rows.append((hard, i, cell_of(hand), scaled, bust, draws))
    prepared = (rows, denominator, where, [-row[0] for row in rows])
    _prepared[id(solution)] = (solution, prepared)
    return prepared


def chart_hand_values(
    solution: PlayerSolution,
    hits: set[Cell],
    known: list[int] | None = None,
    above: int = 99,
) -> list[int]:
    """Every hand's value hitting in ``hits``, over the common denominator of its size.

    With ``known`` (the values under a chart that hits as ``hits`` does in every cell of a
    hard total above ``above``), the hands of a hard total above ``above`` keep their known
    values: a hand's value only depends on the hands it can draw to, which are harder.
    """
    rows, _, where, negated = _prepare(solution)
    if known is None:
        value, first = [0] * len(where), 0
    else:  # the rows go hardest first: skip those above ``above``
        value, first = list(known), bisect_left(negated, -above)
    for _, i, cell, stand, bust, draws in rows[first:]:
        if cell in hits:
            value[i] = bust + sum(count * value[child] for count, child in draws)
        else:
            value[i] = stand
    return value


def root_value(solution: PlayerSolution, bonus: int, value: list[int]) -> Fraction:
    """Starting hands' values (from :func:`chart_hand_values`) weighted by their cards."""
    space = solution.space
    _, denominator, where, _ = _prepare(solution)
    weighted = sum(
        space.shoe[p - 1] * value[where[hand_of([p])]]
        for p in range(1, 11)
        if space.shoe[p - 1] and not is_player_blackjack(p, bonus)
    )
    return Fraction(weighted, denominator[1])


def chart_root_value(solution: PlayerSolution, bonus: int, hits: set[Cell]) -> Fraction:
    """Starting hands' values weighted by their cards, hitting in ``hits`` (a second evaluator).

    Works in integers over a common denominator per hand size, like nothing else here.
    """
    return root_value(solution, bonus, chart_hand_values(solution, hits))


def test_no_single_cell_change_raises_the_ev(game: GameResult[Fraction], chart: Chart) -> None:
    for bonus, solution in solutions_of(game).items():
        hits = {cell for cell in ROWS if chart.action(cell, bonus) is Action.HIT}
        values = chart_hand_values(solution, hits)
        best = root_value(solution, bonus, values)
        # Changing one cell changes only the hands of its hard total and softer ones.
        hardest: dict[Cell, int] = {}
        for hard, _, cell, _, _, _ in _prepare(solution)[0]:
            hardest[cell] = max(hard, hardest.get(cell, hard))
        for cell in ROWS:
            if chart.action(cell, bonus) is not Action.NONE:
                changed = chart_hand_values(solution, hits ^ {cell}, values, hardest.get(cell, -1))
                assert root_value(solution, bonus, changed) <= best, (cell, bonus)


@pytest.mark.parametrize(
    ("shoe", "bonus"),
    [
        ((0, 2, 0, 1, 1, 2, 0, 0, 0, 4), 5),
        ((0, 2, 0, 1, 0, 1, 0, 1, 1, 5), 9),
        ((1, 0, 0, 0, 1, 0, 1, 0, 1, 4), 1),
    ],
)
def test_search_equals_trying_every_chart_on_tiny_shoes(shoe: tuple[int, ...], bonus: int) -> None:
    base = tuple(n - (v == bonus) for v, n in enumerate(shoe, start=1))
    roots = [hand_of([p]) for p in range(1, 11) if base[p - 1]]
    solution = solve_player(Rules(), bonus, base, roots, exact=True)
    cells = sorted({cell_of(tuple(int(x) for x in h)) for h in solution.space.hands})
    assert len(cells) <= 14

    def worth(hits: set[Cell]) -> Fraction:
        values = plain_value(solution, bonus, lambda c: c in hits)
        return sum((base[p - 1] * v for p, v in values.items()), Fraction(0))

    every = max(
        worth({c for c, h in zip(cells, choice, strict=True) if h})
        for choice in itertools.product((False, True), repeat=len(cells))
    )
    found = best_column(_Column.of(solution, bonus), _roots(solution, bonus))
    assert worth({c for c, a in found.items() if a is Action.HIT}) == every


def test_cells_follow_own_totals() -> None:
    assert cell_of(hand_of([1])) == (True, 11)
    assert cell_of(hand_of([1, 5, 10])) == (False, 16)
    assert cell_of(hand_of([2])) == (False, 2)


def test_lone_ace_against_a_ten_is_no_decision(chart: Chart) -> None:
    assert chart.action((True, 11), 10) is Action.NONE
    assert all(chart.action(cell, b) is not Action.NONE for cell in ROWS for b in range(1, 10))


def test_exceptions_are_real_departures(chart: Chart) -> None:
    assert chart.exceptions
    assert all(e.gain > 0 and 0 < e.frequency < 1 for e in chart.exceptions)
    assert sum(e.frequency * e.gain for e in chart.exceptions) >= chart.cost


def test_json_chart_document(chart: Chart) -> None:
    doc = json.loads(render(chart, ChartFormat.JSON))
    assert doc["columns"] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    assert [r["hand"] for r in doc["rows"]][:2] == ["hard 2", "hard 3"] and len(doc["rows"]) == 31
    assert Fraction(doc["expected_value"]["exact"]) == chart.expected_value
    assert doc["rules"] == Rules().to_json() and doc["exceptions"]


@pytest.fixture(scope="module")
def drawn(chart: Chart) -> Callable[[ChartFormat], bytes]:
    """The default chart in a format, rendered once per module (a drawn one takes seconds)
    for every test that reads it; a test of reproducibility renders it again."""
    return cache(partial(render, chart))


@pytest.mark.parametrize("fmt", [ChartFormat.SVG, ChartFormat.PNG])
def test_drawn_formats_are_reproducible(
    chart: Chart, drawn: Callable[[ChartFormat], bytes], fmt: ChartFormat
) -> None:
    """Drawn twice, the same bytes (the PDF's second drawing is the command's, below)."""
    first = drawn(fmt)
    assert first == render(chart, fmt)
    signature = {ChartFormat.SVG: b"<?xml", ChartFormat.PNG: b"\x89PNG"}[fmt]
    assert first.startswith(signature)


@pytest.mark.slow
def test_cbj_chart_to_a_pdf_name_draws_the_same_pdf_again(
    drawn: Callable[[ChartFormat], bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cbj chart -o x.pdf`` writes a PDF (named so, no other file, one line on stderr), and
    drawing the default chart a second time, through the command, gives the same bytes.

    One PDF drawing (1.3 to 1.6 s of CPU) serves both checks; the command reads the chart
    that the module's fixture left in the session's cache.
    """
    first = drawn(ChartFormat.PDF)
    assert first.startswith(b"%PDF")
    target = tmp_path / "x.pdf"
    status, out, err = run_cli(["chart", "-o", str(target)], capsys)
    assert status == 0 and out == ""
    assert err == f"cbj: wrote {target}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["x.pdf"]
    assert target.read_bytes() == first


#: The variants whose chart no other test searches: each takes seconds, so they are marked
#: slow and dealt out first (tests/conftest.py). Dealt with the rest of this file, they ran on
#: one worker while the end-to-end test below, on the other, searched both again (3.2 s).
SEARCHED_ONLY_HERE = {"decks-8", "blackjack-pays-6-5"}


@pytest.mark.parametrize(
    "variant",
    [
        pytest.param(v, marks=pytest.mark.slow) if v.folder in SEARCHED_ONLY_HERE else v
        for v in VARIANTS
    ],
    ids=lambda v: v.folder,
)
def test_each_variants_committed_text_charts_are_fresh(
    variant: Variant, games: MemoryCache
) -> None:
    """One variant's chart, solved and searched afresh, renders to its committed text files.

    A test per variant, so that the exact work behind the collection (about 2 s of CPU a
    variant) spreads over the xdist workers and lands in the session's cache, where the
    end-to-end test below reads it (the other tests that need these charts have searched
    the other five by then).
    """
    chart = stored_chart(variant.rules, solve_game(variant.rules, exact=True, cache=games), games)
    assert chart.rules == variant.rules
    for fmt in TEXT_FORMATS:
        committed = ROOT / "strategy_tables" / variant.folder / variant.file_name(fmt)
        assert committed.read_bytes() == render(chart, fmt), (
            f"{committed.relative_to(ROOT)} is stale: run cbj tables"
        )


def test_cbj_tables_writes_the_committed_collection(
    tmp_path: Path, games: MemoryCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One fresh generation: every file it reports is on disk, and the text formats are
    the committed ones byte for byte.

    Drawing is stood in for here: one variant's drawings are compared below, and the
    whole collection, drawn, in the soak run. The charts come from the session's cache
    when the tests per variant above ran first.
    """
    monkeypatch.setattr(charts_module, "to_image", lambda chart, fmt: fmt.value.encode())
    fresh = tmp_path / "collection"
    written = tables(fresh, cache=games)
    assert written.paths and all(p.is_file() for p in written.paths)
    assert {p for p in fresh.rglob("*") if p.is_file()} == set(written.paths)
    committed = ROOT / "strategy_tables"
    names = {p.relative_to(fresh) for p in written.paths}
    assert {p.relative_to(committed) for p in committed.rglob("*") if p.is_file()} == names
    drawn = {f".{fmt.value}" for fmt in ChartFormat if fmt not in TEXT_FORMATS}
    for name in names:
        if name.suffix not in drawn:
            assert (committed / name).read_bytes() == (fresh / name).read_bytes(), (
                f"strategy_tables/{name} is stale: run cbj tables"
            )
    assert [c.rules for c in written.charts] == [v.rules for v in VARIANTS]


#: The drawn formats: bytes that depend on the drawing libraries (matplotlib, its fonts'
#: subsetting, Pillow's PNG writer), so a fresh drawing equals the committed file only when
#: the committed files were drawn with the versions installed (issue 50).
DRAWN_FORMATS = tuple(fmt for fmt in ChartFormat if fmt not in TEXT_FORMATS)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", DRAWN_FORMATS, ids=lambda f: f.value)
def test_one_variants_drawn_charts_are_the_committed_ones(
    fmt: ChartFormat, games: MemoryCache
) -> None:
    """The default suite's sample of the collection's drawings (each drawn in about a
    second): the one-deck chart in each drawn format, byte for byte."""
    variant = next(v for v in VARIANTS if v.folder == "decks-1")
    chart = stored_chart(variant.rules, solve_game(variant.rules, exact=True, cache=games), games)
    committed = ROOT / "strategy_tables" / variant.folder / variant.file_name(fmt)
    assert committed.read_bytes() == render(chart, fmt), (
        f"{committed.relative_to(ROOT)} differs from a fresh drawing: run cbj tables"
    )


@pytest.mark.soak
def test_cbj_tables_in_a_fresh_folder_is_the_committed_collection_byte_for_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cbj tables`` itself, every file drawn, equals ``strategy_tables/`` file for file."""
    fresh = tmp_path / "strategy_tables"
    status, _, err = run_cli(["tables", "--output-dir", str(fresh)], capsys)
    assert status == 0, err
    committed = ROOT / "strategy_tables"
    files = sorted(p.relative_to(committed) for p in committed.rglob("*") if p.is_file())
    assert sorted(p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file()) == files
    stale = [str(n) for n in files if (committed / n).read_bytes() != (fresh / n).read_bytes()]
    assert not stale, f"stale in strategy_tables/ (run cbj tables): {', '.join(stale)}"


def stand_on(k: int, bonus: int) -> set[Cell]:
    """The cells a stand-on-k player hits: best total (maybe with the Bonus card) below k."""
    hits = set()
    for soft, total in ROWS:
        hard = total - 10 if soft else total
        best = best_total_of(hard, soft, bonus)
        if best < k:
            hits.add((soft, total))
    return hits


@settings(max_examples=6, deadline=None)
@given(
    st.lists(st.sampled_from([f"{r}{s}" for r in RANKS for s in SUITS]), max_size=8, unique=True),
    st.integers(1, 10),
)
def test_optimal_play_beats_every_fixed_policy(removed: list[str], bonus: int) -> None:
    shoe = Shoe.full(2).remove(parse_cards(removed)).value_counts()
    if shoe[bonus - 1] == 0:
        return
    base = tuple(n - (v == bonus) for v, n in enumerate(shoe, start=1))
    roots = [hand_of([p]) for p in range(1, 11) if base[p - 1]]
    solution = solve_player(Rules(decks=2), bonus, base, roots, exact=True)
    starts = [p for p in range(1, 11) if base[p - 1] and not is_player_blackjack(p, bonus)]
    optimal = sum(base[p - 1] * solution.value(hand_of([p])) for p in starts)
    always_stand = chart_root_value(solution, bonus, set())
    assert always_stand == sum(
        base[p - 1] * solution.stand[solution.space.index(hand_of([p]))] for p in starts
    )
    assert optimal >= always_stand
    for k in range(12, 22):
        assert optimal >= chart_root_value(solution, bonus, stand_on(k, bonus))


# --- Rendering: palette, exceptions, title -------------------------------------------------


def test_hit_and_stand_stay_apart_under_colour_vision_deficiency() -> None:
    from tests.colour_vision import (
        DEUTERANOPIA,
        PROTANOPIA,
        TRITANOPIA,
        contrast_ratio,
        delta_e,
        lightness_difference,
        linear_of,
        simulate,
    )

    hit, stand = COLOURS[Action.HIT], COLOURS[Action.STAND]
    for matrix in (DEUTERANOPIA, PROTANOPIA, TRITANOPIA):
        # CIE76 difference of 40 is far beyond "just noticeable" (about 2.3).
        assert delta_e(simulate(hit, matrix), simulate(stand, matrix)) > 40
    assert lightness_difference(linear_of(hit), linear_of(stand)) > 15  # apart in greyscale
    black = (0.0, 0.0, 0.0)
    for colour in COLOURS.values():  # the letters stay readable: WCAG AAA for normal text
        assert contrast_ratio(linear_of(colour), black) >= 7


def test_the_old_red_green_palette_fails_the_same_check() -> None:
    from tests.colour_vision import DEUTERANOPIA, delta_e, simulate

    # The check can fail: the palette before issue 12 was practically one colour.
    assert delta_e(simulate("#f4a6a6", DEUTERANOPIA), simulate("#a8d5a2", DEUTERANOPIA)) < 10


def test_every_format_lists_the_exceptions_and_marks_their_cells(
    chart: Chart, drawn: Callable[[ChartFormat], bytes]
) -> None:
    cells = exception_cells(chart)
    assert cells and sum(len(x.hands) for x in cells) == len(chart.exceptions)
    gains = [x.gain_per_round for x in cells]
    assert gains == sorted(gains, reverse=True)  # the stated sort key
    first = cells[0]
    svg = drawn(ChartFormat.SVG).decode()
    pdf_text = "\n".join(_pdf_pages(drawn(ChartFormat.PDF)))
    for text in (
        render(chart, ChartFormat.MD).decode(),
        render(chart, ChartFormat.HTML).decode(),
        render(chart, ChartFormat.CSV).decode(),
        svg,
        pdf_text,
    ):
        flat = " ".join(text.split())
        assert first.label in flat and one_in(first.frequency) in flat
        assert significant_percent(first.gain_per_round) in flat
        assert "sorted by gain per round" in flat
    html_page = render(chart, ChartFormat.HTML).decode()
    assert f'<a href="#x{first.number}"' in html_page and f'id="x{first.number}"' in html_page


@cache
def _pdf_pages(data: bytes) -> tuple[str, ...]:
    """Each page's text as pypdf extracts it (once per PDF: two tests read the drawn one)."""
    import io

    from pypdf import PdfReader

    return tuple(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_drawn_chart_is_one_page_with_selectable_text(
    drawn: Callable[[ChartFormat], bytes],
) -> None:
    pages = _pdf_pages(drawn(ChartFormat.PDF))
    assert len(pages) == 1
    assert "hard 16" in pages[0]
    svg = drawn(ChartFormat.SVG).decode()
    assert ">hard 16<" in svg  # text kept as text, not drawn as paths


def test_uniform_rows_collapse_and_blocks_separate(chart: Chart) -> None:
    rows = display_rows(chart)
    assert any(r.collapsed for r in rows)
    assert not any(r.collapsed and any(r.marks) for r in rows)
    # Every chart row is drawn exactly once, in a block of its own kind.
    drawn = 0
    for row in rows:
        if row.collapsed:
            kind, span = row.label.split(" ")
            low, high = (int(t) for t in span.split("\u2013"))
            assert kind == ("soft" if row.soft else "hard") and high > low
            assert {
                chart.action((row.soft, t), b) for t in range(low, high + 1) for b in VALUES
            } == {row.actions[0]}
            drawn += high - low + 1
        else:
            drawn += 1
    assert drawn == len(ROWS)
    assert [r.soft for r in rows] == sorted(r.soft for r in rows)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.folder)
def test_titles_name_every_rule_that_differs(variant: Variant) -> None:
    from solver.present.charts import title

    text = title(Chart(variant.rules, {}, Fraction(0), Fraction(0), ()))
    if variant.rules == Rules():
        assert text.endswith("default rules")
    else:
        assert "default rules" not in text
    if variant.rules.decks != Rules().decks:
        assert f"{variant.rules.decks} deck" in text
    assert "1 decks" not in text and "_" not in text
