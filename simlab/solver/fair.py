"""Fair planning: the searches of the players that never look at a future shuffle.

In La Belle Lucie and Trefoil every card is face up; what a player cannot know
is how a redeal will shuffle. The solver's ``thoughtful`` search knows the
deal's shuffles (an upper bound on any player). A *fair* player sees the
position and must choose, each round, where to stop and redeal without knowing
the shuffle; whatever such a player wins is a lower bound on perfect fair play,
so the two figures bracket it. The players live in ``simlab.policies``
(``round_max``; ``solver`` with ``mode: fair``: ``simlab.policies.fair_rounds``);
this module holds the plan the fair solver makes at a redeal.

``choose_plan`` is a rollout planner. Where to redeal is the only choice a
round leaves that the shuffle does not undo: the fans are gathered and, from
the player's point of view, shuffled uniformly, so what the redeal brings
depends only on which cards are home. The round search
(``simlab.solver.rounds.reachable_homes``) lists every set of cards home the
round can reach when every safe card goes home at once, with a line to each;
the planner keeps the few with the most cards home and those no other set
dominates (as many cards of every suit home, more of one), and plays each out
against the same ``samples`` shuffle sequences of its own (uniform, from its
own random generator, never the deal's): redeal with the sequence, play every
later round as ``round_max`` does, and solve the last round outright. It picks
the line to the set that won most play-outs (then the one with most cards
home, then the first found). Rolling out ``round_max`` and keeping its own
choice among the candidates makes this a one-step improvement on it (exactly
so as the samples grow).

Cost per plan: one round search and ``samples`` play-outs per candidate set
(each a round search per later round and a solve of at most ``sample_budget``
positions).
"""

from __future__ import annotations

import numpy as np

from simlab.engine.game import REDEAL, Game, State
from simlab.engine.moves import TAPE_MT, play
from simlab.solver import solve
from simlab.solver.rounds import best_round, heights_of, reachable_homes, undominated

# A rollout plays its later rounds as round_max with this budget per round: a
# cheaper stand-in, still fair (any fair rollout policy keeps the player fair).
ROLLOUT_ROUND_BUDGET = 1_000
# Candidate sets of cards home at a redeal: these many with the most cards home,
# and every set no other dominates. Fewer cards home is not always worse: on La
# Belle Lucie deals 4 and 5 a set one card short of the most won 7 and 6 of 32
# play-outs against 4 and 1 (a card left in the fans changes how the redeal
# falls into threes), so dominated sets are weighed too.
MOST_HOME_CANDIDATES = 4


def sampled_tape(game: Game, rng: np.random.Generator) -> np.ndarray:
    """A chance tape of the player's own: uniform numbers in the Mersenne Twister
    format (``simlab.engine.moves.TAPE_MT``), so every shuffle it drives is
    uniform; enough for every redeal of the game."""
    count = max(1, game.table.redeals) * (game.table.n_cards - 1)
    return np.concatenate(([TAPE_MT], rng.random(count)))


def can_redeal(game: Game, state: State) -> bool:
    """Whether a redeal is among ``state``'s legal moves."""
    return game.move_code(REDEAL) in game.legal_move_codes(state).tolist()


def choose_plan(game: Game, view: np.ndarray, rng: np.random.Generator, samples: int, sample_budget: int,
                round_budget: int) -> tuple[list[int], int]:
    """The moves to play this round before redealing (module docstring), and the positions searched."""
    lines, nodes = reachable_homes(game, view, round_budget)
    by_home = sorted(lines, key=lambda key: -sum(heights_of(key)))  # stable: first reached first among equals
    most = by_home[:MOST_HOME_CANDIDATES]
    candidates = most + [key for key in undominated(by_home) if key not in most]
    if len(candidates) == 1:
        return lines[candidates[0]].tolist(), nodes
    tapes = [sampled_tape(game, rng) for _ in range(samples)]  # the same for every candidate: a fairer comparison
    best, best_score = candidates[0], (-1, -1)
    for key in candidates:
        end = end_of(game, view, lines[key].tolist())
        if game.is_won(State(end)):
            return lines[key].tolist(), nodes
        wins = 0
        for tape in tapes:
            won, spent = rollout(game, end, tape, sample_budget, ROLLOUT_ROUND_BUDGET)
            wins += won
            nodes += spent
        score = (wins, sum(heights_of(key)))
        if score > best_score:
            best, best_score = key, score
    return lines[best].tolist(), nodes


def end_of(game: Game, view: np.ndarray, codes: list[int]) -> np.ndarray:
    """The position after ``codes`` (moves other than a redeal) from ``view``."""
    array = view.copy()
    record = np.empty_like(array)
    for code in codes:
        play(game.rules, array, code, np.zeros(1), record)
    return array


def rollout(game: Game, end: np.ndarray, tape: np.ndarray, sample_budget: int, round_budget: int) -> tuple[bool, int]:
    """Whether a fair player wins from ``end`` (a position where it redeals) if
    the shuffles to come are ``tape``'s: redeal, then play each later round as
    ``round_max`` does and solve the last one outright. Returns (won, positions searched)."""
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
    return result.won, nodes + result.nodes
