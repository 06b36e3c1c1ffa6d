"""The ``solver`` policy's ``fair`` mode in a game whose only hidden cards are a face-down stock (Windmill).

What: the solver sees the stock's order, so its verdicts there are
``thoughtful``, an upper bound on any player; a player that never peeks gives
the matching lower bound, and the two bracket perfect play.

How it stays fair: a ``Referee`` (``simlab.policies.referee``) holds the true
position; the player reads only ``game.observe`` of it, and remembers what it
has seen (``Player.known``). At a decision point it draws completions of what
it knows and solves each (``simlab.solver.sampling.choose``); it plays the
chosen line up to and including its next reveal, sees the new card, and
decides again. So it solves only where it learns something, not at every move,
and not where the only legal move is the turn. Once nothing is hidden it solves
the position outright with ``budget`` positions.

Outcomes: ``won`` only when the true position is won (the referee applied
every move through the rules engine); ``lost`` when the true position has no
move left (``stuck``), the move cap is hit (``move_cap``), or nothing is hidden
and the search proved the position lost (``exhausted``); ``unknown``
(``budget`` or ``memory``) when nothing is hidden and the search ran out
first: a sample that fails is never a loss.

Cost per deal: a decision point per reveal where more than one move is legal
(about half of Windmill's 94), each at most ``sample_budget`` positions; then,
once nothing is hidden, one search of at most ``budget`` positions. Measured on
Windmill deals 1-20 at the defaults (16 samples of 12,500 positions, on a
2-core machine shared with other runs): about 45 decisions and 24 CPU-s a deal
(11 to 51), 10 deals won (the thoughtful solver wins 16 at 12,500 positions,
17 at 200,000).
"""

from __future__ import annotations

import numpy as np

from simlab.engine.game import Game, State
from simlab.policies.record import UNKNOWN, PlayRecord
from simlab.policies.referee import Referee
from simlab.solver.sampling import advance, choose, fallback_line, knows_everything, legal_codes, search
from simlab.solver.search import STATUS_LOST, STATUS_MEMORY, STATUS_WON


class Player:
    """The fair player's side of the table: what it knows, and the moves it makes through the referee."""

    def __init__(self, game: Game, referee: Referee) -> None:
        self.game = game
        self.referee = referee
        self.known = referee.view()

    def make(self, codes: list[int]) -> None:
        for code in codes:
            if self.referee.over:
                return
            self.referee.make([code])
            self.known, _ = advance(self.game, self.known, code, self.referee.view())


def play_sampled(game: Game, state: State, rng: np.random.Generator, samples: int, sample_budget: int, budget: int,
                 max_moves: int, table_bits: int) -> PlayRecord:
    """``solver`` in ``fair`` mode in a game whose only hidden cards are a face-down stock (module docstring):
    ``samples`` completions per decision sharing ``sample_budget`` positions; ``budget`` positions for the
    outright search once nothing is hidden."""
    per_sample = max(1, sample_budget // samples)
    referee = Referee(game, state, max_moves)
    player = Player(game, referee)
    nodes = 0
    while not referee.over:
        codes = legal_codes(game, player.known)
        if not codes:
            return referee.record("stuck", nodes)
        if knows_everything(game, player.known):
            status, spent, codes = search(game, player.known, budget, table_bits)
            nodes += spent
            if status != STATUS_WON:
                return ending(game, referee, status, nodes)
            player.make(codes)
            break
        if len(codes) == 1:  # no choice (about half of Windmill's reveals: the turn is the only move)
            player.make(codes)
            continue
        plan, spent = choose(game, player.known, rng, samples, per_sample, table_bits)
        nodes += spent
        player.make(plan if plan is not None else fallback_line(game, player.known))
    return referee.record("stuck", nodes)


def ending(game: Game, referee: Referee, status: int, nodes: int) -> PlayRecord:
    """The record when the outright search of a fully known position does not win:
    ``lost`` if it proved the loss, else ``unknown``."""
    if status == STATUS_LOST:
        return referee.record("exhausted", nodes)
    reason = "memory" if status == STATUS_MEMORY else "budget"
    return PlayRecord(UNKNOWN, reason, referee.moves, game.cards_home(referee.state), nodes)

