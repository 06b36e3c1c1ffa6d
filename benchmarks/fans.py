"""La Belle Lucie, Trefoil and Fan: the solver's two meanings of perfect play, and round_max.

Thoughtful (``solver``, the default): the solver knows the deal's shuffles (an
upper bound on any player); on Fan, which has no redeal, it is exact (open).
Deals 1-1000 of La Belle Lucie, Trefoil, Fan (PySolFC's deal) and Fan under
Blake and Gent's rules (round-robin deal, foundation cards may come back), at
the default budget: won / lost / unknown, the unresolved share, CPU seconds
per deal (median, p95, mean) against the issue's targets (under 1% unresolved
at a mean under 1 CPU-s per deal; Fan under 0.5% unresolved).

Fair (``solver`` with ``mode: fair``) and ``round_max`` on La Belle Lucie and
Trefoil: wins (a lower bound on perfect fair play) and CPU per deal, on the
same deals, so each row pairs with its thoughtful bracket.

Knobs (environment variables): ``SIMLAB_BENCH_DEALS=N`` and
``SIMLAB_BENCH_FIRST_DEAL=K`` as for the solver section; ``SIMLAB_BENCH_FAIR_DEALS=N``
(default: the same deals) for the fair players, the costly part;
``SIMLAB_BENCH_FANS=thoughtful,fair`` to run one part only. Every deal is
written to ``results/bench/fans-<time>.csv``.
"""

from __future__ import annotations

import csv
import os
import statistics
import time

import numpy as np

from benchmarks.solver import RESULTS_DIR, _quantile, new_results_file, warm_up
from simlab import make_game
from simlab.play import deal_rng
from simlab.policies.catalog import make_policy

FIRST_DEAL = int(os.environ.get("SIMLAB_BENCH_FIRST_DEAL", "1"))
DEAL_COUNT = int(os.environ.get("SIMLAB_BENCH_DEALS", "1000"))
FAIR_COUNT = int(os.environ.get("SIMLAB_BENCH_FAIR_DEALS", str(DEAL_COUNT)))
PARTS = os.environ.get("SIMLAB_BENCH_FANS", "thoughtful,fair").split(",")

# (label, game, game parameters, most unresolved share, most mean CPU-s per deal)
THOUGHTFUL = (
    ("la_belle_lucie", "la_belle_lucie", {}, 0.01, 1.0),
    ("la_belle_lucie draw", "la_belle_lucie", {"draw": True}, 0.01, 1.0),
    ("trefoil", "trefoil", {}, 0.01, 1.0),
    ("fan", "fan", {}, 0.005, 1.0),
    ("fan blake_gent", "fan", {"deal": "round_robin", "foundation_return": True}, 0.005, 1.0),
)
FAIR_GAMES = (("la_belle_lucie", "la_belle_lucie", {}), ("trefoil", "trefoil", {}))
FAIR_POLICIES = (("solver fair", "solver", {"mode": "fair"}), ("round_max", "round_max", {}))
FIELDS = ["part", "game", "policy", "deal", "verdict", "reason", "nodes", "cpu_s", "cards_home"]


def play_rows(label: str, game, policy_label: str, policy, deals: range, writer) -> list[dict]:
    """Play ``deals`` (the experiments' seeding: root seed 0), timing each."""
    rows = []
    for deal in deals:
        state = game.initial_state(deal)
        start = time.process_time()
        record = policy.play(game, state, deal_rng(deal, 0, policy_label))
        row = {"part": "thoughtful" if policy_label == "solver" else "fair", "game": label, "policy": policy_label,
               "deal": deal, "verdict": record.verdict, "reason": record.end_reason, "nodes": record.nodes,
               "cpu_s": round(time.process_time() - start, 6), "cards_home": record.cards_home}
        writer.writerow(row)
        rows.append(row)
    return rows


def summary(label: str, policy_label: str, information: str, rows: list[dict], target=None) -> None:
    n = len(rows)
    counts = {v: sum(r["verdict"] == v for r in rows) for v in ("won", "lost", "unknown")}
    cpu = [r["cpu_s"] for r in rows]
    mean = statistics.fmean(cpu)
    print(f"-- {label}, {policy_label} ({information}), deals {rows[0]['deal']}-{rows[-1]['deal']} ({n})")
    print(f"   won {counts['won']:>5} ({100 * counts['won'] / n:.1f}%)  lost {counts['lost']:>5}"
          f"  unknown {counts['unknown']:>4} ({100 * counts['unknown'] / n:.2f}%)")
    print(f"   CPU-s per deal: median {statistics.median(cpu):.4f}  p95 {_quantile(cpu, 0.95):.4f}"
          f"  mean {mean:.4f}  max {max(cpu):.3f}")
    if target:
        most_unknown, most_mean = target
        share = counts["unknown"] / n
        print(f"   target   unresolved {100 * share:.2f}% (at most {100 * most_unknown:.1f}%: "
              f"{'met' if share <= most_unknown else 'MISSED'}), mean {mean:.3f} CPU-s "
              f"(under {most_mean}: {'met' if mean < most_mean else 'MISSED'})")


def run() -> None:
    path = new_results_file(RESULTS_DIR, "fans")
    deals = range(FIRST_DEAL, FIRST_DEAL + DEAL_COUNT)
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        if "thoughtful" in PARTS:
            solver = make_policy("solver")
            for label, name, params, most_unknown, most_mean in THOUGHTFUL:
                game = make_game(name, **params)
                warm_up(game)
                information = "thoughtful" if game.has_chance else "open"
                rows = play_rows(label, game, "solver", solver, deals, writer)
                summary(label, "solver", information, rows, (most_unknown, most_mean))
                handle.flush()
        if "fair" in PARTS:
            for label, name, params in FAIR_GAMES:
                game = make_game(name, **params)
                for policy_label, policy_name, policy_params in FAIR_POLICIES:
                    policy = make_policy(policy_name, **policy_params)
                    policy.play(game, game.initial_state(1), np.random.default_rng(0))  # compile before timing
                    rows = play_rows(label, game, policy_label, policy, deals[:FAIR_COUNT], writer)
                    summary(label, policy_label, "fair", rows)
                    handle.flush()
    print(f"per-deal results: {path}")
