"""The solver: perfect play with every card known, three-valued verdicts.

``solve(game, deal_number)`` returns a ``SolveResult``. A ``won`` verdict always
carries a move list that the rules engine has replayed to a win; ``lost`` means
the search was exhaustive; ``unknown`` means the node budget or the table ran out.
"""

from __future__ import annotations

import time

import numpy as np

from simlab.engine import kernel
from simlab.engine.game import Game, State
from simlab.errors import SimlabError
from simlab.solver.best_first import best_first_search
from simlab.solver.replay import replays_to_win
from simlab.solver.result import SolveResult
from simlab.solver.search import STATUS_BUDGET, STATUS_LOST, STATUS_WON, depth_first_search

DEFAULT_BUDGET = 1_000_000
DEFAULT_TABLE_BITS = 24  # 16M entries of 8 bytes: 128 MiB
DEFAULT_STREAMLINE_SHARE = 0.0
# Best-first weights: cards home, empty rows, cards where they belong, burial of needed cards.
PROMISE_WEIGHTS = np.array([20.0, 10.0, 2.0, 3.0])


class SolverError(SimlabError):
    """The search produced a line the rules engine rejects: a bug, never a verdict."""


def solve(
    game: Game,
    deal: int | State,
    budget: int = DEFAULT_BUDGET,
    table_bits: int = DEFAULT_TABLE_BITS,
    streamline_share: float = DEFAULT_STREAMLINE_SHARE,
) -> SolveResult:
    """Solve a deal (by number) or any position of ``game``.

    Args:
        game: the game.
        deal: a deal number, or a ``State``.
        budget: the most distinct positions to search.
        table_bits: the transposition table holds ``2**table_bits`` positions
            (8 bytes each); when it is 75% full the verdict is ``unknown``.
        streamline_share: share of the budget first spent on a streamlined
            search that plays every possible card home at once (after Blake and
            Gent's "smart" mode). Only a win from it counts; then the complete
            search gets the rest of the budget.
    """
    start = game.initial_state(deal) if isinstance(deal, int) else deal
    clock = time.process_time()
    status, nodes, codes = _search(game, start, budget, table_bits, streamline_share)
    seconds = time.process_time() - clock
    if status == STATUS_WON:
        moves = [game.move_from_code(int(code)) for code in codes]
        if not replays_to_win(game, start, moves):
            raise SolverError(f"{game.name}: the solver's winning line does not replay to a win")
        return SolveResult("won", "won", int(nodes), seconds, moves)
    if status == STATUS_LOST:
        return SolveResult("lost", "exhausted", int(nodes), seconds)
    reason = "budget" if status == STATUS_BUDGET else "memory"
    return SolveResult("unknown", reason, int(nodes), seconds)


def _search(game: Game, start: State, budget: int, table_bits: int, share: float):
    """Streamlined search first (its wins only), then the complete search."""
    streamline_budget = int(budget * share)
    nodes_spent = 0
    if streamline_budget > 0:
        status, nodes, codes = depth_first_search(
            game.rules, start.array.copy(), kernel.ZOBRIST, streamline_budget, table_bits, True
        )
        if status == STATUS_WON:
            return status, nodes, codes
        nodes_spent = nodes
    status, nodes, codes = best_first_search(
        game.rules, start.array.copy(), kernel.ZOBRIST, max(budget - nodes_spent, 1), table_bits,
        PROMISE_WEIGHTS,
    )
    return status, nodes + nodes_spent, codes


__all__ = ["DEFAULT_BUDGET", "SolveResult", "SolverError", "solve"]
