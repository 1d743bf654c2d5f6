"""The Sensitivity page in Chromium at a phone's width and a desktop's (issue 47): a sweep
asked for through the form, shows its plot
and its table (the API's figures, the game in force marked) with no sideways scroll, and
axe-core finds nothing wrong; a bad range is said beside its field.  The session's
``cbj serve`` (tests/conftest.py) serves it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

import solver
from solver.model.errors import CbjError
from solver.present.sweep import SWEEP_FIGURES
from tests.browsers import DESKTOP, PHONE
from tests.conftest import GAMES
from tests.test_practice_browser import (
    _tab,
    _when,
    axe_source,
    axe_violations,
    no_sideways_scroll,
)

ROWS = "table.sweep tbody tr"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_a_sweep_asked_for_on_the_page_is_plotted_and_tabled(
    chromium: Any, workbench: str, viewport: dict[str, int]
) -> None:
    page = _tab(chromium, viewport)
    try:
        page.goto(workbench + "/sensitivity?decks=2", wait_until="load")  # the game carried
        assert page.input_value("#f-decks") == "2"
        page.select_option("#f-vary", "suited-match")
        page.fill("#f-start", "10")
        page.fill("#f-stop", "20")
        page.fill("#f-step", "2.5")
        page.click("#sensitivity-form button[type=submit]")
        _when(page, f"document.querySelectorAll('{ROWS}').length === 5")
        page.wait_for_load_state("load")
        expected = solver.sweep(vary="suited-match", start=10, stop=20, step="2.5", decks=2,
                                cache=GAMES)  # fmt: skip
        rows = page.eval_on_selector_all(
            ROWS,
            "rs => rs.map(r => [r.dataset.value, r.classList.contains('in-force'),"
            " [...r.querySelectorAll('td')].map(d => [d.dataset.key, Number(d.dataset.value)])])",
        )
        assert [Fraction(value) for value, _, _ in rows] == [p.value for p in expected.points]
        assert [marked for _, marked, _ in rows] == [False, False, True, False, False]  # 15:4:1
        for (_, _, cells), point in zip(rows, expected.points, strict=True):
            assert cells == [[key, float(getattr(point, key))] for key in SWEEP_FIGURES]
        assert page.is_visible("tr.in-force mark")
        plot = "figure.sweep-plot svg[role=img]"
        shown = page.eval_on_selector_all(plot, "ss => ss.filter(s => s.getClientRects().length)")
        assert len(shown) == 1  # the phone's drawing or the wide one, never both
        box = page.locator(plot).locator("visible=true").bounding_box()
        assert box is not None and 300 <= box["width"] <= viewport["width"]
        no_sideways_scroll(page)
        assert axe_violations(page, axe_source()) == []
        page.fill("#f-stop", "5")  # an empty range: said beside the field, nothing solved
        page.click("#sensitivity-form button[type=submit]")
        page.wait_for_selector("#error-stop:not(:empty)")
        with pytest.raises(CbjError) as refused:
            solver.sweep(vary="suited-match", start=10, stop=5)
        assert page.inner_text("#error-stop") == str(refused.value)
        assert page.get_attribute("#f-stop", "aria-invalid") == "true"
        no_sideways_scroll(page)
        assert page.errors == []
    finally:
        page.context.close()
