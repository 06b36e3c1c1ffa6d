"""CPU per position and per small solve of several commits, measured side by side.

    python -m benchmarks.side_by_side COMMIT [COMMIT ...] [--games a,b] [--deals 1,2] [--budget N]
                                      [--tiny-repeats N] [--rounds N]

Each commit is checked out under ``results/compare/trees/`` (as
``benchmarks.compare_commits`` does) and runs in a worker process of its own
that imports that commit's ``simlab``; the workers are warmed (every kernel
compiled, every search run once), then take turns round by round, so that the
commits share the machine's load alike. Per game it prints, for each commit,
the CPU microseconds per position of long searches (``--deals`` at ``--budget``
positions, the sum of CPU over the sum of positions) and the CPU milliseconds of
a solve of a tiny deal (the deal of 1-200 that the solver wins in the fewest
positions, at least 10, solved ``--tiny-repeats`` times per round), each as the median over
the rounds, and checks that the commits searched the same number of positions.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

GAMES = ("beleaguered_castle", "streets_and_alleys", "citadel")
TINY_LIMIT = 5000  # positions: the tiny deal is the won deal of 1-200 with the fewest, at least TINY_FLOOR
TINY_FLOOR = 10  # positions: a search at all, not a deal won by automatic plays alone


# --- run inside a commit's checkout -------------------------------------------------


def tiny_cost(result) -> int:
    """How far a solve is from a tiny won one: its positions if it won in at least
    ``TINY_FLOOR``, else more than any such."""
    return result.nodes if result.verdict == "won" and result.nodes >= TINY_FLOOR else TINY_LIMIT + 1


def serve() -> None:
    """Answer requests read from stdin, one JSON line each, with one JSON line each."""
    from simlab import make_game  # the checkout's
    from simlab.solver import solve

    games = {}
    for line in sys.stdin:
        request = json.loads(line)
        name = request["game"]
        game = games.setdefault(name, make_game(name))
        if request["kind"] == "find_tiny":
            deal = min(range(1, 201), key=lambda d: tiny_cost(solve(game, d, budget=TINY_LIMIT)))
            answer = {"deal": deal}
        else:
            cpu, nodes = 0.0, 0
            for _ in range(request["repeat"]):
                clock = time.process_time()
                result = solve(game, request["deal"], budget=request["budget"])
                cpu += time.process_time() - clock
                nodes += result.nodes
            answer = {"cpu": cpu, "nodes": nodes, "verdict": result.verdict,
                      "check_nodes": getattr(result, "check_nodes", 0)}  # 0 before losses were confirmed
        print(json.dumps(answer), flush=True)


# --- the driver ------------------------------------------------------------------------


class Worker:
    """A process serving requests in one commit's checkout."""

    def __init__(self, sha: str) -> None:
        from benchmarks.compare_commits import OUT, checkout  # not in a checkout's worker

        tree = checkout(sha)
        env = dict(os.environ, PYTHONPATH=f"{tree}", NUMBA_CACHE_DIR=str(OUT / "numba" / sha[:12]))
        self.process = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--serve"], cwd=tree,
                                        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, **request) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())


def measure(commits: list[str], games: list[str], deals: list[int], budget: int, tiny_repeats: int,
            rounds: int) -> None:
    from benchmarks.compare_commits import resolve  # not in a checkout's worker

    shas = [resolve(commit) for commit in commits]
    workers = [Worker(sha) for sha in shas]
    for game in games:
        tiny = workers[0].ask(kind="find_tiny", game=game)["deal"]
        long_cpu = {sha: [] for sha in shas}
        tiny_cpu = {sha: [] for sha in shas}
        nodes = {sha: set() for sha in shas}
        for worker in workers:  # warm-up: compiles, and the first table allocations
            worker.ask(kind="solve", game=game, deal=tiny, budget=TINY_LIMIT, repeat=tiny_repeats)
            worker.ask(kind="solve", game=game, deal=deals[0], budget=min(budget, 100_000), repeat=1)
        for turn in range(rounds):
            order = list(zip(shas, workers))
            if turn % 2:
                order.reverse()
            for sha, worker in order:
                cpu = total = 0
                for deal in deals:
                    answer = worker.ask(kind="solve", game=game, deal=deal, budget=budget, repeat=1)
                    cpu += answer["cpu"]
                    total += answer["nodes"]
                long_cpu[sha].append(1e6 * cpu / total)
                nodes[sha].add(total)
                answer = worker.ask(kind="solve", game=game, deal=tiny, budget=TINY_LIMIT, repeat=tiny_repeats)
                tiny_cpu[sha].append(1e3 * answer["cpu"] / tiny_repeats)
        print(f"{game}: deals {deals} at {budget:,} positions; tiny deal {tiny}", flush=True)
        for sha in shas:
            longs = " ".join(f"{value:.3f}" for value in long_cpu[sha])
            tinies = " ".join(f"{value:.3f}" for value in tiny_cpu[sha])
            print(f"  {sha[:7]}: {statistics.median(long_cpu[sha]):.3f} us/position [{longs}]; "
                  f"{statistics.median(tiny_cpu[sha]):.3f} ms/tiny solve [{tinies}]; positions {sorted(nodes[sha])}",
                  flush=True)
    for worker in workers:
        worker.process.stdin.close()
        worker.process.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.side_by_side", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("commits", nargs="*")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--deals", default="954,1,2", help="comma-separated deals of the long searches")
    parser.add_argument("--budget", type=int, default=2_000_000)
    parser.add_argument("--tiny-repeats", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve()
        return 0
    if len(args.commits) < 1:
        parser.error("give at least one commit")
    measure(args.commits, args.games.split(","), [int(d) for d in args.deals.split(",")], args.budget,
            args.tiny_repeats, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
