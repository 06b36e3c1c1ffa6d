"""``lookahead``: bounded foresight, the rungs between ``heuristic`` and perfect play.

The rule, each turn:

1. Search at most ``budget`` positions from what the player knows
   (``simlab.solver.lookahead.lookahead``: the solver's best-first search on
   its promise), never reaching a position the player has already been in.
2. If the search found a win, play its first move; otherwise play the first
   move of the line to the best position it found (highest promise, the
   solver's weights; the first found among equals). A safe automatic play of
   the search is a move too: the line may start with one.
3. Stop, lost (``gave_up``; ``no_moves`` if none is legal), when the search proves that no win is left without
   repeating a position, or when no move leads to a new position.

Measured (win_share 0; deals 1-100, the 100,000 rung deals 1-30 with at most
300 moves; CPU-s a deal on a 2-core machine shared with other runs; the
solver: ``simlab solve`` at its default budget on the same deals):

    budget a move        10     100   1,000  10,000  100,000  solver
    Beleaguered Castle    7%    22%    37%     57%    57%      72% (77% on 1-30)
      CPU-s a deal      0.018  0.061  0.39    4.4    12.9
    Citadel              31%    62%    72%     80%    87%      87% (87% on 1-30)
      CPU-s a deal      0.009  0.040  0.38    3.2     0.013

A deal it cannot win costs the most: it wanders up to ``max_moves`` without
repeating a position, a full search each move (60-70 CPU-s at 10,000).

With ``win_share`` above 0 (default 0), that share of each move's budget goes
first to the solver's own search for a win (``portfolio_search``: restarts of
best-first and depth-first searches), and step 1 gets the rest: best-first
alone misses wins the restarts find in a few thousand positions (Beleaguered
Castle deals 5, 20, 27), but at 10 or 100 positions a move halving the
best-first search costs more than it finds. Measured (open games, deals 1-100
unless said): Beleaguered Castle at 1,000 a move 17 of deals 1-40 won with a
share of 0.5 against 16 without; at 10,000, 19 of deals 1-30 against 16;
Citadel at 1,000, 77 against 72; but at 100,000 (deals 1-30, at most 300
moves) 15 against 17, with a share of 0.5 or 0.2: the depth-first searches'
winning lines are long (837 moves on Beleaguered Castle deal 4, a win
best-first finds in 8,784 positions with a line short enough), so a move cap
cuts them; and at 10 and 100 a move 2 and 20 against 7 and 22 (Beleaguered
Castle), 29 and 54 against 31 and 62 (Citadel). So it stays off by default.

Shortcuts that change nothing but the cost, in an open game without chance
(every card face up, no redeal): a found win is played whole (searching again
after each of its moves would find a win again: the line's positions are the
first of a winning line), and so are the safe automatic plays a line starts with
(any search from the position starts with them). No undo, no repeated position,
at most ``max_moves`` moves.

Fair in every game: it reads only the observation (``Game.observe``, through a
``Referee``) and remembers what it has seen (``simlab.solver.sampling.advance``).
Where something is unknown it determinizes, with its own ``rng``:
- hidden cards (Windmill's face-down stock, Castle of Indolence's squared
  reserves): each turn it deals the cards it has not seen into the hidden
  slots in a random order (``sampling.complete``) and searches that sample;
- redeals (La Belle Lucie, Trefoil): it searches with a chance tape of its own
  (``simlab.solver.fair.sampled_tape``), never the deal's.
There it plays only the first move of the sample's line (never a whole
"winning" line of a sample), does not stop on a sample's proof of loss, and is
stochastic (``is_stochastic``); in an open game without chance it is
deterministic.
"""

from __future__ import annotations

import numpy as np

from simlab.engine import kernel, moves
from simlab.engine.game import NO_CHANCE, Game, State
from simlab.engine.layout import MOVE_CARD
from simlab.engine.moves import HIDDEN
from simlab.params import Param
from simlab.policies.base import Policy
from simlab.policies.catalog import register_policy
from simlab.policies.record import PlayRecord
from simlab.policies.referee import Referee
from simlab.solver import DEFAULT_TABLE_BITS
from simlab.solver.fair import sampled_tape
from simlab.solver.lookahead import STATUS_LOST, STATUS_WON, lookahead, position_key
from simlab.solver.sampling import advance, card_slots, complete, legal_codes, unseen_cards


def samples_in(game: Game) -> bool:
    """Whether the lookahead player determinizes in ``game`` (hidden cards or redeals)."""
    return bool(game.has_hidden_cards or game.has_chance)


class Memory:
    """What the player knows now (``known``: the position, with ``HIDDEN`` where it
    has not seen a card) and every position it has been in."""

    def __init__(self, game: Game, view: np.ndarray) -> None:
        self.game = game
        self.known = view
        self.exact: set[int] = {self.exact_key(view)}  # every position so far, as the player knew it
        # The positions so far with the same hidden slots as now (cards once seen stay known and hidden
        # cards never come back, so no earlier position can recur); by their search hash in an open game.
        self.alike: list[np.ndarray] = [view]
        self.keys: list[int] = [] if self.hides_cards() else [position_key(game, view)]

    def hides_cards(self) -> bool:
        return bool(np.any(self.known[card_slots(self.game)] == HIDDEN))

    def exact_key(self, array: np.ndarray) -> int:
        return int(kernel.position_hash(self.game.rules, array, kernel.ZOBRIST))

    def seen_after(self, code: int) -> bool:
        """Whether card move ``code`` would bring back a position the player has been in
        (any other move changes a counter or the stock for good)."""
        if kernel.move_kind(code) != MOVE_CARD:
            return False
        after = self.known.copy()
        moves.play(self.game.rules, after, code, NO_CHANCE, np.empty_like(after))
        return self.exact_key(after) in self.exact

    def learn(self, code: int, view: np.ndarray) -> None:
        """The player made ``code`` and now sees ``view``."""
        mask = self.known[card_slots(self.game)] == HIDDEN
        if self.game.has_hidden_cards:
            self.known, _ = advance(self.game, self.known, code, view)
        else:  # (it sees every card; ``advance`` cannot replay a redeal, which it does not foresee)
            self.known = view
        self.exact.add(self.exact_key(self.known))
        if not np.array_equal(mask, self.known[card_slots(self.game)] == HIDDEN):
            self.alike = []
        self.alike.append(self.known)
        if not self.hides_cards():
            self.keys.append(position_key(self.game, self.known))

    def seen_keys(self, order: np.ndarray) -> np.ndarray:
        """The search hashes of the positions so far that could recur, their hidden
        slots filled as the sample ``order`` fills them now."""
        if not self.hides_cards():
            return np.array(self.keys, dtype=np.uint64)
        keys = [position_key(self.game, complete(self.game, array, order)) for array in self.alike]
        return np.array(keys, dtype=np.uint64)


@register_policy
class LookaheadPolicy(Policy):
    """Searches ``budget`` positions before each move and plays toward the best it found (module docstring)."""

    name = "lookahead"
    budgeted = True
    budget_phrase = "lookahead budget {budget:,} positions per move"
    parameters = {
        "budget": Param(int, 1000, "most positions searched before each move", low=1, high=10**8),
        "win_share": Param(float, 0.0, "share of each move's budget first spent by the solver's own search "
                           "for a win (restarts of best-first and depth-first); the rest looks for the best line",
                           low=0.0, high=1.0),
        "table_bits": Param(int, DEFAULT_TABLE_BITS, "transposition table of at most 2**bits positions "
                            "(8 bytes each)", low=10, high=30),
    }

    def is_stochastic(self, game: Game | None = None) -> bool:
        """Whether its play draws on ``rng``: in a game with hidden cards or redeals
        (it samples them), not in an open game without chance; True when no game is named."""
        return game is None or samples_in(game)

    def play(self, game: Game, state: State, rng: np.random.Generator) -> PlayRecord:
        referee = Referee(game, state, self.params["max_moves"])
        memory = Memory(game, referee.view())
        budget, table_bits, win_share = self.params["budget"], self.params["table_bits"], self.params["win_share"]
        sampling = samples_in(game)
        nodes = 0
        while not referee.over:
            array, chance, order = memory.known, NO_CHANCE, np.empty(0, dtype=np.int8)
            if game.has_hidden_cards:
                order = rng.permutation(unseen_cards(game, memory.known))
                array = complete(game, memory.known, order)
            if game.has_chance:
                chance = sampled_tape(game, rng)
            status, spent, line, safe = lookahead(game, array, chance, budget, table_bits, memory.seen_keys(order),
                                                 win_share)
            nodes += spent
            if status == STATUS_LOST and not sampling:
                return referee.stopped(nodes)
            if not sampling and status == STATUS_WON:
                chosen = line
            elif line and not memory.seen_after(line[0]):
                chosen = line[: max(1, 0 if sampling else safe)]
            else:  # (a sample's line may go back where the player has been: it does not know the hidden cards)
                chosen = [code for code in legal_codes(game, memory.known) if not memory.seen_after(code)][:1]
            if not chosen:
                return referee.stopped(nodes)
            for code in chosen:
                if referee.over:
                    break
                referee.make([code])
                memory.learn(code, referee.view())
        return referee.stopped(nodes)
