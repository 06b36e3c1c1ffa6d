"""The ``solver`` policy: perfect play with every card known, within a node budget."""

from __future__ import annotations

import numpy as np

from simlab.engine.game import Game, State
from simlab.params import Param
from simlab.policies.base import Policy
from simlab.policies.catalog import register_policy
from simlab.policies.record import PlayRecord
from simlab.solver import DEFAULT_BUDGET, DEFAULT_TABLE_BITS, solve
from simlab.solver.replay import replay


@register_policy
class SolverPolicy(Policy):
    """Searches for a win: ``won``, ``lost`` when the search was exhaustive, or
    ``unknown`` when the budget or the table runs out first."""

    name = "solver"
    sees_everything = True
    # Each version changes node counts (and possibly verdicts) at a given
    # budget, so results of an earlier version are not resumed:
    # 2: the cheap proofs of loss (simlab.solver.deadlock);
    # 3: best-first restarts with a bucket queue and children in the kernel's order.
    version = 3
    parameters = {
        "budget": Param(int, DEFAULT_BUDGET, "most distinct positions searched per deal", low=1),
        "table_bits": Param(
            int, DEFAULT_TABLE_BITS, "transposition table of 2**bits positions (8 bytes each)", low=10, high=30
        ),
    }

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        result = solve(game, state, budget=self.params["budget"], table_bits=self.params["table_bits"])
        final = replay(game, state, result.moves)
        return PlayRecord(result.verdict, result.reason, result.moves, game.cards_home(final), result.nodes)
