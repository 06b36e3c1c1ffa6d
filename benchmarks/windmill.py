"""Windmill: the thoughtful solver's verdicts and cost, and the fair player's wins.

Thoughtful (``solver``, the default mode): the solver sees the stock's order,
an upper bound on any player. Deals 1-1000 of PySolFC's rules (the default)
and of Welford's: won / lost / unknown, the unresolved share, CPU seconds per
deal (median, p95, mean) against the issue's target (under 1% unresolved at a
mean under 2 CPU-s per deal). The budget is ``SIMLAB_BENCH_WINDMILL_BUDGET``
positions (default ``WINDMILL_BUDGET``, 200,000, not the solver's 32M): a deal
the search cannot decide costs 10-20 microseconds per position (the best-first
search over every move keeps its positions packed and hashes each afresh), so
at 32M each undecided deal would take minutes; 200,000 keeps the mean well
under the target.

Fair (``solver`` with ``mode: fair``, simlab.solver.sampling): never looks at
the stock; its wins are a lower bound, on the first ``SIMLAB_BENCH_FAIR_DEALS``
deals (default 50: it solves sampled stocks at every turn, the costly part).

Knobs: ``SIMLAB_BENCH_DEALS=N``, ``SIMLAB_BENCH_FIRST_DEAL=K``,
``SIMLAB_BENCH_FAIR_DEALS=N``, ``SIMLAB_BENCH_WINDMILL=thoughtful,fair``,
``SIMLAB_BENCH_WINDMILL_BUDGET=N``.
Every deal is written to ``results/bench/windmill-<time>.csv``.
"""

from __future__ import annotations

import csv
import os

import numpy as np

from benchmarks.fans import FIELDS, play_rows, summary
from benchmarks.solver import RESULTS_DIR, new_results_file, warm_up
from simlab import make_game
from simlab.policies.catalog import make_policy

FIRST_DEAL = int(os.environ.get("SIMLAB_BENCH_FIRST_DEAL", "1"))
DEAL_COUNT = int(os.environ.get("SIMLAB_BENCH_DEALS", "1000"))
FAIR_COUNT = int(os.environ.get("SIMLAB_BENCH_FAIR_DEALS", "50"))
PARTS = os.environ.get("SIMLAB_BENCH_WINDMILL", "thoughtful,fair").split(",")
WINDMILL_BUDGET = 200_000  # the thoughtful solver's positions per Windmill deal here and in experiments/windmill.yaml
BUDGET = int(os.environ.get("SIMLAB_BENCH_WINDMILL_BUDGET", str(WINDMILL_BUDGET)))

# (label, game parameters)
RULE_SETS = (("windmill", {}), ("windmill welford", {"welford": True}))
MOST_UNRESOLVED = 0.01
MOST_MEAN_CPU_S = 2.0


def run() -> None:
    path = new_results_file(RESULTS_DIR, "windmill")
    deals = range(FIRST_DEAL, FIRST_DEAL + DEAL_COUNT)
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        if "thoughtful" in PARTS:
            solver = make_policy("solver", budget=BUDGET)
            print(f"thoughtful solver budget: {BUDGET:,} positions per deal")
            for label, params in RULE_SETS:
                game = make_game("windmill", **params)
                warm_up(game)
                rows = play_rows(label, game, "solver", solver, deals, writer)
                summary(label, "solver", "thoughtful", rows, (MOST_UNRESOLVED, MOST_MEAN_CPU_S))
                handle.flush()
        if "fair" in PARTS:
            fair = make_policy("solver", mode="fair")
            for label, params in RULE_SETS:
                game = make_game("windmill", **params)
                fair.play(game, game.initial_state(1), np.random.default_rng(0))  # compile before timing
                rows = play_rows(label, game, "solver fair", fair, deals[:FAIR_COUNT], writer)
                summary(label, "solver fair", "fair", rows)
                handle.flush()
    print(f"per-deal results: {path}")
