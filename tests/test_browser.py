"""Every HTML output rendered in a real browser: phones, printing to A4, colours, no network.

Headless Chromium (tests/browsers.py: skipped when missing, but never in CI) opens the
report and every chart page of ``strategy_tables/``.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from solver.present.collection import VARIANTS
from solver.present.report import build_report, render_html
from solver.results.report import ReportFigures
from tests.browsers import DESKTOP, PHONE
from tests.colour_vision import (
    DEUTERANOPIA,
    PROTANOPIA,
    contrast_ratio,
    delta_e,
    linear_of,
    simulate,
)

ROOT = Path(__file__).resolve().parent.parent
CHART_PAGES = sorted((ROOT / "strategy_tables").glob("*/*.html"))


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    """Headless Chromium: the session's (tests/conftest.py)."""
    return chromium


@pytest.fixture(scope="module")
def tab(browser: Any) -> Iterator[Tab]:
    """One browser tab that every page of this module is opened in, one after another."""
    opened = Tab(browser)
    yield opened
    opened.page.close()


@pytest.fixture(scope="module")
def report_page(report_html: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("browser") / "report.html"
    path.write_text(report_html, encoding="utf-8")
    return path


class Tab:
    """A browser tab, with what it logged and asked for since the last page was opened in it.

    Opening a tab costs about a third of a second of Chromium's time, as much as loading a
    page, so the pages share one: each is navigated to afresh (a new document, nothing kept
    from the one before: the pages have no scripts, cookies or storage).
    """

    def __init__(self, browser: Any) -> None:
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page = browser.new_page(viewport=PHONE)
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))


class Visit:
    """One page opened at a phone's width in the module's tab, with what it logged and asked for."""

    def __init__(self, tab: Tab, path: Path) -> None:
        # Straight from the page before, without a stop at about:blank (80 ms of Chromium's
        # time a page): that page was checked to have no scripts, so once it has been
        # checked (at both widths and printed) it asks for nothing and logs nothing more.
        tab.page.set_viewport_size(PHONE)
        tab.errors.clear()
        tab.requests.clear()
        self.errors, self.requests, self.page = tab.errors, tab.requests, tab.page
        self.url = path.as_uri()
        self.page.goto(self.url, wait_until="load")

    def overflow(self) -> int:
        """How far the page is wider than the window (0 when it fits)."""
        width: int = self.page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        return width

    def printed_pages(self) -> int:
        """Pages when printed to A4 from the browser."""
        data = self.page.pdf(format="A4")
        return len(PdfReader(io.BytesIO(data)).pages)

    def printed_text(self) -> list[str]:
        """Each page's text when printed to A4 from the browser (ligatures such as "fi"
        written as their letters)."""
        data = self.page.pdf(format="A4")
        pages = PdfReader(io.BytesIO(data)).pages
        return [unicodedata.normalize("NFKC", page.extract_text()) for page in pages]

    def outside_requests(self) -> list[str]:
        """Requests other than the page itself (fonts, images, scripts, anything)."""
        return [u for u in self.requests if u != self.url]

    def cell_colours(self, letter: str) -> set[str]:
        """Computed background colours of the chart cells that show ``letter``."""
        colours: list[str] = self.page.evaluate(
            """(letter) => Array.from(document.querySelectorAll('table.chart td, table.compact td'))
                .filter(td => td.textContent.trim().replace(/[\\d\\u00b9\\u00b2\\u00b3]+$/, '')
                              === letter)
                .map(td => getComputedStyle(td).backgroundColor)""",
            letter,
        )
        return {_hex(c) for c in colours}

    def hidden_cells(self) -> list[str]:
        """Table cells at least partly off screen, but those of a visibly scrollable region.

        Such a region scrolls sideways (``overflow-x: auto`` and wider content), is labelled
        for assistive technology, has a visible cue before it, and the table's caption is
        outside it. Cells of a visually hidden header row (a stacked table's) are skipped.
        """
        cells: list[str] = self.page.evaluate(
            """() => {
              const out = [];
              const hidden = el => { const h = el.closest('thead');
                return h && getComputedStyle(h).position === 'absolute'; };
              for (const cell of document.querySelectorAll('td, th')) {
                const box = cell.getBoundingClientRect();
                if (box.width === 0 || hidden(cell)) continue;
                if (box.left >= -0.5 && box.right <= window.innerWidth + 0.5) continue;
                const region = cell.closest('.scroll');
                const table = cell.closest('table');
                const caption = table && document.getElementById(
                  table.getAttribute('aria-describedby') || '');
                const cue = region && region.previousElementSibling;
                const visible = region
                  && getComputedStyle(region).overflowX === 'auto'
                  && region.scrollWidth > region.clientWidth
                  && region.getAttribute('role') === 'region' && region.getAttribute('aria-label')
                  && cue && cue.classList.contains('cue') && cue.getClientRects().length > 0
                  && (!caption || !region.contains(caption));
                if (!visible) out.push(cell.textContent.trim().slice(0, 40));
              }
              return out;
            }"""
        )
        return cells

    def small_text(self) -> list[str]:
        """Visible text under 12 CSS pixels, plot text (scaled with its SVG) included."""
        small: list[str] = self.page.evaluate(
            """() => {
              const out = [];
              const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
              while (walker.nextNode()) {
                const node = walker.currentNode;
                const el = node.parentElement;
                if (!node.textContent.trim() || el.getClientRects().length === 0) continue;
                if (el.closest('metadata, style, title')) continue;
                const head = el.closest('thead');
                if (head && getComputedStyle(head).position === 'absolute') continue;
                let size = parseFloat(getComputedStyle(el).fontSize);
                const svg = el.closest('svg');
                if (svg && svg.viewBox.baseVal && svg.viewBox.baseVal.width) {
                  size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                }
                if (size < 11.95) out.push(`${node.textContent.trim().slice(0, 20)}: ${size}`);
              }
              return out;
            }"""
        )
        return small

    def small_targets(self) -> list[str]:
        """Links smaller than 24 x 24 CSS pixels (WCAG 2.2's minimum target size)."""
        small: list[str] = self.page.evaluate(
            """() => Array.from(document.querySelectorAll('a'))
                .filter(a => a.getClientRects().length > 0)
                .map(a => [a, a.getBoundingClientRect()])
                .filter(([a, r]) => r.height < 23.5 || r.width < 23.5)
                .map(([a, r]) => `${a.textContent.trim()}: ${r.width}x${r.height}`)"""
        )
        return small

    def link_colours(self) -> list[tuple[str, str]]:
        """Each chart link's text colour and its cell's background."""
        pairs: list[list[str]] = self.page.evaluate(
            """() => Array.from(document.querySelectorAll('td a')).map(a =>
                [getComputedStyle(a).color, getComputedStyle(a.closest('td')).backgroundColor])"""
        )
        return [(_hex(text), _hex(ground)) for text, ground in pairs]

    def headings_ending_printed_pages(self) -> list[str]:
        """The headings that are the last text of a page when printed to A4."""
        headings = set(
            self.page.evaluate(
                "Array.from(document.querySelectorAll('h1, h2')).map(h => h.textContent.trim())"
            )
        )
        data = self.page.pdf(format="A4")
        ending = []
        for page in PdfReader(io.BytesIO(data)).pages:
            lines = [line.strip() for line in page.extract_text().splitlines() if line.strip()]
            if lines and lines[-1] in headings:
                ending.append(lines[-1])
        return ending


def _hex(css: str) -> str:
    """``rgb(255, 208, 138)`` as ``#ffd08a``."""
    r, g, b = (int(n) for n in re.findall(r"\d+", css)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def _check_page(tab: Tab, path: Path, max_pages: int) -> int:
    """The checks every HTML output must pass; returns its printed page count.

    The page opens at a phone's width, then the same window is widened to a desktop's:
    the pages are HTML and CSS without scripts, so the widened page lays out as one
    opened at that width (its media queries apply anew), and a second load, about a
    third of these tests' time, would show nothing more.
    """
    visit = Visit(tab, path)
    assert visit.errors == []
    assert visit.outside_requests() == []
    assert visit.overflow() <= 0, f"{path.name} scrolls sideways at 390 px"
    hit, stand = visit.cell_colours("H"), visit.cell_colours("S")
    assert len(hit) == 1 and len(stand) == 1, (hit, stand)
    (hit_colour,), (stand_colour,) = hit, stand
    for matrix in (DEUTERANOPIA, PROTANOPIA):
        assert delta_e(simulate(hit_colour, matrix), simulate(stand_colour, matrix)) > 40
    assert visit.hidden_cells() == [], f"{path.name}: table content off screen at 390 px"
    assert visit.small_text() == [], f"{path.name}: text under 12 px at 390 px"
    assert visit.small_targets() == [], f"{path.name}: links under 24 px at 390 px"
    for text, ground in visit.link_colours():
        assert contrast_ratio(linear_of(text), linear_of(ground)) >= 4.5, (text, ground)
    assert visit.page.evaluate("document.scripts.length") == 0  # what the widening assumes
    visit.page.set_viewport_size(DESKTOP)
    assert visit.page.evaluate("window.innerWidth") == DESKTOP["width"]
    assert visit.errors == [] and visit.overflow() <= 0
    assert visit.headings_ending_printed_pages() == []
    pages = visit.printed_pages()
    assert 1 <= pages <= max_pages
    assert visit.outside_requests() == []
    return pages


@pytest.mark.parametrize("path", CHART_PAGES, ids=lambda p: p.parent.name)
def test_chart_page_in_a_browser(tab: Tab, path: Path) -> None:
    assert _check_page(tab, path, max_pages=1) == 1


def test_every_variant_has_a_chart_page() -> None:
    assert len(CHART_PAGES) == len(VARIANTS)


# Runs on the worker that built the session's report (conftest groups its users).
def test_report_in_a_browser(tab: Tab, report_page: Path) -> None:
    # 14 on 2026-12-05 with the lab's sections, the Definitions of every figure printed, the
    # paytables compared and the round's combinations (issue 36), and the protection section
    assert _check_page(tab, report_page, max_pages=16) <= 16


def test_the_core_alone_prints_on_at_most_eight_pages(
    tab: Tab, par_figures: ReportFigures, tmp_path: Path
) -> None:
    """A lab reads the core in at most eight A4 pages, printed from a browser (5 for this
    2-deck game on 2026-12-06); ``--core-only`` leaves the annexes out."""
    path = tmp_path / "core.html"
    path.write_text(render_html(build_report(par_figures, core_only=True)), encoding="utf-8")
    pages = Visit(tab, path).printed_text()
    assert 1 < len(pages) <= 8
    assert "Reproducibility manifest" in pages[-1] and not any("Annex A." in p for p in pages)


def test_the_printed_report_has_page_numbers_and_a_running_header(
    tab: Tab, report_page: Path
) -> None:
    """CSS page-margin boxes, which Chromium prints (131 and later): the title and the
    figures hash at the top of every page, the generator and "page N of M" at its foot."""
    visit = Visit(tab, report_page)
    visit.page.set_viewport_size(DESKTOP)
    pages = visit.printed_text()
    assert len(pages) > 1
    for n, text in enumerate(pages, start=1):
        assert re.search(rf"\bpage {n} of {len(pages)}(?!\d)", text), (n, text[:300])
        # the 2-deck game's rules are no preset's: its title says so
        assert "own rules: 2 decks: Mathematical analysis of the game (PAR sheet)" in text, n
        assert "figures hash " in text and "cbj 0.1.0, commit " in text, n  # header, footer


def test_a_phone_shows_no_header_of_a_two_column_table_of_words_on_each_card(
    tab: Tab, report_page: Path
) -> None:
    """The manifest's cards are "Command / cbj report ...", not "value: ..."."""
    visit = Visit(tab, report_page)
    labels = visit.page.evaluate(
        """() => Array.from(document.querySelectorAll('#s9 td')).map(td =>
            getComputedStyle(td, '::before').content)"""
    )
    assert labels and all(label in ("none", '""', "normal") for label in labels), labels
    numbers = visit.page.evaluate(
        """() => Array.from(document.querySelectorAll('#s4 td:not(:first-child)')).map(td =>
            getComputedStyle(td, '::before').content)"""
    )
    assert numbers and all(label.strip('"') for label in numbers)  # figures keep their header
