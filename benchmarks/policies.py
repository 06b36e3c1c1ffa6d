"""Games per second per core of each playout policy on Beleaguered Castle deals 1-1000.

Each game is ``simlab.play_deal``, as an experiment plays it: deal the cards,
derive the policy's generator, play to the end. One warm-up game per policy
first, so loading (or compiling) the numba kernels is not timed.
"""

from __future__ import annotations

import time

from simlab import POLICIES, make_game, make_policy, play_deal

GAME = "beleaguered_castle"
DEALS = range(1, 1001)
SKIP = {"solver": "has its own section (benchmarks/solver.py)",
        "round_max": "a search of each round; timed on La Belle Lucie and Trefoil (benchmarks/fans.py)",
        "lookahead": "a search before each move; timed per budget (benchmarks/ladder.py)"}
TARGETS = {"greedy": 5000.0}  # games/s per core the issue asks for


def time_policy(name: str) -> tuple[int, int, float]:
    """Play every deal with policy ``name``; return (games, won, CPU seconds)."""
    game = make_game(GAME)
    policy = make_policy(name)
    play_deal(game, policy, DEALS[0])  # warm-up: load the compiled kernels
    start = time.process_time()
    won = sum(play_deal(game, policy, deal).won for deal in DEALS)
    return len(DEALS), won, time.process_time() - start


def run() -> None:
    """Print one row per policy: games, wins, CPU seconds and games/s per core."""
    print(f"{GAME}, deals {DEALS[0]}-{DEALS[-1]}, one process")
    print(f"{'policy':<12}{'games':>7}{'won':>6}{'CPU s':>9}{'games/s/core':>14}  target")
    for name in POLICIES.names():
        if name in SKIP:
            print(f"{name:<12}  skipped: {SKIP[name]}")
            continue
        games, won, seconds = time_policy(name)
        rate = games / seconds if seconds > 0 else float("inf")
        target = TARGETS.get(name)
        verdict = "" if target is None else f"{target:,.0f}: {'met' if rate >= target else 'MISSED'}"
        print(f"{name:<12}{games:>7}{won:>6}{seconds:>9.3f}{rate:>14,.0f}  {verdict}")
