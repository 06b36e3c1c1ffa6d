"""The ladder of players: CPU seconds per deal and win rate of each rung on Beleaguered Castle and Citadel.

Rungs, weakest first: ``random``, ``greedy``, ``heuristic``, ``tap``, then ``lookahead`` at
10, 100, 1,000, 10,000 and 100,000 positions per move. Each game is
``simlab.play_deal``, as an experiment plays it (one warm-up game per rung
first, so compiling or loading the kernels is not timed; CPU is
``time.process_time``).

Knobs (environment variables, no command line):

- ``SIMLAB_BENCH_LADDER_DEALS=N``: N deals per game and rung (default 20; the
  issue's figures are on deals 1-1000, a run of hours);
- ``SIMLAB_BENCH_LADDER_TOP_DEALS=M``: the 100,000 rung plays only the first M
  of them (default 5); its row says so;
- ``SIMLAB_BENCH_LADDER_TOP_MAX_MOVES=C``: and stops (lost, ``move_cap``) after C
  moves (default 300; the policy's default is 2000). A lookahead player that
  finds no win may wander for its whole move cap without repeating a position,
  each move a full search: at 10,000 positions a move such a deal of
  Beleaguered Castle cost 60-70 CPU-s, at 100,000 it would cost ten times
  that. Its winning games are mostly 60-200 moves long (at 1,000 a move, 3 of
  16 Beleaguered Castle wins on deals 1-40 took 500-1,406 moves);
- ``SIMLAB_BENCH_FIRST_DEAL=K``: starting at deal K (default 1);
- ``SIMLAB_BENCH_GAMES=a,b``: other games.

Every deal is written to ``results/bench/ladder-<time>.csv`` (a new file per run).
"""

from __future__ import annotations

import csv
import os
import time
from pathlib import Path
from typing import Any

from benchmarks.solver import new_results_file
from simlab import make_game, make_policy, play_deal
from simlab.engine.game import Game

GAMES = [g for g in os.environ.get("SIMLAB_BENCH_GAMES", "beleaguered_castle,citadel").split(",") if g]
DEAL_COUNT = int(os.environ.get("SIMLAB_BENCH_LADDER_DEALS", "20"))
TOP_DEAL_COUNT = int(os.environ.get("SIMLAB_BENCH_LADDER_TOP_DEALS", "5"))
TOP_MAX_MOVES = int(os.environ.get("SIMLAB_BENCH_LADDER_TOP_MAX_MOVES", "300"))
FIRST_DEAL = int(os.environ.get("SIMLAB_BENCH_FIRST_DEAL", "1"))
LOOKAHEAD_BUDGETS = (10, 100, 1_000, 10_000, 100_000)
TOP_BUDGET = LOOKAHEAD_BUDGETS[-1]
RESULTS_DIR = Path(__file__).resolve().parent.parent / "results" / "bench"


def rungs() -> list[tuple[str, str, dict[str, Any], int]]:
    """(label, policy, parameters, deals) per rung, weakest first."""
    ladder: list[tuple[str, str, dict[str, Any], int]] = [
        (name, name, {}, DEAL_COUNT) for name in ("random", "greedy", "heuristic", "tap")
    ]
    for budget in LOOKAHEAD_BUDGETS:
        params: dict[str, Any] = {"budget": budget}
        deals = DEAL_COUNT
        if budget == TOP_BUDGET:
            params["max_moves"] = TOP_MAX_MOVES
            deals = min(DEAL_COUNT, TOP_DEAL_COUNT)
        ladder.append((f"lookahead:{budget}", "lookahead", params, deals))
    return ladder


def time_rung(game: Game, policy_name: str, params: dict[str, Any], deals: range, label: str,
              writer: csv.DictWriter) -> tuple[int, float]:
    """Play ``deals`` with one rung, writing a row per deal; return (won, CPU seconds)."""
    policy = make_policy(policy_name, **params)
    play_deal(game, policy, deals[0])  # warm-up: load the compiled kernels
    won, total = 0, 0.0
    for deal in deals:
        start = time.process_time()
        record = play_deal(game, policy, deal)
        seconds = time.process_time() - start
        won += record.won
        total += seconds
        writer.writerow({"game": game.name, "rung": label, "deal": deal, "verdict": record.verdict,
                         "end_reason": record.end_reason, "moves": len(record.moves),
                         "cards_home": record.cards_home, "cpu_s": f"{seconds:.4f}"})
    return won, total


def run() -> None:
    """Print one row per game and rung: deals, wins, win % and CPU seconds per deal."""
    path = new_results_file(RESULTS_DIR, "ladder")
    fields = ["game", "rung", "deal", "verdict", "end_reason", "moves", "cards_home", "cpu_s"]
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for name in GAMES:
            game = make_game(name)
            print(f"{name}, deals from {FIRST_DEAL}, one process")
            print(f"{'rung':<18}{'deals':>6}{'won':>5}{'won %':>7}{'CPU s/deal':>12}")
            for label, policy_name, params, count in rungs():
                deals = range(FIRST_DEAL, FIRST_DEAL + count)
                won, seconds = time_rung(game, policy_name, params, deals, label, writer)
                handle.flush()
                note = f"  (first {count} deals only)" if count < DEAL_COUNT else ""
                if "max_moves" in params:
                    note += f"  (max_moves {params['max_moves']})"
                print(f"{label:<18}{count:>6}{won:>5}{100 * won / count:>7.1f}{seconds / count:>12.4f}{note}")
    print(f"per-deal results: {path}")


if __name__ == "__main__":
    run()
