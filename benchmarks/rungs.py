"""The rungs of the ladder, deal for deal: wins per game of tap, greedy, greedy
with ``play_on``, heuristic and the small ``lookahead`` budgets (issue 22's check
that every rung above greedy wins at least as many deals as greedy in every game).

    python -m benchmarks.rungs [--start 1] [--count 300] [--rungs tap,greedy,...]

Root seed 0; one process; about a minute for 300 deals of every game with the
default rungs (tap, greedy, greedy play_on, heuristic).
"""

from __future__ import annotations

import argparse
import time
from typing import Sequence

from simlab import GAMES, make_game, make_policy, play_deal

RUNGS = {
    "tap": ("tap", {}),
    "greedy": ("greedy", {}),
    "greedy play_on": ("greedy", {"play_on": True}),
    "heuristic": ("heuristic", {}),
    "lookahead_10": ("lookahead", {"budget": 10}),
    "lookahead_100": ("lookahead", {"budget": 100}),
    "lookahead_1000": ("lookahead", {"budget": 1000}),
}
DEFAULT_RUNGS = ("tap", "greedy", "greedy play_on", "heuristic")


def wins(game_name: str, rung: str, deals: range) -> int:
    """Deals of ``deals`` the rung wins (root seed 0)."""
    game = make_game(game_name)
    name, params = RUNGS[rung]
    policy = make_policy(name, **params)
    return sum(play_deal(game, policy, deal).won for deal in deals)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.rungs", description=__doc__)
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--rungs", default=",".join(DEFAULT_RUNGS),
                        help=f"comma-separated, of: {', '.join(RUNGS)}")
    args = parser.parse_args(argv)
    rungs = args.rungs.split(",")
    unknown = [rung for rung in rungs if rung not in RUNGS]
    if unknown:
        parser.error(f"unknown rung(s) {', '.join(unknown)}; known: {', '.join(RUNGS)}")
    deals = range(args.start, args.start + args.count)
    print(f"deals {deals.start}-{deals.stop - 1}: deals won")
    print(f"{'game':<22}" + "".join(f"{rung:>16}" for rung in rungs) + "   CPU s")
    for game_name in GAMES.names():
        started = time.process_time()
        counts = [wins(game_name, rung, deals) for rung in rungs]
        print(f"{game_name:<22}" + "".join(f"{count:>16}" for count in counts)
              + f"{time.process_time() - started:8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
