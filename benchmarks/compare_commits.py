"""Two commits play the same deals: print every record that differs (a refactor must print none).

    python -m benchmarks.compare_commits OLD NEW [--cases a,b] [--jobs 2] [--list]

Each commit is checked out (detached, ``git worktree``) under
``results/compare/trees/`` and plays every case below through the public API
(``make_game``, ``make_policy``, ``play_deal``) in a process that imports that
commit's ``simlab``. A record is the verdict, why play ended, the solver's
positions searched, the cards home and a digest of the whole move list, per
deal. The records of a commit are kept in ``results/compare/<commit>/<case>.jsonl``
(they are a pure function of the commit and the case), so a second comparison
against the same base plays only the new commit.

The cases: deals 1-1000 of every game and rule set under random, greedy,
heuristic and the solver (at its default budget for Beleaguered Castle, at
2,000,000 positions elsewhere: see ``THOUGHTFUL``); deals 1-200 for Windmill's
rule sets (the solver at 100,000 positions) and for the fair players of La Belle
Lucie and Trefoil (``round_max`` and ``solver`` in fair mode); deals 1-20 for
Windmill's fair player. ``--deals N`` plays each case's first N deals only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# SIMLAB_COMPARE_DIR: where records and checkouts are kept (several checkouts may share one)
OUT = Path(os.environ.get("SIMLAB_COMPARE_DIR", ROOT / "results" / "compare"))
CHEAP = ["random", "greedy", "heuristic"]
# The solver at 2,000,000 positions per deal, not its default 32M: an undecided
# Streets and Alleys deal costs 40-50 CPU-s at 32M, which puts the cases at hours
# per commit on 2 cores; 2M runs every strategy of the portfolio (restarts,
# best-first, the long depth-first search, loss proofs), each for a shorter time.
# Beleaguered Castle keeps the default budget.
THOUGHTFUL = [("solver", {"budget": 2_000_000})]
# Windmill's undecided deals cost about 12 us per position: at the 500,000 of its
# experiment the eight rule sets take about an hour per commit on 2 cores, so the
# comparison searches 100,000 (every restart strategy still runs, each shorter)
WINDMILL_SOLVER = [("solver", {"budget": 100_000})]
FAIR = [("round_max", {}), ("solver", {"mode": "fair"})]
WINDMILL_RULES = {
    "pysolfc": {}, "reversed": {"reversed": True}, "strict": {"transfer": "strict"},
    "no_transfer": {"transfer": "none"}, "no_centre_to_king": {"centre_to_king": False},
    "one_pass_more": {"redeals": 1}, "two_passes_more": {"redeals": 2}, "welford": {"welford": True},
}
THOUSAND = (1, 1000)
TWO_HUNDRED = (1, 200)
TWENTY = (1, 20)  # Windmill's fair player: about 2 CPU-s per deal


def cases() -> dict[str, dict[str, Any]]:
    """name -> {game, params, policies: [(name, params)], deals: (first, last)}."""
    table: dict[str, dict[str, Any]] = {}

    def add(name: str, game: str, params: dict, policies: list, deals: tuple[int, int]) -> None:
        table[name] = {"game": game, "params": params, "policies": policies, "deals": deals}

    plain = ["beleaguered_castle", "streets_and_alleys", "citadel", "fortress", "chessboard",
             "castle_of_indolence", "siegecraft", "stronghold", "fan", "la_belle_lucie", "trefoil"]
    variants = {
        "citadel_hoyle": ("citadel", {"deal": "hoyle"}),
        "chessboard_no_wrap": ("chessboard", {"tableau_wrap": False}),
        "fan_blake_gent": ("fan", {"deal": "round_robin", "foundation_return": True}),
        "la_belle_lucie_draw": ("la_belle_lucie", {"draw": True}),
        "trefoil_draw": ("trefoil", {"draw": True}),
        "fan_no_return": ("fan", {"foundation_return": False}),
        "la_belle_lucie_return": ("la_belle_lucie", {"foundation_return": True}),
        "trefoil_return": ("trefoil", {"foundation_return": True}),
    }
    everything = {name: (name, {}) for name in plain} | variants
    for name, (game, params) in everything.items():
        solver = [("solver", {})] if name == "beleaguered_castle" else THOUGHTFUL
        add(name, game, params, [(p, {}) for p in CHEAP] + solver, THOUSAND)
    for name in ("la_belle_lucie", "la_belle_lucie_draw", "trefoil", "trefoil_draw"):
        game, params = everything[name]
        add(f"{name}_fair", game, params, FAIR, TWO_HUNDRED)
    for rule, params in WINDMILL_RULES.items():
        add(f"windmill_{rule}", "windmill", params, [(p, {}) for p in CHEAP] + WINDMILL_SOLVER, TWO_HUNDRED)
    for rule in ("pysolfc", "welford"):
        add(f"windmill_{rule}_fair", "windmill", WINDMILL_RULES[rule], [("solver", {"mode": "fair"})], TWENTY)
    return table


# --- run inside the commit's checkout -------------------------------------------------


def play_chunk(case: dict[str, Any], deals: list[int]) -> list[dict[str, Any]]:
    """The records of ``deals`` under every policy of ``case`` (imports the checkout's simlab)."""
    from simlab import make_game, make_policy, play_deal  # the checkout's, in a worker

    game = make_game(case["game"], **case["params"])
    rows = []
    for name, params in case["policies"]:
        policy = make_policy(name, **params)
        for deal in deals:
            record = play_deal(game, policy, deal)
            moves = "|".join(str(move) for move in record.moves)
            rows.append({"policy": name, "params": params, "deal": deal, "verdict": record.verdict,
                         "reason": record.end_reason, "nodes": int(record.nodes),
                         "home": int(record.cards_home), "moves": len(record.moves),
                         "line": hashlib.sha1(moves.encode()).hexdigest()[:16]})
    return rows


def fingerprint(case_name: str, out: Path, jobs: int, limit: int) -> None:
    """Play one case in this process's checkout and write its records, sorted, to ``out``."""
    from joblib import Parallel, delayed  # only in the checkout's process

    import simlab  # the checkout's

    if not Path(simlab.__file__).resolve().is_relative_to(Path.cwd().resolve()):
        raise SystemExit(f"simlab comes from {simlab.__file__}, not from the checkout {Path.cwd()}")
    case = cases()[case_name]
    first, last = case["deals"]
    deals = list(range(first, (min(last, first + limit - 1) if limit else last) + 1))
    chunks = [deals[start:start + 10] for start in range(0, len(deals), 10)]
    results = Parallel(n_jobs=jobs)(delayed(play_chunk)(case, chunk) for chunk in chunks)
    rows = sorted((row for chunk in results for row in chunk),
                  key=lambda row: (row["policy"], json.dumps(row["params"], sort_keys=True), row["deal"]))
    tmp = out.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(row, sort_keys=True) + "\n" for row in rows))
    tmp.replace(out)


# --- the driver ------------------------------------------------------------------------


def resolve(commit: str) -> str:
    return subprocess.run(["git", "rev-parse", commit], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()


def checkout(sha: str) -> Path:
    tree = OUT / "trees" / sha[:12]
    if not tree.exists():
        tree.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), sha], cwd=ROOT, check=True,
                       capture_output=True)
    return tree


def records(sha: str, case_name: str, jobs: int, limit: int = 0) -> list[dict[str, Any]]:
    """The commit's records of one case (its first ``limit`` deals when not 0), played
    now unless kept from an earlier run."""
    whole = OUT / sha[:12] / f"{case_name}.jsonl"
    if limit and whole.exists():
        first = cases()[case_name]["deals"][0]
        return [row for row in records(sha, case_name, jobs) if row["deal"] < first + limit]
    out = whole.with_name(f"{case_name}-first{limit}.jsonl") if limit else whole
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        tree = checkout(sha)
        env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(OUT / "numba" / sha[:12]))
        subprocess.run([sys.executable, str(Path(__file__).resolve()), "--fingerprint", case_name,
                        "--out", str(out), "--jobs", str(jobs), "--deals", str(limit)], cwd=tree, env=env, check=True)
    return [json.loads(line) for line in out.read_text().splitlines()]


def key(row: dict[str, Any]) -> tuple:
    return row["policy"], json.dumps(row["params"], sort_keys=True), row["deal"]


def compare(old: str, new: str, names: list[str], jobs: int, limit: int) -> int:
    """Print each case's differences; return how many records differ."""
    total = 0
    for name in names:
        clock = time.time()
        before = {key(row): row for row in records(old, name, jobs, limit)}
        after = {key(row): row for row in records(new, name, jobs, limit)}
        differ = [k for k in sorted(before.keys() | after.keys()) if before.get(k) != after.get(k)]
        total += len(differ)
        print(f"{name}: {len(after)} records, {len(differ)} differ ({time.time() - clock:.0f} s)", flush=True)
        for k in differ[:10]:
            print(f"  {k}\n    {old[:12]}: {before.get(k)}\n    {new[:12]}: {after.get(k)}")
    print(f"{total} record(s) differ between {old[:12]} and {new[:12]}")
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compare_commits", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", nargs="?")
    parser.add_argument("new", nargs="?")
    parser.add_argument("--cases", help="comma-separated case names (default: all; --list names them)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes per case (default 2)")
    parser.add_argument("--deals", type=int, default=0,
                        help="only each case's first N deals, for a quick check (default: all)")
    parser.add_argument("--list", action="store_true", help="print the cases and exit")
    parser.add_argument("--fingerprint", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    table = cases()
    if args.fingerprint:
        fingerprint(args.fingerprint, Path(args.out), args.jobs, args.deals)
        return 0
    if args.list:
        for name, case in table.items():
            print(name, case)
        return 0
    if not (args.old and args.new):
        parser.error("give two commits")
    names = args.cases.split(",") if args.cases else list(table)
    unknown = [name for name in names if name not in table]
    if unknown:
        parser.error(f"unknown case(s) {unknown}; --list names them")
    return 1 if compare(resolve(args.old), resolve(args.new), names, args.jobs, args.deals) else 0


if __name__ == "__main__":
    sys.exit(main())
