"""The most cards a round of play can send home: an exhaustive search within
one round (every move but a redeal), for the policies that plan round by round.

A *round* is the play between two redeals (or after the last one). Within it
every card is face up and no shuffle happens, so a player can search it
exactly without peeking at anything: this is the simplest sound fair strategy
for La Belle Lucie (``round_max``), and one of the plans the fair solver
weighs. The search is depth-first over every legal move except a redeal (a
draw included, once no redeal is left), with a set of the positions seen; it
keeps the first line that reaches the most cards home. Each move is made with
``simlab.engine.moves.play`` and followed by the safe plays home; the search
saves the position before it and puts it back, so it works for every kind of
move. Its budget counts distinct positions; a search cut short keeps
the best line found so far (``RoundPlan.exhausted`` says which).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simlab.engine import kernel, moves, position_set
from simlab.engine.game import MAX_LEGAL_MOVES
from simlab.engine.layout import FIRST_FOUNDATION, MOVE_BASE, MOVE_REDEAL, N_CARDS, N_PILES, STATE_SIZE
from simlab.interrupts import signals_deferred
from simlab.solver.autoplay import safe_within_round
from simlab.solver.plan import plan_for

ROUND_BRANCHING = MAX_LEGAL_MOVES  # room for every move the kernel may list
ROUND_DEPTH = 1024  # the longest line searched (a round of La Belle Lucie takes under 100 moves)
# positions per round (the costliest La Belle Lucie deal of 1-200 took 2.0 CPU-s, ~90,000 positions in all)
DEFAULT_ROUND_BUDGET = 100_000
TABLE_BITS = 24  # the set of positions seen grows to 2**24 slots (128 MiB) at most


class RoundPlan(NamedTuple):
    """What ``best_round`` found.

    Attributes:
        moves: move codes from the position, the first line reaching ``home``.
        home: cards on the foundations at its end.
        exhausted: True if every position of the round was searched.
        nodes: distinct positions searched.
    """

    moves: np.ndarray
    home: int
    exhausted: bool
    nodes: int


@njit(cache=True)
def round_moves(rules, state, out):
    """The legal moves of ``state`` other than a redeal, written to ``out``; their count."""
    count = kernel.legal_moves(rules, state, out)
    kept = 0
    for i in range(count):
        if kernel.move_kind(out[i]) != MOVE_REDEAL:
            out[kept] = out[i]
            kept += 1
    return kept


@njit(cache=True)
def play_home(rules, state, line, length, autoplay):
    """Make every safe play home (``autoplay.safe_within_round`` with the rule
    ``autoplay``, the search plan's: playing a card
    home never lowers the most cards the round can send home, by the argument
    of ``simlab.solver.autoplay``), appending them to ``line``; the new length."""
    found = True
    while found:
        found = False
        for source in range(rules[FIRST_FOUNDATION]):
            card = kernel.top_card(rules, state, source)
            if card < 0:
                continue
            for foundation in range(rules[FIRST_FOUNDATION], rules[N_PILES]):
                if kernel.foundation_accepts(rules, state, foundation, card):
                    if safe_within_round(rules, state, card, autoplay):
                        move = source * MOVE_BASE + foundation
                        kernel.apply_move(rules, state, move)
                        line[length] = move
                        length += 1
                        found = True
                    break
    return length


@njit(cache=True)
def hides_a_top(rules, state):
    """Whether some pile's top card is hidden (``moves.HIDDEN``): a player cannot
    plan past a card it has not seen, so the search does not go on from there."""
    for pile in range(rules[N_PILES]):
        if kernel.top_card(rules, state, pile) == moves.HIDDEN:
            return True
    return False


@njit(cache=True)
def most_home(rules, state, chance, zobrist, budget, autoplay):
    """Search the round from ``state`` (left as it was); ``autoplay`` is the
    search plan's rule of automatic plays.

    Each move is followed by the safe plays home; the position before it is
    saved per depth and put back when the search backs up.

    Returns:
        (line, home, exhausted, nodes, homes, starts, lines): the first four as
        ``RoundPlan``; then every distinct ``homes_key`` the search reached (it
        always makes the safe plays home, so a set that keeps such a card in a
        fan is not among them), in the order first reached, with the first line
        reaching it: ``lines[starts[i]:starts[i + 1]]``.
    """
    state = state.copy()
    size = rules[STATE_SIZE]
    saved = np.empty((ROUND_DEPTH, size), dtype=state.dtype)
    legal = np.empty((ROUND_DEPTH, ROUND_BRANCHING), dtype=np.int32)
    count = np.zeros(ROUND_DEPTH, dtype=np.int64)
    tried = np.zeros(ROUND_DEPTH, dtype=np.int64)
    ends = np.zeros(ROUND_DEPTH + 1, dtype=np.int64)  # line length at each depth
    line = np.empty(ROUND_DEPTH * 8 + rules[N_CARDS], dtype=np.int32)
    best_line = np.empty_like(line)
    scratch = np.empty_like(state)
    table = position_set.new_position_set(min(budget, 1 << 16), TABLE_BITS)
    ends[0] = play_home(rules, state, line, 0, autoplay)
    best_length = ends[0]
    best_line[:best_length] = line[:best_length]
    best = kernel.foundation_cards(rules, state)
    position_set.add(table, kernel.position_hash(rules, state, zobrist))
    seen_homes = np.zeros(HOMES_KEYS, dtype=np.bool_)
    homes = np.empty(64, dtype=np.int64)
    starts = np.zeros(65, dtype=np.int64)
    lines = np.empty(4096, dtype=np.int32)
    reached = 0
    homes, starts, lines, reached = keep_homes(rules, state, line, ends[0], seen_homes, homes, starts, lines, reached)
    nodes = 1
    exhausted = True
    count[0] = round_moves(rules, state, legal[0])
    depth = 0
    while depth >= 0 and best < rules[N_CARDS]:
        if tried[depth] == count[depth]:
            depth -= 1
            if depth >= 0:
                state[:] = saved[depth]
            continue
        if nodes >= position_set.capacity(table):
            if not position_set.can_grow(table, TABLE_BITS):
                exhausted = False
                break
            table = position_set.grown(table)
        if nodes >= budget:
            exhausted = False
            break
        move = legal[depth, tried[depth]]
        tried[depth] += 1
        saved[depth] = state
        moves.play(rules, state, move, chance, scratch)
        line[ends[depth]] = move
        ends[depth + 1] = play_home(rules, state, line, ends[depth] + 1, autoplay)
        if not position_set.add(table, kernel.position_hash(rules, state, zobrist)):
            state[:] = saved[depth]
            continue
        nodes += 1
        homes, starts, lines, reached = keep_homes(
            rules, state, line, ends[depth + 1], seen_homes, homes, starts, lines, reached
        )
        home = kernel.foundation_cards(rules, state)
        if home > best:
            best = home
            best_length = ends[depth + 1]
            best_line[:best_length] = line[:best_length]
        if depth + 1 == ROUND_DEPTH:
            exhausted = False  # too long a line: not followed further
            state[:] = saved[depth]
            continue
        depth += 1
        count[depth] = round_moves(rules, state, legal[depth]) if not hides_a_top(rules, state) else 0
        tried[depth] = 0
    return (best_line[:best_length].copy(), best, exhausted, nodes, homes[:reached].copy(),
            starts[: reached + 1].copy(), lines[: starts[reached]].copy())


HOMES_KEYS = 14**4  # ``homes_key`` values: four foundations of 0-13 cards


@njit(cache=True)
def homes_key(rules, state):
    """The cards home as one number: the four foundations' heights in base 14
    (a fan game's foundations by suit; 0 for a game with more foundations)."""
    if rules[N_PILES] - rules[FIRST_FOUNDATION] != 4:
        return 0
    key = 0
    for pile in range(rules[N_PILES] - 1, rules[FIRST_FOUNDATION] - 1, -1):
        key = key * 14 + min(kernel.height(rules, state, pile), 13)
    return key


@njit(cache=True)
def keep_homes(rules, state, line, length, seen, homes, starts, lines, reached):
    """Record ``line[:length]`` as the way to ``state``'s cards home if no line
    reached them before; returns the (possibly grown) arrays and their count."""
    key = homes_key(rules, state)
    if seen[key]:
        return homes, starts, lines, reached
    seen[key] = True
    if reached + 1 >= homes.shape[0]:
        bigger = np.empty(2 * homes.shape[0], dtype=homes.dtype)
        bigger[:reached] = homes[:reached]
        homes = bigger
        more = np.zeros(2 * starts.shape[0], dtype=starts.dtype)
        more[: reached + 1] = starts[: reached + 1]
        starts = more
    end = starts[reached] + length
    if end > lines.shape[0]:
        longer = np.empty(2 * end, dtype=lines.dtype)
        longer[: starts[reached]] = lines[: starts[reached]]
        lines = longer
    lines[starts[reached]: end] = line[:length]
    homes[reached] = key
    starts[reached + 1] = end
    return homes, starts, lines, reached + 1


def best_round(game, array: np.ndarray, chance: np.ndarray, budget: int = DEFAULT_ROUND_BUDGET) -> RoundPlan:
    """The first line from ``array`` (a position of ``game``) that sends the
    most cards home without a redeal. ``chance`` is only read by a redeal, so a
    round's search never uses it; it is passed for the move functions' sake."""
    plan = plan_for(game)
    with signals_deferred():  # a signal waits for the compiled search (``simlab.interrupts``)
        line, home, exhausted, nodes, _, _, _ = most_home(
            game.rules, array, chance, plan.rounds_zobrist, budget, plan.autoplay
        )
    return RoundPlan(line, int(home), bool(exhausted), int(nodes))


def reachable_homes(game, array: np.ndarray, budget: int = DEFAULT_ROUND_BUDGET) -> tuple[dict[int, np.ndarray], int]:
    """Every set of cards home the round from ``array`` can reach with every safe
    card played home at once (as ``homes_key``), each with the first line the
    search found to it; and the positions searched."""
    with signals_deferred():  # a signal waits for the compiled search (``simlab.interrupts``)
        plan = plan_for(game)
        _, _, _, nodes, homes, starts, lines = most_home(
            game.rules, array, np.zeros(1), plan.rounds_zobrist, budget, plan.autoplay
        )
    return {int(key): lines[starts[i]: starts[i + 1]] for i, key in enumerate(homes.tolist())}, int(nodes)


def heights_of(key: int) -> tuple[int, int, int, int]:
    """The four foundation heights of a ``homes_key``."""
    return key % 14, key // 14 % 14, key // 196 % 14, key // 2744


def undominated(keys) -> list[int]:
    """The ``homes_key`` values no other one dominates (as many cards home in
    every suit, more in one), in their given order."""
    heights = {key: heights_of(key) for key in keys}
    return [key for key in keys if not any(
        other != key and all(a >= b for a, b in zip(heights[other], heights[key])) for other in keys)]
