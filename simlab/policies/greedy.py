"""``greedy``: the simple rule a casual player follows.

Each turn:

1. If a card can go to a foundation, play it (the first in pile order).
2. Otherwise make the first move by this preference, among moves that do not
   bring back a position already seen in this game and do not move a card that
   already sits where it belongs (at the bottom of a row, or on a card it
   builds on), since shuffling such a card sideways frees nothing; the one
   exception is a lone card built onto another row, which empties its row:
   a. build onto a non-empty row;
   b. put a card into an empty cell;
   c. put a card into an empty row.
   Ties go to the first source pile, then the first destination.
3. With no such move the player redeals if it may, else uses Hoyle's draw
   (a card that goes home first) or turns the stock (``playout.when_stuck``);
   with none of those either, it gives up: the game is lost.

Each build or move into a space places one more card "where it belongs", so a
greedy game ends after a few hundred moves at most.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel
from simlab.engine.game import Game, State
from simlab.policies.base import Policy
from simlab.policies.catalog import register_policy
from simlab.policies.features import (
    destination_pile,
    foundation_move,
    is_cell,
    source_pile,
    top_is_placed,
)
from simlab.policies.playout import leads_to_seen, playout_loop, run_compiled
from simlab.policies.record import PlayRecord


@njit(cache=True)
def greedy_choice(rules, state, turn, count, made, zobrist, table, extra):
    """The greedy card move in this position (``state``: what the player sees)
    among ``turn[0, :count]``, or -1 (``playout.playout_loop``'s rule)."""
    legal = turn[0]
    move = foundation_move(rules, state, legal, count)
    if move >= 0:
        return move
    best = -1
    best_class = 3
    for i in range(count):
        move = legal[i]
        source = source_pile(move)
        destination = destination_pile(move)
        empties_row = kernel.height(rules, state, source) == 1 and kernel.height(rules, state, destination) > 0
        if top_is_placed(rules, state, source) and not (empties_row and not is_cell(rules, destination)):
            continue
        if is_cell(rules, destination):
            preference = 1
        elif kernel.height(rules, state, destination) == 0:
            preference = 2
        else:
            preference = 0
        if preference < best_class and not leads_to_seen(rules, state, move, zobrist, table):
            best = move
            best_class = preference
    return best


@njit(cache=True)
def greedy_playout(rules, board, zobrist, moves_out, max_moves):
    return playout_loop(rules, board, zobrist, moves_out, max_moves, greedy_choice, 1, False, ())


@register_policy
class GreedyPolicy(Policy):
    """Foundation first, else the first useful build, cell or space (see module doc)."""

    name = "greedy"

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        return run_compiled(game, state, greedy_playout, self.params["max_moves"])
