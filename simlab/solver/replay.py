"""Replaying a move list through the rules engine: how every "won" is checked."""

from __future__ import annotations

from typing import Iterable

import numpy as np
from numba import njit

from simlab.engine import kernel
from simlab.engine.game import MAX_LEGAL_MOVES, Game, State
from simlab.engine.moves import play
from simlab.errors import IllegalMoveError


def replay(game: Game, state: State, moves: Iterable[tuple[str, str]]) -> State:
    """Apply ``moves`` one by one with the rules engine; an illegal one raises."""
    for number, move in enumerate(moves, start=1):
        try:
            state = game.apply(state, move)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"Move {number} of the line is illegal: {error}") from None
    return state


def replays_to_win(game: Game, state: State, moves: Iterable[tuple[str, str]]) -> bool:
    """Whether ``moves`` is a legal line from ``state`` that ends with every card home."""
    try:
        return game.is_won(replay(game, state, moves))
    except IllegalMoveError:
        return False


def codes_replay_to_win(game: Game, state: State, codes: np.ndarray) -> bool:
    """``replays_to_win`` for a line of kernel move codes (``Game.move_code``), checked
    as ``Game.apply`` checks each move (listed by ``kernel.legal_moves``, then made
    by ``simlab.engine.moves.play``) in one compiled loop: a solve's own check of
    its line, which in Python cost about 10 microseconds a move, half of a small solve."""
    return bool(_codes_win(game.rules, state.array.copy(), state.chance, np.asarray(codes, dtype=np.int32)))


@njit(cache=True)
def _codes_win(rules, array, chance, codes):
    """Whether each of ``codes`` is legal in turn from ``array`` (changed in place) and they end won."""
    legal = np.empty(MAX_LEGAL_MOVES, dtype=np.int32)
    record = np.empty_like(array)
    for code in codes:
        count = kernel.legal_moves(rules, array, legal)
        listed = False
        for index in range(count):
            if legal[index] == code:
                listed = True
                break
        if not listed:
            return False
        play(rules, array, code, chance, record)
    return kernel.is_won(rules, array)
