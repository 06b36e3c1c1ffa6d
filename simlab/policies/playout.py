"""Compiled pieces shared by the built-in policies' playout loops.

Each built-in policy has a small compiled loop of its own (numba cannot cache a
function that takes another compiled function as an argument), built from
these helpers so the loops stay a few lines each.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel, position_set
from simlab.engine.game import Game, State
from simlab.policies.record import LOST, WON, PlayRecord

END_WON = 0
END_STUCK = 1
END_REPEAT = 2
END_MOVE_CAP = 3
END_REASONS = ("won", "stuck", "repeat", "move_cap")


@njit(cache=True)
def seen_table(max_moves):
    """An empty set of position hashes for a game of at most ``max_moves`` moves."""
    return position_set.new_position_set(max_moves + 2, 30)


@njit(cache=True)
def start_playout(rules, state, zobrist, max_moves):
    """The set of positions seen in a playout, holding the start position."""
    table = seen_table(max_moves)
    position_set.add(table, kernel.position_hash(rules, state, zobrist))
    return table


@njit(cache=True)
def make_move(rules, state, move, moves_out, made, zobrist, table):
    """Play ``move`` as move number ``made`` and remember the position;
    return False if that position had been seen before."""
    kernel.apply_move(rules, state, move)
    moves_out[made] = move
    return position_set.add(table, kernel.position_hash(rules, state, zobrist))


@njit(cache=True)
def end_at_cap(rules, state, max_moves):
    """The ending of a playout that used all its moves."""
    return (END_WON if kernel.is_won(rules, state) else END_MOVE_CAP), max_moves


@njit(cache=True)
def leads_to_seen(rules, state, move, zobrist, table):
    """Whether ``move`` would bring back a position of this game (state restored)."""
    kernel.apply_move(rules, state, move)
    repeated = position_set.contains(table, kernel.position_hash(rules, state, zobrist))
    kernel.undo_move(rules, state, move)
    return repeated


def run_compiled(game: Game, state: State, playout, *extra) -> PlayRecord:
    """Call a compiled ``playout(rules, state, zobrist, moves_out, *extra)`` and wrap its result."""
    array = state.array.copy()
    max_moves = extra[0]
    moves_out = np.empty(max_moves, dtype=np.int32)
    reason, count = playout(game.rules, array, kernel.ZOBRIST, moves_out, *extra)
    moves = [game.move_from_code(int(code)) for code in moves_out[:count]]
    verdict = WON if reason == END_WON else LOST
    cards_home = int(kernel.foundation_cards(game.rules, array))
    return PlayRecord(verdict, END_REASONS[reason], moves, cards_home)
