"""A policy written outside simlab, loaded as ``user_policy_example:FoundationFirst``.

It is what the README tells a user to write: subclass ``simlab.Policy``, declare
parameters, implement ``choose``. The tests load it by name without changing simlab.
"""

from __future__ import annotations

import numpy as np

from simlab import Game, Move, Policy, State
from simlab.params import Param


class FoundationFirst(Policy):
    """Play a card home when possible, else a random move (or give up, if told to)."""

    name = "foundation_first"
    stochastic = True  # its random moves come from ``rng``: another seed plays another game
    parameters = {
        "give_up": Param(bool, False, "stop when no card can go home"),
    }

    def choose(self, game: Game, state: State, moves: list[Move], rng: np.random.Generator) -> Move | None:
        home = [m for m in moves if m.destination.startswith("foundation")]
        if home:
            return home[0]
        if self.params["give_up"]:
            return None
        return moves[int(rng.integers(len(moves)))]
