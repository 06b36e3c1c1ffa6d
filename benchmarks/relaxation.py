"""The information-relaxation upper bound on fair play (``relaxation_bound``)
beside ``round_max``, La Belle Lucie (with and without the draw) and Trefoil.

Per deal, game by game in turn (so a run cut short still covers every game on
the same deals): the bound's penalised value and its CPU seconds, and
``round_max``'s verdict on the same deal. Then per game: the bound's mean with
a 95% interval (normal, over deals), round_max's win rate with a Wilson 95%
interval, and the bracket's width (the bound's upper end less round_max's lower
end). The fair solver is not rerun here (about 18% on La Belle Lucie deals
1-200 in ``fans``); ``SIMLAB_BENCH_RELAX_FAIR=1`` adds it (costly).

Knobs (environment variables): ``SIMLAB_BENCH_FIRST_DEAL`` (default 1),
``SIMLAB_BENCH_RELAX_DEALS`` (default 30), ``SIMLAB_BENCH_RELAX_GAMES``
(comma-separated labels below, default ``la_belle_lucie,trefoil``: the draw
costs a hundred times more), ``SIMLAB_BENCH_RELAX_SAMPLES`` and
``SIMLAB_BENCH_RELAX_FINAL_SAMPLES`` (the bound's ``samples`` and
``final_samples``), ``SIMLAB_BENCH_RELAX_FINAL_BUDGET``. Run alone:
``python -m benchmarks --only relaxation``.

Cost at the defaults (CPU-s per deal, bound and round_max): La Belle Lucie about
14, Trefoil about 2.5, La Belle Lucie with the draw about 150 (one deal
measured): the default 30 deals of the two take about ten CPU-minutes; 200
deals of all three take hours (choose deals or games with the knobs).
"""

from __future__ import annotations

import math
import os
import statistics
import time

from simlab import make_game
from simlab.experiments.stats import wilson_interval
from simlab.play import deal_rng
from simlab.policies.catalog import make_policy
from simlab.solver.relaxation import DEFAULT_FINAL_BUDGET, DEFAULT_FINAL_SAMPLES, DEFAULT_SAMPLES

FIRST_DEAL = int(os.environ.get("SIMLAB_BENCH_FIRST_DEAL", "1"))
DEAL_COUNT = int(os.environ.get("SIMLAB_BENCH_RELAX_DEALS", "30"))
SAMPLES = int(os.environ.get("SIMLAB_BENCH_RELAX_SAMPLES", str(DEFAULT_SAMPLES)))
FINAL_SAMPLES = int(os.environ.get("SIMLAB_BENCH_RELAX_FINAL_SAMPLES", str(DEFAULT_FINAL_SAMPLES)))
FINAL_BUDGET = int(os.environ.get("SIMLAB_BENCH_RELAX_FINAL_BUDGET", str(DEFAULT_FINAL_BUDGET)))
WITH_FAIR = os.environ.get("SIMLAB_BENCH_RELAX_FAIR", "0") == "1"

GAMES = (
    ("la_belle_lucie", "la_belle_lucie", {}),
    ("la_belle_lucie draw", "la_belle_lucie", {"draw": True}),
    ("trefoil", "trefoil", {}),
)
CHOSEN = os.environ.get("SIMLAB_BENCH_RELAX_GAMES", "la_belle_lucie,trefoil").split(",")


def mean_interval(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and its normal 95% interval."""
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, mean - half, mean + half


def run() -> None:
    games = [(label, make_game(name, **params)) for label, name, params in GAMES if label in CHOSEN]
    bound = make_policy("relaxation_bound", samples=SAMPLES, final_samples=FINAL_SAMPLES, final_budget=FINAL_BUDGET)
    players = [("round_max", make_policy("round_max"))]
    if WITH_FAIR:
        players.append(("solver fair", make_policy("solver", mode="fair")))
    rows: dict[str, list[dict]] = {label: [] for label, _ in games}
    print(f"bound: samples {SAMPLES}, final_samples {FINAL_SAMPLES}, final_budget {FINAL_BUDGET}")
    for deal in range(FIRST_DEAL, FIRST_DEAL + DEAL_COUNT):
        for label, game in games:
            state = game.initial_state(deal)
            start = time.process_time()
            record = bound.play(game, state, deal_rng(deal, 0, "relaxation_bound"))
            row = {"deal": deal, "value": record.value, "cpu": time.process_time() - start, "nodes": record.nodes}
            for name, player in players:
                start = time.process_time()
                row[name] = player.play(game, state, deal_rng(deal, 0, name.split()[0])).won
                row[name + " cpu"] = time.process_time() - start
            rows[label].append(row)
            # one line a deal, so a run cut short still gives every figure (the summaries come at the end)
            print(f"   {label:<20} deal {deal:>5}  bound {row['value']:.3f}  cpu {row['cpu']:7.2f}  "
                  + "  ".join(f"{name} {int(row[name])}" for name, _ in players), flush=True)
    for label, _ in games:
        summary(label, rows[label], [name for name, _ in players])


def summary(label: str, rows: list[dict], players: list[str]) -> None:
    if not rows:
        return
    n = len(rows)
    mean, low, high = mean_interval([row["value"] for row in rows])
    cpu = [row["cpu"] for row in rows]
    print(f"-- {label}, deals {rows[0]['deal']}-{rows[-1]['deal']} ({n})")
    print(f"   relaxation bound {100 * mean:.1f}% (95% {100 * low:.1f}-{100 * high:.1f}), CPU-s per deal "
          f"mean {statistics.fmean(cpu):.2f} median {statistics.median(cpu):.2f} max {max(cpu):.1f}")
    for name in players:
        wins = sum(row[name] for row in rows)
        lower, upper = wilson_interval(wins, n)
        print(f"   {name}: {wins}/{n} = {100 * wins / n:.1f}% (95% {100 * lower:.1f}-{100 * upper:.1f}), "
              f"CPU-s per deal {statistics.fmean(row[name + ' cpu'] for row in rows):.2f}; "
              f"bracket width {100 * (high - lower):.1f} points")
