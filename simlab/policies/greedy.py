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
4. With ``play_on`` (default False) it never brings back a position it has
   seen and can foresee (not even by step 1, which can when a foundation gives
   cards back: Fan), and it does not give up where step 3 does: it plays a
   uniformly random card move among those that bring back no position it has
   seen (and can foresee) and take no card off a foundation (step 1 would
   play it straight back), from the ``rng`` ``play`` is given, then goes back
   to step 1; with no such move it stops (lost). A casual player who keeps
   trying. Only a position it could not foresee can come back, and that ends
   the game (``repeat``).

Each build or move into a space places one more card "where it belongs", so a
greedy game ends after a few hundred moves at most.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel
from simlab.engine.game import Game, State
from simlab.params import Param
from simlab.policies.base import Policy
from simlab.policies.catalog import register_policy
from simlab.policies.features import (
    destination_pile,
    foundation_move,
    is_cell,
    is_foundation_pile,
    source_pile,
    top_is_placed,
)
from simlab.policies.playout import (
    card_moves_first,
    drop_idle_transfers,
    leads_to_seen,
    playout_loop,
    run_compiled,
    when_stuck,
)
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


@njit(cache=True)
def would_give_up(rules, view, scratch):
    """Whether, with no greedy card move, ``when_stuck`` has nothing either (no
    redeal, draw or stock turn): where the greedy player gives up."""
    count = kernel.legal_moves(rules, view, scratch)
    cards, count = drop_idle_transfers(rules, view, scratch, card_moves_first(scratch, count), count)
    return when_stuck(rules, scratch, cards, count) < 0


@njit(cache=True)
def play_on_choice(rules, view, turn, count, made, zobrist, table, extra):
    """``greedy_choice`` unless it brings back a position seen, and where greedy would give up a uniformly random card
    move (``uniforms[made]`` picks it) that brings back no position seen
    (``turn[1]`` holds those moves, then serves as scratch)."""
    move = greedy_choice(rules, view, turn, count, made, zobrist, table, extra)
    if move >= 0 and not leads_to_seen(rules, view, move, zobrist, table):
        return move
    if not would_give_up(rules, view, turn[1]):
        return -1
    fresh = 0
    for i in range(count):
        move = turn[0, i]
        if not is_foundation_pile(rules, source_pile(move)) and not leads_to_seen(rules, view, move, zobrist, table):
            turn[1, fresh] = turn[0, i]
            fresh += 1
    if fresh == 0:
        return -1
    return turn[1, min(int(extra[0][made] * fresh), fresh - 1)]


@njit(cache=True)
def play_on_playout(rules, board, zobrist, moves_out, max_moves, uniforms):
    return playout_loop(rules, board, zobrist, moves_out, max_moves, play_on_choice, 2, True, (uniforms,))


@register_policy
class GreedyPolicy(Policy):
    """Foundation first, else the first useful build, cell or space (see module doc)."""

    name = "greedy"
    parameters = {
        "play_on": Param(bool, False, "where the rule offers nothing, play a random move that brings back "
                         "no position seen instead of giving up"),
    }

    def is_stochastic(self, game: Game | None = None) -> bool:
        return bool(self.params.get("play_on", False))

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        max_moves = self.params["max_moves"]
        if self.params["play_on"]:
            return run_compiled(game, state, play_on_playout, max_moves, rng.random(max_moves))
        return run_compiled(game, state, greedy_playout, max_moves)
