"""The ``round_max`` policy: each round, the line that sends the most cards home, then redeal.

The simplest sound fair strategy for La Belle Lucie (a public La Belle Lucie
solver plays so): each round, the exhaustive round search of
``simlab.solver.rounds`` finds the line sending the most cards home; play it
and redeal. It never sees a shuffle before it happens, so what it wins is a
lower bound on perfect fair play (``simlab.solver.fair``).
"""

from __future__ import annotations

import numpy as np

from simlab.engine.game import REDEAL, Game, State
from simlab.params import Param
from simlab.policies.base import Policy
from simlab.policies.catalog import register_policy
from simlab.policies.record import PlayRecord
from simlab.policies.referee import Referee
from simlab.solver.fair import can_redeal
from simlab.solver.rounds import DEFAULT_ROUND_BUDGET, best_round


def play_round_max(game: Game, state: State, max_moves: int,
                   round_budget: int = DEFAULT_ROUND_BUDGET) -> PlayRecord:
    """``round_max`` (module docstring): each round the line with the most cards
    home, then redeal. It plans again after its line, since a card its line
    uncovered in a game with hidden cards may open more (``best_round`` does
    not look past a card it cannot see); once a plan adds nothing it redeals,
    or stops when it may not."""
    referee = Referee(game, state, max_moves)
    nodes = 0
    blind = np.zeros(1)  # a round's search never redeals, so it needs no shuffle
    while not referee.over:
        plan = best_round(game, referee.view(), blind, round_budget)
        nodes += plan.nodes
        if len(plan.moves):
            referee.make(plan.moves)
        elif can_redeal(game, referee.state):
            referee.make([game.move_code(REDEAL)])
        else:
            break
    return referee.stopped(nodes)


@register_policy
class RoundMaxPolicy(Policy):
    """Searches each round exhaustively (every move but a redeal) for the first
    line sending the most cards home, plays it, and redeals while it may: the
    simplest sound fair strategy for La Belle Lucie (module docstring).
    It never sees a shuffle before it happens."""

    name = "round_max"
    budgeted = True
    budget_phrase = "round_max budget {round_budget:,} positions per round"
    parameters = {
        "round_budget": Param(int, DEFAULT_ROUND_BUDGET, "most distinct positions searched per round", low=1),
    }

    def cannot_play(self, game: Game) -> str | None:
        """A game dealt from a face-down stock: its round search never turns the stock
        (a turn shows a card it has not seen), so it stops after its first few moves
        (Windmill: 0 to 12 moves, no deal of 30 won)."""
        if game.table.stock:
            return ("round_max never turns a face-down stock (its round search plans only with cards it "
                    "has seen), so here it stops after its first few moves. Use a player that turns the "
                    "stock: solver (mode fair or thoughtful), lookahead, heuristic, greedy, tap or random.")
        return None

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        return play_round_max(game, state, self.params["max_moves"], self.params["round_budget"])
