"""Helpers of the experiment tests: user policies, loaded by
``experiment_helpers:Class``, and reading a run's tables.

The policies stand for a user's own module: worker processes import them by
name, so this folder must be on their ``PYTHONPATH`` (pytest puts it on
``sys.path``, which loky passes on to its workers).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from simlab import Game, Move, Policy, State
from simlab.params import Param
from simlab.policies.record import PlayRecord


class FirstMove(Policy):
    """Always the first legal move; ``delay`` seconds of sleep per deal (to slow a run down)."""

    name = "first_move"
    parameters = {"delay": Param(float, 0.0, "seconds to sleep before each deal", low=0.0)}

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        time.sleep(self.params["delay"])
        return super().play(game, state, rng)

    def choose(self, game: Game, state: State, moves: list[Move], rng: np.random.Generator) -> Move | None:
        return moves[0]


class Flaky(Policy):
    """Like ``random`` in spirit, but raises on a ``fail_rate`` share of deals.

    Which deals fail depends only on the deal's generator, so it is the same
    in every run, process and chunking.
    """

    name = "flaky"
    parameters = {"fail_rate": Param(float, 0.25, "share of deals that raise", low=0.0, high=1.0)}

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        if rng.random() < self.params["fail_rate"]:
            raise RuntimeError("flaky policy failed on purpose")
        return super().play(game, state, rng)

    def choose(self, game: Game, state: State, moves: list[Move], rng: np.random.Generator) -> Move | None:
        return moves[int(rng.integers(len(moves)))]


class FakeSolver(Policy):
    """Pretends to search: wins, loses or gives up at random with a node count (for reports)."""

    name = "fake_solver"
    budget_phrase = "solver budget {budget:,} nodes"
    parameters = {"budget": Param(int, 1000, "node budget", low=1)}

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        nodes = int(rng.integers(1, self.params["budget"] + 1))
        verdict = ("won", "lost", "unknown")[int(rng.integers(3))]
        if verdict == "unknown":
            nodes = self.params["budget"]
        reason = {"won": "won", "lost": "exhausted", "unknown": "budget"}[verdict]
        return PlayRecord(verdict, reason, [], 52 if verdict == "won" else 10, nodes)


def tables_without_timing(folder: Path) -> dict[str, pd.DataFrame]:
    """A run's CSV tables without their CPU-time columns, the only ones that
    may differ between two runs of the same config."""
    result = {}
    for name in ("deals", "summary", "claims", "comparisons"):
        frame = pd.read_csv(folder / f"{name}.csv", keep_default_na=False)
        result[name] = frame.drop(columns=[c for c in frame.columns if "cpu_seconds" in c])
    return result
