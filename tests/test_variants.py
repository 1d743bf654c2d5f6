"""``cbj variants``: every combination of the rule values listed, in order, and each row
what ``solver.solve`` gives for that combination's rules solved on their own; the float
rows agree with the exact ones."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

import solver
from solver.exact.bonus import analyse_bonus
from solver.model.rules import Rules
from solver.results.paytable import Variants
from tests.conftest import GAMES
from tests.paytables import run

#: Two rules with two values each, on small shoes (each solve about a second of CPU).
LISTED = {"decks": "1,2", "dealer_stands_on": "17,18"}


def test_cli_variants_lists_every_combination(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["variants", "--decks", "1,2", "--blackjack-pays", "3:2,6:5", "--format", "json"]
    status, out, _ = run(argv, capsys)
    assert status == 0
    rows = json.loads(out)["variants"]
    assert [(r["rules"]["decks"], r["rules"]["blackjack_pays"]) for r in rows] == [
        (1, "3:2"), (1, "6:5"), (2, "3:2"), (2, "6:5")
    ]  # fmt: skip
    for row in rows:
        rules = Rules(decks=row["rules"]["decks"])
        assert Fraction(row["bonus_expected_value"]["exact"]) == analyse_bonus(rules).expected_value
    status, _, err = run(["variants", "--decks", "1,,2"], capsys)
    assert status == 2 and "empty item" in err
    status, _, err = run(["variants", "--dealer-natural", "sometimes"], capsys)
    assert status == 2 and "sometimes" in err


def variants(exact: bool) -> Variants:
    return solver.variants(exact=exact, cache=GAMES, **LISTED)  # type: ignore[arg-type]


def test_each_row_is_the_solve_of_its_own_rules() -> None:
    found = variants(exact=True)
    assert [(v.rules.decks, v.rules.dealer_stands_on) for v in found.variants] == [
        (1, 17), (1, 18), (2, 17), (2, 18)
    ]  # fmt: skip
    for row in found.variants:
        assert row.rules == Rules(
            decks=row.rules.decks, dealer_stands_on=row.rules.dealer_stands_on
        )
        alone = solver.solve(rules=row.rules, exact=True, cache=GAMES)
        assert row.main_expected_value == alone.expected_value
        assert alone.bonus is not None
        assert row.bonus_expected_value == alone.bonus.expected_value
        assert row.round_house_edge == alone.round_house_edge
    assert len({row.main_expected_value for row in found.variants}) == 4


def test_float_rows_agree_with_the_exact_ones() -> None:
    exact, fast = variants(exact=True), variants(exact=False)
    for e, f in zip(exact.variants, fast.variants, strict=True):
        assert e.rules == f.rules
        assert isinstance(f.main_expected_value, float)
        assert math.isclose(f.main_expected_value, e.main_expected_value, abs_tol=1e-12)
        assert math.isclose(f.round_house_edge, e.round_house_edge, abs_tol=1e-12)
        assert f.bonus_expected_value == e.bonus_expected_value  # the Bonus is exact in both
