"""The ``solver`` policy's ``fair`` mode in a game whose hidden cards are dealt
once and never shuffled: Windmill's face-down stock, Castle of Indolence's
squared reserves.

What: the solver sees the hidden cards, so its verdicts there are
``thoughtful``, an upper bound on any player; a player that never peeks gives
the matching lower bound, and the two bracket perfect play.

How it stays fair: a ``Referee`` (``simlab.policies.referee``) holds the true
position; the player reads only ``game.observe`` of it, and remembers what it
has seen (``Player.known``). At a decision point it draws completions of what
it knows and solves each (``simlab.solver.sampling.choose``); it plays the
chosen line up to and including its next reveal, sees the new card, and
decides again. So it solves only where it learns something, not at every move,
and not where only one move is legal. Once nothing is hidden it solves the
position outright with ``budget`` positions.

Effort (``simlab.solver.sampling.Effort``): at most ``samples`` completions of
``per_sample`` positions per decision; it stops at ``agree`` agreeing wins, or after ``give_up`` completions
without a win. After a decision where no completion won, the next one draws a
single completion before it gives up (a probe): a position that bad rarely
turns good, and hopeless decisions are the costly ones. When it finds no win
and its fallback would reveal a card blindly or has no move, it looks again
with more positions per completion (``fallback_or_harder``).

Outcomes: ``won`` only when the true position is won (the referee applied
every move through the rules engine); ``lost`` when the true position has no
move left (``no_moves``) or the player has none it would make (``gave_up``), the move cap is
hit (``move_cap``), or nothing is hidden and the search proved the position
lost (``exhausted``); ``unknown`` (``budget`` or ``memory``) when nothing is
hidden and the search ran out first: a completion that fails is never a loss.

Cost per deal (the defaults: at most 16 completions of 3,000 positions, agree
2, give up 3; on a 2-core machine shared by four busy sessions, seed 1000 +
deal). Windmill (PySolFC's rules), deals 1-100: 38 won, 1.95 CPU-s a deal
(1-40: 19 won, 1.83 s; 41-100: 19 won, 2.02 s). The player before issue 23
(16 completions sharing 200,000 positions, stopping only when the leader could
not be caught or half were drawn without a win), run beside it on deals 1-19:
24.7 CPU-s a deal and 12 won, against 1.94 s and 9 won (every deal the new one
won the old one won too): about 13 times cheaper, and on these deals weaker
(a paired sign test of the 3 deals they split: p = 0.25). Castle of
Indolence, deals 1-100: 11 won (11%; the thoughtful solver 94.2% on 1-1000,
the heuristic none of 1-100), 1.71 CPU-s a deal (median 1.30, most 10.9); 78
deals end stuck: its squared reserves make fair play far harder than
thoughtful play.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from simlab.engine.game import Game, State
from simlab.policies.record import UNKNOWN, PlayRecord
from simlab.policies.referee import Referee
from simlab.solver.sampling import (
    Effort,
    advance,
    choose,
    fallback_line,
    knows_everything,
    legal_codes,
    natural_reveal,
    search,
)
from simlab.solver.search import STATUS_LOST, STATUS_MEMORY, STATUS_WON

# When no completion wins and the fallback would reveal a card blindly (a reserve's top card onto a
# row in Castle of Indolence; never in Windmill, whose fallback turns the stock or plays a card
# home), the decision is drawn again with 8 times the positions per completion; when the fallback
# has no move at all, then with 64 times, before the player stops (``gave_up``): at 3,000 positions
# most of Castle of Indolence's first positions find no win, at 200,000 almost all.
ESCALATION = (8, 64)


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


def play_sampled(game: Game, state: State, rng: np.random.Generator, effort: Effort, budget: int,
                 max_moves: int, table_bits: int) -> PlayRecord:
    """``solver`` in ``fair`` mode in a game whose hidden cards are never shuffled (module docstring):
    each decision samples as ``effort`` says; ``budget`` positions for the outright search once
    nothing is hidden."""
    referee = Referee(game, state, max_moves)
    player = Player(game, referee)
    probe = replace(effort, give_up=1)
    nodes, hopeless = 0, False
    while not referee.over:
        codes = legal_codes(game, player.known)
        if not codes:
            return referee.stopped(nodes)
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
        plan, spent = choose(game, player.known, rng, probe if hopeless else effort, table_bits)
        nodes += spent
        hopeless = plan is None
        if plan is None:
            plan, spent = fallback_or_harder(game, player.known, rng, effort, table_bits)
            nodes += spent
        if not plan:
            return referee.stopped(nodes)
        player.make(plan)
    return referee.stopped(nodes)


def fallback_or_harder(game: Game, known: np.ndarray, rng: np.random.Generator, effort: Effort,
                       table_bits: int) -> tuple[list[int], int]:
    """When no completion won: ``fallback_line`` if it ends with a turn of the stock or a
    card going home; else (it would reveal a card blindly, or has no move) the decision
    drawn again with ``ESCALATION`` times the positions per completion, the fallback
    still the answer if that finds no win. Returns the moves and the positions searched."""
    fallback = fallback_line(game, known)
    if fallback and natural_reveal(game, fallback[-1]):
        return fallback, 0
    nodes = 0
    for scale in ESCALATION if not fallback else ESCALATION[:1]:
        plan, spent = choose(game, known, rng, replace(effort, per_sample=effort.per_sample * scale), table_bits)
        nodes += spent
        if plan is not None:
            return plan, nodes
    return fallback, nodes


def ending(game: Game, referee: Referee, status: int, nodes: int) -> PlayRecord:
    """The record when the outright search of a fully known position does not win:
    ``lost`` if it proved the loss, else ``unknown``."""
    if status == STATUS_LOST:
        return referee.record("exhausted", nodes)
    reason = "memory" if status == STATUS_MEMORY else "budget"
    return PlayRecord(UNKNOWN, reason, referee.moves, game.cards_home(referee.state), nodes)

