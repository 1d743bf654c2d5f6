"""Every public function of :mod:`solver` fed arbitrary values: a result, a ``CbjError`` or a
``TypeError`` that names the parameter, never an internal exception (issue 27).

Each function is called from a cheap valid call (:data:`CALLS`: one deck, a few rounds,
two shoes) with one or two of its parameters replaced by arbitrary values of every type:
whole numbers small, huge and negative, floats with NaN and infinities, fractions,
decimals, complex numbers, text (digits of other scripts, ratios, long words), bytes,
None, booleans, lists, tuples, dicts, objects, cards and rules.  Whole numbers are drawn
either small (at most 8) or out of every documented range, so that no valid call deals,
samples or searches much; ``jobs`` above 1 (worker processes), ``cache=None`` (a solve
without the shared store) and rules other than the one-deck game are left out for the
same reason, and the two commands that take minutes when valid (``report``, ``tables``)
stop with :class:`Reached` once past their checks.  The rule options go through one door
(:func:`~solver.api.call.call` and ``Rules.from_options``) in every function, so
they are fuzzed on the commands that solve nothing (``rules``, ``bonus``, ``dealer``)
and on every function only in the soak run.

Beside the random search, every value of ``tests/hostile.py`` (issue 50: integers past the
int-to-text limit, numpy scalars and arrays, bytes, NaN and infinities, booleans where
numbers belong, huge strings) goes to every parameter of every function, every public
constructor (``Rules``, ``Paytable``, cards and shoes, the caches) and every field of a
practice state, one at a time; no message is longer than 300 characters.
"""

from __future__ import annotations

import functools
import inspect
import json
import math
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver as typed_solver
from solver.api.rules import RuleOptions
from solver.api.table import COMMANDS
from solver.model.cards import Card
from solver.model.checks import is_whole
from solver.model.errors import CbjError
from solver.model.rules import Paytable, Rules
from solver.present.charts import to_csv
from solver.store.memory import MemoryCache
from tests.hostile import HOSTILE, MAX_MESSAGE

#: The API untyped: these tests hand it values of every type on purpose.
solver: Any = typed_solver


class Reached(Exception):
    """Raised in place of a command's long work: its arguments passed every check."""


#: The public functions: one per row of the command table.
FUNCTIONS = sorted(command.function for command in COMMANDS if command.api)
#: The rule options every function that takes ``**options`` accepts.
RULE_OPTIONS = tuple(RuleOptions.__annotations__)
#: One cheap valid call of each function (the shared store is added as ``cache``).
CALLS: dict[str, dict[str, Any]] = {
    "advise": {"bonus": "K", "hand": "9 3", "decks": 1},
    "attack": {"samples": 2, "paths": 1, "rounds": 1_000, "decks": 1},
    "bet": {"count": "hi-lo", "samples": 2, "decks": 1},
    "bonus": {"decks": 1},
    "cache_clear": {"directory": "cache"},
    "cache_info": {"directory": "cache"},
    "chart": {"decks": 1},
    "chart_check": {"decks": 1},  # and the one-deck best chart's file (``chart_file``)
    "chart_costs": {"decks": 1},
    "count": {"system": "hi-lo", "decks": 1},
    "dealer": {"bonus": 10, "decks": 1},
    "eor": {"decks": 1},
    "graph": {"bonus": "K", "hand": "9 3", "decks": 1},
    "hold": {"rounds": 2, "result": 0, "decks": 1},
    "hold_series": {"text": "date,rounds,win,drop\n2026-01-01,10,1,30\n", "decks": 1},
    "indices": {"count": "hi-lo", "samples": 2, "decks": 1},
    "paytable_search": {"max_pay": 3, "top": 2, "decks": 1},
    "paytable_solve": {"solve_for": "adjacent", "target_bonus_edge": "0.05", "decks": 1},
    "practice_play": {"play": "stand"},  # and a one-deck session's state (``practice_state``)
    "practice_start": {"seed": 1, "decks": 1},
    "report": {"shoe_samples": 2, "decks": 1},
    "rules": {},
    "seats": {"seats": "1", "rounds": 10, "seed": 1, "strategy": "always-stand", "decks": 1},
    "session": {"rounds": 2, "decks": 1},
    "shoe_states": {"samples": 2, "depths": "0.5", "seed": 1, "decks": 1},
    "simulate": {"rounds": 10, "seed": 1, "strategy": "always-stand", "decks": 1},
    "solve": {"decks": 1},
    "strategies": {"names": "always-stand", "bonus_ratios": "1", "decks": 1},
    "sweep": {"vary": "dealer-stands-on", "start": 17, "stop": 18, "decks": 1},
    "tables": {"output_dir": "tables"},
    "variants": {"decks": "1"},
}
#: The functions that solve nothing, whose rule options are fuzzed in the default run.
RULES_ONLY = ("bonus", "dealer", "rules")
#: Parameters whose valid values take long: the values drawn for them leave those out.
COSTLY: dict[str, Callable[[Any], bool]] = {
    "jobs": lambda value: is_whole(value) and value > 1,
    "cache": lambda value: value is None,
    "rules": lambda value: isinstance(value, Rules) and value != Rules(decks=1),
    "symbolic": lambda value: value is True,
    "exact": lambda value: value is True,
    "names": lambda value: not isinstance(value, str),  # a list of valid names is slow
    "removed": lambda value: _has_card(value),  # each new shoe is a new solve
}


def _has_card(value: object) -> bool:
    """``value`` is, or holds, a card that the shoe could give up."""
    if isinstance(value, list | tuple):
        return any(_has_card(item) for item in value)
    return isinstance(value, Card) or (isinstance(value, str) and value in ("As Kd", "K"))


#: Parameters that name files: only relative paths (under the test's folder) are drawn.
PATHS = ("directory", "output", "output_dir")

WHOLE = st.one_of(
    st.integers(-5, 8),
    st.integers(10**12, 10**40),
    st.integers(-(10**40), -(10**12)),
    # past Python's 4,300-digit limit on an int's text (issue 41): made, not listed, so that
    # hypothesis never has to print one
    st.sampled_from([1, -1]).map(lambda sign: sign * 10**5000),
)
FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -0.0, 0.5, 0.75, 1.5, 2.0]),
)
TEXTS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        [
            "",
            " ",
            "1",
            "2",
            "3/2",
            "6:5",
            "1:0",
            "0/0",
            "1e400",
            "nan",
            "inf",
            "-1",
            "0.5",
            "\u0662",  # Arabic-Indic 2
            "\u0661\u0665:4:1",
            "\uff13",  # fullwidth 3
            "\u216b",  # Roman numeral twelve
            "15:4:1",
            "As Kd",
            "K",
            "all",
            "hi-lo",
            "A=-1,2=1",
            "optimal",
            "1-7",
            "x" * 300,
        ]
    ),
)
SCALARS = st.one_of(
    WHOLE,
    FLOATS,
    st.fractions(),
    st.decimals(allow_nan=True, allow_infinity=True),
    st.complex_numbers(max_magnitude=10),
    TEXTS,
    st.binary(max_size=4),
    st.none(),
    st.booleans(),
    st.sampled_from([object(), Card.parse("As"), Rules(decks=1), Paytable(), Path("x")]),
    # (a lone surrogate is left to LEAKS_41: in a warning it could not cross to xdist's
    # controller, which needs UTF-8)
    st.sampled_from([np.float64(1.5), np.int64(2), np.float32("nan"), b"x", "a\0"]),
)
VALUES = st.one_of(
    SCALARS,
    st.lists(SCALARS, max_size=3),
    st.lists(SCALARS, max_size=3).map(tuple),
    st.dictionaries(st.one_of(TEXTS, WHOLE), SCALARS, max_size=3),
)


def parameters(name: str, *, every_rule: bool) -> list[str]:
    """The parameters of function ``name`` the fuzz replaces."""
    signature = inspect.signature(getattr(solver, name))
    named = [p for p, spec in signature.parameters.items() if spec.kind is not spec.VAR_KEYWORD]
    takes_options = any(s.kind is s.VAR_KEYWORD for s in signature.parameters.values())
    if takes_options and (every_rule or name in RULES_ONLY):
        named += [option for option in RULE_OPTIONS if option not in named]
    return [p for p in named if p not in ("progress", "warn")]


def value_for(parameter: str) -> st.SearchStrategy[Any]:
    """Arbitrary values for ``parameter``, less those that would take long."""
    drawn = VALUES
    if parameter in COSTLY:
        drawn = drawn.filter(lambda value: not COSTLY[parameter](value))
    if parameter in PATHS:
        drawn = drawn.filter(
            lambda value: (
                not isinstance(value, str | Path)
                or not (str(value).startswith(("/", "~")) or ".." in str(value))
            )
        )
    return drawn


def replaced(name: str, every_rule: bool) -> st.SearchStrategy[dict[str, Any]]:
    """One or two of the parameters of ``name``, each with an arbitrary value."""
    names = parameters(name, every_rule=every_rule)
    return st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True).flatmap(
        lambda chosen: st.fixed_dictionaries({p: value_for(p) for p in chosen})
    )


@pytest.fixture(scope="module")
def store(games: MemoryCache) -> MemoryCache:
    """The session's shared store, holding the one-deck game solved once."""
    solver.solve(decks=1, exact=True, cache=games)
    return games


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private working folder and cache folder; the long work of two commands stubbed."""

    def reached(*args: object, **kwargs: object) -> None:
        raise Reached

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CBJ_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("solver.studies.report.edge_model", reached)
    monkeypatch.setattr("solver.api.files.solve_game", reached)
    yield tmp_path


@pytest.fixture(scope="module")
def chart_file(store: MemoryCache, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one-deck game's best chart as a CSV file, so that ``chart_check`` succeeds too."""
    path = tmp_path_factory.mktemp("chart") / "best.csv"
    path.write_text(to_csv(solver.chart(decks=1, cache=store)), encoding="utf-8")
    return path


@functools.cache
def practice_state(store: MemoryCache) -> dict[str, Any]:
    """A one-deck practice session's state, a hand in play (as the page sends it)."""
    seed = 1
    while True:
        turn = solver.practice_start(seed=seed, decks=1, cache=store)
        if turn.state.hand is not None:
            return dict(turn.to_json()["state"])
        seed += 1


def call(name: str, store: MemoryCache, chart: Path, given: dict[str, Any]) -> str:
    """Call function ``name`` with ``given`` over its cheap call; only good ends pass.

    How it ended: ``"result"``, ``"refused"`` (a ``CbjError``), ``"reached"`` (past the
    checks of a command whose long work is stubbed) or ``"wrong type"`` (a named one).
    """
    function = getattr(solver, name)
    arguments = dict(CALLS[name])
    accepted = inspect.signature(function).parameters
    if "cache" in accepted:
        arguments["cache"] = store
    if "file" in accepted:
        arguments["file"] = chart
    if name == "practice_play":
        arguments["state"] = practice_state(store)
    arguments.update(given)
    try:
        result = function(**arguments)
    except CbjError as error:
        assert len(str(error)) <= MAX_MESSAGE, (name, list(given), str(error)[:400])
        return "refused"
    except Reached:
        return "reached"
    except TypeError as error:
        assert_named(error, given)
        return "wrong type"
    document = getattr(result, "to_json", None)
    if document is not None:
        json.dumps(document(), allow_nan=False)  # no NaN or infinity reaches the JSON
    return "result"


def assert_named(error: TypeError, given: dict[str, Any]) -> None:
    """A wrong type is named (the parameter, or one inside it, is in the message), shortly."""
    words = str(error).replace("_", " ")
    assert any(p.replace("_", " ") in words for p in given), (list(given), error)
    assert len(str(error)) <= MAX_MESSAGE, (list(given), str(error)[:400])


def test_every_function_has_a_cheap_call() -> None:
    """A new row of the command table gets its cheap call here, so that the fuzz reaches it;
    every row is a public function of :mod:`solver`."""
    assert sorted(CALLS) == FUNCTIONS
    for name in FUNCTIONS:
        assert inspect.isfunction(getattr(solver, name)) and name in solver.__all__


def fuzzing(max_examples: int, *, every_rule: bool) -> Callable[..., None]:
    """A test that calls each public function ``max_examples`` times with one or two of its
    parameters replaced by arbitrary values (every rule option too if ``every_rule``)."""

    @pytest.mark.parametrize("name", FUNCTIONS)
    @settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much],
    )
    @given(data=st.data())
    def test(
        name: str, data: st.DataObject, store: MemoryCache, chart_file: Path, sandbox: Path
    ) -> None:
        call(name, store, chart_file, data.draw(replaced(name, every_rule=every_rule)))

    made: Callable[..., None] = test  # hypothesis's decorators type it Any
    return made


@pytest.mark.parametrize("name", FUNCTIONS)
def test_every_cheap_call_is_valid(
    name: str, store: MemoryCache, chart_file: Path, sandbox: Path
) -> None:
    """Each cheap call as it stands gets past every check, so the fuzz starts from a success
    (``chart_check`` reads a real chart) and not from a refusal."""
    assert call(name, store, chart_file, {}) in ("result", "reached")


#: One or two parameters of each function replaced by arbitrary values.
test_arbitrary_arguments = fuzzing(12, every_rule=False)
#: The same at length, every rule option of every function fuzzed too.
test_arbitrary_arguments_at_length = pytest.mark.soak(fuzzing(300, every_rule=True))


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (1.5, Fraction(3, 2)),
        (Fraction(3, 2), Fraction(3, 2)),
        ("3/2", Fraction(3, 2)),
        ("3:2", Fraction(3, 2)),
        (2, Fraction(2)),
        (1.1, Fraction(11, 10)),
    ],
)
def test_numbers_as_a_user_gives_them(given: object, expected: Fraction) -> None:
    """A ratio is taken as a float, a fraction or its text alike (a float as it prints)."""
    assert solver.rules(bonus_ratio=given).rules.bonus_ratio == expected
    assert solver.rules(blackjack_pays=given).rules.blackjack_pays == expected


@pytest.mark.parametrize("given", [math.nan, math.inf, -math.inf, "nan", "inf", "1e400"])
def test_no_nan_or_infinity(given: object) -> None:
    with pytest.raises(CbjError, match="bonus ratio"):
        solver.rules(bonus_ratio=given)


@pytest.mark.parametrize(
    ("call_it", "parameter"),
    [
        (lambda: solver.rules(bonus_ratio=True), "bonus ratio"),
        (lambda: solver.rules(decks=True), "decks"),
        (lambda: solver.rules(decks=6.0), "decks"),
        (lambda: solver.rules(rules=7), "rules"),
        (lambda: solver.Rules(bonus_ratio=None), "bonus ratio"),
        (lambda: solver.bonus(removed=None), "removed"),
        (lambda: solver.bonus(removed=[1]), "removed"),
        (lambda: solver.solve(exact=math.nan), "exact"),
        (lambda: solver.solve(jobs=True), "jobs"),
        (lambda: solver.solve(cache=3), "cache"),
        (lambda: solver.count(tags={"A": True}), "tags"),
        (lambda: solver.session(rounds=2.0), "rounds"),
        (lambda: solver.graph(bonus=None), "bonus"),
    ],
)
def test_a_wrong_type_is_named(call_it: Callable[[], object], parameter: str) -> None:
    """The issue's leaks: each a ``TypeError`` naming the parameter and what it takes."""
    pattern = parameter.replace(" ", "[ _]")
    with pytest.raises(TypeError, match=f"^{pattern}(\\[.*\\])? must be "):
        call_it()


def test_a_path_too_long_is_refused(sandbox: Path) -> None:
    """``tables(output_dir='x' * 100000)`` was an ``OSError``."""
    with pytest.raises(CbjError):
        solver.tables(output_dir="x" * 100_000)


def test_one_table_round_is_too_few(store: MemoryCache) -> None:
    """``seats(rounds=1)`` had no standard error: NaN in its JSON."""
    with pytest.raises(CbjError, match="needs 2"):
        solver.seats(rounds=1, seats="1", strategy="always-stand", decks=1, cache=store)


def test_an_empty_cache_folder_is_refused(sandbox: Path) -> None:
    """``cache_info(directory="")`` made a cache in the working folder."""
    with pytest.raises(CbjError, match="empty"):
        solver.cache_info(directory=" ")
    assert not list(sandbox.iterdir())


#: Issue 41's leaks, each now a ``CbjError`` or a ``TypeError`` naming the parameter.
LEAKS_41: list[tuple[Callable[[], object], str]] = [
    (lambda: solver.rules(decks=10**5000), "decks (a 5,001-digit number) is out of range"),
    (lambda: solver.simulate(rounds=10, seed=10**5000), "seed (a 5,001-digit number)"),
    (lambda: solver.simulate(rounds=10**5000, decks=1), "rounds (a 5,001-digit number)"),
    (lambda: solver.session(rounds=-(10**5000), decks=1), "rounds (a 5,001-digit number)"),
    (lambda: solver.solve(jobs=-(10**100), decks=1), "jobs (a 101-digit number) is invalid"),
    (lambda: solver.eor(jobs=-(10**5000), decks=1), "jobs (a 5,001-digit number)"),
    (lambda: solver.paytable_search(max_pay=10**5000, decks=1), "max pay (a 5,001-digit"),
    (lambda: solver.variants(bonus_ratio=10**5000), "bonus ratio (a 5,001-digit number)"),
    (lambda: solver.dealer(bonus=10**5000, decks=1), "bonus (a 5,001-digit number)"),
    (lambda: solver.Paytable(tiers="6"), "Paytable takes pays and tiers as sequences"),
    (lambda: solver.parse_cards(b"x"), "cards must be a str or a list of strs, not bytes"),
    (
        lambda: solver.Paytable.parse(text=(1, 2)),
        "Paytable.parse takes its text as a str, not tuple",
    ),
    (lambda: solver.tables(output_dir="a\0"), "cannot hold a NUL character"),
    (lambda: solver.tables(output_dir="\ud800"), "the name is not valid text"),
    (lambda: solver.DiskCache(max_bytes=math.nan), "max_bytes must be a whole number of bytes"),
    (lambda: solver.DiskCache(max_bytes=math.inf), "max_bytes must be a whole number of bytes"),
    (lambda: solver.DiskCache(max_bytes=-1), "max_bytes -1 is out of range"),
]


@pytest.mark.parametrize(("call_it", "said"), LEAKS_41)
def test_the_last_leaks_say_what_is_wrong(
    call_it: Callable[[], object], said: str, sandbox: Path
) -> None:
    with pytest.raises((CbjError, TypeError)) as raised:
        call_it()
    assert said in str(raised.value)


def test_numpy_scalars_are_numbers() -> None:
    """``blackjack_pays=numpy.float64(1.5)`` was a ValueError (numpy 2 prints its type)."""
    assert solver.rules(blackjack_pays=np.float64(1.5)).rules == solver.rules().rules


#: Issue 50's leaks, each now a ``CbjError`` saying what is wrong (none converts the value).
LEAKS_50: list[tuple[Callable[[], object], str]] = [
    (lambda: solver.Rules.from_options(preset=np.array(["vegas-21", "x"])), "preset array(["),
    (lambda: solver.Rules(dealer_bonus=10**5000), "dealer bonus (a 5,001-digit number)"),
    (lambda: solver.Rules.from_options(paytable=10**5000), "paytable (a 5,001-digit number)"),
    (lambda: solver.Shoe.full(10**5000), "decks (a 5,001-digit number)"),
    (lambda: solver.DiskCache(max_bytes=10**5000), "max_bytes (a 5,001-digit number)"),
    (lambda: solver.DiskCache(max_bytes=2**63), "use 0 to 9223372036854775807"),
    (lambda: solver.bonus(removed=np.array(3)), "must be a str or a list of strs, not ndarray"),
    (lambda: solver.Rules.from_canonical({**Rules().canonical(), "surrender": 1}), "'surrender'"),
]


@pytest.mark.parametrize(("call_it", "said"), LEAKS_50)
def test_issue_50s_leaks_say_what_is_wrong(
    call_it: Callable[[], object], said: str, sandbox: Path
) -> None:
    with pytest.raises(CbjError) as raised:
        call_it()
    assert said in str(raised.value)


def test_the_largest_cache_cap_is_reported_whole(sandbox: Path) -> None:
    """The disk cache's byte cap was accepted past any size, then crashed ``info()``."""
    info = solver.DiskCache("cache", max_bytes=2**63 - 1).info()
    assert json.loads(json.dumps(info.to_json()))["max_bytes"] == 2**63 - 1


@pytest.mark.parametrize("version", [1.0, True, "1", [1], None, 2])
def test_a_practice_state_of_another_version_is_refused(
    store: MemoryCache, version: object
) -> None:
    """The version is the integer 1: 1.0 and True equal it but are not it."""
    state = {**practice_state(store), "version": version}
    with pytest.raises(solver.PracticeError, match="not a practice state of this version"):
        solver.practice_play(state=state, play="stand", cache=store)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"surrender": "late"}, "'surrender' is not a rule"),
        ({"decks": None}, "decks None must be a whole number"),
    ],
)
def test_a_practice_states_rules_are_checked_key_by_key(
    store: MemoryCache, change: dict[str, Any], said: str
) -> None:
    state = practice_state(store)
    rules = {**state["rules"], **change}
    with pytest.raises(solver.PracticeError, match="rules are malformed: " + said):
        solver.practice_play(state={**state, "rules": rules}, play="stand", cache=store)
    missing = {k: v for k, v in state["rules"].items() if k != "dealer_natural"}
    with pytest.raises(solver.PracticeError, match="leave out dealer_natural"):
        solver.practice_play(state={**state, "rules": missing}, play="stand", cache=store)


# --- Hostile values (issue 50) ------------------------------------------------------------
#
# Every value of tests/hostile.py (integers past the int-to-text limit, numpy scalars and
# arrays, bytes, NaN and infinities, booleans, huge strings) at every parameter of every
# public function and constructor, one at a time: a result, a ``CbjError`` or a named
# ``TypeError``, each message at most 300 characters.


def hostile_calls(name: str, store: MemoryCache, chart: Path, every_rule: bool) -> None:
    """Each hostile value at each parameter of function ``name`` (less the valid ones that
    take long, as :data:`COSTLY` says: ``exact=True`` is a value here too)."""
    for parameter in parameters(name, every_rule=every_rule):
        for hostile in HOSTILE:
            value = hostile.make()
            if parameter in COSTLY and COSTLY[parameter](value):
                continue
            call(name, store, chart, {parameter: value})


@pytest.mark.parametrize("name", FUNCTIONS)
def test_hostile_values_at_every_parameter(
    name: str, store: MemoryCache, chart_file: Path, sandbox: Path
) -> None:
    hostile_calls(name, store, chart_file, every_rule=False)


@pytest.mark.soak
@pytest.mark.parametrize("name", FUNCTIONS)
def test_hostile_values_at_every_rule_option_of_every_function(
    name: str, store: MemoryCache, chart_file: Path, sandbox: Path
) -> None:
    hostile_calls(name, store, chart_file, every_rule=True)


#: Every public type's constructor (and named constructor), from a cheap valid call.
CONSTRUCTORS: dict[str, tuple[Callable[..., object], dict[str, Any]]] = {
    "Rules": (solver.Rules, {}),
    "Rules.from_options": (solver.Rules.from_options, {}),
    "Rules.from_preset": (solver.Rules.from_preset, {"name": "casino-edition"}),
    "Paytable": (solver.Paytable, {"pays": [15, 4, 1]}),
    "Paytable.parse": (solver.Paytable.parse, {"text": "15:4:1"}),
    "Card": (solver.Card, {"rank": solver.Rank.ACE}),
    "Card.parse": (solver.Card.parse, {"text": "As"}),
    "Shoe": (solver.Shoe, {"decks": 1, "counts": (1,) * 52}),
    "Shoe.full": (solver.Shoe.full, {"decks": 1}),
    "parse_cards": (solver.parse_cards, {"text": "As Kd"}),
    "DiskCache": (solver.DiskCache, {"directory": "cache"}),
    "MemoryCache": (solver.MemoryCache, {}),
}


def constructor_parameters(name: str) -> list[str]:
    """The parameters of constructor ``name`` the fuzz replaces (every rule of ``Rules``)."""
    function, _ = CONSTRUCTORS[name]
    signature = inspect.signature(function)
    named = [p for p, spec in signature.parameters.items() if spec.kind is not spec.VAR_KEYWORD]
    if name.startswith("Rules"):
        named += [option for option in RULE_OPTIONS if option not in named]
    if name == "Paytable":
        named += ["suited_match", "rank_match", "adjacent"]
    return [p for p in named if p != "warn"]


def construct(name: str, given: dict[str, Any]) -> str:
    """Call constructor ``name`` with ``given`` over its cheap call; only good ends pass."""
    function, cheap = CONSTRUCTORS[name]
    try:
        made = function(**{**cheap, **given})
    except CbjError as error:
        assert len(str(error)) <= MAX_MESSAGE, (name, list(given), str(error)[:400])
        return "refused"
    except TypeError as error:
        assert_named(error, given)
        return "wrong type"
    if isinstance(made, solver.DiskCache):
        json.dumps(made.info().to_json())  # the cap it took is one it can report
    return "made"


@pytest.mark.parametrize("name", sorted(CONSTRUCTORS))
def test_hostile_values_at_every_constructor(name: str, sandbox: Path) -> None:
    assert construct(name, {}) == "made"
    for parameter in constructor_parameters(name):
        for value in HOSTILE:
            construct(name, {parameter: value.make()})


def _state_fields(doc: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The path of every field of a practice state, nested ones included."""
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield (*path, key)
            yield from _state_fields(value, (*path, key))


def _replaced(doc: Any, path: tuple[str, ...], value: Any) -> Any:
    """``doc`` with the field at ``path`` replaced by ``value``."""
    if not path:
        return value
    return {**doc, path[0]: _replaced(doc[path[0]], path[1:], value)}


def test_hostile_values_at_every_field_of_a_practice_state(store: MemoryCache) -> None:
    """A practice state's every field, nested ones included, checked on its own."""
    state = practice_state(store)
    paths = list(_state_fields(state))
    assert ("score", "decisions") in paths and ("rules", "decks") in paths
    for path in paths:
        for value in HOSTILE:
            doc = _replaced(state, path, value.make())
            try:
                solver.practice_play(state=doc, play="stand", cache=store)
            except CbjError as error:
                assert len(str(error)) <= MAX_MESSAGE, (path, value, str(error)[:400])
