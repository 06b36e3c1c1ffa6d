"""Compiled pieces shared by the built-in policies' playout loops.

Each built-in policy has a small compiled loop of its own (numba cannot cache a
function that takes another compiled function as an argument), built from
these helpers so the loops stay a few lines each.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel
from simlab.engine.game import Game, State
from simlab.policies.record import LOST, WON, PlayRecord

END_WON = 0
END_STUCK = 1
END_REPEAT = 2
END_MOVE_CAP = 3
END_REASONS = ("won", "stuck", "repeat", "move_cap")


@njit(cache=True)
def seen_table(max_moves):
    """An empty open-addressing set of position hashes, at most half full."""
    size = 1
    while size < 2 * (max_moves + 2):
        size *= 2
    return np.zeros(size, dtype=np.uint64)


@njit(cache=True)
def seen_contains(table, key):
    mask = table.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    while table[slot] != 0:
        if table[slot] == key:
            return True
        slot = (slot + 1) & mask
    return False


@njit(cache=True)
def seen_add(table, key):
    """Add ``key``; return False if it was already there."""
    mask = table.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    while table[slot] != 0:
        if table[slot] == key:
            return False
        slot = (slot + 1) & mask
    table[slot] = key
    return True


@njit(cache=True)
def leads_to_seen(rules, state, move, zobrist, table):
    """Whether ``move`` would bring back a position of this game (state restored)."""
    kernel.apply_move(rules, state, move)
    repeated = seen_contains(table, kernel.position_hash(rules, state, zobrist))
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
