"""Your own chart: chart files read back, priced exactly, cell by cell (``--strategy chart:FILE``,
``cbj chart --check``, ``cbj chart --costs``)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.api.chart_file import MAX_CHART_BYTES, load_chart
from solver.api.functions import chart_check, session
from solver.exact.chart import stored_chart, verify_chart
from solver.exact.chart_costs import chart_costs, chart_value, check_chart
from solver.exact.game import solutions_of, solve_game
from solver.exact.strategies import realistic_play
from solver.model.cards import VALUES
from solver.model.cells import COLUMNS, ROWS, Action, Cell, cell_name
from solver.model.chart_file import ChartGrid, chart_path, parse_chart
from solver.model.errors import StrategyError
from solver.model.rules import Rules
from solver.present import charts as charts_module
from solver.present.chart_costs import check_table, costs_table
from solver.present.charts import to_csv
from solver.present.formats import ChartFormat, Format
from solver.results.charts import Chart
from solver.results.game import GameResult
from solver.store.disk import Cache
from solver.store.memory import MemoryCache
from solver.studies.simulation import played_strategy
from tests.conftest import run_cli
from tests.test_chart import chart_hand_values, root_value


@pytest.fixture(scope="module")
def game(games: MemoryCache) -> GameResult[Fraction]:
    return solve_game(Rules(), exact=True, cache=games)


@pytest.fixture(scope="module")
def chart(game: GameResult[Fraction], games: MemoryCache) -> Chart:
    return stored_chart(Rules(), game, games)


def flipped(grid: ChartGrid | Chart, *cells: tuple[Cell, int]) -> dict[tuple[Cell, int], Action]:
    actions = {(cell, b): grid.action(cell, b) for cell in ROWS for b in VALUES}
    for key in cells:
        actions[key] = Action.STAND if actions[key] is Action.HIT else Action.HIT
    return actions


def csv_of(actions: dict[tuple[Cell, int], Action]) -> str:
    """A chart file as a person might write it: no comments, just the grid."""
    lines = ["hand,A,2,3,4,5,6,7,8,9,10"]
    for cell in ROWS:
        lines.append(",".join([cell_name(cell), *(actions[(cell, b)].value for b in VALUES)]))
    return "\n".join(lines) + "\n"


def test_charts_written_as_csv_and_json_read_back_cell_for_cell(chart: Chart) -> None:
    for fmt in (ChartFormat.CSV, ChartFormat.JSON):
        grid = parse_chart(charts_module.render(chart, fmt).decode(), f"best.{fmt.value}")
        assert grid.actions == {(c, b): chart.action(c, b) for c in ROWS for b in VALUES}
        assert grid.name == f"chart:best.{fmt.value}"


def test_a_hand_edited_csv_with_letters_changed_loads(chart: Chart) -> None:
    text = to_csv(chart).replace("hard 16,H,S,", "hard 16,h,s,").replace("\n", "\r\n")
    text = text.replace("hard 12,", "Hard  12 ,", 1)
    edited = text.replace("hard 13,H,", "hard 13,S,", 1)
    grid = parse_chart("\ufeff" + edited, "mine.csv")
    assert grid.action((False, 13), 1) is Action.STAND
    assert grid.action((False, 16), 2) is chart.action((False, 16), 2)


def test_feeding_the_best_chart_back_gives_its_ev_exactly(
    chart: Chart, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "best.csv"
    assert run_cli(["chart", "--format", "csv", "-o", str(path)], capsys)[0] == 0
    status, out, _ = run_cli(
        ["strategies", "--strategies", f"chart,chart:{path}", "--format", "json"], capsys
    )
    assert status == 0
    rows = {row["name"]: row for row in json.loads(out)["strategies"]}
    mine = Fraction(rows[f"chart:{path}"]["main_ev"]["exact"])
    assert mine == chart.expected_value == Fraction(rows["chart"]["main_ev"]["exact"])


def test_flipping_one_cell_changes_the_ev_by_the_cost_check_prints(
    game: GameResult[Fraction], chart: Chart, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cell = ((False, 16), 10)
    path = tmp_path / "mine.csv"
    path.write_text(csv_of(flipped(chart, cell)))
    status, out, _ = run_cli(["chart", "--check", str(path), "--format", "json"], capsys)
    assert status == 0
    doc = json.loads(out)
    [difference] = doc["differences"]
    assert (difference["hand"], difference["bonus"]) == ("hard 16", "10")
    # The EV of the flipped chart by the policy evaluator (not the chart's columns).
    grid = load_chart(path)
    policy = realistic_play(Rules(), [grid.name], game, None, {grid.name: grid}).policies[0]
    assert Fraction(difference["cost"]["exact"]) == chart.expected_value - policy.main_ev
    assert Fraction(difference["cost_per_100_rounds"]["exact"]) == 100 * (
        chart.expected_value - policy.main_ev
    )
    assert Fraction(doc["expected_value"]["exact"]) == policy.main_ev
    assert Fraction(doc["cost_against_best"]["exact"]) == chart.expected_value - policy.main_ev
    assert Fraction(doc["cost_against_optimal"]["exact"]) == game.expected_value - policy.main_ev
    status, out, _ = run_cli(["chart", "--check", str(path)], capsys)
    assert status == 0 and "hard 16" in out and "1 cell(s) differ" in out
    assert chart_check(file=path, cache=Cache()).to_json() == doc


def test_check_lists_each_differing_cell_largest_cost_first(
    game: GameResult[Fraction], chart: Chart
) -> None:
    cells = [((False, 20), 10), ((False, 12), 4), ((True, 18), 2)]
    grid = ChartGrid("chart:three.csv", flipped(chart, *cells))
    check = check_chart(game, grid, grid.name, chart)
    assert {(d.cell, d.bonus) for d in check.differences} == set(cells)
    costs = [d.cost for d in check.differences]
    assert costs == sorted(costs, reverse=True) and costs[0] > 0
    for d in check.differences:  # fixing that one cell alone gains exactly its cost
        fixed = ChartGrid("fixed", {**grid.actions, (d.cell, d.bonus): d.other})
        assert chart_value(game, fixed) - check.expected_value == d.cost
    assert check.expected_value == chart_value(game, grid)
    assert check.to_json()["chart"] == "chart:three.csv"
    assert check_table(check).render(Format.TABLE).count("\n") > 8


def test_costs_of_the_best_chart_match_a_second_evaluator(
    game: GameResult[Fraction], chart: Chart
) -> None:
    bonus = 10
    costs = chart_costs(game, chart, bonuses=[bonus])
    solution = solutions_of(game)[bonus]
    hits = {cell for cell in ROWS if chart.action(cell, bonus) is Action.HIT}
    best = root_value(solution, bonus, chart_hand_values(solution, hits))
    total = 52 * game.rules.decks
    left = 16 * game.rules.decks  # ten-value cards, the Bonus card's value
    for (cell, b), cost in costs.cells.items():
        assert b == bonus and cost.cost >= 0
        other = root_value(solution, bonus, chart_hand_values(solution, hits ^ {cell}))
        assert cost.cost == (best - other) * Fraction(left, total * (total - 1)), cell
    assert {c for c, _ in costs.cells} == {c for c in ROWS if chart.action(c, bonus) in "HS"}
    document = costs.to_json()
    row = next(r for r in document["rows"] if r["hand"] == "hard 16")
    assert row["actions"]["10"] == chart.action((False, 16), 10).value
    assert (
        Fraction(row["cost_per_100_rounds"]["10"]["exact"])
        == 100 * costs.cells[((False, 16), 10)].cost
    )
    assert row["cost_per_100_rounds"]["A"] is None  # not costed: another column
    text = costs_table(costs).render(Format.TABLE)
    assert f"{chart.action((False, 16), 10).value} " in text


def test_a_dash_where_hands_arise_is_refused(game: GameResult[Fraction], chart: Chart) -> None:
    actions = flipped(chart)
    actions[((False, 12), 5)] = Action.NONE
    with pytest.raises(StrategyError, match="hard 12 v 5 is '-'"):
        verify_chart(game, ChartGrid("chart:x.csv", actions), "chart:x.csv")
    # The lone ace against a ten is a blackjack: any letter there is fine.
    actions = flipped(chart)
    actions[((True, 11), 10)] = Action.HIT
    verify_chart(game, ChartGrid("chart:y.csv", actions))


def test_the_simulator_plays_a_chart_file_as_its_cells_say(
    game: GameResult[Fraction], chart: Chart
) -> None:
    grid = ChartGrid("chart:My.csv", flipped(chart, ((False, 16), 10)))
    strategy = played_strategy("chart:My.csv", Rules(), lambda: game, None, grid)
    assert strategy.name == "chart:My.csv"
    assert strategy.hits(10, (0,) * 5 + (1,) + (0,) * 3 + (1,)) is (
        grid.action((False, 16), 10) is Action.HIT
    )
    assert strategy.hits(10, (0,) * 9 + (2,)) is False  # hard 20 stands


def test_a_session_plays_the_chart_file(chart: Chart, tmp_path: Path, games: MemoryCache) -> None:
    path = tmp_path / "best.json"
    path.write_bytes(charts_module.render(chart, ChartFormat.JSON))
    mine = session(rounds=1, strategy=f"chart:{path}", cache=games)
    best = session(rounds=1, strategy="chart", cache=games)
    assert mine.figures == best.figures


GOOD = "hand,A,2,3,4,5,6,7,8,9,10\n" + "".join(
    f"{cell_name(cell)},{','.join('S' * 10)}\n" for cell in ROWS
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no rows"),
        ("# only a comment\n", "no rows"),
        ("hand,A,2,3\n", "header"),
        (GOOD.replace("hard 12,S,S,", "hard 12,S,X,"), "hard 12 v 2 is 'X'"),
        (GOOD.replace("hard 12,S,S,", "hard 12,S,,"), "hard 12 v 2 is ''"),
        (GOOD.replace("hard 12,S,S,", "hard 12,S,"), "has 9 cell"),
        (GOOD.replace("hard 12,", "hard 22,"), "'hard 22' is not a row"),
        (GOOD.replace("hard 12,", "hard 13,"), "given twice"),
        ("".join(GOOD.splitlines(True)[:-3]), "missing row(s) soft 19, soft 20, soft 21"),
        ("{not json", "not valid JSON"),
        ('{"rows": 3}', "needs 'rows'"),
        ('{"rows": [{"hand": "hard 2", "actions": {"A": "H"}}]}', "no cell for 2, 3"),
        ('{"rows": [{"hand": "hard 2"}]}', "has no 'actions'"),
        ('{"rows": [7]}', "needs a 'hand'"),
    ],
)
def test_malformed_charts_are_refused_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises(StrategyError) as error:
        parse_chart(text, "bad.csv")
    assert message in str(error.value) and "bad.csv" in str(error.value)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    "argv",
    [
        ["strategies", "--strategies", "chart:{bad}"],
        ["chart", "--check", "{bad}"],
        ["simulate", "--rounds", "100", "--strategy", "chart:{bad}"],
        ["seats", "--rounds", "100", "--strategy", "chart:{bad}"],
        ["session", "--rounds", "10", "--strategy", "chart:{bad}"],
        ["strategies", "--strategies", "chart:{missing}"],
        ["strategies", "--strategies", "chart:"],
        ["chart", "--check", "{folder}"],
        ["chart", "--check", "{binary}"],
    ],
)
def test_a_malformed_chart_file_is_one_line_and_status_2(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(GOOD.replace("hard 12,S,S,", "hard 12,S,Q,"))
    binary = tmp_path / "chart.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    names = {"bad": bad, "missing": tmp_path / "nope.csv", "folder": tmp_path, "binary": binary}
    status, out, err = run_cli([a.format(**names) for a in argv], capsys)
    assert status == 2 and out == "", err
    assert err.count("\n") == 1 and err.startswith("cbj: error")


def test_chart_check_and_costs_refuse_bad_combinations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mine.csv"
    path.write_text(GOOD)
    for argv in (
        ["chart", "--check", str(path), "--costs"],
        ["chart", "--check", str(path), "--format", "png"],
        ["chart", "--costs", "-o", str(tmp_path / "out.csv")],
        ["chart", "--format", "table"],
    ):
        status, out, _ = run_cli(argv, capsys)
        assert status == 2 and out == "", argv


def test_chart_names_read_as_files() -> None:
    assert chart_path(" chart: a b.csv ") == "a b.csv" and chart_path("chart") is None
    with pytest.raises(StrategyError, match="names no file"):
        chart_path("chart:")


@pytest.mark.soak
def test_cli_costs_json_is_the_api_document(
    capsys: pytest.CaptureFixture[str], games: MemoryCache
) -> None:
    from solver.api.functions import chart_costs as api_costs

    status, out, _ = run_cli(["chart", "--costs", "--format", "json"], capsys)
    assert status == 0
    assert json.loads(out) == api_costs(cache=games).to_json()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from("HS-"), min_size=len(ROWS) * 10, max_size=len(ROWS) * 10))
def test_any_grid_written_and_read_back_is_the_same(letters: list[str]) -> None:
    actions = {
        (cell, b): Action(letters[10 * k + b - 1]) for k, cell in enumerate(ROWS) for b in VALUES
    }
    grid = parse_chart(csv_of(actions), "any.csv")
    assert grid.actions == actions
    assert parse_chart(csv_of(dict(grid.actions)), "any.csv") == grid


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_is_a_chart_or_one_clear_error(text: str) -> None:
    try:
        parse_chart(text, "x.csv")
    except StrategyError as error:
        assert "x.csv" in str(error) and "\n" not in str(error)


def test_a_file_name_the_system_cannot_hold_is_refused() -> None:
    with pytest.raises(StrategyError, match="not a file name"):
        load_chart("a\x00b.csv")


def _json_chart(action: str) -> str:
    """A JSON chart whose cells are ``S`` but the first, ``action`` (raw JSON text)."""
    cells = ", ".join(f'"{c}": {action if c == "A" else chr(34) + "S" + chr(34)}' for c in COLUMNS)
    rows = ", ".join(f'{{"hand": "{cell_name(cell)}", "actions": {{{cells}}}}}' for cell in ROWS)
    return f'{{"rows": [{rows}]}}'


#: Files written to break the reader (issue 41): what each is, and a word of its message.
HOSTILE = {
    "huge-header-field.csv": ("hand," + "A" * 200_000 + "\n", "characters long"),
    "huge-row-field.csv": (GOOD + 'hard 2,"' + "H" * 200_000 + '"\n', "characters long"),
    "deep-list.json": ('{"rows": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    "deep-object.json": ('{"rows": ' + '{"a": ' * 20_000 + "1" + "}" * 20_001, "nested too"),
    "huge-number.json": (_json_chart("9" * 5_000), "is '99999"),
    "huge-float.json": (_json_chart("1e999999"), "is '1e999"),
    "nul.csv": (GOOD.replace("hard 3,S", "hard 3,\0S"), "hard 3"),
    "too-long.csv": ("#" * (MAX_CHART_BYTES + 1), "over 262,144 bytes"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_chart_file_is_one_line_and_status_2(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, message = HOSTILE[name]
    path = tmp_path / name
    path.write_text(text)
    status, out, err = run_cli(["chart", "--check", str(path)], capsys)
    assert status == 2 and out == "", err
    assert err.count("\n") == 1 and err.startswith(f"cbj: error: chart {path}"), err[:300]
    assert message in err, err
    with pytest.raises(StrategyError, match=message[:8]):
        load_chart(path)


def test_a_file_in_latin_1_is_refused_as_not_utf_8(tmp_path: Path) -> None:
    path = tmp_path / "latin.csv"
    path.write_bytes(GOOD.replace("hard 2", "h\xe4rd 2").encode("latin-1"))
    with pytest.raises(StrategyError, match="is not UTF-8 text"):
        load_chart(path)


def _limited() -> None:
    """In the child: at most 1 GiB of address space (a reader of /dev/zero fails fast)."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def test_a_fifo_or_a_device_as_a_chart_is_refused_at_once(tmp_path: Path) -> None:
    """Not read at all: a FIFO with no writer would hang a reader, /dev/zero fill its memory."""
    fifo = tmp_path / "fifo.csv"
    os.mkfifo(fifo)
    for file in (fifo, Path("/dev/zero")):
        done = subprocess.run(
            [sys.executable, "-m", "solver", "chart", "--check", str(file)],
            capture_output=True,
            text=True,
            timeout=60,  # a hang fails here, not at the suite's end
            preexec_fn=_limited,
        )
        assert done.returncode == 2 and done.stdout == "", done.stderr[-400:]
        assert done.stderr == f"cbj: error: chart {file} {NOT_REGULAR}\n"


NOT_REGULAR = "is not a regular file: give a chart file as cbj chart writes it"


@pytest.mark.parametrize(
    "argv",
    [
        ["report", "--format", "html", "-o", "{out}", "--strategy", "chart:/dev/null"],
        ["simulate", "--rounds", "100", "--strategy", "chart:/dev/null"],
        ["seats", "--rounds", "100", "--strategy", "chart:/dev/null"],
        ["strategies", "--strategies", "chart:/dev/null"],
        ["session", "--rounds", "10", "--strategy", "chart:/dev/null"],
    ],
)
def test_every_command_refuses_a_device_as_its_chart(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli([a.format(out=tmp_path / "r.html") for a in argv], capsys)
    assert (status, out, err) == (2, "", f"cbj: error: chart /dev/null {NOT_REGULAR}\n")
    assert not (tmp_path / "r.html").exists()
