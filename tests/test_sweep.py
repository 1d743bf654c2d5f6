"""The edge against one parameter (``cbj sweep``, issue 47): each point is ``cbj solve`` at that
value, the game in force is marked, bad input is refused before any solve, and the table
and plot say what the points hold; the command prints the table and writes the plot only
where ``--plot`` asks, and its figures are ``cbj solve``'s (both run as a user runs them).
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import canonicalize

import pytest

import solver
from solver.model.errors import CbjError, DesignError, RulesError
from solver.model.paytable import Paytable
from solver.model.rules import Rules
from solver.present.formats import Format
from solver.present.style import plain
from solver.present.sweep import draw, render_page, sweep_table
from solver.results.figures import heading
from solver.results.sweep import MAX_POINTS, SweepResult, sweep_values, variables, varied
from solver.store.memory import MemoryCache
from solver.studies.sweep import solve_sweep
from tests.conftest import run_cli

#: The module's own store: its games are no other module's, and need no disk.
MEMORY = MemoryCache()


@pytest.fixture(scope="module")
def pays() -> SweepResult:
    """The issue's sweep, the suited match's pay from 10 to 30, by fives, exactly."""
    return solve_sweep(Rules(), "suited-match", "10", "30", "5", exact=True, cache=MEMORY)


@pytest.fixture(scope="module")
def stands() -> SweepResult:
    """The dealer's stand number from 16 to 20 under a one-deck game, by the float solver."""
    return solve_sweep(Rules(decks=1), "dealer_stands_on", 16, 20, cache=MEMORY)


def _solved(document: dict[str, Any]) -> dict[str, Any]:
    """The figures ``cbj solve --format json`` prints, by the sweep's keys."""
    return {
        "main_house_edge": document["main"]["house_edge"],
        "bonus_house_edge": document["bonus"]["house_edge"],
        "round_house_edge": document["round"]["house_edge"],
        "round_sd": document["round"]["round_sd"],
    }


@pytest.mark.parametrize("at", [0, 2, -1])
def test_each_point_is_a_plain_solve_at_its_value(
    pays: SweepResult, stands: SweepResult, at: int
) -> None:
    for result in (pays, stands):
        point = result.points[at].to_json()
        value = result.points[at].value
        solved: Any
        if result is pays:
            paytable = Paytable([value, 4, 1])
            solved = solver.solve(paytable=paytable, exact=True, cache=MEMORY)
        else:
            solved = solver.solve(decks=1, dealer_stands_on=int(value), cache=MEMORY)
        expected = _solved(json.loads(json.dumps(solved.to_json())))
        assert {k: point[k] for k in expected} == expected, (result.varied.name, value)


def test_the_values_run_from_start_to_stop_with_the_game_in_force_marked(
    pays: SweepResult, stands: SweepResult
) -> None:
    assert [p.value for p in pays.points] == [10, 15, 20, 25, 30]
    by_default = sweep_values(varied("suited-match", Rules()), Rules(), 10, 30)
    assert list(by_default) == sorted({*range(10, 31, 2), 15})  # a tenth of the range
    assert [p.value for p in stands.points] == [16, 17, 18, 19, 20]
    for result, in_force in ((pays, 15), (stands, 18)):
        marked = [p for p in result.points if p.in_force]
        assert len(marked) == 1 and marked[0].value == in_force == result.marked.value  # type: ignore[union-attr]
    document = pays.to_json()
    assert document["vary"] == "suited-match" and document["in_force"]["exact"] == "15"
    outside = solve_sweep(Rules(), "decks", 1, 2, cache=MEMORY)
    assert outside.marked is None
    assert "the game in force (decks 6) is outside this range" in " ".join(
        sweep_table(outside).notes
    )


def test_a_pay_moves_the_bonus_and_the_round_in_a_straight_line_and_not_the_main_wager(
    pays: SweepResult,
) -> None:
    """Identities: the Bonus edge is linear in one tier's pay and the main wager does not
    depend on the paytable; so is the round's edge, the Bonus stake being half the main."""
    points = pays.points
    assert len({p.main_house_edge for p in points}) == 1
    for key in ("bonus_house_edge", "round_house_edge"):
        slopes = {
            (getattr(b, key) - getattr(a, key)) / (b.value - a.value)
            for a, b in itertools.pairwise(points)
        }
        assert len(slopes) == 1, key
    assert points[0].bonus_house_edge > 0 > points[-1].bonus_house_edge


@pytest.mark.parametrize(
    ("vary", "start", "stop", "step", "error", "message"),
    [
        ("luck", 1, 2, None, DesignError, "cannot vary 'luck': vary one of decks, bonus-ratio"),
        ("decks", 1, 9, None, DesignError, "cannot sweep decks to 9: decks 9"),
        ("decks", 1, 2.5, None, DesignError, "decks stop 5/2 must be a whole number"),
        ("decks", 4, 2, None, DesignError, "from 4 to 2 is empty"),
        ("bonus-ratio", "1/4", 2, None, DesignError, "bonus ratio 1/4 is below 1/2"),
        ("suited-match", 10, 30, "0", DesignError, "step must be more than 0"),
        ("suited-match", 0, 1000, "1", DesignError, f"more than {MAX_POINTS} values"),
        ("suited-match", "ten", 30, None, RulesError, "suited-match start"),
        ("blackjack-pays", 1, "3:2", "1/8", None, ""),
    ],
)
def test_bad_ranges_are_refused_before_any_solve(
    vary: str, start: Any, stop: Any, step: Any, error: type[CbjError] | None, message: str
) -> None:
    rules = Rules()
    if error is None:
        values = sweep_values(varied(vary, rules), rules, start, stop, step)
        assert list(values) == [1, Fraction(9, 8), Fraction(5, 4), Fraction(11, 8), Fraction(3, 2)]
        return
    with pytest.raises(error, match=message):
        sweep_values(varied(vary, rules), rules, start, stop, step)


def test_every_tier_of_the_paytable_in_force_can_be_varied() -> None:
    rules = Rules(
        paytable=Paytable.parse("suited-match=15,rank-match=4,suited-adjacent=2,adjacent=1")
    )
    names = [v.name for v in variables(rules)]
    assert names[-4:] == ["suited-match", "rank-match", "suited-adjacent", "adjacent"]
    result = solve_sweep(rules, "suited-adjacent", 0, 4, 2, exact=True, cache=MEMORY)
    assert [p.value for p in result.points] == [0, 2, 4]
    assert [p.in_force for p in result.points] == [False, True, False]


def test_the_table_holds_each_figure_under_its_label(pays: SweepResult) -> None:
    table = sweep_table(pays)
    assert table.headers == ("suited match pay (to 1)", *(heading(k) for k in (
        "main_house_edge", "bonus_house_edge", "round_house_edge", "round_sd")))  # fmt: skip
    marked = [row[0] for row in table.rows if "in force" in row[0]]
    assert marked == ["15 (in force)"]
    for key, _, header, _ in table.figures():
        assert header == heading(key)
    for row, point in zip(table.rows, pays.points, strict=True):
        assert plain(row[3]) == round(float(point.round_house_edge) * 100, 4)
        assert row[3].endswith("%") and row[3][0] in "0123456789\u2212"  # a true minus sign
        assert math.isclose(float(row[4]), point.round_sd, abs_tol=5e-5)
    assert "suited match pay (to 1),main wager house edge" in table.render(Format.CSV)


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)


def test_the_plot_is_drawn_the_same_each_time_and_the_page_holds_table_and_plot(
    stands: SweepResult,
) -> None:
    png, svg = draw(stands, "png"), draw(stands, "svg").decode()
    assert png.startswith(b"\x89PNG")
    assert "dealer stands on" in svg and "in force (18)" in svg
    assert "main wager house edge" in svg and "round SD" in svg
    html = render_page(stands)
    drawn = html[html.index("<svg") : html.index("</svg>") + len("</svg>")]
    assert ' role="img"' in drawn  # the same drawing again, announced as an image
    assert canonicalize(drawn.replace(' role="img"', "", 1)) == canonicalize(svg)
    page = _Page()
    page.feed(html)
    assert {"main", "table", "svg", "figure"} <= set(page.tags)


#: The issue's command line: the suited match's pay from 10 to 30.
ISSUE_SWEEP = ["sweep", "--vary", "suited-match", "--from", "10", "--to", "30"]


def test_cbj_sweep_prints_a_table_and_writes_a_plot_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run_cli(ISSUE_SWEEP, capsys)
    assert (status, err) == (0, "")
    assert "House edge against the suited match pay (to 1)" in out
    assert "15 (in force)" in out and "30 " in out
    assert list(tmp_path.iterdir()) == []  # no plot unless asked
    status, out, err = run_cli([*ISSUE_SWEEP, "--plot", "pays.png", "--format", "csv"], capsys)
    assert status == 0 and err == f"cbj: wrote {Path('pays.png')}\n"
    assert out.startswith("suited match pay (to 1),main wager house edge")
    assert (tmp_path / "pays.png").read_bytes().startswith(b"\x89PNG")
    status, _, err = run_cli([*ISSUE_SWEEP, "--plot", "pays.pdf"], capsys)
    assert status == 2 and "end the file's name in .png, .svg or .html" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pays.png"]


def test_cbj_sweep_s_figures_equal_cbj_solve_at_three_of_its_points(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The issue's sweep as JSON, and ``cbj solve --paytable S:4:1`` at its first value, the
    value in force and its last: the same figures, as each command prints them."""
    status, out, _ = run_cli([*ISSUE_SWEEP, "--format", "json"], capsys)
    assert status == 0
    points = json.loads(out)["points"]
    assert len(points) == 12  # 10 to 30 by a tenth of the range, and 15 in force
    for point in (points[0], next(p for p in points if p["in_force"]), points[-1]):
        pay = point["value"]["exact"]
        status, out, _ = run_cli(["solve", "--paytable", f"{pay}:4:1", "--format", "json"], capsys)
        assert status == 0
        expected = _solved(json.loads(out))
        assert {k: point[k] for k in expected} == expected, pay
