"""The ``round_max`` policy: each round, the line that sends the most cards home, then redeal."""

from __future__ import annotations

import numpy as np

from simlab.engine.game import Game, State
from simlab.params import Param
from simlab.policies.base import Policy
from simlab.policies.catalog import register_policy
from simlab.policies.record import PlayRecord
from simlab.solver.fair import play_round_max
from simlab.solver.rounds import DEFAULT_ROUND_BUDGET


@register_policy
class RoundMaxPolicy(Policy):
    """Searches each round exhaustively (every move but a redeal) for the first
    line sending the most cards home, plays it, and redeals while it may: the
    simplest sound fair strategy for La Belle Lucie (``simlab.solver.fair``).
    It never sees a shuffle before it happens."""

    name = "round_max"
    budgeted = True
    parameters = {
        "round_budget": Param(int, DEFAULT_ROUND_BUDGET, "most distinct positions searched per round", low=1),
    }

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        return play_round_max(game, state, self.params["max_moves"], self.params["round_budget"])
