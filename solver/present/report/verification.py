"""The report's closing sections: perfect play beside the chart and realistic play, the
paytables compared, method and verification, and the reproducibility manifest.

Pure: the figures of :func:`solver.studies.report.report_figures` in, blocks out.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from solver.model.rule_table import RULE_TABLE
from solver.present.formats import rule_cell
from solver.present.report.blocks import Grid, Section, Text, bonus_of, column_keys, exact
from solver.present.style import minus, show, thousands
from solver.results.figures import heading

if TYPE_CHECKING:
    from solver.present.report.front import Prepared
    from solver.results.game import GameResult
    from solver.results.report import LetteredGame, PlayerStrategy, ReportFigures
    from solver.results.simulation import SimulationResult
    from solver.results.strategies import PolicyResult

# --- Strategies and paytables -------------------------------------------------------------

#: The figures of each row of "Perfect play, the printed chart and realistic play".
STRATEGY_KEYS = (None, "main_house_edge", "main_ev", "round_house_edge", "round_ev",
                 "round_hit_frequency", "round_sd")  # fmt: skip
#: The figures of each row of "Paytables compared".
PAYTABLE_KEYS = (None, "bonus_house_edge", "bonus_rtp", "bonus_hit_frequency", "bonus_sd",
                 "round_house_edge", "round_rtp", "round_ev", "round_sd")  # fmt: skip

STRATEGY_NAMES = {
    "optimal": "perfect play",
    "chart": "printed chart",
    "mimic-dealer": "mimic the dealer",
}


def strategy_words(player: PlayerStrategy) -> str:
    """The player's strategy in a sentence: "optimal play", or its name as given.

    >>> from solver.studies.report import PlayerStrategy
    >>> strategy_words(PlayerStrategy()), strategy_words(PlayerStrategy("never-bust"))
    ('optimal play', "the player's strategy never-bust")
    """
    if player.perfect:
        return "optimal play"
    return f"the player's strategy {player.shown}"


def strategies_section(
    policies: Sequence[PolicyResult], ratio: Fraction, player: PlayerStrategy | None = None
) -> Section:
    """The main wager and the round under perfect play, the chart and realistic play, and
    the player's own strategy when the report was given one."""

    def label(p: PolicyResult) -> str:
        if player is None or player.perfect or p.name != player.key:
            return STRATEGY_NAMES.get(p.name, p.name)
        if p.name in STRATEGY_NAMES:
            return f"{STRATEGY_NAMES[p.name]} (the player's strategy)"
        return f"the player's strategy: {player.shown}"

    own = (
        ""
        if player is None or player.perfect
        else f" The player's strategy ({player.shown}) is the one the volatility section plays"
        + ("; its chart file's SHA-256 is in the manifest." if player.digest else ".")
    )
    rows = tuple(
        (
            label(p),
            show("main_house_edge", -p.main_ev),
            show("main_ev", p.main_ev),
            show("round_house_edge", p.round_house_edge),
            show("round_ev", p.round_ev),
            show("round_hit_frequency", p.game.round_hit_frequency),
            show("round_sd", float(p.game.round_variance) ** 0.5),
        )
        for p in policies
    )
    keys = STRATEGY_KEYS
    title = "Perfect play, the printed chart and realistic play"
    if own:
        title = "Perfect play, the printed chart, realistic play and the player's strategy"
    return Section(
        title,
        (
            Grid(
                ("player's play", *(heading(k) for k in keys[1:])),
                rows,
                caption="Exact. Perfect play: composition-dependent optimal hit/stand, the "
                "basis of the other sections' figures. Printed chart: the strategy chart of "
                "Annex C, what a lab quotes for a player who follows it. Mimic the dealer: "
                "hit until the dealer's stopping rule would stop, a common realistic player. "
                "House edges in % (the main wager's of the main wager, the round's of the "
                "total wagered); EVs and SD per main unit, the round's with "
                f"{ratio} on the Bonus.{own}",
                keys=column_keys(rows, keys),
            ),
        ),
    )


def _paytable_values(g: LetteredGame) -> dict[str, Fraction | float]:
    game = g.game
    bonus = bonus_of(game)
    edge = exact(game.round_house_edge)
    return {
        "bonus_house_edge": bonus.house_edge,
        "bonus_rtp": bonus.return_to_player,
        "bonus_hit_frequency": bonus.hit_frequency,
        "bonus_sd": bonus.standard_deviation,
        "round_house_edge": edge,
        "round_rtp": 1 - edge,
        "round_ev": exact(game.round_expected_value),
        "round_sd": game.round_variance**0.5,
    }


def paytables_section(games: Sequence[LetteredGame], chosen: str = "") -> Section:
    """The paytables of the report side by side, lettered, a column each; ``chosen`` says
    how the ones beside the paytable in force were chosen when the report chose them."""
    values = [_paytable_values(g) for g in games]
    rows = tuple((heading(key), *(show(key, v[key]) for v in values)) for key in PAYTABLE_KEYS[1:])
    return Section(
        "Paytables compared",
        (
            Grid(
                ("figure", *(f"{g.letter}: {g.game.rules.paytable}" for g in games)),
                rows,
                caption="Each paytable lettered as in the title block; the main wager and "
                "its play are the same under every paytable. Exact. Bonus figures per unit "
                "staked on the Bonus; round figures per main unit, its house edge and RTP "
                f"in % of the total wagered.{chosen}",
                keys=tuple((None, *(key for _ in games)) for key in PAYTABLE_KEYS[1:]),
            ),
        ),
    )


# --- Method and verification --------------------------------------------------------------


def _edge_interval(result: SimulationResult, ratio: Fraction) -> tuple[float, float, float]:
    """The simulated round house edge and its 95% interval."""
    estimate = result.overall["round"]
    scale = -1 / float(1 + ratio)
    low, high = estimate.ci95
    return estimate.mean * scale, high * scale, low * scale


def _interval(values: tuple[float, float, float]) -> str:
    mean, low, high = values
    key = "simulated_round_house_edge"
    return f"{show(key, mean)} ({show(key, low)} to {show(key, high)})"


#: A z-score is accepted when its size is below this.
Z_LIMIT = 3
#: A chi-square test is accepted when its p-value is at least this.
P_LIMIT = 0.001
#: Each wager's words and its exact EV's key.
WAGER_NAMES = {"main": "main wager", "bonus": "Bonus wager", "round": "whole round"}
EXACT_KEYS = {"main": "main_ev", "bonus": "bonus_ev", "round": "round_ev"}


def _verdict(holds: bool) -> str:
    return "passes" if holds else "FAILS"


def verification_core(figures: ReportFigures) -> Section:
    """Every check of the figures in one table, each with its acceptance rule, fixed before
    the run: the simulator against the exact EVs and outcome probabilities, and the
    invariants checked as the report was built (Annex E gives the detail)."""
    stats = figures.simulation.overall
    table = figures.return_table_test
    rows: list[tuple[str, str, str, str]] = []
    keys: list[tuple[str | None, ...]] = []
    for wager in ("main", "bonus", "round"):
        est = stats[wager]
        if est.z is not None:
            rows.append(
                (
                    f"{WAGER_NAMES[wager]} EV: simulated against exact",
                    f"|{heading('z_score')}| below {Z_LIMIT}",
                    show("z_score", est.z),
                    _verdict(abs(est.z) < Z_LIMIT),
                )
            )
            keys.append((None, None, None, None))  # keyed in Annex E, under its label
        chi = table if wager == "round" else est.chi_square
        if chi is not None:
            what = "outcome pairs" if wager == "round" else "outcomes"
            rows.append(
                (
                    f"{WAGER_NAMES[wager]} {what}: simulated counts against exact probabilities",
                    f"{heading('chi_square_p')} at least {P_LIMIT:g}",
                    show("chi_square_p", chi.p_value),
                    _verdict(chi.p_value >= P_LIMIT),
                )
            )
            keys.append((None, None, None, None))
    for check in figures.invariants:
        rows.append((check.name, "holds exactly", minus(check.found), _verdict(check.holds)))
        keys.append((None, None, None, None))
    fresh = figures.simulation
    return Section(
        "Verification",
        (
            Grid(
                ("check", "acceptance rule", "found", "result"),
                tuple(rows),
                caption="The exact figures checked against an independent simulator "
                f"({thousands(fresh.rounds)} rounds from a freshly shuffled shoe each round, "
                f"seed {fresh.seed}) and against invariants computed as this report was "
                "built. Acceptance rules fixed before the run; with several tests, a p-value "
                "below 0.05 in one of them happens by chance about one report in seven, one "
                f"below {P_LIMIT:g} would mean a wrong figure. Annex E gives the simulated "
                "means, the cut-card effect and the published tables.",
                numeric=False,
                keys=tuple(keys),
            ),
        ),
    )


def method_section() -> Section:
    """How the figures are found (Annex A)."""
    return Section(
        "Method",
        (
            Text(
                "Every figure of the wagers, the round, the strategies, the dealer, the "
                "paytables, the Bonus ratio, the rule variants and the chart is exact: "
                "combinatorial analysis of a freshly shuffled shoe, every ordered pair of "
                "player card and Bonus card, every player hand and every dealer drawing "
                "sequence weighted by its exact probability, in rational numbers, rounded only "
                "for display. The session figures of Annex F come from the exact distribution "
                "of a session (the round's exact return table convolved). The table of "
                "players, the counters and shoe samples of game protection and the "
                "cross-checks of Annex E are simulated, and say so."
            ),
        ),
    )


def verification_section(figures: ReportFigures) -> Section:
    """The simulation cross-check in detail, the cut-card effect and the published tables
    (Annex E)."""
    fresh, cut = figures.simulation, figures.cut_card
    game = figures.game
    ratio = game.rules.bonus_ratio
    stats = fresh.overall
    units = {"main": "per main unit", "bonus": "per Bonus unit", "round": "per main unit"}
    table = figures.return_table_test
    rows = []
    keys = []
    for key in ("main", "bonus", "round"):
        est = stats[key]
        z = est.z
        chi = table if key == "round" else est.chi_square
        p = None if chi is None else chi.p_value
        rows.append(
            (
                WAGER_NAMES[key],
                units[key],
                show("simulated_mean", est.mean),
                show(EXACT_KEYS[key], est.exact) if est.exact is not None else "",
                show("standard_error", est.standard_error),
                show("z_score", z) if z is not None else "",
                show("chi_square_p", p) if p is not None else "",
            )
        )
        keys.append((None, None, "simulated_mean", EXACT_KEYS[key], "standard_error",
                     "z_score", "chi_square_p" if p is not None else None))  # fmt: skip
    edge_fresh = _edge_interval(fresh, ratio)
    half = (edge_fresh[2] - edge_fresh[1]) / 2 * 100
    chi_text = (
        "Pearson's chi-square of the round's outcome counts against the exact return table "
        f"(main outcome and Bonus outcome together, its p-value in the round's row): "
        f"{table.statistic:.2f} on {table.dof} degrees of freedom."
        if table is not None
        else ""
    )
    exact_edge = exact(game.round_house_edge)
    return Section(
        "Simulation cross-check",
        (
            Text(
                "An independent Monte Carlo simulator (it shares only the card and rule model "
                f"with the exact solver) dealt {thousands(fresh.rounds)} rounds from a freshly "
                f"shuffled shoe each round, seed {fresh.seed}, in seeded chunks shared among "
                "the workers (the figures do not depend on how many), the player using the "
                "exact solver's optimal decisions. The round's house edge is then known to "
                f"\u00b1{half:.4f} percentage points at 95%. {chi_text}"
            ),
            Grid(
                (
                    "wager",
                    "basis",
                    heading("simulated_mean"),
                    "EV",
                    heading("standard_error"),
                    heading("z_score"),
                    heading("chi_square_p"),
                ),
                tuple(rows),
                caption="Mean net result per round of each wager, simulated and exact (EV), "
                "each per unit of its own wager (the round's per main unit); the chi-square "
                "p-value tests the outcome counts against the exact probabilities (the "
                "round's, the outcome pairs of Whole round).",
                keys=tuple(keys),
            ),
            Grid(
                (
                    "shoe",
                    "rounds",
                    heading("simulated_round_house_edge"),
                    heading("round_house_edge"),
                ),
                (
                    (
                        "fresh shoe every round",
                        thousands(fresh.rounds),
                        _interval(edge_fresh),
                        show("round_house_edge", exact_edge),
                    ),
                    (
                        f"dealt to a cut card at {cut.penetration:g} of the shoe",
                        thousands(cut.rounds),
                        _interval(_edge_interval(cut, ratio)),
                        show("round_house_edge", exact_edge),
                    ),
                ),
                caption="The cut-card effect: the simulated house edge of the round (% of the "
                "total wagered, with its 95% interval) when the shoe is dealt down to a cut "
                "card and then reshuffled, beside a fresh shoe every round and the exact "
                "edge; same seed, same play (optimal for a full shoe). A cut card at "
                f"{cut.penetration:g} of the shoe is where casinos commonly place it; the "
                "counters of Annex D are dealt deeper, to "
                f"{figures.protection.penetration:g} of the shoe, a generous cut that favours "
                "a counter, so that their verdict is the casino's worst case. Intervals take "
                "rounds as independent.",
                keys=(
                    (None, None, "simulated_round_house_edge", "round_house_edge"),
                    (None, None, "simulated_round_house_edge", "round_house_edge"),
                ),
            ),
            Text(
                "Published tables. The exact dealer is also checked, in the project's own "
                "tests, against standard blackjack dealer tables "
                "published by the Wizard of Odds (blackjack appendices 2 and 2B) and by "
                "BlackjackInfo: with the dealer standing on 17, using the Bonus card as a "
                "standard dealer uses its up card (the rule that the dealer must use the Bonus "
                "card) and a natural "
                "being its own card with the Bonus card, every printed figure is reproduced "
                "to its last printed place."
            ),
        ),
    )


# --- Manifest -----------------------------------------------------------------------------


def _exact_json(game: GameResult[Fraction]) -> dict[str, Any]:
    bonus = bonus_of(game)
    return {
        "rules": game.rules.to_json(),
        "main_ev": str(game.expected_value),
        "main_outcomes": {k: str(p) for k, p in game.outcomes.items()},
        "main_variance": str(game.variance),
        "bonus_ev": str(bonus.expected_value),
        "bonus_lines": {str(ln.outcome): str(ln.probability) for ln in bonus.lines},
        "round_ev": str(game.round_expected_value),
        "round_variance": str(game.round_variance),
        "round_hit_frequency": str(game.round_hit_frequency),
    }


def figures_hash(figures: ReportFigures) -> str:
    """A SHA-256 of every exact figure of the report, the same for the same game anywhere.

    Only exact rationals (as text) and rules enter it: no float, no date, no seed.
    """
    document = {
        "paytables": {g.letter: _exact_json(g.game) for g in figures.paytables},
        "strategies": {
            _hashed_name(p.name, figures.strategy): str(p.main_ev) for p in figures.strategies
        },
        "chart_ev": str(figures.chart.expected_value),
        "dealer": [[c, {k: str(p) for k, p in d.items()}] for c, d in figures.dealer],
        "joint": sorted(f"{k}/{b}={p}" for (k, b), p in figures.joint.items()),
    }
    text = json.dumps(document, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _hashed_name(name: str, player: PlayerStrategy) -> str:
    """A strategy's name in the figures' hash: a chart file as ``player-chart`` (its path
    differs from machine to machine; its cells and so its EV do not)."""
    return "player-chart" if player.chart is not None and name == player.key else name


def rebuild_command(
    figures: ReportFigures, prepared: Prepared, output: str, core_only: bool = False
) -> str:
    """The ``cbj report`` command line that rebuilds this report (its core alone with
    ``core_only``)."""
    rules = figures.rules.to_json()
    words = ["cbj", "report"]
    for rule in RULE_TABLE:
        words += [rule.flag, rule_cell(rules[rule.name])]
    if not figures.paytables_chosen:  # the report chooses the same ones again
        for g in figures.paytables[1:]:
            words += ["--paytable", str(g.game.rules.paytable)]
    if not figures.strategy.perfect:
        words += ["--strategy", figures.strategy.name.strip()]
    for name, size in figures.sizes:
        words += [f"--{name.replace('_', '-')}", str(size)]
    for flag, value in (("--prepared-by", prepared.by), ("--prepared-for", prepared.for_),
                        ("--revision-note", prepared.note), ("--table-limits", prepared.limits),
                        ("--procedures", prepared.procedures)):  # fmt: skip
        if value:
            words += [flag, value]
    if core_only:
        words += ["--core-only"]
    words += ["-o", output]
    return shlex.join(words)


def _chart_file_row(player: PlayerStrategy) -> tuple[tuple[str, str], ...]:
    """The manifest's row for the player's chart file (its SHA-256), if it is one."""
    if player.digest is None:
        return ()
    return ((f"Player's chart {player.shown} (SHA-256)", player.digest),)


def manifest_section(
    figures: ReportFigures,
    prepared: Prepared,
    version: str,
    libraries: Sequence[tuple[str, str]] = (),
    core_only: bool = False,
    output: str = "report.pdf",
) -> Section:
    """What rebuilds the report: its command (writing ``output``), its rules as JSON, the
    software's version and source commit, the libraries' versions, and the hash of the exact
    figures."""
    rules = json.dumps(figures.rules.to_json(), sort_keys=True)
    return Section(
        "Reproducibility manifest",
        (
            Grid(
                ("item", "value"),
                (
                    ("Command", rebuild_command(figures, prepared, output, core_only)),
                    ("Rules (JSON)", rules),
                    ("Software", f"community-blackjack {version}"),
                    *((f"{name} version", found) for name, found in libraries),
                    ("Figures hash (SHA-256)", figures_hash(figures)),
                    *_chart_file_row(figures.strategy),
                ),
                caption="The command rebuilds this report (HTML if the output ends in .html) "
                "with the software at the commit named; the figures hash covers every exact "
                "figure (rules, paytables, outcome probabilities, EVs, variances, the "
                "strategies and the dealer) and is the same for the same game on any machine, "
                "whatever the versions. Simulated figures repeat from their seeds. The title "
                "block's figures hash is this hash's first 12 digits."
                + (
                    " The player's chart file is named by its SHA-256: rebuild with the file "
                    "that has it."
                    if figures.strategy.digest
                    else ""
                ),
                numeric=False,
            ),
        ),
    )
