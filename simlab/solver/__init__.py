"""The solver: perfect play with every card known, three-valued verdicts.

``solve(game, deal_number)`` returns a ``SolveResult``. A ``won`` verdict always
carries a move list that the rules engine has replayed to a win; ``lost`` means
the search was exhaustive, and a second search with independent hash keys
confirmed it (``simlab.solver.portfolio``: the chance that a hash collision hid
a win is below 1.2e-10 at the default budget); ``unknown`` means the node budget
or the table ran out.
"""

from __future__ import annotations

import time
from typing import Any, Mapping

from simlab.compiling import compile_clock
from simlab.engine.game import Game, State
from simlab.errors import SimlabError
from simlab.games import make_game
from simlab.solver.heap import return_large_blocks
from simlab.solver.plan import SearchPlan, plan_for
from simlab.solver.portfolio import portfolio_verdict
from simlab.solver.replay import codes_replay_to_win
from simlab.solver.result import SolveResult
from simlab.solver.search import STATUS_BUDGET, STATUS_LOST, STATUS_WON

# Positions per deal. Set by the CPU it costs, not by which deals it resolves:
# raised from 12M to 32M when the hot path became 1.2-1.3x faster per deal
# (simlab.engine.compiled), the most the mean-CPU targets of issue 3 allow with
# a margin, measured on deals 1-1000 and on 1001-2000 (make bench).
DEFAULT_BUDGET = 32_000_000
# 32M slots of 8 bytes (256 MiB): the long depth-first search sees half the
# budget, 16M positions, within the table's 75% load.
DEFAULT_TABLE_BITS = 25


# once per process, before any search: freed tables go back to the system (simlab.solver.heap)
return_large_blocks()


class SolverError(SimlabError):
    """The search produced a line the rules engine rejects: a bug, never a verdict."""


def solve(
    game: str | Game,
    deal: int | State,
    budget: int = DEFAULT_BUDGET,
    table_bits: int = DEFAULT_TABLE_BITS,
    *,
    game_params: Mapping[str, Any] | None = None,
) -> SolveResult:
    """Solve a deal (by number) or any position of ``game`` as its search plan
    says (``simlab.solver.plan``), seeing every card
    and every shuffle to come (in a game with hidden cards or redeals the
    verdict is ``thoughtful``: an upper bound on a player who cannot see them).

    Args:
        game: the game, or its registered name (``solve("citadel", 5)``), with
            ``game_params`` for a name's parameters (``simlab.make_game``).
        deal: a deal number, or a ``State``.
        budget: the most distinct positions to search to decide (a loss's
            confirming search, ``SolveResult.check_nodes``, comes on top: at
            most the budget of the search that proved it).
        table_bits: the transposition table holds ``2**table_bits`` positions
            (8 bytes each); when it is 75% full the verdict is ``unknown``.
    """
    game = make_game(game, game_params)
    plan = plan_for(game)
    information = plan.information
    start = game.initial_state(deal) if isinstance(deal, int) else deal
    with compile_clock() as compiling:
        clock = time.process_time()
        status, nodes, codes, check_nodes = portfolio_verdict(game, plan, start.array, start.chance, budget, table_bits)
        # the search's own CPU: a first call in a fresh checkout also compiles the kernels
        seconds = max(0.0, time.process_time() - clock - compiling.seconds)
    spent = dict(nodes=int(nodes), seconds=seconds, information=information, compile_seconds=compiling.seconds,
                 check_nodes=int(check_nodes))
    if status == STATUS_WON:
        if not codes_replay_to_win(game, start, codes):
            raise SolverError(f"{game.name}: the solver's winning line does not replay to a win")
        return SolveResult("won", "won", moves=[game.move_from_code(int(code)) for code in codes], **spent)
    if status == STATUS_LOST:
        return SolveResult("lost", "exhausted", **spent)
    reason = "budget" if status == STATUS_BUDGET else "memory"
    return SolveResult("unknown", reason, **spent)


__all__ = ["DEFAULT_BUDGET", "SearchPlan", "SolveResult", "SolverError", "plan_for", "solve"]
