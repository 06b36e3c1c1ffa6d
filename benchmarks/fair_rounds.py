"""La Belle Lucie and Trefoil: the fair solver against ``round_max``, paired on the same deals.

Both players never see a future shuffle, so each one's win rate is a lower
bound on perfect fair play. They play the same deals, so the comparison is
paired: an exact McNemar test on the discordant deals (``b``: the fair solver
won and round_max lost, ``c``: the reverse; under no difference each
discordant deal is a fair coin, so p is the two-sided binomial test of b in
b + c at one half). Games: La Belle Lucie (PySolFC's rules), La Belle Lucie
with Hoyle's draw, Trefoil. Per game and player: won, CPU-s per deal (mean,
median, p95); then b, c and p.

Knobs (environment variables): ``SIMLAB_BENCH_FIRST_DEAL=K`` (default 1),
``SIMLAB_BENCH_DEALS=N`` (default 100; a paired test that can see a difference
of a few points needs about 2000), ``SIMLAB_BENCH_FAIR_GAMES`` (default
``lbl,trefoil``; ``lbl_draw`` adds Hoyle's draw, where a sampled last round has
no loss proof to cut it short).
Every deal is written to ``results/bench/fair_rounds-<time>.csv``; ``python -m
benchmarks.fair_rounds FILE...`` prints the tables again from such files (deals
in several files, e.g. ranges run side by side, are pooled).
"""

from __future__ import annotations

import csv
import os
import statistics
import sys
import time

import numpy as np

from benchmarks.solver import RESULTS_DIR, _quantile, new_results_file
from simlab import make_game
from simlab.experiments.stats import mcnemar_exact
from simlab.play import deal_rng
from simlab.policies.catalog import make_policy

FIRST_DEAL = int(os.environ.get("SIMLAB_BENCH_FIRST_DEAL", "1"))
DEAL_COUNT = int(os.environ.get("SIMLAB_BENCH_DEALS", "100"))
GAMES = {
    "lbl": ("la_belle_lucie", {}),
    "lbl_draw": ("la_belle_lucie", {"draw": True}),
    "trefoil": ("trefoil", {}),
}
CHOSEN = os.environ.get("SIMLAB_BENCH_FAIR_GAMES", "lbl,trefoil").split(",")
FAIR = "solver fair"
POLICIES = ((FAIR, "solver", {"mode": "fair"}), ("round_max", "round_max", {}))
FIELDS = ["game", "policy", "deal", "verdict", "cards_home", "nodes", "cpu_s"]


def mcnemar(first: dict[int, bool], second: dict[int, bool]) -> tuple[int, int, float]:
    """Exact McNemar test on the deals both played: (b, c, two-sided p), b the
    deals only ``first`` won, c those only ``second`` won."""
    deals = first.keys() & second.keys()
    b = sum(first[d] and not second[d] for d in deals)
    c = sum(second[d] and not first[d] for d in deals)
    return b, c, mcnemar_exact(b, c)


def report(rows: list[dict]) -> None:
    """Per game: each player's wins and CPU, and the paired test."""
    for game in dict.fromkeys(row["game"] for row in rows):
        won: dict[str, dict[int, bool]] = {}
        for label, _, _ in POLICIES:
            mine = [row for row in rows if row["game"] == game and row["policy"] == label]
            if not mine:
                continue
            won[label] = {int(row["deal"]): row["verdict"] == "won" for row in mine}
            cpu = [float(row["cpu_s"]) for row in mine]
            wins = sum(won[label].values())
            deals = sorted(won[label])
            print(f"-- {game}, {label} (fair), deals {deals[0]}-{deals[-1]} ({len(deals)}): won {wins}"
                  f" ({100 * wins / len(deals):.1f}%); CPU-s per deal mean {statistics.fmean(cpu):.3f}"
                  f" median {statistics.median(cpu):.3f} p95 {_quantile(cpu, 0.95):.3f}")
        if len(won) == 2:
            b, c, p = mcnemar(won[FAIR], won["round_max"])
            print(f"   paired on {len(won[FAIR].keys() & won['round_max'].keys())} deals: fair solver only {b},"
                  f" round_max only {c}, exact McNemar p = {p:.4g}")


def players(label: str) -> tuple:
    """The game ``label`` names and its two players, compiled before anything is timed."""
    name, params = GAMES[label]
    game = make_game(name, **params)
    chosen = []
    for policy_label, policy_name, policy_params in POLICIES:
        warm = make_policy(policy_name, **policy_params, max_moves=5)
        warm.play(game, game.initial_state(1), np.random.default_rng(0))
        chosen.append((policy_label, make_policy(policy_name, **policy_params)))
    return game, chosen


def run() -> None:
    """Every chosen game and player, deal by deal (so a run stopped early still pairs
    every deal it finished: the per-deal file is flushed row by row)."""
    path = new_results_file(RESULTS_DIR, "fair_rounds")
    games = {label: players(label) for label in CHOSEN}
    rows = []
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        writer.writeheader()
        for deal in range(FIRST_DEAL, FIRST_DEAL + DEAL_COUNT):
            for label, (game, chosen) in games.items():
                for policy_label, policy in chosen:
                    start = time.process_time()
                    record = policy.play(game, game.initial_state(deal), deal_rng(deal, 0, policy_label))
                    row = {"game": label, "policy": policy_label, "deal": deal, "verdict": record.verdict,
                           "cards_home": record.cards_home, "nodes": record.nodes,
                           "cpu_s": round(time.process_time() - start, 6)}
                    writer.writerow(row)
                    rows.append(row)
            handle.flush()
    report(rows)
    print(f"per-deal results: {path}")


def main(paths: list[str]) -> None:
    """The tables again from per-deal files (a deal seen twice counts once: the last row)."""
    pooled: dict[tuple[str, str, int], dict] = {}
    for path in paths:
        with open(path, newline="") as handle:
            for row in csv.DictReader(handle):
                pooled[(row["game"], row["policy"], int(row["deal"]))] = row
    report(list(pooled.values()))


if __name__ == "__main__":
    main(sys.argv[1:]) if sys.argv[1:] else run()
