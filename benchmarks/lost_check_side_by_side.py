"""Two commits solve the same deals side by side: verdicts, positions and CPU per deal.

    python -m benchmarks.lost_check_side_by_side OLD NEW --games beleaguered_castle,streets_and_alleys
        [--first 1] [--last 1000] [--deals 1,3,...] [--skip 363,398] [--budget N] [--out FILE]

Each commit is checked out as ``benchmarks.compare_commits`` does and runs in a
worker process of its own (its own numba cache); the driver hands the workers
one deal at a time, alternately (and the games in turn), so both see the same
machine load. A worker warms its kernels on deal 1 of each game first. Each line of ``--out`` is one deal:
the game, the deal, and per commit the verdict, the positions searched, the
positions of the search that confirmed a loss (``check_nodes``, 0 where the
commit has none) and the CPU seconds of ``solve``. At the end it prints the
deals whose verdict or positions differ and the CPU per game.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import IO, Any

from benchmarks.compare_commits import resolve
from benchmarks.side_by_side import Worker


def ask(worker: Worker, game: str, deal: int, budget: int) -> dict[str, Any]:
    """One solve of ``deal`` by ``worker``: its verdict, positions, confirming positions and CPU."""
    answer = worker.ask(kind="solve", game=game, deal=deal, budget=budget, repeat=1)
    return {"verdict": answer["verdict"], "nodes": answer["nodes"], "seconds": answer["cpu"],
            "check_nodes": answer["check_nodes"]}


def run(old: str, new: str, games: list[str], deals: list[int], budget: int, out: IO[str]) -> list[dict]:
    """Solve every deal of every game with both commits, alternately; write and return the rows."""
    workers = {"old": Worker(old), "new": Worker(new)}
    rows = []
    for game in games:
        for process in workers.values():
            ask(process, game, 1, budget)  # warms the kernels
    for deal in deals:  # the games in turn, so that any prefix of the run covers each
        for game in games:
            row: dict[str, Any] = {"game": game, "deal": deal}
            for side, process in workers.items():
                row[side] = ask(process, game, deal, budget)
            out.write(json.dumps(row) + "\n")
            out.flush()
            rows.append(row)
    for process in workers.values():
        process.process.stdin.close()
        process.process.wait()
    return rows


def summary(rows: list[dict]) -> None:
    """Print the deals that differ and, per game, the verdicts and CPU of each side."""
    for row in rows:
        old, new = row["old"], row["new"]
        if (old["verdict"], old["nodes"]) != (new["verdict"], new["nodes"]):
            print(f"DIFFER {row['game']} {row['deal']}: {old} {new}")
    for game in dict.fromkeys(row["game"] for row in rows):
        mine = [row for row in rows if row["game"] == game]
        for side in ("old", "new"):
            counts = {v: sum(row[side]["verdict"] == v for row in mine) for v in ("won", "lost", "unknown")}
            seconds = sum(row[side]["seconds"] for row in mine)
            lost = sum(row[side]["seconds"] for row in mine if row[side]["verdict"] == "lost")
            nodes = sum(row[side]["nodes"] for row in mine)
            checks = sum(row[side]["check_nodes"] for row in mine)
            print(f"{game} {side}: {counts} CPU {seconds:.1f} s (mean {seconds / len(mine):.4f}; "
                  f"lost deals {lost:.1f} s); positions {nodes}, confirming {checks}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.lost_check_side_by_side", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--games", default="beleaguered_castle,streets_and_alleys")
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=1000)
    parser.add_argument("--deals", default="", help="comma-separated deals, instead of --first to --last")
    parser.add_argument("--skip", default="", help="comma-separated deals to leave out (known to run to the budget)")
    parser.add_argument("--budget", type=int, default=32_000_000)
    parser.add_argument("--out", type=Path, default=Path("results/lost_check_side_by_side.jsonl"))
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w") as out:
        skip = {int(deal) for deal in args.skip.split(",") if deal}
        chosen = [int(deal) for deal in args.deals.split(",")] if args.deals else range(args.first, args.last + 1)
        deals = [deal for deal in chosen if deal not in skip]
        rows = run(resolve(args.old), resolve(args.new), args.games.split(","), deals, args.budget, out)
    summary(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
