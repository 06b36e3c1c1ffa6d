"""Fair perfect play: plans that never look at a future shuffle.

In La Belle Lucie and Trefoil every card is face up; what a player cannot know
is how a redeal will shuffle. The solver's ``thoughtful`` mode knows the
deal's shuffles (an upper bound on any player). A *fair* player sees the
position and must choose, each round, where to stop and redeal without knowing
the shuffle; whatever such a player wins is a lower bound on perfect fair play,
so the two figures bracket it.

Two fair players live here:

- ``round_max`` (``play_round_max``): each round, the exhaustive round search
  of ``simlab.solver.rounds`` finds the line sending the most cards home; play
  it and redeal. The simplest sound fair strategy (a public La Belle Lucie
  solver plays so).
- ``solver`` with ``mode: fair`` (``play_fair``): perfect-information
  sampling, round by round. At the start of a round with a redeal ahead the
  player draws ``samples`` shuffle sequences of its own (uniform, from its own
  random generator, never the deal's) and solves the position against each
  (the thoughtful solver, ``sample_budget`` positions). A winning line that
  needs no redeal wins whatever the shuffles: it is played. Otherwise each
  winning line's moves up to its first redeal are a *plan*; the plans, with
  ``round_max``'s line, are scored on ``samples`` fresh sequences: redeal at
  the plan's end with that sequence and solve; the plan winning most often
  (then sending most cards home) is played, and the real redeal follows. Once
  no redeal is left nothing is unknown and the position is solved outright.
  Fresh sequences score the plans so that a plan is not favoured by the very
  shuffle it was made for.

Cost per deal: at most ``samples * (plans + 2)`` solves per round with a
redeal ahead, each of at most ``sample_budget`` positions, plus one solve of
the last round.
"""

from __future__ import annotations

import numpy as np

from simlab.engine.game import REDEAL, Game, Move, State
from simlab.engine.moves import TAPE_MT, play
from simlab.policies.record import LOST, WON, PlayRecord
from simlab.solver.rounds import DEFAULT_ROUND_BUDGET, best_round


def sampled_tape(game: Game, rng: np.random.Generator) -> np.ndarray:
    """A chance tape of the player's own: uniform numbers in the Mersenne Twister
    format (``simlab.engine.moves.TAPE_MT``), so every shuffle it drives is
    uniform; enough for every redeal of the game."""
    count = max(1, game.table.redeals) * (game.table.n_cards - 1)
    return np.concatenate(([TAPE_MT], rng.random(count)))


class Referee:
    """The real game: the true position (with the deal's own shuffles), changed
    only by ``make``; a player reads ``view()`` (what a real player sees).
    After ``max_moves`` moves it takes no more (``capped``)."""

    def __init__(self, game: Game, state: State, max_moves: int) -> None:
        self.game = game
        self.state = state
        self.max_moves = max_moves
        self.moves: list[Move] = []

    def view(self) -> np.ndarray:
        return self.game.observe(self.state).array

    @property
    def capped(self) -> bool:
        return len(self.moves) >= self.max_moves

    @property
    def over(self) -> bool:
        return self.capped or self.game.is_won(self.state)

    def make(self, codes) -> None:
        for code in codes:
            if self.capped:
                return
            move = self.game.move_from_code(int(code))
            self.state = self.game.apply(self.state, move)
            self.moves.append(move)

    def record(self, reason: str, nodes: int) -> PlayRecord:
        won = self.game.is_won(self.state)
        reason = WON if won else "move_cap" if self.capped else reason
        return PlayRecord(WON if won else LOST, reason, self.moves, self.game.cards_home(self.state), nodes)


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
    return referee.record("stuck", nodes)


def can_redeal(game: Game, state: State) -> bool:
    return game.move_code(REDEAL) in game.legal_move_codes(state).tolist()


def play_fair(game: Game, state: State, rng: np.random.Generator, samples: int, sample_budget: int,
              final_budget: int, max_moves: int, round_budget: int = DEFAULT_ROUND_BUDGET) -> PlayRecord:
    """``solver`` in ``fair`` mode (module docstring), in a game with redeals
    and no hidden card."""
    from simlab.solver import solve

    referee = Referee(game, state, max_moves)
    nodes = 0
    while not referee.over:
        view = referee.view()
        if not can_redeal(game, referee.state):  # the last round: nothing left to chance
            result = solve(game, State(view, sampled_tape(game, rng)), budget=final_budget)
            nodes += result.nodes
            if result.verdict == WON:
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
    return referee.record("stuck", nodes)


def before_redeal(game: Game, moves: list[Move]) -> tuple[list[int], bool]:
    """The codes of ``moves`` up to the first redeal, and whether there was one."""
    codes = []
    for move in moves:
        if tuple(move) == REDEAL:
            return codes, True
        codes.append(game.move_code(move))
    return codes, False


def end_of(game: Game, view: np.ndarray, codes: list[int]) -> np.ndarray:
    """The position after ``codes`` (card moves, no redeal) from ``view``."""
    array = view.copy()
    record = np.empty_like(array)
    for code in codes:
        play(game.rules, array, code, np.zeros(1), record)
    return array


def choose_plan(game: Game, view: np.ndarray, rng: np.random.Generator, samples: int, sample_budget: int,
                round_budget: int) -> tuple[list[int], int]:
    """The moves to play this round before redealing (module docstring), and the positions searched."""
    from simlab.solver import solve

    fallback = best_round(game, view, np.zeros(1), round_budget)
    nodes = fallback.nodes
    plans: dict[bytes, list[int]] = {}
    ends: dict[bytes, np.ndarray] = {}
    fallback_end = end_of(game, view, fallback.moves.tolist())
    plans[fallback_end.tobytes()] = fallback.moves.tolist()
    ends[fallback_end.tobytes()] = fallback_end
    for _ in range(samples):
        result = solve(game, State(view, sampled_tape(game, rng)), budget=sample_budget)
        nodes += result.nodes
        if result.verdict != WON:
            continue
        codes, redeals = before_redeal(game, result.moves)
        if not redeals:
            return codes, nodes  # wins within this round, whatever the shuffles
        end = end_of(game, view, codes)
        plans.setdefault(end.tobytes(), codes)
        ends.setdefault(end.tobytes(), end)
    scoring = [sampled_tape(game, rng) for _ in range(samples)]
    best_key, best_score = None, (-1, -1)
    for key, end in ends.items():
        wins = 0
        for tape in scoring:
            won, spent = rollout(game, end, tape, sample_budget, round_budget)
            wins += won
            nodes += spent
        score = (wins, game.cards_home(State(end)))
        if score > best_score:
            best_key, best_score = key, score
    return plans[best_key], nodes


def rollout(game: Game, end: np.ndarray, tape: np.ndarray, sample_budget: int, round_budget: int) -> tuple[bool, int]:
    """Whether a fair player wins from ``end`` (a position where it redeals) if
    the shuffles to come are ``tape``'s: redeal, then play each later round as
    ``round_max`` does and solve the last one outright. Returns (won, positions searched)."""
    from simlab.solver import solve

    array = end.copy()
    record = np.empty_like(array)
    redeal = game.move_code(REDEAL)
    nodes = 0
    play(game.rules, array, redeal, tape, record)
    while can_redeal(game, State(array)):
        plan = best_round(game, array, tape, round_budget)
        nodes += plan.nodes
        for code in plan.moves.tolist():
            play(game.rules, array, code, tape, record)
        if game.is_won(State(array)):
            return True, nodes
        play(game.rules, array, redeal, tape, record)
    result = solve(game, State(array, tape), budget=sample_budget)
    return result.verdict == WON, nodes + result.nodes
