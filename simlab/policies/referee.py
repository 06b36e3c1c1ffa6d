"""The referee of a fair player: the true position, which the player only sees."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from simlab.engine.game import Game, Move, State
from simlab.policies.record import LOST, WON, PlayRecord, stop_reason


class Referee:
    """The real game: the true position (with the deal's own shuffles), changed
    only by ``make``; a player reads ``view()`` (what a real player sees).
    After ``max_moves`` moves it takes no more (``capped``)."""

    def __init__(self, game: Game, state: State, max_moves: int) -> None:
        self.game = game
        self.state = state
        self.max_moves = max_moves
        self.moves: list[Move] = []

    def view(self) -> np.ndarray:
        return self.game.observe(self.state).array

    @property
    def capped(self) -> bool:
        return len(self.moves) >= self.max_moves

    @property
    def over(self) -> bool:
        return self.capped or self.game.is_won(self.state)

    def make(self, codes: Iterable[int]) -> None:
        for code in codes:
            if self.capped:
                return
            move = self.game.move_from_code(int(code))
            self.state = self.game.apply(self.state, move)
            self.moves.append(move)

    def record(self, reason: str, nodes: int) -> PlayRecord:
        """The play so far: ``won`` if the true position is won, else lost for ``reason``
        (``move_cap`` when the moves ran out)."""
        won = self.game.is_won(self.state)
        reason = WON if won else "move_cap" if self.capped else reason
        return PlayRecord(WON if won else LOST, reason, self.moves, self.game.cards_home(self.state), nodes)

    def stopped(self, nodes: int) -> PlayRecord:
        """The play so far when the player makes no further move: lost for
        ``no_moves`` or ``gave_up`` (``record.stop_reason``), unless won or capped."""
        return self.record(stop_reason(self.game, self.state), nodes)
