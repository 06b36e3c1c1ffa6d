"""The probe cost of critical decisions (``simlab.solver.critical``) per won deal.

Beleaguered Castle and Citadel: each deal is solved first (budget
``SIMLAB_BENCH_CRITICAL_SOLVE_BUDGET``, default 2,000,000 positions, not the
solver's 32M: the solve is not what is timed here, and a deal it leaves
unknown is only left out), then the critical decisions along each won deal's
line are counted with ``SIMLAB_BENCH_PROBE_BUDGET`` positions per probe
(default 10,000). Per game: won deals, line length, positions with a choice,
critical and undecided positions and the critical share (median, mean,
range), and the probe cost per deal: CPU seconds (median, p95, mean), probes
and positions searched (mean). A warm-up count first, so compiling or loading
the kernels is not timed.

Knobs: ``SIMLAB_BENCH_CRITICAL_DEALS=N`` (default 20), ``SIMLAB_BENCH_FIRST_DEAL=K``
(default 1), ``SIMLAB_BENCH_PROBE_BUDGET=N``, ``SIMLAB_BENCH_CRITICAL_SOLVE_BUDGET=N``,
``SIMLAB_BENCH_GAMES=a,b``. Every won deal is written to
``results/bench/critical-<time>.csv``.
"""

from __future__ import annotations

import csv
import os
import statistics
import time

from benchmarks.solver import RESULTS_DIR, _quantile, new_results_file
from simlab import make_game
from simlab.engine.game import Game
from simlab.solver import solve
from simlab.solver.critical import critical_decisions

GAMES = [g for g in os.environ.get("SIMLAB_BENCH_GAMES", "beleaguered_castle,citadel").split(",") if g]
DEAL_COUNT = int(os.environ.get("SIMLAB_BENCH_CRITICAL_DEALS", "20"))
FIRST_DEAL = int(os.environ.get("SIMLAB_BENCH_FIRST_DEAL", "1"))
PROBE_BUDGET = int(os.environ.get("SIMLAB_BENCH_PROBE_BUDGET", "10000"))
SOLVE_BUDGET = int(os.environ.get("SIMLAB_BENCH_CRITICAL_SOLVE_BUDGET", "2000000"))
FIELDS = ["game", "deal", "line", "positions", "critical", "undecided", "share", "probes", "nodes",
          "cpu_seconds", "critical_at"]


def count_deal(game: Game, deal: int) -> dict | None:
    """The critical decisions of ``deal`` as a row, or None when the solve did not win it."""
    start = game.initial_state(deal)
    result = solve(game, start, budget=SOLVE_BUDGET)
    if not result.won:
        return None
    clock = time.process_time()
    found = critical_decisions(game, start, result.moves, PROBE_BUDGET)
    seconds = time.process_time() - clock
    return {"game": game.name, "deal": deal, "line": len(result.moves), "positions": found.positions,
            "critical": found.critical, "undecided": found.undecided, "share": round(found.share, 4),
            "probes": found.probes, "nodes": found.nodes, "cpu_seconds": round(seconds, 4),
            "critical_at": " ".join(map(str, found.critical_at))}


def warm_up(game: Game) -> None:
    """Count one won deal untimed (compiles or loads every kernel a count calls)."""
    for deal in range(1, 50):
        if count_deal(game, deal) is not None:
            return


def spread(values: list[float], digits: int = 0) -> str:
    """Median, mean and range of ``values`` as one cell."""
    return (f"{statistics.median(values):.{digits}f} / {statistics.fmean(values):.{digits}f} / "
            f"{min(values):.{digits}f}-{max(values):.{digits}f}")


def summary(name: str, rows: list[dict], tried: int) -> None:
    """One game's figures: counts as median / mean / range, cost per deal."""
    print(f"{name}: {len(rows)} of {tried} deals won within the solve budget")
    if not rows:
        return
    seconds = [r["cpu_seconds"] for r in rows]
    for label, key, digits in (("line length", "line", 0), ("positions with a choice", "positions", 0),
                               ("critical", "critical", 0), ("undecided", "undecided", 0),
                               ("critical share", "share", 3)):
        print(f"  {label:<24} median / mean / range  {spread([r[key] for r in rows], digits)}")
    print(f"  probe cost per deal: CPU s median {statistics.median(seconds):.3f}, p95 {_quantile(seconds, 0.95):.3f}, "
          f"mean {statistics.fmean(seconds):.3f}; probes mean {statistics.fmean(r['probes'] for r in rows):,.0f}, "
          f"positions searched mean {statistics.fmean(r['nodes'] for r in rows):,.0f}")


def run() -> None:
    path = new_results_file(RESULTS_DIR, "critical")
    deals = range(FIRST_DEAL, FIRST_DEAL + DEAL_COUNT)
    print(f"deals {deals[0]}-{deals[-1]}, probe budget {PROBE_BUDGET:,}, solve budget {SOLVE_BUDGET:,}")
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        for name in GAMES:
            game = make_game(name)
            warm_up(game)
            rows = []
            for deal in deals:
                row = count_deal(game, deal)
                if row is not None:
                    writer.writerow(row)
                    handle.flush()
                    rows.append(row)
            summary(name, rows, len(deals))
    print(f"per-deal results: {path}")
