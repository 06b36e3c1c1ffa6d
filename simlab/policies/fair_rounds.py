"""The ``solver`` policy's ``fair`` mode in a game with redeals and no hidden card.

A rollout planner that never looks at a future shuffle (La Belle Lucie,
Trefoil): at each redeal it plays the line ``simlab.solver.fair.choose_plan``
picks (the set of cards home that won most play-outs against shuffles of its
own) and redeals. Once no redeal is left nothing is unknown and the position is
solved outright; if that search does not win, the player still plays the
round's line with the most cards home (``round_max``'s).

Cost per deal: per round with a redeal ahead, one plan (``choose_plan``); one
solve of the last round of at most ``final_budget`` positions.
"""

from __future__ import annotations

import numpy as np

from simlab.engine.game import REDEAL, Game, State
from simlab.policies.record import LOST, PlayRecord
from simlab.policies.referee import Referee
from simlab.solver import solve
from simlab.solver.fair import can_redeal, choose_plan, sampled_tape
from simlab.solver.rounds import DEFAULT_ROUND_BUDGET, best_round


def play_fair(game: Game, state: State, rng: np.random.Generator, samples: int, sample_budget: int,
              final_budget: int, max_moves: int, round_budget: int = DEFAULT_ROUND_BUDGET) -> PlayRecord:
    """``solver`` in ``fair`` mode (module docstring), in a game with redeals
    and no hidden card."""
    referee = Referee(game, state, max_moves)
    nodes = 0
    while not referee.over:
        view = referee.view()
        if not can_redeal(game, referee.state):  # the last round: nothing left to chance
            result = solve(game, State(view, sampled_tape(game, rng)), budget=final_budget)
            nodes += result.nodes
            if result.won:
                referee.make(game.move_code(move) for move in result.moves)
                break
            plan = best_round(game, view, np.zeros(1), round_budget)
            referee.make(plan.moves)
            return referee.record("exhausted" if result.verdict == LOST else result.reason, nodes + plan.nodes)
        plan, spent = choose_plan(game, view, rng, samples, sample_budget, round_budget)
        nodes += spent
        referee.make(plan)
        if not referee.over:
            referee.make([game.move_code(REDEAL)])
    return referee.stopped(nodes)
