"""Bounded lookahead: the searches of the ``lookahead`` player (``simlab.policies.lookahead``).

A budgeted search that does not have to win to be useful: it returns the
line to the *best* position it found within ``budget`` positions, a winning
line if it found a win, else the line to the position (other than the start)
with the highest ``simlab.solver.evaluation.promise`` under the solver's
weights (``simlab.solver.portfolio.PROMISE_WEIGHTS``), the first found among
equals, leaving out dead ends the loss proof (``simlab.solver.deadlock``)
recognises. Positions whose hashes the caller passes as ``seen`` (the
player's positions so far) start in the transposition table, so the line never
reaches one of them.

Two searches, by the kind of game (the search plan's ``lookahead``):
- card moves only (every game but those with a stock or redeals): the solver's
  own best-first search (``simlab.solver.best_first.expand_best_first``), with
  its safe automatic plays and pruned move lists. The automatic plays appear in
  the line as moves of their own (the line's first move may be one).
- a stock or redeals (Windmill, La Belle Lucie, Trefoil): ``plain_best_first``,
  the same best-first order over every legal move (made on a copy of the
  position, ``simlab.engine.moves.play_any``), without automatic plays or
  pruning: the solver's best-first search plays card moves only.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel, moves
from simlab.engine.game import Game
from simlab.engine.layout import N_CARDS
from simlab.engine.position_set import add, can_grow, capacity, grown, new_position_set
from simlab.interrupts import signals_deferred
from simlab.solver.best_first import (
    FIRST_NODES,
    bucket_of,
    expand_best_first,
    line_to,
    path_to,
    priority_range,
    queue_pop,
    queue_push,
)
from simlab.solver.deadlock import provably_lost
from simlab.solver.evaluation import promise
from simlab.solver.plan import LOOKAHEAD_EVERY_MOVE, PLAN_AUTOPLAY, PLAN_RELAXATION, plan_for
from simlab.solver.portfolio import PROMISE_WEIGHTS, portfolio_search
from simlab.solver.search import (
    FIRST_TABLE_ENTRIES,
    MAX_BRANCHING,
    STATUS_BUDGET,
    STATUS_LOST,
    STATUS_MEMORY,
    STATUS_WON,
    grow,
    play_safe_moves,
)

NO_LINE = np.empty(0, dtype=np.int32)


@njit(cache=True)
def card_lookahead(rules, plan, state, zobrist, budget, table_bits, weights, seen):
    """The lookahead of a game with card moves only, by the solver's best-first search
    (module docstring). Returns (status, nodes, line, safe): ``STATUS_*`` as
    ``best_first_search``'s, the positions searched, the line from ``state``
    (empty when no move leads anywhere new or the start is proved lost), and
    how many of its first moves are the safe automatic plays from ``state``
    itself (any search from there starts with them)."""
    autoplay = plan[PLAN_AUTOPLAY]
    root = state.copy()
    auto_log = np.empty(rules[N_CARDS] + 1, dtype=np.int32)
    safe = play_safe_moves(rules, root, auto_log, 0, autoplay)
    if kernel.is_won(rules, root):
        return STATUS_WON, np.int64(1), line_to(rules, state, NO_LINE, 0, autoplay), safe
    if provably_lost(rules, root, plan[PLAN_RELAXATION]):
        return STATUS_LOST, np.int64(1), NO_LINE, 0
    status, nodes, tree, node, move, best = expand_best_first(
        rules, root, zobrist, budget, table_bits, weights, 0, auto_log, plan, seen
    )
    if status == STATUS_WON:
        path = path_to(tree.parent, tree.via, node, move)
    elif best > 0:
        path = path_to(tree.parent, tree.via, tree.parent[best], tree.via[best])
    else:
        path = NO_LINE
    return status, nodes, line_to(rules, state, path, len(path), autoplay), safe


@njit(cache=True)
def plain_best_first(rules, plan, state, chance, zobrist, budget, table_bits, weights, seen):
    """``card_lookahead`` for any game (a stock, redeals): best-first over every
    legal move, each made on a copy (``chance``: the tape redeals shuffle with).
    No automatic plays, no pruned move lists. Returns (status, nodes, line, 0)."""
    if kernel.is_won(rules, state):
        return STATUS_WON, np.int64(1), NO_LINE, 0
    relaxation = plan[PLAN_RELAXATION]
    if provably_lost(rules, state, relaxation):
        return STATUS_LOST, np.int64(1), NO_LINE, 0
    table = new_position_set(min(budget, FIRST_TABLE_ENTRIES) + len(seen), table_bits)
    for key in seen:
        add(table, key)
    add(table, kernel.position_hash(rules, state, zobrist))
    size = state.shape[0]
    pool = np.empty((FIRST_NODES, size), dtype=np.int8)
    parent = np.empty(FIRST_NODES, dtype=np.int32)
    via = np.empty(FIRST_NODES, dtype=np.int32)
    next_in_bucket = np.empty(FIRST_NODES, dtype=np.int32)
    low_bucket, bucket_count = priority_range(rules, weights)
    heads = np.full(bucket_count, -1, dtype=np.int32)
    pool[0] = state
    parent[0] = -1
    via[0] = -1
    top = queue_push(heads, next_in_bucket, -1, bucket_of(promise(rules, state, weights), low_bucket), 0)
    legal = np.empty(MAX_BRANCHING, dtype=np.int32)
    cards = np.empty(rules[N_CARDS], dtype=np.int64)
    work = state.copy()
    nodes = np.int64(1)
    best = np.int64(-1)
    best_priority = -np.inf
    status = STATUS_LOST
    while status == STATUS_LOST:
        node, top = queue_pop(heads, next_in_bucket, top)
        if node < 0:
            break
        count = kernel.legal_moves(rules, pool[node], legal)
        for i in range(count):
            if nodes >= budget:
                status = STATUS_BUDGET
                break
            work[:] = pool[node]
            moves.play_any(rules, work, legal[i], chance, cards)
            if kernel.is_won(rules, work):
                return STATUS_WON, nodes + 1, path_to(parent, via, node, legal[i]), 0
            if not add(table, kernel.position_hash(rules, work, zobrist)):
                continue
            if nodes >= capacity(table) - len(seen):
                if not can_grow(table, table_bits):
                    status = STATUS_MEMORY
                    break
                table = grown(table)
            if nodes >= parent.shape[0]:
                bigger = np.empty((2 * pool.shape[0], size), dtype=np.int8)
                bigger[: pool.shape[0]] = pool
                pool = bigger
                parent, via, next_in_bucket = grow(parent, nodes), grow(via, nodes), grow(next_in_bucket, nodes)
            parent[nodes] = node
            via[nodes] = legal[i]
            if not provably_lost(rules, work, relaxation):  # a dead end is counted, never expanded nor chosen
                pool[nodes] = work
                priority = promise(rules, work, weights)
                top = queue_push(heads, next_in_bucket, top, bucket_of(priority, low_bucket), nodes)
                if priority > best_priority:
                    best, best_priority = nodes, priority
            nodes += 1
    if best < 0:
        return status, nodes, NO_LINE, 0
    return status, nodes, path_to(parent, via, parent[best], via[best]), 0


def lookahead(game: Game, array: np.ndarray, chance: np.ndarray, budget: int, table_bits: int,
              seen: np.ndarray, win_share: float = 0.0) -> tuple[int, int, list[int], int]:
    """The bounded search of the ``lookahead`` player from the full position
    ``array`` (a sample of what it sees, in a game with hidden cards), with the
    chance tape ``chance`` (its own, in a game with redeals), never reaching a
    position whose search hash (``position_key``) is in ``seen``.

    With a ``win_share`` above 0, that share of ``budget`` goes first to the
    solver's own search for a win (``simlab.solver.portfolio.portfolio_search``:
    restarts of best-first and depth-first searches, the deals pure best-first
    misses); a win it finds is kept unless it passes through a position of
    ``seen``; a proof that ``array`` is lost ends the search. The best-first
    search for the best line gets the rest.

    Returns:
        (status, nodes, line, safe): ``STATUS_*`` (``STATUS_WON``: ``line`` wins from
        ``array``; ``STATUS_LOST``: every position reachable without one of
        ``seen`` was searched and none wins), the positions searched (at most
        ``budget``), and the line of move codes to the best position found
        (module docstring), empty when there is none; ``safe``: how many of its
        first moves are the safe automatic plays any search from ``array`` starts with.
    """
    plan = plan_for(game)
    seen = np.asarray(seen, dtype=np.uint64)
    spent = 0
    share = int(budget * win_share)
    if share >= 1 and budget - share >= 1:
        status, spent, codes = portfolio_search(game, plan, array.copy(), chance, share, table_bits)
        spent = int(spent)
        if status == STATUS_WON and not reaches(game, array, chance, codes, seen):
            return STATUS_WON, spent, [int(code) for code in codes], 0
        if status == STATUS_LOST:
            return STATUS_LOST, spent, [], 0
    rest = budget - spent
    with signals_deferred():  # a signal waits for the compiled search (``simlab.interrupts``)
        if plan.lookahead == LOOKAHEAD_EVERY_MOVE:
            status, nodes, line, safe = plain_best_first(
                game.rules, plan.array, array.copy(), chance, plan.zobrist, rest, table_bits, PROMISE_WEIGHTS, seen
            )
        else:
            status, nodes, line, safe = card_lookahead(
                game.rules, plan.array, array.copy(), plan.zobrist, rest, table_bits, PROMISE_WEIGHTS, seen
            )
    return int(status), spent + int(nodes), [int(code) for code in line], int(safe)


def reaches(game: Game, array: np.ndarray, chance: np.ndarray, codes: np.ndarray, seen: np.ndarray) -> bool:
    """Whether the line ``codes`` from ``array`` passes through a position whose search hash is in ``seen``."""
    keys = set(seen.tolist())
    if not keys:
        return False
    position = array.copy()
    record = np.empty_like(position)
    for code in codes:
        moves.play(game.rules, position, int(code), chance, record)
        if position_key(game, position) in keys:
            return True
    return False


def position_key(game: Game, array: np.ndarray) -> int:
    """The hash the lookahead searches know a position by (the solver's, ``plan.zobrist``)."""
    return int(kernel.position_hash(game.rules, array, plan_for(game).zobrist))


__all__ = ["STATUS_BUDGET", "STATUS_LOST", "STATUS_MEMORY", "STATUS_WON", "lookahead", "position_key"]
