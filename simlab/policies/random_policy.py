"""``random``: a uniformly random legal move each turn.

The random numbers come from the generator ``play`` is given, which the caller
derives from (deal number, root seed, policy), never from global state. A
repeated position ends the game as a loss.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine.game import Game, State
from simlab.policies.base import Policy
from simlab.policies.catalog import register_policy
from simlab.policies.playout import playout_loop, run_compiled
from simlab.policies.record import PlayRecord


@njit(cache=True)
def random_choice(rules, view, legal, cards, made, zobrist, table, extra):
    """A uniformly random card move (``uniforms[made]`` in [0, 1) picks card move
    ``i``), or -1 when there is none (``playout.playout_loop``'s rule)."""
    if cards == 0:
        return -1
    uniforms = extra[0]
    return legal[0, min(int(uniforms[made] * cards), cards - 1)]


@njit(cache=True)
def random_playout(rules, board, zobrist, moves_out, max_moves, uniforms):
    """Play uniformly random card moves; with none, a redeal, a draw or the
    stock (``playout.when_stuck``); a repeated position ends the game."""
    return playout_loop(rules, board, zobrist, moves_out, max_moves, random_choice, 1, True, (uniforms,))


@register_policy
class RandomPolicy(Policy):
    """A uniformly random legal card move; a repeated position ends the game
    (lost). Redeals, draws and the stock only when no card move is left."""

    name = "random"
    stochastic = True

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        max_moves = self.params["max_moves"]
        return run_compiled(game, state, random_playout, max_moves, rng.random(max_moves))
