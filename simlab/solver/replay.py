"""Replaying a move list through the rules engine: how every "won" is checked."""

from __future__ import annotations

from typing import Iterable

from simlab.engine.game import Game, State
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
