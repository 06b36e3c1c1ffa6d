"""Greedy best-first search: the solver's main strategy.

Measured first with depth-first search alone: on Beleaguered Castle the deals
left unresolved were almost all wins that depth-first search wandered away
from (losses are usually proved in a few hundred positions). Best-first search
expands the most promising position found so far, wherever it is in the tree,
so it reaches wins far sooner. It keeps every position (the closed set is the
transposition table, the open set a binary heap), so it is still exhaustive:
when no position is left to expand, the deal is lost.

It uses the same rules kernel, safe automatic plays and pruned move lists as
the depth-first search (``simlab.solver.search``); the "card moved last" rule
needs each position's first parent, which this search keeps.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simlab.engine import kernel
from simlab.engine.layout import MOVE_BASE, N_CARDS, N_PILES, STATE_SIZE
from simlab.solver.deadlock import only_rearranges, provably_lost
from simlab.solver.evaluation import promise
from simlab.engine.incremental import apply_move_tracked, hash_after, start_tracking, undo_move_tracked
from simlab.engine.position_set import add, can_grow, capacity, grown, new_position_set
from simlab.solver.search import (
    FIRST_TABLE_ENTRIES, MAX_BRANCHING, ORDER_GUIDED, STATUS_BUDGET, STATUS_LOST, STATUS_MEMORY, STATUS_WON, grow, ordered_moves,
    play_safe_moves, play_safe_moves_tracked, quiet, undo_moves_tracked,
)


PROMISE_NOISE = 15.0  # a few "cards where they belong" worth of jitter


@njit(cache=True)
def promise_noise(seed, key):
    """Reproducible jitter in [0, PROMISE_NOISE) from a position's hash; 0 for seed 0."""
    if seed == 0:
        return 0.0
    value = key ^ (np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15))
    value = (value ^ (value >> np.uint64(31))) * np.uint64(0x94D049BB133111EB)
    value ^= value >> np.uint64(29)
    return PROMISE_NOISE * np.float64(value >> np.uint64(11)) / 9007199254740992.0


@njit(cache=True)
def _before(keys, ids, a, b):
    """Heap order: higher promise first; among equals the newer position."""
    return keys[a] > keys[b] or (keys[a] == keys[b] and ids[a] > ids[b])


@njit(cache=True)
def heap_push(keys, ids, size, key, node):
    keys[size] = key
    ids[size] = node
    child = size
    while child > 0:
        parent = (child - 1) // 2
        if not _before(keys, ids, child, parent):
            break
        keys[child], keys[parent] = keys[parent], keys[child]
        ids[child], ids[parent] = ids[parent], ids[child]
        child = parent
    return size + 1


@njit(cache=True)
def heap_pop(keys, ids, size):
    """Remove the best entry; return (node, new size)."""
    node = ids[0]
    size -= 1
    keys[0] = keys[size]
    ids[0] = ids[size]
    parent = 0
    while True:
        best = parent
        for child in (2 * parent + 1, 2 * parent + 2):
            if child < size and _before(keys, ids, child, best):
                best = child
        if best == parent:
            break
        keys[best], keys[parent] = keys[parent], keys[best]
        ids[best], ids[parent] = ids[parent], ids[best]
        parent = best
    return node, size


@njit(cache=True)
def _grow_rows(pool, needed):
    """``pool`` if it has a row ``needed``, else a copy with twice the rows."""
    if needed < pool.shape[0]:
        return pool
    bigger = np.empty((2 * pool.shape[0], pool.shape[1]), dtype=pool.dtype)
    bigger[: pool.shape[0]] = pool
    return bigger


@njit(cache=True)
def best_first_search(rules, state, zobrist, budget, table_bits, weights, noise_seed):
    """Search from ``state`` (left unchanged). Returns (status, nodes, moves)
    like ``simlab.solver.search.depth_first_search``. A non-zero ``noise_seed``
    adds a reproducible jitter to each position's promise (for restarts)."""
    table = new_position_set(min(budget, FIRST_TABLE_ENTRIES), table_bits)
    max_entries = capacity(table)
    root = state.copy()
    auto_log = np.empty(rules[N_CARDS] + 1, dtype=np.int32)
    play_safe_moves(rules, root, auto_log, 0)
    if kernel.is_won(rules, root):
        return STATUS_WON, np.int64(1), line_to(rules, state, np.empty(0, dtype=np.int32), 0)
    if provably_lost(rules, root):
        return STATUS_LOST, np.int64(1), np.empty(0, dtype=np.int32)
    pool = np.empty((1024, rules[STATE_SIZE]), dtype=np.int8)
    parent = np.empty(1024, dtype=np.int32)
    via = np.empty(1024, dtype=np.int32)  # move from the parent; -1 for the root
    last_moved_to = np.empty(1024, dtype=np.int32)
    keys = np.empty(1024, dtype=np.float64)
    ids = np.empty(1024, dtype=np.int32)
    pool[0] = root
    parent[0] = -1
    via[0] = -1
    last_moved_to[0] = -1
    add(table, kernel.position_hash(rules, root, zobrist))
    nodes = np.int64(1)
    heap_size = heap_push(keys, ids, 0, promise(rules, root, weights), 0)
    scratch = np.empty(MAX_BRANCHING, dtype=np.int32)
    scores = np.empty(MAX_BRANCHING, dtype=np.float64)
    moves = np.empty(MAX_BRANCHING, dtype=np.int32)
    work = root.copy()
    whole = np.empty(rules[N_PILES], dtype=np.float64)
    below_top = np.empty(rules[N_PILES], dtype=np.float64)
    pile_hashes = np.empty(rules[N_PILES], dtype=np.uint64)
    card_piles = np.empty(rules[N_CARDS], dtype=np.int64)
    while heap_size > 0:
        node, heap_size = heap_pop(keys, ids, heap_size)
        work[:] = pool[node]
        node_key = start_tracking(rules, work, zobrist, pile_hashes, card_piles)
        count = ordered_moves(
            rules, work, last_moved_to[node], scratch, scores, moves, 0, ORDER_GUIDED, 0, node_key, card_piles, whole,
            below_top,
        )
        for i in range(count):
            if nodes >= budget:  # checked before a move, so a search never exceeds its budget
                return STATUS_BUDGET, nodes, np.empty(0, dtype=np.int32)
            move = moves[i]
            rearranges = False  # set for a quiet move that only rearranges: the relaxation is skipped after it
            if quiet(rules, work, move):  # look the hash up before making the move
                key = hash_after(rules, work, move, zobrist, pile_hashes, node_key)
                if not add(table, key):
                    continue
                rearranges = only_rearranges(rules, work, move)
                apply_move_tracked(rules, work, move, zobrist, pile_hashes, card_piles, node_key)
                autos, new = 0, True
            else:
                key = apply_move_tracked(rules, work, move, zobrist, pile_hashes, card_piles, node_key)
                autos, key = play_safe_moves_tracked(rules, work, auto_log, 0, zobrist, pile_hashes, card_piles, key)
                if kernel.is_won(rules, work):
                    path = path_to(parent, via, node, move)
                    return STATUS_WON, nodes + 1, line_to(rules, state, path, len(path))
                new = add(table, key)
            if new:
                if nodes >= max_entries:
                    if not can_grow(table, table_bits):
                        return STATUS_MEMORY, nodes, np.empty(0, dtype=np.int32)
                    table = grown(table)
                    max_entries = capacity(table)
                pool = _grow_rows(pool, nodes)
                parent = grow(parent, nodes)
                via = grow(via, nodes)
                last_moved_to = grow(last_moved_to, nodes)
                keys = grow(keys, nodes)
                ids = grow(ids, nodes)
                pool[nodes] = work
                parent[nodes] = node
                via[nodes] = move
                last_moved_to[nodes] = move % MOVE_BASE if autos == 0 else -1
                if not rearranges and provably_lost(rules, work):
                    nodes += 1  # a dead end: counted, never expanded
                else:
                    priority = promise(rules, work, weights) + promise_noise(noise_seed, key)
                    heap_size = heap_push(keys, ids, heap_size, priority, nodes)
                    nodes += 1
            undo_moves_tracked(rules, work, auto_log, 0, autos, zobrist, pile_hashes, card_piles)
            undo_move_tracked(rules, work, move, zobrist, pile_hashes, card_piles, np.uint64(0))
    return STATUS_LOST, nodes, np.empty(0, dtype=np.int32)


@njit(cache=True)
def path_to(parent, via, node, last_move):
    """The chosen moves from the root to ``node``, then ``last_move``."""
    length = 1
    walker = node
    while parent[walker] >= 0:
        length += 1
        walker = parent[walker]
    path = np.empty(length, dtype=np.int32)
    path[length - 1] = last_move
    walker = node
    position = length - 2
    while parent[walker] >= 0:
        path[position] = via[walker]
        position -= 1
        walker = parent[walker]
    return path


@njit(cache=True)
def line_to(rules, start, path, length):
    """The full line from ``start``: the safe plays, then each move of ``path``
    followed by the safe plays it triggers (recomputed, as the search made them)."""
    state = start.copy()
    log = np.empty(rules[N_CARDS] + 1, dtype=np.int32)
    line = np.empty(length + rules[N_CARDS] + 1, dtype=np.int32)
    written = play_safe_moves(rules, state, log, 0)
    line[:written] = log[:written]
    for k in range(length):
        kernel.apply_move(rules, state, path[k])
        line[written] = path[k]
        written += 1
        autos = play_safe_moves(rules, state, log, 0)
        line[written: written + autos] = log[:autos]
        written += autos
    return line[:written]


