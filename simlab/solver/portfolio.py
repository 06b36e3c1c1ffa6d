"""Restarts over a portfolio of searches: how the solver tames the heavy tail.

Measured on Beleaguered Castle: the deals a single search leaves unresolved
are mostly wins, and how soon a search finds a given win varies wildly with
the order it tries moves in (deal 186: depth-first search in its plain order
found nothing in 50,000 positions, with 7 of 11 other orders it won within
7,600). So the solver runs complete searches in turn, alternating best-first
and depth-first and changing their move order each run (a seed), with budgets
following Luby, Sinclair and Zuckerman's universal restart sequence
1, 1, 2, 1, 1, 2, 4, ... units, for half the budget; the other half goes to
one long depth-first run (``LUBY_SHARE``). Every strategy is complete, so any
run that exhausts its positions proves the deal lost.
"""

from __future__ import annotations

import numpy as np

from simlab.engine import kernel
from simlab.engine.game import Game
from simlab.solver.best_first import best_first_search
from simlab.solver.search import STATUS_BUDGET, STATUS_LOST, STATUS_MEMORY, STATUS_WON, depth_first_search

# Best-first weights: cards home, empty rows, cards where they belong, burial of
# the next needed cards (see simlab.solver.evaluation.promise). Tried and kept
# as is: doubling the burial weight, more weight on empty rows or cards home,
# and a penalty for cards above lower cards all left more deals unresolved.
PROMISE_WEIGHTS = np.array([20.0, 10.0, 2.0, 3.0])
RESTART_UNIT = 2048  # positions in the shortest run
# Share of the budget for the restarts; the rest goes to one last depth-first run
# in the plain order, long enough to prove the losses that need hundreds of
# thousands of positions (restarts never run that long). Measured at a budget of
# 1M: Beleaguered Castle deals 1-400 left 12 / 9 / 11 unresolved with shares
# 1.0 / 0.5 / 0.25, the 34 deals 1-1000 that 1.0 left unresolved 34 / 19 / 15;
# Streets and Alleys deals 1-200 left 12 (1.0) and 8 (0.5).
LUBY_SHARE = 0.5


def luby(index: int) -> int:
    """The ``index``-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, ..."""
    k = 1
    while (1 << k) - 1 < index:
        k += 1
    if index == (1 << k) - 1:
        return 1 << (k - 1)
    return luby(index - (1 << (k - 1)) + 1)


def run_strategy(game: Game, start: np.ndarray, run: int, budget: int, table_bits: int) -> tuple:
    """Run number ``run`` (from 1): odd runs best-first, even runs depth-first;
    run 1 and 2 in the plain order, later runs reordered by their number."""
    seed = 0 if run <= 2 else run
    if run % 2 == 1:
        return best_first_search(
            game.rules, start.copy(), kernel.ZOBRIST, budget, table_bits, PROMISE_WEIGHTS, seed
        )
    return depth_first_search(game.rules, start.copy(), kernel.ZOBRIST, budget, table_bits, seed)


def portfolio_search(game: Game, start: np.ndarray, budget: int, table_bits: int) -> tuple[int, int, np.ndarray]:
    """Restart complete searches, then run one long search, until one decides or
    ``budget`` positions are spent.

    Returns:
        (status, nodes, moves) as ``depth_first_search``; nodes add up every run.
    """
    spent = 0
    run = 0
    out_of_memory = False
    restart_budget = int(budget * LUBY_SHARE)
    while spent < budget:
        if spent < restart_budget:
            run += 1
            number, share = run, min(RESTART_UNIT * luby(run), restart_budget - spent)
        elif out_of_memory:
            break  # a long run would only fill the table again
        else:
            number, share = 2, budget - spent  # the long run: plain depth-first
        status, nodes, moves = run_strategy(game, start, number, share, table_bits)
        spent += int(nodes)
        if status in (STATUS_WON, STATUS_LOST):
            return status, spent, moves
        out_of_memory = out_of_memory or status == STATUS_MEMORY
    return (STATUS_MEMORY if out_of_memory else STATUS_BUDGET), spent, np.empty(0, np.int32)
