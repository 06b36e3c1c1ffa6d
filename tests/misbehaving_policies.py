"""User policies that misbehave the ways a real user's code does, loaded as
``misbehaving_policies:Class`` by the tests of failing workers (deaths, timeouts).

Which deals misbehave depends only on the deal's generator (``rng``), so it is
the same in every run, process and chunking.
"""

from __future__ import annotations

import os
import signal
import sys
import time

import numpy as np

from simlab import Game, Move, Policy, State
from simlab.params import Param
from simlab.policies.record import PlayRecord

HOW = ("segfault", "os_exit", "sys_exit", "loop", "sleep")


class Misbehave(Policy):
    """The first legal move, except on a ``rate`` share of deals where it does ``how``:
    a segfault (SIGSEGV), ``os._exit(3)``, ``sys.exit(4)``, an endless loop, or ``seconds`` of sleep."""

    name = "misbehave"
    parameters = {
        "how": Param(str, "segfault", "what to do on a bad deal", choices=HOW),
        "rate": Param(float, 0.2, "share of deals that misbehave", low=0.0, high=1.0),
        "seconds": Param(float, 1.0, "sleep of 'sleep'", low=0.0),
    }

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        if rng.random() < self.params["rate"]:
            self._misbehave()
        return super().play(game, state, rng)

    def _misbehave(self) -> None:
        how = self.params["how"]
        if how == "segfault":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif how == "os_exit":
            os._exit(3)
        elif how == "sys_exit":
            sys.exit(4)
        elif how == "loop":
            while True:
                pass
        else:
            time.sleep(self.params["seconds"])

    def choose(self, game: Game, state: State, moves: list[Move], rng: np.random.Generator) -> Move | None:
        return moves[0]
