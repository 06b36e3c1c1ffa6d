"""``random``: a uniformly random legal move each turn.

The random numbers come from the generator ``play`` is given, which the caller
derives from (deal number, root seed, policy), never from global state. A
repeated position ends the game as a loss.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel
from simlab.engine.game import MAX_LEGAL_MOVES, Game, State
from simlab.policies.base import Policy
from simlab.policies.catalog import register_policy
from simlab.policies.playout import (
    END_REPEAT,
    END_STUCK,
    END_WON,
    card_moves_first,
    drop_idle_transfers,
    end_at_cap,
    make_move,
    run_compiled,
    start_playout,
    when_stuck,
)
from simlab.policies.record import PlayRecord


@njit(cache=True)
def random_playout(rules, board, zobrist, moves_out, max_moves, uniforms):
    """Play uniformly random card moves (``uniforms[i]`` in [0, 1) picks move
    ``i``); with none, a redeal, a draw or the stock (``when_stuck``)."""
    table = start_playout(rules, board, zobrist, max_moves)
    view = board[1]
    legal = np.empty(MAX_LEGAL_MOVES, dtype=np.int32)
    for made in range(max_moves):
        if kernel.is_won(rules, view):
            return END_WON, made
        count = kernel.legal_moves(rules, view, legal)
        cards, count = drop_idle_transfers(rules, view, legal, card_moves_first(legal, count), count)
        if cards > 0:
            move = legal[min(int(uniforms[made] * cards), cards - 1)]
        else:
            move = when_stuck(rules, legal, cards, count)
        if move < 0:
            return END_STUCK, made
        if not make_move(rules, board, move, moves_out, made, zobrist, table):
            return (END_WON if kernel.is_won(rules, view) else END_REPEAT), made + 1
    return end_at_cap(rules, view, max_moves)


@register_policy
class RandomPolicy(Policy):
    """A uniformly random legal card move; a repeated position ends the game
    (lost). Redeals, draws and the stock only when no card move is left."""

    name = "random"

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        max_moves = self.params["max_moves"]
        return run_compiled(game, state, random_playout, max_moves, rng.random(max_moves))
