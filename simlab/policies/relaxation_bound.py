"""The ``relaxation_bound`` "policy": not a player, an upper bound on fair play.

For La Belle Lucie and Trefoil (games that shuffle at a redeal) it computes one
deal's penalised perfect-information value (``simlab.solver.relaxation``: an
information relaxation with penalties, Brown, Smith and Sun 2010). The mean of
these values over deals is an upper bound on the win rate of every fair player
that makes every play home before it redeals, as ``round_max`` and the fair
solver do (the module docstring of ``simlab.solver.relaxation`` says why; a
player that keeps a card it could play home in the fans for the shuffle is not
covered, and in small positions it does better). It plays no
move: its record has verdict ``unknown``, end reason ``bound`` and the value in
``PlayRecord.value``, which the tables average (with a 95% interval) into the
row labelled ``relaxation``. In a game without a shuffling redeal it does not
apply: the record's value is None.

It draws the shuffles it weighs from ``rng`` (never the deal's tape, which it
does not need), so its value depends on the seed; it is marked ``bound`` so no
table mistakes it for a player, and ``sees_everything`` since a bound is not a
fair player's figure.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from simlab.engine.game import Game, State
from simlab.params import Param
from simlab.policies.base import Policy
from simlab.policies.catalog import register_policy
from simlab.policies.record import UNKNOWN, PlayRecord
from simlab.solver.relaxation import (
    DEFAULT_FINAL_BUDGET,
    DEFAULT_FINAL_SAMPLES,
    DEFAULT_ROUND_BUDGET,
    DEFAULT_SAMPLES,
    Relaxation,
)

BOUND = "bound"  # the end reason of a bound's record


@register_policy
class RelaxationBoundPolicy(Policy):
    """The per-deal value of the information-relaxation upper bound on fair
    play in a game with redeals (module docstring); plays no move."""

    name = "relaxation_bound"
    budgeted = True
    budget_phrase = ("relaxation_bound budget {round_budget:,} positions per round search, "
                     "{final_budget:,} per last round")
    stochastic = True
    sees_everything = True
    bound: ClassVar[bool] = True
    parameters = {
        "samples": Param(int, DEFAULT_SAMPLES, "sampled shuffles per expectation with redeals still ahead",
                         low=1, high=1_000),
        "final_samples": Param(int, DEFAULT_FINAL_SAMPLES, "sampled shuffles per expectation of the last round",
                               low=1, high=10_000),
        "round_budget": Param(int, DEFAULT_ROUND_BUDGET, "most positions per round search (beyond: counts 1)",
                              low=1),
        "final_budget": Param(int, DEFAULT_FINAL_BUDGET, "most positions per last-round solve (beyond: counts 1)",
                              low=1),
    }

    def unused_parameters(self, game: Game) -> dict[str, str]:
        """Every parameter, in a game without redeals: there the bound does not apply (``play``)."""
        if game.table.redeals:
            return {}
        return {key: f"game '{game.name}' has no redeal, so there is no bound to compute"
                for key in self.parameters}

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        if not game.table.redeals:  # nothing shuffled: the bound does not apply
            return PlayRecord(UNKNOWN, BOUND, [], game.cards_home(state), 0, value=None)
        relaxation = Relaxation(game, rng, samples=self.params["samples"],
                                final_samples=self.params["final_samples"],
                                round_budget=self.params["round_budget"],
                                final_budget=self.params["final_budget"])
        result = relaxation.bound(state.array)
        return PlayRecord(UNKNOWN, BOUND, [], game.cards_home(state), result.nodes, value=result.value)
