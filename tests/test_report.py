"""The PAR report: every section, plain words and one number style, a reproducible PDF."""

from __future__ import annotations

import io
import math
import re
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from solver.cli import main
from solver.model.cells import Action
from solver.model.rules import Rules
from solver.present.advantage import row_text
from solver.present.charts import COLOURS
from solver.present.report import Report, render_html, write_report
from solver.present.report.blocks import Grid, Section, Text
from solver.present.report.content import report_date
from solver.present.style import minus_numbers
from solver.results.attack import AttackResult
from solver.results.kinds import Key
from solver.results.report import ReportFigures
from solver.results.simulation import SIMULATION
from solver.store.memory import MemoryCache
from tests.conftest import EPOCH, REPORT_PAYTABLES, REPORT_SIZES

# Every test here that uses ``par_report`` runs on the one worker that builds it (conftest
# marks them); the others run wherever there is room.

#: The core's sections, in the order a lab reads them.
CORE = (
    "The game",
    "Summary",
    "Perfect play, the printed chart and realistic play",
    "Bonus wager",
    "Main wager",
    "Whole round",
    "Dealer",
    "Verification",
    "Reproducibility manifest",
)
#: Each annex: its letter, its title and its sections.
ANNEXES = (
    ("A", "Rules in full, definitions and method", ("Rules of play", "Definitions", "Method")),
    ("B", "Exact fractions", ("Exact values",)),
    ("C", "Designer studies", ("Paytables compared", "Rule variants", "Paytable sensitivity",
                               "House edge against the Bonus ratio", "Strategy chart",
                               "Dealer's results plotted")),
    ("D", "Game protection", ("Game protection",)),
    ("E", "Verification in detail", ("Simulation cross-check",)),
    ("F", "Sessions and risk", ("Volatility", "A table of players")),
)  # fmt: skip
#: Every section, the core's then the annexes'.
SECTIONS = (*CORE, *(title for _, _, sections in ANNEXES for title in sections))
#: The outline's entries: the core's numbered sections, then each annex and its sections.
OUTLINE = (
    *(f"{i}. {t}" for i, t in enumerate(CORE, start=1)),
    *(
        entry
        for letter, title, sections in ANNEXES
        for entry in (
            f"Annex {letter}. {title}",
            *(() if len(sections) == 1 else
              (f"{letter}.{i}. {t}" for i, t in enumerate(sections, start=1))),
        )
    ),
)  # fmt: skip


class Page(HTMLParser):
    """Collects every <h2>'s text and the visible prose, and checks tags are balanced."""

    VOID = frozenset({"meta", "br", "path", "use", "stop", "col", "rect", "circle", "line"})

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[str] = []
        self.open: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag not in self.VOID:
            self.open.append(tag)
        if tag == "h2":
            self.headings.append("")

    def handle_startendtag(self, tag: str, attrs: object) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        assert self.open and self.open.pop() == tag, f"unbalanced </{tag}>"

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] == "h2":
            self.headings[-1] += data
        if not {"style", "svg"} & set(self.open) and "title" not in self.open[-1:]:
            self.text.append(data)


@pytest.fixture(scope="module")
def page(report_html: str) -> Page:
    parser = Page()
    parser.feed(report_html)
    return parser


@pytest.fixture(scope="module")
def pdf(report_pdf: bytes) -> bytes:
    """The session's report as PDF (tests/conftest.py)."""
    return report_pdf


def test_html_has_every_section_in_order(report_html: str, page: Page) -> None:
    titles = [re.sub(r"^\d+\. ", "", h) for h in page.headings]
    assert titles == [*CORE, *(f"Annex {letter}. {title}" for letter, title, _ in ANNEXES)]
    html = report_html
    # Bonus ratio, dealer, pay sensitivity: each for a desktop and a phone
    assert html.count("<svg") == 2 * 3
    assert f"background:{COLOURS[Action.HIT]}" in html  # the chart's coloured cells
    for figure in ("house edge", "hit frequency", "odds of the top award", "Figures hash"):
        assert figure in html
    assert "Revision</dt>" not in html  # "revision" names the revision note only


def test_html_is_self_contained_and_fits_phones_and_paper(report_html: str) -> None:
    html = report_html
    assert "<img" not in html and not re.search(r'(src|href)="(https?:)?//', html)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    for rule in ("@page { size: A4", "print-color-adjust: exact", "break-inside: avoid",
                 "break-after: avoid", "overflow-x: auto"):  # fmt: skip
        assert rule in html
    assert "<text" in html  # plot text stays text (searchable, read aloud)


def test_prose_has_no_code_identifiers_and_one_number_style(page: Page) -> None:
    # The manifest, the last section, quotes the command line and the rules' JSON as is.
    text = " ".join(page.text).rpartition("Reproducibility manifest")[0]
    for identifier in ("with_bonus", "own_cards", "bonus_ratio", "blackjack_pays", "_"):
        assert identifier not in text
    assert not re.search(r"(?<![\w\-])-\d", text), "hyphen used as a minus sign"
    assert "\u2212" in text  # true minus signs are used
    assert "points)" not in text.replace("percentage points)", "")


def test_every_return_line_gives_its_odds(par_report: Report) -> None:
    returns = [
        block
        for section in par_report.sections
        for block in section.blocks
        if isinstance(block, Grid) and block.headers[-1] == "return"
    ]
    assert len(returns) == 2  # Bonus, main wager (the whole round's gives true odds)
    for grid in returns:
        odds = grid.headers.index("odds")
        for row in grid.rows[:-1]:  # the total line has no odds
            assert re.fullmatch(r"1 in [\d.\u202f]+|never", row[odds]), row


def test_title_block_names_software_figures_hash_and_date(
    par_report: Report, monkeypatch: pytest.MonkeyPatch
) -> None:
    from solver.model.version import described

    block = par_report.title_block
    assert block.date == "2026-01-02"  # from SOURCE_DATE_EPOCH
    assert block.software == described() and "commit" in block.software  # a checkout's
    assert re.fullmatch(r"[0-9a-f]{12}", block.figures_hash)
    assert par_report.identity == f"figures hash {block.figures_hash}"
    assert any("2 standard 52-card decks" in line for line in block.rules)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    assert report_date() == "1970-01-01"


def test_simulation_cross_check_agrees(par_report: Report) -> None:
    section = next(s for s in par_report.sections if s.title == "Simulation cross-check")
    grid = next(b for b in section.blocks if isinstance(b, Grid))
    z_column = grid.headers.index("z")
    zs = [float(row[z_column].replace("\u2212", "-")) for row in grid.rows]
    assert len(zs) == 3 and all(abs(z) < 4 for z in zs)
    prose = " ".join(b.text for b in section.blocks if isinstance(b, Text))
    assert f"dealt {_spaced(REPORT_SIZES['simulation_rounds'])} rounds" in prose


def test_pdf_has_outline_page_x_of_y_vector_plots_and_text(pdf: bytes) -> None:
    reader = PdfReader(io.BytesIO(pdf))
    pages = len(reader.pages)
    assert 4 <= pages <= 19  # 19 before issue 46 made the core and its annexes
    titles = [o.title for o in _flat(reader.outline)]
    assert titles == list(OUTLINE)
    text = [p.extract_text() for p in reader.pages]
    assert all(f"page {n} of {pages}" in t for n, t in enumerate(text, start=1))
    assert "Paytable" in text[0] and "2026-01-02" in text[0]
    assert b"/Subtype /Image" not in pdf  # plots are drawn as vectors
    # ... with their labels kept as text (selectable), not as glyph outlines
    flat = " ".join(" ".join(text).split())
    for label in ("Bonus wager as a multiple of the main wager", "round house edge (%)"):
        assert label in flat
    assert b"/CreationDate (D:20260102" in pdf
    links = [
        a.get_object()
        for a in reader.pages[0].get("/Annots", [])
        if a.get_object().get("/Subtype") == "/Link"
    ]
    assert len(links) >= len(CORE) + len(ANNEXES)  # the linked contents


def _flat(outline: list[Any]) -> list[Any]:
    """The outline's entries, an annex's sections after it."""
    return [e for item in outline for e in (_flat(item) if isinstance(item, list) else [item])]


@pytest.mark.slow
def test_chart_pdf_through_the_cli_carries_the_source_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The drawing is reproducible (test_chart.py draws the default chart's PDF twice, once
    # through ``cbj chart``); the date it carries is SOURCE_DATE_EPOCH's, the same each time.
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    with pytest.raises(SystemExit):
        main(["chart", "--decks", "2", "-o", str(tmp_path / "c.pdf")])
    drawn = (tmp_path / "c.pdf").read_bytes()
    assert drawn.startswith(b"%PDF") and drawn.count(b"/CreationDate (D:20260102") == 1


def test_html_is_written_and_other_files_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A one-section report takes the same path to the file as a whole one (whose HTML the
    # tests above check) without drawing its plots again.
    from solver.model.rules import Rules
    from solver.present.report.blocks import Section, TitleBlock

    title = TitleBlock("game", ("decks: 2",), "15:4:1", "0.1.0", "0123456789ab", "2026-01-02")
    text = Text("A loss of \u22121\u202f000 units.")  # non-ASCII, as every report has
    small = Report(Rules(decks=2), title, (Section("Summary", (text,)),))
    write_report(small, tmp_path / "r.html")
    written = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert written.startswith("<!DOCTYPE html>") and written == render_html(small)
    assert "\u22121\u202f000" in written
    with pytest.raises(SystemExit) as stop:
        main(["report", "--decks", "2", "-o", str(tmp_path / "r.txt")])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and ".html .pdf" in err


def _spaced(n: int) -> str:
    """A whole number with thin-space thousands, as the report prints counts."""
    return f"{n:,}".replace(",", "\u202f")


def _grid(report: Report, title: str, index: int = 0) -> Grid:
    section = next(s for s in report.sections if s.title == title)
    return [b for b in section.blocks if isinstance(b, Grid)][index]


def _value(text: str) -> float:
    """A number as the report prints it: true minus, thin-space thousands, maybe a %."""
    cleaned = text.replace("\u2212", "-").replace("\u202f", "").rstrip("%")
    return float(cleaned.split()[0])


def _round_figure(report: Report, label: str) -> float:
    """A figure of the round under paytable A, from the paytables' comparison."""
    grid = _grid(report, "Paytables compared")
    return _value(next(row[1] for row in grid.rows if row[0] == label))


def test_volatility_spreads_as_the_square_root_of_the_rounds(par_report: Report) -> None:
    round_ev = _round_figure(par_report, "round EV per main unit")
    round_sd = _round_figure(par_report, "round SD")
    grid = _grid(par_report, "Volatility")
    assert [_value(r[0]) for r in grid.rows] == [100, 1_000, 10_000, 100_000]
    for row in grid.rows:
        n = _value(row[0])
        assert _value(row[1]) == pytest.approx(n * round_ev, abs=0.05 + n * 5e-5)
        assert _value(row[2]) == pytest.approx(round_sd * math.sqrt(n), abs=0.05 + n**0.5 * 5e-5)
        low90, high90 = (_value(x) for x in row[3].split(" to "))
        low95, high95 = (_value(x) for x in row[4].split(" to "))
        assert low95 < low90 < _value(row[1]) < high90 < high95
        # Each range is mean -/+ z SD; ends shown to the unit, the SD to 0.1.
        sd = _value(row[2])
        assert high90 - low90 == pytest.approx(2 * 1.644854 * sd, abs=1.2)
        assert high95 - low95 == pytest.approx(2 * 1.959964 * sd, abs=1.3)


def test_the_bonus_ratio_table_meets_the_summary_at_the_ratio_in_force(
    par_report: Report,
) -> None:
    grid = _grid(par_report, "House edge against the Bonus ratio")
    assert [r[0] for r in grid.rows] == ["1/2", "3/4", "1", "3/2", "2"]
    in_force = grid.rows[0]  # the report's rules bet the minimum, 1/2
    assert _value(in_force[2]) == _round_figure(par_report, "round EV per main unit")
    assert in_force[3] == next(
        r[3] for r in _grid(par_report, "Summary").rows if r[0] == "house edge"
    )
    assert _value(in_force[4]) == _round_figure(par_report, "round SD")
    sds = [_value(r[4]) for r in grid.rows]
    assert sds == sorted(sds)  # a larger Bonus stake spreads the round more


def test_the_table_of_players_holds_k_times_one_seats_bonus(par_report: Report) -> None:
    per_unit = next(r for r in _grid(par_report, "Summary").rows if r[0] == "EV")
    bonus_per_round = -_value(per_unit[2]) / 2  # 1/2 on the Bonus per main unit
    grid = _grid(par_report, "A table of players")
    assert [r[0] for r in grid.rows] == [str(k) for k in range(1, 8)]
    for row in grid.rows:
        assert _value(row[1]) == pytest.approx(int(row[0]) * bonus_per_round, abs=6e-4)
    section = next(s for s in par_report.sections if s.title == "A table of players")
    prose = " ".join(b.text for b in section.blocks if isinstance(b, Text))
    assert f"{_spaced(REPORT_SIZES['table_rounds'])} table-rounds" in prose
    worst = float(re.search(r"largest \|z\| ([\d.]+)", prose).group(1))  # type: ignore[union-attr]
    assert worst < 3


def _protection(report: Report) -> tuple[list[Grid], str]:
    """The game-protection section's grids and its verdict."""
    section = next(s for s in report.sections if s.title == "Game protection")
    grids = [b for b in section.blocks if isinstance(b, Grid)]
    verdict = next(b.text for b in section.blocks if isinstance(b, Text) and "Verdict" in b.text)
    return grids, verdict


def test_protection_eors_are_two_solves_and_the_deck_sum(par_report: Report) -> None:
    from solver.exact.game import solve_game
    from solver.model.cards import Card
    from solver.model.rules import Rules
    from solver.store.disk import Cache

    eors = _protection(par_report)[0][0]
    assert eors.headers[1:] == (*"A23456789", "10")  # a full shoe: tens alike
    rounds = next(r for r in eors.rows if r[0] == "round EOR")
    rules = Rules(decks=2)
    full = solve_game(rules, (), exact=False, cache=Cache()).round_expected_value  # the report's
    for rank in ("A", "5"):
        # Another suit than the report's games (spades): solved here, and not stored (no
        # other test asks for it; storing took 40% of these two solves' time).
        less = solve_game(rules, (Card.parse(f"{rank}h"),), exact=False)
        shown = _value(rounds[eors.headers.index(rank)])  # rank: a header of its own
        assert shown == pytest.approx((less.round_expected_value - full) * 10_000, abs=0.006)
    # The linear whole-deck figure is four times the row's sum (two places each: loose).
    predicted = re.search(r"EORs predict ([^ ]+) on", eors.caption)
    assert predicted is not None
    deck = _value(predicted.group(1))
    by_rank = [_value(x) for x in rounds[1:]]
    total = sum(by_rank[:-1]) + 4 * by_rank[-1]  # the merged column is four ranks
    assert deck == pytest.approx(4 * total / 10_000, abs=3e-5)


def check_verdict(result: AttackResult, text: str) -> None:
    """Every claim of a verdict against the rows it comes from, recomputed here: an attack is
    named exactly when its bound, as dealt at the deepest row, is not at or below zero or a
    practical counter's interval lies above zero; the game is called unbeatable only when
    none is named; every depth named is one the study reached, with a row of its own; every
    bound is at least the practical counters' figure of the same row, within intervals."""
    depths = {r.depth for a in result.attacks for r in a.rows if r.depth is not None}
    assert max(depths) <= result.reached + 1e-12
    deepest = max(depths)
    named_any = False
    for a in result.attacks:
        assert any(r.shuffle.is_csm for r in a.rows), a.name  # a shuffler's row in every table
        for p in (r for r in a.rows if not r.bound):
            same = [b for b in a.rows if b.bound and (b.shuffle, b.cap) == (p.shuffle, p.cap)]
            for b in same:
                assert b.dealt.interval[1] >= p.dealt.interval[0], (a.name, b, p)
        bound = [r for r in a.rows if r.bound and not r.cap and r.depth == deepest]
        practical = [r for r in a.rows if not r.bound and not r.cap and r.depth == deepest]
        unseen = bool(bound) and bound[0].method != "exact" and bound[0].dealt.se == 0
        ruled_out = (
            bool(bound)
            and bound[0].dealt.interval[1] <= 0
            and not (unseen and bound[0].dealt.mean == 0)
        )
        beats = any(p.dealt.interval[0] > 0 for p in practical)
        named = f"A player who {a.name} is not ruled out" in text
        assert named == (not ruled_out or beats), a.name
        named_any |= named
        if named and bound:
            assert minus_numbers(row_text(bound[0])) in text
    assert ("cannot be beaten" in text) == (not named_any)
    for found in re.finditer(r"cut card (?:of|at) ([0-9.]+[0-9])", text):
        assert float(found.group(1)) in depths, found.group(0)
    for found in re.finditer(r"reach ([0-9.]+[0-9]) of the shoe", text):
        assert float(found.group(1)) == result.reached


def test_the_2_deck_report_verdict_holds_to_its_figures(
    par_report: Report, par_figures: ReportFigures
) -> None:
    """The 2-deck shoe keeps its last 26 cards: rows stop at 0.75, and the verdict says so."""
    grids, verdict = _protection(par_report)
    result = par_figures.protection.attack
    assert result.reached == 0.75
    check_verdict(result, verdict)
    assert "reach 0.75 of the shoe" in verdict
    grid = next(g for g in grids if g.headers[0] == "attack")
    dealt, played = grid.headers[3], grid.headers[4]
    assert dealt != played and "dealt" in dealt and "played" in played
    shuffles = {row[2] for row in grid.rows}
    assert not any("0.83" in s for s in shuffles)


@pytest.mark.slow
def test_the_default_report_verdict_holds_to_its_figures(games: MemoryCache) -> None:
    """The default game's game-protection section (6 decks, the tests' small sizes): its
    verdict, sentence by sentence, against its rows (about 3 s of CPU: a shoe path of 6
    decks is some 50 solves)."""
    from solver.exact.chart import stored_chart
    from solver.exact.game import solve_game
    from solver.present.report.protection import protection_section
    from solver.studies.protection import protection_study
    from solver.studies.simulation import played_strategy

    rules = Rules()
    game = solve_game(rules, exact=True, cache=games)
    chart = stored_chart(rules, game, games)
    study = protection_study(
        rules,
        chart,
        played_strategy("optimal", rules, lambda: game, games),
        counting=played_strategy("chart", rules, lambda: game, games, chart),
        shoe_samples=REPORT_SIZES["shoe_samples"],
        counter_rounds=REPORT_SIZES["counter_rounds"],
    )
    section = protection_section(study)
    verdict = next(b.text for b in section.blocks if isinstance(b, Text) and "Verdict" in b.text)
    assert study.attack.reached == 0.83
    check_verdict(study.attack, verdict)


def test_report_help_states_the_size_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    from solver.studies.protection import COUNTER_ROUNDS, SHOE_SAMPLES
    from solver.studies.report import SIMULATION_ROUNDS, TABLE_ROUNDS

    with pytest.raises(SystemExit):
        main(["report", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for option, default in (
        ("--shoe-samples", SHOE_SAMPLES),
        ("--counter-rounds", COUNTER_ROUNDS),
        ("--table-rounds", TABLE_ROUNDS),
        ("--simulation-rounds", SIMULATION_ROUNDS),
    ):
        assert re.search(rf"{option} INTEGER [^[]*\[default: {default}\]", text), option


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--table-rounds", "0", "table rounds 0 is out of range: use 1 to"),
        ("--simulation-rounds", "-5", "simulation rounds -5 is out of range: use 1 to"),
        ("--simulation-rounds", str(10**11 + 1), "use 1 to 100,000,000,000"),
    ],
)
def test_report_sizes_out_of_range_are_one_line_errors_before_any_work(
    option: str,
    value: str,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import solver.studies.report as study

    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the report started its work before checking its sizes")

    monkeypatch.setattr(study, "edge_model", no_work)
    with pytest.raises(SystemExit) as stop:
        main(["report", "-o", str(tmp_path / "r.pdf"), f"{option}={value}"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "r.pdf").exists()


@pytest.mark.parametrize("size", ["table_rounds", "simulation_rounds"])
@pytest.mark.parametrize("value", [True, 2.5, "100"])
def test_report_sizes_must_be_whole_numbers(size: str, value: object) -> None:
    from solver.model.errors import ReportError
    from solver.model.rules import Rules
    from solver.studies.report import report_figures

    with pytest.raises(ReportError, match=f"{size.replace('_', ' ')} {value!r} is invalid"):
        report_figures(Rules(), **{size: value})  # type: ignore[arg-type]


def test_the_ratio_curve_is_the_round_edge_at_each_ratio(games: MemoryCache) -> None:
    # The curve finds the main EV and the Bonus edge once; EdgeModel.edge re-derives both at
    # every ratio. An 8-card shoe keeps the exact solve cheap; two paytables, and one ratio
    # off the curve's grid.
    from solver.exact.game import solve_game
    from solver.exact.paytable import EdgeModel
    from solver.model.cards import RANKS, SUITS, Card
    from solver.model.rules import Paytable, Rules
    from solver.results.paytable import EdgeKind
    from solver.studies.report import ratio_curve

    left = ["As", "2h", "5s", "6h", "9s", "10h", "Qd", "Kd"]
    removed = tuple(Card(r, s) for r in RANKS for s in SUITS if str(Card(r, s)) not in left)
    rules = Rules(decks=1, bonus_ratio=Fraction(3, 4))
    model = EdgeModel(solve_game(rules, removed, exact=True, cache=games))
    grid = [Fraction(n, 40) for n in range(20, 81)]
    ratios = [*grid[::10], Fraction(7, 6)]  # each edge costs a main EV: a few suffice
    other = Paytable(suited_match=Fraction(30), rank_match=Fraction(9), adjacent=Fraction(3, 2))
    for paytable in (other, rules.paytable):
        edges = [model.edge(EdgeKind.ROUND, paytable, r) for r in ratios]
        assert model.round_edges(paytable, ratios) == tuple(edges)
    on_grid = model.round_edges(rules.paytable, grid)
    drawn = [(float(r), float(e) * 100) for r, e in zip(grid, on_grid, strict=True)]
    curve = ratio_curve(model, rules)
    assert (curve.points, curve.in_force) == (tuple(drawn), drawn[grid.index(rules.bonus_ratio)])


# --- The lab's report (issue 25) ------------------------------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _section(report: Report, title: str) -> Section:
    return next(s for s in report.sections if s.title == title)


def _fields(report: Report, title: str) -> dict[str, str]:
    """A two-column grid of ``title`` as a dict of its first column to its second."""
    return {row[0]: row[1] for row in _grid(report, title).rows}


def _doc_clauses() -> list[tuple[int, str]]:
    """The clauses of docs/rules.md's clause-by-clause table: number and title."""
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    table = text.partition("## Clause by clause")[2].partition("\n#")[0]
    return [(int(n), title) for n, title in re.findall(r"^\| (\d+)\. ([^|]+?) \|", table, re.M)]


def test_the_rules_state_every_clause_of_the_docs_with_its_reading(par_report: Report) -> None:
    from solver.model.rule_table import RULE_TABLE

    clauses = _doc_clauses()
    assert [n for n, _ in clauses] == list(range(1, 10))
    section = _section(par_report, "Rules of play")
    texts = [b.text for b in section.blocks if isinstance(b, Text)]
    for n, title in clauses:
        assert any(t.startswith(f"{n}. {title}. ") for t in texts), (n, title)
    rules = par_report.rules
    for rule in RULE_TABLE:  # every rule's reading in force, in the words of the rule table
        clause = next(t for t in texts if t.startswith(f"{rule.clause}. "))
        assert f"{rule.label}: {rule.words(getattr(rules, rule.name))}" in clause, rule.name


#: What each worked example must come to under the default reading, worked out by hand from
#: the rule text (the cards are in EXAMPLES): main outcome, Bonus outcome, dealer draws.
EXPECTED_EXAMPLES = (
    ("win", "loss", 2),  # 8 + Bonus ace = 19; dealer 5 2 + Bonus ace = 18 stands (cl. 7)
    ("loss", "loss", 2),  # 5 6 T = 21 of three cards; dealer A K natural beats it (cl. 9)
    ("loss", "loss", 0),  # T 6 9 = 25 against a Bonus 7: bust, no one to draw against (cl. 6)
    ("blackjack", "adjacent", 0),  # A with a Bonus K: 21 at once (cl. 5); A-K adjacent (4)
    ("win", "loss", 3),  # 9 8 = 17 (+3 = 20) stands; dealer T 4 (+3 = 17) draws 8: 22 (cl. 7)
    ("push", "loss", 1),  # 8 K = 18 (+T would pass); dealer 8 + Bonus T = 18 (cl. 7, 8)
    ("push", "loss", 2),  # A K = 21 of two own cards ties the dealer's A Q natural (cl. 9)
    ("win", "loss", 2),  # 9 K = 19 (+5 would pass 21); dealer K 3 + Bonus 5 = 18; 9-5 apart
)


def test_worked_examples_are_settled_by_the_engine(
    par_figures: ReportFigures, par_report: Report
) -> None:
    from solver.model.cards import parse_cards
    from solver.sim.deal import deal_stacked
    from solver.studies.verification import EXAMPLES, SPARE_CARDS, Draws

    examples = par_figures.examples
    assert len(examples) == len(EXPECTED_EXAMPLES) >= 5
    grid = _grid(par_report, "The game")
    for example, deal, row, (main_, bonus_, dealer_cards) in zip(
        examples, EXAMPLES, grid.rows, EXPECTED_EXAMPLES, strict=True
    ):
        # settled again through the simulator's public stacked deal, and as the rules read
        cards = parse_cards(f"{deal.cards} {SPARE_CARDS}")
        (again,) = deal_stacked(cards, par_figures.rules, Draws(deal.player_draws))
        assert again == example.result
        assert (example.result.main.value, str(example.result.bonus)) == (main_, bonus_)
        assert len(example.dealer) == dealer_cards
        if example.dealer:  # the dealer's total as the grid prints it
            shown = "busts" if example.dealer_total is None else f"total {example.dealer_total}"
            assert shown in row[3]
        dealt = (*example.player, example.bonus, *example.dealer)
        assert len(set(dealt)) == len(dealt)  # one deck could deal them
        assert row[0].startswith(f"{EXAMPLES.index(deal) + 1}. {deal.shows}")
        assert row[4].startswith(main_)
        assert _value(row[6]) == float(example.result.round_net)


def test_worked_examples_are_played_by_the_printed_chart_or_say_so(
    par_figures: ReportFigures, par_report: Report, games: MemoryCache
) -> None:
    """Under the default rules every example's player plays the printed chart's move at
    every decision, checked hand by hand against the chart; under the report's own rules
    (2 decks) a row whose play differs names the chart's play beside it."""
    from solver.exact.chart import stored_chart
    from solver.exact.game import solve_game
    from solver.model.cells import cell_of
    from solver.model.hands import hand_of, hard_total
    from solver.model.rules import Rules
    from solver.results.report import chart_differences
    from solver.studies.verification import worked_examples

    rules = Rules()
    chart = stored_chart(rules, solve_game(rules, exact=True, cache=games), games)
    for example in worked_examples(rules):
        assert chart_differences(example, chart) == (), example.deal.shows
        if example.result.main.value == "blackjack":
            continue
        for n in range(1, len(example.player) + 1):  # the twin: every decision, spelled out
            hand = hand_of(c.points for c in example.player[:n])
            if hard_total(hand) > 21:
                break
            move = chart.action(cell_of(hand), example.bonus.points).value
            assert move == ("H" if n < len(example.player) else "S"), example.deal.shows
    rows = _grid(par_report, "The game").rows
    for example, row in zip(par_figures.examples, rows, strict=True):
        other = chart_differences(example, par_figures.chart)
        assert ("not the chart's play" in row[2]) == bool(other)
        assert all(words in row[2] for words in other)


def test_a_play_the_chart_forbids_is_named() -> None:
    from solver.model.cards import Card, parse_cards
    from solver.model.cells import Action
    from solver.model.outcomes import MainOutcome
    from solver.results.report import ExampleDeal, WorkedExample, chart_differences
    from solver.results.simulation import SeatRound

    class StandOn16:  # a chart that stands from hard 16 up and hits below
        def action(self, cell: tuple[bool, int], bonus: int) -> Action:
            return Action.STAND if cell[1] >= 16 else Action.HIT

    result = SeatRound(MainOutcome.LOSE, "loss", Fraction(-1), Fraction(-1), Fraction(-3, 2))
    deal = ExampleDeal("a bust", (6,), "Th 4s 6d 9c", 2)
    bust = WorkedExample(deal, parse_cards("Th 6d 9c"), Card.parse("4s"), (), result, None, False)
    assert chart_differences(bust, StandOn16()) == ("the chart stands on hard 16 v 4",)


def test_definitions_are_given_once_and_the_signs_agree_everywhere(par_report: Report) -> None:
    from solver.present.report.content import shown_keys
    from solver.results.figures import FIGURES_BY_KEY, heading

    terms = [r[0] for r in _grid(par_report, "Definitions").rows]
    assert terms[0] == "sign convention" and len(terms) == len(set(terms))
    shown = shown_keys(par_report.sections)  # every figure the report's tables print, once
    # each defined under its label, or under its quantity with the other wagers' (one row)
    named = {k: (heading(k), FIGURES_BY_KEY[k].quantity) for k in shown}
    assert all(label in terms or quantity in terms for label, quantity in named.values())
    assert set(terms[1:]) <= {name for pair in named.values() for name in pair}
    for term in ("house edge", "hold", "hit frequency", "SD", "chance of being ahead"):
        assert terms.count(term) == 1
    summary = _grid(par_report, "Summary")
    edge = next(r for r in summary.rows if r[0] == "house edge")
    ev = next(r for r in summary.rows if r[0] == "EV")
    rtp = next(r for r in summary.rows if r[0] == "RTP")
    # house edge = minus the player's EV per unit staked (the round's EV is per main unit,
    # its edge per unit of the 3/2 wagered), and RTP = 100% less the house edge
    for column, staked in ((1, 1), (2, 1), (3, 1.5)):
        assert _value(edge[column]) == pytest.approx(-100 * _value(ev[column]) / staked, abs=6e-3)
        assert _value(rtp[column]) == pytest.approx(100 - _value(edge[column]), abs=2e-4)
    play = _grid(par_report, "Perfect play, the printed chart and realistic play")
    perfect = play.rows[0]
    assert perfect[1] == edge[1] and perfect[3] == edge[3]
    # the chart and realistic play cost the player: the casino's edge grows
    edges = [_value(r[3]) for r in play.rows]
    assert edges[0] <= edges[1] < edges[2]
    text = " ".join(b.text for s in par_report.sections for b in s.blocks if isinstance(b, Text))
    assert "no simulation" not in text and "players' gain" not in text
    assert "Negative values are the player's losses" not in text


def test_the_summary_equals_the_whole_round_on_its_basis(par_report: Report) -> None:
    """The Summary's round column is per main unit, as Whole round is: the same EV, SD,
    house edge, RTP and hit frequency, to the Summary's places."""
    summary = {r[0]: r for r in _grid(par_report, "Summary").rows}
    whole = _grid(par_report, "Whole round")
    total = whole.rows[-1]
    assert summary["EV"][3] == total[5]  # return per main unit, in the one format
    for words, row in (("SD", "SD"), ("House edge", "house edge"),
                       ("RTP", "RTP"), ("hit frequency", "hit frequency")):  # fmt: skip
        assert summary[row][3] in whole.caption.split(words, 1)[1][:30], words
    assert whole.figures()  # its cells are held to the catalogue too (tests/test_figures.py)
    keyed = {key: text for key, _, _, text in _grid(par_report, "Summary").figures()}
    assert keyed["round_ev"] == summary["EV"][3] and keyed["round_sd"] == summary["SD"][3]


def test_two_paytables_are_lettered_and_compared(par_report: Report) -> None:
    paytables = "; ".join(f"{k} {p}" for k, p in zip("AB", REPORT_PAYTABLES, strict=True))
    assert par_report.title_block.paytable.startswith(paytables)
    (bonus,) = [b for b in _section(par_report, "Bonus wager").blocks if isinstance(b, Grid)]
    assert bonus.caption.startswith("Paytable A ")
    compared = _grid(par_report, "Paytables compared")
    assert compared.headers[1:] == tuple(
        f"{k}: {p}" for k, p in zip("AB", REPORT_PAYTABLES, strict=True)
    )
    rows = {r[0]: r for r in compared.rows}
    main_ev = _value(_grid(par_report, "Main wager").rows[-1][-1])
    assert _value(rows["Bonus wager house edge"][1]) == pytest.approx(
        -100 * _value(bonus.rows[-1][-1]), abs=1e-3
    )
    for column in (1, 2):
        bonus_ev = -_value(rows["Bonus wager house edge"][column]) / 100
        round_edge = -(main_ev + bonus_ev / 2) / 1.5 * 100
        assert _value(rows["round house edge"][column]) == pytest.approx(round_edge, abs=1e-3)
    for line in bonus.rows[:-1]:  # true odds against an outcome are (1 - p) to p
        if line[5]:
            p = int(line[2].replace("\u202f", "")) / int(bonus.rows[-1][2].replace("\u202f", ""))
            assert _value(line[5]) == pytest.approx((1 - p) / p, abs=0.006)


def test_verification_shows_every_invariant_z_scores_chi_square_and_the_cut_card(
    par_figures: ReportFigures, par_report: Report
) -> None:
    (table,) = [b for b in _section(par_report, "Verification").blocks if isinstance(b, Grid)]
    checks = [row for row in table.rows if row[1] == "holds exactly"]
    assert len(checks) == len(par_figures.invariants) == 4
    assert all(row[3] == "passes" for row in table.rows)
    assert sum("z" in row[1] for row in table.rows) == 3
    assert sum("chi-square" in row[1] for row in table.rows) == 3
    names = " ".join(row[0] for row in checks)
    for words in ("sum to exactly 1", "EORs weighted", "every suit", "brute-force twin"):
        assert words in names.replace("whatever the suit", "every suit")
    # the chi-square over the return table, recomputed here from the counts
    fresh = par_figures.simulation
    counts = fresh.overall["round"].frequencies
    n = sum(counts.values())
    statistic = sum(
        (counts.get(f"{k}/{b}", 0) - n * float(p)) ** 2 / (n * float(p))
        for (k, b), p in par_figures.joint.items()
    )
    assert par_figures.return_table_test is not None
    assert par_figures.return_table_test.statistic == pytest.approx(statistic)
    assert par_figures.return_table_test.p_value > 1e-4
    section = _section(par_report, "Simulation cross-check")
    prose = " ".join(b.text for b in section.blocks if isinstance(b, Text))
    assert f"{statistic:.2f} on 13 degrees of freedom" in prose
    cut = [b for b in section.blocks if isinstance(b, Grid)][1]
    assert par_figures.cut_card.penetration == 0.75 and fresh.penetration is None
    assert [r[1] for r in cut.rows] == [_spaced(REPORT_SIZES["simulation_rounds"])] * 2
    for row in cut.rows:
        mean, low, high = (float(x) for x in re.findall(r"[\d.]+", row[2].replace("\u2212", "-")))
        assert low < mean < high


def test_the_invariants_fail_when_the_figures_are_wrong(
    par_figures: ReportFigures, monkeypatch: pytest.MonkeyPatch
) -> None:
    from solver.store.disk import Cache
    from solver.studies import report

    figures = par_figures
    broken = dict(figures.joint)
    broken[next(iter(broken))] += Fraction(1, 10**9)
    eor, cache = figures.protection.eor, Cache()  # the small shoe's games, stored
    checks = report.invariants(figures.game, broken, figures.chart, eor, cache)
    assert [c.holds for c in checks] == [False, True, True, True]
    monkeypatch.setattr(report, "brute_force_main_ev", lambda rules, shoe: Fraction(1))
    monkeypatch.setattr(
        report, "bonus_return_by_suit", lambda rules: {"s": Fraction(0), "h": Fraction(1)}
    )
    checks = report.invariants(figures.game, figures.joint, figures.chart, eor, cache)
    assert [c.holds for c in checks] == [True, True, False, False]


def test_the_brute_force_twin_meets_the_exact_solver_under_other_readings() -> None:
    from solver.exact.game import solve_game
    from solver.model.cards import Shoe
    from solver.model.rules import Rules
    from solver.studies.verification import brute_force_main_ev, small_shoe_removed

    removed = small_shoe_removed(1)
    shoe = Shoe.full(1).remove(removed)
    assert shoe.total == 16
    for rules in (
        Rules.from_options(decks=1, dealer_stands_on=17, natural_beats="non_blackjack"),
        Rules.from_options(decks=1, dealer_natural="bonus_card", blackjack_pays="6:5"),
        Rules.from_options(decks=1, dealer_bonus="must_use", dealer_stands_on=17),
    ):
        exact_ev = solve_game(rules, removed, exact=True).expected_value
        assert brute_force_main_ev(rules, shoe.value_counts()) == exact_ev


def test_the_bonus_return_by_suit_meets_the_bonus_analysis() -> None:
    from solver.exact.bonus import analyse_bonus
    from solver.model.rules import Rules
    from solver.studies.verification import bonus_return_by_suit

    rules = Rules.from_options(decks=1, paytable="30:5:2")
    assert set(bonus_return_by_suit(rules).values()) == {analyse_bonus(rules).expected_value}


def test_the_title_block_takes_who_and_leaves_blanks(par_figures: ReportFigures) -> None:
    from solver.present.report import build_report
    from solver.present.report.front import BLANK, Prepared

    given = Prepared("Lab X", "Casino Y", "first issue", "5 to 500", "one deck per shoe")
    filled = build_report(par_figures, given)
    rows = dict(filled.title_block.fields)
    assert (rows["Prepared by"], rows["Prepared for"], rows["Revision note"]) == (
        "Lab X", "Casino Y", "first issue")  # fmt: skip
    assert (rows["Table limits"], rows["Procedures"]) == ("5 to 500", "one deck per shoe")
    game = " ".join(b.text for b in _section(filled, "The game").blocks if isinstance(b, Text))
    assert "Table limits: 5 to 500" in game and "Procedures: one deck per shoe" in game
    blank = dict(build_report(par_figures).title_block.fields)
    assert blank["Prepared by"] == blank["Prepared for"] == blank["Revision note"] == BLANK
    assert "Table limits" not in blank and "Procedures" not in blank  # stated when given
    assert blank["Rules hash"]
    command = _fields(filled, "Reproducibility manifest")["Command"]
    assert (
        "--prepared-by 'Lab X' --prepared-for 'Casino Y' --revision-note 'first issue' "
        "--table-limits '5 to 500' --procedures 'one deck per shoe'"
    ) in command


def test_the_figures_hash_covers_exact_figures_only(par_figures: ReportFigures) -> None:
    from dataclasses import replace

    from solver.present.report.verification import figures_hash

    digest = figures_hash(par_figures)
    assert re.fullmatch(r"[0-9a-f]{64}", digest)
    assert figures_hash(replace(par_figures, sizes=(), cut_card=par_figures.simulation)) == digest
    assert figures_hash(replace(par_figures, paytables=par_figures.paytables[:1])) != digest


def test_the_manifest_command_rebuilds_the_same_figures_and_pdf(
    par_report: Report, par_figures: ReportFigures, pdf: bytes, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    # The manifest's own command line, run: it reads the games the session's report stored,
    # so the PDF also survives the disk cache's round trip byte for byte.
    import shlex

    from solver.present.report.verification import figures_hash

    manifest = _fields(par_report, "Reproducibility manifest")
    assert manifest["Figures hash (SHA-256)"] == figures_hash(par_figures)
    assert par_report.title_block.figures_hash == figures_hash(par_figures)[:12]
    assert manifest["Software"] == f"community-blackjack {par_report.title_block.software}"
    for library in ("Python", "numpy", "reportlab"):
        assert re.fullmatch(r"\d+\.\d+[.\w]*", manifest[f"{library} version"])
    words = shlex.split(manifest["Command"])
    assert words[:2] == ["cbj", "report"] and words[-2:] == ["-o", "cbj-2d-15-4-1-report.pdf"]
    assert words.count("--paytable") == len(REPORT_PAYTABLES)
    for name, size in REPORT_SIZES.items():
        assert f"--{name.replace('_', '-')} {size}" in manifest["Command"]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    with pytest.raises(SystemExit) as stop:
        main([*words[1:-1], str(tmp_path / words[-1])])  # the file the manifest names
    assert stop.value.code == 0 and "wrote" in capsys.readouterr().err
    rebuilt = (tmp_path / words[-1]).read_bytes()
    assert rebuilt == pdf  # the same figures (and hash), page for page


def test_report_figures_report_progress_by_step(par_figures: ReportFigures) -> None:
    from solver.studies.report import STEPS
    from tests.conftest import REPORT_PROGRESS

    assert [(k, len(STEPS)) for k in range(1, len(STEPS) + 1)] == REPORT_PROGRESS


def test_cross_checks_are_stored_and_read_back_whole(
    par_figures: ReportFigures, tmp_path: Path
) -> None:
    from solver.store.disk import DiskCache
    from solver.store.study_codecs import decode_simulation, encode_simulation
    from solver.studies.report import SIMULATION_SEED, cross_check, optimal_play

    stored = par_figures.cut_card
    assert decode_simulation(encode_simulation(stored)) == stored
    game = par_figures.game
    played = optimal_play(game)
    disk = DiskCache(tmp_path / "store")
    first = cross_check(game, played, 2_000, 0.75, 1, disk)
    assert first.seed == SIMULATION_SEED and first.rounds == 2_000
    calls: list[int] = []
    # read back, not dealt again: the store answers without calling compute
    again = disk.fetch(
        SIMULATION,
        Key(game.rules, settings={"strategy": played.name, "rounds": 2_000,
            "seed": SIMULATION_SEED, "penetration": 0.75, "seats": 1, "chunk_rounds": 1 << 17}),
        lambda: calls.append(1) or first,  # type: ignore[func-returns-value]
    )  # fmt: skip
    assert again == first and not calls
    assert cross_check(game, played, 2_000, None, 1, disk) != first  # another shoe, another entry
    memory = MemoryCache()
    assert cross_check(game, played, 2_000, 0.75, 1, memory) == first  # the same seeded deal


def test_the_core_is_at_most_eight_pages_and_the_whole_at_most_nineteen(
    par_figures: ReportFigures, pdf: bytes
) -> None:
    """A lab reads the core in at most eight A4 pages (six on 2026-12-06); with its annexes
    the PDF is no longer than the 19 pages of the report before it had a core."""
    from solver.present.report import build_report, render_pdf

    core = PdfReader(io.BytesIO(render_pdf(build_report(par_figures, core_only=True))))
    assert len(core.pages) <= 8
    text = " ".join(page.extract_text() for page in core.pages)
    assert "Reproducibility manifest" in text and "Annex A. Rules in full" not in text
    assert len(PdfReader(io.BytesIO(pdf)).pages) <= 19
