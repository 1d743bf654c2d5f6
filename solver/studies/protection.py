"""The report's game-protection study: EORs, counts, every attack and what ends it.

Every figure comes from the same code as ``cbj eor``, ``cbj count``, ``cbj indices``,
``cbj bet``, ``cbj attack`` and ``cbj simulate --counter``; the study only chooses small,
seeded sizes (options of :func:`~solver.studies.report.report_figures`), so the report
changes with the rules.
"""

from __future__ import annotations

from typing import Any

from solver.exact.attack import PracticalCounter, attack_multiple, reached
from solver.exact.betting import optimal_bets
from solver.exact.dealt_shoes import deal_shoes
from solver.exact.indices import index_plays
from solver.exact.protection import (
    BEST_LEVELS,
    best_count,
    effects_of_removal,
    ev_per_true_count,
    judge_counts,
)
from solver.model.catalogue import COUNTER_ROUNDS_DEFAULT, DEALT_PER_SAMPLE, SHOE_SAMPLES_DEFAULT
from solver.model.catalogue import SHOE_SAMPLES as SHOE_SAMPLES_PARAM
from solver.model.counts import system_tags
from solver.model.errors import ReportError
from solver.model.rules import Rules
from solver.model.shuffles import DEFAULT_BUFFER, Shuffle, reach
from solver.results.attack import AttackKind
from solver.results.charts import Chart
from solver.results.protection import (
    PENETRATION,
    PROTECTION_SEED,
    SPREAD,
    CounterPlan,
    EffectsOfRemoval,
    ProtectionStudy,
)
from solver.results.simulation import Counter, CounterStatistics
from solver.sim import Strategy
from solver.studies.attack import KELLY_BANKROLL, attack_study, shoe_paths, simulated_row
from solver.studies.seeded import SeededDeal
from solver.studies.sizes import check_rounds

#: Shoe samples of the report's study (4 dealt shoes each, 1/25 of a shoe path), and rounds
#: of each simulated counter, unless asked (the parameter catalogue's defaults).
SHOE_SAMPLES = SHOE_SAMPLES_DEFAULT
COUNTER_ROUNDS = COUNTER_ROUNDS_DEFAULT
#: Shoe samples per shoe path of the no-mid-shoe bound (at least one path is dealt).
SAMPLES_PER_PATH = 25


def path_count(shoe_samples: int) -> int:
    """Shoe paths dealt for the no-mid-shoe bound: one per :data:`SAMPLES_PER_PATH` shoe
    samples, at least one."""
    return max(1, shoe_samples // SAMPLES_PER_PATH)


def check_sizes(shoe_samples: int, counter_rounds: int) -> tuple[int, int]:
    """The study's size and counter rounds, checked before any work (each sample deals
    :data:`DEALT_PER_SAMPLE` shoes, so at most a quarter of the shoes a study may deal)."""
    return SHOE_SAMPLES_PARAM.read(shoe_samples), check_rounds("counter rounds", counter_rounds)


def counter_plan(eor: EffectsOfRemoval[Any]) -> CounterPlan:
    """The best level-1 count of ``eor``'s round EORs and the ramp its EV line suggests."""
    tags = best_count(eor.effects["round"], 1)
    slope = float(ev_per_true_count(tags, eor.effects["round"], eor.cards))
    if slope <= 0:  # pragma: no cover - a best count always correlates positively
        raise ReportError("no level-1 count follows the round's EORs")
    break_even = round(-float(eor.base["round"]) / slope * 2) / 2
    return CounterPlan("best-level-1", tags, break_even)


def _counter_runs(
    rules: Rules, played: Strategy, plan: CounterPlan, rounds: int, jobs: int
) -> tuple[CounterStatistics, CounterStatistics]:
    """The counter who plays every round, then the back-counter, each dealt ``rounds``."""
    runs = []
    for wong_out in (None, plan.wong_out):
        counter = Counter(plan.name, plan.tags, SPREAD, plan.ramp, wong_out)
        depth = reach(rules.decks, PENETRATION)  # no deeper than a dealt shoe reaches
        result = SeededDeal(played, rounds, PROTECTION_SEED, depth).deal(
            rules, jobs, counter=counter
        )
        if result.counter is None:  # pragma: no cover - a counter was seated
            raise ReportError("the simulator returned no counter results")
        runs.append(result.counter)
    every_round, back_counter = runs
    return every_round, back_counter


def protection_settings(played: Strategy, shoe_samples: int, counter_rounds: int) -> dict[str, Any]:
    """Everything the study's figures depend on besides the rules (and the rules' best
    chart), for a store's key: the sizes, the seed, the counters' deal and spread."""
    return {
        **SeededDeal(played, counter_rounds, PROTECTION_SEED, PENETRATION).settings,
        "shoe_samples": shoe_samples,
        "spread": list(SPREAD),
        "dealt_shoes": DEALT_PER_SAMPLE * shoe_samples,
        "paths": path_count(shoe_samples),
        "buffer": DEFAULT_BUFFER,
    }


def protection_study(
    rules: Rules,
    chart: Chart,
    played: Strategy,
    *,
    counting: Strategy | None = None,
    jobs: int = 1,
    shoe_samples: int = SHOE_SAMPLES,
    counter_rounds: int = COUNTER_ROUNDS,
) -> ProtectionStudy:
    """The game-protection figures under ``rules``; ``chart`` is the report's chart and
    ``counting`` the chart as the attack's simulated counters and shoe paths play it
    (``played`` when not given).

    Nothing is stored on the way: a store keeps the study whole (its float games would
    cost about three times their solves to store, and a report never reads them back).
    """
    counting = counting or played
    eor = effects_of_removal(rules, jobs=jobs, chart=chart)
    plan = counter_plan(eor)
    chosen = {"hi-lo": system_tags("hi-lo")}
    chosen.update({f"best-level-{n}": best_count(eor.effects["round"], n) for n in BEST_LEVELS})
    counts = judge_counts(eor, chosen)
    every_round, back_counter = _counter_runs(rules, played, plan, counter_rounds, jobs)
    best = next(s for s in counts.systems if s.name == "best-level-2")
    shoes = deal_shoes(
        rules, chart, DEALT_PER_SAMPLE * shoe_samples, PROTECTION_SEED, PENETRATION, jobs=jobs
    )
    depths = tuple(p for p in (0.5, 0.75) if p < PENETRATION)
    indices = index_plays(shoes, best.name, best.tags)
    betting = optimal_bets(shoes, best.name, best.tags, SPREAD, KELLY_BANKROLL, indices=indices)
    deepest = reached(shoes)
    paths = shoe_paths(rules, counting, path_count(shoe_samples), PROTECTION_SEED, deepest, jobs)
    cut = Shuffle.cut_card(reach(rules.decks, PENETRATION))
    level_1 = "best level-1 count"
    simulated = [
        simulated_row(AttackKind.PLAY_ALL, cut, every_round, f"{level_1}: its ramp"),
        simulated_row(
            AttackKind.BACK_COUNT,
            cut,
            back_counter,
            f"{level_1}: its ramp, sitting out below true count {plan.wong_out:+g}",
        ),
    ]
    found = attack_study(
        rules,
        shoes,
        counting,
        PracticalCounter(best.name, best.tags, betting, indices),
        spread=SPREAD,
        multiple=attack_multiple(None, rules.bonus_ratio),
        penetrations=(*depths, PENETRATION),
        paths=paths,
        rounds=counter_rounds,
        seed=PROTECTION_SEED,
        buffer=DEFAULT_BUFFER,
        jobs=jobs,
        more=simulated,
    )
    return ProtectionStudy(
        rules,
        eor,
        plan,
        tuple(counts.systems),
        shoe_samples,
        every_round,
        back_counter,
        counter_rounds,
        best,
        indices,
        betting,
        found,
        penetration=deepest,
    )
